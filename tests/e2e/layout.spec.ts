/**
 * Lists at a common desktop width: at 1280 px, in Arabic and English, every list screen keeps its row
 * actions in view and, when its columns are wider than the window, a horizontal scroll bar in view at the
 * bottom of the window (not under the last of twenty rows); a column chooser lets a user hide what they do
 * not need. Screenshots in test-results/screens/lists-*.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { LoginPage } from './pages/LoginPage';
import { MainLayout } from './pages/MainLayout';
import { ADMIN, Api } from './support/api';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 800 } });

const SCREENS = resolve(import.meta.dirname, '../../test-results/screens');
mkdirSync(SCREENS, { recursive: true });

const LISTS = [
  '/correspondence/inbox/incoming',
  '/correspondence/inbox/follow-ups',
  '/correspondence/inbox/incoming-tasks',
  '/correspondence/inbox/draft',
  '/ec/employees',
  '/ec/jobs',
  '/ec/secretary-offices',
  '/auth/users',
  '/auth/roles',
  '/auth/audit',
  '/correspondence/settings/codifications',
];

/** Where the table's parts are, in the window's coordinates. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const table = document.querySelector('.data-table .ant-table') as HTMLElement | null;
    if (!table) return null;
    const scroller = table.querySelector('.ant-table-content, .ant-table-body') as HTMLElement | null;
    const headers = [...table.querySelectorAll('thead th')] as HTMLElement[];
    const last = headers.at(-1)?.getBoundingClientRect();
    const sticky = table.parentElement?.querySelector('.ant-table-sticky-scroll') as HTMLElement | null;
    const bar = sticky?.getBoundingClientRect();
    const actions = table.querySelector('thead th.ant-table-cell-fix-end, thead th.ant-table-cell-fix-right');
    return {
      hasActions: !!actions,
      tableBottom: table.getBoundingClientRect().bottom,
      overflows: scroller ? scroller.scrollWidth > scroller.clientWidth + 1 : false,
      lastHeader: last ? { start: last.left, end: last.right } : null,
      stickyBar: bar && bar.height > 0 ? { top: bar.top, bottom: bar.bottom } : null,
      windowWidth: window.innerWidth,
      windowHeight: window.innerHeight,
      pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth + 1,
    };
  });
}

for (const lang of ['ar', 'en'] as const) {
  test(`list screens at 1280 px keep actions and scrolling in view (${lang})`, async ({ page, shell }) => {
    await Api.administrator(shell.apiBaseUrl);
    const login = new LoginPage(page);
    const main = new MainLayout(page);
    await login.openSignedOut(shell);
    if (lang === 'en') await login.switchTo('English');
    await login.signIn(ADMIN.username, ADMIN.password);
    await expect(main.menu()).toBeVisible();
    let previousTitle = '';
    for (const path of LISTS) {
      await main.go(path);
      await main.expectPath(path);
      // The new screen is the one shown (not the previous list still on its way out).
      await expect(main.pageTitle(), path).toBeVisible();
      await expect(main.pageTitle(), path).not.toHaveText(previousTitle);
      previousTitle = (await main.pageTitle().textContent()) ?? '';
      await expect(page.locator('.data-table .ant-table thead th').first()).toBeVisible();
      await page.waitForTimeout(300);
      const m = await measure(page);
      expect(m, path).not.toBeNull();
      expect(m!.pageScrollsSideways, `${path}: the page itself scrolls sideways`).toBe(false);
      // The correspondence boxes show what matters without scrolling sideways.
      if (path.startsWith('/correspondence/inbox/'))
        expect(m!.overflows, `${path}: its default columns are wider than the window`).toBe(false);
      // Row actions stay in the window whatever the table's width.
      if (m!.hasActions) {
        expect(m!.lastHeader!.start, `${path}: actions start off screen`).toBeGreaterThanOrEqual(0);
        expect(m!.lastHeader!.end, `${path}: actions end off screen`).toBeLessThanOrEqual(m!.windowWidth + 1);
      }
      // A table wider than the window has a horizontal scroll bar in view: its own under a short table,
      // the sticky one at the bottom of the window under a long one.
      if (m!.overflows) {
        const inView =
          m!.tableBottom <= m!.windowHeight ||
          (m!.stickyBar !== null && m!.stickyBar.bottom <= m!.windowHeight + 1);
        expect(inView, `${path}: a wide table needs its scroll bar in view`).toBe(true);
      }
      const name = path.replace(/^\//, '').replace(/\//g, '-');
      await page.screenshot({ path: `${SCREENS}/lists-${name}-${lang}.png` });
    }
    // The column chooser hides a column, the choice is kept, and it comes back.
    await main.go('/ec/employees');
    const columns = page.getByTestId('employees-table-columns');
    await columns.click();
    const phone = page.locator('[data-testid$="-column-phoneNumber"]');
    await phone.click();
    await page.keyboard.press('Escape');
    await expect(
      page.locator('.data-table thead th', { hasText: lang === 'ar' ? 'الهاتف' : 'Phone' }),
    ).toHaveCount(0);
    await page.reload();
    await expect(page.locator('.data-table .ant-table thead th').first()).toBeVisible();
    await expect(
      page.locator('.data-table thead th', { hasText: lang === 'ar' ? 'الهاتف' : 'Phone' }),
    ).toHaveCount(0);
    await columns.click();
    await page.locator('[data-testid$="-column-phoneNumber"]').click();
    await page.keyboard.press('Escape');
    await expect(
      page.locator('.data-table thead th', { hasText: lang === 'ar' ? 'الهاتف' : 'Phone' }),
    ).toHaveCount(1);
    await main.logout();
    if (lang === 'en') await login.switchTo('العربية');
  });
}
