/**
 * Delegation (issue 28) in the browser, in both languages: a manager delegates their approvals to a
 * deputy on "My delegation"; the deputy finds the officer's letter under "requiring approval" marked on
 * behalf of the manager, opens it (the approval panel says so too) and approves it — in Arabic, then a
 * second letter in English. The timeline names the deputy and the manager.
 * Screenshots go to test-results/screens/delegation-*.png.
 */
import { expect, test } from './fixtures';
import { Api } from './support/api';
import { chooseOption } from './support/select';
import { AdminShell } from './pages/AdminScreens';
import { PAGES } from '../../src-shared/pages';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Dlg#2025x';

/** A ministry: the minister signs, the budget department's manager gives an opinion; a deputy beside them. */
async function seed(api: Api) {
  const dept = (body: Record<string, unknown>) => api.ok<{ id: number }>('POST', '/ec/departments', body);
  const archive = await dept({ nameAr: 'مكتب الأرشيف', nameEn: 'Archive Office', archiveType: 'inOut' });
  const ministry = await dept({
    nameAr: 'وزارة المالية',
    nameEn: 'Ministry of Finance',
    isEntity: true,
    archiveOfficeId: archive.id,
  });
  const budget = await dept({
    nameAr: 'إدارة الميزانية',
    nameEn: 'Budget Department',
    parentId: ministry.id,
    archiveOfficeId: archive.id,
  });
  const health = await dept({ nameAr: 'وزارة الصحة', nameEn: 'Ministry of Health', type: 'external' });
  const job = await api.ok<{ id: number }>('POST', '/ec/jobs', {
    nameAr: 'موظف',
    nameEn: 'Officer',
    isManager: false,
  });
  const codification = await api.ok<{ id: number }>('POST', '/correspondence/settings/codifications', {
    nameAr: 'صادر عام',
    nameEn: 'General outgoing',
    prefix: 'OUT',
    direction: 'out',
  });
  const author = await api.createRole('Author', {
    [PAGES.outboxAdd]: ['add'],
    [PAGES.outboxDrafts]: ['add', 'edit', 'delete'],
    [PAGES.outboxAwaitingApproval]: [],
  });
  const approver = await api.createRole('Approver', {
    [PAGES.outboxRequiringApproval]: ['approve'],
    [PAGES.memosRequiringApproval]: ['approve'],
  });
  const person = async (
    username: string,
    names: [string, string, string, string],
    departmentId: number,
    roleId: number,
  ) =>
    api.ok<{ id: number }>('POST', '/ec/employees', {
      firstNameAr: names[0],
      lastNameAr: names[1],
      firstNameEn: names[2],
      lastNameEn: names[3],
      departmentId,
      jobId: job.id,
      user: { username, email: `${username}@sijill.test`, roleId, password: PASSWORD },
    });
  await person('officer', ['خالد', 'العتيبي', 'Khalid', 'Alotaibi'], budget.id, author);
  const manager = await person('manager', ['منى', 'الشهري', 'Mona', 'Alshehri'], budget.id, approver);
  await person('deputy', ['سلمان', 'المطيري', 'Salman', 'Almutairi'], budget.id, approver);
  const minister = await person(
    'minister',
    ['فيصل', 'القحطاني', 'Faisal', 'Alqahtani'],
    ministry.id,
    approver,
  );
  await api.ok('PUT', `/ec/departments/${budget.id}/configure`, { managerEmployeeId: manager.id });
  await api.ok('PUT', `/ec/departments/${ministry.id}/configure`, { managerEmployeeId: minister.id });
  return { codification: codification.id, health: health.id };
}

/** The officer writes an outgoing letter and submits it into its proposed circuit (manager, then minister). */
async function letter(
  baseUrl: string,
  ids: { codification: number; health: number },
  subject: string,
): Promise<{ id: number }> {
  const officer = new Api(baseUrl);
  await officer.signIn('officer', PASSWORD);
  const made = await officer.ok<{ id: number; version: number }>('POST', '/correspondence/documents', {
    direction: 'out',
    subject,
    codificationId: ids.codification,
    recipientIds: [ids.health],
  });
  await officer.ok('POST', `/correspondence/documents/${made.id}/submit`, { version: made.version });
  return { id: made.id };
}

/** What the first test seeded, for the next. */
let seeded: { codification: number; health: number } | null = null;

test.describe.configure({ mode: 'serial' });

