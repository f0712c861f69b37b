/**
 * Records management (issue 31 parts 1–4, docs/records.md): files, retention schedules, dispositions and
 * legal holds. Decisions where the issue was silent:
 * - A file is open until closed; a closed or disposed-of file takes no new document (registration, a draft
 *   naming it, a move into it: 422 records.fileClosed). Reopening is refused once a disposition is under way
 *   or done.
 * - The records pages address any document by id (a records manager manages the whole archive, whatever
 *   the correspondence boxes show them).
 * - Retention (rules.ts): the file's own, else the longest of its documents' codifications' schedules.
 * - A disposition is proposed for a file that is due, approved by someone else, then carried out (by anyone
 *   holding `edit` on the disposition page, the proposer included). A legal hold in force on the file or
 *   any of its documents refuses each step (409 records.underHold); a proposal may still be cancelled,
 *   until it is being carried out.
 * - Carrying it out is a background job (disposition-job.ts): the request checks the step and queues the
 *   job in one transaction and answers 202 with the disposition `executing`. The job does the work and
 *   marks it done; a hold placed before it began stops it (the disposition stays approved).
 * - Destruction deletes the file's documents (their attachments, text, search index, timeline go with
 *   them), keeps the minimal record on the disposition, stores a certificate of destruction (PDF) and
 *   removes the stored bytes no other record names (content is shared by hash) from the store.
 * - Transfer builds a BagIt package (bagit.ts), stores it, and marks the file transferred; the documents
 *   and their contents stay (removing them once the national archive confirms receipt is a destruction of
 *   its own, proposed and approved as any other).
 * Every step is audited in its transaction (the job's in its own).
 */
import { sql } from 'drizzle-orm';
import type {
  CreateFileRequest,
  DisposedDocument,
  Disposition,
  DispositionJob,
  DispositionPhase,
  DispositionProgress,
  DueFile,
  LegalHold,
  FileDocument,
  RecordFile,
  RetentionSchedule,
  ScheduleRequest,
  UpdateFileRequest,
} from '../../../src-shared/api/records';
import type { Locale } from '../../../src-shared/locale';
import { recordAudit, type AuditAction } from '../../audit';
import { dayIn } from '../../clock';
import type { ServerContext } from '../../context';
import { rowsOf } from '../../db/rows';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import { hasText, translate } from '../../i18n';
import { makePdf } from '../../pdf-making/pdf-make-pool';
import type { Tx } from '../auth/queries';
import * as q from './queries';
import { dispositionStep, dueOn, isDue, retentionOf, type DispositionStep } from './rules';

/** The organisation's today (YYYY-MM-DD), from the server's clock. */
export const todayOf = (ctx: ServerContext) => dayIn(ctx.config.ORG_TIME_ZONE, ctx.clock.now());

const notFound = () => new HttpProblem('notFound');
const refused = (key: string, field?: string) =>
  new HttpProblem('unprocessable', {
    detailKey: `records.${key}`,
    code: `records.${key}`,
    ...(field ? { fields: { [field]: [{ key: `records.${key}` }] } } : {}),
  });
const conflict = (key: string) =>
  new HttpProblem('conflict', { detailKey: `records.${key}`, code: `records.${key}` });

const ref = (id: number | null, ar: string | null, en: string | null) =>
  id === null ? null : { id, nameAr: ar ?? '', nameEn: en ?? '' };

interface Meta {
  ip: string | null;
}
const audit = (
  tx: Tx,
  caller: AuthContext,
  meta: Meta,
  action: AuditAction,
  targetType: string,
  targetId: number,
  details: Record<string, unknown> = {},
) =>
  recordAudit(tx, {
    action,
    actorId: caller.userId,
    actorUsername: caller.username,
    targetType,
    targetId,
    details,
    ip: meta.ip,
  });

// ---------------------------------------------------------------- files

