/**
 * The boxes (GET /correspondence/boxes/{box}): each a union of arms giving uniform key rows, filtered,
 * sorted and paged over the keys, the page's documents read through the visibility predicate; keyset
 * cursors, day tallies for jumps, exact totals (docs/boxes.md). The SQL is in box-queries.ts.
 */
import { normalizeArabic } from '../../../src-shared/arabic';
import { filtersSchema, type Filters } from '../../../src-shared/filters';
import { DUE_STATES, type Box, type BoxQuery, type DueState } from '../../../src-shared/api/correspondence';
import { INT4_MAX, INT4_MIN, isRealDate } from '../../../src-shared/api/fields';
import { decodeCursor, encodeCursor, fingerprintOf, type Position } from '../../db/keyset';
import { listClauses, ownEntry } from '../../db/list';
import { HttpProblem } from '../../http/problem';
import { nestsDeeperThan, tooDeep } from '../../http/json-depth';
import type { Db } from '../../db/open';
import type { Tx } from '../auth/queries';
import {
  FIELDS,
  LIST_FIELDS,
  armsOf,
  countKeys,
  dateRange,
  dayCounts,
  keyConditions,
  keyWindow,
  type BoxField,
  type BoxKey,
  type DayCount,
} from './box-queries';
import type { Scope } from './visibility';
import { dueStateCondition, type DueDay } from './due';

export type { BoxKey } from './box-queries';

/** The form of a keyset position's value (box-queries.ts `POSITION_TEXT` writes it; a cursor comes from the client). */
const POSITION_FORM: Record<BoxField['type'], (value: string) => boolean> = {
  timestamptz: (v) => /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z$/.test(v) && isRealDate(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && isRealDate(v),
  int: (v) => /^-?\d{1,10}$/.test(v) && Number(v) >= INT4_MIN && Number(v) <= INT4_MAX,
  boolean: (v) => v === 'true' || v === 'false',
  text: () => true,
};
/** The page of keys of a box, its total and the cursor after it. */
export interface BoxKeys {
  keys: BoxKey[];
  total: number;
  /** False: `total` is a lower bound (the box holds more than `total` rows). */
  totalExact: boolean;
  /** The cursor of the page's end, when rows follow it. */
  next?: string;
}

const badFilter = (field: string) =>
  new HttpProblem('badRequest', { fields: { [field]: [{ key: 'validation.invalid' }] } });

/**
 * The due states a `dueState` filter keeps (DUE_STATES): `equals` a state, `notEquals` the others, its
 * constraints joined by its operator. It is no column — the state depends on the day —, so it is read
 * here and turned into comparisons of the rows' due dates (due.ts `dueStateCondition`).
 */
function dueStatesOf(filter: Filters[string]): DueState[] {
  const sets = filter.constraints.map((c) => {
    if (typeof c.value !== 'string' || !(DUE_STATES as readonly string[]).includes(c.value))
      throw badFilter('filters.dueState');
    if (c.matchMode === 'equals') return new Set([c.value]);
    if (c.matchMode === 'notEquals') return new Set(DUE_STATES.filter((st) => st !== c.value));
    throw badFilter('filters.dueState');
  });
  return DUE_STATES.filter((st) =>
    filter.operator === 'or' ? sets.some((x) => x.has(st)) : sets.every((x) => x.has(st)),
  );
}

/** Normalises the text of subject filters the way the subject_search column is. */
function normaliseFilters(raw: string | undefined): string | undefined {
  if (!raw) return raw;
  if (nestsDeeperThan(raw)) throw tooDeep('filters');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new HttpProblem('badRequest', { fields: { filters: [{ key: 'validation.invalid' }] } });
  }
  const checked = filtersSchema.safeParse(parsed);
  if (!checked.success)
    throw new HttpProblem('badRequest', { fields: { filters: [{ key: 'validation.invalid' }] } });
  const subject = checked.data.subject;
  if (subject)
    for (const c of subject.constraints) if (typeof c.value === 'string') c.value = normalizeArabic(c.value);
  return JSON.stringify(checked.data);
}

/** The filters without `dueState` (the list's columns only), and the due states asked for (null: any). */
function splitDueState(filters: string | undefined): { rest: string | undefined; states: DueState[] | null } {
  if (!filters) return { rest: filters, states: null };
  const parsed = JSON.parse(filters) as Filters;
  const dueState = Object.hasOwn(parsed, 'dueState') ? parsed.dueState : undefined;
  if (!dueState) return { rest: filters, states: null };
  delete parsed.dueState;
  return {
    rest: Object.keys(parsed).length ? JSON.stringify(parsed) : undefined,
    states: dueStatesOf(dueState),
  };
}

