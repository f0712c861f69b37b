/**
 * Carrying out a disposition as a background job (issue 31, docs/records.md "Carrying it out"): the execute
 * request checks the step and queues this job (service.ts `execute`); the job does the work, says how far
 * it got (its progress: phase, done, total, percent) and marks the disposition done. A job may run more
 * than once (a retry after a failure, a worker killed and its job taken back, two workers when one was
 * wrongly thought dead), so every run takes up the work where the previous one stopped:
 * - Destruction. The documents go a batch at a time, each batch in one transaction with its part of the
 *   minimal record, under the disposition's and the file's locks: a document is never deleted without its
 *   record, nor recorded twice. The first batch checks the legal holds and marks the file destroyed; from
 *   then on no hold can be placed on the file or its documents (service.ts `placeHold` takes the file's
 *   lock too), so a hold either stops the destruction before anything is destroyed or is refused. Once the
 *   last document is gone, the certificate is made from the whole record and stored; then the stored bytes
 *   that nothing names any more are removed; then the disposition is done.
 * - Transfer. The holds checked, the package built from the store and stored, then in one transaction the
 *   holds checked again, the file marked transferred and the disposition done (a package stored by a run
 *   that did not get that far is left unnamed in the store).
 * A hold found before anything was destroyed or transferred stops the job for good: the disposition stays
 * approved (nobody named as carrying it out), its job failed with `records.underHold`, audited
 * `records.dispositionStopped`; once the hold is lifted it may be carried out again.
 */
import { sql } from 'drizzle-orm';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import { rowsOf } from '../../db/rows';
import { PermanentJobError, type JobContext } from '../../jobs/queue';
import { makePdf } from '../../pdf-making/pdf-make-pool';
import { unreferenced } from '../../storage/references';
import type { Tx } from '../auth/queries';
import { buildBag } from './bagit';
import * as q from './queries';
import {
  dispositionOut,
  dispositionRow,
  fileOut,
  recordOf,
  todayOf,
  type DispositionJobPayload,
} from './service';
import type { DispositionPhase } from '../../../src-shared/api/records';

export { DISPOSITION_JOB } from './queries';

/** Documents deleted per transaction (about a tenth of a second each on PGlite). */
export const DESTROY_BATCH = 100;

/** Where each phase lies in the job's percentage. */
const SPAN: Record<DispositionPhase, [number, number]> = {
  queued: [0, 0],
  destroying: [0, 40],
  certificate: [40, 85],
  removing: [85, 99],
  packing: [0, 90],
  storing: [90, 99],
};

/** What a run may be told besides its job (tests: a smaller batch to stop between batches). */
export interface DispositionRunOptions {
  batch?: number;
}

/** The job's handler: carries out the disposition its payload names. */
export async function runDisposition(
  ctx: ServerContext,
  job: JobContext,
  options: DispositionRunOptions = {},
): Promise<void> {
  const p = job.payload as DispositionJobPayload;
  const [row] = await q.dispositionsWhere(ctx.db, sql`w.id = ${p.dispositionId}`);
  // Cancelled before it was carried out, or done by an earlier run: nothing to do.
  if (!row || row.state !== 'approved') return;
  const step = stepper(job);
  if (row.action === 'transfer') await transfer(ctx, p, step);
  else await destroy(ctx, p, step, options.batch ?? DESTROY_BATCH);
}

/** The run's progress and its pauses: gives way to requests, stops when the job is aborted. */
function stepper(job: JobContext) {
  return async (phase: DispositionPhase, done: number, total: number) => {
    if (job.signal.aborted) throw job.signal.reason ?? new Error('aborted');
    const [from, to] = SPAN[phase];
    const percent = from + (to - from) * (total > 0 ? Math.min(1, done / total) : 1);
    await job.progress({ phase, done, total, percent: Math.round(percent * 10) / 10 });
    await job.giveWay();
  };
}
type Step = ReturnType<typeof stepper>;

