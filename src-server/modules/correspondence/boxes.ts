/**
 * The boxes (GET /correspondence/boxes/{box}). Each box is a union of "arms" producing uniform key rows
 * (b.kind, b.row_id, b.document_id, b.box_date, b.done, …); filters, sort and paging run over the keys,
 * then the page's documents are read through the visibility predicate. Every arm is a subset of what
 * the predicate admits (receiving departments' leads and employees, taskers, archive office, creator —
 * each with the security rank checked on the arm's own table), so the keys never count a row
 * the caller could not see, and the predicate guards the page again. The incoming arm reads a
 * department's distributions from one index (department, registered_at desc, id desc) and only joins
 * documents when a filter or the sort needs a document column: first and deep pages stay index scans.
 *
 * Big boxes (issue 15): the order is total — sort value, row id, then the arm's kind — so a page can be
 * read from a keyset position (db/keyset.ts): the `next` cursor of a page lets the following one (or the
 * one before) be read by an index range scan from there, whatever its depth; without a usable cursor a
 * page is read with OFFSET over the arms' covering indexes (a jump: linear in its depth, no heap). The
 * total is counted up to LIST_EXACT_TOTAL_MAX rows only: beyond, it is a lower bound (`totalExact:
 * false`), exact again once the caller pages to the end.
 *
 * Jumps in the big boxes (issue 23, item 22): the big arms — filed documents by archive office and by
 * creator, distributions by receiving department — are tallied per day of their box date (box_tallies,
 * kept by triggers in the writing transaction, so exact in every snapshot and on every server process;
 * nothing is cached here). A box in its own date order without filters sums its rows per day from them
 * (counting only its small arms and the range's partial edge days), which is its exact total, and a page
 * lying far from any known position is read from the boundary of the day it starts on, in the same
 * snapshot as the sums: at most a day's rows are passed over, however deep the page.
 */
import { sql, type SQL } from 'drizzle-orm';
import { normalizeArabic } from '../../../src-shared/arabic';
import { filtersSchema } from '../../../src-shared/filters';
import {
  DEFAULT_DATE_RANGE_DAYS,
  OPEN_ENDED_BOXES,
  type Box,
  type BoxQuery,
} from '../../../src-shared/api/correspondence';
import { INT4_MAX, INT4_MIN, isRealDate } from '../../../src-shared/api/fields';
import { decodeCursor, encodeCursor, fingerprintOf, type Position } from '../../db/keyset';
import { listClauses, ownEntry, type FieldKind, type ListFields } from '../../db/list';
import { HttpProblem } from '../../http/problem';
import { nestsDeeperThan, tooDeep } from '../../http/json-depth';
import type { Db } from '../../db/open';
import type { Tx } from '../auth/queries';
import { rowsOf } from '../../db/rows';
import { inList, receivingDepartments, type Scope } from './visibility';

/**
 * Box fields: the key column, whether it needs the document joined, its SQL type (a keyset position's
 * value is cast back to it) and whether it is never null on any arm (else a position before the nulls
 * also reads them: they sort last descending, first ascending).
 */
interface BoxField {
  col: string;
  kind: FieldKind;
  doc: boolean;
  type: 'int' | 'text' | 'date' | 'timestamptz' | 'boolean';
  notNull?: true;
}
const FIELDS: Record<string, BoxField> = {
  id: { col: 'document_id', kind: 'number', doc: false, type: 'int', notNull: true },
  docNumber: { col: 'doc_number', kind: 'text', doc: true, type: 'text' },
  sequence: { col: 'sequence', kind: 'number', doc: true, type: 'int' },
  subject: { col: 'subject_search', kind: 'text', doc: true, type: 'text', notNull: true },
  senderDocumentNumber: { col: 'sender_document_number', kind: 'text', doc: true, type: 'text' },
  documentDate: { col: 'document_date', kind: 'date', doc: true, type: 'date' },
  receivedDate: { col: 'received_date', kind: 'date', doc: true, type: 'date' },
  registeredAt: { col: 'registered_at', kind: 'date', doc: true, type: 'timestamptz' },
  createdAt: { col: 'created_at', kind: 'date', doc: true, type: 'timestamptz', notNull: true },
  boxDate: { col: 'box_date', kind: 'date', doc: false, type: 'timestamptz', notNull: true },
  priorityLevel: { col: 'priority_rank', kind: 'number', doc: true, type: 'int', notNull: true },
  securityLevel: { col: 'security_rank', kind: 'number', doc: true, type: 'int', notNull: true },
  senderId: { col: 'sender_department_id', kind: 'number', doc: true, type: 'int' },
  codificationId: { col: 'codification_id', kind: 'number', doc: true, type: 'int' },
  distributionType: { col: 'dist_type', kind: 'text', doc: false, type: 'text' },
  completed: { col: 'done', kind: 'boolean', doc: false, type: 'boolean', notNull: true },
  taskState: { col: 'task_state', kind: 'text', doc: false, type: 'text' },
  taskDate: { col: 'task_date', kind: 'date', doc: false, type: 'date' },
  dueDate: { col: 'due_date', kind: 'date', doc: false, type: 'date' },
};
/**
 * A keyset position's value as the page writes it — in one form whatever the session's date style, so it
 * is checked before it is cast back (a cursor comes from the client) — and that form.
 */
