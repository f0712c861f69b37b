/**
 * The notifications page against a fake API: the list a page at a time (older ones asked with `before`),
 * unread only on demand, and the settings: a kind's channel switched off and the digest's hour are saved
 * as the contract says; in the browser the page says the desktop's notices are the desktop's.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type * as HttpModuleValue from '../../src-renderer/lib/http';
import { initI18n } from '../../src-renderer/lib/i18n';
import { Component as NotificationsPage } from '../../src-renderer/features/user/NotificationsPage';
import type { Notification, NotificationSettings } from '../../src-shared/api/notifications';
import { fakeHttp, renderScreen } from './admin-harness';
import { sessionStore } from '../../src-renderer/app/session';

type HttpModule = typeof HttpModuleValue;
const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
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
    appInfo: async () => ({ ok: true, data: { host: 'web' } }),
    on: () => () => undefined,
  }),
}));

function notification(id: number): Notification {
  return {
    id,
    kind: 'taskAssigned',
    document: {
      id: 500 + id,
      direction: 'in',
      state: 'registered',
      docNumber: `IN-${id}`,
      subject: `Subject ${id}`,
    },
    details: { dueOn: '2026-12-01', actor: { nameAr: 'سارة', nameEn: 'Sara' } },
    onBehalfOf: null,
    createdAt: '2026-11-27T08:00:00.000Z',
    readAt: id % 2 ? null : '2026-11-27T09:00:00.000Z',
  };
}

const ALL = Array.from({ length: 45 }, (_, i) => notification(45 - i));
let fake: ReturnType<typeof fakeHttp>;
let saved: NotificationSettings | null;

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(() => {
  sessionStore.reset({ signedIn: true, sections: null });
  saved = null;
  fake = fakeHttp({
    'GET /notifications': (_body, query) => {
      const q = (query ?? {}) as { before?: number; limit?: number; unread?: string };
      const pool = ALL.filter((n) => (q.before ? n.id < q.before : true)).filter((n) =>
        q.unread === 'true' ? n.readAt === null : true,
      );
      const limit = q.limit ?? 20;
      return { items: pool.slice(0, limit), unread: 23, more: pool.length > limit };
    },
    'GET /notifications/settings': () => ({ kinds: {}, digest: false, digestHour: 7 }),
    'PUT /notifications/settings': (body) => {
      saved = body as NotificationSettings;
      return body;
    },
  });
  holder.fake = fake as never;
});

function open() {
  renderScreen(
    <MemoryRouter>
      <NotificationsPage />
    </MemoryRouter>,
  );
}

describe('the notifications page', () => {
  it('lists a page at a time and filters unread', async () => {
    open();
    const list = await screen.findByTestId('notifications-page-list');
    expect(within(list).getAllByRole('button')).toHaveLength(30);
    expect(within(list).getByTestId('notification-45').textContent).toContain('Task assigned to you');
    expect(within(list).getByTestId('notification-45').textContent).toContain('By Sara');
    fireEvent.click(screen.getByTestId('notifications-more'));
    await waitFor(() => expect(within(list).getAllByRole('button')).toHaveLength(45));
    expect(fake.calls).toContainEqual(
      expect.objectContaining({ path: '/notifications', query: { limit: 30, before: 16 } }),
    );
    expect(screen.queryByTestId('notifications-more')).toBeNull();

    fireEvent.click(screen.getByTestId('notifications-unread-only'));
    await waitFor(() =>
      expect(fake.calls).toContainEqual(
        expect.objectContaining({ path: '/notifications', query: { limit: 30, unread: 'true' } }),
      ),
    );
    await waitFor(() =>
      expect(
        within(screen.getByTestId('notifications-page-list'))
          .getAllByRole('button')
          .every((b) => b.getAttribute('data-unread') === 'true'),
      ).toBe(true),
    );
  });

  it('saves a kind switched off on the desktop and the digest', async () => {
    open();
    const settings = await screen.findByTestId('notification-settings');
    expect(settings.textContent).toContain('in the browser, notifications appear in the bell only');
    fireEvent.click(within(settings).getByTestId('notify-overdue-desktop'));
    fireEvent.click(within(settings).getByTestId('notify-digest'));
    fireEvent.click(within(settings).getByTestId('notify-save'));
    await waitFor(() => expect(saved).not.toBeNull());
    expect(saved).toEqual({
      kinds: { overdue: { app: true, desktop: false, email: true } },
      digest: true,
      digestHour: 7,
    });
  });
});
