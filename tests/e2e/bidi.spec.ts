/**
 * Text of two directions reads in the right order on the main screens of the demo organisation, in Arabic
 * and in English: numbers, phone numbers, registration numbers, dates, paths and file names stay whole and
 * left to right inside Arabic text, Arabic names and subjects keep their order inside English text, and a
 * text cut to fit shows its beginning (support/bidi.ts reads the order from the boxes Chromium drew).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { bidiProblems } from './support/bidi';
import { openScreen, settle, signInAs, type DemoUser } from './support/demo';

test.describe.configure({ mode: 'serial' });
test.use({ demo: true, viewport: { width: 1280, height: 800 } });

/** A screen: a path, or a path and then its first row opened (a document's detail). */
const WALK: { user: DemoUser; path: string; openFirst?: boolean }[] = [
  { user: 'admin', path: '/ec/employees' },
  { user: 'admin', path: '/ec/jobs' },
  { user: 'admin', path: '/ec/secretary-offices' },
  { user: 'admin', path: '/auth/users' },
  { user: 'admin', path: '/auth/audit' },
  { user: 'admin', path: '/correspondence/settings/codifications' },
  { user: 'clerk', path: '/correspondence/inbox/incoming' },
  { user: 'clerk', path: '/correspondence/inbox/incoming', openFirst: true },
  { user: 'clerk', path: '/correspondence/inbox/follow-ups' },
  { user: 'clerk', path: '/correspondence/outbox/outgoing', openFirst: true },
  { user: 'clerk', path: '/user/calendar' },
  { user: 'clerk', path: '/user/settings' },
  { user: 'manager', path: '/correspondence/inbox/incoming-tasks', openFirst: true },
  { user: 'manager', path: '/correspondence/outbox/requiring-approval', openFirst: true },
  { user: 'employee1', path: '/correspondence/outbox/awaiting-approval', openFirst: true },
];

async function openFirstRow(page: Page) {
  await page.locator('.data-table tbody tr.ant-table-row').first().click();
  await expect(page.getByTestId('document-detail')).toBeVisible();
  await expect(page.getByTestId('timeline')).toBeVisible();
  await settle(page);
}

for (const lang of ['ar', 'en'] as const) {
  test(`numbers, paths and names of the other script read in order on the main screens (${lang})`, async ({
    page,
    shell,
  }) => {
    test.setTimeout(600_000);
    const found: string[] = [];
    let user: DemoUser | null = null;
    for (const step of WALK) {
      if (step.user !== user) {
        await signInAs(page, shell, step.user, lang);
        user = step.user;
      }
      await openScreen(page, step.path);
      if (step.openFirst) await openFirstRow(page);
      const where = `${step.path}${step.openFirst ? ' (first document)' : ''}`;
      for (const problem of await bidiProblems(page)) found.push(`${where}: ${problem}`);
    }
    expect(found, found.join('\n')).toEqual([]);
  });
}
