/**
 * Making a notification (issue 28), from any module, inside the transaction of the change it tells of:
 * one row per user who wants that kind in the app (their settings), once per `dedupeKey`, and a
 * `pg_notify` that PostgreSQL (and PGlite) delivers on commit only — to every server listening, which
 * pushes it to the user's open clients (modules/notifications/hub.ts). A rolled-back change tells nobody.
 *
 * Items a user has delegated (approvals, tasks) reach their delegates as well, marked on behalf of them.
 */
import { sql } from 'drizzle-orm';
import type { NotificationKind } from '../../src-shared/api/notifications-kinds';
import type { Db } from './open';
import { rowsOf } from './rows';

type Tx = Pick<Db, 'execute'>;

/**
 * The channel every server listens on; the payload is `{ u: [userId, …] }` (users with something new, or
 * whose unread count changed), or `{ s: sessionId }` when a session ended (its streams close at once).
 */
export const NOTIFY_CHANNEL = 'sijill_notifications';
/** User ids per NOTIFY payload (10 digits and a comma each: well under PostgreSQL's 8,000 bytes). */
const NOTIFY_USERS_PER_PAYLOAD = 500;

export interface Notice {
  kind: NotificationKind;
  documentId?: number | null;
  /** The values its words name (see src-shared/api/notifications.ts `details`). */
  details?: Record<string, unknown>;
  /** Once per user and key: a second notice with the same key is not made (a reminder on each server). */
  dedupeKey?: string | null;
  /**
   * The delegation scope this item falls under: the users' delegates in force on `today` (YYYY-MM-DD)
   * for it are told too, on behalf of the user.
   */
  delegated?: { scope: 'approvals' | 'tasks'; today: string };
}

/** Tells `userIds` (duplicates and inactive users left out); answers the notifications made. */
export async function notify(
  db: Tx,
  userIds: readonly number[],
  notice: Notice,
): Promise<{ id: number; userId: number }[]> {
  const ids = [...new Set(userIds)].filter((id) => Number.isInteger(id) && id > 0);
  if (!ids.length) return [];
  const details = JSON.stringify(notice.details ?? {});
  const documentId = notice.documentId ?? null;
  const dedupeKey = notice.dedupeKey ?? null;
  const list = sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );
  // The user's own, then their delegates' (a delegate's copy carries the delegator; its key differs so it
  // is made once per delegate too).
  const delegates = notice.delegated
    ? sql`union all
        select g.delegate_id as user_id, g.delegator_id as on_behalf_of
          from delegations g
         where g.delegator_id in (${list}) and g.ended_at is null
           and g.starts_on <= ${notice.delegated.today}::date and g.ends_on >= ${notice.delegated.today}::date
           and g.scope in ('both', ${notice.delegated.scope})`
    : sql``;
  const made = await rowsOf<{ id: number; user_id: number }>(
    db,
    sql`with wanted as (
          select u.id as user_id, null::int as on_behalf_of from users u where u.id in (${list})
          ${delegates}
        )
        insert into notifications (user_id, kind, document_id, details, dedupe_key, on_behalf_of)
        select w.user_id, ${notice.kind}, ${documentId}, ${details}::jsonb,
               case when ${dedupeKey}::text is null then null
                    when w.on_behalf_of is null then ${dedupeKey}::text
                    else ${dedupeKey}::text || ':for:' || w.on_behalf_of end,
               w.on_behalf_of
          from (select distinct on (user_id) user_id, on_behalf_of from wanted order by user_id, on_behalf_of nulls first) w
          join users u on u.id = w.user_id
         where u.active
           and coalesce((u.notification_settings -> 'kinds' -> ${notice.kind} ->> 'app')::boolean, true)
        on conflict (user_id, dedupe_key) where dedupe_key is not null do nothing
        returning id, user_id`,
  );
  // One NOTIFY per few hundred users (a payload holds at most 8,000 bytes): the users to look at.
  const users = [...new Set(made.map((row) => row.user_id))];
  for (let i = 0; i < users.length; i += NOTIFY_USERS_PER_PAYLOAD)
    await db.execute(
      sql`select pg_notify(${NOTIFY_CHANNEL}, ${JSON.stringify({ u: users.slice(i, i + NOTIFY_USERS_PER_PAYLOAD) })})`,
    );
  return made.map((row) => ({ id: row.id, userId: row.user_id }));
}

/** Tells the user's open clients that their unread count changed (a read on another client). */
export async function notifyUnreadChanged(db: Tx, userId: number): Promise<void> {
  await db.execute(sql`select pg_notify(${NOTIFY_CHANNEL}, ${JSON.stringify({ u: [userId] })})`);
}

/** Tells every server that a session ended (signed out): its notification streams close at once. */
export async function notifySessionEnded(db: Tx, sessionId: number): Promise<void> {
  await db.execute(sql`select pg_notify(${NOTIFY_CHANNEL}, ${JSON.stringify({ s: sessionId })})`);
}
