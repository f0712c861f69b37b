/**
 * Due dates (issue 28): an incoming letter's reply — proposed at registration from its priority, changed
 * or closed by the archive office holding it or a manager it went to for action, done when a related
 * outgoing letter is dispatched — and the state of any due date on the organisation's day. Decisions where
 * the issue was silent:
 * - A reply done (by dispatch or closed with a note) is not reopened: its date no longer changes; a new
 *   need is a new letter.
 * - "Due soon": due from today through the reminder's working days ahead (deadline settings).
 * - The state is counted on the organisation's day (ORG_TIME_ZONE) from the server's clock, never the
 *   database's `current_date`, so a test or a replayed week moves it.
 */
import { sql } from 'drizzle-orm';
import type {
  DueState,
  ReplyCloseRequest,
  ReplyDue,
  ReplyDueRequest,
} from '../../../src-shared/api/correspondence';
import { recordAudit } from '../../audit';
import { dayIn } from '../../clock';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import { rowsOf } from '../../db/rows';
import type { Tx } from '../auth/queries';
import { holds, leads, mayOnDirection, ref, scope, visibleDocument } from './common';
import { dueWindowOf, overdueWorkingDays, replyDueOn, type DueCalendar } from './due-calendar';
import * as q from './queries';
import type { Scope } from './visibility';

const problem = (key: string) =>
  new HttpProblem('unprocessable', { detailKey: `due.${key}`, code: `due.${key}` });

/** The organisation's day now (the server's clock in ORG_TIME_ZONE). */
export function todayOf(ctx: ServerContext): string {
  return dayIn(ctx.config.ORG_TIME_ZONE, ctx.clock.now());
}

/** What a due date's state is judged against: the day, the last "due soon" day and the calendar. */
export interface DueDay {
  today: string;
  soonUntil: string;
  cal: DueCalendar;
}

export async function dueDayOf(db: Tx, today: string): Promise<DueDay> {
  return { today, ...(await dueWindowOf(db, today)) };
}

/** The state of a due date on the day `d`. */
export function dueStateOf(dueOn: string | null, done: boolean, d: DueDay): DueState {
  if (dueOn === null) return 'none';
  if (done) return 'done';
  if (dueOn < d.today) return 'overdue';
  return dueOn <= d.soonUntil ? 'dueSoon' : 'onTime';
}

/** Overdue: by how many working days (at least one: a due date passed is a day late); else null. */
export function overdueDaysOf(dueOn: string | null, state: DueState, d: DueDay): number | null {
  if (state !== 'overdue' || dueOn === null) return null;
  return Math.max(1, overdueWorkingDays(d.cal, dueOn, d.today));
}

/**
 * The SQL condition of the rows of a box whose due date (`due`, with `done`) is in one of `states` on the
 * day `d`: plain comparisons of the due date, so a partial index on it (documents_reply_due_idx,
 * tasks_due_idx) can serve them.
 */
