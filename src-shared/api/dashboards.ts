/**
 * The dashboards (issue 30): the archive clerk's, the manager's and the organisation's figures and charts,
 * each counted over only what the caller may see (the visibility predicate and the security level), each
 * point naming the list of documents behind it (a box of GET /correspondence/boxes/{box} or the search
 * page, with filters). Schemas and endpoints, shared by the server and the client (the rules and the SQL:
 * src-server/modules/dashboards, docs/dashboards.md).
 *
 * Names as in the shared plan (notes of issue 30), plus `unit` on a figure (a count or a number of days)
 * and the keys of each dashboard's figures, charts, series and categories declared here as constants, so
 * the screens' catalogue (locales dashboards.json: figure.<key>, chart.<key>, series.<key>) has one list.
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import { BOXES, DIRECTIONS } from './correspondence';
import { endpoint } from './endpoint';
import { dateOnlyField, decimalParam } from './fields';

// ---------------------------------------------------------------- the query

/**
 * The query of every dashboard: a period (`from`, `to`: days, inclusive, in the organisation's time zone;
 * default: the last 12 months through today for the organisation's charts, the current figures otherwise)
 * and a department (the manager's and the organisation's: only that department's items; it must be one
 * the caller may count, else 403).
 */
export const dashboardQuerySchema = z
  .object({
    from: dateOnlyField.optional(),
    to: dateOnlyField.optional(),
    departmentId: decimalParam(1).optional(),
  })
  .strict();
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

// ---------------------------------------------------------------- the answer

/** Where a figure leads: a box (GET /correspondence/boxes/{box}) or the search page. */
export const DRILL_TARGETS = ['box', 'search'] as const;
export type DrillTarget = (typeof DRILL_TARGETS)[number];

/**
 * The list that shows the documents behind a figure or a chart point. For a box, `filters` holds:
 * - the box query's own parameters as they are: `fromDate`, `toDate` (days), `view` (BOX_VIEWS);
 * - any other key is a field of the box (BOX_FIELDS, or `dueState`) compared with `equals`: the screen
 *   turns `{ codificationId: 3, dueState: 'overdue' }` into the box's `filters` JSON
 *   (`{"codificationId":{"constraints":[{"value":3,"matchMode":"equals"}]}, …}`).
 * For the search page, `filters` holds search query parameters (src-shared/api/search.ts: direction,
 * state, fromDate, toDate, codificationId, departmentId, securityLevelId).
 * A box lists what the caller holds in it; the organisation's and a manager's figures can count more
 * than the box shows the caller (docs/dashboards.md, "Drilling down").
 */
