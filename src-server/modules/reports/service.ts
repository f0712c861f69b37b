/**
 * The reports (issue 30; docs/reports.md): volumes, overdue items, approval turnaround and task completion
 * over a period and filters, as columns and rows of cells. One definition per report serves the table
 * (a page of rows) and the exports (every row, a batch at a time: `batches`), so what is shown and what is
 * exported cannot disagree. Text cells are in the language asked for; days are working days on the
 * organisation's calendar (deadline settings and holidays, db/calendar.ts), overdue items judged on the
 * organisation's day (correspondence/due.ts `todayOf`).
 */
import type {
  Report,
  ReportCell,
  ReportColumn,
  ReportFilters,
  ReportName,
} from '../../../src-shared/api/reports';
import type { Locale } from '../../../src-shared/locale';
import { dayNumber, workingDaysBetween, type WorkingCalendar } from '../../../src-shared/working-days';
import { loadWorkingCalendar, overdueWorkingDays } from '../../db/calendar';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import { translate } from '../../i18n';
import type { Tx } from '../auth/queries';
import { scope as scopeOfCaller } from '../correspondence/common';
import { todayOf } from '../correspondence/due';
import { scopeOfUser, type Scope } from '../correspondence/visibility';
import * as q from './queries';

/** The longest period a report covers (three years and a day or so: leap years). */
export const MAX_PERIOD_DAYS = 3 * 366;
/** Rows the table answers unless told, and at most. */
export const DEFAULT_PAGE = 500;
/** Rows read per query while exporting (one page in memory at a time). */
export const EXPORT_BATCH = 5000;

/** The period makes sense: `from` on or before `to`, no longer than MAX_PERIOD_DAYS. */
export function checkPeriod(f: ReportFilters): void {
  const span = dayNumber(f.to) - dayNumber(f.from);
  if (span < 0 || span >= MAX_PERIOD_DAYS)
    throw new HttpProblem('unprocessable', {
      detailKey: 'reports.period',
      code: 'reports.period',
      params: { days: MAX_PERIOD_DAYS },
    });
}

/** A report ready to be read: its columns, how many rows, a page of them, or all of them in batches. */
export interface ReportRun {
  report: ReportName;
  columns: ReportColumn[];
  today: string;
  total(): Promise<number>;
  page(offset: number, limit: number): Promise<ReportCell[][]>;
  batches(): AsyncGenerator<ReportCell[][]>;
}

const name = (lang: Locale, ar: string | null, en: string | null): string | null =>
  (lang === 'ar' ? (ar ?? en) : (en ?? ar)) ?? null;
const word = (lang: Locale, key: string) => translate(lang, `reports.${key}`);

const col = (key: string, type: ReportColumn['type']): ReportColumn => ({ key, type });

