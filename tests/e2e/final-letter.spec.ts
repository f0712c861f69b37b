/**
 * The letter that leaves (issue 27), in Chromium through the web shell:
 * - the administrator sets the stamp, the public verification address (the shell's own server) and the
 *   signing certificate on the outgoing-letter settings screen; a wrong password is refused in place;
 * - an officer's letter is approved by the minister (through the API); its detail shows the final letter
 *   made, stamped and digitally signed, with its fingerprint and verification link, and opens it in the
 *   viewer beside the original;
 * - the receiver opens the verification link in a browser, in Arabic then English, and checks the PDF
 *   they hold (the final PDF matches, the original does not);
 * - the archive office sets the SMTP server (a real one started by the test) and sends the final PDF by
 *   e-mail to the receiver's directory address: the message arrives with the PDF byte for byte;
 * - the archive office cancels the letter, and its verification page says so.
 * Screenshots in test-results/screens/final-*.png.
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { expect, test } from './fixtures';
import { ADMIN, Api } from './support/api';
import { AdminShell } from './pages/AdminScreens';
import { LoginPage } from './pages/LoginPage';
import { PAGES } from '../../src-shared/pages';
import { caChain } from '../support/certificates';
import { letterPdf } from '../support/letter-pdf';
import { contentType, leaves, parseMime } from '../support/mime';
import { chooseOption } from './support/select';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Final#2026';

test.describe.configure({ mode: 'serial' });

/** The ministry (the minister signs), an archive office, an external receiver, an officer; a letter approved. */
async function approvedLetter(admin: Api, apiBaseUrl: string) {
  const dept = (body: Record<string, unknown>) => admin.ok<{ id: number }>('POST', '/ec/departments', body);
  const archive = await dept({ nameAr: 'مكتب الأرشيف', nameEn: 'Archive Office', archiveType: 'inOut' });
  const ministry = await dept({
    nameAr: 'وزارة المالية',
    nameEn: 'Ministry of Finance',
    isEntity: true,
    archiveOfficeId: archive.id,
  });
  const receiver = await dept({
    nameAr: 'وزارة الصحة',
    nameEn: 'Ministry of Health',
    type: 'external',
    email: 'registry@health.example',
  });
  const job = await admin.ok<{ id: number }>('POST', '/ec/jobs', {
    nameAr: 'وزير',
    nameEn: 'Minister',
    isManager: true,
  });
  const codification = await admin.ok<{ id: number }>('POST', '/correspondence/settings/codifications', {
    nameAr: 'صادر عام',
    nameEn: 'General outgoing',
    prefix: 'OUT',
    direction: 'out',
  });
  const role = await admin.createRole('Writer and signer', {
    [PAGES.outboxAdd]: ['add'],
    [PAGES.outboxDrafts]: ['add', 'edit', 'delete'],
    [PAGES.outboxAwaitingApproval]: [],
    [PAGES.outboxRequiringApproval]: ['approve'],
  });
  const person = (username: string, names: [string, string, string, string]) =>
    admin.ok<{ id: number; userId: number }>('POST', '/ec/employees', {
      firstNameAr: names[0],
      lastNameAr: names[1],
      firstNameEn: names[2],
      lastNameEn: names[3],
      departmentId: ministry.id,
      jobId: job.id,
      user: { username, email: `${username}@sijill.test`, roleId: role, password: PASSWORD },
    });
  await person('officer', ['خالد', 'العتيبي', 'Khalid', 'Alotaibi']);
  const minister = await person('minister', ['فيصل', 'القحطاني', 'Faisal', 'Alqahtani']);
  await admin.ok('PUT', `/ec/departments/${ministry.id}/configure`, { managerEmployeeId: minister.id });

  const officer = new Api(apiBaseUrl);
  await officer.signIn('officer', PASSWORD);
  const draft = await officer.ok<{ id: number; version: number }>('POST', '/correspondence/documents', {
    direction: 'out',
    subject: 'الرد على طلب الميزانية',
    documentDate: '2026-11-01',
    codificationId: codification.id,
    recipientIds: [receiver.id],
  });
  const original = await letterPdf(2);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(original)], { type: 'application/pdf' }), 'الخطاب.pdf');
  const uploaded = await fetch(`${apiBaseUrl}/correspondence/documents/${draft.id}/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${officer.accessToken}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const version = async (api: Api) =>
    (await api.ok<{ version: number }>('GET', `/correspondence/documents/${draft.id}`)).version;
  const steps = await officer.ok<{ steps: { members: { userId: number }[] }[] }>(
    'GET',
    `/correspondence/documents/${draft.id}/circuit/proposal`,
  );
  await officer.ok('POST', `/correspondence/documents/${draft.id}/submit`, {
    steps: [{ userIds: [steps.steps.at(-1)!.members[0]!.userId] }],
    version: await version(officer),
  });
  const signer = new Api(apiBaseUrl);
  await signer.signIn('minister', PASSWORD);
  await signer.ok('POST', `/correspondence/documents/${draft.id}/approval`, {
    action: 'approve',
    version: await version(signer),
  });
  return { id: draft.id, original };
}

test('the final letter: settings, stamped and signed, verified by its receiver, then cancelled', async ({
  page,
  shell,
}) => {
  test.setTimeout(300_000);
  const admin = await Api.administrator(shell.apiBaseUrl);
  await new LoginPage(page).openSignedOut(shell);
  const app = new AdminShell(page);
  await app.signIn(ADMIN.username, ADMIN.password);

  // The settings, in Arabic: the verification address and the certificate (a wrong password first).
  await app.goTo(shell.url, PAGES.letterSettings);
  const settings = page.getByTestId('letter-settings');
  await expect(settings).toBeVisible();
  await expect(page.getByTestId('certificate-none')).toBeVisible();
  await page.getByTestId('letter-verify-url').fill(shell.apiBaseUrl);
  await page.getByTestId('letter-save').click();
  await expect(page.getByTestId('letter-verify-url')).toHaveValue(shell.apiBaseUrl);
  const chain = caChain('Ministry of Finance Signer');
  const chooser = page.getByTestId('letter-certificate-card').locator('input[type=file]');
  await chooser.setInputFiles({
    name: 'ministry.p12',
    mimeType: 'application/x-pkcs12',
    buffer: Buffer.from(chain.p12),
  });
  await page.getByTestId('certificate-password').fill('not the password');
  await page.getByTestId('certificate-upload').click();
  await expect(
    page.locator('.ant-notification-notice', { hasText: 'كلمة مرور ملف الشهادة غير صحيحة' }),
  ).toBeVisible();
  await expect(page.getByTestId('certificate-none')).toBeVisible();
  await app.closeToasts();
  await page.getByTestId('certificate-password').fill(chain.password);
  await page.getByTestId('certificate-upload').click();
  await expect(page.getByTestId('certificate-summary')).toContainText('Ministry of Finance Signer');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/final-settings-ar.png`, fullPage: true });

  // A letter approved by the minister: its detail shows the final letter, signed.
  const { id, original } = await approvedLetter(admin, shell.apiBaseUrl);
  await app.goTo(shell.url, `${PAGES.outgoing}/${id}`);
  const panel = page.getByTestId('final-panel');
  await expect(panel.getByTestId('final-signed')).toBeVisible({ timeout: 60_000 });
  const sha256 = (await panel.getByTestId('final-sha256').innerText()).trim();
  expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  const verifyUrl = (await panel.getByTestId('final-verify-link').getAttribute('href'))!;
  expect(verifyUrl.startsWith(`${shell.apiBaseUrl}/verify/`)).toBe(true);
  await expect(page.getByTestId('timeline-finalMade')).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/final-detail-ar.png`, fullPage: true });

  // The viewer shows the final letter; the original stays among the attachments.
  await panel.getByTestId('final-open').click();
  const viewer = page.getByTestId('pdf-viewer');
  await expect(viewer.getByTestId('pdf-page-count')).toContainText('2');
  await expect(viewer.locator('.page[data-page-number="1"] canvas')).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/final-viewer-ar.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('attachment-row')).toHaveCount(1);

  // The receiver: the verification page, in Arabic, then in English; the PDF they hold compared.
  const finalBytes = await admin.bytes(`/correspondence/documents/${id}/final/file`);
  expect(createHash('sha256').update(finalBytes).digest('hex')).toBe(sha256);
  const receiver = await page.context().newPage();
  const problems: string[] = [];
  receiver.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  receiver.on('pageerror', (e) => problems.push(e.message));
  await receiver.goto(verifyUrl);
  await expect(receiver.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(receiver.getByRole('heading', { level: 1 })).toContainText('وزارة المالية');
  await expect(receiver.locator('body')).toContainText(sha256);
  await expect(receiver.locator('body')).toContainText('الرد على طلب الميزانية');
  await receiver.getByLabel('اختر ملف الخطاب (PDF)').setInputFiles({
    name: 'خطاب.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(finalBytes),
  });
  await expect(receiver.locator('#compare-result')).toHaveAttribute('data-state', 'match');
  await receiver.screenshot({ path: `${SCREENS}/final-verify-ar.png`, fullPage: true });
  await receiver.goto(`${verifyUrl}?lang=en`);
  await expect(receiver.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(receiver.getByRole('heading', { level: 1 })).toContainText('Ministry of Finance');
  await receiver.getByLabel("Choose the letter's PDF file").setInputFiles({
    name: 'letter.pdf',
    mimeType: 'application/pdf',
    buffer: original,
  });
  await expect(receiver.locator('#compare-result')).toHaveAttribute('data-state', 'mismatch');
  await receiver.screenshot({ path: `${SCREENS}/final-verify-en.png`, fullPage: true });
  expect(problems).toEqual([]);

  // E-mail: the organisation's SMTP server (a real one, here), set and tried on the settings screen.
  const messages: { to: string[]; raw: Buffer }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  try {
    const port = (smtp.server.address() as AddressInfo).port;
    await app.goTo(shell.url, PAGES.letterSettings);
    await expect(page.getByTestId('smtp-none')).toBeVisible();
    await page.getByTestId('smtp-host').fill('127.0.0.1');
    await page.getByTestId('smtp-port').fill(String(port));
    await chooseOption(page, page.getByTestId('smtp-security'), 'غير إلزامي (TLS إذا أتاحه الخادم)', {
      type: false,
    });
    await page.getByTestId('smtp-from-address').fill('registry@finance.example');
    await page.getByTestId('smtp-save').click();
    await expect(page.getByTestId('smtp-none')).toHaveCount(0);
    await page.getByTestId('smtp-check').click();
    await expect(page.getByTestId('smtp-check-result')).toContainText('قبل الخادم الاتصال');
    await app.closeToasts();
    await page.screenshot({ path: `${SCREENS}/final-smtp-ar.png`, fullPage: true });

    // The archive office sends the final letter to the receiver's address from the directory.
    await app.goTo(shell.url, `${PAGES.outgoing}/${id}`);
    await panel.getByTestId('final-email-send').click();
    const dialog = page.getByTestId('final-email-form');
    await expect(dialog.locator('input[type=email]').first()).toHaveValue('registry@health.example');
    await page.screenshot({ path: `${SCREENS}/final-email-dialog-ar.png` });
    await page.getByTestId('final-email-send-ok').click();
    const list = panel.getByTestId('final-email-list');
    await expect(list).toContainText('registry@health.example');
    await expect.poll(() => messages.length, { timeout: 30_000 }).toBe(1);
    await expect(list.locator('[data-testid^="final-email-state-"]')).toHaveText(/أُرسل|Sent/);
    expect(messages[0]!.to).toEqual(['registry@health.example']);
    const pdfPart = leaves(parseMime(messages[0]!.raw)).find((p) => contentType(p) === 'application/pdf')!;
    expect(createHash('sha256').update(pdfPart.body).digest('hex')).toBe(sha256);
    await app.closeToasts();
    await page.screenshot({ path: `${SCREENS}/final-email-sent-ar.png`, fullPage: true });
  } finally {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }

  // The archive office cancels it (in English); the receiver's page says so.
  await page.getByTestId('language-toggle').click();
  await panel.getByTestId('final-cancel').click();
  await page.getByTestId('final-cancel-reason').fill('Sent to the wrong ministry');
  await page.getByTestId('final-cancel-ok').click();
  await expect(panel.getByTestId('final-cancelled')).toContainText('Sent to the wrong ministry');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/final-detail-en.png`, fullPage: true });
  await receiver.reload();
  await expect(receiver.getByRole('heading', { level: 1 })).toHaveText('This letter has been CANCELLED');
  await receiver.close();
});
