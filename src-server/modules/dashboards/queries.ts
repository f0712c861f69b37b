/**
 * The SQL of the dashboards (docs/dashboards.md): every count runs over `documents d` restricted by the
 * visibility predicate (correspondence/visibility.ts `visibleTo`, the security rank included), so nobody
 * counts a document they could not open. For a caller who does not see broadly, the documents are first
 * narrowed to the predicate's candidates (one indexed lookup per arm), as search does.
 * Periods are UTC days of the instant counted (registered_at, completed_at, reply_done_at), the days the
 * boxes' date ranges use, so a figure and the box it opens agree.
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf } from '../../db/rows';
import type { Tx } from '../auth/queries';
import { inList, seesBroadly, visibleCandidates, visibleTo, type Scope } from '../correspondence/visibility';

/**
 * The predicate over `documents d` for the filed documents registered in the days `from` … `to`, starting,
 * when the caller sees little, from the candidates of that period (their documents and their departments'
 * distributions registered then; tasks and circuits are few).
 */
export function seenWithin(scope: Scope, from: string, to: string): SQL {
  if (seesBroadly(scope)) return visibleTo(scope, 'd');
  const candidates = visibleCandidates(
    scope,
    sql`state in ('registered', 'approved') and ${withinDays(sql`registered_at`, from, to)}`,
    withinDays(sql`registered_at`, from, to),
  );
  return sql`d.id in (${candidates}) and ${visibleTo(scope, 'd')}`;
}

/** The predicate over `documents d`, starting from the candidates when the caller sees little. */
export function seen(scope: Scope): SQL {
  return seesBroadly(scope)
    ? visibleTo(scope, 'd')
    : sql`d.id in (${visibleCandidates(scope)}) and ${visibleTo(scope, 'd')}`;
}

/**
 * `join documents d` for the rows of another table, with the predicate; nothing for an administrator (who
 * sees every document: the counts then read the other table's own index alone).
 */
function documentsOf(scope: Scope, documentId: SQL): { join: SQL; where: SQL } {
  return scope.isAdmin
    ? { join: sql``, where: sql`true` }
    : { join: sql`join documents d on d.id = ${documentId}`, where: seen(scope) };
}

/**
 * The candidates (ids, a superset) of the filed documents a broad non-administrator (an archive office's
 * clerk) sees besides their office's own: created by them, received by their departments, tasked to them,
 * in their circuits, when held by another archive office or none.
 */
function outsideOfficeCandidates(scope: Scope, office: number): SQL {
  // Three ranges of documents_creator_archive_idx (an inequality would read all the clerk created).
  return visibleCandidates(
    scope,
    sql`state in ('registered', 'approved') and (archive_department_id < ${office}
      or archive_department_id > ${office} or archive_department_id is null)`,
  );
}

/** Whether `documents d` is one the clerk sees outside their office (the predicate decides). */
const outsideOfficeSeen = (scope: Scope, office: number) =>
  sql`d.archive_department_id is distinct from ${office} and ${visibleTo(scope, 'd')}`;

/**
 * The filed documents a broad non-administrator (an archive office's clerk) sees besides their office's
 * own. The dashboards tally their office's documents and count these apart.
 */
export function outsideOffice(scope: Scope, office: number): SQL {
  return sql`d.id in (${outsideOfficeCandidates(scope, office)}) and ${outsideOfficeSeen(scope, office)}`;
}

/**
 * The documents a caller sees, as candidates to start from (ids) and the predicate over `documents d`
 * that decides: for a caller who sees little, the predicate's own candidates; for a clerk counting apart
 * from their office, those outside it.
 */
export function seenFrom(scope: Scope, outsideOf: number | null = null): { candidates: SQL; which: SQL } {
  return outsideOf === null
    ? { candidates: visibleCandidates(scope), which: visibleTo(scope, 'd') }
    : { candidates: outsideOfficeCandidates(scope, outsideOf), which: outsideOfficeSeen(scope, outsideOf) };
}

/** `column` within the days `from` … `to` (inclusive, UTC days). */
export function withinDays(column: SQL, from: string, to: string): SQL {
  return sql`${column} >= (${from}::date)::timestamp at time zone 'UTC'
    and ${column} < ((${to}::date + 1)::timestamp at time zone 'UTC')`;
}

/** `column in (…)` when `ids` is a list; no condition when null (every department). */
function inDepartments(column: SQL, ids: readonly number[] | null): SQL {
  if (ids === null) return sql`true`;
  if (!ids.length) return sql`false`;
  return sql`${column} in ${inList(ids)}`;
}