/** Reads every page of a keyset-paged query, a batch at a time. */
async function* keyset<R, K>(
  read: (page: q.Page<K>) => Promise<R[]>,
  keyOf: (row: R) => K,
  cells: (row: R) => ReportCell[],
): AsyncGenerator<ReportCell[][]> {
  let after: K | undefined;
  for (;;) {
    const rows = await read({ after, limit: EXPORT_BATCH });
    if (rows.length) yield rows.map(cells);
    if (rows.length < EXPORT_BATCH) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/** A report whose rows are few (an aggregate): read whole, sliced for the table. */
function whole(
  report: ReportName,
  columns: ReportColumn[],
  today: string,
  read: () => Promise<ReportCell[][]>,
) {
  let rows: Promise<ReportCell[][]> | undefined;
  const all = () => (rows ??= read());
  return {
    report,
    columns,
    today,
    total: async () => (await all()).length,
    page: async (offset: number, limit: number) => (await all()).slice(offset, offset + limit),
    async *batches() {
      yield await all();
    },
  } satisfies ReportRun;
}

function volumesRun(db: Tx, scope: Scope, f: ReportFilters, lang: Locale, today: string): ReportRun {
  const columns = [
    col('month', 'month'),
    col('direction', 'text'),
    col('department', 'text'),
    col('codification', 'text'),
    col('documents', 'number'),
    col('completed', 'number'),
  ];
  return whole('volumes', columns, today, async () =>
    (await q.volumes(db, scope, f)).map((r) => [
      r.month,
      word(lang, `direction.${r.direction}`),
      name(lang, r.department_ar, r.department_en),
      name(lang, r.codification_ar, r.codification_en),
      r.documents,
      r.completed,
    ]),
  );
}

function overdueRun(
  db: Tx,
  scope: Scope,
  f: ReportFilters,
  lang: Locale,
  today: string,
  cal: WorkingCalendar,
): ReportRun {
  const columns = [
    col('kind', 'text'),
    col('docNumber', 'text'),
    col('subject', 'text'),
    col('direction', 'text'),
    col('department', 'text'),
    col('person', 'text'),
    col('dueOn', 'date'),
    col('daysLate', 'days'),
  ];
  const cells = (r: q.OverdueRow): ReportCell[] => [
    word(lang, `kind.${r.kind}`),
    r.doc_number,
    r.subject,
    word(lang, `direction.${r.direction}`),
    name(lang, r.department_ar, r.department_en),
    name(lang, r.person_ar, r.person_en),
    r.due_on,
    // A due date passed is a day late at least (as the boxes say it, correspondence/due.ts).
    Math.max(1, overdueWorkingDays(cal, r.due_on, today)),
  ];
  return {
    report: 'overdue',
    columns,
    today,
    total: () => q.overdueCount(db, scope, f, today),
    page: async (offset, limit) => (await q.overduePage(db, scope, f, today, { offset, limit })).map(cells),
    batches: () => keyset((p) => q.overduePage(db, scope, f, today, p), q.overdueKeyOf, cells),
  };
}

function approvalRun(
  db: Tx,
  scope: Scope,
  f: ReportFilters,
  lang: Locale,
  today: string,
  cal: WorkingCalendar,
): ReportRun {
  const columns = [
    col('docNumber', 'text'),
    col('subject', 'text'),
    col('direction', 'text'),
    col('approver', 'text'),
    col('department', 'text'),
    col('step', 'number'),
    col('activatedOn', 'date'),
    col('dueOn', 'date'),
    col('decidedOn', 'date'),
    col('decision', 'text'),
    col('days', 'days'),
  ];
  const cells = (r: q.ApprovalStepRow): ReportCell[] => [
    r.doc_number,
    r.subject,
    word(lang, `direction.${r.direction}`),
    name(lang, r.approver_ar, r.approver_en),
    name(lang, r.department_ar, r.department_en),
    r.position,
    r.activated_on,
    r.due_on,
    r.decided_on,
    word(lang, `decision.${r.decision ?? 'waiting'}`),
    // Working days it waited: from the day it reached them to the day they decided (or today).
    Math.max(0, workingDaysBetween(r.activated_on, r.decided_on ?? today, cal)),
  ];
  return {
    report: 'approval-turnaround',
    columns,
    today,
    total: () => q.approvalStepsCount(db, scope, f),
    page: async (offset, limit) => (await q.approvalStepsPage(db, scope, f, { offset, limit })).map(cells),
    batches: () => keyset((p) => q.approvalStepsPage(db, scope, f, p), q.stepKeyOf, cells),
  };
}

function taskRun(
  db: Tx,
  scope: Scope,
  f: ReportFilters,
  lang: Locale,
  today: string,
  cal: WorkingCalendar,
): ReportRun {
  const columns = [
    col('employee', 'text'),
    col('department', 'text'),
    col('assigned', 'number'),
    col('completed', 'number'),
    col('onTime', 'number'),
    col('late', 'number'),
    col('open', 'number'),
    col('overdue', 'number'),
    col('onTimeShare', 'percent'),
    col('averageDays', 'days'),
  ];
  return whole('task-completion', columns, today, async () => {
    type Tally = {
      employee: string | null;
      department: string | null;
      assigned: number;
      completed: number;
      onTime: number;
      open: number;
      overdue: number;
      days: number;
    };
    const byEmployee = new Map<number, Tally>();
    let afterId = 0;
    for (;;) {
      const rows = await q.tasksPage(db, scope, f, afterId, EXPORT_BATCH);
      for (const r of rows) {
        let t = byEmployee.get(r.employee_id);
        if (!t) {
          t = {
            employee: name(lang, r.employee_ar, r.employee_en),
            department: name(lang, r.department_ar, r.department_en),
            assigned: 0,
            completed: 0,
            onTime: 0,
            open: 0,
            overdue: 0,
            days: 0,
          };
          byEmployee.set(r.employee_id, t);
        }
        t.assigned++;
        if (r.completed_on !== null) {
          t.completed++;
          if (r.due_on === null || r.completed_on <= r.due_on) t.onTime++;
          t.days += Math.max(0, workingDaysBetween(r.assigned_on, r.completed_on, cal));
        } else {
          t.open++;
          if (r.due_on !== null && r.due_on < today) t.overdue++;
        }
      }
      if (rows.length < EXPORT_BATCH) break;
      afterId = rows[rows.length - 1]!.id;
    }
    const round1 = (n: number) => Math.round(n * 10) / 10;
    return [...byEmployee.values()]
      .sort(
        (a, b) =>
          (a.department ?? '').localeCompare(b.department ?? '', lang) ||
          (a.employee ?? '').localeCompare(b.employee ?? '', lang),
      )
      .map((t) => [
        t.employee,
        t.department,
        t.assigned,
        t.completed,
        t.onTime,
        t.completed - t.onTime,
        t.open,
        t.overdue,
        t.completed ? round1((100 * t.onTime) / t.completed) : null,
        t.completed ? round1(t.days / t.completed) : null,
      ]);
  });
}

/** A report for a scope (the caller's, or the requester's in an export job), in a language. */
export async function runOf(
  ctx: ServerContext,
  scope: Scope,
  report: ReportName,
  f: ReportFilters,
  lang: Locale,
): Promise<ReportRun> {
  checkPeriod(f);
  const today = todayOf(ctx);
  const db = ctx.db;
  if (report === 'volumes') return volumesRun(db, scope, f, lang, today);
  const cal = await loadWorkingCalendar(db);
  if (report === 'overdue') return overdueRun(db, scope, f, lang, today, cal);
  if (report === 'approval-turnaround') return approvalRun(db, scope, f, lang, today, cal);
  return taskRun(db, scope, f, lang, today, cal);
}

/** The scope of an export's requester, read when the job runs (their clearance and posts as they are then). */
export function requesterScope(ctx: ServerContext, userId: number): Promise<Scope> {
  return scopeOfUser(ctx.db, userId, todayOf(ctx));
}

/** GET /reports/{report}: the columns and a page of rows, in the caller's language. */
export async function viewReport(
  ctx: ServerContext,
  caller: AuthContext,
  report: ReportName,
  query: ReportFilters & { offset?: number; limit?: number },
  lang: Locale,
): Promise<Report> {
  const { offset = 0, limit = DEFAULT_PAGE, ...filters } = query;
  const scope = await scopeOfCaller(ctx, caller);
  const run = await runOf(ctx, scope, report, filters, lang);
  const [rows, total] = await Promise.all([run.page(offset, limit), run.total()]);
  return {
    report,
    from: filters.from,
    to: filters.to,
    asOf: ctx.clock.now().toISOString(),
    columns: run.columns,
    rows,
    total,
  };
}
