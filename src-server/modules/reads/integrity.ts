/**
 * The stored files' integrity (issue 31 part 6; docs/read-audit-and-integrity.md): a background job reads
 * every stored file again (local disk or S3) and hashes it; a file whose bytes are not those of the
 * SHA-256 it is stored under — changed, or gone — is reported once: a row in integrity_failures, an audit
 * entry (`files.integrityFailed`) and a notification to the administrators. A file found whole again on a
 * later pass closes its finding.
 *
 * A pass goes through the stored files in SHA-256 order, a batch per job run; each run queues the next
 * with the last hash it checked in its payload, so a pass resumes where it got to after a restart (a run
 * that dies is retried with the same payload), and the last batch queues the next pass
 * INTEGRITY_CHECK_INTERVAL_HOURS later (0: no checks). One job is waiting at a time whatever the number of
 * servers (the queue's key).
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type {
  IntegrityPage,
  IntegrityProblem,
  NamedDocument,
  ReadsQuery,
} from '../../../src-shared/api/reads';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { scope } from '../correspondence/common';
import { visibleTo } from '../correspondence/visibility';
import { notify } from '../../db/notices';
import { rowsOf } from '../../db/rows';
import type { JobContext } from '../../jobs/queue';

export const INTEGRITY_JOB = 'files.integrity';
/** Files read per job run (a run is a few seconds on a local disk; the queue's lease covers it). */
export const INTEGRITY_BATCH = 500;
/** Files read at once within a batch. */
const READS_AT_ONCE = 4;

const payloadSchema = z.object({
  after: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .default(null),
});

/** What one batch found. */
export interface BatchOutcome {
  checked: number;
  /** Findings made now (a file already reported is not reported again). */
  reported: { sha256: string; problem: IntegrityProblem }[];
  /** The last hash checked, or null when the pass is over. */
  next: string | null;
}

/** Every content the stores hold and the database names: attachments, photos, final letters. */
async function storedHashes(ctx: ServerContext, after: string | null, limit: number): Promise<string[]> {
  const from = after ?? '';
  const rows = await rowsOf<{ sha256: string }>(
    ctx.db,
    sql`select sha256 from (
          (select sha256 from document_attachments where sha256 > ${from} order by sha256 limit ${limit})
          union
          (select sha256 from employee_attachments where sha256 > ${from} order by sha256 limit ${limit})
          union
          (select photo_sha256 from employees where photo_sha256 > ${from} order by photo_sha256 limit ${limit})
          union
          (select sha256 from final_letters where sha256 > ${from} order by sha256 limit ${limit})
        ) s order by sha256 limit ${limit}`,
  );
  return rows.map((r) => r.sha256);
}

/** The SHA-256 of a stored file's bytes as read now, or null when the store has none under that hash. */
async function hashStored(ctx: ServerContext, sha256: string): Promise<string | null> {
  try {
    const hash = createHash('sha256');
    for await (const part of ctx.files.open(sha256)) hash.update(part as Buffer);
    return hash.digest('hex');
  } catch (error) {
    // Gone, or a read that failed: only a store that says it has no such file makes it missing.
    if (!(await ctx.files.has(sha256).catch(() => true))) return null;
    throw error;
  }
}

/** Records a finding once (audit entry, administrators told); answers whether it is new. */
async function report(
  ctx: ServerContext,
  sha256: string,
  problem: IntegrityProblem,
  found: string | null,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [made] = await rowsOf<{ id: number }>(
      tx,
      sql`insert into integrity_failures (sha256, problem, found_sha256, store)
          values (${sha256}, ${problem}, ${found}, ${ctx.config.FILE_STORE})
          on conflict (sha256) where resolved_at is null do nothing
          returning id`,
    );
    if (!made) return false;
    const documents = await rowsOf<{ document_id: number }>(
      tx,
      sql`select distinct document_id from document_attachments where sha256 = ${sha256} order by 1 limit 20`,
    );
    const documentIds = documents.map((d) => d.document_id);
    await recordAudit(tx, {
      action: 'files.integrityFailed',
      targetType: 'file',
      targetId: sha256,
      details: { problem, foundSha256: found, store: ctx.config.FILE_STORE, documentIds },
    });
    const admins = await rowsOf<{ id: number }>(
      tx,
      sql`select u.id from users u join roles r on r.id = u.role_id where r.is_system and u.active`,
    );
    await notify(
      tx,
      admins.map((a) => a.id),
      {
        kind: 'integrityFailed',
        documentId: documentIds[0] ?? null,
        details: { sha256, problem, store: ctx.config.FILE_STORE },
        dedupeKey: `integrity:${made.id}`,
      },
    );
    return true;
  });
}

/** Checks the stored files after `after` (SHA-256 order), `limit` of them. */
export async function checkIntegrityBatch(
  ctx: ServerContext,
  after: string | null,
  limit = INTEGRITY_BATCH,
  job?: Pick<JobContext, 'giveWay' | 'signal'>,
): Promise<BatchOutcome> {
  const hashes = await storedHashes(ctx, after, limit);
  const reported: BatchOutcome['reported'] = [];
  const whole: string[] = [];
  for (let i = 0; i < hashes.length; i += READS_AT_ONCE) {
    if (job?.signal.aborted) throw job.signal.reason;
    const slice = hashes.slice(i, i + READS_AT_ONCE);
    const found = await Promise.all(slice.map((sha256) => hashStored(ctx, sha256)));
    for (const [k, sha256] of slice.entries()) {
      const actual = found[k]!;
      if (actual === sha256) {
        whole.push(sha256);
        continue;
      }
      const problem: IntegrityProblem = actual === null ? 'missing' : 'changed';
      if (await report(ctx, sha256, problem, actual)) reported.push({ sha256, problem });
    }
    await job?.giveWay();
  }
  // Files found whole again close their findings.
  if (whole.length)
    await ctx.db.execute(
      sql`update integrity_failures set resolved_at = now()
           where resolved_at is null and sha256 in (${sql.join(
             whole.map((h) => sql`${h}`),
             sql`, `,
           )})`,
    );
  return { checked: hashes.length, reported, next: hashes.length < limit ? null : (hashes.at(-1) ?? null) };
}