/** The department a filed document belongs to: the recipient of an incoming letter, else its own. */
const docDepartment = sql`(case when d.direction = 'in' then d.recipient_department_id else d.department_id end)`;

// ---------------------------------------------------------------- archive

export type ArchiveCounts = {
  registered_today: number;
  registered_week: number;
  awaiting_distribution: number;
  awaiting_dispatch: number;
};

/**
 * The archive clerk's figures: incoming letters registered on `today` and since `weekFrom`, registered
 * incoming letters not distributed to any department, approved outgoing letters not dispatched.
 */
export async function archiveCounts(
  db: Tx,
  scope: Scope,
  today: string,
  weekFrom: string,
): Promise<ArchiveCounts> {
  const [row] = await rowsOf<ArchiveCounts>(
    db,
    sql`select
      (select count(*) from documents d where d.direction = 'in' and d.state = 'registered'
         and ${withinDays(sql`d.registered_at`, today, today)} and ${seen(scope)})::int as registered_today,
      (select count(*) from documents d where d.direction = 'in' and d.state = 'registered'
         and ${withinDays(sql`d.registered_at`, weekFrom, today)} and ${seen(scope)})::int as registered_week,
      (select count(*) from documents d where d.direction = 'in' and d.state = 'registered'
         and not d.distributed and ${seen(scope)})::int as awaiting_distribution,
      (select count(*) from documents d where d.direction = 'out' and d.state = 'approved'
         and d.dispatched_at is null and ${seen(scope)})::int as awaiting_dispatch`,
  );
  return row!;
}

/** Filed documents per UTC day of registration and direction, over the period. */
export function registeredByDay(db: Tx, scope: Scope, from: string, to: string) {
  return rowsOf<{ day: string; direction: string; n: number }>(
    db,
    sql`select to_char(d.registered_at at time zone 'UTC', 'YYYY-MM-DD') as day, d.direction, count(*)::int as n
        from documents d
        where d.direction in ('in', 'out', 'internal', 'memo') and d.state in ('registered', 'approved')
          and ${withinDays(sql`d.registered_at`, from, to)} and ${seen(scope)}
        group by 1, 2`,
  );
}

// ---------------------------------------------------------------- manager

/** A count per department and open-item state. */
export type StateCount = { department_id: number; state: string; n: number };

/**
 * The departments' open items by state: action distributions not completed with no task yet
 * (`unassigned`), tasks new or in progress (by their state), the departments' own letters and memos in
 * their circuit (`approving`) or sent back (`changesRequested`).
 */
export function openItemsByState(db: Tx, scope: Scope, departments: readonly number[] | null) {
  const x = documentsOf(scope, sql`x.document_id`);
  const t = documentsOf(scope, sql`t.document_id`);
  return rowsOf<StateCount>(
    db,
    sql`select x.department_id, 'unassigned' as state, count(*)::int as n
          from distributions x ${x.join}
          where x.type = 'forAction' and x.completed_at is null and not x.tasked
            and ${inDepartments(sql`x.department_id`, departments)} and ${x.where}
          group by x.department_id
        union all
        ${
          scope.isAdmin
            ? sql`select t.department, t.state, sum(t.n)::int
                    from task_tallies t
                    where ${inDepartments(sql`t.department`, departments)}
                    group by t.department, t.state
                    having sum(t.n) <> 0`
            : sql`select t.department_id, t.state, count(*)::int
                    from tasks t ${t.join}
                    where t.state <> 'completed' and ${inDepartments(sql`t.department_id`, departments)}
                      and ${t.where}
                    group by t.department_id, t.state`
        }
        union all
        select d.department_id, d.state, count(*)::int
          from documents d
          where d.direction in ('out', 'memo') and d.state in ('approving', 'changesRequested')
            and d.department_id is not null
            and ${inDepartments(sql`d.department_id`, departments)} and ${seen(scope)}
          group by d.department_id, d.state`,
  );
}

/** Who the open work tallies answer for: every task (null), or the tasks of one archive office's documents up to a rank. */
export type Held = { archive: number; clearance: number } | null;

/** An overdue count per department and employee holding the tasks. */
export type OverdueRow = { department_id: number; employee_id: number; n: number };

/**
 * Open tasks past their date (task_date before `today`) per department and holder, from the open work
 * tallies (migration 0022): the dated open tasks tallied, less those not yet due (task_date from `today`
 * on, a range of tasks_open_idx, few). Of every task (`held` null, an administrator) or of one archive
 * office's documents up to a rank (exactly the office arm of the visibility predicate).
 */
