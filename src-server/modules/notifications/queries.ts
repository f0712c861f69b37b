/**
 * The notifications' SQL: a user's list (the document shown only while the user may still see it), the
 * unread count, marking read, the settings, and the push's reads (what is newer than what a client has).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/open';
import { rowsOf } from '../../db/rows';
import { iso } from '../../db/sql';
import type { Notification } from '../../../src-shared/api/notifications';
import type { NotificationKind } from '../../../src-shared/api/notifications-kinds';
import { visibleTo, type Scope } from '../correspondence/visibility';

type Tx = Pick<Db, 'execute'>;

interface NotificationRow {
  id: number;
  kind: NotificationKind;
  details: Record<string, unknown>;
  created_at: string;
  read_at: string | null;
  doc_id: number | null;
  doc_direction: string | null;
  doc_state: string | null;
  doc_number: string | null;
  doc_subject: string | null;
  behalf_id: number | null;
  behalf_ar: string | null;
  behalf_en: string | null;
}

const toNotification = (r: NotificationRow): Notification => ({
  id: r.id,
  kind: r.kind,
  document:
    r.doc_id === null
      ? null
      : {
          id: r.doc_id,
          direction: r.doc_direction ?? '',
          state: r.doc_state ?? '',
          docNumber: r.doc_number,
          subject: r.doc_subject ?? '',
        },
  details: r.details,
  onBehalfOf:
    r.behalf_id === null ? null : { id: r.behalf_id, nameAr: r.behalf_ar ?? '', nameEn: r.behalf_en ?? '' },
  createdAt: r.created_at,
  readAt: r.read_at,
});

/** The caller's notifications matching `where` (over `n`), newest first or oldest first. */
async function select(db: Tx, scope: Scope, where: SQL, order: 'newest' | 'oldest', limit: number) {
  const rows = await rowsOf<NotificationRow>(
    db,
    sql`select n.id, n.kind, n.details, ${iso('n.created_at')} as created_at, ${iso('n.read_at')} as read_at,
          d.id as doc_id, d.direction as doc_direction, d.state as doc_state, d.doc_number, d.subject as doc_subject,
          b.id as behalf_id, b.name_ar as behalf_ar, b.name_en as behalf_en
        from notifications n
        left join documents d on d.id = n.document_id and ${visibleTo(scope)}
        left join users b on b.id = n.on_behalf_of
       where n.user_id = ${scope.userId} and ${where}
       order by n.id ${sql.raw(order === 'newest' ? 'desc' : 'asc')}
       limit ${limit}`,
  );
  return rows.map(toNotification);
}

/** A page of the caller's notifications, newest first, before `before` (an id); one more tells if more remain. */
export async function listOf(
  db: Tx,
  scope: Scope,
  options: { before?: number | undefined; limit: number; unreadOnly: boolean },
): Promise<{ items: Notification[]; more: boolean }> {
  const conditions: SQL[] = [sql`true`];
  if (options.before !== undefined) conditions.push(sql`n.id < ${options.before}`);
  if (options.unreadOnly) conditions.push(sql`n.read_at is null`);
  const items = await select(db, scope, sql.join(conditions, sql` and `), 'newest', options.limit + 1);
  return { items: items.slice(0, options.limit), more: items.length > options.limit };
}

const intArray = (values: readonly number[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::bigint[]`;

/**
 * The push's read: for each user, their notifications after the given id, oldest first (at most `limit`
 * each), in one query. The document is shown as it is: the push sends what was made for its user, who
 * could see it then (hub.ts).
 */
export async function newerFor(
  db: Tx,
  after: ReadonlyMap<number, number>,
  limit: number,
): Promise<Map<number, Notification[]>> {
  const users = [...after.keys()];
  const out = new Map<number, Notification[]>();
  if (!users.length) return out;
  const rows = await rowsOf<NotificationRow & { user_id: number }>(
    db,
    sql`select n.user_id, n.id, n.kind, n.details, ${iso('n.created_at')} as created_at,
          ${iso('n.read_at')} as read_at,
          d.id as doc_id, d.direction as doc_direction, d.state as doc_state, d.doc_number,
          d.subject as doc_subject, b.id as behalf_id, b.name_ar as behalf_ar, b.name_en as behalf_en
        from unnest(${intArray(users)}, ${intArray(users.map((u) => after.get(u) ?? 0))}) as w(user_id, after_id)
        cross join lateral (select * from notifications x
                             where x.user_id = w.user_id and x.id > w.after_id order by x.id limit ${limit}) n
        left join documents d on d.id = n.document_id
        left join users b on b.id = n.on_behalf_of
       order by n.id`,
  );
  for (const r of rows) {
    const list = out.get(r.user_id) ?? [];
    list.push(toNotification(r));
    out.set(r.user_id, list);
  }
  return out;
}

/** The unread counts of these users (absent: none). */
export async function unreadFor(db: Tx, users: readonly number[]): Promise<Map<number, number>> {
  if (!users.length) return new Map();
  const rows = await rowsOf<{ user_id: number; n: number }>(
    db,
    sql`select user_id, count(*)::int as n from notifications
         where user_id = any(${intArray(users)}) and read_at is null group by user_id`,
  );
  return new Map(rows.map((r) => [r.user_id, r.n]));
}

/** The newest notification id of a user (0: none). */
export async function lastIdOf(db: Tx, userId: number): Promise<number> {
  const [row] = await rowsOf<{ id: number | null }>(
    db,
    sql`select max(id) as id from notifications where user_id = ${userId}`,
  );
  return row?.id ?? 0;
}

export async function unreadOf(db: Tx, userId: number): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from notifications where user_id = ${userId} and read_at is null`,
  );
  return row?.n ?? 0;
}

/** Marks the user's notifications read (some by id, or all); answers how many changed. */
export async function markRead(db: Tx, userId: number, ids: readonly number[] | 'all'): Promise<number> {
  const which =
    ids === 'all'
      ? sql`true`
      : sql`id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`update notifications set read_at = now()
         where user_id = ${userId} and read_at is null and ${which} returning id`,
  );
  return rows.length;
}

export async function settingsOf(db: Tx, userId: number): Promise<unknown> {
  const [row] = await rowsOf<{ s: unknown }>(
    db,
    sql`select notification_settings as s from users where id = ${userId}`,
  );
  return row?.s ?? {};
}

export async function saveSettings(db: Tx, userId: number, settings: object): Promise<void> {
  await db.execute(
    sql`update users set notification_settings = ${JSON.stringify(settings)}::jsonb where id = ${userId}`,
  );
}

/** Of these sessions, the ones still alive (not expired, user active). Read without touching them. */
export async function liveSessions(db: Tx, sessionIds: readonly number[]): Promise<Set<number>> {
  if (!sessionIds.length) return new Set();
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`select s.id from sessions s join users u on u.id = s.user_id
         where s.id in (${sql.join(
           sessionIds.map((id) => sql`${id}`),
           sql`, `,
         )}) and s.idle_expires_at > now() and s.absolute_expires_at > now() and u.active`,
  );
  return new Set(rows.map((r) => r.id));
}