/** A whole pass at once (the tests, the bench and an administrator's command line). */
export async function runIntegrityPass(
  ctx: ServerContext,
  limit = INTEGRITY_BATCH,
): Promise<{ checked: number; reported: BatchOutcome['reported'] }> {
  let after: string | null = null;
  let checked = 0;
  const reported: BatchOutcome['reported'] = [];
  do {
    const batch = await checkIntegrityBatch(ctx, after, limit);
    checked += batch.checked;
    reported.push(...batch.reported);
    after = batch.next;
  } while (after);
  return { checked, reported };
}

/** One job run: a batch, then the next batch at once, or the next pass after the interval. */
export async function runIntegrityJob(ctx: ServerContext, job: JobContext): Promise<void> {
  const { after } = payloadSchema.parse(job.payload ?? {});
  const batch = await checkIntegrityBatch(ctx, after, INTEGRITY_BATCH, job);
  // `passEnded` marks the run that finished a pass: GET /auth/integrity tells when the last one did.
  await job.progress({
    after,
    checked: batch.checked,
    reported: batch.reported.length,
    passEnded: batch.next === null,
  });
  if (batch.next) await queueIntegrityCheck(ctx, { after: batch.next });
  else await queueIntegrityCheck(ctx, { after: null, delayHours: ctx.config.INTEGRITY_CHECK_INTERVAL_HOURS });
}

/** Queues the next run (none while INTEGRITY_CHECK_INTERVAL_HOURS is 0). */
export async function queueIntegrityCheck(
  ctx: ServerContext,
  next: { after: string | null; delayHours?: number } = { after: null },
): Promise<void> {
  const hours = ctx.config.INTEGRITY_CHECK_INTERVAL_HOURS;
  if (hours <= 0) return;
  const runAt = next.delayHours ? new Date(Date.now() + next.delayHours * 3600_000) : undefined;
  await ctx.jobs.enqueue(
    ctx.db,
    INTEGRITY_JOB,
    { after: next.after },
    { key: 'next', ...(runAt ? { runAt } : {}), maxAttempts: 5 },
  );
}

/**
 * GET /auth/integrity: the findings, newest first, with the documents holding each file (those the caller
 * may see named by number and subject); how many are open; when the last pass ended and the next run is
 * due (the jobs the check queues: see runIntegrityJob).
 */
export async function listIntegrityFailures(
  ctx: ServerContext,
  caller: AuthContext,
  query: ReadsQuery,
): Promise<IntegrityPage> {
  const seen = visibleTo(await scope(ctx, caller));
  const rows = await rowsOf<{
    id: number;
    sha256: string;
    problem: IntegrityProblem;
    found_sha256: string | null;
    store: string;
    detected_at: Date;
    resolved_at: Date | null;
    document_ids: number[] | null;
    documents: NamedDocument[] | null;
    total: number;
  }>(
    ctx.db,
    sql`select f.id, f.sha256, f.problem, f.found_sha256, f.store, f.detected_at, f.resolved_at,
               (select array_agg(distinct a.document_id) from document_attachments a
                 where a.sha256 = f.sha256) as document_ids,
               (select json_agg(json_build_object('id', d.id, 'docNumber', d.doc_number, 'subject', d.subject,
                                                  'direction', d.direction, 'state', d.state) order by d.id)
                  from documents d
                 where d.id in (select a.document_id from document_attachments a where a.sha256 = f.sha256)
                   and ${seen}) as documents,
               count(*) over ()::int as total
          from integrity_failures f
         order by f.id desc
         limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`,
  );
  const [jobs] = await rowsOf<{ open: number; last_pass_at: Date | null; next_run_at: Date | null }>(
    ctx.db,
    sql`select (select count(*)::int from integrity_failures where resolved_at is null) as open,
               (select max(finished_at) from background_jobs
                 where kind = ${INTEGRITY_JOB} and state = 'done' and progress->>'passEnded' = 'true')
                 as last_pass_at,
               (select min(run_at) from background_jobs where kind = ${INTEGRITY_JOB} and state = 'queued')
                 as next_run_at`,
  );
  const iso = (at: Date | null | undefined) => (at ? new Date(at).toISOString() : null);
  return {
    items: rows.map((r) => ({
      id: r.id,
      sha256: r.sha256,
      problem: r.problem,
      foundSha256: r.found_sha256,
      store: r.store,
      detectedAt: new Date(r.detected_at).toISOString(),
      resolvedAt: iso(r.resolved_at),
      documentIds: (r.document_ids ?? []).map(Number),
      documents: r.documents ?? [],
    })),
    total: rows[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
    open: jobs?.open ?? 0,
    lastPassAt: iso(jobs?.last_pass_at),
    nextRunAt: iso(jobs?.next_run_at),
  };
}