const POSITION_TEXT: Record<BoxField['type'], (column: string) => string> = {
  timestamptz: (c) => `to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  date: (c) => `to_char(${c}, 'YYYY-MM-DD')`,
  int: (c) => `${c}::text`,
  boolean: (c) => `${c}::text`,
  text: (c) => c,
};
const POSITION_FORM: Record<BoxField['type'], (value: string) => boolean> = {
  timestamptz: (v) => /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z$/.test(v) && isRealDate(v),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && isRealDate(v),
  int: (v) => /^-?\d{1,10}$/.test(v) && Number(v) >= INT4_MIN && Number(v) <= INT4_MAX,
  boolean: (v) => v === 'true' || v === 'false',
  text: () => true,
};
const LIST_FIELDS: ListFields = Object.fromEntries(
  Object.entries(FIELDS).map(([k, f]) => [k, { column: sql.raw(`b.${f.col}`), kind: f.kind }]),
);
const DOC_COLUMNS = `d.doc_number, d.sequence, d.subject_search, d.sender_document_number, d.document_date,
  d.received_date, d.registered_at, d.created_at, d.priority_rank, d.security_rank, d.sender_department_id,
  d.codification_id`;
const NO_DOC_COLUMNS = `null::text as doc_number, null::int as sequence, null::text as subject_search,
  null::text as sender_document_number, null::date as document_date, null::date as received_date,
  null::timestamptz as registered_at, null::timestamptz as created_at, null::int as priority_rank,
  null::int as security_rank, null::int as sender_department_id, null::int as codification_id`;

/** One row of a page of a box: what it is, its box columns, and its place in the order. */
export interface BoxKey {
  key: string;
  kind: string;
  row_id: number;
  /** The sort column's value as text (the keyset position's value). */
  sort_value: string | null;
  document_id: number;
  dist_id: number | null;
  task_id: number | null;
  box_date: string;
  done: boolean;
  due_date: string | null;
  overdue: boolean;
  follow_reason: string | null;
}

/** The page of keys of a box, its total and the cursor after it. */
export interface BoxKeys {
  keys: BoxKey[];
  total: number;
  /** False: `total` is a lower bound (the box holds more than `total` rows). */
  totalExact: boolean;
  /** The cursor of the page's end, when rows follow it. */
  next?: string;
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

/** `in (…)` of text literals bound as parameters. */
function inList2(values: readonly string[]): SQL {
  return sql`(${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;
}

/**
 * An arm of a box: the kind of its rows (one letter, the tie-break between arms), its key rows, and where
 * a big arm's rows are tallied per day: conditions on box_tallies `t` (all but the day and the view)
 * whose rows sum to the arm's rows of a whole day.
 */
interface Arm {
  kind: string;
  sql: SQL;
  tallies?: SQL[];
}

/** The rows of a box on one UTC day of its box date. */
interface DayCount {
  day: string;
  n: number;
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
 * The conditions of the rows of arm `kind` that come after position `from` in an order (descending: the
 * value, then the id, then the kind descending, nulls last; ascending the reverse). Each condition is
 * read by its own scan of the arm, so each stays an index range (a row comparison) rather than an OR
 * the index cannot follow.
 */
function afterPosition(col: SQL, field: BoxField, from: Position, kind: string, descending: boolean): SQL[] {
  // Rows equal to the position in value and id (of another arm) follow it when their kind sorts after.
  const tieFollows = descending ? kind < from.kind : kind > from.kind;
  const op = sql.raw(descending ? (tieFollows ? '<=' : '<') : tieFollows ? '>=' : '>');
  const id = sql`b.row_id`;
  if (from.value === null)
    return descending
      ? [sql`${col} is null and ${id} ${op} ${from.rowId}::int`]
      : [sql`${col} is null and ${id} ${op} ${from.rowId}::int`, sql`${col} is not null`];
  const value = sql`${from.value}::${sql.raw(field.type)}`;
  const parts = [sql`(${col}, ${id}) ${op} (${value}, ${from.rowId}::int)`];
  if (descending && !field.notNull) parts.push(sql`${col} is null`);
  return parts;
}

/**
 * Where a range's `fromDate` starts: a day (`YYYY-MM-DD`) at its start in UTC — whatever the database
 * session's time zone —, or an instant (the client's own midnight, as the renderer sends it).
 */
function rangeStart(bound: string): SQL {
  return bound.length === 10
    ? sql`(${bound}::date::timestamp at time zone 'UTC')`
    : sql`${bound}::timestamptz`;
}

/** Where a range's `toDate` ends (exclusive): after its day in UTC, or after its instant's millisecond. */
function rangeEnd(bound: string): SQL {
  return bound.length === 10
    ? sql`((${bound}::date + 1)::timestamp at time zone 'UTC')`
    : sql`(${bound}::timestamptz + interval '1 millisecond')`;
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
): Promise<BoxKeys> {
  const filters = normaliseFilters(query.filters);
  const clauses = listClauses(
    { ...query, q: undefined, sort: undefined, filters },
    LIST_FIELDS,
    [],
    'boxDate',
  );
  const filterFields = filters ? Object.keys(JSON.parse(filters) as object) : [];
  const sortSpec = query.sort ?? '-boxDate';
  const sortField = ownEntry(FIELDS, sortSpec.replace(/^-/, ''));
  if (!sortField) throw new HttpProblem('badRequest', { fields: { sort: [{ key: 'validation.invalid' }] } });
  const q = query.q?.trim() ? normalizeArabic(query.q.trim()) : '';
  const needsDoc = !!q || sortField.doc || filterFields.some((f) => ownEntry(FIELDS, f)?.doc);
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
  ]);
  let from = query.after ? decodeCursor(query.after, fingerprint) : null;
  if (from && from.value !== null && !POSITION_FORM[sortField.type](from.value))
    throw new HttpProblem('badRequest', { fields: { after: [{ key: 'validation.invalid' }] } });
  if (from?.value === null && sortField.notNull) from = null;

  // Date range: [fromDate, toDate] inclusive, on each arm's box_date (BOX_DATE names it: every arm passes
  // `range` the very expression it answers as box_date); default the last 30 days. What is still to do
  // does not expire: follow-ups and the approval boxes have no default lower bound.
  const fromDate = query.fromDate
    ? rangeStart(query.fromDate)
    : OPEN_ENDED_BOXES.has(box)
      ? null
      : sql`(((now() at time zone 'UTC')::date - ${DEFAULT_DATE_RANGE_DAYS}::int)::timestamp at time zone 'UTC')`;
  const toDate = query.toDate ? rangeEnd(query.toDate) : null;
  const range = (column: string) => {
    const c = sql.raw(column);
    const parts = [sql`true`];
    if (fromDate) parts.push(sql`${c} >= ${fromDate}`);
    if (toDate) parts.push(sql`${c} < ${toDate}`);
    return sql.join(parts, sql` and `);
  };

  const arms = armsOf(scope, box, needsDoc, range);
  if (!arms.length) return { keys: [], total: 0, totalExact: true };

  const where: SQL[] = [];
  if (clauses.where) where.push(clauses.where);
  if (query.view === 'completed') where.push(sql`b.done`);
  if (query.view === 'notCompleted') where.push(sql`not b.done`);
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      sql`(b.subject_search like ${like} or b.doc_number ilike ${like} or b.sender_document_number ilike ${like})`,
    );
  }
  const whereOf = (conditions: SQL[]) =>
    conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const col = sql.raw(`b.${sortField.col}`);
  const desc = sortSpec.startsWith('-');
  const start = (query.page - 1) * query.pageSize;
  const limit = query.pageSize;

  // The page: each arm filtered, sorted and cut on its own (so it reads its index in order and stops
  // early — PostgreSQL does not push an ORDER BY … LIMIT into the arms of a UNION ALL), the arms merged
  // and the page cut; only the page's rows are then formatted. One row more than the page tells whether
  // rows follow it.
  //
  // The order is value, id, kind; the merge of the arms follows only value and id (ordering a deep merge
  // by the kind too made PostgreSQL sort every row passed over: a third more time at offset 50,000). Rows
  // of different arms can be equal in value and id — at most one per other kind — and the merge may give
  // them in either order, so the window read is widened by that many rows on each side and put in the
  // full order: its rows at `lead …` are then exactly the page (what a widened window gains at one edge
  // from a group of equal rows it loses to it at the other).
  const spare = new Set(arms.map((a) => a.kind)).size - 1;
  const read = async (plan: ReadingPlan, on: Tx = db) => {
    const descending = plan.backward ? !desc : desc;
    // NULLS placement matching the indexes (DESC NULLS LAST), so each arm streams in index order.
    const orderOf = (c: SQL, id: SQL) =>
      descending
        ? sql`${c} desc nulls last, ${id} desc nulls last`
        : sql`${c} asc nulls first, ${id} asc nulls first`;
    const kindOrder = descending ? sql`desc` : sql`asc`;
    const lead = Math.min(spare, plan.skip);
    const upTo = plan.skip + limit + spare + 1;
    const scans = arms.flatMap((arm) =>
      (plan.from ? afterPosition(col, sortField, plan.from, arm.kind, descending) : [null]).map(
        (beyond) => sql`(select b.kind, b.row_id, b.document_id, b.dist_id, b.task_id, b.box_date, b.done,
            b.due_date, b.follow_reason, ${col} as sort_key from (${arm.sql}) b
            ${whereOf(beyond ? [...where, beyond] : where)}
            order by ${orderOf(col, sql`b.row_id`)} limit ${upTo})`,
      ),
    );
    const window = await rowsOf<BoxKey>(
      on,
      sql`select p.kind || p.row_id as key, p.kind, p.row_id,
            ${sql.raw(POSITION_TEXT[sortField.type]('p.sort_key'))} as sort_value, p.document_id,
            p.dist_id, p.task_id,
            to_char(p.box_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as box_date, p.done,
            to_char(p.due_date, 'YYYY-MM-DD') as due_date,
            coalesce(not p.done and p.due_date < current_date, false) as overdue, p.follow_reason
          from (select * from (${sql.join(scans, sql` union all `)}) b
                order by ${orderOf(sql`b.sort_key`, sql`b.row_id`)}
                limit ${lead + limit + spare + 1} offset ${plan.skip - lead}) p
          order by ${orderOf(sql`p.sort_key`, sql`p.row_id`)}, p.kind ${kindOrder}`,
    );
    return { found: window.slice(lead, lead + limit), more: window.length > lead + limit };
  };
  // The total over the same arms, counted up to one row past the cap (index-only scans with the covering
  // indexes of the boxes), read beside the page on another connection. A page that starts past the cap
  // and has rows needs no count: the rows through it are more than the cap already (read alone first).
  const union = sql.join(
    arms.map((a) => a.sql),
    sql` union all `,
  );
  const count = async () => {
    const [row] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from (select 1 from (${union}) b ${whereOf(where)} limit ${exactTotalMax + 1}) c`,
    );
    return row?.n ?? 0;
  };
  // A big box in its own date order, unfiltered (issue 23, item 22): its rows per day, from the tallies
  // of its big arms (box_tallies, kept by the database in the writing transaction) and by counting the
  // rest — the small arms, and the big ones on the range's partial first and last days. They give the
  // exact total at the cost of a few hundred tally rows, and the day a page starts on: the page is then
  // read from that day's boundary, passing over at most a day's rows, however deep it lies.
  const tallied =
    sortField === FIELDS.boxDate && !clauses.where && !q && arms.some((a) => a.tallies?.length)
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

type Range = (column: string) => SQL;

/**
 * The rows of a tallied box per UTC day of its box date, within its range (oldest day first): the days
 * wholly inside the range from the tallies of the arms that have them; the range's partial first and
 * last days, and the arms without tallies, by counting their rows.
 */
async function dayCounts(
  on: Tx,
  v: {
    scope: Scope;
    box: Box;
    range: Range;
    fromDate: SQL | null;
    toDate: SQL | null;
    /** Whether a bound may cut a UTC day (an instant): the partial days are then counted. */
    partialDays: boolean;
    view: BoxQuery['view'];
    where: SQL[];
  },
): Promise<DayCount[]> {
  const utc = (x: SQL) => sql`((${x}) at time zone 'UTC')`;
  // The first day wholly in the range, and the first day after the last one wholly in it (null: unbounded).
  const firstFull = v.fromDate
    ? sql`(${utc(v.fromDate)}::date + (${utc(v.fromDate)}::time <> '00:00')::int)`
    : null;
  const endFull = v.toDate ? sql`${utc(v.toDate)}::date` : null;
  const startOf = (day: SQL) => sql`(${day}::timestamp at time zone 'UTC')`;
  // The range's partial days: the rows of an arm there are counted, not tallied.
  const partial = (column: string) => {
    const c = sql.raw(column);
    const outside = [
      ...(firstFull ? [sql`${c} < ${startOf(firstFull)}`] : []),
      ...(endFull ? [sql`${c} >= ${startOf(endFull)}`] : []),
    ];
    return sql`${v.range(column)} and (${outside.length ? sql.join(outside, sql` or `) : sql`false`})`;
  };
  const tallyWhere = [
    ...(firstFull ? [sql`t.day >= ${firstFull}`] : []),
    ...(endFull ? [sql`t.day < ${endFull}`] : []),
    ...(v.view === 'completed' ? [sql`t.done`] : v.view === 'notCompleted' ? [sql`not t.done`] : []),
  ];
  const tallied = (t: SQL) =>
    sql`select t.day, t.n from box_tallies t where ${sql.join([t, ...tallyWhere], sql` and `)}`;
  const counted = (arm: SQL) =>
    sql`select (b.box_date at time zone 'UTC')::date as day, 1 as n from (${arm}) b
      ${v.where.length ? sql`where ${sql.join(v.where, sql` and `)}` : sql``}`;
  const edges = v.partialDays ? armsOf(v.scope, v.box, false, partial) : [];
  const parts = armsOf(v.scope, v.box, false, v.range).flatMap((arm, i) =>
    arm.tallies?.length
      ? [...arm.tallies.map(tallied), ...(edges[i] ? [counted(edges[i].sql)] : [])]
      : [counted(arm.sql)],
  );
  const found = await rowsOf<DayCount>(
    on,
    sql`select to_char(c.day, 'YYYY-MM-DD') as day, sum(c.n)::int as n
      from (${sql.join(parts, sql` union all `)}) c group by c.day having sum(c.n) <> 0 order by c.day`,
  );
  return found.map((d) => ({ day: d.day, n: d.n }));
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

/** The arms of a box for a caller (empty: the box is empty for them). */
function armsOf(scope: Scope, box: Box, needsDoc: boolean, range: Range): Arm[] {
  // Every arm's rows start with their kind: `select '<kind>'::text as kind, …`.
  const arm = (kind: string, rest: SQL, tallies?: SQL[]): Arm => ({
    kind,
    sql: sql`select ${sql.raw(`'${kind}'::text`)} as kind, ${rest}`,
    ...(tallies ? { tallies } : {}),
  });
  const docCols = sql.raw(DOC_COLUMNS);
  const rank = scope.isAdmin ? sql`true` : sql`d.security_rank <= ${scope.clearance}`;
  const draftsOf = (direction: string) => [
    arm(
      'd',
      sql`d.id as row_id, d.id as document_id, null::int as dist_id, null::int as task_id,
          d.created_at as box_date, false as done, null::text as dist_type, null::text as task_state,
          null::date as task_date, null::date as due_date, null::text as follow_reason, ${docCols}
        from documents d
        where d.state = 'draft' and d.direction = ${direction} and d.created_by = ${scope.userId}
          and ${range('d.created_at')}`,
    ),
  ];
  // Filed documents the archive office holds (and their authors see): registered incoming mail, approved
  // outgoing letters (done: dispatched) and approved memos (done: every action item completed). Tallied:
  // by archive office, and by creator apart from the caller's own archive office (box_tallies, whose
  // `done` is the same: dispatched for outgoing letters, completed for the rest).
  const registeredArm = (direction: string, state = 'registered', done = sql`d.completed_at is not null`) => {
    const holder = scope.isAdmin
      ? sql`true`
      : scope.archiveDepartmentId !== null
        ? sql`(d.archive_department_id = ${scope.archiveDepartmentId} or d.created_by = ${scope.userId})`
        : sql`d.created_by = ${scope.userId}`;
    const filed = sql`t.direction = ${direction} and t.state = ${state}`;
    const ranked = sql`${filed} and t.security_rank <= ${scope.clearance}`;
    const created = sql`t.arm = 'creator' and ${ranked} and t.owner = ${scope.userId}`;
    const tallies = scope.isAdmin
      ? [sql`t.arm = 'archive' and ${filed}`]
      : scope.archiveDepartmentId !== null
        ? [
            sql`t.arm = 'archive' and ${ranked} and t.owner = ${scope.archiveDepartmentId} and t.holder = 0`,
            // Held elsewhere: two index ranges rather than a filter over all of the caller's own.
            sql`${created} and t.holder < ${scope.archiveDepartmentId}`,
            sql`${created} and t.holder > ${scope.archiveDepartmentId}`,
          ]
        : [created];
    return arm(
      'd',
      sql`d.id as row_id, d.id as document_id, null::int as dist_id,
          null::int as task_id, d.registered_at as box_date, (${done}) as done,
          null::text as dist_type, null::text as task_state, null::date as task_date, null::date as due_date,
          null::text as follow_reason, ${docCols}
        from documents d
        where d.direction = ${direction} and d.state = ${state} and ${holder} and ${rank}
          and ${range('d.registered_at')}`,
      tallies,
    );
  };
  // What the receiving departments hold: their distributions of one direction (incoming mail, approved
  // memos), for action and for knowledge, as their leads and their own employees receive them. Tallied
  // by receiving department.
  const receivedArm = (direction: string): Arm | null => {
    const receiving = receivingDepartments(scope);
    if (!receiving.length) return null;
    return arm(
      'x',
      sql`x.id as row_id, x.document_id, x.id as dist_id,
        null::int as task_id, x.registered_at as box_date, (x.completed_at is not null) as done,
        x.type as dist_type, null::text as task_state, null::date as task_date, null::date as due_date,
        null::text as follow_reason, ${needsDoc ? docCols : sql.raw(NO_DOC_COLUMNS)}
      from distributions x ${needsDoc ? sql`join documents d on d.id = x.document_id` : sql``}
      where x.department_id in ${inList(receiving)} and x.direction = ${direction}
        and x.security_rank <= ${scope.clearance} and ${range('x.registered_at')}`,
      [
        sql`t.arm = 'received' and t.direction = ${direction} and t.state = '' and t.owner in ${inList(receiving)}
          and t.holder = 0 and t.security_rank <= ${scope.clearance}`,
      ],
    );
  };
  // The author's documents in or back from a circuit, by when they were last submitted.
  const authorArm = (family: 'out' | 'memo', states: string[]) =>
    arm(
      'd',
      sql`d.id as row_id, d.id as document_id, null::int as dist_id, null::int as task_id,
          coalesce(d.submitted_at, d.created_at) as box_date, false as done, null::text as dist_type,
          null::text as task_state, null::date as task_date, null::date as due_date, null::text as follow_reason,
          ${docCols}
        from documents d
        where d.created_by = ${scope.userId}
          and d.direction in ${inList2(family === 'out' ? ['out'] : ['memo', 'internal'])}
          and d.state in ${inList2(states)} and ${range('coalesce(d.submitted_at, d.created_at)')}`,
    );
  // What waits for the caller's answer: their pending circuit rows (one partial index range).
  const pendingArm = (family: 'out' | 'memo') =>
    arm(
      'a',
      sql`m.id as row_id, m.document_id, null::int as dist_id, null::int as task_id,
          m.activated_at as box_date, false as done, m.kind as dist_type, null::text as task_state,
          null::date as task_date, null::date as due_date, null::text as follow_reason,
          ${needsDoc ? docCols : sql.raw(NO_DOC_COLUMNS)}
        from approval_members m ${needsDoc ? sql`join documents d on d.id = m.document_id` : sql``}
        where m.user_id = ${scope.userId} and m.pending and m.direction = ${family}
          and ${scope.isAdmin ? sql`true` : sql`m.security_rank <= ${scope.clearance}`}
          and ${range('m.activated_at')}`,
    );

  switch (box) {
    case 'inbox-drafts':
      return draftsOf('in');
    case 'outbox-drafts':
      return draftsOf('out');
    case 'memo-drafts':
      return [...draftsOf('memo'), ...draftsOf('internal')];
    case 'outgoing':
      // Done: dispatched (the not-completed view is what awaits dispatch).
      return [registeredArm('out', 'approved', sql`d.dispatched_at is not null`)];
    case 'incoming': {
      const arms = [registeredArm('in')];
      if (scope.isAdmin) return arms;
      const received = receivedArm('in');
      return received ? [...arms, received] : arms;
    }
    case 'approved-memos': {
      const arms = [registeredArm('memo', 'approved')];
      if (scope.isAdmin) return arms;
      const received = receivedArm('memo');
      return received ? [...arms, received] : arms;
    }
    case 'awaiting-approval':
      return [authorArm('out', ['approving'])];
    case 'memos-awaiting-approval':
      return [authorArm('memo', ['approving'])];
    case 'requiring-changes':
      return [authorArm('out', ['changesRequested', 'rejected'])];
    case 'memos-requiring-changes':
      return [authorArm('memo', ['changesRequested', 'rejected'])];
    case 'requiring-approval':
      return [pendingArm('out')];
    case 'memos-requiring-approval':
      return [pendingArm('memo')];
    case 'incoming-tasks': {
      const who: SQL[] = [];
      if (scope.employeeId !== null) who.push(sql`t.employee_id = ${scope.employeeId}`);
      if (scope.leadDepartmentIds.length)
        who.push(sql`t.department_id in ${inList(scope.leadDepartmentIds)}`);
      if (scope.isAdmin) who.push(sql`true`);
      if (!who.length) return [];
      return [
        arm(
          't',
          sql`t.id as row_id, t.document_id, t.distribution_id as dist_id, t.id as task_id,
            t.created_at as box_date, (t.state = 'completed') as done, t.type as dist_type, t.state as task_state,
            t.task_date, t.task_date as due_date, null::text as follow_reason, ${docCols}
          from tasks t join documents d on d.id = t.document_id
          where (${sql.join(who, sql` or `)}) and ${rank} and ${range('t.created_at')}`,
        ),
      ];
    }
    case 'follow-ups': {
      const arms = [
        arm(
          'f',
          sql`d.id as row_id, d.id as document_id, null::int as dist_id, null::int as task_id,
            coalesce(d.registered_at, d.created_at) as box_date, (d.completed_at is not null) as done,
            null::text as dist_type, null::text as task_state, null::date as task_date, f.due_date,
            'followed'::text as follow_reason, ${docCols}
          from document_follows f join documents d on d.id = f.document_id
          where f.user_id = ${scope.userId} and ${rank} and ${range('coalesce(d.registered_at, d.created_at)')}`,
        ),
      ];
      if (scope.leadDepartmentIds.length)
        arms.push(
          arm(
            'x',
            sql`x.id as row_id, x.document_id, x.id as dist_id, null::int as task_id,
            x.registered_at as box_date, false as done, x.type as dist_type, null::text as task_state,
            null::date as task_date,
            (select min(t.task_date) from tasks t where t.distribution_id = x.id and t.state <> 'completed') as due_date,
            'action'::text as follow_reason, ${docCols}
          from distributions x join documents d on d.id = x.document_id
          where x.department_id in ${inList(scope.leadDepartmentIds)} and x.type = 'forAction'
            and x.completed_at is null and x.security_rank <= ${scope.clearance} and ${range('x.registered_at')}`,
          ),
        );
      return arms;
    }
  }
}
