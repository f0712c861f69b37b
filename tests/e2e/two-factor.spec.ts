/**
 * A records officer protects their account with an authenticator app: enrols at sign-in (QR code, a code
 * the test computes from the key shown), then signs in with a code, is refused a wrong code, signs in with
 * a recovery code, and manages two-factor from the user settings.
 */
import { expect, test } from './fixtures';
import { LoginPage } from './pages/LoginPage';
import { MainLayout } from './pages/MainLayout';
import { TwoFactorPage } from './pages/TwoFactorPage';
import { Api, freshTotp } from './support/api';
import { toastSaying } from './support/toasts';

test.describe.configure({ mode: 'serial' });

const OFFICER = { username: 'officer', password: 'Officer#2025' };
let secret = '';
let recoveryCodes: string[] = [];
const usedCodes = new Set<string>();

test.beforeAll(async ({ shell }) => {
  const admin = await Api.administrator(shell.apiBaseUrl);
  const roleId = await admin.createRole('Records officers', { '/correspondence/inbox/incoming': ['edit'] });
  await admin.createUser({ ...OFFICER, roleId, nameAr: 'خالد المسجل', nameEn: 'Khalid Registrar' });
});

test('a user enrols two-factor at sign-in with the QR code and a code from the app', async ({
  page,
  shell,
}) => {
  const login = new LoginPage(page);
  const twoFactor = new TwoFactorPage(page);
  const main = new MainLayout(page);
  await login.openSignedOut(shell);
  await login.signIn(OFFICER.username, OFFICER.password);
  await main.expectPath('/login/two-factor');
  await expect(twoFactor.qr()).toBeVisible();
  await expect(twoFactor.skipButton()).toBeVisible();
  secret = await twoFactor.secret();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  await twoFactor.enter(await freshTotp(secret, usedCodes));
  recoveryCodes = await twoFactor.takeRecoveryCodes();
  expect(recoveryCodes.length).toBeGreaterThanOrEqual(8);
  await expect(main.menu()).toBeVisible();
  await main.expectPath('/correspondence/inbox/incoming');
});

test('signing in again asks for the code: a wrong code is refused, the right one accepted', async ({
  page,
  shell,
}) => {
  const login = new LoginPage(page);
  const twoFactor = new TwoFactorPage(page);
  const main = new MainLayout(page);
  await login.openSignedOut(shell);
  await login.signIn(OFFICER.username, OFFICER.password);
  await main.expectPath('/login/two-factor');
  await expect(twoFactor.root()).toBeVisible();
  await expect(twoFactor.qr()).toHaveCount(0);
  await expect(twoFactor.skipButton()).toHaveCount(0);

  // The two-factor page is reachable only while the step is pending.
  await twoFactor.enter('000000');
  // Said in place, once: no toast repeats it.
  const problem = page.getByTestId('two-factor-problem');
  await expect(problem).toContainText('رمز غير صحيح');
  await expect(problem).toContainText('الرجاء إدخال رمز صحيح');
  await expect(page.locator('.sijill-toast')).toHaveCount(0);
  await main.expectPath('/login/two-factor');

  await twoFactor.enter(await freshTotp(secret, usedCodes));
  await expect(main.menu()).toBeVisible();
  await main.expectPath('/correspondence/inbox/incoming');
  // Signed in, the two-factor page is no longer allowed.
  await main.go('/login/two-factor');
  await main.expectPath('/correspondence/inbox/incoming');
});

test('a recovery code signs in once', async ({ page, shell }) => {
  const login = new LoginPage(page);
  const twoFactor = new TwoFactorPage(page);
  const main = new MainLayout(page);
  await login.openSignedOut(shell);
  await login.signIn(OFFICER.username, OFFICER.password);
  await expect(twoFactor.root()).toBeVisible();
  await twoFactor.enter(recoveryCodes[0]!);
  await expect(main.menu()).toBeVisible();
  await main.logout();

  await login.signIn(OFFICER.username, OFFICER.password);
  await expect(twoFactor.root()).toBeVisible();
  await twoFactor.enter(recoveryCodes[0]!);
  await expect(page.getByTestId('two-factor-problem')).toContainText('رمز غير صحيح');
  await page.getByTestId('two-factor-back').click();
  await main.expectPath('/login');
});

