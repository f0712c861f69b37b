/**
 * The reports (issue 30; docs/reports.md): volumes, overdue items, approval turnaround and task completion
 * over a period and filters, as columns and rows of cells. One definition per report serves the table
 * (a page of rows) and the exports (every row, a batch at a time through a cursor: `toExport`), so what is
 * shown and what is exported cannot disagree. Text cells are in the language asked for; days are working
 * days on the organisation's calendar (deadline settings and holidays, db/calendar.ts), overdue items
 * judged on the organisation's day (correspondence/due.ts `todayOf`).
 */
import type { SQL } from 'drizzle-orm';
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
/** Rows fetched at a time while exporting (one batch in memory at a time). */
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

/** Every row of a report, for an export: how many, then the rows a batch at a time. */
export interface ExportRows {
  total: number;
  batches: AsyncIterable<ReportCell[][]>;
}

/** A report ready to be read: its columns, how many rows, a page of them, or all of them in batches. */
export interface ReportRun {
  report: ReportName;
  columns: ReportColumn[];
  today: string;
  total(): Promise<number>;
  page(offset: number, limit: number): Promise<ReportCell[][]>;
  /**
   * Every row for an export: `write` gets how many and the rows a batch at a time, and what it answers is
   * answered; the rows are read while it runs (a long report's cursor stays open until it settles).
   */
  toExport<T>(write: (rows: ExportRows) => Promise<T>): Promise<T>;
}

const name = (lang: Locale, ar: string | null, en: string | null): string | null =>
  (lang === 'ar' ? (ar ?? en) : (en ?? ar)) ?? null;

/**
 * The report's words in a language (`reports.<key>`), each translated once: a report of 100,000 rows says
 * "task" and "incoming" 100,000 times.
 */
function wordsOf(lang: Locale): (key: string) => string {
  const known = new Map<string, string>();
  return (key) => {
    let text = known.get(key);
    if (text === undefined) known.set(key, (text = translate(lang, `reports.${key}`)));
    return text;
  };
}

/** `f` of two days remembered (a year's rows fall on a few hundred days: each pair is counted once). */
function byDays(f: (a: string, b: string) => number): (a: string, b: string) => number {
  const known = new Map<string, number>();
  return (a, b) => {
    const key = `${a}/${b}`;
    let n = known.get(key);
    if (n === undefined) known.set(key, (n = f(a, b)));
    return n;
  };
}

const col = (key: string, type: ReportColumn['type']): ReportColumn => ({ key, type });

/**
 * Where a report is read: on PostgreSQL one read-only transaction, which keeps an export's cursor
 * statements on the one pooled connection the cursor lives on (the pool's connections have JIT off,
 * db/open.ts: it cost 5.5 s of a 100,000-row export, measured by bench/reports-export). On PGlite
 * (no JIT) the database itself: its one connection serves every request in turn, and a transaction would
 * hold them out for a whole export (the cursor is declared WITH HOLD, queries.ts `inBatches`).
 */
function readReport<T>(ctx: ServerContext, read: (db: Tx) => Promise<T>): Promise<T> {
  if (!ctx.config.DATABASE_URL) return read(ctx.db);
  return ctx.db.transaction(read, { accessMode: 'read only' });
}

/**
 * A long report's rows for an export, through a cursor over its query (queries.ts `inBatches`, rows as
 * `ExportRow`s of the row type R): the first batch tells how many rows there are, then each batch is turned
 * into cells as it is written.
 */
function cursorExport<R, T>(
  ctx: ServerContext,
  query: SQL,
  cells: (row: R) => ReportCell[],
  write: (rows: ExportRows) => Promise<T>,
): Promise<T> {
  return readReport(ctx, async (db) => {
    const reading = q.inBatches<q.ExportRow>(db, query, EXPORT_BATCH);
    const cellsOf = (rows: q.ExportRow[]) => rows.map((r) => cells(JSON.parse(r.row) as R));
    try {
      const first = await reading.next();
      async function* batches() {
        if (first.done) return;
        yield cellsOf(first.value);
        for await (const rows of reading) yield cellsOf(rows);
      }
      return await write({ total: first.done ? 0 : first.value[0]!.total, batches: batches() });
    } finally {
      // Closes the cursor when the writer stopped early (a PDF refused, a job cancelled).
      await reading.return();
    }
  });
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
    toExport: async <T>(write: (rows: ExportRows) => Promise<T>) => {
      const rows = await all();
      return write({
        total: rows.length,
        batches: (async function* () {
          yield rows;
        })(),
      });
    },
  } satisfies ReportRun;
}

