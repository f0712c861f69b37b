/**
 * The desktop's system notices (src-main/electron/notices.ts) over the stand-in for Electron's main-process
 * API that the bundle checks use (tests/electron/stub: its Notification records what is shown; there is no
 * Electron binary here): a pushed notification becomes a notice in the user's language when its kind is on
 * for the desktop, not when it is off, already read or old (a replay after a long absence); a burst becomes
 * one notice that says how many; clicking a notice brings the window forward and opens its document.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification, NotificationSettings } from '../../src-shared/api/notifications';

vi.mock('electron', async () => await import('../electron/stub/electron.mjs'));

const { startDesktopNotices, noticeText } = await import('../../src-main/electron/notices');
const electron = await import('../electron/stub/electron.mjs');

type Listener = (n: Notification) => void;

/** The stream's one method the notices use, fed by the test. */
class Stream {
  listeners = new Set<Listener>();
  onNotification(listener: Listener) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  emit(n: Notification) {
    for (const l of this.listeners) l(n);
  }
}

function notification(id: number, overrides: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: 'distributed',
    document: {
      id: 40 + id,
      direction: 'in',
      state: 'registered',
      docNumber: `IN-${id}`,
      subject: `Letter ${id}`,
    },
    details: { department: { nameAr: 'الأرشيف', nameEn: 'Archive' } },
    onBehalfOf: null,
    createdAt: new Date().toISOString(),
    readAt: null,
    ...overrides,
  };
}

/** Lets the notices read the settings and show what the stream gave them. */
const settle = () => new Promise((r) => setTimeout(r, 20));

let stream: Stream;
let settings: NotificationSettings;
let settingsAsked: number;
let pushed: Array<[string, unknown]>;
let focused: number;
let locale: string;
let stop: () => void;

beforeEach(() => {
  electron.recorded.notices.length = 0;
  stream = new Stream();
  settings = { kinds: {}, digest: false, digestHour: 7 };
  settingsAsked = 0;
  pushed = [];
  focused = 0;
  locale = 'ar';
  const window = {
    isDestroyed: () => false,
    isMinimized: () => false,
    restore: () => undefined,
    show: () => undefined,
    focus: () => (focused += 1),
  };
  stop = startDesktopNotices({
    stream: stream as never,
    api: {
      request: async ({ path }: { path: string }) => {
        expect(path).toBe('/notifications/settings');
        settingsAsked += 1;
        return { status: 200, body: { data: settings } };
      },
    } as never,
    window: () => window as never,
    push: ((event: string, payload: unknown) => pushed.push([event, payload])) as never,
    locale: () => locale,
  });
});
afterEach(() => stop());

describe('desktop notices', () => {
  it('shows a pushed notification in the user language, and clicking it opens its document', async () => {
    stream.emit(notification(1));
    await settle();
    expect(electron.recorded.notices).toHaveLength(1);
    const [notice] = electron.recorded.notices;
    expect(notice!.options.title).toBe(noticeText('ar', 'kinds.distributed.title'));
    expect(notice!.options.title).not.toBe('kinds.distributed.title');
    expect(notice!.options.body).toContain('IN-1');
    notice!.emit('click');
    expect(focused).toBe(1);
    expect(pushed).toEqual([['notifications:open', expect.objectContaining({ id: 1 })]]);

    locale = 'en';
    stream.emit(notification(2, { kind: 'taskAssigned' }));
    await settle();
    expect(electron.recorded.notices[1]!.options.title).toBe(noticeText('en', 'kinds.taskAssigned.title'));
    expect(electron.recorded.notices[1]!.options.title).not.toBe(electron.recorded.notices[0]!.options.title);
  });

  it('shows none for a kind off on the desktop, a read one, or an old one replayed', async () => {
    settings = { ...settings, kinds: { distributed: { app: true, desktop: false, email: true } } };
    stream.emit(notification(1));
    stream.emit(notification(2, { kind: 'approvalTurn', readAt: new Date().toISOString() }));
    stream.emit(
      notification(3, { kind: 'approvalTurn', createdAt: new Date(Date.now() - 3_600_000).toISOString() }),
    );
    await settle();
    expect(electron.recorded.notices).toHaveLength(0);
    stream.emit(notification(4, { kind: 'approvalTurn' }));
    await settle();
    expect(electron.recorded.notices).toHaveLength(1);
    // The settings are asked once a minute at most, not for every notification.
    expect(settingsAsked).toBe(1);
  });

  it('turns a burst into one notice that says how many', async () => {
    for (let id = 1; id <= 6; id += 1) {
      stream.emit(notification(id));
      await settle();
    }
    const titles = electron.recorded.notices.map((n) => n.options.title);
    const single = noticeText('ar', 'kinds.distributed.title');
    expect(titles.slice(0, 3)).toEqual([single, single, single]);
    // The fourth and later replace one notice counting them.
    expect(titles.slice(3)).toEqual(Array(3).fill(noticeText('ar', 'bell.title')));
    expect(electron.recorded.notices.at(-1)!.options.body).toBe(
      noticeText('ar', 'bell.labelUnread', { count: 6 }),
    );
    electron.recorded.notices.at(-1)!.emit('click');
    expect(focused).toBe(1);
    expect(pushed).toEqual([]);
  });

  it('stops showing once stopped', async () => {
    stop();
    stream.emit(notification(1));
    await settle();
    expect(electron.recorded.notices).toHaveLength(0);
    expect(stream.listeners.size).toBe(0);
  });
});
