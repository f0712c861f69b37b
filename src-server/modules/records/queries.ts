/**
 * SQL of records management: files, retention schedules, dispositions and legal holds. Written as SQL so
 * dates come back as `YYYY-MM-DD` and instants as ISO strings on both drivers.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DispositionAction, DispositionState, RetentionAction } from '../../../src-shared/api/records';
import type { Tx } from '../auth/queries';
import { rowsOf } from '../../db/rows';
import { day, iso } from '../../db/sql';

/**
 * The job kind that carries out a disposition (disposition-job.ts); its payload names the disposition
 * (`dispositionId`), which is how a disposition finds its job.
 */
export const DISPOSITION_JOB = 'records.disposition';

/** A job of `w` (a disposition) in one of `states`, as SQL (the states use the jobs' claim index). */
const jobOf = (states: SQL) =>
  sql`j.kind = ${DISPOSITION_JOB} and j.state in ${states} and j.payload->>'dispositionId' = w.id::text`;

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
  /** Its disposition is being carried out: its job waits or runs, or its destruction has begun. */
  disposition_executing: boolean;
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
          w.id as disposition_id, w.state as disposition_state,
          (w.id is not null and (f.disposed is not null or exists (select 1 from background_jobs j
             where ${jobOf(sql`('queued', 'running')`)}))) as disposition_executing
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
  /** The file's `disposed`: a destruction sets it when it begins. */
  file_disposed: DispositionAction | null;
  /** Its latest job not done (queued, running or dead), while the disposition is approved. */
  job_id: number | null;
  job_state: 'queued' | 'running' | 'dead' | null;
  job_progress: unknown;
  job_error: string | null;
}

/** Dispositions with their people, file and job, filtered by `where`; `withRecord: false` leaves the record out. */
export async function dispositionsWhere(
  db: Tx,
  where: SQL,
  forUpdate = false,
  withRecord = true,
): Promise<DispositionRow[]> {
  return rowsOf<DispositionRow>(
    db,
    sql`select w.id, w.file_id, f.code as file_code, f.title_ar as file_title_ar, f.title_en as file_title_en,
          w.action, w.state, w.legal_reference, w.note,
          w.proposed_by, pu.name_ar as proposed_by_ar, pu.name_en as proposed_by_en, ${iso('w.proposed_at')} as proposed_at,
          w.approved_by, au.name_ar as approved_by_ar, au.name_en as approved_by_en, ${iso('w.approved_at')} as approved_at,
          w.executed_by, eu.name_ar as executed_by_ar, eu.name_en as executed_by_en, ${iso('w.executed_at')} as executed_at,
          ${withRecord ? sql`w.record` : sql`'[]'::jsonb`} as record, w.output_sha256, f.disposed as file_disposed,
          job.id as job_id, job.state as job_state, job.progress as job_progress, job.last_error as job_error
        from dispositions w join record_files f on f.id = w.file_id
        left join users pu on pu.id = w.proposed_by
        left join users au on au.id = w.approved_by
        left join users eu on eu.id = w.executed_by
        left join lateral (select j.id, j.state, j.progress, j.last_error from background_jobs j
          where w.state = 'approved' and ${jobOf(sql`('queued', 'running', 'dead')`)}
          order by j.id desc limit 1) job on true
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

function contentsWhere(db: Tx, where: SQL): Promise<ContentRow[]> {
  return rowsOf<ContentRow>(
    db,
    sql`select d.id, d.doc_number, d.subject, d.direction, ${day('d.document_date')} as document_date,
          ${iso('d.registered_at')} as registered_at,
          coalesce((select jsonb_agg(jsonb_build_object('attachmentId', a.id, 'fileName', a.file_name,
             'sha256', a.sha256, 'size', a.size) order by a.id)
             from document_attachments a where a.document_id = d.id), '[]'::jsonb) as files,
          fl.sha256 as final_sha256, fl.size as final_size
        from documents d left join final_letters fl on fl.document_id = d.id
        where ${where}
        order by d.registered_at nulls last, d.id`,
  );
}

/** The documents of a file with their attachments, in registration order. */
export const fileContents = (db: Tx, fileId: number) => contentsWhere(db, sql`d.file_id = ${fileId}`);

/**
 * The first `limit` documents of a file in registration order, locked (a destruction's next batch). Their
 * contents are read by a later statement (`contentsOf`), so that an attachment added while the lock was
 * awaited is seen; once locked, none can be added.
 */
export async function lockNextDocuments(db: Tx, fileId: number, limit: number): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`select id from documents where file_id = ${fileId}
        order by registered_at nulls last, id limit ${limit} for update`,
  );
  return rows.map((r) => r.id);
}

/** These documents with their attachments, in registration order. */
export const contentsOf = (db: Tx, ids: readonly number[]) =>
  contentsWhere(
    db,
    sql`d.id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );

/** A disposition locked for a step of its job: its state and how much of its record is written. */
export async function lockDisposition(
  db: Tx,
  id: number,
): Promise<
  { state: DispositionState; file_id: number; executed_at: string | null; recorded: number } | undefined
> {
  const [row] = await rowsOf<{
    state: DispositionState;
    file_id: number;
    executed_at: string | null;
    recorded: number;
  }>(
    db,
    sql`select state, file_id, ${iso('executed_at')} as executed_at, jsonb_array_length(record) as recorded
        from dispositions where id = ${id} for update`,
  );
  return row;
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