function volumesRun(
  ctx: ServerContext,
  scope: Scope,
  f: ReportFilters,
  lang: Locale,
  today: string,
): ReportRun {
  const columns = [
    col('month', 'month'),
    col('direction', 'text'),
    col('department', 'text'),
    col('codification', 'text'),
    col('documents', 'number'),
    col('completed', 'number'),
  ];
  const word = wordsOf(lang);
  return whole('volumes', columns, today, async () =>
    (await readReport(ctx, (db) => q.volumes(db, scope, f))).map((r) => [
      r.month,
      word(`direction.${r.direction}`),
      name(lang, r.department_ar, r.department_en),
      name(lang, r.codification_ar, r.codification_en),
      r.documents,
      r.completed,
    ]),
  );
}

function overdueRun(
  ctx: ServerContext,
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
  const word = wordsOf(lang);
  const daysLate = byDays((due, day) => overdueWorkingDays(cal, due, day));
  const cells = (r: q.OverdueRow): ReportCell[] => [
    word(`kind.${r.kind}`),
    r.doc_number,
    r.subject,
    word(`direction.${r.direction}`),
    name(lang, r.department_ar, r.department_en),
    name(lang, r.person_ar, r.person_en),
    r.due_on,
    // A due date passed is a day late at least (as the boxes say it, correspondence/due.ts).
    Math.max(1, daysLate(r.due_on, today)),
  ];
  return {
    report: 'overdue',
    columns,
    today,
    total: () => readReport(ctx, (db) => q.overdueCount(db, scope, f, today)),
    page: async (offset, limit) =>
      (await readReport(ctx, (db) => q.overduePage(db, scope, f, today, { offset, limit }))).map(cells),
    toExport: (write) => cursorExport(ctx, q.overdueExport(scope, f, today), cells, write),
  };
}

function approvalRun(
  ctx: ServerContext,
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
  const word = wordsOf(lang);
  const waited = byDays((from, to) => workingDaysBetween(from, to, cal));
  const cells = (r: q.ApprovalStepRow): ReportCell[] => [
    r.doc_number,
    r.subject,
    word(`direction.${r.direction}`),
    name(lang, r.approver_ar, r.approver_en),
    name(lang, r.department_ar, r.department_en),
    r.position,
    r.activated_on,
    r.due_on,
    r.decided_on,
    word(`decision.${r.decision ?? 'waiting'}`),
    // Working days it waited: from the day it reached them to the day they decided (or today).
    Math.max(0, waited(r.activated_on, r.decided_on ?? today)),
  ];
  return {
    report: 'approval-turnaround',
    columns,
    today,
    total: () => readReport(ctx, (db) => q.approvalStepsCount(db, scope, f)),
    page: async (offset, limit) =>
      (await readReport(ctx, (db) => q.approvalStepsPage(db, scope, f, { offset, limit }))).map(cells),
    toExport: (write) => cursorExport(ctx, q.approvalStepsExport(scope, f), cells, write),
  };
}

function taskRun(
  ctx: ServerContext,
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
  return whole('task-completion', columns, today, () =>
    readReport(ctx, async (db) => {
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
      const took = byDays((from, to) => workingDaysBetween(from, to, cal));
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
            t.days += Math.max(0, took(r.assigned_on, r.completed_on));
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
    }),
  );
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
  if (report === 'volumes') return volumesRun(ctx, scope, f, lang, today);
  const cal = await loadWorkingCalendar(ctx.db);
  if (report === 'overdue') return overdueRun(ctx, scope, f, lang, today, cal);
  if (report === 'approval-turnaround') return approvalRun(ctx, scope, f, lang, today, cal);
  return taskRun(ctx, scope, f, lang, today, cal);
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
