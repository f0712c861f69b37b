/**
 * SQL of the correspondence core: documents and their numbers, distributions, tasks, follows, relations,
 * attachments and timeline events. Reads that return documents take the visibility predicate
 * (visibility.ts). Written as SQL so instants come back as ISO strings and dates as `YYYY-MM-DD` on both
 * drivers (node-postgres and PGlite).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AttachmentKind } from '../../../src-shared/api/correspondence';
import type { Tx } from '../auth/queries';
import type { distributions, documentAttachments, documents, tasks } from '../../db/schema';
import { rowsOf, type RowOf } from '../../db/rows';
import { day, iso } from '../../db/sql';
import { inList, visibleTo, type Scope } from './visibility';

/** The documents table's columns, as SQL answers them (schema.ts). */
type DocumentColumns = RowOf<typeof documents.$inferSelect>;

/**
 * A document with every display column: its own columns (the sender and recipient departments under the
 * names `sender_id` and `recipient_id`) and the names of what it refers to.
 */
export type DocumentRow = Omit<
  DocumentColumns,
  'subject_search' | 'sender_department_id' | 'recipient_department_id'
> & {
  sender_id: number | null;
  sender_ar: string | null;
  sender_en: string | null;
  codification_ar: string | null;
  codification_en: string | null;
  codification_prefix: string | null;
  codification_direction: string | null;
  security_ar: string | null;
  security_en: string | null;
  priority_ar: string | null;
  priority_en: string | null;
  department_ar: string | null;
  department_en: string | null;
  recipient_id: number | null;
  recipient_ar: string | null;
  recipient_en: string | null;
  recipient_archive_office_id: number | null;
  medium_ar: string | null;
  medium_en: string | null;
  created_by_ar: string | null;
  created_by_en: string | null;
  registered_by_ar: string | null;
  registered_by_en: string | null;
  distributed: boolean;
  followed: boolean;
  dispatched_by_ar: string | null;
  dispatched_by_en: string | null;
  dispatch_medium_ar: string | null;
  dispatch_medium_en: string | null;
  file_code: string | null;
  file_title_ar: string | null;
  file_title_en: string | null;
  file_closed: boolean | null;
};

/** Documents with every display column, visible to `scope`, by id. */
export async function documentsByIds(
  db: Tx,
  scope: Scope,
  ids: readonly number[],
  forUpdate = false,
): Promise<DocumentRow[]> {
  if (!ids.length) return [];
  return rowsOf<DocumentRow>(
    db,
    sql`select d.id, d.direction, d.state, d.doc_number, d.sequence, d.year, d.sender_document_number,
      d.subject, d.summary,
      d.sender_department_id as sender_id, snd.name_ar as sender_ar, snd.name_en as sender_en,
      d.receiver, ${day('d.received_date')} as received_date, ${day('d.document_date')} as document_date,
      d.codification_id, cod.name_ar as codification_ar, cod.name_en as codification_en,
      cod.prefix as codification_prefix, cod.direction as codification_direction,
      d.security_level_id, sec.name_ar as security_ar, sec.name_en as security_en, d.security_rank,
      d.priority_id, pri.name_ar as priority_ar, pri.name_en as priority_en, d.priority_rank,
      d.department_id, dep.name_ar as department_ar, dep.name_en as department_en,
      d.recipient_department_id as recipient_id, rcp.name_ar as recipient_ar, rcp.name_en as recipient_en,
      rcp.archive_office_id as recipient_archive_office_id,
      d.medium_id, med.name_ar as medium_ar, med.name_en as medium_en,
      d.file_id, rf.code as file_code, rf.title_ar as file_title_ar, rf.title_en as file_title_en,
      (rf.closed_on is not null or rf.disposed is not null) as file_closed, d.archive_department_id,
      d.created_by, cu.name_ar as created_by_ar, cu.name_en as created_by_en,
      d.registered_by, ru.name_ar as registered_by_ar, ru.name_en as registered_by_en,
      ${iso('d.created_at')} as created_at, ${iso('d.registered_at')} as registered_at,
      ${iso('d.completed_at')} as completed_at, ${iso('d.updated_at')} as updated_at,
      exists (select 1 from distributions x where x.document_id = d.id) as distributed,
      exists (select 1 from document_follows f where f.document_id = d.id and f.user_id = ${scope.userId}) as followed,
      d.version, d.submitted_version, d.current_step, ${iso('d.submitted_at')} as submitted_at,
      ${iso('d.approved_at')} as approved_at, ${iso('d.dispatched_at')} as dispatched_at,
      d.dispatched_by, du.name_ar as dispatched_by_ar, du.name_en as dispatched_by_en,
      d.dispatch_medium_id, dmd.name_ar as dispatch_medium_ar, dmd.name_en as dispatch_medium_en,
      ${day('d.dispatch_date')} as dispatch_date, d.delivered, ${day('d.reply_due_on')} as reply_due_on
    from documents d
    left join departments snd on snd.id = d.sender_department_id
    left join correspondence_settings cod on cod.id = d.codification_id
    left join correspondence_settings sec on sec.id = d.security_level_id
    left join correspondence_settings pri on pri.id = d.priority_id
    left join departments dep on dep.id = d.department_id
    left join departments rcp on rcp.id = d.recipient_department_id
    left join correspondence_settings med on med.id = d.medium_id
    left join users cu on cu.id = d.created_by
    left join users ru on ru.id = d.registered_by
    left join users du on du.id = d.dispatched_by
    left join correspondence_settings dmd on dmd.id = d.dispatch_medium_id
    left join record_files rf on rf.id = d.file_id
    where d.id in ${inList(ids)} and ${visibleTo(scope)}
    ${forUpdate ? sql`for update of d` : sql``}`,
  );
}

