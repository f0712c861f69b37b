/**
 * The contract's notifications area (issue 28): main holds the push stream of the server
 * (src-main/services/notification-stream.ts) and hands what arrives to the screens as events. Reading
 * and marking go through `api:request` like every other call; no channel of its own is needed.
 */
import { notificationSchema, unreadSchema } from '../api/notifications';

export const notificationsEvents = {
  /** A notification the server pushed (a new one, or one missed while away and replayed). */
  'notifications:new': notificationSchema,
  /** The caller's unread count changed (a new one, or read here or on another desk). */
  'notifications:unread': unreadSchema,
  /** The user clicked a desktop notice: the window is focused and the screens open its document. */
  'notifications:open': notificationSchema,
} as const;
