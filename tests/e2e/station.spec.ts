/**
 * Station mode on a clerk's desk, in Chromium through the web shell (whose main-process services run
 * the station): the clerk adds a watched folder in the settings and turns station mode on; a PDF
 * dropped into the folder arrives as an incoming draft (the panel counts it and links to it); a file
 * that is not a PDF (named .pdf or .txt) and an encrypted PDF are rejected with their reasons in the
 * clerk's language and a note beside each.
 * Screenshots in both languages.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { Api, seedArchiveOffice } from './support/api';
import { minimalPdf } from './support/pdf';
import { encryptedPdf } from '../api/support/files';
import { AdminShell } from './pages/AdminScreens';
import { PAGES } from '../../src-shared/pages';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Scan#2025';

test('a clerk turns station mode on and sees a watched-folder file arrive as a draft', async ({
  page,
  shell,
}) => {
  test.setTimeout(600_000);
  const api = await Api.administrator(shell.apiBaseUrl);
  await seedArchiveOffice(api, {
    roleName: 'Scanning Clerk',
    pages: {
      [PAGES.inboxAdd]: ['add'],
      [PAGES.inboxDrafts]: ['add', 'edit', 'delete'],
      [PAGES.incoming]: ['edit'],
    },
    username: 'scanner',
    password: PASSWORD,
  });
  const folder = mkdtempSync(join(tmpdir(), 'sijill-watched-'));

  const app = new AdminShell(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await app.open(shell.url);
  await app.signIn('scanner', PASSWORD);
  await app.goTo(shell.url, PAGES.userSettings);
  const card = page.getByTestId('station-card');
  await expect(card.getByTestId('station-state')).toHaveText('معطّلة');
  await card.getByTestId('station-folder-add').click();
  await card.getByTestId('station-folder-0').fill(join(folder, 'nowhere'));
  await card.getByTestId('station-enabled').click();
  await card.getByTestId('station-save').click();
  // A folder that does not exist is said so, in Arabic, and nothing runs.
  await expect(card.getByTestId('station-folder-error-0')).toHaveText('هذا المجلد غير موجود على هذا الحاسوب');
  await card.getByTestId('station-folder-0').fill(folder);
  await card.getByTestId('station-save').click();
  await expect(card.getByTestId('station-state')).toHaveText('تعمل');

  writeFileSync(join(folder, 'خطاب وزارة الصحة.pdf'), minimalPdf());
  writeFileSync(join(folder, 'notes.pdf'), 'not a PDF at all, only text');
  writeFileSync(join(folder, 'محضر.txt'), 'a text file: rejected with a note, not left lying there');
  writeFileSync(join(folder, 'locked.pdf'), encryptedPdf());
  writeFileSync(join(folder, 'Thumbs.db'), 'system file');
  // A wait on real work (the files settle, are checked and sent): a ceiling of minutes, not a speed limit.
  await expect(card.getByTestId('station-count-done')).toContainText('1', { timeout: 180_000 });
  await expect(card.getByTestId('station-count-rejected')).toContainText('3', { timeout: 180_000 });
  const recent = card.getByTestId('station-recent');
  // What happened to each file, in the clerk's language (nobody "selected" anything).
  await expect(recent).toContainText('الملف ليس PDF');
  await expect(recent).toContainText('محميّ بكلمة مرور');
  await expect(recent).not.toContainText('يرجى اختيار');
  expect(readdirSync(join(folder, 'processed'))).toEqual(['خطاب وزارة الصحة.pdf']);
  expect(readFileSync(join(folder, 'rejected', 'notes.pdf.txt'), 'utf8')).toContain('The file is not a PDF');
  expect(readdirSync(folder).sort()).toEqual(['Thumbs.db', 'processed', 'rejected']);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/station-ar.png`, fullPage: true });

  // The draft it became opens from the panel.
  await recent.locator('a[data-testid^="station-open-"]').click();
  await expect(page.getByText('خطاب وزارة الصحة').first()).toBeVisible();
  await expect(page.getByTestId('attachment-row')).toHaveCount(1);

  // English: the same panel, left to right, the reason in English.
  await app.switchLanguage();
  await app.goTo(shell.url, PAGES.userSettings);
  await expect(card.getByTestId('station-state')).toHaveText('Running');
  await expect(card.getByTestId('station-recent')).toContainText('The file is not a PDF');
  await expect(card.getByTestId('station-recent')).toContainText('protected by a password');
  // The English panel quotes no Arabic words of the server.
  await expect(card.getByTestId('station-recent')).not.toContainText('محميّ');
  await card.getByTestId('station-pause').click();
  await expect(card.getByTestId('station-state')).toHaveText('Paused');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/station-en.png`, fullPage: true });
  await card.getByTestId('station-resume').click();
  await expect(card.getByTestId('station-state')).toHaveText('Running');
});