/** A file row as the API tells it. */
export function fileOut(r: q.FileRow): RecordFile {
  const retention = retentionOf(
    { years: r.retention_years, action: r.retention_action, reference: r.retention_reference },
    r.schedules,
  );
  return {
    id: r.id,
    code: r.code,
    titleAr: r.title_ar,
    titleEn: r.title_en,
    department: ref(r.department_id, r.department_ar, r.department_en),
    openedOn: r.opened_on,
    closedOn: r.closed_on,
    state:
      r.disposed === 'destroy'
        ? 'destroyed'
        : r.disposed === 'transfer'
          ? 'transferred'
          : r.closed_on === null
            ? 'open'
            : 'closed',
    retentionYears: r.retention_years,
    retentionAction: r.retention_action,
    retentionReference: r.retention_reference,
    retention: retention && { ...retention, dueOn: dueOn(r.closed_on, retention) },
    documents: r.documents,
    holds: r.holds,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

async function fileRow(db: Tx, id: number): Promise<q.FileRow> {
  const [row] = await q.filesWhere(db, sql`f.id = ${id}`);
  if (!row) throw notFound();
  return row;
}

export const getFile = async (ctx: ServerContext, id: number) => fileOut(await fileRow(ctx.db, id));

/** GET /records/files. */
export async function listFiles(
  ctx: ServerContext,
  query: { q?: string | undefined; state?: string | undefined; departmentId?: number | undefined },
): Promise<RecordFile[]> {
  const where = [sql`true`];
  if (query.q?.trim()) {
    const like = `%${query.q
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      sql`(lower(f.code) like ${like} or lower(f.title_ar) like ${like} or lower(f.title_en) like ${like})`,
    );
  }
  if (query.departmentId !== undefined) where.push(sql`f.department_id = ${query.departmentId}`);
  if (query.state === 'open') where.push(sql`f.closed_on is null and f.disposed is null`);
  if (query.state === 'closed') where.push(sql`f.closed_on is not null and f.disposed is null`);
  if (query.state === 'destroyed') where.push(sql`f.disposed = 'destroy'`);
  if (query.state === 'transferred') where.push(sql`f.disposed = 'transfer'`);
  return (await q.filesWhere(ctx.db, sql.join(where, sql` and `))).map(fileOut);
}

/** GET /records/files/{id}/documents: the file's documents (404 for an unknown file). */
export async function fileDocuments(ctx: ServerContext, id: number): Promise<FileDocument[]> {
  await fileRow(ctx.db, id);
  return (await q.fileContents(ctx.db, id)).map((d) => ({
    id: d.id,
    docNumber: d.doc_number,
    subject: d.subject,
    direction: d.direction,
    documentDate: d.document_date,
    registeredAt: d.registered_at,
  }));
}

/** GET /records/files/open: the document form's picker. */
export async function pickFiles(ctx: ServerContext, text: string | undefined) {
  const files = await listFiles(ctx, { q: text, state: 'open' });
  return files.slice(0, 50).map((f) => ({ id: f.id, code: f.code, titleAr: f.titleAr, titleEn: f.titleEn }));
}

function retentionPair(years: number | null | undefined, action: string | null | undefined) {
  if (years === undefined && action === undefined) return;
  if ((years === null || years === undefined) !== (action === null || action === undefined))
    throw refused('retentionPair', 'retentionYears');
}

async function departmentExists(db: Tx, id: number | null | undefined) {
  if (id === null || id === undefined) return;
  const [row] = await rowsOf(db, sql`select 1 from departments where id = ${id}`);
  if (!row) throw new HttpProblem('badRequest', { fields: { departmentId: [{ key: 'validation.choice' }] } });
}

async function codeFree(db: Tx, code: string, except?: number) {
  const [row] = await rowsOf(
    db,
    sql`select 1 from record_files where lower(code) = lower(${code}) ${except ? sql`and id <> ${except}` : sql``}`,
  );
  if (row) throw conflict('codeTaken');
}

/** POST /records/files. */
export async function createFile(
  ctx: ServerContext,
  caller: AuthContext,
  body: CreateFileRequest,
  meta: Meta,
): Promise<RecordFile> {
  retentionPair(body.retentionYears, body.retentionAction);
  const id = await ctx.db.transaction(async (tx) => {
    await departmentExists(tx, body.departmentId);
    await codeFree(tx, body.code);
    const [row] = await rowsOf<{ id: number }>(
      tx,
      sql`insert into record_files (code, title_ar, title_en, department_id, opened_on, retention_years,
            retention_action, retention_reference, created_by)
          values (${body.code}, ${body.titleAr}, ${body.titleEn}, ${body.departmentId ?? null},
            ${body.openedOn ?? todayOf(ctx)}, ${body.retentionYears ?? null}, ${body.retentionAction ?? null},
            ${body.retentionReference ?? null}, ${caller.userId})
          returning id`,
    );
    await audit(tx, caller, meta, 'records.fileCreated', 'recordFile', row!.id, { code: body.code });
    return row!.id;
  });
  return getFile(ctx, id);
}

/** PUT /records/files/{id}: a disposed-of file is history and is not changed. */
export async function updateFile(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  body: UpdateFileRequest,
  meta: Meta,
): Promise<RecordFile> {
  await ctx.db.transaction(async (tx) => {
    await q.lockFile(tx, id);
    const file = await fileRow(tx, id);
    if (file.disposed) throw refused('fileDisposed');
    const years = body.retentionYears !== undefined ? body.retentionYears : file.retention_years;
    const action = body.retentionAction !== undefined ? body.retentionAction : file.retention_action;
    retentionPair(years, action);
    await departmentExists(tx, body.departmentId);
    if (body.code !== undefined) await codeFree(tx, body.code, id);
    const openedOn = body.openedOn ?? file.opened_on;
    if (file.closed_on !== null && openedOn > file.closed_on) throw refused('closedBeforeOpened', 'openedOn');
    const set = [
      body.code !== undefined && sql`code = ${body.code}`,
      body.titleAr !== undefined && sql`title_ar = ${body.titleAr}`,
      body.titleEn !== undefined && sql`title_en = ${body.titleEn}`,
      body.departmentId !== undefined && sql`department_id = ${body.departmentId}`,
      body.openedOn !== undefined && sql`opened_on = ${body.openedOn}`,
      sql`retention_years = ${years}`,
      sql`retention_action = ${action}`,
      body.retentionReference !== undefined && sql`retention_reference = ${body.retentionReference}`,
      sql`updated_at = now()`,
    ].filter((x) => x !== false);
    await tx.execute(sql`update record_files set ${sql.join(set, sql`, `)} where id = ${id}`);
    await audit(tx, caller, meta, 'records.fileUpdated', 'recordFile', id, { fields: Object.keys(body) });
  });
  return getFile(ctx, id);
}

/** POST /records/files/{id}/close. */
export async function closeFile(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  closedOn: string | undefined,
  meta: Meta,
): Promise<RecordFile> {
  await ctx.db.transaction(async (tx) => {
    await q.lockFile(tx, id);
    const file = await fileRow(tx, id);
    if (file.disposed) throw refused('fileDisposed');
    if (file.closed_on !== null) throw refused('alreadyClosed');
    const day = closedOn ?? todayOf(ctx);
    if (day < file.opened_on) throw refused('closedBeforeOpened', 'closedOn');
    if (day > todayOf(ctx)) throw refused('closedInFuture', 'closedOn');
    await tx.execute(sql`update record_files set closed_on = ${day}, updated_at = now() where id = ${id}`);
    await audit(tx, caller, meta, 'records.fileClosed', 'recordFile', id, { closedOn: day });
  });
  return getFile(ctx, id);
}

/** POST /records/files/{id}/reopen. */
export async function reopenFile(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  meta: Meta,
): Promise<RecordFile> {
  await ctx.db.transaction(async (tx) => {
    await q.lockFile(tx, id);
    const file = await fileRow(tx, id);
    if (file.disposed) throw refused('fileDisposed');
    if (file.closed_on === null) throw refused('notClosed');
    if (file.disposition_id !== null) throw conflict('dispositionUnderWay');
    await tx.execute(sql`update record_files set closed_on = null, updated_at = now() where id = ${id}`);
    await audit(tx, caller, meta, 'records.fileReopened', 'recordFile', id);
  });
  return getFile(ctx, id);
}

/** POST /records/files/{id}/documents: a document moved into an open file. */
export async function moveDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  documentId: number,
  meta: Meta,
): Promise<RecordFile> {
  await ctx.db.transaction(async (tx) => {
    await q.lockFile(tx, id);
    const file = await fileRow(tx, id);
    if (file.disposed || file.closed_on !== null) throw refused('fileClosed', 'fileId');
    const [doc] = await rowsOf<{ file_id: number | null }>(
      tx,
      sql`select file_id from documents where id = ${documentId} for update`,
    );
    if (!doc) throw new HttpProblem('badRequest', { fields: { documentId: [{ key: 'validation.choice' }] } });
    if (doc.file_id === id) return;
    // Out of a file under way to disposition, or out of a file under hold, a document does not slip.
    if (doc.file_id !== null) {
      const [from] = await q.filesWhere(tx, sql`f.id = ${doc.file_id}`);
      if (from?.disposition_id) throw conflict('dispositionUnderWay');
      if (from && (await q.fileHeld(tx, from.id))) throw conflict('underHold');
    }
    await tx.execute(sql`update documents set file_id = ${id} where id = ${documentId}`);
    await tx.execute(
      sql`insert into document_events (document_id, event, actor_id, details)
          values (${documentId}, 'movedToFile', ${caller.userId},
            ${JSON.stringify({ fileId: id, code: file.code, from: doc.file_id })}::jsonb)`,
    );
    await audit(tx, caller, meta, 'records.documentMoved', 'document', documentId, {
      fileId: id,
      from: doc.file_id,
    });
  });
  return getFile(ctx, id);
}

// ---------------------------------------------------------------- schedules

function scheduleOut(r: q.ScheduleRow): RetentionSchedule {
  return {
    id: r.id,
    codification: {
      id: r.codification_id,
      nameAr: r.codification_ar ?? '',
      nameEn: r.codification_en ?? '',
      prefix: r.prefix,
    },
    years: r.years,
    action: r.action,
    legalReference: r.legal_reference,
    updatedAt: r.updated_at,
  };
}

export const listSchedules = async (ctx: ServerContext) => (await q.schedules(ctx.db)).map(scheduleOut);

/** PUT /records/schedules/{codificationId}. */
export async function putSchedule(
  ctx: ServerContext,
  caller: AuthContext,
  codificationId: number,
  body: ScheduleRequest,
  meta: Meta,
): Promise<RetentionSchedule> {
  await ctx.db.transaction(async (tx) => {
    const [cod] = await rowsOf(
      tx,
      sql`select 1 from correspondence_settings where id = ${codificationId} and list = 'codifications'`,
    );
    if (!cod) throw notFound();
    await tx.execute(
      sql`insert into retention_schedules (codification_id, years, action, legal_reference, updated_by)
          values (${codificationId}, ${body.years}, ${body.action}, ${body.legalReference}, ${caller.userId})
          on conflict (codification_id) do update set years = excluded.years, action = excluded.action,
            legal_reference = excluded.legal_reference, updated_by = excluded.updated_by, updated_at = now()`,
    );
    await audit(tx, caller, meta, 'records.scheduleSet', 'codification', codificationId, { ...body });
  });
  const [row] = await q.schedules(ctx.db, codificationId);
  return scheduleOut(row!);
}

/** DELETE /records/schedules/{codificationId}. */
export async function deleteSchedule(
  ctx: ServerContext,
  caller: AuthContext,
  codificationId: number,
  meta: Meta,
): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    const gone = await rowsOf(
      tx,
      sql`delete from retention_schedules where codification_id = ${codificationId} returning id`,
    );
    if (!gone.length) throw notFound();
    await audit(tx, caller, meta, 'records.scheduleRemoved', 'codification', codificationId);
  });
  return null;
}

// ---------------------------------------------------------------- disposition

/** The job's progress as it stores it (disposition-job.ts). */
interface StoredProgress {
  phase?: DispositionPhase;
  done?: number;
  total?: number;
  percent?: number;
}

/** The disposition's job as the API tells it, translated into `locale` when it failed. */
function jobOut(r: q.DispositionRow, locale: Locale): DispositionJob | null {
  if (r.job_id === null || r.job_state === null) return null;
  const p: StoredProgress =
    typeof r.job_progress === 'object' && r.job_progress !== null ? (r.job_progress as StoredProgress) : {};
  const state = r.job_state === 'dead' ? 'failed' : r.job_state;
  const key = /records\.[A-Za-z]+/.exec(r.job_error ?? '')?.[0];
  return {
    id: r.job_id,
    state,
    phase: p.phase ?? 'queued',
    done: p.done ?? 0,
    total: p.total ?? 0,
    percent: Math.min(99, Math.round(p.percent ?? 0)),
    error:
      state === 'failed'
        ? translate(locale, key && hasText(locale, key) ? key : 'records.executionFailed')
        : null,
  };
}

/**
 * Whether a disposition is being carried out (DISPOSITION_VIEW_STATES): approved, and its job waits or runs,
 * or its destruction has begun (the file is marked destroyed from the first batch on).
 */
const executing = (r: q.DispositionRow) =>
  r.state === 'approved' &&
  (r.job_state === 'queued' || r.job_state === 'running' || r.file_disposed !== null);

/** A disposition row as the API tells it (`locale`: the language of its job's error). */
export function dispositionOut(r: q.DispositionRow, locale: Locale = 'ar'): Disposition {
  return {
    id: r.id,
    file: { id: r.file_id, code: r.file_code, titleAr: r.file_title_ar, titleEn: r.file_title_en },
    action: r.action,
    state: executing(r) ? 'executing' : r.state,
    legalReference: r.legal_reference,
    note: r.note,
    proposedBy: ref(r.proposed_by, r.proposed_by_ar, r.proposed_by_en),
    proposedAt: r.proposed_at,
    approvedBy: ref(r.approved_by, r.approved_by_ar, r.approved_by_en),
    approvedAt: r.approved_at,
    executedBy: ref(r.executed_by, r.executed_by_ar, r.executed_by_en),
    executedAt: r.executed_at,
    record: r.record as DisposedDocument[],
    outputSha256: r.output_sha256,
    job: jobOut(r, locale),
  };
}

/** A disposition's row (404 when there is none); locked with `forUpdate`. */
export async function dispositionRow(db: Tx, id: number, forUpdate = false): Promise<q.DispositionRow> {
  const [row] = await q.dispositionsWhere(db, sql`w.id = ${id}`, forUpdate);
  if (!row) throw notFound();
  return row;
}

export const getDisposition = async (ctx: ServerContext, id: number, locale: Locale = 'ar') =>
  dispositionOut(await dispositionRow(ctx.db, id), locale);
/** GET /records/dispositions/{id}/progress: its state and job only (the screen follows it every second). */
export async function dispositionProgress(
  ctx: ServerContext,
  id: number,
  locale: Locale,
): Promise<DispositionProgress> {
  const [row] = await q.dispositionsWhere(ctx.db, sql`w.id = ${id}`, false, false);
  if (!row) throw notFound();
  const { state, job } = dispositionOut(row, locale);
  return { id, state, job };
}
export const listDispositions = async (ctx: ServerContext, locale: Locale = 'ar') =>
  (await q.dispositionsWhere(ctx.db, sql`true`)).map((r) => dispositionOut(r, locale));

/** GET /records/disposition/due: closed files past their retention, not disposed of, on today. */
export async function dueFiles(ctx: ServerContext): Promise<DueFile[]> {
  const today = todayOf(ctx);
  const rows = await q.filesWhere(ctx.db, sql`f.closed_on is not null and f.disposed is null`, 5000);
  return rows
    .map((r) => ({ r, file: fileOut(r) }))
    .filter(({ file }) => file.retention && isDue(today, file.closedOn, file.retention))
    .map(({ r, file }) => ({
      ...file,
      disposition:
        r.disposition_id === null
          ? null
          : { id: r.disposition_id, state: r.disposition_executing ? 'executing' : r.disposition_state! },
    }));
}

/** POST /records/dispositions: a file that is due, not held, with none under way. */
export async function propose(
  ctx: ServerContext,
  caller: AuthContext,
  body: { fileId: number; note?: string | null | undefined },
  meta: Meta,
): Promise<Disposition> {
  const id = await ctx.db.transaction(async (tx) => {
    await q.lockFile(tx, body.fileId);
    const [row] = await q.filesWhere(tx, sql`f.id = ${body.fileId}`);
    if (!row) throw new HttpProblem('badRequest', { fields: { fileId: [{ key: 'validation.choice' }] } });
    const file = fileOut(row);
    if (row.disposed) throw refused('fileDisposed');
    if (!file.retention || !isDue(todayOf(ctx), file.closedOn, file.retention))
      throw refused('notDue', 'fileId');
    if (row.disposition_id !== null) throw conflict('dispositionUnderWay');
    if (await q.fileHeld(tx, body.fileId)) throw conflict('underHold');
    const action = file.retention.action as 'destroy' | 'transfer';
    const [made] = await rowsOf<{ id: number }>(
      tx,
      sql`insert into dispositions (file_id, action, legal_reference, note, proposed_by, proposed_at)
          values (${body.fileId}, ${action}, ${file.retention.legalReference}, ${body.note ?? null},
            ${caller.userId}, ${ctx.clock.now()})
          returning id`,
    );
    await audit(tx, caller, meta, 'records.dispositionProposed', 'disposition', made!.id, {
      fileId: body.fileId,
      code: file.code,
      action,
    });
    return made!.id;
  });
  return getDisposition(ctx, id);
}

/** Checks a step under the disposition's lock: the rule (rules.ts) with the hold as it is now. */
async function stepLocked(tx: Tx, caller: AuthContext, id: number, step: DispositionStep) {
  const row = await dispositionRow(tx, id, true);
  const held = await q.fileHeld(tx, row.file_id);
  const state = executing(row) ? 'executing' : row.state;
  const next = dispositionStep({ state, proposedBy: row.proposed_by }, step, caller.userId, held);
  if ('refused' in next) {
    if (next.refused === 'underHold') throw conflict('underHold');
    if (next.refused === 'executing') throw conflict('dispositionExecuting');
    if (next.refused === 'ownProposal')
      throw new HttpProblem('forbidden', {
        detailKey: 'records.ownProposal',
        code: 'records.ownProposal',
      });
    throw refused(next.refused);
  }
  return row;
}

/** POST /records/dispositions/{id}/approve: by someone other than the proposer. */
export async function approve(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  meta: Meta,
  locale: Locale = 'ar',
) {
  await ctx.db.transaction(async (tx) => {
    const row = await stepLocked(tx, caller, id, 'approve');
    await tx.execute(
      sql`update dispositions set state = 'approved', approved_by = ${caller.userId}, approved_at = ${ctx.clock.now()}
          where id = ${id}`,
    );
    await audit(tx, caller, meta, 'records.dispositionApproved', 'disposition', id, { fileId: row.file_id });
  });
  return getDisposition(ctx, id, locale);
}

/** POST /records/dispositions/{id}/cancel: not once it is being carried out. */
export async function cancel(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  meta: Meta,
  locale: Locale = 'ar',
) {
  await ctx.db.transaction(async (tx) => {
    const row = await stepLocked(tx, caller, id, 'cancel');
    await tx.execute(
      sql`update dispositions set state = 'cancelled', cancelled_by = ${caller.userId}, cancelled_at = ${ctx.clock.now()}
          where id = ${id}`,
    );
    await audit(tx, caller, meta, 'records.dispositionCancelled', 'disposition', id, { fileId: row.file_id });
  });
  return getDisposition(ctx, id, locale);
}

/** The minimal record of documents (what a disposition keeps of them): their numbers, dates and files' hashes. */
export function recordOf(contents: q.ContentRow[]): DisposedDocument[] {
  return contents.map((d) => ({
    docNumber: d.doc_number,
    subject: d.subject,
    direction: d.direction,
    documentDate: d.document_date,
    registeredAt: d.registered_at,
    files: [
      ...d.files.map((f) => ({ fileName: f.fileName, sha256: f.sha256, size: Number(f.size) })),
      ...(d.final_sha256
        ? [
            {
              fileName: `final-${d.doc_number ?? d.id}.pdf`,
              sha256: d.final_sha256,
              size: Number(d.final_size ?? 0),
            },
          ]
        : []),
    ],
  }));
}

/**
 * POST /records/dispositions/{id}/execute: checks the step (approved, no hold in force) and, in the same
 * transaction, names who carries it out and queues the job that does it (disposition-job.ts); answers the
 * disposition `executing` with its job. While its job waits or runs, asking again answers that job; after
 * it failed, a new job continues where it stopped.
 */
export async function execute(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  meta: Meta,
  locale: Locale = 'ar',
) {
  await ctx.db.transaction(async (tx) => {
    const row = await stepLocked(tx, caller, id, 'execute');
    if (row.job_state === 'queued' || row.job_state === 'running') return;
    await q.lockFile(tx, row.file_id);
    // The one who asked first carries it out (a stopped destruction taken up again keeps its executor).
    await tx.execute(
      sql`update dispositions set executed_by = coalesce(executed_by, ${caller.userId}) where id = ${id}`,
    );
    const payload: DispositionJobPayload = {
      dispositionId: id,
      userId: caller.userId,
      username: caller.username,
      ip: meta.ip,
    };
    const jobId = await ctx.jobs.enqueue(tx, q.DISPOSITION_JOB, payload, {
      key: `disposition:${id}`,
      maxAttempts: 5,
    });
    await audit(tx, caller, meta, 'records.dispositionStarted', 'disposition', id, {
      fileId: row.file_id,
      action: row.action,
      jobId,
    });
  });
  ctx.jobs.nudge();
  return getDisposition(ctx, id, locale);
}

/** What the execute request hands its job: the disposition, and who asked from where (for the audit). */
export interface DispositionJobPayload {
  dispositionId: number;
  userId: number;
  username: string;
  ip: string | null;
}

/** The certificate (destruction) or package (transfer) of a disposition done, from the store. */
export async function outputOf(ctx: ServerContext, id: number, action: 'destroy' | 'transfer') {
  const row = await dispositionRow(ctx.db, id);
  if (row.action !== action || row.state !== 'done') throw notFound();
  if (row.output_sha256 === null) {
    // Done before destructions ran as jobs, and the server stopped before the certificate was stored: made
    // again from the record.
    if (action !== 'destroy') throw notFound();
    const bytes = Buffer.from((await makePdf('certificate', dispositionOut(row))).bytes);
    const stored = await ctx.files.put(bytes);
    await ctx.db.execute(sql`update dispositions set output_sha256 = ${stored.sha256} where id = ${id}`);
    return { bytes, code: row.file_code };
  }
  return { bytes: await ctx.files.get(row.output_sha256), code: row.file_code };
}

// ---------------------------------------------------------------- holds

function holdOut(r: q.HoldRow): LegalHold {
  return {
    id: r.id,
    documentId: r.document_id,
    fileId: r.file_id,
    target: r.target ?? '',
    reason: r.reason,
    placedBy: ref(r.placed_by, r.placed_by_ar, r.placed_by_en),
    placedAt: r.placed_at,
    liftedBy: ref(r.lifted_by, r.lifted_by_ar, r.lifted_by_en),
    liftedAt: r.lifted_at,
  };
}

export async function listHolds(ctx: ServerContext, active?: 'true' | 'false') {
  const where =
    active === 'true'
      ? sql`h.lifted_at is null`
      : active === 'false'
        ? sql`h.lifted_at is not null`
        : sql`true`;
  return (await q.holdsWhere(ctx.db, where)).map(holdOut);
}

/** POST /records/holds. */
export async function placeHold(
  ctx: ServerContext,
  caller: AuthContext,
  body: { documentId?: number | undefined; fileId?: number | undefined; reason: string },
  meta: Meta,
): Promise<LegalHold> {
  const id = await ctx.db.transaction(async (tx) => {
    const field = body.documentId !== undefined ? 'documentId' : 'fileId';
    const choice = () =>
      new HttpProblem('badRequest', { fields: { [field]: [{ key: 'validation.choice' }] } });
    // Under the lock of the file (the document's), which each step of a disposition takes too: a hold is
    // either in force before a destruction begins, and stops it, or refused once it has begun.
    const documentOf = () =>
      rowsOf<{ file_id: number | null }>(
        tx,
        sql`select file_id from documents where id = ${body.documentId!}`,
      );
    const fileId = body.documentId !== undefined ? (await documentOf())[0]?.file_id : body.fileId!;
    if (fileId !== undefined && fileId !== null) await q.lockFile(tx, fileId);
    if (body.documentId !== undefined) {
      const [doc] = await documentOf();
      if (!doc) throw choice();
      if (doc.file_id !== null) {
        const [file] = await rowsOf<{ disposed: string | null }>(
          tx,
          sql`select disposed from record_files where id = ${doc.file_id}`,
        );
        if (file?.disposed) throw refused('fileDisposed', 'documentId');
      }
    } else {
      const [file] = await rowsOf(
        tx,
        sql`select id from record_files where id = ${body.fileId!} and disposed is null`,
      );
      if (!file) throw choice();
    }
    const [made] = await rowsOf<{ id: number }>(
      tx,
      sql`insert into legal_holds (document_id, file_id, reason, placed_by, placed_at)
          values (${body.documentId ?? null}, ${body.fileId ?? null}, ${body.reason}, ${caller.userId}, ${ctx.clock.now()})
          returning id`,
    );
    await audit(tx, caller, meta, 'records.holdPlaced', 'legalHold', made!.id, {
      documentId: body.documentId ?? null,
      fileId: body.fileId ?? null,
      reason: body.reason,
    });
    return made!.id;
  });
  const [row] = await q.holdsWhere(ctx.db, sql`h.id = ${id}`);
  return holdOut(row!);
}

/** POST /records/holds/{id}/lift. */
export async function liftHold(ctx: ServerContext, caller: AuthContext, id: number, meta: Meta) {
  await ctx.db.transaction(async (tx) => {
    const lifted = await rowsOf<{ id: number }>(
      tx,
      sql`update legal_holds set lifted_by = ${caller.userId}, lifted_at = ${ctx.clock.now()}
          where id = ${id} and lifted_at is null returning id`,
    );
    if (!lifted.length) {
      const [exists] = await rowsOf(tx, sql`select 1 from legal_holds where id = ${id}`);
      if (!exists) throw notFound();
      throw refused('alreadyLifted');
    }
    await audit(tx, caller, meta, 'records.holdLifted', 'legalHold', id);
  });
  const [row] = await q.holdsWhere(ctx.db, sql`h.id = ${id}`);
  return holdOut(row!);
}
