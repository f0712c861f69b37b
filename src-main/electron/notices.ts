/**
 * The desktop's system notices (issue 28): a notification pushed by the server is also shown by the
 * operating system (Electron's Notification) when the user wants that kind on the desktop (their
 * settings, `kinds[kind].desktop`), in the language they chose; clicking one brings the window forward
 * and asks the screens to open its document (`notifications:open`). The web shell shows none: a browser
 * tab has the bell only.
 *
 * A long absence replays many notifications at once: only recent ones become notices (the bell lists them
 * all), and a burst becomes one notice that says how many.
 */
import { Notification as SystemNotice, type BrowserWindow } from 'electron';
import arTexts from '../../locales/ar/notifications.json';
import enTexts from '../../locales/en/notifications.json';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  channelsOf,
  readNotificationSettings,
  type Notification,
  type NotificationSettings,
} from '../../src-shared/api/notifications';
import { pickLocale, type Locale } from '../../src-shared/locale';
import { notificationWords } from '../../src-shared/notifications-words';
import type { ApiClient } from '../services/api-client';
import type { NotificationStream } from '../services/notification-stream';
import type { PushEvent } from '../setup';

/** Older than this when it arrives (a replay after a long absence), a notification goes to the bell only. */
const RECENT_MS = 15 * 60_000;
/** Settings asked again at most this often (the user may change them on the notifications page). */
const SETTINGS_TTL_MS = 60_000;
/** More notices than this within `BURST_MS` become one notice saying how many. */
const BURST_MAX = 3;
const BURST_MS = 5000;

type Catalogue = { [key: string]: string | Catalogue };
const TEXTS: Record<Locale, Catalogue> = { ar: arTexts as Catalogue, en: enTexts as Catalogue };

/** `notifications.json` of a language by key, `{{name}}` filled (main has no i18next). */
export function noticeText(
  locale: Locale,
  key: string,
  values: Record<string, string | number> = {},
): string {
  let node: string | Catalogue | undefined = TEXTS[locale];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') return key;
  return node.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(values[name] ?? ''));
}

export interface DesktopNoticesOptions {
  stream: NotificationStream;
  api: ApiClient;
  /** The main window, when there is one. */
  window: () => BrowserWindow | null;
  push: PushEvent;
  /** The interface language the user chose. */
  locale: () => string;
  log?: (message: string) => void;
}

/** Shows system notices for the stream's notifications; returns the function that stops them. */
export function startDesktopNotices(options: DesktopNoticesOptions): () => void {
  // Electron drops a notice whose object was collected: keep each until it is clicked or closed.
  const shown = new Set<SystemNotice>();
  let settings: { value: NotificationSettings; at: number } | null = null;
  let recent: number[] = [];
  let burst: SystemNotice | null = null;

  const currentSettings = async (): Promise<NotificationSettings> => {
    if (settings && Date.now() - settings.at < SETTINGS_TTL_MS) return settings.value;
    try {
      const answer = await options.api.request({ method: 'GET', path: '/notifications/settings' });
      if (answer.status >= 200 && answer.status < 300) {
        const body = answer.body as { data?: unknown } | null;
        const value = readNotificationSettings(
          body && typeof body === 'object' && 'data' in body ? body.data : body,
        );
        settings = { value, at: Date.now() };
        return value;
      }
    } catch {
      // unreachable: the defaults below (or the last known settings)
    }
    return settings?.value ?? DEFAULT_NOTIFICATION_SETTINGS;
  };

  const focusWindow = () => {
    const window = options.window();
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };

  const show = (title: string, body: string, onClick: () => void) => {
    const notice = new SystemNotice({ title, body });
    shown.add(notice);
    notice.on('click', () => {
      shown.delete(notice);
      focusWindow();
      onClick();
    });
    notice.on('close', () => shown.delete(notice));
    notice.show();
    return notice;
  };

  const present = async (notification: Notification) => {
    if (notification.readAt) return;
    const made = Date.parse(notification.createdAt);
    if (Number.isFinite(made) && Date.now() - made > RECENT_MS) return;
    const wanted = await currentSettings();
    if (!channelsOf(wanted, notification.kind).desktop) return;
    const locale = pickLocale(options.locale());
    const now = Date.now();
    recent = recent.filter((at) => now - at < BURST_MS);
    recent.push(now);
    if (recent.length > BURST_MAX) {
      // One notice for the burst, replaced as it grows; clicking it brings the window (and its bell)
      // forward, as every notice's click does, and opens no one document.
      burst?.close();
      burst = show(
        noticeText(locale, 'bell.title'),
        noticeText(locale, 'bell.labelUnread', { count: recent.length }),
        () => undefined,
      );
      return;
    }
    const words = notificationWords(notification, locale, (key, values) => noticeText(locale, key, values));
    show(words.title, [words.document, ...words.lines].join('\n'), () =>
      options.push('notifications:open', notification),
    );
  };

  if (!SystemNotice.isSupported()) {
    options.log?.('desktop notices: not supported on this system; the bell still lists notifications');
    return () => undefined;
  }
  const stop = options.stream.onNotification((notification) => {
    present(notification).catch((error: unknown) =>
      options.log?.(`desktop notice failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  return () => {
    stop();
    for (const notice of shown) notice.close();
    shown.clear();
  };
}
