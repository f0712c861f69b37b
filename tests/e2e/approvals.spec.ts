/**
 * Outgoing letters and memos through their approval circuits, in the browser, in both languages:
 * - an officer writes an outgoing letter with a PDF and submits it (the proposed circuit: their manager,
 *   then the minister who signs); the manager requests a change; the officer finds it under "requiring
 *   changes", fixes it and resubmits; the manager approves; the minister (in English) approves and the
 *   letter takes its number; the archive clerk sees it awaiting dispatch and records the dispatch;
 * - a memo approved by its signatory reaches another department, whose manager finds it in approved memos.
 * Screenshots of each screen go to test-results/screens/approvals-*.png.
 */
import { expect, test } from './fixtures';
import { minimalPdf } from './support/pdf';
import { ADMIN, Api } from './support/api';
import { DirectoryDepartmentsScreen } from './pages/DirectoryScreens';
import { chooseOption } from './support/select';
import { AdminShell } from './pages/AdminScreens';
import { PAGES } from '../../src-shared/pages';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Circ#2025';

/** The ministry: an entity (the minister signs), Finance under it, HR beside it, an archive office. */
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
  const hr = await dept({
    nameAr: 'الموارد البشرية',
    nameEn: 'Human Resources',
    parentId: ministry.id,
    archiveOfficeId: archive.id,
  });
  await dept({ nameAr: 'وزارة الصحة', nameEn: 'Ministry of Health', type: 'external' });
  const job = await api.ok<{ id: number }>('POST', '/ec/jobs', {
    nameAr: 'موظف',
    nameEn: 'Officer',
    isManager: false,
  });
  const cod = (nameAr: string, nameEn: string, prefix: string, direction: string) =>
    api.ok('POST', '/correspondence/settings/codifications', { nameAr, nameEn, prefix, direction });
  await cod('صادر عام', 'General outgoing', 'OUT', 'out');
  await cod('مذكرة داخلية', 'Internal memo', 'MEMO', 'memo');
  await api.ok('POST', '/correspondence/settings/mediums', { nameAr: 'بريد', nameEn: 'Mail' });

  const author = await api.createRole('Author', {
    [PAGES.outboxAdd]: ['add'],
    [PAGES.outboxDrafts]: ['add', 'edit', 'delete'],
    [PAGES.outboxAwaitingApproval]: [],
    [PAGES.memoAdd]: ['add'],
    [PAGES.memoDrafts]: ['add', 'edit', 'delete'],
    [PAGES.memosAwaitingApproval]: [],
  });
  const approver = await api.createRole('Approver', {
    [PAGES.outboxRequiringApproval]: ['approve'],
    [PAGES.memosRequiringApproval]: ['approve'],
    [PAGES.approvedMemos]: ['distribute'],
  });
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
  const hrManager = await person('hrmanager', ['ريم', 'الدوسري', 'Reem', 'Aldosari'], hr.id, approver);
  await person('clerk', ['سعد', 'الحربي', 'Saad', 'Alharbi'], archive.id, clerk);
  await api.ok('PUT', `/ec/departments/${budget.id}/configure`, { managerEmployeeId: manager.id });
  await api.ok('PUT', `/ec/departments/${ministry.id}/configure`, { managerEmployeeId: minister.id });
  await api.ok('PUT', `/ec/departments/${hr.id}/configure`, { managerEmployeeId: hrManager.id });
}

test.describe.configure({ mode: 'serial' });

