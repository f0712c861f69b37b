/**
 * Reminders and escalation (issue 28), a background job on the durable queue: every few minutes it looks
 * at what is due — incoming letters awaiting a reply, open tasks, approval steps whose turn it is — and
 * tells, each once (db/notices.ts dedupe keys: however many servers run the job, whatever restarts):
 * - the person, `remindDaysBefore` working days ahead of the due date ("due soon");
 * - the person, once the day has passed ("overdue");
 * - their manager, once it is `escalateAfterDays` (per priority) working days overdue ("escalated").
 *
 * Who the person is: a reply — the leads (manager, secretaries) of the departments it went to for action
 * and has not completed, or, when it went to none, the clerk who registered it; a task — its employee;
 * an approval — the approver (their delegates too, db/notices.ts). Their manager: the manager of the
 * department concerned (the action department, the task's department, the approver's own department),
 * or of the department above it when the person is that manager.
 */
import { sql } from 'drizzle-orm';
import { dayIn } from '../../clock';
import type { ServerContext } from '../../context';
import {
  loadDeadlineSettings,
  loadWorkingCalendar,
  overdueWorkingDays,
  reminderDayOf,
} from '../../db/calendar';
import { notify } from '../../db/notices';
import { rowsOf } from '../../db/rows';
import type { JobContext } from '../../jobs/queue';
import { escalateDaysFor } from '../../../src-shared/api/deadlines';
import type { DueSubject } from '../../../src-shared/api/notifications-kinds';
import { addWorkingDays } from '../../../src-shared/working-days';
import { scopeOfUser, visibleTo } from '../correspondence/visibility';

export const DEADLINES_SCAN = 'deadlines.scan';
/** How often the scan runs (a due date is a day: minutes are plenty). */
export const SCAN_EVERY_MS = 10 * 60_000;
/** Items overdue longer than this are no longer looked at (their notices went long ago). */
const LOOK_BACK_DAYS = 800;

interface DueItem {
  subject: DueSubject;
  /** The document, task or approval member id (the notice's key). */
  id: number;
  documentId: number;
  dueOn: string;
  priorityId: number | null;
  /** The people told, each with the department their manager is looked up from. */
  people: { userId: number; departmentId: number | null }[];
}

interface DepartmentRow {
  id: number;
  parent_id: number | null;
  manager_user_id: number | null;
}

/** What a scan told (the test and the log read it). */
export interface ScanOutcome {
  today: string;
  dueSoon: number;
  overdue: number;
  escalated: number;
}

type Tx = ServerContext['db'];

async function dueItems(db: Tx, until: string, since: string): Promise<DueItem[]> {
  const replies = await rowsOf<{
    id: number;
    due_on: string;
    priority_id: number | null;
    registered_by: number | null;
    archive_department_id: number | null;
    leads: { userId: number; departmentId: number }[] | null;
  }>(
    db,
    sql`select d.id, to_char(d.reply_due_on, 'YYYY-MM-DD') as due_on, d.priority_id, d.registered_by,
          d.archive_department_id,
          (select json_agg(json_build_object('userId', u.id, 'departmentId', x.department_id))
             from distributions x
             join employees e on e.active and (
                  e.id = (select m.manager_employee_id from departments m where m.id = x.department_id)
               or exists (select 1 from secretary_offices so where so.department_id = x.department_id
                            and so.secretary_employee_id = e.id and so.active))
             join users u on u.employee_id = e.id and u.active
            where x.document_id = d.id and x.type = 'forAction' and x.completed_at is null) as leads
        from documents d
       where d.reply_due_on is not null and d.reply_done_at is null
         and d.reply_due_on <= ${until}::date and d.reply_due_on >= ${since}::date
         and d.state = 'registered'`,
  );
  const tasks = await rowsOf<{
    id: number;
    document_id: number;
    due_on: string;
    priority_id: number | null;
    department_id: number;
    user_id: number | null;
  }>(
    db,
    sql`select t.id, t.document_id, to_char(t.task_date, 'YYYY-MM-DD') as due_on, d.priority_id,
          t.department_id, u.id as user_id
        from tasks t join documents d on d.id = t.document_id
        left join users u on u.employee_id = t.employee_id and u.active
       where t.task_date is not null and t.state <> 'completed'
         and t.task_date <= ${until}::date and t.task_date >= ${since}::date`,
  );
  const approvals = await rowsOf<{
    id: number;
    document_id: number;
    due_on: string;
    priority_id: number | null;
    user_id: number;
    department_id: number | null;
  }>(
    db,
    sql`select m.id, m.document_id, to_char(m.due_on, 'YYYY-MM-DD') as due_on, d.priority_id, m.user_id,
          e.department_id
        from approval_members m join documents d on d.id = m.document_id
        join users u on u.id = m.user_id
        left join employees e on e.id = u.employee_id
       where m.pending and m.due_on is not null
         and m.due_on <= ${until}::date and m.due_on >= ${since}::date`,
  );
  return [
    ...replies.map((r) => ({
      subject: 'reply' as const,
      id: r.id,
      documentId: r.id,
      dueOn: r.due_on,
      priorityId: r.priority_id,
      people: r.leads?.length
        ? r.leads
        : r.registered_by === null
          ? []
          : [{ userId: r.registered_by, departmentId: r.archive_department_id }],
    })),
    ...tasks.map((t) => ({
      subject: 'task' as const,
      id: t.id,
      documentId: t.document_id,
      dueOn: t.due_on,
      priorityId: t.priority_id,
      people: t.user_id === null ? [] : [{ userId: t.user_id, departmentId: t.department_id }],
    })),
    ...approvals.map((a) => ({
      subject: 'approval' as const,
      id: a.id,
      documentId: a.document_id,
      dueOn: a.due_on,
      priorityId: a.priority_id,
      people: [{ userId: a.user_id, departmentId: a.department_id }],
    })),
  ];
}

