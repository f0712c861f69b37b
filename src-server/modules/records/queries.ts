/**
 * SQL of records management: files, retention schedules, dispositions and legal holds. Written as SQL so
 * dates come back as `YYYY-MM-DD` and instants as ISO strings on both drivers.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DispositionAction, DispositionState, RetentionAction } from '../../../src-shared/api/records';
import type { Tx } from '../auth/queries';
import { rowsOf } from '../../db/rows';
import { day, iso } from '../../db/sql';

export interface FileRow {
  id: number;
  code: string;
  title_ar: string;
  title_en: string;
  department_id: number | null;
  department_ar: string | null;
  department_en: string | null;
  opened_on: string;
  closed_on: string | null;
  retention_years: number | null;
  retention_action: RetentionAction | null;
  retention_reference: string | null;
  disposed: DispositionAction | null;
  created_at: string;
  updated_at: string;
  documents: number;
  holds: number;
  schedules: { years: number; action: RetentionAction; legalReference: string }[];
  disposition_id: number | null;
  disposition_state: DispositionState | null;
}

/** Files with their counts, their documents' schedules and the disposition under way, filtered by `where`. */
export async function filesWhere(db: Tx, where: SQL, limit = 500): Promise<FileRow[]> {
  return rowsOf<FileRow>(
    db,
    sql`select f.id, f.code, f.title_ar, f.title_en, f.department_id, dep.name_ar as department_ar,
          dep.name_en as department_en, ${day('f.opened_on')} as opened_on, ${day('f.closed_on')} as closed_on,
          f.retention_years, f.retention_action, f.retention_reference, f.disposed,
          ${iso('f.created_at')} as created_at, ${iso('f.updated_at')} as updated_at,
          (select count(*) from documents d where d.file_id = f.id)::int as documents,
          (select count(*) from legal_holds h where h.lifted_at is null and (h.file_id = f.id
             or h.document_id in (select d.id from documents d where d.file_id = f.id)))::int as holds,
          coalesce((select jsonb_agg(jsonb_build_object('years', rs.years, 'action', rs.action,
             'legalReference', rs.legal_reference)) from retention_schedules rs
             where rs.codification_id in (select d.codification_id from documents d where d.file_id = f.id)),
             '[]'::jsonb) as schedules,
          w.id as disposition_id, w.state as disposition_state
        from record_files f
        left join departments dep on dep.id = f.department_id
        left join dispositions w on w.file_id = f.id and w.state in ('proposed', 'approved')
        where ${where}
        order by f.created_at desc, f.id desc
        limit ${limit}`,
  );
}

export async function lockFile(db: Tx, id: number): Promise<void> {
  await db.execute(sql`select id from record_files where id = ${id} for update`);
}

export interface ScheduleRow {
  id: number;
  codification_id: number;
  codification_ar: string | null;
  codification_en: string | null;
  prefix: string | null;
  years: number;
  action: RetentionAction;
  legal_reference: string;
  updated_at: string;
}

export async function schedules(db: Tx, codificationId?: number): Promise<ScheduleRow[]> {
  return rowsOf<ScheduleRow>(
    db,
    sql`select rs.id, rs.codification_id, c.name_ar as codification_ar, c.name_en as codification_en, c.prefix,
          rs.years, rs.action, rs.legal_reference, ${iso('rs.updated_at')} as updated_at
        from retention_schedules rs join correspondence_settings c on c.id = rs.codification_id
        ${codificationId === undefined ? sql`` : sql`where rs.codification_id = ${codificationId}`}
        order by c.sort_order, c.id`,
  );
}

export interface DispositionRow {
  id: number;
  file_id: number;
  file_code: string;
  file_title_ar: string;
  file_title_en: string;
  action: DispositionAction;
  state: DispositionState;
  legal_reference: string;
  note: string | null;
  proposed_by: number | null;
  proposed_by_ar: string | null;
  proposed_by_en: string | null;
  proposed_at: string;
  approved_by: number | null;
  approved_by_ar: string | null;
  approved_by_en: string | null;
  approved_at: string | null;
  executed_by: number | null;
  executed_by_ar: string | null;
  executed_by_en: string | null;
  executed_at: string | null;
  record: unknown[];
  output_sha256: string | null;
}

