/** The user's calendar: their tasks and follow-up dates. */
import { sql } from 'drizzle-orm';
import {
  type CalendarEvent,
  type CalendarQuery,
  type TaskState,
} from '../../../src-shared/api/correspondence';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import * as q from './queries';
import { inList, visibleTo } from './visibility';

import { badField, scope } from './common';
// ---------------------------------------------------------------- calendar

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
  // A manager or secretary follows the tasks of the departments they lead, by their task dates.
  const led = s.leadDepartmentIds.length
    ? sql`t.department_id in ${inList(s.leadDepartmentIds)}`
    : sql`false`;
  const found = await q.rows<{
    kind: 'task' | 'followUp';
    key: string;
    date: string;
    document_id: number;
    doc_number: string | null;
    subject: string;
    task_id: number | null;
    task_state: string | null;
    overdue: boolean;
  }>(
    ctx.db,
    sql`select 'task' as kind, 'task:' || t.id as key, to_char(t.task_date, 'YYYY-MM-DD') as date, d.id as document_id,
          d.doc_number, d.subject, t.id as task_id, t.state as task_state,
          (t.state <> 'completed' and t.task_date < current_date) as overdue
        from tasks t join documents d on d.id = t.document_id
        where t.employee_id = ${s.employeeId ?? 0} and t.task_date between ${query.from}::date and ${query.to}::date
          and ${visibleTo(s)}
        union all
        select 'followUp', 'follow:' || d.id, to_char(f.due_date, 'YYYY-MM-DD'), d.id, d.doc_number, d.subject,
          null, null, (d.completed_at is null and f.due_date < current_date)
        from document_follows f join documents d on d.id = f.document_id
        where f.user_id = ${s.userId} and f.due_date between ${query.from}::date and ${query.to}::date
          and ${visibleTo(s)}
        union all
        select 'followUp', 'assigned:' || t.id, to_char(t.task_date, 'YYYY-MM-DD'), d.id, d.doc_number, d.subject,
          t.id, t.state, (t.state <> 'completed' and t.task_date < current_date)
        from tasks t join documents d on d.id = t.document_id
        where ${led} and t.employee_id <> ${s.employeeId ?? 0}
          and t.task_date between ${query.from}::date and ${query.to}::date
          and ${visibleTo(s)}
        order by date, key`,
  );
  return found.map((e) => ({
    key: e.key,
    kind: e.kind,
    date: e.date,
    documentId: Number(e.document_id),
    docNumber: e.doc_number,
    subject: e.subject,
    taskId: e.task_id === null ? null : Number(e.task_id),
    taskState: (e.task_state as TaskState | null) ?? null,
    overdue: !!e.overdue,
  }));
}