/** Limits of a box's reading (server configuration). */
export interface BoxLimits {
  /** Rows counted before the total is said to be a lower bound (where the box is not tallied). */
  exactTotalMax: number;
  /** Rows a page may be read past (OFFSET) before the page is found from the box's tallies instead. */
  tallyJumpFrom: number;
}

/**
 * How a page is read: from the top with OFFSET `skip`, or from a keyset position — forward (the page lies
 * after it: `skip` rows after the position) or backward (the page lies before it: the order reversed,
 * `skip` rows before the position passed over, the rows turned round again).
 */
interface ReadingPlan {
  from: Position | null;
  backward: boolean;
  skip: number;
}

/** The cheapest way to the rows `start + 1 … start + limit` given a known position, if any. */
function readingPlan(start: number, limit: number, from: Position | null): ReadingPlan {
  const top: ReadingPlan = { from: null, backward: false, skip: start };
  if (!from) return top;
  if (start >= from.ordinal) return { from, backward: false, skip: start - from.ordinal };
  // Before the position: the rows from.ordinal - 1 down to start + limit + 1 are passed over.
  const between = from.ordinal - 1 - (start + limit);
  if (between >= 0 && between < start) return { from, backward: true, skip: between };
  return top;
}

/**
 * Reads the keys of one page of a box: the page's rows (at most `limit`, in the box's order) and whether
 * more follow it.
 */
