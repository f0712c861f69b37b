/**
 * Who read what and the stored files' integrity through the screens (issue 31 parts 5–6), on the demo
 * organisation at 1280 px, in Arabic and in English: the clerk opens a letter, views its attachment, prints
 * it and saves it; the administrator finds those acts in the letter's "Who read it" panel and in what the
 * clerk read (the users screen's drawer), whose line opens the letter. The audit page's integrity tab says
 * every stored file matched at the last check; then a stored file changed on disk between two starts of
 * the server is listed there, with the letter holding it. Nothing scrolls sideways.
 */
import { readFileSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  DEMO_PASSWORD,
  demoDataDir,
  expect,
  launchApiServer,
  launchWebShell,
  stopWebShell,
  test,
  type WebShellProcess,
} from './fixtures';
import { Api } from './support/api';
import { openScreen, settle, signInAs } from './support/demo';
import { chooseInDropdown } from './support/dropdown';
import { expectFits } from './support/fits';
import { PAGES } from '../../src-shared/pages';
import type { IntegrityPage } from '../../src-shared/api/reads';

test.use({ demo: true });

const LANGS = ['ar', 'en'] as const;
type Lang = (typeof LANGS)[number];

/** What each language calls the acts and the states the screens show. */
const WORDS: Record<
  Lang,
  { viewed: string; printed: string; downloaded: string; allMatched: string; changed: string; open: string }
> = {
  ar: {
    viewed: 'عرض',
    printed: 'طباعة',
    downloaded: 'تنزيل',
    allMatched: 'طابقت جميع الملفات المخزّنة بصماتها في آخر فحص',
    changed: 'متغيّر',
    open: 'ملف مخزّن واحد لم يعد يطابق ما حُفظ',
  },
  en: {
    viewed: 'Viewed',
    printed: 'Printed',
    downloaded: 'Downloaded',
    allMatched: 'All stored files matched at the last check',
    changed: 'Changed',
    open: '1 stored file no longer matches what was stored',
  },
};

/** A PDF Chromium prints from a line of text (unique bytes per letter: no file is shared). */
async function letterPdf(page: Page, text: string): Promise<Buffer> {
  const scratch = await page.context().newPage();
  await scratch.setContent(
    `<html dir="rtl" lang="ar"><body><h1>${text}</h1><p>${Date.now()}</p></body></html>`,
  );
  const pdf = await scratch.pdf({ format: 'A4' });
  await scratch.close();
  return pdf;
}

/** What a letter's detail says of its parties and codification. */
interface LetterParties {
  direction: string;
  codification: { id: number } | null;
  sender: { id: number } | null;
  recipientDepartment: { id: number } | null;
}

/**
 * A registered incoming letter with one attachment, made by the demo's clerk through the API (its sender,
 * recipient and codification those of a demo letter); answers its id, number and the file's SHA-256.
 */
