/**
 * Lists at common desktop widths, on the demo organisation's real rows, in Arabic and English: at 1280 px
 * no list needs scrolling sideways and its row actions are in view; at 1920 px the column that names the
 * row (the subject of a box, the name on a directory table) is the widest, the others fitting their
 * content; the header stands over its columns at both widths; a column chooser lets a user hide what they
 * do not need. Screenshots in test-results/screens/lists-*.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { MainLayout } from './pages/MainLayout';
import { openScreen, signInAs, type DemoUser } from './support/demo';

test.describe.configure({ mode: 'serial' });
test.use({ demo: true });

const SCREENS = resolve(import.meta.dirname, '../../test-results/screens');
mkdirSync(SCREENS, { recursive: true });

/** Every list screen, with the demo account that has rows in it (`rows: false`: none has). */
const LISTS: { user: DemoUser; path: string; rows?: false }[] = [
  { user: 'clerk', path: '/correspondence/inbox/incoming' },
  { user: 'clerk', path: '/correspondence/inbox/follow-ups' },
  { user: 'clerk', path: '/correspondence/inbox/draft' },
  { user: 'clerk', path: '/correspondence/outbox/outgoing' },
  { user: 'clerk', path: '/correspondence/memos/approved-memos' },
  { user: 'manager', path: '/correspondence/inbox/incoming-tasks' },
  { user: 'manager', path: '/correspondence/outbox/requiring-approval' },
  { user: 'manager', path: '/correspondence/memos/requiring-approval' },
  { user: 'employee1', path: '/correspondence/outbox/draft' },
  { user: 'employee1', path: '/correspondence/outbox/awaiting-approval' },
  { user: 'employee1', path: '/correspondence/memos/draft' },
  { user: 'employee1', path: '/correspondence/memos/awaiting-approval', rows: false },
  { user: 'admin', path: '/ec/employees' },
  { user: 'admin', path: '/ec/jobs' },
  { user: 'admin', path: '/ec/secretary-offices' },
  { user: 'admin', path: '/auth/users' },
  { user: 'admin', path: '/auth/roles' },
  { user: 'admin', path: '/auth/audit' },
  { user: 'admin', path: '/correspondence/settings/mediums' },
  { user: 'admin', path: '/correspondence/settings/priorities' },
  { user: 'admin', path: '/correspondence/settings/security-levels' },
  { user: 'admin', path: '/correspondence/settings/codifications' },
  { user: 'admin', path: '/correspondence/settings/main-distribution' },
];

/** Where the table's parts are, in the window's coordinates. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const table = document.querySelector('.data-table .ant-table') as HTMLElement | null;
    if (!table) return null;
    const scroller = table.querySelector('.ant-table-content, .ant-table-body') as HTMLElement | null;
    const headers = [...table.querySelectorAll('thead th:not(.ant-table-cell-scrollbar)')] as HTMLElement[];
    const firstRow = table.querySelector('tbody tr.ant-table-row') as HTMLTableRowElement | null;
    const cells = firstRow ? ([...firstRow.cells] as HTMLElement[]) : [];
    const box = (el: HTMLElement) => {
      const r = el.getBoundingClientRect();
      return { start: Math.round(r.left), end: Math.round(r.right), width: Math.round(r.width) };
    };
    const grow = headers.filter((th) => th.classList.contains('dt-grow-col'));
    return {
      rows: table.querySelectorAll('tbody tr.ant-table-row').length,
      overflows: scroller ? scroller.scrollWidth > scroller.clientWidth + 1 : false,
      pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth + 1,
      windowWidth: window.innerWidth,
      headers: headers.map((th) => ({
        title: th.innerText.trim(),
        ...box(th),
        grow: th.classList.contains('dt-grow-col'),
      })),
      cells: cells.map(box),
      growCount: grow.length,
      hasActions: !!table.querySelector('thead th.ant-table-cell-fix-end, thead th.ant-table-cell-fix-right'),
    };
  });
}

type Measure = NonNullable<Awaited<ReturnType<typeof measure>>>;

/** The header cells that do not stand over the first row's cells (more than a pixel apart). */
function askew(m: Measure): string[] {
  if (m.cells.length === 0) return [];
  return m.headers.flatMap((h, i) => {
    const c = m.cells[i];
    if (!c) return [`"${h.title}" has no cell under it`];
    return Math.abs(h.start - c.start) > 1 || Math.abs(h.end - c.end) > 1
      ? [`"${h.title}" header ${h.start}–${h.end}, cells ${c.start}–${c.end}`]
      : [];
  });
}