export function overdueTallied(db: Tx, held: Held, departments: readonly number[] | null, today: string) {
  const tallyHeld = held
    ? sql`t.archive = ${held.archive} and t.security_rank <= ${held.clearance}`
    : sql`true`;
  const taskHeld = held
    ? sql`t.document_archive = ${held.archive} and t.document_rank <= ${held.clearance}`
    : sql`true`;
  return rowsOf<OverdueRow>(
    db,
    sql`select x.department_id, x.employee_id, sum(x.n)::int as n
        from (select t.department as department_id, t.employee as employee_id, sum(t.n) as n
                from task_tallies t
                where t.dated and ${tallyHeld} and ${inDepartments(sql`t.department`, departments)}
                group by 1, 2
              union all
              select t.department_id, t.employee_id, -count(*)
                from tasks t
                where t.state <> 'completed' and t.task_date >= ${today}::date and ${taskHeld}
                  and ${inDepartments(sql`t.department_id`, departments)}
                group by 1, 2) x
        group by 1, 2
        having sum(x.n) <> 0`,
  );
}

/**
 * Open tasks past their date per department and holder, counted over the documents a caller sees little of
 * (`seenFrom`): each candidate's tasks, joined as PostgreSQL plans it (an administrator's and an office's
 * are tallied instead). It does not keep to a probe per candidate: for a department manager at a million
 * documents it joins, 12 ms, where probes held by an `offset 0` fence took 99 ms (bench/dashboards).
 */
export function overdueCounted(
  db: Tx,
  seenIn: { candidates: SQL; which: SQL },
  departments: readonly number[] | null,
  today: string,
) {
  return rowsOf<OverdueRow>(
    db,
    sql`select t.department_id, t.employee_id, count(*)::int as n
        from (${seenIn.candidates}) c (id)
        join documents d on d.id = c.id
        cross join lateral (
          select t.department_id, t.employee_id from tasks t
          where t.document_id = c.id and t.state <> 'completed' and t.task_date < ${today}::date
            and ${inDepartments(sql`t.department_id`, departments)}) t
        where ${seenIn.which}
        group by 1, 2`,
  );
}

/** Both names of employees, by id. */
export function employeeNames(db: Tx, ids: readonly number[]) {
  if (!ids.length) return Promise.resolve([]);
  return rowsOf<{ id: number; name_ar: string; name_en: string }>(
    db,
    sql`select e.id, e.first_name_ar || ' ' || e.last_name_ar as name_ar,
          e.first_name_en || ' ' || e.last_name_en as name_en
        from employees e where e.id in ${inList(ids)} order by e.id`,
  );
}

/** Approval steps whose turn it is, per person (users of the departments' employees). */
export function approvalsByPerson(db: Tx, scope: Scope, departments: readonly number[] | null) {
  return rowsOf<{ id: number; name_ar: string; name_en: string; n: number }>(
    db,
    sql`select u.id, u.name_ar, u.name_en, c.n
        from (select m.user_id, count(*)::int as n
                from approval_members m join documents d on d.id = m.document_id
                where m.pending and d.state = 'approving' and ${seen(scope)}
                group by m.user_id) c
        join users u on u.id = c.user_id
        left join employees e on e.id = u.employee_id
        where ${departments === null ? sql`true` : inDepartments(sql`e.department_id`, departments)}
        order by c.n desc, u.id`,
  );
}

/** The average days (and how many) from a task's assignment to its completion, completed in the period. */
export async function taskTurnaround(
  db: Tx,
  scope: Scope,
  departments: readonly number[] | null,
  from: string,
  to: string,
) {
  const done = documentsOf(scope, sql`t.document_id`);
  const [row] = await rowsOf<{ avg_days: string | null; n: number }>(
    db,
    sql`select avg(extract(epoch from t.completed_at - t.created_at) / 86400)::text as avg_days, count(*)::int as n
        from tasks t ${done.join}
        where t.state = 'completed' and ${withinDays(sql`t.completed_at`, from, to)}
          and ${inDepartments(sql`t.department_id`, departments)} and ${done.where}`,
  );
  return row!;
}

/**
 * The average days (and how many) from an incoming letter's registration to the dispatch of its reply,
 * answered in the period; for departments, letters they received for action.
 */
export async function replyTurnaround(
  db: Tx,
  scope: Scope,
  departments: readonly number[] | null,
  from: string,
  to: string,
) {
  const forDepartments =
    departments === null
      ? sql`true`
      : sql`exists (select 1 from distributions x where x.document_id = d.id and x.type = 'forAction'
          and ${inDepartments(sql`x.department_id`, departments)})`;
  const [row] = await rowsOf<{ avg_days: string | null; n: number }>(
    db,
    sql`select avg(extract(epoch from d.reply_done_at - d.registered_at) / 86400)::text as avg_days,
          count(*)::int as n
        from documents d
        where d.direction = 'in' and d.state = 'registered' and d.reply_document_id is not null
          and ${withinDays(sql`d.reply_done_at`, from, to)} and ${forDepartments} and ${seen(scope)}`,
  );
  return row!;
}

