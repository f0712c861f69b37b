/**
 * The header's bell against a fake API and a fake bridge: it shows the unread count (as a number and in
 * its label), fills as main pushes a notification (no reload), lists the latest with their words, and a
 * click marks one read and opens its document; "Mark all read" marks all. In both languages.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within, act } from '@testing-library/react';
import { MemoryRouter, Route, Routes as RouterRoutes, useLocation } from 'react-router-dom';
import type * as HttpModuleValue from '../../src-renderer/lib/http';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import { NotificationBell } from '../../src-renderer/features/user/NotificationBell';
import type { Notification, NotificationList } from '../../src-shared/api/notifications';
import { fakeHttp, renderScreen } from './admin-harness';
import { sessionStore } from '../../src-renderer/app/session';
import { notificationPath, mayViewIn } from '../../src-renderer/features/user/notifications';
import { PAGES } from '../../src-shared/pages';

type HttpModule = typeof HttpModuleValue;
type Listener = (payload: unknown) => void;
const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
  listeners: new Map<string, Set<(payload: unknown) => void>>(),
}));
vi.mock('../../src-renderer/lib/http', async (original) => ({
  ...(await original<HttpModule>()),
  http: {
    get: (...a: unknown[]) => holder.fake.http.get!(...a),
    post: (...a: unknown[]) => holder.fake.http.post!(...a),
    put: (...a: unknown[]) => holder.fake.http.put!(...a),
    patch: (...a: unknown[]) => holder.fake.http.patch!(...a),
    delete: (...a: unknown[]) => holder.fake.http.delete!(...a),
  },
}));
vi.mock('../../src-renderer/lib/bridge', () => ({
  getBridge: () => ({
    on: (event: string, listener: Listener) => {
      const set = holder.listeners.get(event) ?? new Set<Listener>();
      set.add(listener);
      holder.listeners.set(event, set);
      return () => set.delete(listener);
    },
  }),
}));

/** Main pushes an event to the screens. */
function push(event: string, payload: unknown) {
  act(() => {
    for (const listener of holder.listeners.get(event) ?? []) listener(payload);
  });
}

function notification(id: number, extra: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'distributed',
    document: {
      id: 100 + id,
      direction: 'in',
      state: 'registered',
      docNumber: `IN-${id}`,
      subject: `Budget letter ${id}`,
    },
    details: { department: { nameAr: 'الشؤون المالية', nameEn: 'Finance' } },
    onBehalfOf: null,
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    readAt: null,
    ...extra,
  };
}

let fake: ReturnType<typeof fakeHttp>;
let list: NotificationList;

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

async function renderBell(lang: 'ar' | 'en') {
  await initI18n(lang);
  await i18n.changeLanguage(lang);
  renderScreen(
    <MemoryRouter initialEntries={['/home']}>
      <NotificationBell signedIn />
      <RouterRoutes>
        <Route path="*" element={<Where />} />
      </RouterRoutes>
    </MemoryRouter>,
  );
}

/** A page tree granting `view` on these pages (one section holding them all). */
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

beforeEach(() => {
  holder.listeners.clear();
  sessionStore.reset({
    signedIn: true,
    sections: treeOf([PAGES.incoming, PAGES.outboxRequiringApproval, PAGES.search]),
  });
  list = {
    items: [
      notification(2),
      notification(1, {
        kind: 'overdue',
        details: { dueOn: '2026-11-20', subject: 'reply', days: 3 },
        readAt: '2026-11-27T09:00:00.000Z',
      }),
    ],
    unread: 1,
    more: false,
  };
  fake = fakeHttp({
    'GET /notifications': () => list,
    'POST /notifications/read': (body) => {
      const ids = 'ids' in (body as object) ? (body as { ids: number[] }).ids : null;
      list = {
        ...list,
        items: list.items.map((n) => (ids === null || ids.includes(n.id) ? { ...n, readAt: 'now' } : n)),
      };
      return { unread: list.items.filter((n) => n.readAt === null).length };
    },
  });
  holder.fake = fake as never;
});

const bell = () => screen.getByTestId('notification-bell');

