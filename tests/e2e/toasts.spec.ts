/**
 * Toasts say what the screen does not, once, and never over the work — walked over the main flows of the
 * demo organisation, counting the toasts of each user action (support/toasts.ts): a refused sign-in says
 * why on its form only, and the reason goes when the form is sent again; registering a letter (draft, PDF,
 * number) shows its heading and no toast; saving a draft with its file is one toast; sending a letter for
 * approval opens its dialog with no toast over it and ends on its own "sent" page; approving, asking for
 * changes and recording a dispatch each end with one toast at most, none over their dialogs.
 */
import { expect, test } from './fixtures';
import { LoginPage } from './pages/LoginPage';
import { MainLayout } from './pages/MainLayout';
import { CorrespondenceAddScreen } from './pages/CorrespondenceScreens';
import { minimalPdf } from './support/pdf';
import { chooseOption } from './support/select';
import { openScreen, settle, signInAs } from './support/demo';
import { ToastWatch } from './support/toasts';
import { PAGES } from '../../src-shared/pages';

test.use({ demo: true, viewport: { width: 1280, height: 800 } });

test('one toast per action at most, none for what the screen says, none over a dialog', async ({
  page,
  shell,
}) => {
  test.setTimeout(600_000);
  const toasts = await ToastWatch.on(page);
  const login = new LoginPage(page);
  const main = new MainLayout(page);

  // A refused sign-in: said on the form, not again in a toast over the logo.
  await login.open(shell);
  await expect(login.title()).toBeVisible();
  toasts.begin('wrong password');
  await login.signIn('clerk', 'Wrong#pass1');
  await expect(page.getByTestId('sign-in-problem')).toBeVisible();
  toasts.begin('sent again, stopped by the form');
  await page.getByTestId('password').fill('');
  await page.getByTestId('sign-in').click();
  await expect(page.getByTestId('sign-in-problem')).toHaveCount(0);

  // The clerk saves an incoming letter with its PDF as a draft (one toast), then registers it (none: the
  // heading says it), then distributes it.
  await signInAs(page, shell, 'clerk', 'ar');
  await openScreen(page, PAGES.inboxAdd);
  const add = new CorrespondenceAddScreen(page);
  await add.fill({
    codification: 'وارد عام',
    subject: 'طلب بيانات الموظفين للربع الثالث',
    summary: 'تطلب الوزارة بيانات الموظفين.',
    sender: 'وزارة المالية',
    senderNumber: 'م/2026/114',
    recipient: 'إدارة الموارد البشرية',
    documentDate: '11/01/26',
    pdf: { name: 'letter.pdf', buffer: minimalPdf() },
  });
  toasts.begin('save a draft with its PDF');
  await page.getByTestId('save-draft').click();
  await expect.poll(() => toasts.of('save a draft with its PDF').length).toBe(1);
  toasts.begin('register');
  await page.getByTestId('register').click();
  await expect(page.getByTestId('registered-number')).toBeVisible();
  await page.getByTestId('registered-open').click();
  await expect(page.getByTestId('document-detail')).toBeVisible();
  await settle(page);
  toasts.begin('distribute');
  await page.getByTestId('distribute').click();
  await chooseOption(page, page.getByTestId('distribute-department-0'), 'إدارة الموارد البشرية');
  await page.getByTestId('distribute-save').click();
  await expect(page.getByTestId('distribute-form')).toBeHidden();
  await settle(page);

  // An employee sends an outgoing letter for approval: the circuit dialog opens with no toast over it.
  await signInAs(page, shell, 'employee1', 'ar');
  await openScreen(page, PAGES.outboxAdd);
  const letter = page.getByTestId('outgoing-form');
  await chooseOption(page, page.getByTestId('field-codification'), 'صادر عام');
  await page.getByTestId('field-subject').fill('الرد على طلب بيانات الموظفين');
  await page.getByTestId('field-summary').fill('نرفق لكم البيانات المطلوبة.');
  await chooseOption(page, page.getByTestId('field-recipients'), 'وزارة المالية');
  await page.keyboard.press('Tab');
  await letter
    .locator('input[type=file]')
    .setInputFiles({ name: 'reply.pdf', mimeType: 'application/pdf', buffer: minimalPdf() });
  await expect(letter.getByTestId('attachment-row')).toContainText('reply.pdf');
  toasts.begin('send for approval');
  await page.getByTestId('submit-for-approval').click();
  await expect(page.getByTestId('circuit-dialog').getByTestId('circuit-step').first()).toBeVisible();
  toasts.begin('send the circuit');
  await page.getByTestId('circuit-send').click();
  await expect(page.getByTestId('submitted-note')).toBeVisible();

  // The manager approves it (a confirmation dialog), and asks for changes on another (a dialog).
  await signInAs(page, shell, 'manager', 'ar');
  await openScreen(page, PAGES.outboxRequiringApproval);
  await page.getByTestId('requiring-list-table').getByText('الرد على طلب بيانات الموظفين').click();
  await expect(page.getByTestId('approval-panel')).toBeVisible();
  await settle(page);
  toasts.begin('approve');
  await page.getByTestId('approve').click();
  await page.getByRole('dialog').getByRole('button', { name: 'اعتماد' }).click();
  await expect(page.getByTestId('approval-panel').getByTestId('decision-approved')).toBeVisible();
  await openScreen(page, PAGES.outboxRequiringApproval);
  await page.locator('.data-table tbody tr.ant-table-row').first().click();
  await expect(page.getByTestId('request-changes')).toBeVisible();
  await settle(page);
  toasts.begin('request changes');
  await page.getByTestId('request-changes').click();
  await page.getByTestId('decision-comment').fill('يرجى إرفاق الجدول المحدث');
  await page.getByTestId('decision-dialog').getByRole('button', { name: 'طلب تعديلات' }).click();
  await expect(page.getByTestId('decision-dialog')).toBeHidden();
  await settle(page);

  // The clerk records the dispatch of an approved letter (a dialog).
  await signInAs(page, shell, 'clerk', 'ar');
  await openScreen(page, PAGES.outgoing);
  await page.getByTestId('outgoing-list-table').getByTestId('tag-awaiting-dispatch').first().click();
  await expect(page.getByTestId('record-dispatch')).toBeVisible();
  await settle(page);
  toasts.begin('record the dispatch');
  await page.getByTestId('record-dispatch').click();
  await chooseOption(page, page.getByTestId('dispatch-medium'), 'فاكس', { exact: true });
  await page.getByTestId('dispatch-dialog').getByRole('button', { name: 'حفظ' }).click();
  await expect(page.getByTestId('dispatch-panel').getByTestId('tag-dispatched')).toBeVisible();
  // Whatever the last action raises comes with its outcome; leaving the screen closes its window.
  await openScreen(page, PAGES.incoming);
  toasts.begin('done');
  await main.openUserMenu();
  await page.keyboard.press('Escape');

  const count = (action: string) => toasts.of(action).length;
  const per = Object.fromEntries(
    [...new Set(toasts.shown.map((t) => t.action))].map((a) => [a, toasts.of(a)]),
  );
  const log = JSON.stringify(per, null, 1);
  expect(count('wrong password'), log).toBe(0);
  expect(count('sent again, stopped by the form'), log).toBe(0);
  expect(count('save a draft with its PDF'), log).toBe(1);
  expect(count('register'), log).toBe(0);
  expect(count('send for approval'), log).toBe(0);
  expect(count('send the circuit'), log).toBe(0);
  for (const action of ['distribute', 'approve', 'request changes', 'record the dispatch'])
    expect(count(action), `${action}\n${log}`).toBeLessThanOrEqual(1);
  expect(toasts.overDialogs, toasts.overDialogs.join('\n')).toEqual([]);
});
