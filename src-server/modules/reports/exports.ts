/**
 * Report exports (docs/reports.md): a background job on the project's queue (jobs/queue.ts) per request,
 * whose payload names its requester, and whose progress (a JSON object) says how far it got and, once done,
 * which stored file holds the result. The file goes to the file store (storage/files.ts, shared by every
 * server of an organisation) and is removed EXPORT_KEEP_HOURS after it was made by a job queued for then
 * (`reports.export.expire`); the export itself is forgotten when the queue prunes done jobs (7 days).
 * Only the requester sees an export or fetches its file: anyone else is answered 404, as for a document
 * they may not see. The export is made with the requester's visibility as it is when the job runs.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { ExportRequest, ReportExport, ReportFilters, ReportName } from '../../../src-shared/api/reports';
import type { Locale } from '../../../src-shared/locale';
import type { ServerContext } from '../../context';
import { rowsOf } from '../../db/rows';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import { translate } from '../../i18n';
import { PermanentJobError, type JobContext } from '../../jobs/queue';
import { REPORT_EXPORT_JOB, unreferenced } from '../../storage/references';
import { makePdf } from '../../pdf-making/pdf-make-pool';
import { PDF_MAX_ROWS } from './pdf';
import { checkPeriod, requesterScope, runOf } from './service';
import { writeXlsx, type SheetHeading } from './xlsx';

export const EXPORT_JOB = REPORT_EXPORT_JOB;
export const EXPIRE_JOB = 'reports.export.expire';
/** How long a made export may be downloaded before its file is removed. */
export const EXPORT_KEEP_HOURS = 24;

interface Payload {
  userId: number;
  report: ReportName;
  format: 'xlsx' | 'pdf';
  filters: ReportFilters;
  lang: Locale;
}

/** What the job stores as its progress. */
interface Progress {
  percent: number;
  rows: number;
  fileName?: string;
  sha256?: string;
  size?: number;
  doneAt?: string;
  expiresAt?: string;
}

const TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;

const notFound = () =>
  new HttpProblem('notFound', { detailKey: 'reports.exportNotFound', code: 'reports.exportNotFound' });

/** POST /reports/exports: queues the job. */
export async function createExport(
  ctx: ServerContext,
  caller: AuthContext,
  body: ExportRequest & { filters: ReportFilters },
): Promise<{ id: number }> {
  // The period is checked now, so a request that cannot run is refused rather than queued.
  checkPeriod(body.filters);
  const payload: Payload = {
    userId: caller.userId,
    report: body.report,
    format: body.format,
    filters: body.filters,
    lang: body.lang,
  };
  const id = await ctx.jobs.enqueue(ctx.db, EXPORT_JOB, payload, { maxAttempts: 2 });
  return { id: id! };
}

type JobRow = {
  id: number;
  state: 'queued' | 'running' | 'done' | 'dead';
  payload: Payload;
  progress: Progress | number | null;
  last_error: string | null;
  created_at: string;
};

async function exportRows(ctx: ServerContext, where: ReturnType<typeof sql>): Promise<JobRow[]> {
  return rowsOf<JobRow>(
    ctx.db,
    sql`select id, state, payload, progress, last_error,
               to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
          from background_jobs where kind = ${EXPORT_JOB} and ${where}`,
  );
}

function viewOf(row: JobRow, locale: Locale): ReportExport {
  const p: Progress =
    typeof row.progress === 'object' && row.progress !== null ? row.progress : { percent: 0, rows: 0 };
  const state = row.state === 'dead' ? 'failed' : row.state;
  const key = /reports\.[A-Za-z.]+/.exec(row.last_error ?? '')?.[0];
  return {
    id: row.id,
    report: row.payload.report,
    format: row.payload.format,
    state,
    progress: state === 'done' ? 100 : Math.min(99, Math.round(p.percent ?? 0)),
    rows: p.rows ?? 0,
    ...(state === 'done' && p.fileName ? { fileName: p.fileName } : {}),
    ...(state === 'failed'
      ? { error: translate(locale, key ?? 'reports.exportFailed', { max: PDF_MAX_ROWS }) }
      : {}),
    createdAt: row.created_at,
    ...(state === 'done' && p.expiresAt ? { expiresAt: p.expiresAt } : {}),
  };
}

/** The caller's own export, or 404 (someone else's is not told apart from none). */
async function ownExport(ctx: ServerContext, caller: AuthContext, id: number): Promise<JobRow> {
  const [row] = await exportRows(ctx, sql`id = ${id}`);
  if (!row || row.payload.userId !== caller.userId) throw notFound();
  return row;
}

export async function getExport(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  locale: Locale,
): Promise<ReportExport> {
  return viewOf(await ownExport(ctx, caller, id), locale);
}

export async function listExports(
  ctx: ServerContext,
  caller: AuthContext,
  locale: Locale,
): Promise<ReportExport[]> {
  const rows = await exportRows(
    ctx,
    sql`(payload->>'userId')::int = ${caller.userId} order by id desc limit 50`,
  );
  return rows.map((r) => viewOf(r, locale));
}

