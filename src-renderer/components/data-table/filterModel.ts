/**
 * The table filter model of the specification (section 9) as pure functions: which match modes each
 * kind of column offers, the editable state of a column's filter, and the conversion of that state,
 * the sort and the search box into the list query of docs/api.md
 * (`?page&pageSize&sort=field|-field&q&filters=<json>`). Kept free of React so it is tested directly and
 * so the JSON sent is exactly what the server's `filtersSchema` parses.
 */
import type { Filters, MatchMode } from '../../../src-shared/filters';

/** The kinds of value a column filters on; each offers its own match modes and value editor. */
export type FilterType = 'text' | 'number' | 'date' | 'boolean' | 'enum';

/** A filter value as the server accepts it (`filterConstraintSchema`). Dates travel as `YYYY-MM-DD`. */
export type FilterValue = string | number | boolean | null;

export type FilterOperator = 'and' | 'or';

/** One constraint being edited: a match mode and a value (null while empty). */
export interface FilterConstraint {
  matchMode: MatchMode;
  value: FilterValue;
}

/** The filter of one column: its constraints joined by and/or. */
export interface ColumnFilterState {
  operator: FilterOperator;
  constraints: FilterConstraint[];
}

/** The filters of a whole table, by field. */
export type FilterState = Record<string, ColumnFilterState>;

/** Match modes per kind of value, in the order the menu shows them (the first is the default). */
export const MATCH_MODES_BY_TYPE: Readonly<Record<FilterType, readonly MatchMode[]>> = {
  text: ['contains', 'startsWith', 'endsWith', 'notContains', 'equals', 'notEquals'],
  number: ['equals', 'notEquals', 'lt', 'lte', 'gt', 'gte'],
  date: ['dateIs', 'dateIsNot', 'dateBefore', 'dateAfter'],
  boolean: ['equals'],
  enum: ['equals', 'notEquals'],
};

/** The server's limit on constraints per field (`fieldFilterSchema`). */
export const MAX_CONSTRAINTS = 10;

/** The match modes a column offers: its own list if declared, else its type's. */
export function matchModesFor(type: FilterType, allowed?: readonly MatchMode[]): readonly MatchMode[] {
  return allowed && allowed.length > 0 ? allowed : MATCH_MODES_BY_TYPE[type];
}

/** An empty constraint with the column's default match mode. */
export function emptyConstraint(type: FilterType, allowed?: readonly MatchMode[]): FilterConstraint {
  return { matchMode: matchModesFor(type, allowed)[0]!, value: null };
}

/** A fresh filter for a column: one empty constraint, joined by `and`. */
export function emptyColumnFilter(type: FilterType, allowed?: readonly MatchMode[]): ColumnFilterState {
  return { operator: 'and', constraints: [emptyConstraint(type, allowed)] };
}

/** Whether a value means "no constraint" (an untouched or cleared editor). */
export function isBlank(value: FilterValue | undefined): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** Whether a column's filter would send anything. */
export function isColumnFilterActive(state: ColumnFilterState | undefined): boolean {
  return !!state && state.constraints.some((c) => !isBlank(c.value));
}

/**
 * The `filters` object of docs/api.md from the table's state: blank constraints are dropped, fields left
 * with none are dropped, text values are trimmed; undefined when nothing remains (the parameter is then
 * omitted rather than sent as `{}`).
 */
export function buildFilters(state: FilterState): Filters | undefined {
  const out: Filters = {};
  for (const [field, column] of Object.entries(state)) {
    const constraints = column.constraints
      .filter((c) => !isBlank(c.value))
      .slice(0, MAX_CONSTRAINTS)
      .map((c) => ({
        value: typeof c.value === 'string' ? c.value.trim() : c.value,
        matchMode: c.matchMode,
      }));
    if (constraints.length > 0) out[field] = { operator: column.operator, constraints };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Merges fixed filters (declared by a screen, e.g. a date range above the table) into the user's. */
export function mergeFilters(user: Filters | undefined, fixed: Filters | undefined): Filters | undefined {
  if (!fixed || Object.keys(fixed).length === 0) return user;
  if (!user) return fixed;
  const out: Filters = { ...user };
  for (const [field, filter] of Object.entries(fixed)) {
    const mine = out[field];
    // The model cannot nest groups: two `and` groups on one field concatenate; if either is `or`,
    // the screen's fixed filter wins on that field, because the constraint it shows must hold.
    out[field] =
      mine && mine.operator === 'and' && filter.operator === 'and'
        ? {
            operator: 'and',
            constraints: [...mine.constraints, ...filter.constraints].slice(0, MAX_CONSTRAINTS),
          }
        : filter;
  }
  return out;
}

export type SortOrder = 'ascend' | 'descend';

/** `sort=field` ascending or `sort=-field` descending; undefined when unsorted. */
export function sortParam(
  field: string | undefined,
  order: SortOrder | null | undefined,
): string | undefined {
  if (!field || !order) return undefined;
  return order === 'descend' ? `-${field}` : field;
}

/** Reads `field` / `-field` back into a field and an antd sort order. */
export function parseSort(sort: string | undefined): { field: string; order: SortOrder } | null {
  if (!sort) return null;
  return sort.startsWith('-') ? { field: sort.slice(1), order: 'descend' } : { field: sort, order: 'ascend' };
}

/** Everything a server-side table asks for. */
export interface ListParams {
  page: number;
  pageSize: number;
  sort?: string;
  q?: string;
  filters?: Filters;
}

/**
 * The query string values of docs/api.md's list convention. Empty parts are omitted so the server applies
 * its defaults, and `filters` is the JSON text of the filter object.
 */
export function buildListQuery(params: ListParams): Record<string, string | number> {
  const query: Record<string, string | number> = { page: params.page, pageSize: params.pageSize };
  if (params.sort) query.sort = params.sort;
  const q = params.q?.trim();
  if (q) query.q = q;
  if (params.filters && Object.keys(params.filters).length > 0)
    query.filters = JSON.stringify(params.filters);
  return query;
}
