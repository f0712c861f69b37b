/**
 * Administration → Backups (issue 29; docs/backups.md) on the demo organisation, in Arabic and in English
 * at 1280 px: the administrator backs up (the request waits until the server has written it), sees the
 * new backup listed as the newest with the retention rule in words, verifies the one before (its state
 * shown), and deletes it after confirming — the newest is never offered for deletion; the screen fits
 * its window. A clerk has no Backups in the menu and a deep link to the page is refused.
 */
import type { Page } from '@playwright/test';
import { PAGES } from '../../src-shared/pages';
import { expect, test } from './fixtures';
import { openScreen, signInAs } from './support/demo';
import { expectFits } from './support/fits';
import { toastSaying } from './support/toasts';
import { MainLayout } from './pages/MainLayout';

test.use({ demo: true });

/** The names of the listed complete backups (their "Verify" buttons), in the list's order. */
async function listed(page: Page): Promise<string[]> {
  const ids = await page
    .locator('[data-testid^="backup-verify-"]')
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-testid')!));
  return ids.map((id) => id.replace('backup-verify-', ''));
}

/** "Back up now", waiting until the new backup is listed; answers its name. */
async function backUp(page: Page): Promise<string> {
  const before = await listed(page);
  await page.getByTestId('backup-now').click();
  await expect
    .poll(async () => (await listed(page)).filter((n) => !before.includes(n)), { timeout: 120_000 })
    .toHaveLength(1);
  return (await listed(page)).find((n) => !before.includes(n))!;
}

const WORDS = {
  ar: {
    section: 'إدارة النظام',
    menu: 'النسخ الاحتياطية',
    rule: /تُحفظ أحدث .* نسخ، وأحدث نسخة من كل شهر من آخر .* شهرًا/,
    newest: 'الأحدث',
    last: 'من الأحدث',
    whole: 'سليمة',
    notVerified: 'لم يُتحقق منها',
    confirm: 'حذف النسخة الاحتياطية المأخوذة في',
    deleted: 'حُذفت النسخة الاحتياطية',
  },
  en: {
    section: 'Administration',
    menu: 'Backups',
    rule: /Kept: the \d+ newest backups, and the newest backup of each of the \d+ latest months/,
    newest: 'Newest',
    last: 'Among the newest',
    whole: 'Whole',
    notVerified: 'Not verified',
    confirm: 'Delete the backup of',
    deleted: 'The backup was deleted',
  },
} as const;

for (const lang of ['ar', 'en'] as const) {
  const w = WORDS[lang];
  test(`the administrator backs up, verifies a backup and deletes one (${lang})`, async ({ page, shell }) => {
    test.setTimeout(420_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInAs(page, shell, 'admin', lang);
    // The page is in the administrator's menu, under Administration.
    const main = new MainLayout(page);
    await main.openMenuSection(w.section);
    await main.menu().getByRole('menuitem', { name: w.menu }).click();
    await main.expectPath(PAGES.backups);
    await openScreen(page, PAGES.backups);
    await expect(page.getByTestId('backup-retention-rule')).toHaveText(w.rule);

    // Two backups, so that one is not the newest.
    const older = (await listed(page))[0] ?? (await backUp(page));
    const newest = await backUp(page);
    expect((await listed(page))[0]).toBe(newest);
    await expect(page.getByTestId(`backup-retention-${newest}`)).toHaveText(w.newest);
    await expect(page.getByTestId(`backup-retention-${older}`)).toHaveText(w.last);
    await expect(page.getByTestId(`backup-delete-${newest}`)).toHaveCount(0);

    // Verified: its state in its row.
    await expect(page.getByTestId(`backup-state-${older}`)).toHaveText(w.notVerified);
    await page.getByTestId(`backup-verify-${older}`).click();
    await expect(page.getByTestId(`backup-state-${older}`)).toContainText(w.whole);
    await expectFits(page);

    // Deleted once confirmed (cancelling first leaves it).
    await page.getByTestId(`backup-delete-${older}`).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(w.confirm);
    await dialog.locator('.ant-btn').first().click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId(`backup-verify-${older}`)).toBeVisible();
    await page.getByTestId(`backup-delete-${older}`).click();
    await page.getByTestId('backup-delete-confirm').click();
    await expect(toastSaying(page, w.deleted, 'success')).toBeVisible();
    await expect(page.getByTestId(`backup-verify-${older}`)).toHaveCount(0);
    expect(await listed(page)).toEqual([newest]);
    await expect(page.getByTestId(`backup-retention-${newest}`)).toHaveText(w.newest);
    await expectFits(page);
  });
}

test('a clerk has no Backups page: not in the menu, and a deep link is refused', async ({ page, shell }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, shell, 'clerk', 'en');
  const main = new MainLayout(page);
  // Their menu is loaded (their mail is in it) and holds no Administration section.
  await expect(main.menu().getByText('Inbox', { exact: true })).toBeVisible();
  await expect(main.menu().getByText('Administration', { exact: true })).toHaveCount(0);
  await main.go(PAGES.backups);
  await expect(main.noAccess()).toBeVisible();
  await main.expectPath('/no-access');
  await expect(page.getByTestId('backup-now')).toHaveCount(0);
});
