/**
 * The dashboards (issue 30, docs/dashboards.md): the archive clerk's, a manager's and the organisation's
 * figures and charts, each with the list that shows the documents behind it. Decisions where the issue was
 * silent:
 * - Every count is over the documents the caller's visibility admits (security rank included): "the
 *   organisation" is, for each viewer, everything they may see — all of it for an administrator, their
 *   archive office's documents for a clerk, what reached their departments for a manager.
 * - A manager's departments are those they receive for (led as manager or secretary, and their own);
 *   an administrator's are every department. `departmentId` narrows to one of them (another: 403).
 * - "This week" is the seven days through today; "overdue" is an open task past its date; a letter is
 *   "answered" when an outgoing reply related to it was dispatched.
 * - Days are the organisation's (today) and the UTC days of instants (the boxes' date ranges use them).
 * All the queries of one dashboard read one snapshot (a read-only repeatable-read transaction).
 */
import { sql } from 'drizzle-orm';
import { addDays } from '../../../src-shared/working-days';
import {
  ARCHIVE_FIGURES,
  DIRECTIONS,
  OPEN_ITEM_STATES,
  type Category,
  type Chart,
  type Dashboard,
  type DashboardQuery,
  type Drill,
  type Figure,
} from '../../../src-shared/api/dashboards';
import { DEFAULT_DATE_RANGE_DAYS } from '../../../src-shared/api/correspondence';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import type { Tx } from '../auth/queries';
import { scope as scopeOfCaller } from '../correspondence/common';
import { todayOf } from '../correspondence/due';
import { receivingDepartments, type Scope } from '../correspondence/visibility';
import * as q from './queries';

/** The longest period a dashboard counts (days): ten years. */
const MAX_PERIOD_DAYS = 3661;

const badPeriod = () =>
  new HttpProblem('unprocessable', {
    detailKey: 'dashboards.badPeriod',
    code: 'dashboards.badPeriod',
    fields: { from: [{ key: 'dashboards.badPeriod' }] },
  });

/** Whole days from `a` to `b`. */
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

/** The period asked for, or the default one ending today (`defaultDays` long, or from a month's start). */
export function periodOf(
  query: DashboardQuery,
  today: string,
  defaultFrom: string,
): { from: string; to: string } {
  const to = query.to ?? today;
  const from = query.from ?? (query.to ? addDays(to, -(DEFAULT_DATE_RANGE_DAYS - 1)) : defaultFrom);
  if (from > to || daysBetween(from, to) > MAX_PERIOD_DAYS) throw badPeriod();
  return { from, to };
}

/** The first day of the month eleven months before `today`'s: twelve whole months through today. */
export function twelveMonthsFrom(today: string): string {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1 - 11, 1));
  return first.toISOString().slice(0, 10);
}

/** The months `YYYY-MM` from `from`'s through `to`'s. */
export function monthsOf(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (;;) {
    const key = `${y}-${String(m).padStart(2, '0')}`;
    out.push(key);
    if (key >= last) return out;
    m += 1;
    if (m > 12) [y, m] = [y + 1, 1];
  }
}

/** The days `from` … `to`. */
function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** A month's last day. */
function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

const box = (name: Drill['box'], filters: Drill['filters'] = {}): Drill => ({
  to: 'box',
  box: name,
  filters,
});
const search = (filters: Drill['filters']): Drill => ({ to: 'search', filters });
const count = (key: string, value: number, drill: Drill): Figure => ({ key, value, unit: 'count', drill });
const plain = (key: string): Category => ({ key, labelAr: key, labelEn: key });
/** Days to one decimal (0 when nothing was counted). */
const days = (avg: string | null) => (avg === null ? 0 : Math.round(Number(avg) * 10) / 10);

/**
 * Runs a dashboard's reads in one snapshot (without JIT, as every statement of the server: db/open.ts; it
 * compiled these short counts for hundreds of milliseconds each, measured by bench/dashboards).
 */
