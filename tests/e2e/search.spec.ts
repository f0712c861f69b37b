/**
 * Search in Chromium, in both languages, at 1280 px: a clerk's letter carries a scanned page (no text
 * layer); the attachment shows it being read, then its text; the clerk finds the letter from the header's
 * search box by words of the scan typed without hamza and with ه for ة, sees the passage with the words
 * marked, opens the letter and comes back to the same results; then in English, by English words of the
 * same scan, with a filter. Screenshots in test-results/screens (search-*.png).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { Api, registerIncoming, seedArchiveOffice } from './support/api';
import { AdminShell } from './pages/AdminScreens';
import { PAGES } from '../../src-shared/pages';
import { makeScannedPdf } from '../support/pdf-makers';
import { chooseOption } from './support/select';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Search#2025';

test.use({ viewport: { width: 1280, height: 800 } });

test('a clerk finds a letter by words of its scanned attachment, in Arabic and in English', async ({
  page,
  shell,
}) => {
  // Reading a scan is real work at the lowest priority: on a loaded machine it takes minutes (a ceiling
  // against a hang, not a speed limit).
  test.setTimeout(600_000);
  const admin = await Api.administrator(shell.apiBaseUrl);
  const office = await seedArchiveOffice(admin, {
    roleName: 'Search Clerk',
    pages: {
      [PAGES.inboxAdd]: ['add'],
      [PAGES.inboxDrafts]: ['add', 'edit', 'delete'],
      [PAGES.incoming]: ['edit', 'distribute'],
      [PAGES.search]: ['view'],
    },
    username: 'searcher',
    password: PASSWORD,
  });
  const clerk = office.clerk;
  const letter = (subject: string) => registerIncoming(office, subject);
  const found = await letter('خطاب وارد من الجمعية');
  await letter('خطاب آخر لا صلة له');
  // A scanned page: an image of the text, no text layer.
  const scratch = mkdtempSync(join(tmpdir(), 'sijill-e2e-search-'));
  try {
    const scan = await makeScannedPdf(
      [['نرجو إحاطة المسؤولين بموعد الاجتماع السنوي لأعضاء الجمعية', 'Annual general assembly of members']],
      scratch,
    );
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(readFileSync(scan))], { type: 'application/pdf' }),
      'scan.pdf',
    );
    const uploaded = await fetch(`${shell.apiBaseUrl}/correspondence/documents/${found.id}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clerk.accessToken}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const app = new AdminShell(page);
  await app.open(shell.url);
  await app.signIn('searcher', PASSWORD);
  // The letter's attachment: read in the background, then its text is there.
  await app.goTo(shell.url, `${PAGES.incoming}/${found.id}`);
  const status = page.getByTestId('attachments-panel').getByTestId('attachment-text-status');
  await expect(status).toHaveAttribute('data-status', 'done', { timeout: 360_000 });
  await status.click();
  const dialog = page.getByTestId('attachment-text-dialog');
  await expect(dialog.getByTestId('attachment-text-page')).toContainText('الاجتماع السنوي');
  await expect(page.locator('.ant-zoom-appear, .ant-zoom-enter')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/search-attachment-text-ar.png` });
  await page.keyboard.press('Escape');

  const box = page.getByTestId('header-search').locator('input');
  // From the header: words of the scan typed without hamza, ه for ة.
  await box.fill('الاجتماع السنوي لاعضاء الجمعيه');
  await box.press('Enter');
  await expect(page).toHaveURL(/search\/documents\?q=/);
  const hits = page.getByTestId('search-hit');
  await expect(hits).toHaveCount(1);
  await expect(hits.first()).toContainText(found.docNumber);
  const passage = hits.first().getByTestId('search-passage-attachment');
  await expect(passage).toContainText('scan.pdf');
  expect(await passage.locator('mark').count()).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('search-total')).toContainText('مراسلة واحدة');
  await page.screenshot({ path: `${SCREENS}/search-results-ar.png` });

  // Open it and come back to the same results.
  await hits.first().getByTestId('search-hit-link').click();
  await expect(page.getByTestId('doc-number')).toContainText(found.docNumber);
  await page
    .getByRole('link', { name: /رجوع|العودة/ })
    .first()
    .click();
  await expect(page.getByTestId('search-input').locator('input')).toHaveValue(
    'الاجتماع السنوي لاعضاء الجمعيه',
  );
  await expect(page.getByTestId('search-hit')).toHaveCount(1);

  // Nothing matches: said so, in the reader's language.
  await page.getByTestId('search-input').locator('input').fill('مناقصة الطرق');
  await page.getByTestId('search-input').locator('input').press('Enter');
  await expect(page.getByTestId('search-empty')).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/search-empty-ar.png` });

  // A word nobody wrote beside words of the letter: left out, and named.
  await page.getByTestId('search-input').locator('input').fill('الاجتماع السنوي زنجفيل');
  await page.getByTestId('search-input').locator('input').press('Enter');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  await expect(page.getByTestId('search-note-missing')).toContainText('«\u2068زنجفيل\u2069»');
  await page.screenshot({ path: `${SCREENS}/search-missing-ar.png` });

  // In English: English words of the same scan, with a filter on the direction.
  await app.switchLanguage();
  await page.getByTestId('search-input').locator('input').fill('general assemblies');
  await page.getByTestId('search-input').locator('input').press('Enter');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  await expect(page.getByTestId('search-total')).toContainText('1 document');
  await chooseOption(page, page.getByTestId('search-filter-direction'), 'Outgoing', { type: false });
  await expect(page.getByTestId('search-empty')).toBeVisible();
  await page.getByTestId('search-clear-filters').click();
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  await page.screenshot({ path: `${SCREENS}/search-results-en.png` });

  // Words nobody wrote beside words of the scan: left out and named; the common words are not said.
  await page.getByTestId('search-input').locator('input').fill('the general assembly of another letter');
  await page.getByTestId('search-input').locator('input').press('Enter');
  await expect(page.getByTestId('search-note-missing')).toContainText('“\u2068another\u2069”');
  await expect(page.getByTestId('search-hit')).toHaveCount(1);
  await expect(page.getByTestId('search-note-ignored')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/search-notes-en.png` });
  // Nothing found: the common words left out are named, so the page says why.
  await page.getByTestId('search-input').locator('input').fill('the quokka of zanzibar');
  await page.getByTestId('search-input').locator('input').press('Enter');
  await expect(page.getByTestId('search-empty')).toBeVisible();
  await expect(page.getByTestId('search-note-ignored')).toContainText('“\u2068the\u2069”');
});
