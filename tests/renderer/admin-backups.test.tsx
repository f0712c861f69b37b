/**
 * The Backups screen (/auth/backups, issue 29): the list with time, size, files, verification and what the
 * retention rule does with each, the rule in words, "Back up now", "Verify" and "Delete" (confirmed, never
 * on the newest) sent through the API client (POST /admin/backup, POST /admin/backups/:name/verify, DELETE
 * /admin/backups/:name), the actions hidden without their permission; in English (LTR) and Arabic (RTL).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BackupSummary } from '../../src-shared/api/backups';
import { BackupsPage } from '../../src-renderer/features/admin/BackupsPage';
import { initI18n } from '../../src-renderer/lib/i18n';
import { fakeHttp, renderScreen } from './admin-harness';

const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
}));
vi.mock('../../src-renderer/lib/http', () => ({
  http: {
    get: (...a: unknown[]) => holder.fake.http.get!(...a),
    post: (...a: unknown[]) => holder.fake.http.post!(...a),
    put: (...a: unknown[]) => holder.fake.http.put!(...a),
    patch: (...a: unknown[]) => holder.fake.http.patch!(...a),
    delete: (...a: unknown[]) => holder.fake.http.delete!(...a),
  },
}));

const OLD: BackupSummary = {
  name: '20261127-101500-000',
  state: 'complete',
  createdAt: '2026-11-27T10:15:00.000Z',
  appVersion: '0.1.0',
  database: 'pglite',
  migrations: 20,
  files: 12,
  size: 3 * 1024 * 1024,
  hasSecret: true,
  verification: null,
  retention: 'newest',
};
const NEW: BackupSummary = { ...OLD, name: '20261128-080000-000', createdAt: '2026-11-28T08:00:00.000Z' };

let backups: BackupSummary[];
let fake: ReturnType<typeof fakeHttp>;
beforeEach(() => {
  backups = [OLD];
  fake = fakeHttp({
    'GET /admin/backups': () => backups,
    'GET /admin/backups/retention': () => ({ keepLast: 3, keepMonthly: 12, timeZone: 'Asia/Riyadh' }),
    'POST /admin/backup': () => {
      backups = [NEW, ...backups.map((b) => ({ ...b, retention: 'last' as const }))];
      return NEW;
    },
    [`DELETE /admin/backups/${OLD.name}`]: () => {
      backups = backups.filter((b) => b.name !== OLD.name);
      return null;
    },
    [`POST /admin/backups/${OLD.name}/verify`]: () => {
      backups = backups.map((b) =>
        b.name === OLD.name
          ? { ...b, verification: { at: '2026-11-28T08:05:00.000Z', whole: true, problems: 0 } }
          : b,
      );
      return backups.find((b) => b.name === OLD.name);
    },
  });
  holder.fake = fake as never;
});
afterEach(cleanup);

describe.each([
  {
    lng: 'en' as const,
    dir: 'ltr',
    now: 'Back up now',
    verify: 'Verify',
    whole: 'Whole',
    notVerified: 'Not verified',
    rule: 'Kept: the 3 newest backups, and the newest backup of each of the 12 latest months',
    newest: 'Newest',
    confirm: 'Delete the backup of',
  },
  {
    lng: 'ar' as const,
    dir: 'rtl',
    now: 'انسخ احتياطيًا الآن',
    verify: 'تحقّق',
    whole: 'سليمة',
    notVerified: 'لم يُتحقق منها',
    rule: 'تُحفظ أحدث 3 نسخ، وأحدث نسخة من كل شهر من آخر 12 شهرًا',
    newest: 'الأحدث',
    confirm: 'حذف النسخة الاحتياطية المأخوذة في',
  },
])('BackupsPage in $lng', ({ lng, dir, now, verify, whole, notVerified, rule, newest, confirm }) => {
  beforeEach(async () => {
    await initI18n(lng);
  });

  it('lists the backups, backs up now and verifies one, through the API', async () => {
    renderScreen(<BackupsPage permissions={['view', 'add']} />);
    const table = await screen.findByTestId('backups-table');
    expect(document.documentElement.dir || document.dir).toBe(dir);
    await within(table).findByText(notVerified);
    // Size in the interface language's units and digits; the file count likewise.
    expect(table.textContent).toContain(lng === 'en' ? '3 MB' : '3 ميغابايت');

    fireEvent.click(screen.getByTestId('backup-now'));
    expect(screen.getByTestId('backup-now').textContent).not.toBe('');
    await waitFor(() =>
      expect(fake.calls.some((c) => c.method === 'POST' && c.path === '/admin/backup')).toBe(true),
    );
    await screen.findByTestId(`backup-verify-${NEW.name}`);
    expect(screen.getByText(now)).toBeTruthy();

    fireEvent.click(screen.getByTestId(`backup-verify-${OLD.name}`));
    await waitFor(() =>
      expect(within(screen.getByTestId(`backup-state-${OLD.name}`)).getByText(whole)).toBeTruthy(),
    );
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toContain(
      `POST /admin/backups/${OLD.name}/verify`,
    );
    expect(screen.getByTestId(`backup-verify-${OLD.name}`).textContent).toContain(verify);
  });

  it('says the retention rule and deletes a backup once confirmed, never the newest', async () => {
    renderScreen(<BackupsPage permissions={['view', 'add', 'delete']} />);
    expect((await screen.findByTestId('backup-retention-rule')).textContent).toContain(rule);
    // The only backup is the newest: it is never offered for deletion.
    expect(within(await screen.findByTestId(`backup-retention-${OLD.name}`)).getByText(newest)).toBeTruthy();
    expect(screen.queryByTestId(`backup-delete-${OLD.name}`)).toBeNull();

    fireEvent.click(screen.getByTestId('backup-now'));
    await screen.findByTestId(`backup-delete-${OLD.name}`);
    expect(screen.queryByTestId(`backup-delete-${NEW.name}`)).toBeNull();
    fireEvent.click(screen.getByTestId(`backup-delete-${OLD.name}`));
    // Nothing is sent before the dialog is confirmed.
    expect((await screen.findByRole('dialog')).textContent).toContain(confirm);
    expect(fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByTestId('backup-delete-confirm'));
    await waitFor(() => expect(screen.queryByTestId(`backup-verify-${OLD.name}`)).toBeNull());
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toContain(`DELETE /admin/backups/${OLD.name}`);
  });

  it('offers no "Back up now" without the add permission, and no "Delete" without delete', async () => {
    backups = [{ ...OLD, retention: 'expired' }];
    renderScreen(<BackupsPage permissions={['view']} />);
    await screen.findByTestId(`backup-verify-${OLD.name}`);
    expect(screen.queryByTestId('backup-now')).toBeNull();
    expect(screen.queryByTestId(`backup-delete-${OLD.name}`)).toBeNull();
  });
});