test('user settings: new recovery codes, turning two-factor off and on again, and a password change', async ({
  page,
  shell,
}) => {
  const login = new LoginPage(page);
  const twoFactor = new TwoFactorPage(page);
  const main = new MainLayout(page);
  await login.openSignedOut(shell, '/user/settings');
  await login.signIn(OFFICER.username, OFFICER.password);
  await twoFactor.enter(await freshTotp(secret, usedCodes));
  await expect(main.pageTitle()).toHaveText('إعدادات المستخدم');
  await expect(page.getByTestId('user-info')).toContainText('خالد المسجل');

  // New recovery codes, proven with the password.
  const recovery = page.getByTestId('recovery-form');
  await recovery.getByText('كلمة المرور').click();
  await page.getByTestId('recovery-password').fill(OFFICER.password);
  await page.getByTestId('recovery-submit').click();
  await expect(page.getByTestId('recovery-codes').locator('.recovery-code')).toHaveCount(
    recoveryCodes.length,
  );
  await page.getByTestId('recovery-done').click();

  // Off, with a wrong password first (shown under the field), then the right one.
  const disable = page.getByTestId('disable-form');
  await disable.getByText('كلمة المرور').click();
  await page.getByTestId('disable-password').fill('Wrong#2025');
  await page.getByTestId('disable-submit').click();
  await expect(disable.locator('.ant-form-item-explain-error')).toBeVisible();
  await page.getByTestId('disable-password').fill(OFFICER.password);
  await page.getByTestId('disable-submit').click();
  await expect(page.getByTestId('enable-two-factor')).toBeVisible();

  // On again: QR code, a code, recovery codes shown once.
  await page.getByTestId('enable-two-factor').click();
  await expect(page.getByTestId('settings-totp-qr')).toBeVisible();
  secret = (await page.getByTestId('settings-totp-secret').innerText()).replace(/\s+/g, '');
  await page.getByTestId('enable-code').fill(await freshTotp(secret, usedCodes));
  await page.getByTestId('enable-confirm').click();
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  await page.getByTestId('recovery-done').click();
  await expect(page.getByTestId('disable-form')).toBeVisible();

  // The password: a wrong current one shows under its field; the right one keeps this session.
  await page.getByTestId('old-password').fill('Wrong#2025');
  await page.getByTestId('new-password').fill('Officer#2026');
  await page.getByTestId('new-password-confirmation').fill('Officer#2026');
  await page.getByTestId('change-password').click();
  await expect(page.getByTestId('password-form').locator('.ant-form-item-explain-error')).toBeVisible();
  await page.getByTestId('old-password').fill(OFFICER.password);
  await page.getByTestId('change-password').click();
  await expect(toastSaying(page, 'تم تغيير كلمة المرور', 'success')).toBeVisible();
  await page.reload();
  await expect(main.pageTitle()).toHaveText('إعدادات المستخدم');
  await expect(page.getByTestId('user-info')).toBeVisible();
});

// The offer's key comes from the server after the page is drawn. While it was asked for, a smaller
// placeholder stood in its place, and the page grew when it came: the Skip button moved down under the
// pointer, and a click aimed at it landed elsewhere (a CI run's sign-in stayed on the offer). Here the
// bridge holds the key's answer back until the button's place has been taken.
for (const language of ['العربية', 'English'] as const) {
  test(`the offer does not move when its key arrives (${language})`, async ({ page, shell }) => {
    const admin = await Api.administrator(shell.apiBaseUrl);
    const roleId = await admin.createRole(`Clerks ${language}`, {
      '/correspondence/inbox/incoming': ['view'],
    });
    const user = { username: `late-key-${language === 'English' ? 'en' : 'ar'}`, password: 'LateKey#2025' };
    await admin.createUser({ ...user, roleId, nameAr: 'سارة المتأخرة', nameEn: 'Sara Late' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.routeWebSocket(/\/bridge/, (socket) => {
      const server = socket.connectToServer();
      const setups = new Set<number>();
      socket.onMessage((message) => {
        const request = JSON.parse(String(message)) as { id?: number; channel?: string };
        if (request.channel === 'session:two-factor-setup' && request.id !== undefined)
          setups.add(request.id);
        server.send(message);
      });
      server.onMessage((message) => {
        const answer = JSON.parse(String(message)) as { id?: number };
        if (answer.id !== undefined && setups.has(answer.id)) void held.then(() => socket.send(message));
        else socket.send(message);
      });
    });
    const login = new LoginPage(page);
    const twoFactor = new TwoFactorPage(page);
    await login.openSignedOut(shell);
    if (language === 'English') await login.switchTo('English');
    await login.signIn(user.username, user.password);
    await expect(twoFactor.skipButton()).toBeVisible();
    await expect(twoFactor.qr()).toHaveCount(0); // the key is still held back
    const before = await twoFactor.skipButton().boundingBox();
    release();
    await expect(twoFactor.qr()).toBeVisible();
    await expect(page.getByTestId('totp-secret')).toBeVisible();
    const after = await twoFactor.skipButton().boundingBox();
    expect(before).not.toBeNull();
    expect(after).toEqual(before);
    // The session lives in the shell: leave it signed in (not half-way at the offer) for what follows.
    await twoFactor.skip();
    await expect(new MainLayout(page).menu()).toBeVisible();
    await page.unrouteAll();
  });
}