test('an outgoing letter: written, sent back for a change, fixed, approved, numbered and dispatched', async ({
  page,
  shell,
}) => {
  test.setTimeout(300_000);
  await seed(await Api.administrator(shell.apiBaseUrl));
  const app = new AdminShell(page);
  const subject = 'الرد على طلب بيانات الميزانية';

  // The officer writes the letter (Arabic, the default) and submits it.
  await app.open(shell.url);
  await app.signIn('officer', PASSWORD);
  await app.goTo(shell.url, PAGES.outboxAdd);
  const form = page.getByTestId('outgoing-form');
  await expect(form).toBeVisible();
  await chooseOption(page, page.getByTestId('field-codification'), 'صادر عام');
  await page.getByTestId('field-subject').fill(subject);
  await page.getByTestId('field-summary').fill('نفيدكم بأن بيانات الميزانية مرفقة.');
  await chooseOption(page, page.getByTestId('field-recipients'), 'وزارة الصحة');
  await page.keyboard.press('Tab');
  await form
    .locator('input[type=file]')
    .setInputFiles({ name: 'letter.pdf', mimeType: 'application/pdf', buffer: minimalPdf() });
  await expect(form.getByTestId('attachment-row')).toContainText('letter.pdf');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-outgoing-form-ar.png`, fullPage: true });
  await page.getByTestId('submit-for-approval').click();
  const dialog = page.getByTestId('circuit-dialog');
  await expect(dialog.getByTestId('circuit-step')).toHaveCount(2);
  await expect(dialog.getByTestId('circuit-step').nth(0)).toContainText('منى الشهري');
  await expect(dialog.getByTestId('circuit-step').nth(1)).toContainText('فيصل القحطاني');
  await expect(dialog.getByTestId('circuit-step').nth(1)).toContainText('صاحب التوقيع');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-circuit-ar.png` });
  await page.getByTestId('circuit-send').click();
  await expect(page.getByTestId('submitted-note')).toBeVisible();
  await app.signOut();

  // The manager sees one letter to approve, opens it and asks for a change.
  await app.signIn('manager', PASSWORD);
  await expect(page.getByTestId('menu-count-outboxRequiringApproval')).toContainText('1');
  await app.goTo(shell.url, PAGES.outboxRequiringApproval);
  await page.getByTestId('requiring-list-table').getByText(subject).click();
  await expect(page.getByTestId('approval-panel')).toContainText('دوره الآن');
  await page.getByTestId('request-changes').click();
  await page.getByTestId('decision-comment').fill('يرجى ذكر رقم خطاب الوزارة في الموضوع');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-request-changes-ar.png` });
  await page.getByTestId('decision-dialog').getByRole('button', { name: 'طلب تعديلات' }).click();
  await expect(page.getByTestId('approval-panel').getByTestId('status-changesRequested')).toBeVisible();
  await app.signOut();

  // The officer finds it under "requiring changes", fixes the subject and resubmits.
  await app.signIn('officer', PASSWORD);
  await expect(page.getByTestId('menu-count-outboxRequiringChanges')).toContainText('1');
  await app.goTo(shell.url, PAGES.outboxAwaitingApproval);
  await page.getByTestId('requiring-changes-tab').click();
  await page.getByTestId('awaiting-list-table').getByText(subject).click();
  await expect(page.getByTestId('returned-note')).toContainText('يرجى ذكر رقم خطاب الوزارة');
  await page.getByTestId('field-subject').fill(`${subject} رقم ٤٤٧١`);
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-fix-ar.png`, fullPage: true });
  await page.getByTestId('submit-for-approval').click();
  await expect(page.getByTestId('circuit-dialog').getByTestId('circuit-step')).toHaveCount(2);
  await page.getByTestId('circuit-send').click();
  await expect(page.getByTestId('submitted-note')).toBeVisible();
  await app.signOut();

  // The manager approves the new version.
  await app.signIn('manager', PASSWORD);
  await app.goTo(shell.url, PAGES.outboxRequiringApproval);
  await page.getByTestId('requiring-list-table').getByText('رقم ٤٤٧١').click();
  await page.getByTestId('approve').click();
  await page.getByRole('dialog').getByRole('button', { name: 'اعتماد' }).click();
  await expect(page.getByTestId('approval-panel').getByTestId('decision-approved')).toBeVisible();
  await app.signOut();

  // The minister signs, in English: the letter takes its number.
  await app.signIn('minister', PASSWORD);
  await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await app.goTo(shell.url, PAGES.outboxRequiringApproval);
  await page.getByTestId('requiring-list-table').getByText('رقم ٤٤٧١').click();
  await expect(page.getByTestId('approval-panel')).toContainText('Their turn');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-sign-en.png`, fullPage: true });
  await page.getByTestId('approve').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('doc-number')).toHaveText(/^OUT-\d{4}-\d{6}$/);
  const number = (await page.getByTestId('doc-number').innerText()).trim();
  await expect(page.getByTestId('timeline')).toContainText(`Numbered ${number} at approval`);
  await expect(page.getByTestId('timeline')).toContainText('Has changes requested');
  await page.screenshot({ path: `${SCREENS}/approvals-approved-en.png`, fullPage: true });
  await app.switchLanguage();
  await app.signOut();

  // The archive clerk sees it awaiting dispatch and records the dispatch.
  await app.signIn('clerk', PASSWORD);
  await app.goTo(shell.url, PAGES.outgoing);
  const row = page.getByTestId('outgoing-list-table').getByRole('row', { name: new RegExp(number) });
  await expect(row.getByTestId('tag-awaiting-dispatch')).toBeVisible();
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-outgoing-ar.png` });
  await row.getByText(number).click();
  await page.getByTestId('record-dispatch').click();
  await chooseOption(page, page.getByTestId('dispatch-medium'), 'بريد');
  await page.getByTestId('dispatch-delivered').click();
  await page.getByTestId('dispatch-dialog').getByRole('button', { name: 'حفظ' }).click();
  await expect(page.getByTestId('dispatch-panel').getByTestId('tag-dispatched')).toBeVisible();
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-dispatched-ar.png`, fullPage: true });
  await app.signOut();
});

test('a memo approved by its signatory reaches another department', async ({ page, shell }) => {
  test.setTimeout(240_000);
  const app = new AdminShell(page);
  const subject = 'تعميم بشأن ساعات العمل في رمضان';
  await app.open(shell.url);
  await app.signIn('officer', PASSWORD);
  await app.switchLanguage();
  await app.goTo(shell.url, PAGES.memoAdd);
  const form = page.getByTestId('memo-form');
  await expect(form).toBeVisible();
  await chooseOption(page, page.getByTestId('field-codification'), 'Internal memo');
  await page.getByTestId('field-subject').fill(subject);
  await chooseOption(page, page.getByTestId('field-recipients'), 'Human Resources');
  await page.keyboard.press('Tab');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-memo-form-en.png`, fullPage: true });
  await page.getByTestId('submit-for-approval').click();
  // The minister alone signs this one: the author removes the opinion step.
  const dialog = page.getByTestId('circuit-dialog');
  await expect(dialog.getByTestId('circuit-step')).toHaveCount(2);
  await dialog.getByTestId('circuit-step').nth(0).getByRole('button', { name: 'Remove the step' }).click();
  await expect(dialog.getByTestId('circuit-step')).toHaveCount(1);
  await expect(dialog.getByTestId('circuit-step')).toContainText('Faisal Alqahtani');
  await page.getByTestId('circuit-send').click();
  await expect(page.getByTestId('submitted-note')).toBeVisible();
  await app.switchLanguage();
  await app.signOut();

  await app.signIn('minister', PASSWORD);
  // The collapsed Memos section says something waits inside; the page's own item says what.
  await expect(page.getByTestId('menu-section-count-memos')).toContainText('1');
  await app.goTo(shell.url, PAGES.memosRequiringApproval);
  await expect(page.getByTestId('menu-count-memosRequiringApproval')).toContainText('1');
  await page.getByTestId('requiring-list-table').getByText(subject).click();
  await page.getByTestId('approve').click();
  await page.getByRole('dialog').getByRole('button', { name: 'اعتماد' }).click();
  await expect(page.getByTestId('doc-number')).toHaveText(/^MEMO-\d{4}-\d{6}$/);
  await app.signOut();

  // HR's manager finds it in approved memos, received for action, in both languages.
  await app.signIn('hrmanager', PASSWORD);
  await app.goTo(shell.url, PAGES.approvedMemos);
  const list = page.getByTestId('approved-memos-list-table');
  await expect(list).toContainText(subject);
  await expect(list).toContainText('الموارد البشرية');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-approved-memos-ar.png` });
  await app.switchLanguage();
  await expect(list).toContainText('Human Resources');
  await list.getByText(subject).click();
  await expect(page.getByTestId('distribution-panel')).toContainText('Human Resources');
  await page.screenshot({ path: `${SCREENS}/approvals-memo-detail-en.png`, fullPage: true });
  await app.switchLanguage();
  await app.signOut();
});

test('an administrator saves the approval circuit of a department, which its authors are then proposed', async ({
  page,
  shell,
}) => {
  test.setTimeout(180_000);
  const app = new AdminShell(page);
  const departments = new DirectoryDepartmentsScreen(page);
  await app.open(shell.url);
  await app.signIn(ADMIN.username, ADMIN.password);
  await app.goTo(shell.url, PAGES.departments);
  await departments.select('Budget Department');
  await page.getByTestId('department-circuit').click();
  const dialog = page.getByTestId('circuit-template-dialog');
  await expect(dialog.getByTestId('template-family')).toBeVisible();
  // One way to add a step (the editor is shared with the author's circuit dialog).
  await expect(dialog.getByTestId('circuit-add-step')).toHaveCount(1);
  // No saved circuit yet: one step, the minister alone signs what Budget writes.
  await dialog.getByTestId('circuit-add-step').click();
  // The person search empties itself after a pick (the person joins the step as a tag).
  await chooseOption(page, dialog.getByTestId('circuit-add-1'), 'فيصل القحطاني', {
    shownIn: dialog.getByTestId('circuit-person'),
  });
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/approvals-template-ar.png` });
  await page.getByTestId('template-save').click();
  await expect(dialog).toBeHidden();
  await app.signOut();

  // The officer of Budget is now proposed that circuit.
  await app.signIn('officer', PASSWORD);
  await app.goTo(shell.url, PAGES.outboxAdd);
  await chooseOption(page, page.getByTestId('field-codification'), 'صادر عام');
  await page.getByTestId('field-subject').fill('خطاب بمسار الإدارة المحفوظ');
  await chooseOption(page, page.getByTestId('field-recipients'), 'وزارة الصحة');
  await page.keyboard.press('Tab');
  await page.getByTestId('submit-for-approval').click();
  const circuit = page.getByTestId('circuit-dialog');
  await expect(circuit.getByTestId('circuit-step')).toHaveCount(1);
  await expect(circuit.getByTestId('circuit-step')).toContainText('فيصل القحطاني');
  await expect(circuit).toContainText('المسار المحفوظ');
});