/** What a row of a box shows of its document (a subset of DocumentRow). */
export type BoxDocumentRow = Pick<
  DocumentRow,
  | 'id'
  | 'direction'
  | 'state'
  | 'doc_number'
  | 'subject'
  | 'sender_document_number'
  | 'sender_id'
  | 'sender_ar'
  | 'sender_en'
  | 'document_date'
  | 'received_date'
  | 'priority_id'
  | 'priority_ar'
  | 'priority_en'
  | 'priority_rank'
  | 'security_level_id'
  | 'security_ar'
  | 'security_en'
  | 'security_rank'
  | 'registered_at'
  | 'created_at'
  | 'distributed'
>;

/**
 * The documents of a page of a box, visible to `scope`, by id: only the columns a box row shows, so the
 * statement joins three tables rather than documentsByIds' eleven (whose planning alone took longer than
 * the whole page on PostgreSQL).
 */
export async function boxDocumentsByIds(
  db: Tx,
  scope: Scope,
  ids: readonly number[],
): Promise<BoxDocumentRow[]> {
  if (!ids.length) return [];
  return rowsOf<BoxDocumentRow>(
    db,
    sql`select d.id, d.direction, d.state, d.doc_number, d.subject, d.sender_document_number,
      d.sender_department_id as sender_id, snd.name_ar as sender_ar, snd.name_en as sender_en,
      ${day('d.document_date')} as document_date, ${day('d.received_date')} as received_date,
      d.priority_id, pri.name_ar as priority_ar, pri.name_en as priority_en, d.priority_rank,
      d.security_level_id, sec.name_ar as security_ar, sec.name_en as security_en, d.security_rank,
      ${iso('d.registered_at')} as registered_at, ${iso('d.created_at')} as created_at,
      exists (select 1 from distributions x where x.document_id = d.id) as distributed
    from documents d
    left join departments snd on snd.id = d.sender_department_id
    left join correspondence_settings sec on sec.id = d.security_level_id
    left join correspondence_settings pri on pri.id = d.priority_id
    where d.id in ${inList(ids)} and ${visibleTo(scope)}`,
  );
}

/** The ids among `ids` that `scope` may see (for links to other documents). */
export async function visibleIds(db: Tx, scope: Scope, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const found = await rowsOf<{ id: number }>(
    db,
    sql`select d.id from documents d where d.id in ${inList(ids)} and ${visibleTo(scope)}`,
  );
  return found.map((r) => r.id);
}

/** A settings item of a list, if it exists and is active. */
export async function settingOf(db: Tx, list: string, id: number) {
  const [row] = await rowsOf<{
    id: number;
    level: number | null;
    direction: string | null;
    prefix: string | null;
  }>(
    db,
    sql`select id, level, direction, prefix from correspondence_settings
        where id = ${id} and list = ${list} and active`,
  );
  return row ?? null;
}

/** A department, if it exists and is active. */
export async function departmentOf(db: Tx, id: number) {
  const [row] = await rowsOf<{
    id: number;
    name_ar: string;
    name_en: string;
    type: string;
    archive_office_id: number | null;
  }>(
    db,
    sql`select id, name_ar, name_en, type, archive_office_id from departments where id = ${id} and active`,
  );
  return row ?? null;
}

/** An active employee with their department and names. */
export async function employeeOf(db: Tx, id: number) {
  const [row] = await rowsOf<{ id: number; department_id: number; name_ar: string; name_en: string }>(
    db,
    sql`select id, department_id, first_name_ar || ' ' || last_name_ar as name_ar,
          first_name_en || ' ' || last_name_en as name_en
        from employees where id = ${id} and active`,
  );
  return row ?? null;
}

/**
 * The clearance (highest security rank) of the active account linked to an employee — its own level, or
 * the lowest active level as the visibility predicate assumes — or null when the employee has no account.
 */
export async function clearanceOfEmployee(db: Tx, employeeId: number): Promise<number | null> {
  const [row] = await rowsOf<{ clearance: number }>(
    db,
    sql`select coalesce((select s.level from user_clearances c
                           join correspondence_settings s on s.id = c.security_level_id
                          where c.user_id = u.id),
                        (select min(s.level) from correspondence_settings s
                          where s.list = 'security-levels' and s.active), 0)::int as clearance
        from users u where u.employee_id = ${employeeId} and u.active limit 1`,
  );
  return row ? row.clearance : null;
}

type RoleOf = { roleId: number; isSystem: boolean; roleActive: boolean };

/** What the caller's role holds on the page at `path`, as a test (administrators hold all), in one read. */
export async function pagePermissionsOf(
  db: Tx,
  caller: RoleOf,
  path: string,
): Promise<(permission: string) => boolean> {
  if (caller.isSystem) return () => true;
  if (!caller.roleActive) return () => false;
  const [row] = await rowsOf<{ permissions: string[] }>(
    db,
    sql`select rpp.permissions from role_page_permissions rpp join pages p on p.id = rpp.page_id
          where rpp.role_id = ${caller.roleId} and p.path = ${path}`,
  );
  const held = row?.permissions ?? [];
  return (permission) => held.includes(permission);
}

/** Whether the caller's role holds `permission` on the page at `path` (administrators hold all). */
export async function hasPagePermission(db: Tx, caller: RoleOf, path: string, permission: string) {
  return (await pagePermissionsOf(db, caller, path))(permission);
}

