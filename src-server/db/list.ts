/**
 * The common list query of docs/api.md turned into SQL: `sort`, `q` (text search over declared columns) and
 * `filters` (the specification's match modes, with and/or per field), for the fields a list declares.
 * Unknown fields, bad JSON or a value of the wrong kind answer 400 with a field message.
 */
import { and, asc, desc, or, sql, type SQL, type AnyColumn } from 'drizzle-orm';
import { filtersSchema, type ListQuery, type MatchMode } from '../../src-shared/filters';
import { nestsDeeperThan } from '../../src-shared/json-depth';
import { ListInputError } from './errors';
import { INT4_MAX, INT4_MIN, isRealDate } from '../../src-shared/api/fields';

const ISO_DATE_OR_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export type FieldKind = 'text' | 'number' | 'boolean' | 'date';
/** A list's sortable and filterable fields: the column (or expression) and its kind. */
export type ListFields = Record<string, { column: AnyColumn | SQL; kind: FieldKind }>;

/**
 * The entry of a client-supplied key in a table of declared names, own properties only: `constructor`,
 * `toString` or `__proto__` are names of every object's prototype, never of a declared field.
 */
export function ownEntry<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

const bad = (field: string) => new ListInputError(field);

/** Escapes LIKE wildcards in user text. */
export function likeEscape(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function condition(
  column: AnyColumn | SQL,
  kind: FieldKind,
  mode: MatchMode,
  value: unknown,
  field: string,
): SQL {
  if (value === null) {
    if (mode === 'equals' || mode === 'dateIs') return sql`${column} is null`;
    if (mode === 'notEquals' || mode === 'dateIsNot') return sql`${column} is not null`;
    throw bad(`filters.${field}`);
  }
  let v: string | number | boolean;
  if (kind === 'number') {
    // Number fields are integer columns (int4): whole numbers in range, written canonically when text.
    if (typeof value === 'number') v = value;
    else if (typeof value === 'string' && /^-?(0|[1-9][0-9]{0,9})$/.test(value)) v = Number(value);
    else throw bad(`filters.${field}`);
    if (!Number.isInteger(v) || v < INT4_MIN || v > INT4_MAX) throw bad(`filters.${field}`);
  } else if (kind === 'boolean') {
    if (typeof value === 'boolean') v = value;
    else if (value === 'true' || value === 'false') v = value === 'true';
    else throw bad(`filters.${field}`);
  } else if (kind === 'date') {
    // A date (`YYYY-MM-DD`) or an ISO instant of years 1..9999 — not anything Date.parse forgives ("1").
    if (typeof value !== 'string' || !ISO_DATE_OR_INSTANT.test(value) || !isRealDate(value))
      throw bad(`filters.${field}`);
    if (value.length > 10 && Number.isNaN(Date.parse(value))) throw bad(`filters.${field}`);
    v = value;
  } else {
    v = String(value);
  }
  const text = sql`${column}::text`;
  switch (mode) {
    case 'startsWith':
      return sql`${text} ilike ${likeEscape(String(v)) + '%'}`;
    case 'contains':
      return sql`${text} ilike ${'%' + likeEscape(String(v)) + '%'}`;
    case 'notContains':
      return sql`${text} not ilike ${'%' + likeEscape(String(v)) + '%'}`;
    case 'endsWith':
      return sql`${text} ilike ${'%' + likeEscape(String(v))}`;
    case 'equals':
      return kind === 'text' ? sql`lower(${column}) = lower(${v})` : sql`${column} = ${v}`;
    case 'notEquals':
      return kind === 'text' ? sql`lower(${column}) <> lower(${v})` : sql`${column} <> ${v}`;
    case 'lt':
      return sql`${column} < ${v}`;
    case 'lte':
      return sql`${column} <= ${v}`;
    case 'gt':
      return sql`${column} > ${v}`;
    case 'gte':
      return sql`${column} >= ${v}`;
    case 'dateIs':
    case 'dateIsNot':
    case 'dateBefore':
    case 'dateAfter': {
      if (kind !== 'date') throw bad(`filters.${field}`);
      const day = sql`(${v}::timestamptz)::date`;
      if (mode === 'dateIs') return sql`${column}::date = ${day}`;
      if (mode === 'dateIsNot') return sql`${column}::date <> ${day}`;
      if (mode === 'dateBefore') return sql`${column}::date < ${day}`;
      return sql`${column}::date > ${day}`;
    }
  }
}

/** The WHERE and ORDER BY of a list query, or a 400 problem. */
export function listClauses(
  query: ListQuery,
  fields: ListFields,
  searchable: (AnyColumn | SQL)[],
  defaultSort: string,
) {
  const where: SQL[] = [];
  if (query.q && query.q.trim()) {
    const pattern = `%${likeEscape(query.q.trim())}%`;
    where.push(or(...searchable.map((c) => sql`${c}::text ilike ${pattern}`))!);
  }
  if (query.filters) {
    if (nestsDeeperThan(query.filters)) throw new ListInputError('filters', 'tooDeep');
    let raw: unknown;
    try {
      raw = JSON.parse(query.filters);
    } catch {
      throw bad('filters');
    }
    const parsed = filtersSchema.safeParse(raw);
    if (!parsed.success) throw bad('filters');
    for (const [field, filter] of Object.entries(parsed.data)) {
      const def = ownEntry(fields, field);
      if (!def) throw bad(`filters.${field}`);
      const parts = filter.constraints.map((c) =>
        condition(def.column, def.kind, c.matchMode, c.value, field),
      );
      where.push(filter.operator === 'or' ? or(...parts)! : and(...parts)!);
    }
  }
  const sortSpec = query.sort ?? defaultSort;
  const descending = sortSpec.startsWith('-');
  const sortField = ownEntry(fields, sortSpec.replace(/^-/, ''));
  if (!sortField) throw bad('sort');
  const order = descending ? desc(sortField.column) : asc(sortField.column);
  return {
    where: where.length ? and(...where) : undefined,
    order,
    offset: (query.page - 1) * query.pageSize,
    limit: query.pageSize,
  };
}