export function dueStateCondition(states: readonly DueState[], due: string, done: string, d: DueDay) {
  const c = sql.raw(due);
  const isDone = sql.raw(done);
  const parts = states.map((st) => {
    switch (st) {
      case 'none':
        return sql`${c} is null`;
      case 'done':
        return sql`(${c} is not null and ${isDone})`;
      case 'overdue':
        return sql`(${c} < ${d.today}::date and not ${isDone})`;
      case 'dueSoon':
        return sql`(${c} >= ${d.today}::date and ${c} <= ${d.soonUntil}::date and not ${isDone})`;
      case 'onTime':
        return sql`(${c} > ${d.soonUntil}::date and not ${isDone})`;
    }
  });
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

/** The proposed reply due date of an incoming letter registered on `today` (null: no reply needed). */
export function proposedReplyDue(db: Tx, priorityId: number | null, today: string) {
  return replyDueOn(db, priorityId, today);
}

/** Sets a letter's reply due date (registration, a change): not its content, so its version stays. */
export async function setReplyDue(tx: Tx, id: number, dueOn: string | null) {
  await tx.execute(sql`update documents set reply_due_on = ${dueOn}, updated_at = now() where id = ${id}`);
}

/** The reply columns of a document (documentsByIds reads the rest). */
interface ReplyRow {
  reply_due_on: string | null;
  reply_done_at: string | null;
  reply_done_by: number | null;
  done_by_ar: string | null;
  done_by_en: string | null;
  reply_done_note: string | null;
  reply_document_id: number | null;
  reply_doc_number: string | null;
  reply_subject: string | null;
}

async function replyRowOf(db: Tx, id: number): Promise<ReplyRow | undefined> {
  const [row] = await rowsOf<ReplyRow>(
    db,
    sql`select to_char(d.reply_due_on, 'YYYY-MM-DD') as reply_due_on,
          to_char(d.reply_done_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as reply_done_at,
          d.reply_done_by, u.name_ar as done_by_ar, u.name_en as done_by_en, d.reply_done_note,
          d.reply_document_id, r.doc_number as reply_doc_number, r.subject as reply_subject
        from documents d left join users u on u.id = d.reply_done_by
        left join documents r on r.id = d.reply_document_id
        where d.id = ${id}`,
  );
  return row;
}

/**
 * Whether the caller may change or close the reply of a registered incoming letter: the archive office
 * holding it (with `distribute` on incoming mail), or the manager of a department it went to for action.
 */
async function mayChangeReply(db: Tx, caller: AuthContext, s: Scope, doc: q.DocumentRow): Promise<boolean> {
  if (doc.direction !== 'in' || doc.state !== 'registered') return false;
  if (holds(s, doc) && (await mayOnDirection(db, caller, doc.direction, 'distribute'))) return true;
  const dists = await q.distributionsOf(db, doc.id);
  return dists.some((x) => x.type === 'forAction' && leads(s, x.department_id));
}

/** The reply block of a document's view (null: not a registered incoming letter). */
export async function replyOf(
  db: Tx,
  caller: AuthContext,
  s: Scope,
  doc: q.DocumentRow,
  today: string,
): Promise<ReplyDue | null> {
  if (doc.direction !== 'in' || doc.state === 'draft') return null;
  const row = await replyRowOf(db, doc.id);
  if (!row) return null;
  const day = await dueDayOf(db, today);
  const state = dueStateOf(row.reply_due_on, row.reply_done_at !== null, day);
  return {
    dueOn: row.reply_due_on,
    state,
    overdueDays: overdueDaysOf(row.reply_due_on, state, day),
    doneAt: row.reply_done_at,
    doneBy: ref(row.reply_done_by, row.done_by_ar, row.done_by_en),
    note: row.reply_done_note,
    replyDocument:
      row.reply_document_id === null
        ? null
        : { id: row.reply_document_id, docNumber: row.reply_doc_number, subject: row.reply_subject ?? '' },
    mayEdit: row.reply_done_at === null && (await mayChangeReply(db, caller, s, doc)),
  };
}

/** The letter locked for a change of its reply, checked: 404 unseen, 403 not allowed, 422 done. */
async function changeable(tx: Tx, caller: AuthContext, s: Scope, id: number) {
  const doc = await visibleDocument(tx, s, id, true);
  if (doc.direction !== 'in' || doc.state !== 'registered') throw problem('notIncoming');
  if (!(await mayChangeReply(tx, caller, s, doc))) throw new HttpProblem('forbidden');
  const row = await replyRowOf(tx, id);
  if (row?.reply_done_at) throw problem('alreadyDone');
  return { doc, row };
}

/** PUT /correspondence/documents/{id}/reply-due. */
export async function changeReplyDue(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: ReplyDueRequest,
  ip: string | null,
): Promise<void> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const { row } = await changeable(tx, caller, s, id);
    const from = row?.reply_due_on ?? null;
    if (from === input.replyDueOn) return;
    await setReplyDue(tx, id, input.replyDueOn);
    const details = { from, to: input.replyDueOn };
    await q.appendEvent(tx, id, 'replyDueChanged', s.userId, details);
    await recordAudit(tx, {
      action: 'documents.replyDueChanged',
      actorId: s.userId,
      actorUsername: caller.username,
      targetType: 'document',
      targetId: id,
      details,
      ip,
    });
  });
}

/** POST /correspondence/documents/{id}/reply-close. */
export async function closeReply(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: ReplyCloseRequest,
  ip: string | null,
): Promise<void> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const { row } = await changeable(tx, caller, s, id);
    if (!row?.reply_due_on) throw problem('noReplyDue');
    const note = input.note.trim();
    await tx.execute(sql`update documents set reply_done_at = now(), reply_done_by = ${s.userId},
        reply_done_note = ${note}, updated_at = now() where id = ${id}`);
    await q.appendEvent(tx, id, 'replyClosed', s.userId, { note, dueOn: row.reply_due_on });
    await recordAudit(tx, {
      action: 'documents.replyClosed',
      actorId: s.userId,
      actorUsername: caller.username,
      targetType: 'document',
      targetId: id,
      details: { note, dueOn: row.reply_due_on },
      ip,
    });
  });
}

/**
 * An outgoing letter dispatched: the incoming letters related to it that wait for a reply are done by it
 * (their timeline says which letter answered them). In the dispatch's transaction.
 */
export async function repliesDoneBy(
  tx: Tx,
  outgoing: { id: number; doc_number: string | null },
  userId: number,
) {
  const done = await rowsOf<{ id: number }>(
    tx,
    sql`update documents d set reply_done_at = now(), reply_done_by = ${userId},
          reply_document_id = ${outgoing.id}, updated_at = now()
        where d.direction = 'in' and d.state = 'registered' and d.reply_due_on is not null
          and d.reply_done_at is null
          and d.id in (select r.related_id from document_relations r where r.document_id = ${outgoing.id}
                       union select r.document_id from document_relations r where r.related_id = ${outgoing.id})
        returning d.id`,
  );
  for (const { id } of done)
    await q.appendEvent(tx, id, 'replyDone', userId, {
      documentId: outgoing.id,
      docNumber: outgoing.doc_number,
    });
  return done.map((d) => d.id);
}
