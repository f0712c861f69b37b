/**
 * Choosing an entry of an antd Dropdown (the user menu, a row's "more" menu). The dropdown opens with a
 * zoom animation, and on a loaded machine Playwright can find its box still for two frames while it is
 * still growing: a click then lands beside the entry (the divider of the user menu). So the click waits
 * until the dropdown's animations have ended.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/** The open dropdown, once its opening animation has ended. */
export async function settledDropdown(page: Page): Promise<Locator> {
  const open = page.locator('.ant-dropdown:visible');
  await expect(open).toHaveCount(1);
  await expect
    .poll(() => open.evaluate((el) => el.getAnimations({ subtree: true }).length), {
      message: 'the dropdown is still opening',
    })
    .toBe(0);
  return open;
}

/** Opens the dropdown of `trigger` and clicks the entry `entry` picks in it. */
export async function chooseInDropdown(
  page: Page,
  trigger: Locator,
  entry: (menu: Locator) => Locator,
): Promise<void> {
  await trigger.click();
  await entry(await settledDropdown(page)).click();
}