/** The made file of the caller's export: its bytes' hash, name and type (404 until done, 410-like once removed). */
export async function exportFile(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<{ sha256: string; fileName: string; type: string; size: number }> {
  const row = await ownExport(ctx, caller, id);
  const p = typeof row.progress === 'object' ? row.progress : null;
  if (row.state !== 'done' || !p?.sha256 || !p.fileName)
    throw new HttpProblem('conflict', {
      detailKey: 'reports.exportNotReady',
      code: 'reports.exportNotReady',
    });
  if (p.expiresAt && p.expiresAt <= ctx.clock.now().toISOString())
    throw new HttpProblem('notFound', { detailKey: 'reports.exportExpired', code: 'reports.exportExpired' });
  return { sha256: p.sha256, fileName: p.fileName, type: TYPES[row.payload.format], size: p.size ?? 0 };
}

/** The export's title, the lines under it, and its column headers, in its language. */
export function headingOf(
  report: ReportName,
  filters: ReportFilters,
  columns: { key: string }[],
  lang: Locale,
  asOf: Date,
  names: { department?: string | null; codification?: string | null },
): SheetHeading {
  const t = (key: string, params?: Record<string, unknown>) => translate(lang, `reports.${key}`, params);
  const lines = [t('heading.period', { from: filters.from, to: filters.to })];
  const filtersText = [
    filters.direction ? t(`direction.${filters.direction}`) : null,
    names.department ?? null,
    names.codification ?? null,
  ].filter((x): x is string => !!x);
  if (filtersText.length)
    lines.push(t('heading.filters', { filters: filtersText.join(lang === 'ar' ? '، ' : ', ') }));
  lines.push(t('heading.asOf', { at: asOf.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' }));
  return {
    title: t(`title.${report}`),
    lines,
    headers: columns.map((c) => t(`column.${c.key}`)),
  };
}

async function filterNames(ctx: ServerContext, f: ReportFilters, lang: Locale) {
  const pick = (r: { name_ar: string | null; name_en: string | null } | undefined) =>
    r ? (lang === 'ar' ? r.name_ar : r.name_en) : null;
  const [dep] = f.departmentId
    ? await rowsOf<{ name_ar: string; name_en: string }>(
        ctx.db,
        sql`select name_ar, name_en from departments where id = ${f.departmentId}`,
      )
    : [];
  const [cod] = f.codificationId
    ? await rowsOf<{ name_ar: string | null; name_en: string | null }>(
        ctx.db,
        sql`select name_ar, name_en from correspondence_settings where id = ${f.codificationId}`,
      )
    : [];
  return { department: pick(dep), codification: pick(cod) };
}

/**
 * The export job: the report read a batch at a time (through a cursor for the long ones) and written to a
 * temporary file as it is read, then stored, its removal queued.
 */
export async function runExport(ctx: ServerContext, job: JobContext): Promise<void> {
  const p = job.payload as Payload;
  const scope = await requesterScope(ctx, p.userId);
  const run = await runOf(ctx, scope, p.report, p.filters, p.lang);
  const asOf = ctx.clock.now();
  const heading = headingOf(
    p.report,
    p.filters,
    run.columns,
    p.lang,
    asOf,
    await filterNames(ctx, p.filters, p.lang),
  );
  await mkdir(ctx.files.tempDir, { recursive: true });
  const temp = join(ctx.files.tempDir, `report-${job.id}-${randomBytes(6).toString('hex')}.${p.format}`);
  try {
    const rows = await run.toExport(async ({ total, batches }) => {
      if (p.format === 'pdf' && total > PDF_MAX_ROWS)
        throw new PermanentJobError('reports.tooManyRowsForPdf');
      const onBatch = async (rows: number) => {
        if (job.signal.aborted) throw job.signal.reason ?? new Error('aborted');
        await job.progress({ percent: total ? (95 * rows) / total : 95, rows } satisfies Progress);
        await job.giveWay();
      };
      if (p.format === 'xlsx')
        return writeXlsx(createWriteStream(temp), p.lang, heading, run.columns, batches, onBatch);
      // Made in a worker thread (pdf-making/), the rows sent over a batch at a time as it asks for them.
      const made = await makePdf(
        'reportPdf',
        { lang: p.lang, heading, columns: run.columns, total },
        { batches, onProgress: onBatch },
      );
      await writeFile(temp, made.bytes);
      return made.rows;
    });
    const hash = createHash('sha256');
    await pipeline(createReadStream(temp), hash);
    const sha256 = hash.digest('hex');
    const { size } = await stat(temp);
    await ctx.files.putFile(temp, sha256);
    const expires = new Date(asOf.getTime() + EXPORT_KEEP_HOURS * 3_600_000);
    const fileName = `${translate(p.lang, `reports.file.${p.report}`)}-${p.filters.from}-${p.filters.to}.${p.format}`;
    await ctx.jobs.enqueue(
      ctx.db,
      EXPIRE_JOB,
      { exportId: job.id, sha256 },
      { runAt: expires, maxAttempts: 5 },
    );
    await job.progress({
      percent: 100,
      rows,
      fileName,
      sha256,
      size,
      doneAt: asOf.toISOString(),
      expiresAt: expires.toISOString(),
    } satisfies Progress);
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Removes an export's file once its time is up, unless the same bytes are named by a record (the store is
 * content-addressed: an attachment with the very same bytes keeps them) or by another export still kept.
 */
export async function expireExport(ctx: ServerContext, job: JobContext): Promise<void> {
  const { exportId, sha256 } = job.payload as { exportId: number; sha256: string };
  for (const free of await unreferenced(ctx.db, [sha256], { exceptExport: exportId }))
    await ctx.files.remove(free);
}
