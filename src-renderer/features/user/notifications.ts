/**
 * The renderer's side of notifications (issue 28): the calls (src-shared/api/notifications.ts), their
 * react-query keys, the words and the page a notification opens, and `useNotificationFeed`, which keeps
 * the cache current from main's pushes (`notifications:new`, `notifications:unread`) without a reload and
 * opens what a desktop notice was clicked for (`notifications:open`).
 */
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  notificationEndpoints,
  type MarkRead,
  type Notification,
  type NotificationList,
  type NotificationSettings,
} from '../../../src-shared/api/notifications';
import { DIRECTIONS, type Direction } from '../../../src-shared/api/correspondence';
import { DIRECTION_PAGES, PAGES } from '../../../src-shared/pages';
import type { Locale } from '../../../src-shared/locale';
import { notificationWords, type NotificationWords } from '../../../src-shared/notifications-words';
import { useSession } from '../../app/session';
import { getBridge } from '../../lib/bridge';
import { call } from '../../lib/call';
import { AUDIT_INTEGRITY_PATH } from '../../lib/admin-api';
import { documentScreenPath, mayViewIn } from '../../lib/document-links';
import { formatDate, localizeDigits } from '../../lib/format';
import { i18n } from '../../lib/i18n';

/** How many the bell lists. */
export const BELL_SIZE = 20;
/** A page of the notifications page. */
export const PAGE_SIZE = 30;

export const notificationKeys = {
  all: ['notifications'] as const,
  /** The bell's latest ones (and the unread count). */
  latest: ['notifications', 'latest'] as const,
  /** The notifications page's pages, by filter. */
  pages: (unreadOnly: boolean) => ['notifications', 'pages', unreadOnly] as const,
  settings: ['notifications-settings'] as const,
};

export const notificationsApi = {
  list: (query: { before?: number; limit?: number; unread?: boolean }) =>
    call(notificationEndpoints.list, {
      query: {
        ...(query.before !== undefined ? { before: query.before } : {}),
        ...(query.limit !== undefined ? { limit: query.limit } : {}),
        ...(query.unread ? { unread: 'true' } : {}),
      },
    }),
  latest: () => notificationsApi.list({ limit: BELL_SIZE }),
  // Reading is not an act to confirm: no "saved" toast (the count and the bold say it).
  read: (body: MarkRead) => call(notificationEndpoints.read, { body }, { suppressSuccessToast: true }),
  settings: () => call(notificationEndpoints.settings),
  saveSettings: (body: NotificationSettings) => call(notificationEndpoints.saveSettings, { body }),
};

/**
 * Where a notification opens: the screen its kind and the document's state point to (the approver's
 * list for their turn, the tasks for a task, the author's list while in a circuit, the filed list once
 * registered or approved), else the first other screen of the document the user may open — their role
 * may lack the first, and search opens any document they may see (lib/document-links.ts). A stored file
 * found changed or missing opens the audit page's integrity tab. `mayView` answers whether the user's
 * page tree grants `view` on a page.
 */
export function notificationPath(
  notification: Notification,
  mayView: (page: string) => boolean,
): string | null {
  if (notification.kind === 'integrityFailed' && mayView(PAGES.audit)) return AUDIT_INTEGRITY_PATH;
  const doc = notification.document;
  if (!doc)
    return notification.kind === 'delegated' && mayView(PAGES.myDelegation) ? PAGES.myDelegation : null;
  if (!(DIRECTIONS as readonly string[]).includes(doc.direction)) return null;
  const pages = DIRECTION_PAGES[doc.direction as Direction];
  const about = notification.details.subject;
  const first: (string | null)[] = [];
  if (notification.kind === 'approvalTurn' || about === 'approval') first.push(pages.requiringApproval);
  if (notification.kind === 'taskAssigned' || about === 'task') first.push(PAGES.incomingTasks);
  return documentScreenPath(doc, mayView, first);
}

export { mayViewIn };

/** The words of a notification in the interface language (dates as the user reads them). */
export function wordsOf(notification: Notification, locale: Locale): NotificationWords {
  const t = i18n.getFixedT(locale, 'notifications');
  return notificationWords(
    notification,
    locale,
    (key, values) => localizeDigits(t(key, values ?? {}), locale),
    (day) => formatDate(day, locale),
  );
}

/** "5 minutes ago", "yesterday"… in the interface language and its digits. */
export function relativeTime(iso: string, locale: Locale, now = Date.now()): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return '';
  const seconds = Math.round((then - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 7],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return localizeDigits(format.format(value, unit), locale);
    value = Math.round(value / size);
  }
  return formatDate(iso, locale);
}

/** Puts a pushed notification into the bell's list (once, newest first) and counts it unread. */
export function addToLatest(client: QueryClient, notification: Notification): void {
  client.setQueryData<NotificationList>(notificationKeys.latest, (list) => {
    if (!list || list.items.some((n) => n.id === notification.id)) return list;
    const items = [notification, ...list.items].sort((a, b) => b.id - a.id);
    return {
      items: items.slice(0, BELL_SIZE),
      unread: list.unread + (notification.readAt ? 0 : 1),
      more: list.more || items.length > BELL_SIZE,
    };
  });
}

/** The unread count as the server says it now. */
export function setUnread(client: QueryClient, unread: number): void {
  client.setQueryData<NotificationList>(notificationKeys.latest, (list) =>
    list ? { ...list, unread } : list,
  );
}

/** Some (or all) read: marked so in every list held, and the count the server answered. */
export async function markRead(client: QueryClient, body: MarkRead): Promise<void> {
  const { unread } = await notificationsApi.read(body);
  const now = new Date().toISOString();
  const read = (n: Notification) =>
    n.readAt === null && ('all' in body || body.ids.includes(n.id)) ? { ...n, readAt: now } : n;
  client.setQueryData<NotificationList>(notificationKeys.latest, (list) =>
    list ? { ...list, items: list.items.map(read), unread } : list,
  );
  void client.invalidateQueries({ queryKey: ['notifications', 'pages'] });
}

/**
 * Follows main's pushes while signed in: a new notification joins the bell (and the page's lists are
 * asked again), the unread count follows the server, and a clicked desktop notice opens its document.
 */
export function useNotificationFeed(enabled: boolean): void {
  const client = useQueryClient();
  const navigate = useNavigate();
  // The tree as it is when a notice is clicked (the effect is not made again when it changes).
  const sections = useSession().sections;
  const sectionsRef = useRef(sections);
  sectionsRef.current = sections;
  useEffect(() => {
    if (!enabled) return;
    const bridge = getBridge();
    const stops = [
      bridge.on('notifications:new', (notification) => {
        addToLatest(client, notification);
        void client.invalidateQueries({ queryKey: ['notifications', 'pages'] });
      }),
      bridge.on('notifications:unread', ({ unread }) => {
        // More unread than the list knows of: some came while no push reached this desk (a fresh
        // connection starts from now), so the list is asked again; otherwise the count is enough.
        const known = client.getQueryData<NotificationList>(notificationKeys.latest)?.unread;
        setUnread(client, unread);
        if (known !== undefined && unread > known)
          void client.invalidateQueries({ queryKey: notificationKeys.latest });
      }),
      bridge.on('notifications:open', (notification) => {
        if (!notification.readAt) void markRead(client, { ids: [notification.id] }).catch(() => undefined);
        navigate(notificationPath(notification, mayViewIn(sectionsRef.current)) ?? PAGES.notifications);
      }),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }, [enabled, client, navigate]);
}
