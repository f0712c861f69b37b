/**
 * The SQL of the reports (docs/reports.md). Every row is about a document the caller may see: each query
 * runs over `documents d` restricted by the visibility predicate (correspondence/visibility.ts
 * `visibleTo`, the security rank included), narrowed first to the predicate's candidates for a caller who
 * does not see broadly, as search and the dashboards do. Periods are UTC days of the instant counted (the
 * days the boxes' date ranges and the dashboards use, so a report and a dashboard agree); a document's
 * department is the recipient of an incoming letter, else its own (as on the dashboards).
 *
 * The long reports (overdue items, approval steps) are exported through a cursor (`inBatches`): the
 * report's query runs once, in the report's order with its rows' count on each row (the visibility
 * predicate weighed once for all rows), and its rows are fetched a batch at a time, so an export of
 * 100,000 rows holds one batch; the table reads a page by offset. The short ones (volumes, task completion)
 * are aggregates read whole.
 */
import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { ReportFilters } from '../../../src-shared/api/reports';
import { rowsOf } from '../../db/rows';
import type { Tx } from '../auth/queries';
import { seesBroadly, visibleCandidates, visibleTo, type Scope } from '../correspondence/visibility';

/** The predicate over `documents d`, starting from the candidates when the caller sees little. */
export function seen(scope: Scope): SQL {
  return seesBroadly(scope)
    ? visibleTo(scope, 'd')
    : sql`d.id in (${visibleCandidates(scope)}) and ${visibleTo(scope, 'd')}`;
}

/** `column` within the UTC days `from` … `to` (inclusive). */
export function withinDays(column: SQL, from: string, to: string): SQL {
  return sql`${column} >= (${from}::date)::timestamp at time zone 'UTC'
    and ${column} < ((${to}::date + 1)::timestamp at time zone 'UTC')`;
}

/** The department a filed document belongs to: the recipient of an incoming letter, else its own. */
export const docDepartment = sql`(case when d.direction = 'in' then d.recipient_department_id else d.department_id end)`;

/** The direction and codification filters over `documents d`. */
function documentFilters(f: ReportFilters): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.direction !== undefined) parts.push(sql`d.direction = ${f.direction}`);
  if (f.codificationId !== undefined) parts.push(sql`d.codification_id = ${f.codificationId}`);
  return sql.join(parts, sql` and `);
}

const byDepartment = (column: SQL, f: ReportFilters): SQL =>
  f.departmentId === undefined ? sql`true` : sql`${column} = ${f.departmentId}`;

// ---------------------------------------------------------------- volumes

export type VolumeRow = {
  month: string;
  direction: string;
  department_ar: string | null;
  department_en: string | null;
  codification_ar: string | null;
  codification_en: string | null;
  documents: number;
  completed: number;
};

/**
 * Filed documents (registered incoming, approved outgoing and memos) by month of registration, direction,
 * department and codification; `completed`: of those, the ones whose every action is done (incoming and
 * memos) or that were dispatched (outgoing).
 */
export function volumes(db: Tx, scope: Scope, f: ReportFilters): Promise<VolumeRow[]> {
  return rowsOf<VolumeRow>(
    db,
    sql`select to_char(d.registered_at at time zone 'UTC', 'YYYY-MM') as month, d.direction,
          dep.name_ar as department_ar, dep.name_en as department_en,
          cod.name_ar as codification_ar, cod.name_en as codification_en,
          count(*)::int as documents,
          count(case when d.direction = 'out' then d.dispatched_at else d.completed_at end)::int as completed
        from documents d
        left join departments dep on dep.id = ${docDepartment}
        left join correspondence_settings cod on cod.id = d.codification_id
       where d.state in ('registered', 'approved') and d.registered_at is not null
         and ${withinDays(sql`d.registered_at`, f.from, f.to)}
         and ${documentFilters(f)} and ${byDepartment(docDepartment, f)} and ${seen(scope)}
       group by 1, 2, dep.id, cod.id
       order by 1, 2, dep.name_en nulls last, dep.id nulls last, cod.name_en nulls last, cod.id nulls last`,
  );
}

// ---------------------------------------------------------------- overdue

export type OverdueRow = {
  kind: 'reply' | 'task' | 'approval';
  item_id: number;
  due_on: string;
  doc_number: string | null;
  subject: string;
  direction: string;
  department_ar: string | null;
  department_en: string | null;
  person_ar: string | null;
  person_en: string | null;
};

/** The condition each arm of the overdue items meets (`d` the document; `t` the task; `am` the step). */
interface OverdueWhere {
  reply: SQL;
  task: SQL;
  approval: SQL;
}