test('a manager delegates approvals; the deputy approves on their behalf, in Arabic and in English', async ({
  page,
  shell,
}) => {
  test.setTimeout(300_000);
  const ids = await seed(await Api.administrator(shell.apiBaseUrl));
  seeded = ids;
  const first = 'طلب اعتماد بند الصيانة';
  const second = 'طلب اعتماد بند التدريب';
  await letter(shell.apiBaseUrl, ids, first);
  const app = new AdminShell(page);

  // The manager delegates their approvals to the deputy (Arabic, the default).
  await app.open(shell.url);
  await app.signIn('manager', PASSWORD);
  await app.goTo(shell.url, PAGES.myDelegation);
  await expect(page.getByTestId('delegation-form')).toBeVisible();
  await chooseOption(page, page.getByTestId('delegation-delegate'), 'سلمان المطيري');
  await page.getByTestId('delegation-scope').getByText('الاعتمادات', { exact: true }).click();
  await page.getByTestId('delegation-save').click();
  const given = page.getByTestId('delegations-given');
  await expect(given).toContainText('سلمان المطيري');
  await expect(given.getByTestId('delegation-state-inForce')).toBeVisible();
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/delegation-my-ar.png`, fullPage: true });
  await app.signOut();

  // The deputy finds the manager's letter marked on their behalf, and approves it.
  await app.signIn('deputy', PASSWORD);
  await app.goTo(shell.url, PAGES.outboxRequiringApproval);
  const row = page.getByTestId('requiring-list-table').getByRole('row', { name: new RegExp(first) });
  await expect(row.getByTestId('on-behalf-of')).toContainText('نيابة عن منى الشهري');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/delegation-box-ar.png` });
  await row.getByText(first).click();
  await expect(page.getByTestId('approval-on-behalf')).toContainText('نيابة عن منى الشهري');
  await page.getByTestId('approve').click();
  await page.getByRole('dialog').getByRole('button', { name: 'اعتماد' }).click();
  await expect(page.getByTestId('approval-panel').getByTestId('decision-approved')).toBeVisible();
  await expect(page.getByTestId('timeline-on-behalf')).toContainText('نيابة عن منى الشهري');
  await page.screenshot({ path: `${SCREENS}/delegation-approved-ar.png`, fullPage: true });

  // In English: a second letter.
  await letter(shell.apiBaseUrl, ids, second);
  await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await app.goTo(shell.url, PAGES.outboxRequiringApproval);
  const row2 = page.getByTestId('requiring-list-table').getByRole('row', { name: new RegExp(second) });
  await expect(row2.getByTestId('on-behalf-of')).toContainText('On behalf of Mona Alshehri');
  await row2.getByText(second).click();
  await expect(page.getByTestId('approval-on-behalf')).toContainText('On behalf of Mona Alshehri');
  await page.getByTestId('approve').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('approval-panel').getByTestId('decision-approved')).toBeVisible();
  await expect(page.getByTestId('timeline-on-behalf')).toContainText('on behalf of Mona Alshehri');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/delegation-approved-en.png`, fullPage: true });
  await app.switchLanguage();
  await app.signOut();
});

test("the author's bell shows the deputy's approval without reloading, in Arabic and in English", async ({
  page,
  shell,
}) => {
  test.setTimeout(240_000);
  if (!seeded) throw new Error('the first test seeds the ministry');
  const ids = seeded;
  const app = new AdminShell(page);
  await app.open(shell.url);
  await app.signIn('officer', PASSWORD);
  const bell = page.getByTestId('notification-bell');
  for (const lang of ['ar', 'en'] as const) {
    if (lang === 'en') {
      await app.switchLanguage();
      await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    }
    await expect(bell).toHaveAttribute('data-unread', /^\d+$/);
    const before = Number(await bell.getAttribute('data-unread'));
    const subject = lang === 'ar' ? 'طلب اعتماد بند السفر' : 'Travel budget line request';
    const { id } = await letter(shell.apiBaseUrl, ids, subject);
    // The deputy approves on the manager's behalf, from another desk.
    const deputy = new Api(shell.apiBaseUrl);
    await deputy.signIn('deputy', PASSWORD);
    const doc = await deputy.ok<{ version: number }>('GET', `/correspondence/documents/${id}`);
    await deputy.ok('POST', `/correspondence/documents/${id}/approval`, {
      action: 'approve',
      version: doc.version,
    });

    await expect(bell).toHaveAttribute('data-unread', String(before + 1), { timeout: 30_000 });
    await bell.click();
    const row = page
      .getByTestId('notification-panel')
      .locator('[data-unread="true"]', { hasText: subject })
      .first();
    await expect(row).toBeVisible();
    await expect(row).toContainText(
      lang === 'ar' ? 'اعتُمد مستندك في الخطوة 1' : 'Your document was approved at step 1',
    );
    await expect(row).toContainText(
      lang === 'ar'
        ? 'بواسطة سلمان المطيري نيابةً عن منى الشهري'
        : 'By Salman Almutairi on behalf of Mona Alshehri',
    );
    await page.screenshot({ path: `${SCREENS}/delegation-author-bell-${lang}.png` });
    await row.click();
    await expect.poll(() => new URL(page.url()).hash).toContain(`/${id}`);
    await expect(page.getByTestId('document-detail')).toBeVisible({ timeout: 30_000 });
    await expect(bell).toHaveAttribute('data-unread', String(before));
  }
  await app.switchLanguage();
});
