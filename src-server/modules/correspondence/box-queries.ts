/**
 * The SQL of the boxes (boxes.ts, which says how a box is read): the box fields and their key columns,
 * each box's arms — the key rows it is a union of, and where a big arm's rows are tallied per day
 * (box_tallies) —, its date range, a window of its keys from the top or from a keyset position, their
 * count, and its rows per day. Which window is read, and when, is boxes.ts's.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_DATE_RANGE_DAYS,
  OPEN_ENDED_BOXES,
  type Box,
  type BoxQuery,
} from '../../../src-shared/api/correspondence';
import type { Position } from '../../db/keyset';
import type { FieldKind, ListFields } from '../../db/list';
import { rowsOf } from '../../db/rows';
import type { Tx } from '../auth/queries';
import { circuitUsers, inList, receivingDepartments, type Scope } from './visibility';

/**
 * Box fields: the key column, whether it needs the document joined, its SQL type (a keyset position's
 * value is cast back to it) and whether it is never null on any arm (else a position before the nulls
 * also reads them: they sort last descending, first ascending).
 */
export interface BoxField {
  col: string;
  kind: FieldKind;
  doc: boolean;
  type: 'int' | 'text' | 'date' | 'timestamptz' | 'boolean';
  notNull?: true;
}
export const FIELDS: Record<string, BoxField> = {
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
 * is checked before it is cast back (boxes.ts `POSITION_FORM`: a cursor comes from the client).
 */
const POSITION_TEXT: Record<BoxField['type'], (column: string) => string> = {
  timestamptz: (c) => `to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  date: (c) => `to_char(${c}, 'YYYY-MM-DD')`,
  int: (c) => `${c}::text`,
  boolean: (c) => `${c}::text`,
  text: (c) => c,
};

/** The box fields as a list's filters and sort read them (db/list.ts), over the keys `b`. */
export const LIST_FIELDS: ListFields = Object.fromEntries(
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
  /** Whether what is due is done (a reply sent or closed, a task completed…): its due state is `done`. */
  due_done: boolean;
  follow_reason: string | null;
  /** The delegator whose item this is, when the caller holds it as their delegate (issue 28). */
  on_behalf_of: number | null;
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
export interface Arm {
  kind: string;
  sql: SQL;
  tallies?: SQL[];
  /**
   * The arm answers an `on_behalf_of` column (the delegator of a delegate's row); the others answer
   * null. Only the approval and task boxes have such arms, each their box's only arm.
   */
  delegated?: true;
}

/** The rows of a box on one UTC day of its box date. */
export interface DayCount {
  day: string;
  n: number;
}

/**
 * The conditions of the rows of arm `kind` that come after position `from` in an order (descending: the
 * value, then the id, then the kind descending, nulls last; ascending the reverse). Each condition is
 * read by its own scan of the arm, so each stays an index range (a row comparison) rather than an OR
 * the index cannot follow.
 */
export function afterPosition(
  col: SQL,
  field: BoxField,
  from: Position,
  kind: string,
  descending: boolean,
): SQL[] {
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
 * A box's date range: [fromDate, toDate] inclusive, on each arm's box_date (BOX_DATE names it: every arm
 * passes `range` the very expression it answers as box_date); default the last 30 days. What is still to
 * do does not expire: follow-ups and the approval boxes have no default lower bound.
 */
export function dateRange(box: Box, query: Pick<BoxQuery, 'fromDate' | 'toDate'>) {
  const fromDate = query.fromDate
    ? rangeStart(query.fromDate)
    : OPEN_ENDED_BOXES.has(box)
      ? null
      : sql`(((now() at time zone 'UTC')::date - ${DEFAULT_DATE_RANGE_DAYS}::int)::timestamp at time zone 'UTC')`;
  const toDate = query.toDate ? rangeEnd(query.toDate) : null;
  const range: Range = (column) => {
    const c = sql.raw(column);
    const parts = [sql`true`];
    if (fromDate) parts.push(sql`${c} >= ${fromDate}`);
    if (toDate) parts.push(sql`${c} < ${toDate}`);
    return sql.join(parts, sql` and `);
  };
  return { fromDate, toDate, range };
}

/**
 * The conditions on a box's keys `b` beyond its arms: the list's filters (`filters`, db/list.ts), the view
 * and the search text (already normalised) in the subject, the number or the sender's reference.
 */
export function keyConditions(filters: SQL | undefined, view: BoxQuery['view'], q: string): SQL[] {
  const where: SQL[] = [];
  if (filters) where.push(filters);
  if (view === 'completed') where.push(sql`b.done`);
  if (view === 'notCompleted') where.push(sql`not b.done`);
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      sql`(b.subject_search like ${like} or b.doc_number ilike ${like} or b.sender_document_number ilike ${like})`,
    );
  }
  return where;
}

const whereOf = (conditions: SQL[]) =>
  conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;

/** How a window of a box's keys is read (boxes.ts chooses it). */
export interface KeyWindow {
  arms: Arm[];
  where: SQL[];
  field: BoxField;
  /** Read from after this position (else from the top). */
  from: Position | null;
  descending: boolean;
  offset: number;
  limit: number;
}

/**
 * A window of a box's keys in its order — value, id, kind — from the top or from after a keyset position:
 * the rows `offset + 1 … offset + limit`. Each arm (and each condition after the position) is filtered,
 * sorted and cut on its own, so it reads its index in order and stops early — PostgreSQL does not push an
 * ORDER BY … LIMIT into the arms of a UNION ALL —, then the arms are merged and the window cut; only the
 * window's rows are formatted. The merge follows value and id only (ordering a deep merge by the kind too
 * made PostgreSQL sort every row passed over); the window is put in the full order at the end.
 */
export async function keyWindow(on: Tx, w: KeyWindow): Promise<BoxKey[]> {
  const col = sql.raw(`b.${w.field.col}`);
  // NULLS placement matching the indexes (DESC NULLS LAST), so each arm streams in index order.
  const orderOf = (c: SQL, id: SQL) =>
    w.descending
      ? sql`${c} desc nulls last, ${id} desc nulls last`
      : sql`${c} asc nulls first, ${id} asc nulls first`;
  const kindOrder = w.descending ? sql`desc` : sql`asc`;
  const upTo = w.offset + w.limit;
  const scans = w.arms.flatMap((arm) =>
    (w.from ? afterPosition(col, w.field, w.from, arm.kind, w.descending) : [null]).map(
      (beyond) => sql`(select b.kind, b.row_id, b.document_id, b.dist_id, b.task_id, b.box_date, b.done,
          b.follow_reason, ${arm.delegated ? sql`b.on_behalf_of` : sql`null::int`} as on_behalf_of,
          ${col} as sort_key from (${arm.sql}) b
          ${whereOf(beyond ? [...w.where, beyond] : w.where)}
          order by ${orderOf(col, sql`b.row_id`)} limit ${upTo})`,
    ),
  );
  return rowsOf<BoxKey>(
    on,
    sql`select p.kind || p.row_id as key, p.kind, p.row_id,
          ${sql.raw(POSITION_TEXT[w.field.type]('p.sort_key'))} as sort_value, p.document_id,
          p.dist_id, p.task_id,
          to_char(p.box_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as box_date, p.done,
          to_char(due.due_date, 'YYYY-MM-DD') as due_date, coalesce(due.due_done, false) as due_done,
          p.follow_reason, p.on_behalf_of
        from (select * from (${sql.join(scans, sql` union all `)}) b
              order by ${orderOf(sql`b.sort_key`, sql`b.row_id`)}
              limit ${w.limit} offset ${w.offset}) p
        -- The window's due dates only: read in the scans, they would take every row passed over out of
        -- its covering index (a deep page's thousands). Each arm finds its row by its key.
        left join lateral (select b.due_date, b.due_done
          from (${sql.join(
            w.arms.map((a) => a.sql),
            sql` union all `,
          )}) b
          where b.kind = p.kind and b.row_id = p.row_id limit 1) due on true
        order by ${orderOf(sql`p.sort_key`, sql`p.row_id`)}, p.kind ${kindOrder}`,
  );
}

/**
 * The keys of a box counted up to `cap + 1` (index-only scans with the covering indexes of the boxes):
 * more than `cap` says only that the box holds more.
 */
export async function countKeys(db: Tx, arms: Arm[], where: SQL[], cap: number): Promise<number> {
  const union = sql.join(
    arms.map((a) => a.sql),
    sql` union all `,
  );
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from (${union}) b ${whereOf(where)} limit ${cap + 1}) c`,
  );
  return row?.n ?? 0;
}

/** A box's date range over one arm's box-date expression. */
export type Range = (column: string) => SQL;

/**
 * The rows of a tallied box per UTC day of its box date, within its range (oldest day first): the days
 * wholly inside the range from the tallies of the arms that have them; the range's partial first and
 * last days, and the arms without tallies, by counting their rows.
 */
export async function dayCounts(
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
 * The due date of a filed document's row and whether it is done: an incoming letter's reply (done once
 * answered or closed); nothing for the rest.
 */
const replyDue = (direction: string) =>
  direction === 'in'
    ? sql`d.reply_due_on as due_date, (d.reply_done_at is not null) as due_done`
    : sql`null::date as due_date, false as due_done`;
/** The same for a distribution's row read without its document (a box page's rows only). */
const replyDueOfDistribution = sql`(select rd.reply_due_on from documents rd where rd.id = x.document_id) as due_date,
  coalesce((select rd.reply_done_at is not null from documents rd where rd.id = x.document_id), false) as due_done`;

/** The arms of a box for a caller (empty: the box is empty for them). */
export function armsOf(scope: Scope, box: Box, needsDoc: boolean, range: Range): Arm[] {
  // Every arm's rows start with their kind: `select '<kind>'::text as kind, …`.
  const arm = (kind: string, rest: SQL, tallies?: SQL[]): Arm => ({
    kind,
    sql: sql`select ${sql.raw(`'${kind}'::text`)} as kind, ${rest}`,
    ...(tallies ? { tallies } : {}),
  });
  // The delegate's rows of their delegators (issue 28), marked with whose they are.
  const delegatedArm = (kind: string, rest: SQL, onBehalfOf: SQL): Arm => ({
    ...arm(kind, sql`${onBehalfOf} as on_behalf_of, ${rest}`),
    delegated: true,
  });
  const docCols = sql.raw(DOC_COLUMNS);
  const rank = scope.isAdmin ? sql`true` : sql`d.security_rank <= ${scope.clearance}`;
  const draftsOf = (direction: string) => [
    arm(
      'd',
      sql`d.id as row_id, d.id as document_id, null::int as dist_id, null::int as task_id,
          d.created_at as box_date, false as done, null::text as dist_type, null::text as task_state,
          null::date as task_date, null::date as due_date, false as due_done, null::text as follow_reason,
          ${docCols}
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
          null::text as dist_type, null::text as task_state, null::date as task_date, ${replyDue(direction)},
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
        x.type as dist_type, null::text as task_state, null::date as task_date,
        ${direction !== 'in' ? replyDue(direction) : needsDoc ? replyDue('in') : replyDueOfDistribution},
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
          null::text as task_state, null::date as task_date,
          (select min(pm.due_on) from approval_members pm where pm.document_id = d.id and pm.pending) as due_date,
          false as due_done, null::text as follow_reason, ${docCols}
        from documents d
        where d.created_by = ${scope.userId}
          and d.direction in ${inList2(family === 'out' ? ['out'] : ['memo', 'internal'])}
          and d.state in ${inList2(states)} and ${range('coalesce(d.submitted_at, d.created_at)')}`,
    );
  // What waits for the caller's answer: their pending circuit rows (one partial index range), and those
  // of the people whose approvals they hold today as their delegate.
  const pendingArm = (family: 'out' | 'memo') =>
    delegatedArm(
      'a',
      sql`m.id as row_id, m.document_id, null::int as dist_id, null::int as task_id,
          m.activated_at as box_date, false as done, m.kind as dist_type, null::text as task_state,
          null::date as task_date, m.due_on as due_date, false as due_done, null::text as follow_reason,
          ${needsDoc ? docCols : sql.raw(NO_DOC_COLUMNS)}
        from approval_members m ${needsDoc ? sql`join documents d on d.id = m.document_id` : sql``}
        where m.user_id in ${inList(circuitUsers(scope))} and m.pending and m.direction = ${family}
          and ${scope.isAdmin ? sql`true` : sql`m.security_rank <= ${scope.clearance}`}
          and ${range('m.activated_at')}`,
      sql`case when m.user_id <> ${scope.userId} then m.user_id end`,
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
      // The tasks of the people whose tasks the caller holds today as their delegate.
      const behalf = scope.delegators.filter((g) => g.tasks && g.employeeId !== null);
      if (!who.length && !behalf.length) return [];
      const own = who.length ? sql`(${sql.join(who, sql` or `)})` : sql`false`;
      if (behalf.length) who.push(sql`t.employee_id in ${inList(behalf.map((g) => g.employeeId!))}`);
      const whose = behalf.length
        ? sql`case when ${own} then null else case t.employee_id ${sql.join(
            behalf.map((g) => sql`when ${g.employeeId!}::int then ${g.userId}::int`),
            sql` `,
          )} end end`
        : sql`null::int`;
      return [
        delegatedArm(
          't',
          sql`t.id as row_id, t.document_id, t.distribution_id as dist_id, t.id as task_id,
            t.created_at as box_date, (t.state = 'completed') as done, t.type as dist_type, t.state as task_state,
            t.task_date, t.task_date as due_date, (t.state = 'completed') as due_done, null::text as follow_reason,
            ${docCols}
          from tasks t join documents d on d.id = t.document_id
          where (${sql.join(who, sql` or `)}) and ${rank} and ${range('t.created_at')}`,
          whose,
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
            (d.completed_at is not null) as due_done, 'followed'::text as follow_reason, ${docCols}
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
            false as due_done, 'action'::text as follow_reason, ${docCols}
          from distributions x join documents d on d.id = x.document_id
          where x.department_id in ${inList(scope.leadDepartmentIds)} and x.type = 'forAction'
            and x.completed_at is null and x.security_rank <= ${scope.clearance} and ${range('x.registered_at')}`,
          ),
        );
      return arms;
    }
  }
}