const auditOf = (
  tx: Tx,
  p: DispositionJobPayload,
  action: 'records.dispositionExecuted' | 'records.dispositionStopped',
  fileId: number,
  details: Record<string, unknown>,
) =>
  recordAudit(tx, {
    action,
    actorId: p.userId,
    actorUsername: p.username,
    targetType: 'disposition',
    targetId: p.dispositionId,
    details: { fileId, ...details },
    ip: p.ip,
  });

/**
 * A hold stops the disposition before anything was done (under the disposition's lock): nobody carries it
 * out any more, the stop is audited; the job then fails for good with `records.underHold`.
 */
async function stopHeld(tx: Tx, p: DispositionJobPayload, fileId: number): Promise<void> {
  await tx.execute(sql`update dispositions set executed_by = null where id = ${p.dispositionId}`);
  await auditOf(tx, p, 'records.dispositionStopped', fileId, { reason: 'underHold' });
}

const underHold = () => new PermanentJobError('records.underHold');

type Batch =
  { kind: 'gone' } | { kind: 'held' } | { kind: 'deleted'; recorded: number } | { kind: 'destroyed' };

/** One transaction of a destruction: the next batch of documents deleted with their record, or the end. */
function destroyBatch(ctx: ServerContext, p: DispositionJobPayload, size: number): Promise<Batch> {
  return ctx.db.transaction(async (tx): Promise<Batch> => {
    const w = await q.lockDisposition(tx, p.dispositionId);
    if (!w || w.state !== 'approved') return { kind: 'gone' };
    await q.lockFile(tx, w.file_id);
    const [file] = await rowsOf<{ disposed: string | null }>(
      tx,
      sql`select disposed from record_files where id = ${w.file_id}`,
    );
    const now = ctx.clock.now();
    if (!file?.disposed) {
      // Nothing destroyed yet: the holds decide, as the request did. From here on the file is destroyed.
      if (await q.fileHeld(tx, w.file_id)) {
        await stopHeld(tx, p, w.file_id);
        return { kind: 'held' };
      }
      await tx.execute(
        sql`update record_files set disposed = 'destroy', disposed_at = ${now}, updated_at = now() where id = ${w.file_id}`,
      );
    }
    const ids = await q.lockNextDocuments(tx, w.file_id, size);
    if (ids.length === 0) {
      if (w.executed_at === null) {
        await tx.execute(sql`update dispositions set executed_at = ${now} where id = ${p.dispositionId}`);
        const [all] = await rowsOf<{ record: { files: { sha256: string }[] }[] }>(
          tx,
          sql`select record from dispositions where id = ${p.dispositionId}`,
        );
        const record = all?.record ?? [];
        await auditOf(tx, p, 'records.dispositionExecuted', w.file_id, {
          action: 'destroy',
          documents: record.length,
          sha256: record.flatMap((d) => d.files.map((f) => f.sha256)),
        });
      }
      return { kind: 'destroyed' };
    }
    const part = recordOf(await q.contentsOf(tx, ids));
    await tx.execute(
      sql`update dispositions set record = record || ${JSON.stringify(part)}::jsonb where id = ${p.dispositionId}`,
    );
    await tx.execute(
      sql`delete from documents where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    return { kind: 'deleted', recorded: w.recorded + part.length };
  });
}

async function destroy(ctx: ServerContext, p: DispositionJobPayload, step: Step, size: number) {
  const first = await dispositionRow(ctx.db, p.dispositionId);
  const [left] = await rowsOf<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from documents where file_id = ${first.file_id}`,
  );
  const total = first.record.length + (left?.n ?? 0);
  await step('destroying', first.record.length, total);
  for (;;) {
    const batch = await destroyBatch(ctx, p, size);
    if (batch.kind === 'gone') return;
    if (batch.kind === 'held') throw underHold();
    if (batch.kind === 'destroyed') break;
    await step('destroying', batch.recorded, total);
  }

  // The certificate, from the whole record (made again by a run after one that stopped before storing it).
  const row = await dispositionRow(ctx.db, p.dispositionId);
  if (row.state !== 'approved') return;
  const record = dispositionOut(row).record;
  if (row.output_sha256 === null) {
    await step('certificate', 0, record.length);
    // Made in a worker thread (pdf-making/): seconds of pdf-lib for a large file, off the requests' thread.
    const pdf = await makePdf('certificate', dispositionOut(row), {
      onProgress: (set) => step('certificate', set, record.length),
    });
    const stored = await ctx.files.put(Buffer.from(pdf.bytes));
    await ctx.db.execute(
      sql`update dispositions set output_sha256 = ${stored.sha256} where id = ${p.dispositionId}`,
    );
  }

  // The bytes nothing names any more (content is stored once per hash: another record may share them).
  const hashes = [...new Set(record.flatMap((d) => d.files.map((f) => f.sha256)))];
  const free = await unreferenced(ctx.db, hashes);
  await step('removing', 0, free.length);
  for (const [i, sha256] of free.entries()) {
    await ctx.files.remove(sha256);
    if ((i + 1) % 50 === 0) await step('removing', i + 1, free.length);
  }
  await ctx.db.execute(
    sql`update dispositions set state = 'done' where id = ${p.dispositionId} and state = 'approved'`,
  );
}

async function transfer(ctx: ServerContext, p: DispositionJobPayload, step: Step) {
  const before = await dispositionRow(ctx.db, p.dispositionId);
  const stopIfHeld = async () => {
    const held = await ctx.db.transaction(async (tx) => {
      const w = await q.lockDisposition(tx, p.dispositionId);
      if (!w || w.state !== 'approved') return false;
      await q.lockFile(tx, w.file_id);
      if (!(await q.fileHeld(tx, w.file_id))) return false;
      await stopHeld(tx, p, w.file_id);
      return true;
    });
    if (held) throw underHold();
  };
  if (await q.fileHeld(ctx.db, before.file_id)) await stopIfHeld();

  const [fileNow] = await q.filesWhere(ctx.db, sql`f.id = ${before.file_id}`);
  const contents = await q.fileContents(ctx.db, before.file_id);
  const record = recordOf(contents);
  await step('packing', 0, contents.length);
  const bag = await buildBag(
    ctx.files,
    {
      file: fileOut(fileNow!),
      documents: contents.map((d, i) => ({ ...d, record: record[i]! })),
      disposition: dispositionOut(before),
      baggedOn: todayOf(ctx),
    },
    (done) => step('packing', done, contents.length),
  );
  await step('storing', 0, 1);
  const stored = await ctx.files.put(bag);
  const outcome = await ctx.db.transaction(async (tx) => {
    const w = await q.lockDisposition(tx, p.dispositionId);
    if (!w || w.state !== 'approved') return 'gone' as const;
    await q.lockFile(tx, w.file_id);
    if (await q.fileHeld(tx, w.file_id)) {
      await stopHeld(tx, p, w.file_id);
      return 'held' as const;
    }
    const now = ctx.clock.now();
    await tx.execute(
      sql`update record_files set disposed = 'transfer', disposed_at = ${now}, updated_at = now() where id = ${w.file_id}`,
    );
    await tx.execute(
      sql`update dispositions set state = 'done', executed_at = ${now}, record = ${JSON.stringify(record)}::jsonb,
            output_sha256 = ${stored.sha256} where id = ${p.dispositionId}`,
    );
    await auditOf(tx, p, 'records.dispositionExecuted', w.file_id, {
      action: 'transfer',
      documents: record.length,
      package: stored.sha256,
    });
    return 'done' as const;
  });
  if (outcome !== 'done') {
    for (const sha256 of await unreferenced(ctx.db, [stored.sha256])) await ctx.files.remove(sha256);
    if (outcome === 'held') throw underHold();
  }
}