export type DocumentValues = Partial<{
  direction: string;
  subject: string;
  sender_document_number: string | null;
  summary: string | null;
  sender_department_id: number | null;
  receiver: string | null;
  received_date: string | null;
  document_date: string | null;
  codification_id: number | null;
  security_level_id: number | null;
  security_rank: number;
  priority_id: number | null;
  priority_rank: number;
  department_id: number | null;
  recipient_department_id: number | null;
  medium_id: number | null;
  file_id: number | null;
  archive_department_id: number | null;
  created_by: number;
  reply_due_on: string | null;
}>;

function assignments(values: DocumentValues): SQL[] {
  return Object.entries(values).map(([k, v]) => sql`${sql.identifier(k)} = ${v}`);
}

export async function insertDocument(db: Tx, values: DocumentValues): Promise<number> {
  const keys = Object.keys(values);
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`insert into documents (${sql.join(
      keys.map((k) => sql.identifier(k)),
      sql`, `,
    )}) values (${sql.join(
      Object.values(values).map((v) => sql`${v}`),
      sql`, `,
    )}) returning id`,
  );
  return row!.id;
}

/** Changes a document's fields; the version rises (approvals are given to a version). */
export async function updateDocument(db: Tx, id: number, values: DocumentValues): Promise<void> {
  const set = assignments(values);
  await db.execute(
    sql`update documents set ${set.length ? sql`${sql.join(set, sql`, `)}, ` : sql``}version = version + 1,
        updated_at = now() where id = ${id}`,
  );
}

/** Raises a document's version (an attachment added or removed). */
export async function bumpVersion(db: Tx, id: number): Promise<void> {
  await db.execute(sql`update documents set version = version + 1, updated_at = now() where id = ${id}`);
}

// ---------------------------------------------------------------- recipients

/** The receivers (outgoing) or recipient departments (memos) of documents, in the author's order. */
export async function recipientsListOf(db: Tx, documentIds: readonly number[]) {
  if (!documentIds.length) return [];
  return rowsOf<{ document_id: number; id: number; name_ar: string; name_en: string; type: string }>(
    db,
    sql`select r.document_id, dep.id, dep.name_ar, dep.name_en, dep.type
        from document_recipients r join departments dep on dep.id = r.department_id
        where r.document_id in ${inList(documentIds)} order by r.document_id, r.position`,
  );
}

/** Replaces a document's recipients (answers whether they changed). */
export async function setRecipients(db: Tx, documentId: number, departmentIds: readonly number[]) {
  const before = (await recipientsListOf(db, [documentId])).map((r) => r.id);
  if (before.length === departmentIds.length && before.every((id, i) => id === departmentIds[i]))
    return false;
  await db.execute(sql`delete from document_recipients where document_id = ${documentId}`);
  if (departmentIds.length)
    await db.execute(sql`insert into document_recipients (document_id, department_id, position)
      values ${sql.join(
        departmentIds.map((id, i) => sql`(${documentId}, ${id}, ${i})`),
        sql`, `,
      )}`);
  return true;
}

/**
 * Takes the next sequence of a codification in a year. The counter row is locked until the transaction
 * ends, so concurrent registrations queue on it: no duplicates, and a rollback gives the number back
 * (no gaps).
 */
export async function takeSequence(db: Tx, codificationId: number, year: number): Promise<number> {
  await db.execute(sql`insert into document_counters (codification_id, year, next)
    values (${codificationId}, ${year}, 1) on conflict do nothing`);
  const [row] = await rowsOf<{ seq: number }>(
    db,
    sql`update document_counters set next = next + 1
        where codification_id = ${codificationId} and year = ${year} returning next - 1 as seq`,
  );
  return row!.seq;
}

/** The database's current year (registration numbers follow the server's clock, not the client's). */
export async function currentYear(db: Tx): Promise<number> {
  const [row] = await rowsOf<{ y: number }>(db, sql`select extract(year from now())::int as y`);
  return row!.y;
}

export async function markRegistered(
  db: Tx,
  id: number,
  v: {
    sequence: number;
    year: number;
    docNumber: string;
    userId: number;
    archiveDepartmentId: number | null;
  },
) {
  await db.execute(sql`update documents set state = 'registered', sequence = ${v.sequence}, year = ${v.year},
    doc_number = ${v.docNumber}, registered_at = now(), registered_by = ${v.userId},
    archive_department_id = coalesce(${v.archiveDepartmentId}, archive_department_id),
    received_date = coalesce(received_date, current_date), updated_at = now() where id = ${id}`);
}

export async function deleteDocument(db: Tx, id: number) {
  await db.execute(sql`delete from documents where id = ${id}`);
}

export { appendEvent } from '../../db/records';

