/**
 * What several modules read or write of the records themselves: a document's timeline event (the
 * correspondence services and the final letters append them), the entity a department belongs to
 * (stickers, stamps, signing authority), and of records management (docs/records.md) the file a document
 * is filed in and whether a legal hold covers a document.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './open';
import { rowsOf } from './rows';

type Tx = Pick<Db, 'execute'>;

/** A department's names. */
export interface NamedRow {
  id: number;
  name_ar: string;
  name_en: string;
}

/**
 * The entity a department belongs to: the nearest department flagged as an entity up its tree (itself when
 * it is one), or the root of its tree when none is flagged. Null for an unknown department.
 */
export async function entityOf(db: Tx, departmentId: number): Promise<NamedRow | null> {
  const [row] = await rowsOf<NamedRow>(
    db,
    sql`with recursive up as (
          select d.id, d.parent_id, d.is_entity, 0 as depth from departments d where d.id = ${departmentId}
          union all
          select p.id, p.parent_id, p.is_entity, up.depth + 1
            from departments p join up on p.id = up.parent_id
           where not up.is_entity and up.depth < 50
        )
        select dep.id, dep.name_ar, dep.name_en from up join departments dep on dep.id = up.id
         order by up.depth desc limit 1`,
  );
  return row ?? null;
}

/** Appends a timeline event (call inside the change's transaction). */
export async function appendEvent(
  db: Tx,
  documentId: number,
  event: string,
  actorId: number | null,
  details: Record<string, unknown> = {},
) {
  await db.execute(sql`insert into document_events (document_id, event, actor_id, details)
    values (${documentId}, ${event}, ${actorId}, ${JSON.stringify(details)}::jsonb)`);
}

/** A file a document may name: its id and whether it takes documents (open: not closed, not disposed of). */
export interface FilingFile {
  id: number;
  open: boolean;
}

async function fileWhere(db: Tx, where: ReturnType<typeof sql>): Promise<FilingFile | undefined> {
  const [row] = await rowsOf<{ id: number; open: boolean }>(
    db,
    sql`select id, (closed_on is null and disposed is null) as open from record_files where ${where}`,
  );
  return row ? { id: row.id, open: !!row.open } : undefined;
}

/** The file with this id (undefined: none). */
export const fileById = (db: Tx, id: number) => fileWhere(db, sql`id = ${id}`);

/** The file with this code, case aside (undefined: none): what the older free-text grouping names. */
export const fileByCode = (db: Tx, code: string) => fileWhere(db, sql`lower(code) = lower(${code.trim()})`);

/** Whether a legal hold in force covers the document: one on the document itself or on its file. */
export async function underHold(db: Tx, documentId: number): Promise<boolean> {
  const [row] = await rowsOf<{ held: boolean }>(
    db,
    sql`select exists (
          select 1 from legal_holds h where h.lifted_at is null and (h.document_id = ${documentId}
            or h.file_id = (select file_id from documents where id = ${documentId}))) as held`,
  );
  return !!row?.held;
}
