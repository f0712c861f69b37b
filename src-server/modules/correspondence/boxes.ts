/**
 * The boxes (GET /correspondence/boxes/{box}). Each box is a union of "arms" producing uniform key rows
 * (b.kind, b.row_id, b.document_id, b.box_date, b.done, …); filters, sort and paging run over the keys,
 * then the page's documents are read through the visibility predicate. Every arm is a subset of what
 * the predicate admits (receiving departments' leads, members for knowledge, taskers, archive office,
 * creator — each with the security rank checked on the arm's own table), so the keys never count a row
 * the caller could not see, and the predicate guards the page again. The incoming arm reads a
 * department's distributions from one index (department, registered_at desc, id desc) and only joins
 * documents when a filter or the sort needs a document column: first and deep pages stay index scans.
 */
import { sql, type SQL } from 'drizzle-orm';
import { normalizeArabic } from '../../../src-shared/arabic';
import { filtersSchema } from '../../../src-shared/filters';
import { DEFAULT_DATE_RANGE_DAYS, type Box, type BoxQuery } from '../../../src-shared/api/correspondence';
import { listClauses, ownEntry, type FieldKind, type ListFields } from '../../db/list';
import { HttpProblem } from '../../http/problem';
import type { Tx } from '../auth/queries';
import { rows } from './queries';
import { inList, type Scope } from './visibility';

