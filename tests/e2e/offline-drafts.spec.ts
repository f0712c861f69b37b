/**
 * The offline desk (issue 14), in both languages: a clerk composes an incoming draft with a PDF while
 * the organisation's server is stopped (saved on this computer; registering says it needs the server;
 * the form reloaded at its address comes back with what was typed and the PDF),
 * the client is restarted (the draft is still there, waiting), the server comes back and the draft
 * reaches it by itself, once, with its PDF; then the same draft is changed from another desk while the
 * clerk changes it here, and the conflict is settled by choosing a version side by side.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { PAGES } from '../../src-shared/pages';
import { expect, launchApiServer, launchWebShell, stopWebShell, test } from './fixtures';
import { AdminShell } from './pages/AdminScreens';
import { LoginPage } from './pages/LoginPage';
import { Api } from './support/api';
import { dropFiles, minimalPdf } from './support/pdf';

const SCREENS = 'test-results/screens';
// The narrowest desktop the screens are made for.
test.use({ viewport: { width: 1280, height: 800 } });
const PASSWORD = 'Clerk#2026';

test('a draft written while the server is away survives a restart and reaches the server once; a conflict is settled by choice', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const serverDir = mkdtempSync(join(tmpdir(), 'sijill-e2e-server-'));
  const shellDir = mkdtempSync(join(tmpdir(), 'sijill-e2e-shell-'));
  let server: { url: string; child: ChildProcess } | null = await launchApiServer(serverDir);
  const url = server.url;
  const port = Number(new URL(url).port);
  let shell = await launchWebShell(shellDir, ['--server', url]);
  try {
    const admin = await Api.administrator(url);
    const role = await admin.createRole('Archive Clerk', {
      [PAGES.inboxAdd]: ['add'],
      [PAGES.inboxDrafts]: ['add', 'edit', 'delete'],
      [PAGES.incoming]: ['edit'],
    });
    await admin.createUser({ username: 'clerk', password: PASSWORD, roleId: role, nameEn: 'Saad Alharbi' });
    const clerk = new Api(url);
    await clerk.signIn('clerk', PASSWORD);
    const subject = 'دعوة لاجتماع لجنة الميزانية';
    const draftsNamed = async (text: string) =>
      (
        await clerk.ok<{ items: { documentId: number; subject: string }[] }>(
          'GET',
          '/correspondence/boxes/inbox-drafts?page=1&pageSize=100',
        )
      ).items.filter((d) => d.subject === text);

    const login = new LoginPage(page);
    const app = new AdminShell(page);
    await login.open(shell.shell);
    await login.signIn('clerk', PASSWORD, { remember: true });
    await expect(page.getByTestId('side-menu')).toBeVisible();

    // The server goes away; the clerk writes a letter with a PDF.
    await stopWebShell(server.child);
    server = null;
    await app.goTo(shell.shell.url, PAGES.inboxAdd);
    await page.reload();
    await expect(page.getByTestId('offline-banner')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('field-subject').fill(subject);
    await page.getByTestId('field-sender-number').fill('م/45/2026');
    await dropFiles(page, 'attachment-drop', [{ name: 'دعوة.pdf', bytes: minimalPdf() }]);
    await expect(page.getByTestId('attachment-row')).toHaveCount(1);
    await expect(page.getByTestId('attachment-row')).toContainText('محفوظ على هذا الجهاز');
    await expect(page.getByTestId('local-saved')).toBeVisible();

    // Reloaded while the server is away: the address names the draft on this computer, and the form
    // comes back with what was typed and the chosen PDF.
    await expect(page).toHaveURL(/[?&]local=[0-9a-f-]{36}/);
    const address = page.url();
    await page.reload();
    await expect(page.getByTestId('offline-banner')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('field-subject')).toHaveValue(subject);
    await expect(page.getByTestId('field-sender-number')).toHaveValue('م/45/2026');
    await expect(page.getByTestId('attachment-row')).toHaveCount(1);
    await expect(page.getByTestId('attachment-row')).toContainText('دعوة.pdf');
    await expect(page.getByTestId('attachment-kept-locally')).toBeVisible();
    expect(page.url()).toBe(address);
    await expect(page.getByTestId('register')).toBeDisabled();
    await expect(page.getByTestId('needs-server')).toBeVisible();
    await page.getByTestId('save-draft').click();
    await expect(page.getByText('حُفظت المسودة على هذا الجهاز', { exact: false })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/offline-draft-form-ar.png`, fullPage: true });

    // The client restarts (the server still away): the draft is there, waiting, with its file.
    await stopWebShell(shell.child);
    shell = await launchWebShell(shellDir, ['--server', url]);
    await app.goTo(shell.shell.url, PAGES.inboxDrafts);
    await expect(page.getByTestId('offline-banner')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('offline-drafts-waiting')).toBeVisible();
    const local = page.getByTestId('local-drafts').getByTestId('local-draft');
    await expect(local).toHaveCount(1);
    await expect(local).toContainText(subject);
    await expect(local.getByTestId('local-draft-state')).toHaveText('بانتظار الإرسال');
    await page.screenshot({ path: `${SCREENS}/offline-drafts-waiting-ar.png` });
    // Opened again, exactly as it was: its subject, and its PDF kept on this computer.
    await local.getByTestId('local-draft-open').click();
    await expect(page.getByTestId('field-subject')).toHaveValue(subject);
    await expect(page.getByTestId('attachment-row')).toHaveCount(1);
    await expect(page.getByTestId('attachment-kept-locally')).toBeVisible();
    await expect(page.getByTestId('attachment-row')).toContainText('دعوة.pdf');
    await app.goTo(shell.shell.url, PAGES.inboxDrafts);

    // The server is back: the draft reaches it by itself, once, with its PDF.
    server = await launchApiServer(serverDir, port);
    await expect(page.getByTestId('offline-banner')).toHaveCount(0, { timeout: 60_000 });
    await expect(page.getByTestId('local-drafts')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('drafts-list-table')).toContainText(subject, { timeout: 30_000 });
    const sent = await draftsNamed(subject);
    expect(sent).toHaveLength(1);
    const doc = await clerk.ok<{ attachments: { fileName: string }[]; version: number }>(
      'GET',
      `/correspondence/documents/${sent[0]!.documentId}`,
    );
    expect(doc.attachments.map((a) => a.fileName)).toEqual(['دعوة.pdf']);

    // The same draft changed from another desk while the clerk changes it here (in English).
    await app.switchLanguage();
    await page.getByTestId('drafts-list-table').getByText(subject).click();
    await expect(page.getByTestId('field-subject')).toHaveValue(subject);
    await clerk.ok('PUT', `/correspondence/documents/${sent[0]!.documentId}`, {
      subject: `${subject} (other desk)`,
    });
    await page.getByTestId('field-subject').fill(`${subject} (this desk)`);
    await expect(page.getByTestId('local-saved')).toBeVisible();
    // Reloaded, the server draft's form resumes this desk's change (not sent yet), not the server's.
    await expect(page).toHaveURL(/[?&]draft=\d+.*[?&]local=[0-9a-f-]{36}/);
    await page.reload();
    await expect(page.getByTestId('field-subject')).toHaveValue(`${subject} (this desk)`, {
      timeout: 60_000,
    });
    await app.goTo(shell.shell.url, PAGES.inboxDrafts);
    await page.getByTestId('local-drafts-send').click();
    const conflict = page.getByTestId('local-drafts').getByTestId('local-draft');
    await expect(conflict.getByTestId('local-draft-state')).toHaveText('Conflict');
    await conflict.getByTestId('local-draft-compare').click();
    await expect(page.getByTestId('mine-subject')).toHaveText(`${subject} (this desk)`);
    await expect(page.getByTestId('theirs-subject')).toHaveText(`${subject} (other desk)`);
    await page.waitForTimeout(500); // the dialog's opening animation, for the screenshot
    await page.screenshot({ path: `${SCREENS}/offline-conflict-en.png` });
    // The same choice in Arabic.
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    // Gone (its leave animation ended) before the next one opens: "the dialog" is then the new one.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await app.switchLanguage();
    await conflict.getByTestId('local-draft-compare').click();
    await expect(page.getByRole('dialog')).toContainText('على الخادم');
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SCREENS}/offline-conflict-ar.png` });
    await page.getByTestId('keep-mine').click();
    await expect(page.getByTestId('local-drafts')).toHaveCount(0, { timeout: 30_000 });
    expect(
      (await clerk.ok<{ subject: string }>('GET', `/correspondence/documents/${sent[0]!.documentId}`))
        .subject,
    ).toBe(`${subject} (this desk)`);
    expect(await draftsNamed(`${subject} (this desk)`)).toHaveLength(1);
  } finally {
    if (server) await stopWebShell(server.child);
    await stopWebShell(shell.child);
    rmSync(serverDir, { recursive: true, force: true });
    rmSync(shellDir, { recursive: true, force: true });
  }
});
