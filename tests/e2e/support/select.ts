/**
 * Choosing in antd's Select and TreeSelect the way a person does — open, type, click the option — and
 * then checking the choice took. Pickers that search the server replace their options as results
 * arrive, so a click can land on an option that is being swapped out; the whole gesture is retried
 * until the field shows the choice.
 */
import { expect, type Locator, type Page } from '@playwright/test';

const DROPDOWN_OPTIONS =
  '.ant-select-dropdown:visible .ant-select-item-option, .ant-select-dropdown:visible .ant-select-tree-treenode, .ant-select-tree-dropdown:visible .ant-select-tree-treenode';

/** The antd Select root of `control` (the test id may sit on the root or on its search input). */
function selectRoot(control: Locator): Locator {
  return control.locator(
    'xpath=ancestor-or-self::*[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]',
  );
}

/** Picks the option showing `label` in the Select (or TreeSelect) `control`. */
export async function chooseOption(
  page: Page,
  control: Locator,
  label: string,
  opts: {
    type?: boolean;
    exact?: boolean;
    /** Where the choice shows once taken, when not in the field itself (a picker that empties itself). */
    shownIn?: Locator;
  } = {},
): Promise<void> {
  const root = selectRoot(control);
  await expect(async () => {
    // Taken by an earlier try whose check came too soon (the picker may be gone: it gave way to its choice).
    if (opts.shownIn && (await opts.shownIn.allInnerTexts()).some((t) => t.includes(label))) return;
    // No Escape here: inside a drawer or a dialog it would close them, not just the list.
    if (!(await root.evaluate((el) => el.classList.contains('ant-select-open')))) await control.click();
    if (opts.type !== false) {
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(label);
    }
    const options = page.locator(DROPDOWN_OPTIONS);
    const option = opts.exact
      ? options.filter({ has: page.getByText(label, { exact: true }) })
      : options.filter({ hasText: label });
    await option.first().click({ timeout: 5_000 });
    // The chosen value is text of the field itself (the dropdown lives elsewhere in the page).
    await expect(opts.shownIn ?? root).toContainText(label, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}