async function letterWithAttachment(
  apiBaseUrl: string,
  subject: string,
  pdf: Buffer,
): Promise<{ id: number; docNumber: string; sha256: string }> {
  const clerk = new Api(apiBaseUrl);
  await clerk.signIn('clerk', DEMO_PASSWORD);
  // One demo letter read for its parties (a read the clerk's list shows too).
  const found = await clerk.ok<{ id: number; direction: string; state: string }[]>(
    'GET',
    '/correspondence/documents/lookup?q=',
  );
  const filed = found.find((d) => d.direction === 'in' && d.state === 'registered');
  const like = filed ? await clerk.ok<LetterParties>('GET', `/correspondence/documents/${filed.id}`) : null;
  expect(like, 'a demo incoming letter to copy the parties of').not.toBeNull();
  const today = new Date().toISOString().slice(0, 10);
  const draft = await clerk.ok<{ id: number }>('POST', '/correspondence/documents', {
    direction: 'in',
    subject,
    codificationId: like!.codification!.id,
    senderDepartmentId: like!.sender!.id,
    recipientDepartmentId: like!.recipientDepartment!.id,
    documentDate: today,
    receivedDate: today,
  });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'letter.pdf');
  const uploaded = await fetch(`${apiBaseUrl}/correspondence/documents/${draft.id}/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${clerk.accessToken}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  const { data: attachment } = (await uploaded.json()) as { data: { sha256: string } };
  const registered = await clerk.ok<{ id: number; docNumber: string }>(
    'POST',
    `/correspondence/documents/${draft.id}/register`,
  );
  return { id: registered.id, docNumber: registered.docNumber, sha256: attachment.sha256 };
}

/** The detail screen's path of a registered incoming letter. */
const letterPath = (id: number) => `${PAGES.incoming}/${id}`;

for (const lang of LANGS) {
  test(`${lang}: the clerk views, prints and saves an attachment; the administrator sees each act in the letter's reads and in the clerk's`, async ({
    page,
    shell,
  }) => {
    test.setTimeout(300_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const words = WORDS[lang];
    const subject = lang === 'ar' ? 'خطاب لاختبار سجل الاطلاع' : 'A letter to test who read it';
    const letter = await letterWithAttachment(shell.apiBaseUrl, subject, await letterPdf(page, subject));

    // The clerk opens the letter, views the attachment, prints it from the viewer, and saves it.
    await signInAs(page, shell, 'clerk', lang);
    await openScreen(page, letterPath(letter.id));
    const attachments = page.getByTestId('attachments-panel');
    await attachments.getByTestId('attachment-open').click();
    const viewer = page.getByTestId('pdf-viewer');
    await expect(viewer.locator('.page canvas').first()).toBeVisible();
    await page.evaluate(() => {
      (window as unknown as { print: () => void }).print = () => {
        document.body.dataset.printed = 'yes';
      };
    });
    await viewer.getByTestId('pdf-print').click();
    await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await page.locator('.ant-modal-close').click();
    await expect(viewer).toHaveCount(0);
    const saved = page.waitForEvent('download');
    await attachments.getByTestId('attachment-save').click();
    expect((await saved).suggestedFilename()).toBe('letter.pdf');

    // The administrator: the letter's "Who read it" panel names the clerk and each act.
    await signInAs(page, shell, 'admin', lang);
    await openScreen(page, letterPath(letter.id));
    const panel = page.getByTestId('reads-panel');
    const byClerk = panel.getByTestId('read-entry').filter({ hasText: 'clerk' });
    for (const act of [words.viewed, words.printed, words.downloaded])
      await expect(byClerk.filter({ hasText: act }).filter({ hasText: 'letter.pdf' })).toHaveCount(1);
    await expectFits(page);

    // What the clerk read: the users screen's drawer, the letter by number and subject on each act.
    await openScreen(page, PAGES.users);
    await expectFits(page);
    await chooseInDropdown(page, page.getByTestId('user-more-clerk'), (menu) =>
      menu.getByTestId('user-reads-clerk'),
    );
    const drawer = page.getByTestId('user-reads');
    await settle(page);
    const rows = drawer.locator('.ant-table-row').filter({ hasText: letter.docNumber });
    for (const act of [words.viewed, words.printed, words.downloaded])
      await expect(rows.filter({ hasText: act }).filter({ hasText: 'letter.pdf' })).toHaveCount(1);
    await expect(rows.first()).toContainText(subject);
    await expectFits(page);
    // Its line opens the letter.
    await rows.first().getByTestId('read-document').click();
    await expect(page.getByTestId('doc-number')).toHaveText(letter.docNumber);
  });
}

for (const lang of LANGS) {
  test(`${lang}: the integrity tab says every stored file matched at the last check`, async ({
    page,
    shell,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    // The pass the server queued at its start has ended.
    const admin = new Api(shell.apiBaseUrl);
    await admin.signIn('admin', DEMO_PASSWORD);
    await expect
      .poll(async () => (await admin.ok<IntegrityPage>('GET', '/auth/integrity')).lastPassAt, {
        timeout: 60_000,
      })
      .not.toBeNull();
    await signInAs(page, shell, 'admin', lang);
    await openScreen(page, PAGES.audit);
    await page.getByTestId('audit-tab-integrity').click();
    await expect(page.getByTestId('integrity-empty')).toHaveText(WORDS[lang].allMatched);
    await expect(page.getByTestId('integrity-last-pass')).toBeVisible();
    await expect(page.getByTestId('integrity-table')).toHaveCount(0);
    await expectFits(page);
  });
}

test('a stored file changed on disk between two starts of the server is listed, in both languages', async ({
  page,
}) => {
  test.setTimeout(400_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const dataDir = demoDataDir();
  const serverDir = join(dataDir, 'server');
  const shellDir = mkdtempSync(join(tmpdir(), 'sijill-e2e-shell-'));
  let shell: { shell: WebShellProcess; child: Awaited<ReturnType<typeof launchWebShell>>['child'] } | null =
    null;
  // First start: no checks, so none is waiting when the server starts again.
  let server = await launchApiServer(serverDir, 0, { INTEGRITY_CHECK_INTERVAL_HOURS: '0' });
  try {
    const subject = 'خطاب تغيّر ملفه على القرص';
    const letter = await letterWithAttachment(server.url, subject, await letterPdf(page, subject));
    await stopWebShell(server.child);

    // One byte of the stored file changed, as a failing disk or a hand would.
    const path = join(
      serverDir,
      'files',
      letter.sha256.slice(0, 2),
      letter.sha256.slice(2, 4),
      letter.sha256,
    );
    const bytes = readFileSync(path);
    bytes[200] = bytes[200]! ^ 0xff;
    writeFileSync(path, bytes);

    // Second start, with the checks on: the pass queued at the start finds it.
    server = await launchApiServer(serverDir);
    const admin = new Api(server.url);
    await admin.signIn('admin', DEMO_PASSWORD);
    await expect
      .poll(async () => (await admin.ok<IntegrityPage>('GET', '/auth/integrity')).open, { timeout: 120_000 })
      .toBe(1);

    shell = await launchWebShell(shellDir, ['--server', server.url]);
    for (const lang of LANGS) {
      await signInAs(page, shell.shell, 'admin', lang);
      await openScreen(page, PAGES.audit);
      await page.getByTestId('audit-tab-integrity').click();
      await expect(page.getByTestId('integrity-open')).toContainText(WORDS[lang].open);
      const row = page.getByTestId('integrity-table').locator('.ant-table-row');
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId('integrity-problem')).toHaveText(WORDS[lang].changed);
      await expect(row).toContainText(letter.sha256.slice(0, 12));
      await expect(row.getByTestId('integrity-document')).toContainText(letter.docNumber);
      await expectFits(page);
    }
    // The finding's document opens.
    await page.getByTestId('integrity-document').click();
    await expect(page.getByTestId('doc-number')).toHaveText(letter.docNumber);
  } finally {
    if (shell) await stopWebShell(shell.child);
    await stopWebShell(server.child);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(shellDir, { recursive: true, force: true });
  }
});