/** How many times an event happened to a document (e.g. its sticker printed: the next is a reprint). */
export async function eventCount(db: Tx, documentId: number, event: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from document_events where document_id = ${documentId} and event = ${event}`,
  );
  return row?.n ?? 0;
}

export async function timeline(db: Tx, documentId: number) {
  return rowsOf<{
    id: number;
    event: string;
    actor_id: number | null;
    actor_ar: string | null;
    actor_en: string | null;
    at: string;
    details: Record<string, unknown> | string;
  }>(
    db,
    sql`select e.id, e.event, e.actor_id, u.name_ar as actor_ar, u.name_en as actor_en, ${iso('e.at')} as at, e.details
        from document_events e left join users u on u.id = e.actor_id
        where e.document_id = ${documentId} order by e.id`,
  );
}

// ---------------------------------------------------------------- relations

/** A document as another one lists it (related documents, the related-documents lookup). */
export type DocumentLinkRow = Pick<
  DocumentColumns,
  'id' | 'direction' | 'state' | 'doc_number' | 'subject' | 'document_date'
>;
const LINK_COLUMNS = sql.raw(
  `d.id, d.direction, d.state, d.doc_number, d.subject, to_char(d.document_date, 'YYYY-MM-DD') as document_date`,
);

export async function relatedOf(db: Tx, scope: Scope, documentId: number) {
  return rowsOf<DocumentLinkRow>(
    db,
    sql`select ${LINK_COLUMNS}
        from document_relations r join documents d on d.id = r.related_id
        where r.document_id = ${documentId} and ${visibleTo(scope)} order by d.id`,
  );
}

/** Documents the caller may see matching a typed text (number, sender's number, normalised subject). */
export async function lookup(db: Tx, scope: Scope, q: string, limit = 20) {
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return rowsOf<DocumentLinkRow>(
    db,
    sql`select ${LINK_COLUMNS}
        from documents d
        where ${visibleTo(scope)} and (${q} = '' or d.subject_search like ${like} or d.doc_number ilike ${like}
          or d.sender_document_number ilike ${like})
        order by coalesce(d.registered_at, d.created_at) desc, d.id desc limit ${limit}`,
  );
}

/** Links two documents both ways; answers whether the link is new. */
export async function relate(db: Tx, a: number, b: number, userId: number): Promise<boolean> {
  const inserted = await rowsOf(
    db,
    sql`insert into document_relations (document_id, related_id, created_by)
        values (${a}, ${b}, ${userId}), (${b}, ${a}, ${userId}) on conflict do nothing returning document_id`,
  );
  return inserted.length > 0;
}

/**
 * Whether a link between two documents existed when `documentId` was approved (it is then part of what was
 * approved); null when there is no link.
 */
export async function linkApprovedWith(
  db: Tx,
  documentId: number,
  relatedId: number,
): Promise<boolean | null> {
  const [row] = await rowsOf<{ approved_with: boolean }>(
    db,
    sql`select coalesce(r.created_at <= d.approved_at, false) as approved_with
        from document_relations r join documents d on d.id = r.document_id
        where r.document_id = ${documentId} and r.related_id = ${relatedId}`,
  );
  return row ? !!row.approved_with : null;
}

export async function unrelate(db: Tx, a: number, b: number): Promise<boolean> {
  const deleted = await rowsOf(
    db,
    sql`delete from document_relations where (document_id = ${a} and related_id = ${b})
        or (document_id = ${b} and related_id = ${a}) returning document_id`,
  );
  return deleted.length > 0;
}

// ---------------------------------------------------------------- attachments

/** An attachment with who uploaded it. */
export type AttachmentRow = Pick<
  RowOf<typeof documentAttachments.$inferSelect>,
  | 'id'
  | 'document_id'
  | 'sha256'
  | 'file_name'
  | 'size'
  | 'mime'
  | 'uploaded_by'
  | 'uploaded_at'
  | 'kind'
  | 'text_status'
  | 'text_pages_done'
  | 'text_pages'
> & { uploaded_by_ar: string | null; uploaded_by_en: string | null };

export async function attachmentsOf(db: Tx, documentIds: readonly number[], attachmentId?: number) {
  if (!documentIds.length) return [];
  return rowsOf<AttachmentRow>(
    db,
    sql`select a.id, a.document_id, a.sha256, a.file_name, a.size::int as size, a.mime, a.uploaded_by,
          u.name_ar as uploaded_by_ar, u.name_en as uploaded_by_en, ${iso('a.uploaded_at')} as uploaded_at,
          a.kind, a.text_status, a.text_pages_done, a.text_pages
        from document_attachments a left join users u on u.id = a.uploaded_by
        where a.document_id in ${inList(documentIds)}
        ${attachmentId !== undefined ? sql`and a.id = ${attachmentId}` : sql``}
        order by a.id`,
  );
}

/** The text read from an attachment, page by page. */
export async function attachmentPagesOf(db: Tx, attachmentId: number) {
  return rowsOf<{ page: number; method: 'text' | 'ocr' | 'empty'; text: string }>(
    db,
    sql`select page, method, text from attachment_pages where attachment_id = ${attachmentId} order by page`,
  );
}

export async function insertAttachment(
  db: Tx,
  v: {
    documentId: number;
    sha256: string;
    fileName: string;
    size: number;
    mime: string;
    userId: number;
    kind: AttachmentKind;
  },
): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`insert into document_attachments (document_id, sha256, file_name, size, mime, uploaded_by, kind)
        values (${v.documentId}, ${v.sha256}, ${v.fileName}, ${v.size}, ${v.mime}, ${v.userId}, ${v.kind})
        returning id`,
  );
  return row!.id;
}

export async function deleteAttachment(db: Tx, documentId: number, id: number): Promise<boolean> {
  const deleted = await rowsOf(
    db,
    sql`delete from document_attachments where id = ${id} and document_id = ${documentId} returning id`,
  );
  return deleted.length > 0;
}

// ---------------------------------------------------------------- distributions and tasks

/** A distribution with its department's and distributor's names. */
export type DistributionRow = Pick<
  RowOf<typeof distributions.$inferSelect>,
  | 'id'
  | 'document_id'
  | 'department_id'
  | 'type'
  | 'notes'
  | 'completed_at'
  | 'distributed_by'
  | 'distributed_at'
> & {
  department_ar: string;
  department_en: string;
  distributed_by_ar: string | null;
  distributed_by_en: string | null;
};

export async function distributionsOf(db: Tx, documentId: number, distributionIds?: readonly number[]) {
  return rowsOf<DistributionRow>(
    db,
    sql`select x.id, x.document_id, x.department_id, dep.name_ar as department_ar, dep.name_en as department_en,
          x.type, x.notes, ${iso('x.completed_at')} as completed_at, x.distributed_by,
          u.name_ar as distributed_by_ar, u.name_en as distributed_by_en, ${iso('x.distributed_at')} as distributed_at
        from distributions x join departments dep on dep.id = x.department_id
        left join users u on u.id = x.distributed_by
        where ${distributionIds ? sql`x.id in ${inList(distributionIds.length ? distributionIds : [0])}` : sql`x.document_id = ${documentId}`}
        order by x.id`,
  );
}

/** The departments each of `documentIds` was distributed to (for a page of a box), action first. */
export async function recipientsOf(db: Tx, documentIds: readonly number[]) {
  if (!documentIds.length) return [];
  return rowsOf<{
    document_id: number;
    department_id: number;
    department_ar: string;
    department_en: string;
    type: string;
  }>(
    db,
    sql`select x.document_id, x.department_id, dep.name_ar as department_ar, dep.name_en as department_en, x.type
        from distributions x join departments dep on dep.id = x.department_id
        where x.document_id in ${inList(documentIds)}
        order by x.document_id, x.type = 'forKnowledge', x.id`,
  );
}

/** Inserts a distribution, or answers null when the department already holds the document. */
export async function insertDistribution(
  db: Tx,
  v: {
    documentId: number;
    departmentId: number;
    type: string;
    notes: string | null;
    userId: number;
  },
): Promise<number | null> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`insert into distributions (document_id, department_id, type, notes, registered_at, security_rank,
          distributed_by, direction, completed_at)
        select d.id, ${v.departmentId}, ${v.type}, ${v.notes}, d.registered_at, d.security_rank, ${v.userId},
          case when d.direction = 'internal' then 'memo' else d.direction end,
          case when ${v.type} = 'forKnowledge' then now() end
        from documents d where d.id = ${v.documentId}
        on conflict (document_id, department_id) do nothing returning id`,
  );
  return row ? row.id : null;
}

/** A task with its department, tasker, assigner and document. */
export type TaskRow = Omit<RowOf<typeof tasks.$inferSelect>, 'assigned_by'> & {
  assigned_by: number | null;
  department_ar: string;
  department_en: string;
  employee_ar: string;
  employee_en: string;
  assigned_by_ar: string | null;
  assigned_by_en: string | null;
  overdue: boolean;
  doc_number: string | null;
  subject: string;
};

export async function tasksOf(db: Tx, where: SQL) {
  return rowsOf<TaskRow>(
    db,
    sql`select t.id, t.document_id, t.distribution_id, t.department_id, dep.name_ar as department_ar,
          dep.name_en as department_en, t.type, t.employee_id,
          e.first_name_ar || ' ' || e.last_name_ar as employee_ar, e.first_name_en || ' ' || e.last_name_en as employee_en,
          ${day('t.task_date')} as task_date, t.notes, t.state, t.assigned_by,
          u.name_ar as assigned_by_ar, u.name_en as assigned_by_en, ${iso('t.created_at')} as created_at,
          ${iso('t.started_at')} as started_at, ${iso('t.completed_at')} as completed_at,
          (t.state <> 'completed' and t.task_date < current_date) as overdue, d.doc_number, d.subject
        from tasks t join departments dep on dep.id = t.department_id
        join employees e on e.id = t.employee_id
        join documents d on d.id = t.document_id
        left join users u on u.id = t.assigned_by
        where ${where} order by t.id`,
  );
}

export async function insertTask(
  db: Tx,
  v: {
    documentId: number;
    distributionId: number;
    departmentId: number;
    type: string;
    employeeId: number;
    taskDate: string | null;
    notes: string | null;
    userId: number;
  },
): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`insert into tasks (document_id, distribution_id, department_id, type, employee_id, task_date, notes, assigned_by)
        values (${v.documentId}, ${v.distributionId}, ${v.departmentId}, ${v.type}, ${v.employeeId},
          ${v.taskDate}, ${v.notes}, ${v.userId}) returning id`,
  );
  return row!.id;
}

/** Moves a task from `from` to `to`; answers false when another request moved it first. */
export async function moveTask(db: Tx, id: number, from: string, to: string): Promise<boolean> {
  const moved = await rowsOf(
    db,
    sql`update tasks set state = ${to},
          started_at = case when ${to} = 'inProgress' then now() else started_at end,
          completed_at = case when ${to} = 'completed' then now() end
        where id = ${id} and state = ${from} returning id`,
  );
  return moved.length > 0;
}

/**
 * After an action task changes: the distribution is completed when it has action tasks and all are
 * completed (reopened otherwise); the document when every action distribution is. Answers whether the
 * distribution became completed by this call.
 */
export async function settleCompletion(db: Tx, distributionId: number, documentId: number): Promise<boolean> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`update distributions x set completed_at = now()
        where x.id = ${distributionId} and x.type = 'forAction' and x.completed_at is null
          and exists (select 1 from tasks t where t.distribution_id = x.id)
          and not exists (select 1 from tasks t where t.distribution_id = x.id and t.state <> 'completed')
        returning x.id`,
  );
  await db.execute(sql`update distributions x set completed_at = null
        where x.id = ${distributionId} and x.type = 'forAction' and x.completed_at is not null
          and exists (select 1 from tasks t where t.distribution_id = x.id and t.state <> 'completed')`);
  await db.execute(sql`update documents d set completed_at = case
          when exists (select 1 from distributions x where x.document_id = d.id and x.type = 'forAction')
           and not exists (select 1 from distributions x where x.document_id = d.id and x.type = 'forAction'
                             and x.completed_at is null)
          then coalesce(d.completed_at, now()) end
        where d.id = ${documentId}`);
  return !!row;
}

/** Recomputes only the document's completion (after new distributions). */
export async function settleDocument(db: Tx, documentId: number) {
  await db.execute(sql`update documents d set completed_at = case
          when exists (select 1 from distributions x where x.document_id = d.id and x.type = 'forAction')
           and not exists (select 1 from distributions x where x.document_id = d.id and x.type = 'forAction'
                             and x.completed_at is null)
          then coalesce(d.completed_at, now()) end
        where d.id = ${documentId}`);
}

// ---------------------------------------------------------------- follows

export async function follow(
  db: Tx,
  v: { userId: number; documentId: number; dueDate: string | null; notes: string | null },
) {
  const [row] = await rowsOf<{ due_date: string | null; notes: string | null; created_at: string }>(
    db,
    sql`insert into document_follows (user_id, document_id, due_date, notes)
        values (${v.userId}, ${v.documentId}, ${v.dueDate}, ${v.notes})
        on conflict (user_id, document_id) do update set due_date = excluded.due_date, notes = excluded.notes
        returning ${day('due_date')} as due_date, notes, ${iso('created_at')} as created_at`,
  );
  return row!;
}

export async function unfollow(db: Tx, userId: number, documentId: number): Promise<boolean> {
  const deleted = await rowsOf(
    db,
    sql`delete from document_follows where user_id = ${userId} and document_id = ${documentId} returning user_id`,
  );
  return deleted.length > 0;
}

// ---------------------------------------------------------------- calendar

/** The caller's tasks, their follow-up dates and the tasks of departments they lead, between two dates. */
export async function calendarOf(db: Tx, scope: Scope, from: string, to: string) {
  // A manager or secretary follows the tasks of the departments they lead, by their task dates.
  const led = scope.leadDepartmentIds.length
    ? sql`t.department_id in ${inList(scope.leadDepartmentIds)}`
    : sql`false`;
  return rowsOf<{
    kind: 'task' | 'followUp';
    key: string;
    date: string;
    document_id: number;
    doc_number: string | null;
    subject: string;
    task_id: number | null;
    task_state: string | null;
    overdue: boolean;
  }>(
    db,
    sql`select 'task' as kind, 'task:' || t.id as key, to_char(t.task_date, 'YYYY-MM-DD') as date, d.id as document_id,
          d.doc_number, d.subject, t.id as task_id, t.state as task_state,
          (t.state <> 'completed' and t.task_date < current_date) as overdue
        from tasks t join documents d on d.id = t.document_id
        where t.employee_id = ${scope.employeeId ?? 0} and t.task_date between ${from}::date and ${to}::date
          and ${visibleTo(scope)}
        union all
        select 'followUp', 'follow:' || d.id, to_char(f.due_date, 'YYYY-MM-DD'), d.id, d.doc_number, d.subject,
          null, null, (d.completed_at is null and f.due_date < current_date)
        from document_follows f join documents d on d.id = f.document_id
        where f.user_id = ${scope.userId} and f.due_date between ${from}::date and ${to}::date
          and ${visibleTo(scope)}
        union all
        select 'followUp', 'assigned:' || t.id, to_char(t.task_date, 'YYYY-MM-DD'), d.id, d.doc_number, d.subject,
          t.id, t.state, (t.state <> 'completed' and t.task_date < current_date)
        from tasks t join documents d on d.id = t.document_id
        where ${led} and t.employee_id <> ${scope.employeeId ?? 0}
          and t.task_date between ${from}::date and ${to}::date
          and ${visibleTo(scope)}
        order by date, key`,
  );
}

/**
 * Documents the caller may see that hold a file with this content (other than `exceptId`). The one way a
 * content hash is compared for a caller: a document they may not see never answers, so nobody learns
 * by sending its bytes that a hidden document holds a file.
 */
export async function holdersOf(db: Tx, scope: Scope, sha256: string, exceptId: number | null, limit = 5) {
  return rowsOf<DocumentLinkRow>(
    db,
    sql`select ${LINK_COLUMNS} from documents d
        where d.id in (select a.document_id from document_attachments a where a.sha256 = ${sha256})
          ${exceptId !== null ? sql`and d.id <> ${exceptId}` : sql``}
          and ${visibleTo(scope)}
        order by d.id limit ${limit}`,
  );
}

/** Whether a document the caller may see holds a file with this content (a duplicate, for them). */
export async function visibleHolderOf(db: Tx, scope: Scope, sha256: string): Promise<boolean> {
  return (await holdersOf(db, scope, sha256, null, 1)).length > 0;
}

/** The id of the document with this registration number, or null. */
export async function documentIdByNumber(db: Tx, docNumber: string): Promise<number | null> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`select id from documents where doc_number = ${docNumber}`,
  );
  return row ? row.id : null;
}

export interface IntakeReceiptRow {
  document_id: number;
  attachment_id: number | null;
  sha256: string;
  /** A cut batch's own receipt: how many parts it made (their receipts are `<key>#<n>`). */
  parts?: number | null;
  /** The request the key first came with (http/idempotency.ts); null on receipts older than hashes. */
  request_hash: string | null;
}

