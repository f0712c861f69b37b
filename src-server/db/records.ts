/**
 * What several modules read or write of the records themselves: a document's timeline event (the
 * correspondence services and the final letters append them) and the entity a department belongs to
 * (stickers, stamps, signing authority).
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
