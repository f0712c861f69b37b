/**
 * The screens of who read what and of the stored files' integrity (issue 31) against a fake API, in English
 * (LTR) and Arabic (RTL): the users screen offers "what they read" only to holders of the audit page, and
 * its drawer lists a user's reads paged on the server, each document by number and subject linking to it
 * (a bare id when hidden from the viewer); the audit page's integrity tab says every stored file matched at
 * the last check (and when), or that no check has finished, or lists the findings with the documents
 * holding each file; its tab counts the open ones; a notification of a finding opens that tab.
 */
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { IntegrityFailure, IntegrityPage, ReadEntry } from '../../src-shared/api/reads';
import type { Notification } from '../../src-shared/api/notifications';
import { PAGES } from '../../src-shared/pages';
import { sessionStore } from '../../src-renderer/app/session';
import { AuditPage } from '../../src-renderer/features/admin/AuditPage';
import { IntegrityPanel } from '../../src-renderer/features/admin/IntegrityPanel';
import { UsersPage } from '../../src-renderer/features/admin/UsersPage';
import { notificationPath, mayViewIn } from '../../src-renderer/features/user/notifications';
import { AUDIT_INTEGRITY_PATH } from '../../src-renderer/lib/admin-api';
import { formatDateTime } from '../../src-renderer/lib/format';
import { initI18n } from '../../src-renderer/lib/i18n';
import { fakeHttp, pageOf, renderScreen, ROLES, USERS, type Routes } from './admin-harness';

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

/** A page tree granting `view` on these pages. */
function treeOf(paths: string[]) {
  const leaf = (path: string, id: number) => ({
    id,
    nameAr: path,
    nameEn: path,
    path,
    icon: 'FileOutlined',
    order: id,
    permissions: ['view' as const],
    children: [],
  });
  return [{ ...leaf('/all', 1), children: paths.map((p, i) => leaf(p, i + 2)) }];
}

const read = (id: number, over: Partial<ReadEntry>): ReadEntry => ({
  id,
  at: '2026-11-28T08:22:00.000Z',
  action: 'documents.opened',
  userId: 2,
  username: 'sara',
  documentId: 7,
  document: {
    id: 7,
    docNumber: 'IN-2026-000007',
    subject: 'Budget meeting',
    direction: 'in',
    state: 'registered',
  },
  attachmentId: null,
  fileName: null,
  watermarked: false,
  ip: '10.0.0.5',
  ...over,
});

const READS = [
  read(3, {
    action: 'documents.attachmentDownloaded',
    attachmentId: 4,
    fileName: 'letter.pdf',
    watermarked: true,
  }),
  read(2, { documentId: 9, document: null }),
  read(1, {}),
];

const finding = (id: number, over: Partial<IntegrityFailure>): IntegrityFailure => ({
  id,
  sha256: 'ab'.repeat(32),
  problem: 'changed',
  foundSha256: 'cd'.repeat(32),
  store: 'local',
  detectedAt: '2026-11-28T06:00:00.000Z',
  resolvedAt: null,
  documentIds: [7, 9],
  documents: [
    { id: 7, docNumber: 'IN-2026-000007', subject: 'Budget meeting', direction: 'in', state: 'registered' },
  ],
  ...over,
});

let integrity: IntegrityPage;
let fake: ReturnType<typeof fakeHttp>;
function serve(routes: Routes = {}) {
  fake = fakeHttp({
    'GET /auth/users': () => pageOf(USERS),
    'GET /auth/roles': () => pageOf(ROLES),
    'GET /auth/users/2/reads': () => ({ items: READS, total: 3, page: 1, pageSize: 20 }),
    'GET /auth/integrity': () => integrity,
    'GET /auth/audit': () => pageOf([]),
    ...routes,
  });
  holder.fake = fake as never;
}

const inRouter = (node: ReactNode, at = '/') => <MemoryRouter initialEntries={[at]}>{node}</MemoryRouter>;

beforeEach(() => {
  sessionStore.reset({ signedIn: true, sections: treeOf([PAGES.users, PAGES.audit, PAGES.incoming]) });
  integrity = {
    items: [],
    total: 0,
    page: 1,
    pageSize: 20,
    open: 0,
    lastPassAt: '2026-11-28T05:00:00.000Z',
    nextRunAt: '2026-11-29T05:00:00.000Z',
  };
  serve();
});
afterEach(cleanup);