export async function dispositionsWhere(db: Tx, where: SQL, forUpdate = false): Promise<DispositionRow[]> {
  return rowsOf<DispositionRow>(
    db,
    sql`select w.id, w.file_id, f.code as file_code, f.title_ar as file_title_ar, f.title_en as file_title_en,
          w.action, w.state, w.legal_reference, w.note,
          w.proposed_by, pu.name_ar as proposed_by_ar, pu.name_en as proposed_by_en, ${iso('w.proposed_at')} as proposed_at,
          w.approved_by, au.name_ar as approved_by_ar, au.name_en as approved_by_en, ${iso('w.approved_at')} as approved_at,
          w.executed_by, eu.name_ar as executed_by_ar, eu.name_en as executed_by_en, ${iso('w.executed_at')} as executed_at,
          w.record, w.output_sha256
        from dispositions w join record_files f on f.id = w.file_id
        left join users pu on pu.id = w.proposed_by
        left join users au on au.id = w.approved_by
        left join users eu on eu.id = w.executed_by
        where ${where}
        order by w.proposed_at desc, w.id desc
        limit 500
        ${forUpdate ? sql`for update of w` : sql``}`,
  );
}

/** Whether a legal hold in force covers the file or any of its documents. */
export async function fileHeld(db: Tx, fileId: number): Promise<boolean> {
  const [row] = await rowsOf<{ held: boolean }>(
    db,
    sql`select exists (select 1 from legal_holds h where h.lifted_at is null and (h.file_id = ${fileId}
          or h.document_id in (select d.id from documents d where d.file_id = ${fileId}))) as held`,
  );
  return !!row?.held;
}

export interface ContentRow {
  id: number;
  doc_number: string | null;
  subject: string;
  direction: string;
  document_date: string | null;
  registered_at: string | null;
  files: { attachmentId: number; fileName: string; sha256: string; size: number }[];
  /** The final letter's PDF (final_letters), when one was made. */
  final_sha256: string | null;
  final_size: number | null;
}

/** The documents of a file with their attachments, in registration order (locked with `forUpdate`). */
export async function fileContents(db: Tx, fileId: number, forUpdate = false): Promise<ContentRow[]> {
  return rowsOf<ContentRow>(
    db,
    sql`select d.id, d.doc_number, d.subject, d.direction, ${day('d.document_date')} as document_date,
          ${iso('d.registered_at')} as registered_at,
          coalesce((select jsonb_agg(jsonb_build_object('attachmentId', a.id, 'fileName', a.file_name,
             'sha256', a.sha256, 'size', a.size) order by a.id)
             from document_attachments a where a.document_id = d.id), '[]'::jsonb) as files,
          fl.sha256 as final_sha256, fl.size as final_size
        from documents d left join final_letters fl on fl.document_id = d.id
        where d.file_id = ${fileId}
        order by d.registered_at nulls last, d.id
        ${forUpdate ? sql`for update of d` : sql``}`,
  );
}

export interface HoldRow {
  id: number;
  document_id: number | null;
  file_id: number | null;
  target: string | null;
  reason: string;
  placed_by: number | null;
  placed_by_ar: string | null;
  placed_by_en: string | null;
  placed_at: string;
  lifted_by: number | null;
  lifted_by_ar: string | null;
  lifted_by_en: string | null;
  lifted_at: string | null;
}

export async function holdsWhere(db: Tx, where: SQL): Promise<HoldRow[]> {
  return rowsOf<HoldRow>(
    db,
    sql`select h.id, h.document_id, h.file_id, coalesce(d.doc_number, d.subject, f.code) as target, h.reason,
          h.placed_by, pu.name_ar as placed_by_ar, pu.name_en as placed_by_en, ${iso('h.placed_at')} as placed_at,
          h.lifted_by, lu.name_ar as lifted_by_ar, lu.name_en as lifted_by_en, ${iso('h.lifted_at')} as lifted_at
        from legal_holds h
        left join documents d on d.id = h.document_id
        left join record_files f on f.id = h.file_id
        left join users pu on pu.id = h.placed_by
        left join users lu on lu.id = h.lifted_by
        where ${where}
        order by h.placed_at desc, h.id desc
        limit 500`,
  );
}