export async function boxKeys(
  db: Db,
  scope: Scope,
  box: Box,
  query: BoxQuery,
  { exactTotalMax, tallyJumpFrom }: BoxLimits,
  dueDay: DueDay,
): Promise<BoxKeys> {
  const filters = normaliseFilters(query.filters);
  const { rest: columnFilters, states: dueStates } = splitDueState(filters);
  const clauses = listClauses(
    { ...query, q: undefined, sort: undefined, filters: columnFilters },
    LIST_FIELDS,
    [],
    'boxDate',
  );
  const filterFields = columnFilters ? Object.keys(JSON.parse(columnFilters) as object) : [];
  const sortSpec = query.sort ?? '-boxDate';
  const sortField = ownEntry(FIELDS, sortSpec.replace(/^-/, ''));
  if (!sortField) throw new HttpProblem('badRequest', { fields: { sort: [{ key: 'validation.invalid' }] } });
  const q = query.q?.trim() ? normalizeArabic(query.q.trim()) : '';
  // Filtering on the due state reads every row's due date: a distribution's row joins its document.
  const needsDoc = !!q || !!dueStates || sortField.doc || filterFields.some((f) => ownEntry(FIELDS, f)?.doc);
  // A cursor belongs to one caller's query: the box, its sort, filters, search, range and view.
  const fingerprint = fingerprintOf([
    box,
    scope.userId,
    sortSpec,
    filters ?? null,
    q,
    query.fromDate ?? null,
    query.toDate ?? null,
    query.view,
    // The due state is the day's: a cursor of yesterday's "overdue" is not today's.
    ...(dueStates ? [dueDay.today] : []),
  ]);
  let from = query.after ? decodeCursor(query.after, fingerprint) : null;
  if (from && from.value !== null && !POSITION_FORM[sortField.type](from.value))
    throw new HttpProblem('badRequest', { fields: { after: [{ key: 'validation.invalid' }] } });
  if (from?.value === null && sortField.notNull) from = null;

  const { fromDate, toDate, range } = dateRange(box, query);
  const arms = armsOf(scope, box, needsDoc, range);
  if (!arms.length) return { keys: [], total: 0, totalExact: true };

  const where = keyConditions(clauses.where, query.view, q);
  if (dueStates) where.push(dueStateCondition(dueStates, 'b.due_date', 'b.due_done', dueDay));
  const desc = sortSpec.startsWith('-');
  const start = (query.page - 1) * query.pageSize;
  const limit = query.pageSize;

  // The page is read as a window of the keys (box-queries.ts `keyWindow`), one row more than the page
  // telling whether rows follow it. Rows of different arms can be equal in value and id — at most one per
  // other kind — and the merge of the arms may give them in either order, so the window is widened by that
  // many rows on each side and put in the full order: its rows at `lead …` are then exactly the page
  // (what a widened window gains at one edge from a group of equal rows it loses to it at the other).
  const spare = new Set(arms.map((a) => a.kind)).size - 1;
  const read = async (plan: ReadingPlan, on: Tx = db) => {
    const lead = Math.min(spare, plan.skip);
    const window = await keyWindow(on, {
      arms,
      where,
      field: sortField,
      from: plan.from,
      descending: plan.backward ? !desc : desc,
      offset: plan.skip - lead,
      limit: lead + limit + spare + 1,
    });
    return { found: window.slice(lead, lead + limit), more: window.length > lead + limit };
  };
  // The total over the same arms, counted up to one row past the cap, read beside the page on another
  // connection. A page that starts past the cap and has rows needs no count: the rows through it are more
  // than the cap already (read alone first).
  const count = () => countKeys(db, arms, where, exactTotalMax);
  // A big box in its own date order, unfiltered (issue 23, item 22): its rows per day, from the tallies
  // of its big arms (box_tallies, kept by the database in the writing transaction) and by counting the
  // rest — the small arms, and the big ones on the range's partial first and last days. They give the
  // exact total at the cost of a few hundred tally rows, and the day a page starts on: the page is then
  // read from that day's boundary, passing over at most a day's rows, however deep it lies.
  const tallied =
    sortField === FIELDS.boxDate && !clauses.where && !dueStates && !q && arms.some((a) => a.tallies?.length)
      ? (on: Tx) =>
          dayCounts(on, {
            scope,
            box,
            range,
            fromDate,
            toDate,
            // A day bound (or the default) starts and ends on UTC midnights: no partial day to count.
            partialDays: (query.fromDate?.length ?? 10) !== 10 || (query.toDate?.length ?? 10) !== 10,
            view: query.view,
            where,
          })
      : null;
  const none = { found: [] as BoxKey[], more: false };
  let days: DayCount[] | null = null;
  let counted: number | null = null;
  let plan: ReadingPlan | null = readingPlan(start, limit, from);
  let page: { found: BoxKey[]; more: boolean };
  if (tallied && plan.skip > tallyJumpFrom) {
    // The days and the page read from them in one snapshot, so the page is exactly the box's rows
    // start + 1 … start + limit as of that moment, whatever commits meanwhile.
    [days, plan, page] = await db.transaction(
      async (tx) => {
        const counted = await tallied(tx);
        const jump = dayPlan(counted, start, desc);
        return [counted, jump, jump ? await read(jump, tx) : none] as const;
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  } else {
    const deep = !tallied && start >= exactTotalMax;
    const [first, counting] = await Promise.all([read(plan), tallied ? tallied(db) : deep ? null : count()]);
    page = first;
    if (Array.isArray(counting)) days = counting;
    else if (typeof counting === 'number') counted = counting;
  }
  if (plan?.backward && page.found.length < limit) {
    // Fewer rows precede the position than when it was made (some left the box): read from the top, or
    // from the day the page starts on.
    plan = days ? dayPlan(days, start, desc) : { from: null, backward: false, skip: start };
    page = plan ? await read(plan) : none;
  }
  // Read backward, the page has the position's row after it.
  const more = !!plan?.backward || page.more;
  const keys = plan?.backward ? page.found.reverse() : page.found;
  const through = start + keys.length;

  let total: number;
  let totalExact: boolean;
  if (days) {
    total = days.reduce((sum, d) => sum + d.n, 0);
    totalExact = true;
  } else if (start >= exactTotalMax && keys.length) {
    // Past the cap: the rows through this page are known, and all of them once it is the last.
    total = through;
    totalExact = !more;
  } else {
    counted ??= await count();
    total = Math.min(counted, exactTotalMax);
    totalExact = counted <= exactTotalMax;
    if (!totalExact && keys.length && through > exactTotalMax) {
      // The page ends past the cap: as above.
      total = through;
      totalExact = !more;
    }
  }
  const last = keys.at(-1);
  const next =
    more && last
      ? encodeCursor(fingerprint, {
          value: last.sort_value,
          rowId: last.row_id,
          kind: last.kind,
          ordinal: through,
        })
      : undefined;
  return { keys, total, totalExact, ...(next ? { next } : {}) };
}

/**
 * Where the rows `start + 1 …` of a box lie, from its rows per day (oldest first): the boundary of the
 * day they start on — read from there, every row of the days before it in the box's order has been
 * passed — and how many of that day's rows come before them. Null: the box ends before `start + 1`.
 */
function dayPlan(days: readonly DayCount[], start: number, descending: boolean): ReadingPlan | null {
  let before = 0;
  for (const { day, n } of descending ? [...days].reverse() : days) {
    if (before + n > start)
      return {
        // Descending, the rows before the end of the day (24:00 is the next midnight); ascending, the
        // rows from its start. No row id is below INT4_MIN: the boundary is the day's edge alone.
        from: {
          value: descending ? `${day}T24:00:00Z` : `${day}T00:00:00Z`,
          rowId: INT4_MIN,
          kind: 'a',
          ordinal: before,
        },
        backward: false,
        skip: start - before,
      };
    before += n;
  }
  return null;
}