/** The overdue items' three arms with their columns, each restricted by its condition. */
function overdueArms(w: OverdueWhere): SQL {
  return sql`
    select 'reply' as kind, d.id as item_id, to_char(d.reply_due_on, 'YYYY-MM-DD') as due_on, d.doc_number,
           d.subject, d.direction, dep.name_ar as department_ar, dep.name_en as department_en,
           null::text as person_ar, null::text as person_en
      from documents d
      left join departments dep on dep.id = d.recipient_department_id
     where ${w.reply}
    union all
    select 'task', t.id, to_char(t.task_date, 'YYYY-MM-DD'), d.doc_number, d.subject, d.direction,
           dep.name_ar, dep.name_en,
           e.first_name_ar || ' ' || e.last_name_ar, e.first_name_en || ' ' || e.last_name_en
      from tasks t
      join documents d on d.id = t.document_id
      left join departments dep on dep.id = t.department_id
      left join employees e on e.id = t.employee_id
     where ${w.task}
    union all
    select 'approval', am.id, to_char(am.due_on, 'YYYY-MM-DD'), d.doc_number, d.subject, d.direction,
           dep.name_ar, dep.name_en, u.name_ar, u.name_en
      from approval_members am
      join documents d on d.id = am.document_id
      join users u on u.id = am.user_id
      left join employees e on e.id = am.employee_id
      left join departments dep on dep.id = e.department_id
     where ${w.approval}`;
}

/**
 * What is late on `today`, due within the period: incoming letters whose reply is due and not done (held
 * by their recipient department), action tasks not completed by their date (their department and
 * employee), approval steps waiting past their due day (the approver and their department).
 */
function overdueSql(scope: Scope, f: ReportFilters, today: string): SQL {
  const period = (col: string) =>
    sql`${sql.raw(col)} >= ${f.from}::date and ${sql.raw(col)} <= ${f.to}::date and ${sql.raw(col)} < ${today}::date`;
  const docs = sql`${documentFilters(f)} and ${seen(scope)}`;
  return overdueArms({
    reply: sql`d.reply_due_on is not null and d.reply_done_at is null and d.state = 'registered'
       and ${period('d.reply_due_on')} and ${byDepartment(sql`d.recipient_department_id`, f)} and ${docs}`,
    task: sql`t.task_date is not null and t.state <> 'completed' and t.type = 'forAction'
       and ${period('t.task_date')} and ${byDepartment(sql`t.department_id`, f)} and ${docs}`,
    approval: sql`am.pending and am.due_on is not null
       and ${period('am.due_on')} and ${byDepartment(sql`e.department_id`, f)} and ${docs}`,
  });
}

/** A page of overdue items from an offset (the table's pages), oldest due first. */
export function overduePage(
  db: Tx,
  scope: Scope,
  f: ReportFilters,
  today: string,
  page: { offset: number; limit: number },
): Promise<OverdueRow[]> {
  return rowsOf<OverdueRow>(
    db,
    sql`select * from (${overdueSql(scope, f, today)}) r
        order by r.due_on, r.kind, r.item_id limit ${page.limit} offset ${page.offset}`,
  );
}

export async function overdueCount(db: Tx, scope: Scope, f: ReportFilters, today: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from (${overdueSql(scope, f, today)}) r`,
  );
  return row?.n ?? 0;
}

/**
 * A row of a report as its export reads it: its columns as one JSON object (`row`, of the row type the
 * query names), and how many rows the report has in all. One text a row rather than ten columns: PGlite
 * hands each column of each row over from its thread on its own, and a year's 100,000 rows took twice as
 * long to come over as columns (bench/reports-export).
 */
export type ExportRow = { row: string; total: number };

/** Every overdue item of the report (`OverdueRow`), in its order (due day, kind, id): an export's read. */
export function overdueExport(scope: Scope, f: ReportFilters, today: string): SQL {
  return sql`select row_to_json(r)::text as row, count(*) over ()::int as total
               from (${overdueSql(scope, f, today)}) r
              order by r.due_on, r.kind, r.item_id`;
}

// ---------------------------------------------------------------- approval turnaround

export type ApprovalStepRow = {
  id: number;
  activated_at: string;
  doc_number: string | null;
  subject: string;
  direction: string;
  approver_ar: string;
  approver_en: string;
  department_ar: string | null;
  department_en: string | null;
  position: number;
  kind: string;
  activated_on: string;
  due_on: string | null;
  decided_on: string | null;
  decision: string | null;
};

/** The approval steps' columns, for the steps meeting `where` (`am` the step, `e` its employee). */
function approvalStepsOf(where: SQL): SQL {
  return sql`
    select am.id, to_char(am.activated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as activated_at,
           d.doc_number, d.subject, d.direction,
           u.name_ar as approver_ar, u.name_en as approver_en, dep.name_ar as department_ar,
           dep.name_en as department_en, am.position, am.kind,
           to_char(am.activated_at at time zone 'UTC', 'YYYY-MM-DD') as activated_on,
           to_char(am.due_on, 'YYYY-MM-DD') as due_on,
           to_char(am.decided_at at time zone 'UTC', 'YYYY-MM-DD') as decided_on, am.decision
      from approval_members am
      join documents d on d.id = am.document_id
      join users u on u.id = am.user_id
      left join employees e on e.id = am.employee_id
      left join departments dep on dep.id = e.department_id
     where ${where}`;
}

/**
 * The approval steps that became active within the period (each approver of each step once): when it
 * reached them, when it was due, when and how they decided (or that they are still waiting).
 */
function approvalStepsSql(scope: Scope, f: ReportFilters): SQL {
  return approvalStepsOf(sql`am.activated_at is not null and ${withinDays(sql`am.activated_at`, f.from, f.to)}
       and (am.pending or am.decided_at is not null)
       and ${byDepartment(sql`e.department_id`, f)} and ${documentFilters(f)} and ${seen(scope)}`);
}

/** A page of approval steps from an offset (the table's pages), in the order they became active. */
export function approvalStepsPage(
  db: Tx,
  scope: Scope,
  f: ReportFilters,
  page: { offset: number; limit: number },
): Promise<ApprovalStepRow[]> {
  return rowsOf<ApprovalStepRow>(
    db,
    sql`select * from (${approvalStepsSql(scope, f)}) r
        order by r.activated_at, r.id limit ${page.limit} offset ${page.offset}`,
  );
}

export async function approvalStepsCount(db: Tx, scope: Scope, f: ReportFilters): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from (${approvalStepsSql(scope, f)}) r`,
  );
  return row?.n ?? 0;
}