describe('the notification bell', () => {
  it('counts unread, fills from a push, and opens a document read (English)', async () => {
    await renderBell('en');
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications: 1 unread'));
    expect(within(bell()).getByTestId('notification-count').textContent).toContain('1');

    // A new one pushed by main: the count rises without asking the server again.
    const asked = fake.calls.length;
    list = { ...list, items: [notification(3), ...list.items], unread: 2 };
    push('notifications:new', notification(3));
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications: 2 unread'));
    expect(fake.calls.length).toBe(asked);
    // The same one replayed after a reconnection is not counted twice.
    push('notifications:new', notification(3));
    push('notifications:unread', { unread: 2 });
    expect(bell().getAttribute('aria-label')).toBe('Notifications: 2 unread');

    fireEvent.click(bell());
    const panel = await screen.findByTestId('notification-panel');
    const rows = within(panel).getAllByRole('button', { name: /Letter distributed to you|Overdue/ });
    expect(rows).toHaveLength(3);
    expect(within(panel).getByTestId('notification-3').getAttribute('data-unread')).toBe('true');
    expect(within(panel).getByTestId('notification-3').textContent).toContain('IN-3 — Budget letter 3');
    expect(within(panel).getByTestId('notification-3').textContent).toContain('Department: Finance');
    expect(within(panel).getByTestId('notification-1').textContent).toContain('Reply due on');
    expect(within(panel).getByTestId('notification-1').textContent).toContain('Late by 3 working days');
    expect(within(panel).getByTestId('notification-1').getAttribute('data-unread')).toBe('false');

    fireEvent.click(within(panel).getByTestId('notification-2'));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toContain('/correspondence/inbox/incoming/102'),
    );
    expect(fake.calls).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/notifications/read', body: { ids: [2] } }),
    );
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications: 1 unread'));
  });

  it('marks all read, and speaks Arabic (Arabic)', async () => {
    await renderBell('ar');
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('الإشعارات: 1 غير مقروءة'));
    fireEvent.click(bell());
    const panel = await screen.findByTestId('notification-panel');
    expect(within(panel).getByTestId('notification-2').textContent).toContain('وُزِّع عليك خطاب');
    expect(within(panel).getByTestId('notification-2').textContent).toContain('الإدارة: الشؤون المالية');
    fireEvent.click(within(panel).getByTestId('notifications-mark-all'));
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('الإشعارات'));
    expect(fake.calls).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/notifications/read', body: { all: true } }),
    );
    expect(within(panel).getByTestId('notification-2').getAttribute('data-unread')).toBe('false');
  });

  it('opens what a desktop notice was clicked for', async () => {
    await renderBell('en');
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications: 1 unread'));
    push(
      'notifications:open',
      notification(2, {
        kind: 'approvalTurn',
        document: { id: 9, direction: 'out', state: 'draft', docNumber: null, subject: 'Draft' },
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toContain(
        '/correspondence/outbox/requiring-approval/9',
      ),
    );
  });
});

describe('where a notification opens', () => {
  it('the screen its kind and state point to, else another the user may open, else none', () => {
    const approved = notification(7, {
      kind: 'approved',
      document: { id: 7, direction: 'out', state: 'approved', docNumber: 'OUT-7', subject: 'x' },
    });
    // An author without the outgoing list: their awaiting-approval screen opens it, or search.
    const author = mayViewIn(treeOf([PAGES.outboxAwaitingApproval, PAGES.search]));
    expect(notificationPath(approved, author)).toBe(`${PAGES.outboxAwaitingApproval}/7`);
    expect(notificationPath(approved, mayViewIn(treeOf([PAGES.search])))).toBe(`${PAGES.search}/7`);
    const clerk = mayViewIn(treeOf([PAGES.outgoing, PAGES.search]));
    expect(notificationPath(approved, clerk)).toBe(`${PAGES.outgoing}/7`);
    const turn = notification(8, {
      kind: 'approvalTurn',
      document: { id: 8, direction: 'out', state: 'approving', docNumber: null, subject: 'x' },
    });
    expect(notificationPath(turn, mayViewIn(treeOf([PAGES.outboxRequiringApproval])))).toBe(
      `${PAGES.outboxRequiringApproval}/8`,
    );
    expect(notificationPath(turn, mayViewIn(treeOf([])))).toBeNull();
  });
});