describe.each([
  {
    lng: 'en' as const,
    readsOf: 'What they read',
    downloaded: 'Downloaded',
    allMatched: 'All stored files matched at the last check',
    notYet: 'No check of the stored files has finished yet',
    openTwo: '2 stored files no longer match what was stored',
    changed: 'Changed',
    hidden: 'and 1 document you may not see',
  },
  {
    lng: 'ar' as const,
    readsOf: 'ما اطّلع عليه',
    downloaded: 'تنزيل',
    allMatched: 'طابقت جميع الملفات المخزّنة بصماتها في آخر فحص',
    notYet: 'لم يكتمل أي فحص للملفات المخزّنة بعد',
    openTwo: 'ملفان مخزّنان لم يعودا يطابقان ما حُفظ',
    changed: 'متغيّر',
    hidden: 'ومعاملة واحدة لا تملك صلاحية الاطلاع عليها',
  },
])('in $lng', ({ lng, readsOf, downloaded, allMatched, notYet, openTwo, changed, hidden }) => {
  beforeEach(async () => {
    await initI18n(lng);
  });

  it('lists what a user read from the users screen, each document linking to it', async () => {
    renderScreen(inRouter(<UsersPage permissions={['view']} />));
    await screen.findByText('sara');
    fireEvent.click(screen.getByTestId('user-more-sara'));
    const item = await screen.findByTestId('user-reads-sara');
    expect(item.textContent).toBe(readsOf);
    fireEvent.click(item);
    const drawer = await screen.findByTestId('user-reads');
    await waitFor(() => expect(within(drawer).getAllByRole('row').length).toBeGreaterThan(3));
    // Paged on the server: the page and its size, nothing the endpoint does not take.
    expect(fake.calls.find((c) => c.path === '/auth/users/2/reads')!.query).toEqual({
      page: 1,
      pageSize: 20,
    });
    const rows = within(drawer).getAllByRole('row').slice(1);
    const [download, hiddenRead, opened] = rows.map((r) => r as HTMLElement);
    const link = within(download!).getByTestId('read-document');
    expect(link.getAttribute('href')).toBe(`${PAGES.incoming}/7`);
    expect(link.textContent).toContain('IN-2026-000007');
    expect(link.textContent).toContain('Budget meeting');
    expect(download!.textContent).toContain(downloaded);
    expect(download!.textContent).toContain('letter.pdf');
    expect(download!.textContent).toContain('10.0.0.5');
    expect(download!.textContent).toContain(formatDateTime('2026-11-28T08:22:00.000Z'));
    // A document hidden from the viewer stays its bare id, not a link.
    expect(within(hiddenRead!).getByTestId('read-document-hidden').textContent).toContain('#9');
    expect(within(hiddenRead!).queryByRole('link')).toBeNull();
    expect(opened!.textContent).toContain('IN-2026-000007');
    for (const row of rows) expect(row.textContent).not.toMatch(/reads\.|actions\./);
  });

  it('says every stored file matched at the last check, and when', async () => {
    renderScreen(inRouter(<IntegrityPanel />));
    expect((await screen.findByTestId('integrity-empty')).textContent).toBe(allMatched);
    expect(screen.getByTestId('integrity-last-pass').textContent).toBe(
      formatDateTime('2026-11-28T05:00:00.000Z'),
    );
    expect(screen.queryByTestId('integrity-table')).toBeNull();
    expect(fake.calls.find((c) => c.path === '/auth/integrity')!.query).toEqual({ page: 1, pageSize: 20 });
  });

  it('says so when no check has finished yet', async () => {
    integrity = { ...integrity, lastPassAt: null };
    renderScreen(inRouter(<IntegrityPanel />));
    expect((await screen.findByTestId('integrity-empty')).textContent).toBe(notYet);
    expect(screen.queryByTestId('integrity-last-pass')).toBeNull();
  });

  it('lists the findings, the documents holding each file and how many are open', async () => {
    integrity = {
      ...integrity,
      items: [
        finding(2, {}),
        finding(1, { problem: 'missing', sha256: 'ef'.repeat(32), resolvedAt: '2026-11-28T05:30:00.000Z' }),
      ],
      total: 2,
      open: 2,
    };
    renderScreen(inRouter(<IntegrityPanel />));
    expect((await screen.findByTestId('integrity-open')).textContent).toContain(openTwo);
    const table = screen.getByTestId('integrity-table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('integrity-problem').textContent).toBe(changed);
    expect(rows[0]!.textContent).toContain('abababababab');
    const doc = within(rows[0]!).getAllByTestId('integrity-document')[0]!;
    expect(doc.getAttribute('href')).toBe(`${PAGES.incoming}/7`);
    expect(doc.textContent).toContain('IN-2026-000007');
    expect(rows[0]!.textContent).toContain(hidden);
    expect(rows[0]!.textContent + rows[1]!.textContent).not.toMatch(/integrity\./);
  });

  it('the audit page opens its integrity tab from the address, the tab counting the open findings', async () => {
    integrity = { ...integrity, items: [finding(1, {})], total: 1, open: 1 };
    renderScreen(inRouter(<AuditPage />, AUDIT_INTEGRITY_PATH));
    expect(await screen.findByTestId('integrity-open')).toBeTruthy();
    expect(screen.getByTestId('audit-tab-integrity').textContent).toContain('1');
    expect(screen.queryByTestId('audit-table')).toBeNull();
  });
});

describe('without the audit page', () => {
  it('the users screen offers no list of reads', async () => {
    await initI18n('en');
    sessionStore.reset({ signedIn: true, sections: treeOf([PAGES.users]) });
    renderScreen(inRouter(<UsersPage permissions={['view', 'edit']} />));
    await screen.findByText('sara');
    expect(screen.getByTestId('user-edit-sara')).toBeTruthy();
    fireEvent.click(screen.getByTestId('user-more-sara'));
    await screen.findByText('Change password');
    expect(screen.queryByTestId('user-reads-sara')).toBeNull();
  });
});

describe('a notification of a finding', () => {
  const notice = {
    id: 1,
    kind: 'integrityFailed',
    document: { id: 7, direction: 'in', state: 'registered', docNumber: 'IN-2026-000007', subject: 'x' },
    details: { sha256: 'ab'.repeat(32), problem: 'changed', store: 'local' },
  } as unknown as Notification;

  it("opens the audit page's integrity tab for a holder of the audit page, else the document", () => {
    expect(notificationPath(notice, mayViewIn(treeOf([PAGES.audit, PAGES.incoming])))).toBe(
      AUDIT_INTEGRITY_PATH,
    );
    expect(notificationPath(notice, mayViewIn(treeOf([PAGES.incoming])))).toBe(`${PAGES.incoming}/7`);
  });
});
