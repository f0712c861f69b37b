/**
 * The sweep of stored bytes that no row names (docs/read-audit-and-integrity.md). Writers store bytes
 * first and name them in a row afterwards (an upload and its attachment row, a final letter, a report
 * export, a transfer's package); a process killed between the two leaves bytes nothing names, for good.
 * A background job lists the store (local disk or S3) in batches, asks `unreferenced` which of each batch
 * no row names, and removes those last written before the grace period (SWEEP_GRACE_HOURS): bytes a
 * writer still running has just stored are never taken. Each batch's removals are one audit entry
 * (`files.swept`).
 *
 * Like the integrity check (modules/reads/integrity.ts), a pass goes through the store in SHA-256 order,
 * SWEEP_RUN_FILES entries per job run; each run queues the next with the last hash it listed, and the
 * last queues the next pass a day later. One job is waiting at a time whatever the number of servers
 * (the queue's key).
 *
 * What is left: a writer storing bytes the store holds already refreshes their time (the local store
 * renames a new copy into place; the S3 store copies an old object onto itself), and each removal first
 * reads that time again, so only a writer storing the same bytes in the instant between that read and
 * the removal could lose them.
 */
import { z } from 'zod';
import { recordAudit } from '../audit';
import type { ServerContext } from '../context';
import type { JobContext } from '../jobs/queue';
import { unreferenced } from './references';

export const SWEEP_JOB = 'files.sweep';
/** Entries listed and asked about at once (one `unreferenced` query, at most one audit entry). */
export const SWEEP_BATCH = 1000;
/** Entries listed per job run (a few seconds on a local disk; the queue's lease covers it). */
export const SWEEP_RUN_FILES = 20_000;
/** Between the end of a pass and the start of the next. */
export const SWEEP_INTERVAL_HOURS = 24;

const payloadSchema = z.object({
  after: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .default(null),
});

export interface SweepOutcome {
  /** Entries the store listed. */
  listed: number;
  /** What was removed. */
  removed: { sha256: string; size: number }[];
  /** The last hash listed when the run stopped at its limit, or null when the pass is over. */
  next: string | null;
}

export interface SweepOptions {
  /** Resume after this hash (SHA-256 order). */
  after?: string | null;
  /** Stop after listing about this many entries (a whole batch at a time); default: the whole store. */
  limit?: number;
  batchSize?: number;
  /** Bytes last written at or after this stay; default now less SWEEP_GRACE_HOURS. */
  cutoff?: Date;
  job?: Pick<JobContext, 'giveWay' | 'signal'>;
}

/** Removes the stored bytes no row names that were last written before the cutoff. */
export async function sweepFiles(ctx: ServerContext, options: SweepOptions = {}): Promise<SweepOutcome> {
  const cutoff = options.cutoff ?? new Date(Date.now() - ctx.config.SWEEP_GRACE_HOURS * 3600_000);
  const limit = options.limit ?? Infinity;
  const outcome: SweepOutcome = { listed: 0, removed: [], next: null };
  const listing = ctx.files.list({
    ...(options.after ? { after: options.after } : {}),
    batchSize: options.batchSize ?? SWEEP_BATCH,
  });
  for await (const batch of listing) {
    if (options.job?.signal.aborted) throw options.job.signal.reason;
    outcome.listed += batch.length;
    const old = batch.filter((entry) => entry.modifiedAt < cutoff);
    const loose = new Set(
      await unreferenced(
        ctx.db,
        old.map((entry) => entry.sha256),
      ),
    );
    const removed: SweepOutcome['removed'] = [];
    for (const entry of old) {
      if (!loose.has(entry.sha256)) continue;
      // Stored again since the listing (a writer about to name it): its time says so, and it stays.
      const at = await ctx.files.modifiedAt(entry.sha256);
      if (at === null || at >= cutoff) continue;
      await ctx.files.remove(entry.sha256);
      removed.push({ sha256: entry.sha256, size: entry.size });
    }
    if (removed.length) {
      await recordAudit(ctx.db, {
        action: 'files.swept',
        targetType: 'file',
        details: {
          count: removed.length,
          bytes: removed.reduce((sum, r) => sum + r.size, 0),
          hashes: removed.map((r) => r.sha256),
          store: ctx.config.FILE_STORE,
          graceHours: ctx.config.SWEEP_GRACE_HOURS,
        },
      });
      outcome.removed.push(...removed);
    }
    await options.job?.giveWay();
    if (outcome.listed >= limit) {
      outcome.next = batch.at(-1)?.sha256 ?? null;
      break;
    }
  }
  return outcome;
}

/** One job run: SWEEP_RUN_FILES entries, then the rest at once, or the next pass a day later. */
export async function runSweepJob(ctx: ServerContext, job: JobContext): Promise<void> {
  const { after } = payloadSchema.parse(job.payload ?? {});
  const outcome = await sweepFiles(ctx, { after, limit: SWEEP_RUN_FILES, job });
  await job.progress({
    after,
    listed: outcome.listed,
    removed: outcome.removed.length,
    bytes: outcome.removed.reduce((sum, r) => sum + r.size, 0),
    passEnded: outcome.next === null,
  });
  if (outcome.next) await queueSweep(ctx, { after: outcome.next });
  else await queueSweep(ctx, { after: null, delayHours: SWEEP_INTERVAL_HOURS });
}

/** Queues the next run (kept when one is waiting already: a pass under way resumes from its payload). */
export async function queueSweep(
  ctx: Pick<ServerContext, 'db' | 'jobs'>,
  next: { after: string | null; delayHours?: number } = { after: null },
): Promise<void> {
  const runAt = next.delayHours ? new Date(Date.now() + next.delayHours * 3600_000) : undefined;
  await ctx.jobs.enqueue(
    ctx.db,
    SWEEP_JOB,
    { after: next.after },
    { key: 'next', ...(runAt ? { runAt } : {}), maxAttempts: 5 },
  );
}
