/**
 * Who may sign, and what comes after approval (issue 23, items 3 and 4), in the browser, in both languages:
 * - an administrator opens the ministry's signing authority on the department tree and grants it to the
 *   budget department's manager;
 * - an officer sending a letter for approval is offered as signatory only those who hold it (the minister,
 *   the manager granted it — not the officer, not the archive clerk), and the chosen one signs and numbers it;
 * - the archive clerk adds the delivery receipt after approval: it is listed apart from the approved
 *   letter, with its kind, and the timeline says it came after approval.
 * Screenshots go to test-results/screens/signing-*.png.
 */
import { expect, test } from './fixtures';
import { minimalPdf } from './support/pdf';
import { ADMIN, Api } from './support/api';
import { DirectoryDepartmentsScreen } from './pages/DirectoryScreens';
import { chooseOption } from './support/select';
import { AdminShell } from './pages/AdminScreens';
import { PAGES } from '../../src-shared/pages';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Sign#2026';

/** The ministry (an entity, the minister its manager), Budget under it, an archive office. */
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
  await dept({ nameAr: 'وزارة الصحة', nameEn: 'Ministry of Health', type: 'external' });
  const job = await api.ok<{ id: number }>('POST', '/ec/jobs', {
    nameAr: 'موظف',
    nameEn: 'Officer',
    isManager: false,
  });
  await api.ok('POST', '/correspondence/settings/codifications', {
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
  const approver = await api.createRole('Approver', { [PAGES.outboxRequiringApproval]: ['approve'] });
  const clerk = await api.createRole('Outgoing Clerk', { [PAGES.outgoing]: ['edit'] });
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
  const minister = await person(
    'minister',
    ['فيصل', 'القحطاني', 'Faisal', 'Alqahtani'],
    ministry.id,
    approver,
  );
  await person('clerk', ['سعد', 'الحربي', 'Saad', 'Alharbi'], archive.id, clerk);
  await api.ok('PUT', `/ec/departments/${budget.id}/configure`, { managerEmployeeId: manager.id });
  await api.ok('PUT', `/ec/departments/${ministry.id}/configure`, { managerEmployeeId: minister.id });
}

test.describe.configure({ mode: 'serial' });

test('an administrator grants signing authority; only those who hold it are offered as signatory', async ({
  page,
  shell,
}) => {
  test.setTimeout(300_000);
  await seed(await Api.administrator(shell.apiBaseUrl));
  const app = new AdminShell(page);
  const departments = new DirectoryDepartmentsScreen(page);

  // The administrator grants the budget manager signing authority for the ministry.
  await app.open(shell.url);
  await app.signIn(ADMIN.username, ADMIN.password);
  await app.goTo(shell.url, PAGES.departments);
  await departments.select('Ministry of Finance');
  await page.getByTestId('department-signing').click();
  const dialog = page.getByTestId('signing-dialog');
  await expect(dialog.getByTestId('signing-holder')).toHaveCount(1);
  await expect(dialog.getByTestId('signing-holder')).toContainText('فيصل القحطاني');
  // The search gives way to the person chosen, as a tag.
  await chooseOption(page, dialog.getByTestId('signing-pick'), 'منى الشهري', {
    shownIn: dialog.getByTestId('signing-chosen'),
  });
  await dialog.getByTestId('signing-grant-submit').click();
  await expect(dialog.getByTestId('signing-grant')).toContainText('منى الشهري');
  await expect(dialog.getByTestId('signing-holder')).toHaveCount(2);
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/signing-authority-ar.png` });
  await dialog.getByTestId('signing-close').click();
  await app.switchLanguage();
  await page.getByTestId('department-signing').click();
  await expect(dialog.getByTestId('signing-grant')).toContainText('Mona Alshehri');
  await expect(dialog).toContainText('Granted by');
  await page.screenshot({ path: `${SCREENS}/signing-authority-en.png` });
  await dialog.getByTestId('signing-close').click();
  await app.switchLanguage();
  await app.signOut();

  // The officer's circuit: the signatory is chosen among the minister and the manager, nobody else.
  await app.signIn('officer', PASSWORD);
  await app.goTo(shell.url, PAGES.outboxAdd);
  const form = page.getByTestId('outgoing-form');
  await chooseOption(page, page.getByTestId('field-codification'), 'صادر عام');
  await page.getByTestId('field-subject').fill('خطاب بتوقيع المفوض');
  await chooseOption(page, page.getByTestId('field-recipients'), 'وزارة الصحة');
  await page.keyboard.press('Tab');
  await form
    .locator('input[type=file]')
    .setInputFiles({ name: 'letter.pdf', mimeType: 'application/pdf', buffer: minimalPdf() });
  await expect(form.getByTestId('attachment-row')).toContainText('letter.pdf');
  await page.getByTestId('submit-for-approval').click();
  const circuit = page.getByTestId('circuit-dialog');
  await expect(circuit.getByTestId('circuit-step')).toHaveCount(2);
  await expect(circuit.getByTestId('circuit-step').nth(1)).toContainText('فيصل القحطاني');
  // Without the opinion step and the proposed signatory, the picker offers the two holders only.
  await circuit.getByTestId('circuit-step').nth(0).getByRole('button', { name: 'حذف الخطوة' }).click();
  await circuit.getByTestId('circuit-person').locator('.ant-tag-close-icon').click();
  await expect(circuit.getByTestId('circuit-send')).toBeDisabled();
  await circuit.getByTestId('circuit-add-1').click();
  const options = page.locator('.ant-select-dropdown:visible').getByTestId('signatory-option');
  await expect(options).toHaveCount(2);
  await expect(options.nth(0)).toContainText('فيصل القحطاني');
  await expect(options.nth(1)).toContainText('منى الشهري');
  await expect(page.locator('.ant-select-dropdown:visible')).not.toContainText('خالد العتيبي');
  await expect(page.locator('.ant-select-dropdown:visible')).not.toContainText('سعد الحربي');
  await page.screenshot({ path: `${SCREENS}/signing-circuit-ar.png` });
  await options.nth(1).click();
  await expect(circuit.getByTestId('circuit-person')).toContainText('منى الشهري');
  await circuit.getByTestId('circuit-send').click();
  await expect(page.getByTestId('submitted-note')).toBeVisible();
  await app.signOut();

  // The manager, granted it, signs: the letter takes its number.
  await app.signIn('manager', PASSWORD);
  await app.goTo(shell.url, PAGES.outboxRequiringApproval);
  await page.getByTestId('requiring-list-table').getByText('خطاب بتوقيع المفوض').click();
  await page.getByTestId('approve').click();
  await page.getByRole('dialog').getByRole('button', { name: 'اعتماد' }).click();
  await expect(page.getByTestId('doc-number')).toHaveText(/^OUT-\d{4}-\d{6}$/);
  const number = (await page.getByTestId('doc-number').innerText()).trim();
  await app.signOut();

  // The archive clerk adds the delivery receipt after approval: apart, with its kind, in the timeline.
  await app.signIn('clerk', PASSWORD);
  await app.goTo(shell.url, PAGES.outgoing);
  await page.getByTestId('outgoing-list-table').getByText(number).click();
  const additions = page.getByTestId('additions-panel');
  await expect(additions).toBeVisible();
  await chooseOption(page, additions.getByTestId('addition-kind'), 'إشعار استلام', { type: false });
  await additions
    .locator('input[type=file]')
    .setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: minimalPdf() });
  await expect(additions.getByTestId('addition-row')).toContainText('receipt.pdf');
  await expect(additions.getByTestId('addition-row')).toContainText('إشعار استلام');
  await expect(page.getByTestId('attachments-panel').getByTestId('attachment-row')).toHaveCount(1);
  await expect(page.getByTestId('timeline')).toContainText('أُضيف بعد الاعتماد: إشعار استلام — receipt.pdf');
  await expect(page.getByTestId('doc-number')).toHaveText(number);
  await page.screenshot({ path: `${SCREENS}/signing-additions-ar.png`, fullPage: true });
  await app.switchLanguage();
  await expect(additions).toContainText('Added after approval');
  await expect(additions.getByTestId('addition-row')).toContainText('Delivery receipt');
  await page.screenshot({ path: `${SCREENS}/signing-additions-en.png`, fullPage: true });
  await app.switchLanguage();
  await app.signOut();
});