/** Every approval step of the report (`ApprovalStepRow`), in its order: an export's read (`ExportRow`). */
export function approvalStepsExport(scope: Scope, f: ReportFilters): SQL {
  return sql`select row_to_json(r)::text as row, count(*) over ()::int as total
               from (${approvalStepsSql(scope, f)}) r
              order by r.activated_at, r.id`;
}

// ---------------------------------------------------------------- task completion

export type TaskRow = {
  id: number;
  employee_id: number;
  employee_ar: string;
  employee_en: string;
  department_ar: string | null;
  department_en: string | null;
  assigned_on: string;
  due_on: string | null;
  completed_on: string | null;
};

/**
 * Action tasks assigned within the period (by the day they were made), a page at a time by id, with
 * their employee, department, due day and the day they were completed.
 */
export function tasksPage(
  db: Tx,
  scope: Scope,
  f: ReportFilters,
  afterId: number,
  limit: number,
): Promise<TaskRow[]> {
  return rowsOf<TaskRow>(
    db,
    sql`select t.id, t.employee_id,
           e.first_name_ar || ' ' || e.last_name_ar as employee_ar,
           e.first_name_en || ' ' || e.last_name_en as employee_en,
           dep.name_ar as department_ar, dep.name_en as department_en,
           to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD') as assigned_on,
           to_char(t.task_date, 'YYYY-MM-DD') as due_on,
           to_char(t.completed_at at time zone 'UTC', 'YYYY-MM-DD') as completed_on
      from tasks t
      join documents d on d.id = t.document_id
      join employees e on e.id = t.employee_id
      left join departments dep on dep.id = t.department_id
     where t.type = 'forAction' and t.id > ${afterId} and ${withinDays(sql`t.created_at`, f.from, f.to)}
       and ${byDepartment(sql`t.department_id`, f)} and ${documentFilters(f)} and ${seen(scope)}
     order by t.id limit ${limit}`,
  );
}

// ---------------------------------------------------------------- exports

/**
 * Reads `query`'s rows `size` at a time through a cursor: the query runs once, and each fetch answers the
 * next rows without weighing anything again (paging by offset or by the last row's sort key would run the
 * report's predicate over the whole period for every page). The cursor is WITH HOLD: on PGlite, whose one
 * connection serves every request in turn, it is declared outside any transaction (which would hold the
 * others out for the whole export), its rows kept by the database at once; on PostgreSQL the caller reads
 * it within a transaction, which keeps one pooled connection (where the cursor lives) for the export, and
 * rows come as the query makes them. Closed when the reader stops, done or not.
 */
export async function* inBatches<T>(db: Tx, query: SQL, size: number): AsyncGenerator<T[], void, undefined> {
  // A name of our own making (never the caller's): distinct for each export on the connection.
  const cursor = sql.raw(`report_export_${randomBytes(8).toString('hex')}`);
  await db.execute(sql`declare ${cursor} no scroll cursor with hold for ${query}`);
  try {
    for (;;) {
      const rows = await rowsOf<T>(
        db,
        sql`fetch forward ${sql.raw(String(Math.trunc(size)))} from ${cursor}`,
      );
      if (rows.length) yield rows;
      if (rows.length < size) return;
    }
  } finally {
    // After a failed statement in a PostgreSQL transaction the close fails too; the rollback drops the cursor.
    await db.execute(sql`close ${cursor}`).catch(() => undefined);
  }
}
