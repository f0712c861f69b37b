/**
 * SQL of who read what (issue 31): one record per act of reading in audit_log (the token of the act
 * folds the requests of one act into one row: the partial unique index audit_log_read_once_idx), and the
 * lists per document and per user (audit_log_target_idx, audit_log_actor_idx).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/open';
import { rowsOf } from '../../db/rows';
import { READ_ACTIONS, type ReadAction } from '../../../src-shared/api/reads';
import type { Direction, DocumentState } from '../../../src-shared/api/correspondence';
import { visibleTo, type Scope } from '../correspondence/visibility';

type Tx = Pick<Db, 'execute'>;

export interface ReadRecord {
  action: ReadAction;
  actorId: number;
  actorUsername: string;
  documentId: number;
  details: Record<string, unknown>;
  ip: string | null;
}

/**
 * Appends a read, unless one with the same action, reader, document and `details.read` token is there
 * already (then nothing, also when two requests of one act race). Answers whether a row was made.
 */
export async function insertRead(db: Tx, r: ReadRecord): Promise<boolean> {
  const made = await rowsOf<{ id: number }>(
    db,
    sql`insert into audit_log (action, actor_id, actor_username, target_type, target_id, details, ip)
        values (${r.action}, ${r.actorId}, ${r.actorUsername}, 'document', ${String(r.documentId)},
                ${JSON.stringify(r.details)}::jsonb, ${r.ip})
        on conflict do nothing
        returning id`,
  );
  return made.length > 0;
}

const readActions = sql.raw(READ_ACTIONS.map((a) => `'${a}'`).join(', '));

export interface ReadRow {
  id: number;
  at: Date;
  action: ReadAction;
  actor_id: number | null;
  actor_username: string | null;
  target_id: string;
  details: Record<string, unknown>;
  ip: string | null;
  total: number;
  /** The document's number, subject, direction and state: null unless the caller sees the document. */
  doc_number: string | null;
  subject: string | null;
  direction: Direction | null;
  state: DocumentState | null;
}

/**
 * A page of reads of one document, or by one user, newest first (with the total), each with its
 * document's number and subject when `scope` sees the document.
 */
export async function listReads(
  db: Tx,
  scope: Scope,
  by: { documentId: number } | { userId: number },
  page: number,
  pageSize: number,
): Promise<ReadRow[]> {
  const where =
    'documentId' in by
      ? sql`target_type = 'document' and target_id = ${String(by.documentId)}`
      : sql`actor_id = ${by.userId} and target_type = 'document'`;
  // The page is cut from audit_log alone (its indexes), then its rows are joined to their documents.
  return rowsOf<ReadRow>(
    db,
    sql`select r.*, d.doc_number, d.subject, d.direction, d.state
          from (select id, at, action, actor_id, actor_username, target_id, details, ip,
                       count(*) over ()::int as total
                  from audit_log
                 where ${where} and action in (${readActions})
                 order by id desc
                 limit ${pageSize} offset ${(page - 1) * pageSize}) r
          left join documents d on d.id = r.target_id::integer and ${visibleTo(scope)}
         order by r.id desc`,
  );
}

/**
 * Whether copies of this document leaving the server carry the reader's watermark: its security level is
 * above the lowest active one (a document of no level, or of the lowest, goes unmarked).
 */
export async function marksCopies(db: Tx, documentId: number): Promise<boolean> {
  const [row] = await rowsOf<{ marked: boolean }>(
    db,
    sql`select d.security_rank > coalesce((select min(s.level) from correspondence_settings s
                                             where s.list = 'security-levels' and s.active), 0) as marked
          from documents d where d.id = ${documentId}`,
  );
  return row?.marked ?? false;
}

/** The reader's names for the watermark. */
export async function readerNames(
  db: Tx,
  userId: number,
): Promise<{ name_ar: string; name_en: string; username: string } | undefined> {
  const [row] = await rowsOf<{ name_ar: string; name_en: string; username: string }>(
    db,
    sql`select name_ar, name_en, username from users where id = ${userId}`,
  );
  return row;
}
