/**
 * Screenshots of the login, two-factor and main layouts (and an administration screen) in Arabic and
 * English, saved under test-results/screens/ for people to look at.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from './fixtures';
import { LoginPage } from './pages/LoginPage';
import { MainLayout } from './pages/MainLayout';
import { TwoFactorPage } from './pages/TwoFactorPage';
import { ADMIN, Api } from './support/api';

test.describe.configure({ mode: 'serial' });

const SCREENS = resolve(import.meta.dirname, '../../test-results/screens');
mkdirSync(SCREENS, { recursive: true });

test.beforeAll(async ({ shell }) => {
  await Api.administrator(shell.apiBaseUrl);
});

for (const lang of ['ar', 'en'] as const) {
  test(`screens in ${lang === 'ar' ? 'Arabic' : 'English'}`, async ({ page, shell }) => {
    const login = new LoginPage(page);
    const main = new MainLayout(page);
    const shot = async (name: string) => {
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${SCREENS}/${name}-${lang}.png` });
    };
    await login.openSignedOut(shell);
    if (lang === 'en') await login.switchTo('English');
    await expect(login.html()).toHaveAttribute('lang', lang);
    await shot('login');

    // The two-factor page as a new user sees it (enrolment offer with the QR code).
    const admin = await Api.administrator(shell.apiBaseUrl);
    const roleId = await admin.createRole(`Screens ${lang}`, { '/correspondence/inbox/incoming': ['edit'] });
    await admin.createUser({ username: `screens-${lang}`, password: 'Screens#2025', roleId });
    await login.signIn(`screens-${lang}`, 'Screens#2025');
    const twoFactor = new TwoFactorPage(page);
    await expect(twoFactor.qr()).toBeVisible();
    await shot('two-factor');
    await page.getByTestId('two-factor-back').click();

    await login.signIn(ADMIN.username, ADMIN.password);
    await expect(main.menu()).toBeVisible();
    await main.go('/correspondence/inbox/incoming');
    await expect(main.pageTitle()).toBeVisible();
    await shot('main-layout');
    await main.go('/user/settings');
    await expect(page.getByTestId('user-info')).toBeVisible();
    await shot('user-settings');
    await main.go('/auth/users');
    await expect(page.locator('.ant-table')).toBeVisible();
    await shot('admin-users');
    await main.go('/no-access');
    await shot('no-access');
    await main.logout();
    if (lang === 'en') await login.switchTo('العربية');
  });
}
