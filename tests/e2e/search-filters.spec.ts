/**
 * The search page with filters and no words, in Chromium at 1280 px: an address holding only filters (as a
 * dashboard's figure opens its list) lists the documents they keep, newest first, without typing; filters
 * that keep nothing say so; cleared, the hint comes back. A file of its own: search.spec.ts reads a scan
 * by OCR first, which takes minutes. Screenshot in test-results/screens (search-filters-*.png).
 */
import { expect, test } from './fixtures';
import { Api, registerIncoming, seedArchiveOffice } from './support/api';
import { AdminShell } from './pages/AdminScreens';
import { PAGES } from '../../src-shared/pages';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Search#2025';

test.use({ viewport: { width: 1280, height: 800 } });

test('the list behind a filter: incoming letters without typing a word', async ({ page, shell }) => {
  const admin = await Api.administrator(shell.apiBaseUrl);
  const office = await seedArchiveOffice(admin, {
    roleName: 'Search Lister',
    pages: {
      [PAGES.inboxAdd]: ['add'],
      [PAGES.inboxDrafts]: ['add', 'edit', 'delete'],
      [PAGES.incoming]: ['edit', 'distribute'],
      [PAGES.search]: ['view'],
    },
    username: 'lister',
    password: PASSWORD,
  });
  const today = new Date().toISOString().slice(0, 10);
  const letter = (subject: string) => registerIncoming(office, subject);
  const older = await letter('خطاب وارد أول');
  const newer = await letter('خطاب وارد ثان');

  const app = new AdminShell(page);
  await app.open(shell.url);
  await app.signIn('lister', PASSWORD);
  await app.goTo(shell.url, `${PAGES.search}?direction=in&fromDate=${today}&toDate=${today}`);
  const hits = page.getByTestId('search-hit');
  await expect(hits).toHaveCount(2);
  await expect(hits.nth(0)).toContainText(newer.docNumber);
  await expect(hits.nth(1)).toContainText(older.docNumber);
  await expect(page.getByTestId('search-hint')).toHaveCount(0);
  await expect(page.getByTestId('search-input').locator('input')).toHaveValue('');
  await expect(page.getByTestId('search-filter-direction')).toContainText('وارد');
  await page.screenshot({ path: `${SCREENS}/search-filters-ar.png` });

  // Filters that keep nothing say so; cleared, the hint is back and nothing is listed.
  await app.goTo(shell.url, `${PAGES.search}?direction=out`);
  await expect(page.getByTestId('search-empty')).toContainText('عوامل التصفية');
  await page.getByTestId('search-clear-filters').click();
  await expect(page.getByTestId('search-hint')).toBeVisible();
  await expect(hits).toHaveCount(0);
});