/** Box fields: the key column and whether it needs the document joined. */
const FIELDS: Record<string, { col: string; kind: FieldKind; doc: boolean }> = {
  id: { col: 'document_id', kind: 'number', doc: false },
  docNumber: { col: 'doc_number', kind: 'text', doc: true },
  sequence: { col: 'sequence', kind: 'number', doc: true },
  subject: { col: 'subject_search', kind: 'text', doc: true },
  senderDocumentNumber: { col: 'sender_document_number', kind: 'text', doc: true },
  documentDate: { col: 'document_date', kind: 'date', doc: true },
  receivedDate: { col: 'received_date', kind: 'date', doc: true },
  registeredAt: { col: 'registered_at', kind: 'date', doc: true },
  createdAt: { col: 'created_at', kind: 'date', doc: true },
  boxDate: { col: 'box_date', kind: 'date', doc: false },
  priorityLevel: { col: 'priority_rank', kind: 'number', doc: true },
  securityLevel: { col: 'security_rank', kind: 'number', doc: true },
  senderId: { col: 'sender_department_id', kind: 'number', doc: true },
  codificationId: { col: 'codification_id', kind: 'number', doc: true },
  distributionType: { col: 'dist_type', kind: 'text', doc: false },
  completed: { col: 'done', kind: 'boolean', doc: false },
  taskState: { col: 'task_state', kind: 'text', doc: false },
  taskDate: { col: 'task_date', kind: 'date', doc: false },
  dueDate: { col: 'due_date', kind: 'date', doc: false },
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

/** The page of keys of a box and the total. */
export interface BoxKeys {
  keys: {
    key: string;
    document_id: number;
    dist_id: number | null;
    task_id: number | null;
    box_date: string;
    done: boolean;
    due_date: string | null;
    overdue: boolean;
    follow_reason: string | null;
  }[];
  total: number;
}

/** Normalises the text of subject filters the way the subject_search column is. */
function normaliseFilters(raw: string | undefined): string | undefined {
  if (!raw) return raw;
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

/** Boxes of work still to do, listed whatever its age unless the user picks a range. */
const OPEN_ENDED: ReadonlySet<Box> = new Set<Box>([
  'follow-ups',
  'awaiting-approval',
  'requiring-approval',
  'requiring-changes',
  'memos-awaiting-approval',
  'memos-requiring-approval',
  'memos-requiring-changes',
]);

/** Reads the keys of one page of a box. */
export async function boxKeys(db: Tx, scope: Scope, box: Box, query: BoxQuery): Promise<BoxKeys> {
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

  // Date range: [fromDate, toDate] inclusive; default the last 30 days. What is still to do does not
  // expire: follow-ups and the approval boxes have no default lower bound.
  const from = query.fromDate
    ? sql`${query.fromDate}::date::timestamptz`
    : OPEN_ENDED.has(box)
      ? null
      : sql`(current_date - ${DEFAULT_DATE_RANGE_DAYS}::int)::timestamptz`;
  const to = query.toDate ? sql`(${query.toDate}::date + 1)::timestamptz` : null;
  const range = (column: string) => {
    const c = sql.raw(column);
    const parts = [sql`true`];
    if (from) parts.push(sql`${c} >= ${from}`);
    if (to) parts.push(sql`${c} < ${to}`);
    return sql.join(parts, sql` and `);
  };

  const arms = armsOf(scope, box, needsDoc, range);
  if (!arms.length) return { keys: [], total: 0 };

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
  const whereSql = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const col = sql.raw(`b.${sortField.col}`);
  const desc = sortSpec.startsWith('-');
  // NULLS placement matching the indexes (DESC NULLS LAST), so each arm streams in index order.
  const orderOf = (c: SQL, id: SQL) =>
    desc
      ? sql`${c} desc nulls last, ${id} desc nulls last`
      : sql`${c} asc nulls first, ${id} asc nulls first`;
  const order = orderOf(col, sql`b.row_id`);

  // The page: each arm filtered, sorted and cut to offset + limit on its own (so it reads its index in
  // order and stops early — PostgreSQL does not push an ORDER BY … LIMIT into the arms of a UNION ALL),
  // the arms merged and the page cut; only the page's rows are then formatted.
  const upTo = clauses.offset + clauses.limit;
  const page = sql.join(
    arms.map(
      (
        arm,
      ) => sql`(select b.kind, b.row_id, b.document_id, b.dist_id, b.task_id, b.box_date, b.done, b.due_date,
          b.follow_reason, ${col} as sort_key from (${arm}) b ${whereSql} order by ${order} limit ${upTo})`,
    ),
    sql` union all `,
  );
  const keysQuery = rows<BoxKeys['keys'][number]>(
    db,
    sql`select p.kind || p.row_id as key, p.document_id, p.dist_id, p.task_id,
          to_char(p.box_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as box_date, p.done,
          to_char(p.due_date, 'YYYY-MM-DD') as due_date,
          coalesce(not p.done and p.due_date < current_date, false) as overdue, p.follow_reason
        from (select * from (${page}) b order by ${orderOf(sql`b.sort_key`, sql`b.row_id`)}
              limit ${clauses.limit} offset ${clauses.offset}) p
        order by ${orderOf(sql`p.sort_key`, sql`p.row_id`)}`,
  );
  // The exact total over the same arms (index-only scans with the covering indexes of the boxes), read
  // beside the page on another connection.
  const union = sql.join(arms, sql` union all `);
  const countQuery = rows<{ n: number }>(db, sql`select count(*)::int as n from (${union}) b ${whereSql}`);
  const [keys, [count]] = await Promise.all([keysQuery, countQuery]);
  return { keys, total: Number(count?.n ?? 0) };
}

type Range = (column: string) => SQL;

/** The arms of a box for a caller (empty: the box is empty for them). */
function armsOf(scope: Scope, box: Box, needsDoc: boolean, range: Range): SQL[] {
  const docCols = sql.raw(DOC_COLUMNS);
  const rank = scope.isAdmin ? sql`true` : sql`d.security_rank <= ${scope.clearance}`;
  const draftsOf = (direction: string) => [
    sql`select 'd'::text as kind, d.id as row_id, d.id as document_id, null::int as dist_id, null::int as task_id,
          d.created_at as box_date, false as done, null::text as dist_type, null::text as task_state,
          null::date as task_date, null::date as due_date, null::text as follow_reason, ${docCols}
        from documents d
        where d.state = 'draft' and d.direction = ${direction} and d.created_by = ${scope.userId}
          and ${range('d.created_at')}`,
  ];
  // Filed documents the archive office holds (and their authors see): registered incoming mail, approved
  // outgoing letters (done: dispatched) and approved memos (done: every action item completed).
  const registeredArm = (direction: string, state = 'registered', done = sql`d.completed_at is not null`) => {
    const holder = scope.isAdmin
      ? sql`true`
      : scope.archiveDepartmentId !== null
        ? sql`(d.archive_department_id = ${scope.archiveDepartmentId} or d.created_by = ${scope.userId})`
        : sql`d.created_by = ${scope.userId}`;
    return sql`select 'd'::text as kind, d.id as row_id, d.id as document_id, null::int as dist_id,
          null::int as task_id, d.registered_at as box_date, (${done}) as done,
          null::text as dist_type, null::text as task_state, null::date as task_date, null::date as due_date,
          null::text as follow_reason, ${docCols}
        from documents d
        where d.direction = ${direction} and d.state = ${state} and ${holder} and ${rank}
          and ${range('d.registered_at')}`;
  };
  // What the receiving departments hold: the distributions of their leads (action and knowledge) and of
  // their members (knowledge), of one direction (incoming mail, approved memos).
  const receivedArm = (direction: string): SQL | null => {
    const lead = scope.leadDepartmentIds;
    const member =
      scope.departmentId !== null && !lead.includes(scope.departmentId) ? scope.departmentId : null;
    const receivers: SQL[] = [];
    if (lead.length) receivers.push(sql`x.department_id in ${inList(lead)}`);
    if (member !== null) receivers.push(sql`(x.department_id = ${member} and x.type = 'forKnowledge')`);
    if (!receivers.length) return null;
    return sql`select 'x'::text as kind, x.id as row_id, x.document_id, x.id as dist_id,
        null::int as task_id, x.registered_at as box_date, (x.completed_at is not null) as done,
        x.type as dist_type, null::text as task_state, null::date as task_date, null::date as due_date,
        null::text as follow_reason, ${needsDoc ? docCols : sql.raw(NO_DOC_COLUMNS)}
      from distributions x ${needsDoc ? sql`join documents d on d.id = x.document_id` : sql``}
      where (${sql.join(receivers, sql` or `)}) and x.direction = ${direction}
        and x.security_rank <= ${scope.clearance} and ${range('x.registered_at')}`;
  };
  // The author's documents in or back from a circuit, by when they were last submitted.
  const authorArm = (family: 'out' | 'memo', states: string[]) =>
    sql`select 'd'::text as kind, d.id as row_id, d.id as document_id, null::int as dist_id, null::int as task_id,
          coalesce(d.submitted_at, d.created_at) as box_date, false as done, null::text as dist_type,
          null::text as task_state, null::date as task_date, null::date as due_date, null::text as follow_reason,
          ${docCols}
        from documents d
        where d.created_by = ${scope.userId}
          and d.direction in ${inList2(family === 'out' ? ['out'] : ['memo', 'internal'])}
          and d.state in ${inList2(states)} and ${range('coalesce(d.submitted_at, d.created_at)')}`;
  // What waits for the caller's answer: their pending circuit rows (one partial index range).
  const pendingArm = (family: 'out' | 'memo') =>
    sql`select 'a'::text as kind, m.id as row_id, m.document_id, null::int as dist_id, null::int as task_id,
          m.activated_at as box_date, false as done, m.kind as dist_type, null::text as task_state,
          null::date as task_date, null::date as due_date, null::text as follow_reason,
          ${needsDoc ? docCols : sql.raw(NO_DOC_COLUMNS)}
        from approval_members m ${needsDoc ? sql`join documents d on d.id = m.document_id` : sql``}
        where m.user_id = ${scope.userId} and m.pending and m.direction = ${family}
          and ${scope.isAdmin ? sql`true` : sql`m.security_rank <= ${scope.clearance}`}
          and ${range('m.activated_at')}`;

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
        sql`select 't'::text as kind, t.id as row_id, t.document_id, t.distribution_id as dist_id, t.id as task_id,
            t.created_at as box_date, (t.state = 'completed') as done, t.type as dist_type, t.state as task_state,
            t.task_date, t.task_date as due_date, null::text as follow_reason, ${docCols}
          from tasks t join documents d on d.id = t.document_id
          where (${sql.join(who, sql` or `)}) and ${rank} and ${range('t.created_at')}`,
      ];
    }
    case 'follow-ups': {
      const arms = [
        sql`select 'f'::text as kind, d.id as row_id, d.id as document_id, null::int as dist_id, null::int as task_id,
            coalesce(d.registered_at, d.created_at) as box_date, (d.completed_at is not null) as done,
            null::text as dist_type, null::text as task_state, null::date as task_date, f.due_date,
            'followed'::text as follow_reason, ${docCols}
          from document_follows f join documents d on d.id = f.document_id
          where f.user_id = ${scope.userId} and ${rank} and ${range('coalesce(d.registered_at, d.created_at)')}`,
      ];
      if (scope.leadDepartmentIds.length)
        arms.push(sql`select 'x'::text as kind, x.id as row_id, x.document_id, x.id as dist_id, null::int as task_id,
            x.registered_at as box_date, false as done, x.type as dist_type, null::text as task_state,
            null::date as task_date,
            (select min(t.task_date) from tasks t where t.distribution_id = x.id and t.state <> 'completed') as due_date,
            'action'::text as follow_reason, ${docCols}
          from distributions x join documents d on d.id = x.document_id
          where x.department_id in ${inList(scope.leadDepartmentIds)} and x.type = 'forAction'
            and x.completed_at is null and x.security_rank <= ${scope.clearance} and ${range('x.registered_at')}`);
      return arms;
    }
  }
}
