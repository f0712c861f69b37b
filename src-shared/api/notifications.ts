/**
 * Notifications (issue 28): what a user is told as things happen, listed in the header's bell, pushed to
 * the desktop over server-sent events, and mailed as a daily digest when the user asks. Schemas and
 * endpoints, shared by the server and the client.
 *
 * The push: `GET /notifications/stream` (text/event-stream, the bearer token as on every route) sends
 * `event: notification` with a `notificationSchema` as data and the notification's id as the SSE `id`,
 * `event: unread` with `{ unread }` whenever the count changes (a read elsewhere too), and a comment line
 * every `STREAM_HEARTBEAT_MS`. A client that reconnects sends `Last-Event-ID`: what was made meanwhile
 * is sent first (at most `STREAM_REPLAY_MAX`; the list answers the rest).
 */
import { z } from 'zod';
import { namedRefSchema } from './directory';
import { endpoint, fileAnswer } from './endpoint';
import { decimalParam, int4 } from './fields';
import { NOTIFICATION_KINDS } from './notifications-kinds';

export { NOTIFICATION_KINDS, type NotificationKind } from './notifications-kinds';

/** The path of the push stream (declared here for the main process and the bench; the server serves it). */
export const NOTIFICATION_STREAM_PATH = '/notifications/stream';
/** How often the stream sends a comment line, so proxies and the client see it alive. */
export const STREAM_HEARTBEAT_MS = 25_000;
/** At most this many missed notifications are replayed to a client that reconnects. */
export const STREAM_REPLAY_MAX = 100;

/** The document a notification opens. */
export const notificationDocumentSchema = z.object({
  id: z.number().int(),
  direction: z.string(),
  /** Its state now (where it opens depends on it). */
  state: z.string(),
  docNumber: z.string().nullable(),
  subject: z.string(),
});

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** Null when the document is gone or the user may no longer see it. */
  document: notificationDocumentSchema.nullable(),
  /**
   * The values the words name, frozen when it was made: `dueOn` (YYYY-MM-DD), `subject` ('reply' |
   * 'task' | 'approval'), `actor` ({ nameAr, nameEn }), `department` ({ nameAr, nameEn }), `days`…
   */
  details: z.record(z.string(), z.unknown()),
  /** The delegator, when it reached the user as their delegate. */
  onBehalfOf: namedRefSchema.nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /notifications: the newest first, a page before `before` (an id). */
export const notificationListQuerySchema = z
  .object({
    before: decimalParam(1, Number.MAX_SAFE_INTEGER).optional(),
    limit: decimalParam(1, 100).optional(),
    unread: z.enum(['true', 'false']).optional(),
  })
  .strict();

export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  unread: z.number().int(),
  /** Whether older ones remain. */
  more: z.boolean(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/** POST /notifications/read: some (by id) or all of the caller's notifications read. */
export const markReadSchema = z.union([
  z.object({ ids: z.array(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)).min(1).max(500) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type MarkRead = z.infer<typeof markReadSchema>;

/** Where one kind reaches the user: the bell (and the push), the desktop's system notice, the digest. */
export const kindChannelsSchema = z
  .object({ app: z.boolean(), desktop: z.boolean(), email: z.boolean() })
  .strict();
export type KindChannels = z.infer<typeof kindChannelsSchema>;

/** A user's notification settings; kinds not named take their default (`DEFAULT_CHANNELS`). */
export const notificationSettingsSchema = z
  .object({
    kinds: z.partialRecord(z.enum(NOTIFICATION_KINDS), kindChannelsSchema),
    /** A daily e-mail with what the user has not read (the kinds whose `email` is on). */
    digest: z.boolean(),
    /** The digest's hour, in the organisation's time zone (0–23). */
    digestHour: int4(0, 23),
  })
  .strict();
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const DEFAULT_CHANNELS: KindChannels = { app: true, desktop: true, email: true };
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  kinds: {},
  digest: false,
  digestHour: 7,
};

/** A kind's channels under a user's settings. */
export function channelsOf(settings: NotificationSettings, kind: (typeof NOTIFICATION_KINDS)[number]) {
  return settings.kinds[kind] ?? DEFAULT_CHANNELS;
}

/** Settings stored before a kind or field existed read as their defaults. */
export function readNotificationSettings(stored: unknown): NotificationSettings {
  const parsed = notificationSettingsSchema.partial().safeParse(stored);
  return { ...DEFAULT_NOTIFICATION_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

export const unreadSchema = z.object({ unread: z.number().int() });

export const notificationEndpoints = {
  stream: endpoint({
    method: 'GET',
    path: NOTIFICATION_STREAM_PATH,
    response: fileAnswer,
    bytes: 'text/event-stream',
    access: 'authenticated',
    tags: ['notifications'],
    summary: "The caller's notifications as they are made (server-sent events)",
    description:
      'Events: `notification` (data: a notification; id: its id) and `unread` (data: { unread }); a comment ' +
      'line every 25 s. Send `Last-Event-ID` on reconnecting to get what was made meanwhile (at most 100). ' +
      'The stream ends when the session does.',
  }),
  list: endpoint({
    method: 'GET',
    path: '/notifications',
    query: notificationListQuerySchema,
    response: notificationListSchema,
    access: 'authenticated',
    tags: ['notifications'],
    summary: "The caller's notifications, newest first, and how many are unread",
  }),
  read: endpoint({
    method: 'POST',
    path: '/notifications/read',
    body: markReadSchema,
    response: unreadSchema,
    access: 'authenticated',
    tags: ['notifications'],
    summary: "Marks some or all of the caller's notifications read; answers the unread count",
  }),
  settings: endpoint({
    method: 'GET',
    path: '/notifications/settings',
    response: notificationSettingsSchema,
    access: 'authenticated',
    tags: ['notifications'],
    summary: "The caller's notification settings",
  }),
  saveSettings: endpoint({
    method: 'PUT',
    path: '/notifications/settings',
    body: notificationSettingsSchema,
    response: notificationSettingsSchema,
    access: 'authenticated',
    tags: ['notifications'],
    summary: "Saves the caller's notification settings",
  }),
} as const;

/** The stream's `Last-Event-ID` header: the id of the last notification the client had. */
export const lastEventIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/)
  .transform(Number);