/** A receipt of intake by its sender's idempotency key. */
export async function intakeReceipt(db: Tx, userId: number, key: string): Promise<IntakeReceiptRow | null> {
  const [row] = await rowsOf<IntakeReceiptRow>(
    db,
    sql`select document_id, attachment_id, sha256, request_hash, parts from intake_receipts
         where user_id = ${userId} and key = ${key}`,
  );
  return row ?? null;
}

/** Records a receipt; false when the key is already taken (a concurrent retry won). */
export async function insertIntakeReceipt(
  db: Tx,
  v: {
    userId: number;
    key: string;
    sha256: string;
    documentId: number;
    attachmentId: number;
    requestHash: string;
    /** A part of a cut batch: the batch's pages it holds (schema.ts intakeReceipts). */
    pages?: readonly number[];
    /** A cut batch's own receipt: how many parts it made. */
    parts?: number;
  },
): Promise<boolean> {
  const pages = v.pages ? `{${v.pages.join(',')}}` : null;
  const inserted = await rowsOf(
    db,
    sql`insert into intake_receipts (user_id, key, sha256, document_id, attachment_id, request_hash, pages, parts)
        values (${v.userId}, ${v.key}, ${v.sha256}, ${v.documentId}, ${v.attachmentId}, ${v.requestHash},
                ${pages}::int[], ${v.parts ?? null}::int)
        on conflict do nothing returning 1`,
  );
  return inserted.length > 0;
}