function snapshot<T>(ctx: ServerContext, read: (tx: Tx) => Promise<T>): Promise<T> {
  return ctx.db.transaction(read, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

const asOf = (ctx: ServerContext) => ctx.clock.now().toISOString();

// ---------------------------------------------------------------- archive

/** The archive clerk's dashboard. */
export async function archiveDashboard(
  ctx: ServerContext,
  caller: AuthContext,
  query: DashboardQuery,
): Promise<Dashboard> {
  const today = todayOf(ctx);
  const { from, to } = periodOf(query, today, addDays(today, -(DEFAULT_DATE_RANGE_DAYS - 1)));
  const weekFrom = addDays(today, -6);
  const s = await scopeOfCaller(ctx, caller);
  const [counts, byDay] = await snapshot(ctx, async (tx) => [
    await q.archiveCounts(tx, s, today, weekFrom),
    await q.registeredByDay(tx, s, from, to),
  ]);
  const values: Record<(typeof ARCHIVE_FIGURES)[number], [number, Drill]> = {
    registeredToday: [counts.registered_today, box('incoming', { fromDate: today, toDate: today })],
    registeredThisWeek: [counts.registered_week, box('incoming', { fromDate: weekFrom, toDate: today })],
    awaitingDistribution: [counts.awaiting_distribution, search({ direction: 'in', state: 'registered' })],
    awaitingDispatch: [counts.awaiting_dispatch, box('outgoing', { view: 'notCompleted' })],
  };
  const figures = ARCHIVE_FIGURES.map((key) => count(key, values[key][0], values[key][1]));
  const dayKeys = daysOf(from, to);
  const at = new Map(byDay.map((r) => [`${r.day}|${r.direction}`, r.n]));
  const chart: Chart = {
    key: 'registeredByDay',
    kind: 'stackedBar',
    categories: dayKeys.map(plain),
    series: DIRECTIONS.map((dir) => ({ key: dir, values: dayKeys.map((d) => at.get(`${d}|${dir}`) ?? 0) })),
    drill: DIRECTIONS.map((dir) =>
      dayKeys.map((d) => search({ state: 'filed', direction: dir, fromDate: d, toDate: d })),
    ),
  };
  return { asOf: asOf(ctx), from, to, figures, charts: [chart] };
}

// ---------------------------------------------------------------- manager

/**
 * The departments a manager's dashboard counts: every one for an administrator (null), else those the
 * caller receives for; one of them when asked (403 for another).
 */
export function managerDepartments(s: Scope, departmentId: number | undefined): number[] | null {
  const mine = s.isAdmin ? null : receivingDepartments(s);
  if (departmentId === undefined) return mine;
  if (mine !== null && !mine.includes(departmentId)) throw new HttpProblem('forbidden');
  return [departmentId];
}

/**
 * The most people a chart of people shows (the most overdue, the most approvals waiting): an
 * administrator's would otherwise draw thousands of bars. Its figure counts everyone.
 */
export const PEOPLE_IN_CHART = 20;

/** Sums rows' `n` per key. */
function sumBy<R extends { n: number }, K>(rows: readonly R[], key: (r: R) => K): Map<K, number> {
  const out = new Map<K, number>();
  for (const r of rows) {
    const k = key(r);
    out.set(k, (out.get(k) ?? 0) + r.n);
  }
  return out;
}

/**
 * Overdue tasks per department and holder as the caller sees them. An administrator's are tallied; an
 * archive office's clerk's likewise for their office's documents (up to their clearance), and those they see
 * on other documents (received, tasked, created, in a circuit) are counted apart; anyone else's are counted
 * (what they see is small). The parts never overlap (docs/dashboards.md, "Speed").
 */
async function overdueOf(
  tx: Tx,
  s: Scope,
  departments: readonly number[] | null,
  today: string,
): Promise<q.OverdueRow[]> {
  if (s.isAdmin) return q.overdueTallied(tx, null, departments, today);
  const office = s.archiveDepartmentId;
  if (office === null) return q.overdueCounted(tx, q.seenFrom(s), departments, today);
  return [
    ...(await q.overdueTallied(tx, { archive: office, clearance: s.clearance }, departments, today)),
    ...(await q.overdueCounted(tx, q.seenFrom(s, office), departments, today)),
  ];
}

/** A manager's dashboard. */
export async function managerDashboard(
  ctx: ServerContext,
  caller: AuthContext,
  query: DashboardQuery,
): Promise<Dashboard> {
  const today = todayOf(ctx);
  const { from, to } = periodOf(query, today, addDays(today, -(DEFAULT_DATE_RANGE_DAYS - 1)));
  const s = await scopeOfCaller(ctx, caller);
  const deps = managerDepartments(s, query.departmentId);
  const [open, overdueRows, approvals, tasks, replies] = await snapshot(ctx, async (tx) => [
    await q.openItemsByState(tx, s, deps),
    await overdueOf(tx, s, deps, today),
    await q.approvalsByPerson(tx, s, deps),
    await q.taskTurnaround(tx, s, deps, from, to),
    await q.replyTurnaround(tx, s, deps, from, to),
  ]);
  const perEmployee = sumBy(overdueRows, (r) => r.employee_id);
  // The chart's people: the most overdue first (then by id), at most PEOPLE_IN_CHART.
  const mostOverdue = [...perEmployee].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, PEOPLE_IN_CHART);
  const depIds = [...new Set([...(deps ?? []), ...open.map((r) => r.department_id)])].sort((a, b) => a - b);
  const [names, people] = await Promise.all([
    q.departmentNames(ctx.db, depIds),
    q.employeeNames(
      ctx.db,
      mostOverdue.map(([id]) => id),
    ),
  ]);
  const personOf = new Map(people.map((e) => [e.id, e]));
  const overdue = mostOverdue.map(([id, n]) => ({ ...personOf.get(id)!, id, n }));
  const chartApprovals = approvals.slice(0, PEOPLE_IN_CHART);
  const depCats: Category[] = names.map((d) => ({
    key: String(d.id),
    labelAr: d.name_ar,
    labelEn: d.name_en,
  }));
  const at = new Map(open.map((r) => [`${r.department_id}|${r.state}`, r.n]));
  const stateDrill = (state: string, departmentId: number): Drill =>
    state === 'approving' || state === 'changesRequested'
      ? search({ state, departmentId })
      : state === 'unassigned'
        ? box('incoming', { view: 'notCompleted', distributionType: 'forAction' })
        : box('incoming', { view: 'notCompleted', taskState: state });
  const openByState: Chart = {
    key: 'openByState',
    kind: 'stackedBar',
    categories: depCats,
    series: OPEN_ITEM_STATES.map((st) => ({
      key: st,
      values: names.map((d) => at.get(`${d.id}|${st}`) ?? 0),
    })),
    drill: OPEN_ITEM_STATES.map((st) => names.map((d) => stateDrill(st, d.id))),
  };
  const overdueDrill = box('incoming-tasks', { dueState: 'overdue' });
  const overdueByEmployee: Chart = {
    key: 'overdueByEmployee',
    kind: 'bar',
    categories: overdue.map((e) => ({ key: String(e.id), labelAr: e.name_ar, labelEn: e.name_en })),
    series: [{ key: 'overdue', values: overdue.map((e) => e.n) }],
    drill: [overdue.map(() => overdueDrill)],
  };
  const waitingDrill = search({ state: 'approving' });
  const approvalsByPerson: Chart = {
    key: 'approvalsByPerson',
    kind: 'bar',
    categories: chartApprovals.map((u) => ({ key: String(u.id), labelAr: u.name_ar, labelEn: u.name_en })),
    series: [{ key: 'waiting', values: chartApprovals.map((u) => u.n) }],
    drill: [chartApprovals.map(() => waitingDrill)],
  };
  const sum = (xs: { n: number }[]) => xs.reduce((a, x) => a + x.n, 0);
  const completed = { view: 'completed', fromDate: from, toDate: to };
  const figures: Figure[] = [
    count('openItems', sum(open), box('incoming', { view: 'notCompleted' })),
    count('overdueItems', sum(overdueRows), overdueDrill),
    count('approvalsWaiting', sum(approvals), waitingDrill),
    {
      key: 'avgDaysToCompleteTask',
      value: days(tasks.avg_days),
      unit: 'days',
      drill: box('incoming-tasks', completed),
    },
    {
      key: 'avgDaysToAnswerLetter',
      value: days(replies.avg_days),
      unit: 'days',
      drill: box('incoming', completed),
    },
  ];
  return { asOf: asOf(ctx), from, to, figures, charts: [openByState, overdueByEmployee, approvalsByPerson] };
}

// ---------------------------------------------------------------- organisation

/**
 * The whole months within `from` … `to` (their first days; null when none) and the days left at either
 * end, outside whole months.
 */
export function splitMonths(from: string, to: string) {
  const first = from.endsWith('-01') ? from : addDays(monthEnd(from.slice(0, 7)), 1);
  const lastEnd = to === monthEnd(to.slice(0, 7)) ? to : addDays(`${to.slice(0, 7)}-01`, -1);
  if (first > lastEnd) return { whole: null, edges: [{ from, to }] };
  const edges: { from: string; to: string }[] = [];
  if (from < first) edges.push({ from, to: addDays(first, -1) });
  if (to > lastEnd) edges.push({ from: addDays(lastEnd, 1), to });
  return { whole: { from: first, to: `${lastEnd.slice(0, 7)}-01` }, edges };
}

/**
 * The volumes of the period as the caller sees them. An administrator's whole months come from the
 * tallies, the days at the ends are counted; an archive office's clerk's likewise for their office's
 * documents (up to their clearance), and the others they see (created, received, tasked, in a circuit,
 * held elsewhere) are counted apart; anyone else's are counted (what they see is small). The parts never
 * overlap (docs/dashboards.md, "Speed").
 */
async function volumeRows(tx: Tx, s: Scope, from: string, to: string, dep: number | null) {
  const office = s.archiveDepartmentId;
  if (!s.isAdmin && office === null) return q.volumes(tx, q.seenWithin(s, from, to), from, to, dep);
  const held = s.isAdmin ? null : { archive: office!, clearance: s.clearance };
  const heldSql = held
    ? sql`d.archive_department_id = ${held.archive} and d.security_rank <= ${held.clearance}`
    : sql`true`;
  const { whole, edges } = splitMonths(from, to);
  const rows: q.VolumeRow[] = [];
  if (whole) rows.push(...(await q.tallied(tx, whole.from, whole.to, held, dep)));
  for (const edge of edges) {
    const month = edge.from.slice(0, 7);
    const rest = restOfMonth(edge);
    const restDays = rest.reduce((n, r) => n + daysOf(r.from, r.to).length, 0);
    const oneMonth = edge.to.slice(0, 7) === month;
    if (!oneMonth || restDays >= daysOf(edge.from, edge.to).length) {
      rows.push(...(await q.volumes(tx, heldSql, edge.from, edge.to, dep)));
      continue;
    }
    // Most of the month: its tally, less the days outside the period, counted (the current month of
    // the default period: the days after today, where nothing is registered yet).
    rows.push(...(await q.tallied(tx, `${month}-01`, `${month}-01`, held, dep)));
    for (const r of rest)
      for (const row of await q.volumes(tx, heldSql, r.from, r.to, dep)) rows.push({ ...row, n: -row.n });
  }
  if (held) rows.push(...(await q.volumes(tx, q.outsideOffice(s, held.archive), from, to, dep)));
  return rows;
}

/** The days of an edge's month outside the edge (before it, after it). */
function restOfMonth(edge: { from: string; to: string }): { from: string; to: string }[] {
  const first = `${edge.from.slice(0, 7)}-01`;
  const last = monthEnd(edge.from.slice(0, 7));
  return [
    ...(edge.from > first ? [{ from: first, to: addDays(edge.from, -1) }] : []),
    ...(edge.to < last ? [{ from: addDays(edge.to, 1), to: last }] : []),
  ];
}

/** The organisation's dashboard, as far as the caller may see it. */
export async function organisationDashboard(
  ctx: ServerContext,
  caller: AuthContext,
  query: DashboardQuery,
): Promise<Dashboard> {
  const today = todayOf(ctx);
  const { from, to } = periodOf(query, today, twelveMonthsFrom(today));
  const s = await scopeOfCaller(ctx, caller);
  const dep = query.departmentId ?? null;
  const [rows, overdueRows] = await snapshot(ctx, async (tx) => [
    await volumeRows(tx, s, from, to, dep),
    await overdueOf(tx, s, dep === null ? null : [dep], today),
  ]);
  const overdue = [...sumBy(overdueRows, (r) => r.department_id)].map(([department_id, n]) => ({
    department_id,
    n,
  }));
  // The volumes are filed documents: their lists are search's numbered records (state `filed`).
  const scoped = (f: Drill['filters']): Drill['filters'] =>
    dep === null ? { state: 'filed', ...f } : { state: 'filed', ...f, departmentId: dep };
  const period = scoped({ fromDate: from, toDate: to });

  const months = monthsOf(from, to);
  const byMonth = new Map<string, number>();
  const byDep = new Map<string, number>();
  const byCod = new Map<number, number>();
  const byDir = new Map<string, number>();
  const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  for (const r of rows) {
    if (r.by === 'month') {
      add(byMonth, `${r.month}|${r.direction}`, r.n);
      add(byDir, r.direction!, r.n);
    } else if (r.by === 'department') add(byDep, `${r.department_id ?? 0}|${r.direction}`, r.n);
    else if (r.codification_id !== null) add(byCod, r.codification_id, r.n);
  }
  const depIds = [
    ...new Set([
      ...rows.flatMap((r) => (r.by !== 'department' || r.department_id === null ? [] : [r.department_id])),
      ...overdue.map((r) => r.department_id),
    ]),
  ];
  const [depNames, codNames] = await Promise.all([
    q.departmentNames(ctx.db, depIds),
    q.codificationNames(ctx.db, [...byCod.keys()]),
  ]);
  const volumeDeps = depNames.filter((d) => DIRECTIONS.some((dir) => byDep.has(`${d.id}|${dir}`)));
  const cat = (d: { id: number; name_ar: string; name_en: string }): Category => ({
    key: String(d.id),
    labelAr: d.name_ar,
    labelEn: d.name_en,
  });

  const volumesByMonth: Chart = {
    key: 'volumesByMonth',
    kind: 'stackedBar',
    categories: months.map(plain),
    series: DIRECTIONS.map((dir) => ({
      key: dir,
      values: months.map((m) => byMonth.get(`${m}|${dir}`) ?? 0),
    })),
    drill: DIRECTIONS.map((dir) =>
      months.map((m) =>
        search(
          scoped({
            direction: dir,
            fromDate: `${m}-01` < from ? from : `${m}-01`,
            toDate: monthEnd(m) > to ? to : monthEnd(m),
          }),
        ),
      ),
    ),
  };
  const volumesByDepartment: Chart = {
    key: 'volumesByDepartment',
    kind: 'stackedBar',
    categories: volumeDeps.map(cat),
    series: DIRECTIONS.map((dir) => ({
      key: dir,
      values: volumeDeps.map((d) => byDep.get(`${d.id}|${dir}`) ?? 0),
    })),
    drill: DIRECTIONS.map((dir) =>
      volumeDeps.map((d) =>
        search({ state: 'filed', fromDate: from, toDate: to, direction: dir, departmentId: d.id }),
      ),
    ),
  };
  const volumesByCodification: Chart = {
    key: 'volumesByCodification',
    kind: 'pie',
    categories: codNames.map(cat),
    series: [{ key: 'documents', values: codNames.map((c) => byCod.get(c.id) ?? 0) }],
    drill: [codNames.map((c) => search({ ...period, codificationId: c.id }))],
  };
  const overdueNames = depNames.filter((d) => overdue.some((o) => o.department_id === d.id));
  const overdueAt = new Map(overdue.map((o) => [o.department_id, o.n]));
  const overdueByDepartment: Chart = {
    key: 'overdueByDepartment',
    kind: 'bar',
    categories: overdueNames.map(cat),
    series: [{ key: 'overdue', values: overdueNames.map((d) => overdueAt.get(d.id) ?? 0) }],
    drill: [overdueNames.map(() => box('incoming-tasks', { dueState: 'overdue' }))],
  };
  const total = [...byDir.values()].reduce((a, n) => a + n, 0);
  const figures: Figure[] = [
    count('total', total, search(period)),
    ...DIRECTIONS.map((dir) => count(dir, byDir.get(dir) ?? 0, search({ ...period, direction: dir }))),
    count(
      'overdue',
      overdue.reduce((a, o) => a + o.n, 0),
      box('incoming-tasks', { dueState: 'overdue' }),
    ),
  ];
  return {
    asOf: asOf(ctx),
    from,
    to,
    figures,
    charts: [volumesByMonth, volumesByDepartment, volumesByCodification, overdueByDepartment],
  };
}