export const drillSchema = z.object({
  to: z.enum(DRILL_TARGETS),
  box: z.enum(BOXES).optional(),
  filters: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type Drill = z.infer<typeof drillSchema>;

/** What a figure's value is: a number of items, or a number of days (an average, one decimal). */
export const FIGURE_UNITS = ['count', 'days'] as const;
export type FigureUnit = (typeof FIGURE_UNITS)[number];

/** One figure of a dashboard: its key (figure.<key> in the catalogue), value and the list behind it. */
export const figureSchema = z.object({
  key: z.string(),
  value: z.number(),
  unit: z.enum(FIGURE_UNITS),
  drill: drillSchema,
});
export type Figure = z.infer<typeof figureSchema>;

/**
 * One category of a chart's axis: a month (`YYYY-MM`), a department, an employee, a codification, a state
 * or a direction. `key` is stable (an id as a string, a month, a state's or direction's name); the labels
 * are the names in both languages (months and states: the key again, the screen translates them).
 */
export const categorySchema = z.object({ key: z.string(), labelAr: z.string(), labelEn: z.string() });
export type Category = z.infer<typeof categorySchema>;

export const CHART_KINDS = ['bar', 'line', 'stackedBar', 'pie'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

/** One series of a chart: its key (series.<key>) and one value per category, in the categories' order. */
export const seriesSchema = z.object({ key: z.string(), values: z.array(z.number()) });
export type Series = z.infer<typeof seriesSchema>;

/** One chart: its categories, series and, per series and per category, the list behind the point. */
export const chartSchema = z.object({
  key: z.string(),
  kind: z.enum(CHART_KINDS),
  categories: z.array(categorySchema),
  series: z.array(seriesSchema),
  drill: z.array(z.array(drillSchema)).optional(),
});
export type Chart = z.infer<typeof chartSchema>;

/** A dashboard: when it was counted (the database's clock), its figures and its charts. */
export const dashboardSchema = z.object({
  asOf: z.string(),
  /** The period counted (days, inclusive), as the server settled it from the query. */
  from: z.string(),
  to: z.string(),
  figures: z.array(figureSchema),
  charts: z.array(chartSchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

// ---------------------------------------------------------------- the keys

/** The archive clerk's figures: registered today and this week, awaiting distribution, awaiting dispatch. */
export const ARCHIVE_FIGURES = [
  'registeredToday',
  'registeredThisWeek',
  'awaitingDistribution',
  'awaitingDispatch',
] as const;
/** The archive clerk's chart: documents registered per day of the period, by direction. */
export const ARCHIVE_CHARTS = ['registeredByDay'] as const;

/**
 * The manager's figures (their departments, or the one chosen): open items, overdue items, approvals
 * waiting, average days to complete a task and to answer a letter (over tasks completed and letters
 * answered in the period).
 */
export const MANAGER_FIGURES = [
  'openItems',
  'overdueItems',
  'approvalsWaiting',
  'avgDaysToCompleteTask',
  'avgDaysToAnswerLetter',
] as const;
/** The manager's charts: open items by state (per department), overdue by employee, approvals by person. */
export const MANAGER_CHARTS = ['openByState', 'overdueByEmployee', 'approvalsByPerson'] as const;

/**
 * The states of a department's open item (series of `openByState`): an incoming letter for action with no
 * task yet, its tasks new or in progress, and the department's own letters and memos in their approval
 * circuit or sent back for changes.
 */
export const OPEN_ITEM_STATES = ['unassigned', 'new', 'inProgress', 'approving', 'changesRequested'] as const;
export type OpenItemState = (typeof OPEN_ITEM_STATES)[number];

/** The organisation's figures over the period: documents per direction, and the overdue items today. */
export const ORGANISATION_FIGURES = ['total', 'in', 'out', 'internal', 'memo', 'overdue'] as const;
/**
 * The organisation's charts: volumes by direction and month (series: DIRECTIONS), by department (series:
 * DIRECTIONS), by codification (one series, `documents`), overdue by department (one series, `overdue`).
 */
export const ORGANISATION_CHARTS = [
  'volumesByMonth',
  'volumesByDepartment',
  'volumesByCodification',
  'overdueByDepartment',
] as const;

/** Series keys beyond DIRECTIONS and OPEN_ITEM_STATES. */
export const SERIES_KEYS = ['documents', 'overdue', 'waiting'] as const;

export { DIRECTIONS };

// ---------------------------------------------------------------- endpoints

const tags = ['dashboards'];

export const dashboardEndpoints = {
  archive: endpoint({
    method: 'GET',
    path: '/dashboards/archive',
    query: dashboardQuerySchema,
    response: dashboardSchema,
    access: { page: PAGES.archiveDashboard, permission: 'view' },
    tags,
    summary:
      "The archive clerk's dashboard: registered today and this week, awaiting distribution and dispatch",
  }),
  manager: endpoint({
    method: 'GET',
    path: '/dashboards/manager',
    query: dashboardQuerySchema,
    response: dashboardSchema,
    access: { page: PAGES.managerDashboard, permission: 'view' },
    tags,
    summary:
      "A manager's dashboard: their departments' open and overdue items, approvals waiting, turnaround",
  }),
  organisation: endpoint({
    method: 'GET',
    path: '/dashboards/organisation',
    query: dashboardQuerySchema,
    response: dashboardSchema,
    access: { page: PAGES.organisationDashboard, permission: 'view' },
    tags,
    summary:
      "The organisation's dashboard: volumes by direction and month, department, codification; overdue",
  }),
} as const;