/**
 * The document a caller's idempotency key made (POST /correspondence/documents) and the hash of the
 * request it came with (null on receipts older than hashes), or null.
 */
export async function documentReceipt(
  db: Tx,
  userId: number,
  key: string,
): Promise<{ documentId: number; requestHash: string | null } | null> {
  const [row] = await rowsOf<{ document_id: number; request_hash: string | null }>(
    db,
    sql`select document_id, request_hash from document_receipts where user_id = ${userId} and key = ${key}`,
  );
  return row ? { documentId: row.document_id, requestHash: row.request_hash } : null;
}

/** Records the document a caller's idempotency key made (under lockDocumentReceipt: the key is free). */
export async function insertDocumentReceipt(
  db: Tx,
  v: { userId: number; key: string; documentId: number; requestHash: string },
) {
  await db.execute(
    sql`insert into document_receipts (user_id, key, document_id, request_hash)
        values (${v.userId}, ${v.key}, ${v.documentId}, ${v.requestHash})`,
  );
}

/** Serialises the creates with one caller's idempotency key until the transaction ends. */
export async function lockDocumentReceipt(db: Tx, userId: number, key: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`document:${userId}:${key}`}, 0))`);
}

/** Serialises work on one content hash until the transaction ends (the duplicate check of intake). */
export async function lockContent(db: Tx, sha256: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`intake:${sha256}`}, 0))`);
}

