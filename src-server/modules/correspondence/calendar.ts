/** The user's calendar: their tasks and follow-up dates. */
import {
  type CalendarEvent,
  type CalendarQuery,
  type TaskState,
} from '../../../src-shared/api/correspondence';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import * as q from './queries';
import { badField, scope } from './common';

/** GET /user/calendar/events: the caller's tasks (by task date) and follow-up dates between two dates. */
export async function calendarEvents(
  ctx: ServerContext,
  caller: AuthContext,
  query: CalendarQuery,
): Promise<CalendarEvent[]> {
  if (query.to < query.from) throw badField('to', 'validation.date');
  if ((Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 > 366)
    throw badField('to', 'validation.date');
  const s = await scope(ctx, caller);
  const found = await q.calendarOf(ctx.db, s, query.from, query.to);
  return found.map((e) => ({
    key: e.key,
    kind: e.kind,
    date: e.date,
    documentId: e.document_id,
    docNumber: e.doc_number,
    subject: e.subject,
    taskId: e.task_id,
    taskState: (e.task_state as TaskState | null) ?? null,
    overdue: !!e.overdue,
  }));
}