for (const lang of ['ar', 'en'] as const) {
  test(`every list fits 1280 px and gives its subject the room at 1920 px (${lang})`, async ({
    page,
    shell,
  }) => {
    test.setTimeout(600_000);
    const problems: string[] = [];
    let user: DemoUser | null = null;
    for (const list of LISTS) {
      if (list.user !== user) {
        await page.setViewportSize({ width: 1280, height: 800 });
        await signInAs(page, shell, list.user, lang);
        user = list.user;
      }
      for (const width of [1280, 1920]) {
        await page.setViewportSize({ width, height: 800 });
        await openScreen(page, list.path);
        await expect(page.locator('.data-table .ant-table thead th').first()).toBeVisible();
        // The sticky header follows the body's width once the browser has laid the rows out.
        await expect.poll(async () => askew((await measure(page))!), list.path).toEqual([]);
        const m = (await measure(page))!;
        const where = `${list.path} at ${width} px (${lang})`;
        if (list.rows !== false && m.rows === 0) problems.push(`${where}: no rows to measure`);
        if (m.growCount !== 1) problems.push(`${where}: ${m.growCount} columns take the room, not one`);
        if (m.pageScrollsSideways) problems.push(`${where}: the page scrolls sideways`);
        if (width === 1280 && m.overflows) problems.push(`${where}: the list needs scrolling sideways`);
        if (m.hasActions) {
          const last = m.headers.at(-1)!;
          if (last.start < 0 || last.end > m.windowWidth + 1)
            problems.push(`${where}: row actions off screen`);
        }
        if (width === 1920 && m.rows > 0) {
          const grow = m.headers.find((h) => h.grow)!;
          const wider = m.headers.filter((h) => !h.grow && h.width >= grow.width);
          if (wider.length)
            problems.push(
              `${where}: "${grow.title}" (${grow.width} px) is not the widest: ${wider.map((h) => `"${h.title}" ${h.width} px`).join(', ')}`,
            );
        }
        const name = list.path.replace(/^\//, '').replace(/\//g, '-');
        await page.screenshot({ path: `${SCREENS}/lists-${name}-${width}-${lang}.png` });
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
}

test('the column chooser hides a column, keeps the choice, and brings it back', async ({ page, shell }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, shell, 'admin', 'ar');
  const main = new MainLayout(page);
  await openScreen(page, '/ec/employees');
  const phoneHeader = page.locator('.data-table thead th', { hasText: 'الهاتف' });
  await expect(phoneHeader).toHaveCount(1);
  const columns = page.getByTestId('employees-table-columns');
  const phone = page.getByRole('checkbox', { name: 'الهاتف' });
  /** Sets the phone column's box in the chooser (a click lost while the menu opens is clicked again). */
  const choose = async (shown: boolean) => {
    await expect(async () => {
      if (!(await phone.isVisible())) await columns.click();
      if ((await phone.isChecked()) !== shown) await phone.click();
      await expect(phone).toBeChecked({ checked: shown, timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await page.keyboard.press('Escape');
  };
  await choose(false);
  await expect(phoneHeader).toHaveCount(0);
  await page.reload();
  await expect(main.menu()).toBeVisible();
  await expect(page.locator('.data-table .ant-table thead th').first()).toBeVisible();
  await expect(phoneHeader).toHaveCount(0);
  await choose(true);
  await expect(phoneHeader).toHaveCount(1);
});