/** Serialises work on these content hashes until the transaction ends, each locked in one order (no deadlock). */
export async function lockContents(db: Tx, sha256s: readonly string[]): Promise<void> {
  if (sha256s.length === 1) return lockContent(db, sha256s[0]!);
  await db.execute(
    sql`select pg_advisory_xact_lock(k) from (
          select distinct hashtextextended('intake:' || h, 0) as k
            from jsonb_array_elements_text(${JSON.stringify(sha256s)}::jsonb) h
           order by 1) locks`,
  );
}

/** A new incoming draft's file, as intake hands it to `intakeDrafts`. */
export interface IntakeDraftInput {
  key: string;
  /** The request the key comes with (http/idempotency.ts), recorded with the receipt. */
  requestHash: string;
  sha256: string;
  subject: string;
  fileName: string;
  size: number;
  /** A part of a cut batch: the batch's name and the pages this draft holds (on the receipt and the timeline). */
  origin?: { batch: string; pages: number[] };
}

/**
 * What `intakeDrafts` did with one file: made its draft, or found the key's receipt, or the content held
 * by a document the caller may see.
 */
export type IntakeDraftOutcome =
  { made: { documentId: number; attachmentId: number } } | { prior: IntakeReceiptRow } | { held: true };

/**
 * Intake's new incoming drafts in one statement (call under lockContents, in the transaction), one per
 * file: unless the caller's key already has a receipt or a document the caller may see holds the content
 * (one they may not see is no duplicate for them: the file is taken as new), inserts the
 * draft, its file, the two timeline events (created, then attachmentAdded, in that order) and the key's
 * receipt. Answers each file's outcome in the given order. One round trip for a scanner's whole batch,
 * not seven a file. The ids are drawn from the tables' sequences first, so every row of a file is tied to
 * its input without relying on the order of RETURNING; the files' contents must be distinct.
 */
