/** Whether a screen fits its window: no table scrolls sideways, nor the page itself. */
import { expect, type Page } from '@playwright/test';

export async function expectFits(page: Page) {
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth > window.innerWidth + 1,
    tables: [...document.querySelectorAll('.ant-table-content, .ant-table-body')].filter(
      (el) => el.scrollWidth > el.clientWidth + 1,
    ).length,
  }));
  expect(overflow).toEqual({ page: false, tables: 0 });
}
