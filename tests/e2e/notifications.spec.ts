/**
 * Notifications reach the screen without a reload (issue 28), on the demo organisation: the manager of
 * Financial Affairs is signed in in the browser; the archive clerk distributes a letter to that
 * department through the API (another desk); the manager's bell counts one more by itself (the server's
 * push, main's stream, the IPC event), the list names the letter, and a click opens it and lowers the
 * count. In Arabic and in English.
 */
import { expect, test } from './fixtures';
import { DEMO_PASSWORD } from './fixtures';
import { Api } from './support/api';
import { signInAs } from './support/demo';

test.describe.configure({ mode: 'serial' });
test.use({ demo: true });

interface BoxRow {
  documentId: number;
  state: string;
  subject: string;
  distributed: boolean;
}

/** The id of Financial Affairs (the demo manager's department), asked as the administrator. */
async function financeId(baseUrl: string): Promise<number> {
  const admin = new Api(baseUrl);
  await admin.signIn('admin', DEMO_PASSWORD);
  const page = await admin.ok<{ items: { id: number; nameEn: string }[] }>(
    'GET',
    `/ec/departments?pageSize=200&q=${encodeURIComponent('Financial Affairs')}`,
  );
  const found = page.items.find((d) => d.nameEn === 'General Directorate of Financial Affairs');
  if (!found) throw new Error('no Financial Affairs department in the demo');
  return found.id;
}

/** A registered incoming letter nobody distributed yet, as the clerk sees it. */
async function undistributed(clerk: Api): Promise<BoxRow> {
  const page = await clerk.ok<{ items: BoxRow[] }>('GET', '/correspondence/boxes/incoming?pageSize=200');
  const row = page.items.find((r) => r.state === 'registered' && !r.distributed);
  if (!row) throw new Error('no undistributed letter left in the demo');
  return row;
}

for (const lang of ['ar', 'en'] as const) {
  test(`a distribution rings the manager's bell without a reload and opens the letter (${lang})`, async ({
    page,
    shell,
  }) => {
    test.setTimeout(240_000);
    await signInAs(page, shell, 'manager', lang);
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toBeVisible();
    // What the bell says before: the demo's own distributions may have told the manager already.
    await expect(bell).toHaveAttribute('data-unread', /^\d+$/);
    const before = Number(await bell.getAttribute('data-unread'));

    const clerk = new Api(shell.apiBaseUrl);
    await clerk.signIn('clerk', DEMO_PASSWORD);
    const letter = await undistributed(clerk);
    await clerk.ok('POST', `/correspondence/documents/${letter.documentId}/distribution`, {
      items: [{ departmentId: await financeId(shell.apiBaseUrl), type: 'forAction' }],
    });

    // No reload: the count rises by itself, and its label says it in the interface language.
    await expect(bell).toHaveAttribute('data-unread', String(before + 1), { timeout: 30_000 });
    await expect(bell).toHaveAttribute(
      'aria-label',
      lang === 'ar' ? /^الإشعارات: .+ غير مقروءة$/ : /^Notifications: .+ unread$/,
    );

    await bell.click();
    const panel = page.getByTestId('notification-panel');
    await expect(panel).toBeVisible();
    const row = panel.locator('[data-unread="true"]', { hasText: letter.subject }).first();
    await expect(row).toBeVisible();
    await expect(row).toContainText(lang === 'ar' ? 'وُزِّع عليك خطاب' : 'Letter distributed to you');
    await row.click();

    // The letter opens, and the count drops once it is read.
    await expect
      .poll(() => new URL(page.url()).hash)
      .toBe(`#/correspondence/inbox/incoming/${letter.documentId}`);
    await expect(page.getByTestId('document-detail')).toBeVisible({ timeout: 30_000 });
    await expect(bell).toHaveAttribute('data-unread', String(before));
  });
}