export async function intakeDrafts(
  db: Tx,
  v: { scope: Scope; archiveDepartmentId: number | null; files: readonly IntakeDraftInput[] },
): Promise<IntakeDraftOutcome[]> {
  const userId = v.scope.userId;
  const input = JSON.stringify(
    v.files.map((f, i) => ({
      ord: i,
      key: f.key,
      request_hash: f.requestHash,
      sha256: f.sha256,
      subject: f.subject,
      file_name: f.fileName,
      size: f.size,
      origin: f.origin ?? null,
      pages: f.origin?.pages ?? null,
    })),
  );
  const found = await rowsOf<{
    prior_document_id: number | null;
    prior_attachment_id: number | null;
    prior_request_hash: string | null;
    held: boolean;
    document_id: number | null;
    attachment_id: number | null;
  }>(
    db,
    sql`with input as (
          select * from jsonb_to_recordset(${input}::jsonb)
            as t(ord int, key text, request_hash text, sha256 text, subject text, file_name text, size bigint,
                 origin jsonb, pages int[])
        ),
        prior as (
          select i.ord, r.document_id, r.attachment_id, r.request_hash
            from input i join intake_receipts r on r.user_id = ${userId} and r.key = i.key
        ),
        held as (
          select i.ord from input i
           where not exists (select 1 from prior p where p.ord = i.ord)
             and exists (select 1 from document_attachments a join documents d on d.id = a.document_id
                          where a.sha256 = i.sha256 and ${visibleTo(v.scope)})
        ),
        fresh as materialized (
          select i.*, nextval('documents_id_seq')::int as document_id,
                 nextval('document_attachments_id_seq')::int as attachment_id
            from input i
           where not exists (select 1 from prior p where p.ord = i.ord)
             and not exists (select 1 from held h where h.ord = i.ord)
           order by i.ord
        ),
        doc as (
          insert into documents (id, direction, subject, created_by, archive_department_id)
          overriding system value
          select f.document_id, 'in', f.subject, ${userId}, ${v.archiveDepartmentId}::int
            from fresh f order by f.ord
        ),
        att as (
          insert into document_attachments (id, document_id, sha256, file_name, size, mime, uploaded_by)
          overriding system value
          select f.attachment_id, f.document_id, f.sha256, f.file_name, f.size, 'application/pdf', ${userId}
            from fresh f order by f.ord
        ),
        events as (
          insert into document_events (document_id, event, actor_id, details)
          select e.document_id, e.event, ${userId}, e.details from (
            select f.ord, 1 as seq, f.document_id, 'created' as event,
                   jsonb_build_object('direction', 'in', 'intake', f.file_name) as details
              from fresh f
            union all
            select f.ord, 2, f.document_id, 'attachmentAdded',
                   jsonb_build_object('attachmentId', f.attachment_id, 'fileName', f.file_name, 'size', f.size)
                     || coalesce(f.origin, '{}'::jsonb)
              from fresh f
          ) e order by e.ord, e.seq
        ),
        receipt as (
          insert into intake_receipts (user_id, key, sha256, document_id, attachment_id, request_hash, pages)
          select ${userId}, f.key, f.sha256, f.document_id, f.attachment_id, f.request_hash, f.pages
            from fresh f order by f.ord
        )
        select p.document_id as prior_document_id, p.attachment_id as prior_attachment_id,
               p.request_hash as prior_request_hash, h.ord is not null as held, f.document_id, f.attachment_id
          from input i
          left join prior p on p.ord = i.ord
          left join held h on h.ord = i.ord
          left join fresh f on f.ord = i.ord
         order by i.ord`,
  );
  return found.map((row, i): IntakeDraftOutcome => {
    if (row.prior_document_id !== null)
      return {
        prior: {
          document_id: row.prior_document_id,
          attachment_id: row.prior_attachment_id,
          sha256: v.files[i]!.sha256,
          request_hash: row.prior_request_hash,
        },
      };
    if (row.held) return { held: true };
    return { made: { documentId: Number(row.document_id), attachmentId: Number(row.attachment_id) } };
  });
}

/**
 * The parts of cut batches (receipts keyed `<key>#<n>`), each batch's in order, by its key: `batches`
 * maps a batch's key to its part count (its own receipt's `parts`).
 */
export async function intakePartReceipts(
  db: Tx,
  userId: number,
  batches: ReadonlyMap<string, number>,
): Promise<Map<string, (IntakeReceiptRow & { pages: number[] })[]>> {
  const parts = new Map<string, (IntakeReceiptRow & { pages: number[] })[]>();
  const keys = [...batches].flatMap(([key, count]) =>
    Array.from({ length: count }, (_, n) => `${key}#${n + 1}`),
  );
  if (keys.length === 0) return parts;
  const found = await rowsOf<IntakeReceiptRow & { key: string; pages: number[] }>(
    db,
    sql`select key, document_id, attachment_id, sha256, request_hash, pages from intake_receipts
         where user_id = ${userId}
           and key in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))`,
  );
  const byKey = new Map(found.map((row) => [row.key, row]));
  for (const [key, count] of batches)
    parts.set(
      key,
      Array.from({ length: count }, (_, n) => byKey.get(`${key}#${n + 1}`)).filter(
        (row) => row !== undefined,
      ),
    );
  return parts;
}

/** Receipts of intake by their sender's idempotency keys, by key. */
export async function intakeReceipts(
  db: Tx,
  userId: number,
  keys: readonly string[],
): Promise<Map<string, IntakeReceiptRow>> {
  const found = await rowsOf<IntakeReceiptRow & { key: string }>(
    db,
    sql`select key, document_id, attachment_id, sha256, request_hash, parts from intake_receipts
         where user_id = ${userId}
           and key in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))`,
  );
  return new Map(found.map((r) => [r.key, r]));
}

/** Documents' numbers and subjects by id (what intake tells its sender). */
export async function numbersAndSubjects(db: Tx, ids: readonly number[]) {
  const found = await rowsOf<{ id: number; doc_number: string | null; subject: string }>(
    db,
    sql`select id, doc_number, subject from documents
         where id in (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int)`,
  );
  return new Map(found.map((r) => [r.id, r]));
}
