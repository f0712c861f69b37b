/**
 * The dashboards' and reports' calls (issue 30, docs/dashboards.md, docs/reports.md), typed by the endpoints
 * declared once in src-shared/api/dashboards.ts and src-shared/api/reports.ts; the react-query keys the
 * screens share; where a figure leads (`drillPath`: a box's page or the search page, with its filters in
 * the address); and a category's or a column's words in the interface language.
 */
import dayjs from 'dayjs';
import {
  dashboardEndpoints,
  type Category,
  type DashboardQuery,
  type Drill,
} from '../../src-shared/api/dashboards';
import {
  reportsEndpoints,
  type ExportRequest,
  type ReportFilters,
  type ReportName,
} from '../../src-shared/api/reports';
import { BOX_PAGES } from '../../src-shared/api/correspondence-endpoints';
import { settingsEndpoints } from '../../src-shared/api/settings';
import { PAGES } from '../../src-shared/pages';
import { fillPath } from '../../src-shared/api/endpoint';
import { call } from './call';
import { formatDate, localizeDigits } from './format';
import { i18n } from './i18n';
import { downloadFile, saveDownloaded } from '../components/upload/transfer';

/** The three dashboards, as their endpoints name them. */
export type DashboardName = keyof typeof dashboardEndpoints;

export const dashboardKeys = {
  all: ['dashboards'] as const,
  dashboard: (name: DashboardName, query: DashboardQuery) => ['dashboards', name, query] as const,
  report: (name: ReportName, filters: ReportFilters, offset: number, limit: number) =>
    ['reports', name, filters, offset, limit] as const,
  export: (id: number) => ['reports', 'export', id] as const,
  codifications: ['reports', 'codifications'] as const,
};

/** Drops the empty parts of a query (the endpoints' query schemas are strict). */
function defined<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as Partial<T>;
}

export const dashboardsApi = {
  dashboard: (name: DashboardName, query: DashboardQuery) =>
    call(dashboardEndpoints[name], { query: defined(query) }),
  report: (name: ReportName, filters: ReportFilters, offset: number, limit: number) =>
    call(reportsEndpoints.report, {
      params: { report: name },
      query: { ...defined(filters), offset, limit },
    }),
  createExport: (body: ExportRequest) => call(reportsEndpoints.createExport, { body }),
  /** The codifications a report may be filtered on (the settings list's active options). */
  codifications: () => call(settingsEndpoints.codifications.options),
  getExport: (id: number) => call(reportsEndpoints.getExport, { params: { id } }),
  /** Saves an export's file (Excel workbook or PDF) through the browser, as the records' downloads do. */
  downloadExport: async (id: number) =>
    saveDownloaded(await downloadFile(fillPath(reportsEndpoints.exportFile.path, { id }))),
};

/** The boxes whose list is the second one of the approval screens (opened with `?list=changes`). */
const CHANGES_BOXES = new Set(['requiring-changes', 'memos-requiring-changes']);

/**
 * The address of the list behind a figure: the box's page or the search page, its filters as parameters
 * (the box screen and the search page read them: BoxListScreen's `boxDrillFromParams`, SearchPage).
 */
export function drillPath(drill: Drill): string {
  const params = new URLSearchParams(
    Object.entries(drill.filters).map(([k, v]) => [k, String(v)] as [string, string]),
  );
  if (drill.to === 'box' && drill.box) {
    if (CHANGES_BOXES.has(drill.box)) params.set('list', 'changes');
    const query = params.toString();
    return `${BOX_PAGES[drill.box]}${query ? `?${query}` : ''}`;
  }
  const query = params.toString();
  return `${PAGES.search}${query ? `?${query}` : ''}`;
}

/** A month (`YYYY-MM`) as its name and year in the interface language and the user's digits. */
export function monthLabel(month: string, language: string = i18n.language): string {
  const text = new Intl.DateTimeFormat(language === 'ar' ? 'ar-u-nu-latn' : 'en-GB', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${month}-01T00:00:00Z`));
  return localizeDigits(text, language);
}

/**
 * A chart category's words: a month or a day as a date, a state or a direction through the catalogue
 * (`dashboards:category.<key>`), a department, employee or codification by its name in the language.
 */
export function categoryLabel(category: Category, language: string = i18n.language): string {
  const { key } = category;
  const named =
    language === 'en' ? category.labelEn || category.labelAr : category.labelAr || category.labelEn;
  if (/^\d{4}-\d{2}$/.test(key) && named === key) return monthLabel(key, language);
  if (/^\d{4}-\d{2}-\d{2}$/.test(key) && named === key) return formatDate(key, language);
  if (named === key && i18n.exists(`dashboards:category.${key}`))
    return i18n.t(`dashboards:category.${key}`, { lng: language });
  return named;
}

/** Today and the same day a year before (`YYYY-MM-DD`): the period the screens open with. */
export function lastYear(): { from: string; to: string } {
  return {
    from: dayjs().subtract(1, 'year').add(1, 'day').format('YYYY-MM-DD'),
    to: dayjs().format('YYYY-MM-DD'),
  };
}