/** The manager a person's overdue item escalates to (never the person): see the file's header. */
function managerAbove(departments: Map<number, DepartmentRow>, userId: number, departmentId: number | null) {
  let at = departmentId === null ? undefined : departments.get(departmentId);
  for (let depth = 0; at && depth < 50; depth += 1) {
    if (at.manager_user_id !== null && at.manager_user_id !== userId) return at.manager_user_id;
    at = at.parent_id === null ? undefined : departments.get(at.parent_id);
  }
  return null;
}

/** One look at everything due, as of `now` (the job passes the server's clock; tests move it). */
export async function scanDeadlines(
  ctx: Pick<ServerContext, 'db' | 'config' | 'clock'>,
  now: Date = ctx.clock.now(),
): Promise<ScanOutcome> {
  const db = ctx.db;
  const today = dayIn(ctx.config.ORG_TIME_ZONE, now);
  const settings = await loadDeadlineSettings(db);
  const cal = await loadWorkingCalendar(db, settings);
  // Every due date whose reminder day has come: up to `remindDaysBefore` working days ahead.
  const until = addWorkingDays(today, settings.remindDaysBefore, cal);
  const since = new Date(Date.parse(`${today}T00:00:00Z`) - LOOK_BACK_DAYS * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const items = await dueItems(db, until, since);
  const outcome: ScanOutcome = { today, dueSoon: 0, overdue: 0, escalated: 0 };
  if (!items.length) return outcome;
  const departments = new Map(
    (
      await rowsOf<DepartmentRow>(
        db,
        sql`select d.id, d.parent_id, u.id as manager_user_id from departments d
            left join employees e on e.id = d.manager_employee_id and e.active
            left join users u on u.employee_id = e.id and u.active`,
      )
    ).map((d) => [d.id, d]),
  );
  const seen = new Map<string, boolean>();
  const seesDocument = async (userId: number, documentId: number) => {
    const key = `${userId}:${documentId}`;
    let sees = seen.get(key);
    if (sees === undefined) {
      const scope = await scopeOfUser(db, userId, today);
      const rows = await rowsOf(
        db,
        sql`select 1 from documents d where d.id = ${documentId} and ${visibleTo(scope)}`,
      );
      sees = rows.length > 0;
      seen.set(key, sees);
    }
    return sees;
  };
  const delegated = (subject: DueSubject) =>
    subject === 'reply'
      ? undefined
      : { scope: subject === 'task' ? ('tasks' as const) : ('approvals' as const), today };
  for (const item of items) {
    const key = `${item.subject}:${item.id}:${item.dueOn}`;
    const users = [...new Set(item.people.map((p) => p.userId))];
    const details = { subject: item.subject, dueOn: item.dueOn };
    if (today > item.dueOn) {
      const days = overdueWorkingDays(cal, item.dueOn, today);
      // Each in its own transaction: a notice once made stays made whatever happens to the next.
      outcome.overdue += (
        await notify(db, users, {
          kind: 'overdue',
          documentId: item.documentId,
          details: { ...details, days },
          dedupeKey: `overdue:${key}`,
          delegated: delegated(item.subject),
        })
      ).length;
      if (days >= escalateDaysFor(settings, item.priorityId)) {
        for (const person of item.people) {
          const manager = managerAbove(departments, person.userId, person.departmentId);
          if (manager === null) continue;
          const [who] = await rowsOf<{ name_ar: string; name_en: string }>(
            db,
            sql`select name_ar, name_en from users where id = ${person.userId}`,
          );
          // A manager above may not see the document itself (another department's letter): they are told
          // whose delay it is, without the document (a notification is only ever about what its user sees).
          const sees = await seesDocument(manager, item.documentId);
          outcome.escalated += (
            await notify(db, [manager], {
              kind: 'escalated',
              documentId: sees ? item.documentId : null,
              details: {
                ...details,
                days,
                person: who ? { nameAr: who.name_ar, nameEn: who.name_en } : null,
              },
              dedupeKey: `escalated:${key}:${person.userId}`,
            })
          ).length;
        }
      }
    } else if (reminderDayOf(cal, settings, item.dueOn) <= today) {
      outcome.dueSoon += (
        await notify(db, users, {
          kind: 'dueSoon',
          documentId: item.documentId,
          details,
          dedupeKey: `dueSoon:${key}`,
          delegated: delegated(item.subject),
        })
      ).length;
    }
  }
  return outcome;
}

/** The job: one scan, then the next one queued (one waiting at a time: its key). */
export async function runDeadlineScan(ctx: ServerContext, _job: JobContext): Promise<void> {
  try {
    await scanDeadlines(ctx);
  } finally {
    await queueDeadlineScan(ctx, new Date(Date.now() + SCAN_EVERY_MS));
  }
}

export async function queueDeadlineScan(ctx: ServerContext, runAt?: Date): Promise<void> {
  await ctx.jobs.enqueue(
    ctx.db,
    DEADLINES_SCAN,
    {},
    { key: 'next', ...(runAt ? { runAt } : {}), maxAttempts: 3 },
  );
}
