/**
 * A clerk pages through an incoming box that holds more letters than the server counts (the API server
 * runs alone here, with LIST_EXACT_TOTAL_MAX=10, and the web shell uses it as an organisation's server).
 * In its own date order the box is counted exactly from its tallies whatever its size: the pager shows
 * every page. Searched, it is counted up to the limit: the pager says "more than" in Arabic and in
 * English, the next page goes on past what was counted and its last page shows the exact total, and the
 * jump box reaches a page by its number. Screenshots: test-results/screens/big-list-{ar,en}.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, launchApiServer, launchWebShell, stopWebShell, test } from './fixtures';
import { Api, seedArchiveOffice } from './support/api';
import { PAGES } from '../../src-shared/pages';
import { AdminShell } from './pages/AdminScreens';
import { MainLayout } from './pages/MainLayout';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Clerk#2025';
const LETTERS = 25;

test.use({ viewport: { width: 1280, height: 800 } });

/** Starts the API server alone with the count limit at 10. */
async function serverCountingTo10(dataDir: string) {
  const saved = process.env.LIST_EXACT_TOTAL_MAX;
  process.env.LIST_EXACT_TOTAL_MAX = '10';
  try {
    return await launchApiServer(dataDir);
  } finally {
    if (saved === undefined) delete process.env.LIST_EXACT_TOTAL_MAX;
    else process.env.LIST_EXACT_TOTAL_MAX = saved;
  }
}

/** Whether the table's rows are wider than their box (the table scrolls sideways at this width). */
const scrollsSideways = (table: Locator) =>
  table
    .locator('.ant-table-content, .ant-table-body')
    .first()
    .evaluate((el) => el.scrollWidth > el.clientWidth + 1);

test('a clerk pages through a box larger than the count, in Arabic and in English', async ({ page }) => {
  test.setTimeout(300_000);
  const serverDir = mkdtempSync(join(tmpdir(), 'sijill-e2e-server-'));
  const shellDir = mkdtempSync(join(tmpdir(), 'sijill-e2e-shell-'));
  const server = await serverCountingTo10(serverDir);
  const { shell, child } = await launchWebShell(shellDir, ['--server', server.url]);
  try {
    await browse(page, shell.url, server.url);
  } finally {
    await stopWebShell(child);
    await stopWebShell(server.child);
    rmSync(serverDir, { recursive: true, force: true });
    rmSync(shellDir, { recursive: true, force: true });
  }
});

/** Seeds the organisation and the letters through the API, then browses the box as the clerk. */
async function browse(page: Page, shellUrl: string, apiUrl: string) {
  const admin = await Api.administrator(apiUrl);
  const office = await seedArchiveOffice(admin, {
    roleName: 'Archive Clerk',
    pages: { [PAGES.inboxAdd]: ['add'], [PAGES.incoming]: ['edit'] },
    username: 'clerk',
    password: PASSWORD,
  });
  const clerk = office.clerk;
  for (let i = 1; i <= LETTERS; i++)
    await clerk.ok('POST', '/correspondence/documents', {
      direction: 'in',
      subject: `خطاب رقم ${i}`,
      senderDepartmentId: office.sender,
      recipientDepartmentId: office.finance,
      documentDate: new Date().toISOString().slice(0, 10),
      codificationId: office.codification,
      register: true,
    });

  const app = new AdminShell(page);
  const main = new MainLayout(page);
  const table = page.getByTestId('incoming-list-table');
  const totalText = table.locator('.ant-pagination-total-text');
  await app.open(shellUrl);
  await app.signIn('clerk', PASSWORD);
  await app.goTo(shellUrl, '/correspondence/inbox/incoming');

  // The box in its own date order: its exact total, past the count limit.
  await expect(totalText).toHaveText(`1–20 من ${LETTERS}`);
  // Searched, it is counted up to the limit. Twenty letters read, more behind them: «أكثر من ٢٠» rather
  // than a count the server did not make.
  await page.getByTestId('incoming-list-table-search').locator('input').fill('خطاب');
  await expect(totalText).toHaveText('1–20 من أكثر من 20');
  await app.closeToasts();
  // At 1280 px, twenty full rows fit the window's width: no column (the state last) half hidden.
  expect(await scrollsSideways(table), 'the Arabic box scrolls sideways at 1280 px').toBe(false);
  await page.screenshot({ path: `${SCREENS}/big-list-ar.png`, fullPage: true });
  await table.locator('.ant-pagination-next').click();
  await expect(totalText).toHaveText(`21–${LETTERS} من ${LETTERS}`);
  await expect(table.locator('.ant-table-row')).toHaveCount(LETTERS - 20);
  // The jump box takes a page number.
  await table.getByLabel('الانتقال إلى صفحة').fill('1');
  await table.getByTestId('incoming-list-table-jump-go').click();
  await expect(totalText).toHaveText('1–20 من أكثر من 20');

  await main.toggleLanguage();
  await expect(totalText).toHaveText('1–20 of more than 20');
  expect(await scrollsSideways(table), 'the English box scrolls sideways at 1280 px').toBe(false);
  await page.screenshot({ path: `${SCREENS}/big-list-en.png`, fullPage: true });
}