// ---------------------------------------------------------------- organisation

/**
 * Filed documents counted three ways at once (the three charts of the organisation's dashboard), one
 * grouping set each: per month (`YYYY-MM`) and direction (`by` 'month'), per department and direction
 * ('department'; null: none), per codification ('codification'; null: none). The database sums the
 * rows of a year (some 25,000 tally rows for an administrator) into the few hundred the charts draw:
 * sending them all and summing here took three times as long (bench/dashboards).
 */
export type VolumeRow = {
  by: 'month' | 'department' | 'codification';
  month: string | null;
  direction: string | null;
  department_id: number | null;
  codification_id: number | null;
  n: number;
};

/** The grouping sets of VolumeRow over a relation `v` (month, direction, department_id, codification_id, n). */
function volumeSets(rows: SQL): SQL {
  return sql`select case grouping(v.month, v.direction, v.department_id, v.codification_id)
                      when 3 then 'month' when 9 then 'department' else 'codification' end as by,
                    v.month, v.direction, v.department_id, v.codification_id, sum(v.n)::int as n
               from (${rows}) v
              group by grouping sets ((v.month, v.direction), (v.department_id, v.direction), (v.codification_id))
             having sum(v.n) <> 0`;
}

/**
 * Filed documents registered in the days `from` … `to` that `which` admits (a predicate over `documents d`),
 * as VolumeRows (month in UTC; department: the recipient of an incoming letter, else the document's own);
 * optionally of one department only.
 */
export function volumes(db: Tx, which: SQL, from: string, to: string, departmentId: number | null) {
  return rowsOf<VolumeRow>(
    db,
    volumeSets(sql`select to_char(d.registered_at at time zone 'UTC', 'YYYY-MM') as month, d.direction,
          ${docDepartment} as department_id, d.codification_id, 1 as n
        from documents d
        where d.direction in ('in', 'out', 'internal', 'memo') and d.state in ('registered', 'approved')
          and ${withinDays(sql`d.registered_at`, from, to)}
          and ${departmentId === null ? sql`true` : sql`${docDepartment} = ${departmentId}`}
          and ${which}`),
  );
}

/**
 * The same VolumeRows for the whole months `fromMonth` … `toMonth` (first days) from the tallies
 * (migration 0021): of one archive office's documents up to a security rank, or (both null) of every
 * document.
 */
export function tallied(
  db: Tx,
  fromMonth: string,
  toMonth: string,
  office: { archive: number; clearance: number } | null,
  departmentId: number | null,
) {
  // Grouped by the tally's own columns (its index holds them all), formatted once per row out: a
  // subquery formatting each of a year's 25,000 rows first took twice as long.
  return rowsOf<VolumeRow>(
    db,
    sql`select case grouping(t.month, t.direction, t.department, t.codification)
                 when 3 then 'month' when 9 then 'department' else 'codification' end as by,
               to_char(t.month, 'YYYY-MM') as month, t.direction, nullif(t.department, 0) as department_id,
               nullif(t.codification, 0) as codification_id, sum(t.n)::int as n
          from dashboard_tallies t
         where t.month >= ${fromMonth}::date and t.month <= ${toMonth}::date
           and ${office === null ? sql`true` : sql`t.archive = ${office.archive} and t.security_rank <= ${office.clearance}`}
           and ${departmentId === null ? sql`true` : sql`t.department = ${departmentId}`}
         group by grouping sets ((t.month, t.direction), (t.department, t.direction), (t.codification))
        having sum(t.n) <> 0`,
  );
}

/** Both names of departments, by id. */
export function departmentNames(db: Tx, ids: readonly number[]) {
  if (!ids.length) return Promise.resolve([]);
  return rowsOf<{ id: number; name_ar: string; name_en: string }>(
    db,
    sql`select id, name_ar, name_en from departments where id in ${inList(ids)} order by id`,
  );
}

/** Both names of codifications, by id. */
export function codificationNames(db: Tx, ids: readonly number[]) {
  if (!ids.length) return Promise.resolve([]);
  return rowsOf<{ id: number; name_ar: string; name_en: string }>(
    db,
    sql`select id, name_ar, name_en from correspondence_settings where id in ${inList(ids)} order by id`,
  );
}
