/**
 * Every module's background work, registered by the app on its root before the worker starts (app.ts):
 * a module's job handlers are not a side effect of registering its routes.
 */
import type { JobRegistration } from '../app-type';
import { closeOcr } from '../modules/search/extract';
import { enqueueMissingSearchWork, registerSearchJobs } from '../modules/search/jobs';
import { FINAL_EMAIL, sendQueuedEmail } from '../modules/final/email';
import { FINAL_MAKE, makeFinal } from '../modules/final/letters';
import { DEADLINES_SCAN, queueDeadlineScan, runDeadlineScan } from '../modules/notifications/deadlines';
import { DIGEST_JOB, queueDigest, runDigest } from '../modules/notifications/digest';
import { INTEGRITY_JOB, queueIntegrityCheck, runIntegrityJob } from '../modules/reads/integrity';
import { DISPOSITION_JOB, runDisposition } from '../modules/records/disposition-job';
import { EXPIRE_JOB, EXPORT_JOB, expireExport, runExport } from '../modules/reports/exports';
import { SWEEP_JOB, queueSweep, runSweepJob } from '../storage/sweep';

/**
 * Search: text extraction, OCR and indexing; the work left from before queued again at start (an
 * upgrade, a restore) by the process that runs the jobs, once the server is ready rather than before it
 * answers (at a million documents its scans take seconds, and a new lexicon queues a job for each); the
 * OCR child closed with the app, after that queueing has ended.
 */
const searchJobs: JobRegistration = (app, ctx) => {
  registerSearchJobs(ctx);
  let queueing: Promise<void> = Promise.resolve();
  if (ctx.config.JOBS_WORKER)
    app.addHook('onReady', async () => {
      queueing = enqueueMissingSearchWork(ctx).catch((error: unknown) =>
        app.log.warn({ err: error }, 'search: could not queue the work left from before'),
      );
    });
  app.addHook('onClose', async () => {
    await queueing;
    await closeOcr();
  });
};

/**
 * The final PDFs of approved letters (stamped and signed): a few seconds each, one at a time. Their
 * e-mails: one SMTP conversation each (its own 20 s limits on every wait), two at a time.
 */
const finalJobs: JobRegistration = (_app, ctx) => {
  ctx.jobs.register(FINAL_MAKE, (job) => makeFinal(ctx, job), { concurrency: 1, timeoutMs: 5 * 60_000 });
  ctx.jobs.register(FINAL_EMAIL, (job) => sendQueuedEmail(ctx, job), {
    concurrency: 2,
    timeoutMs: 3 * 60_000,
  });
};

/**
 * Deadlines (issue 28): the reminder and escalation scan every ten minutes, the daily digests every hour.
 * Each run queues the next (one waiting at a time, whatever the number of servers); the process that runs
 * the jobs queues the first at start.
 */
const notificationJobs: JobRegistration = (app, ctx) => {
  ctx.jobs.register(DEADLINES_SCAN, (job) => runDeadlineScan(ctx, job), {
    concurrency: 1,
    timeoutMs: 5 * 60_000,
  });
  ctx.jobs.register(DIGEST_JOB, (job) => runDigest(ctx, job), { concurrency: 1, timeoutMs: 30 * 60_000 });
  if (ctx.config.JOBS_WORKER)
    app.addHook('onReady', async () => {
      try {
        await queueDeadlineScan(ctx);
        await queueDigest(ctx);
      } catch (error) {
        app.log.warn({ err: error }, 'deadlines: could not queue the first scan');
      }
    });
};

/**
 * The stored files' integrity (issue 31): a pass over every stored file in batches, every
 * INTEGRITY_CHECK_INTERVAL_HOURS; the process that runs the jobs queues the first pass at start (kept when
 * one is waiting already: a pass under way resumes from its payload).
 */
const integrityJobs: JobRegistration = (app, ctx) => {
  ctx.jobs.register(INTEGRITY_JOB, (job) => runIntegrityJob(ctx, job), {
    concurrency: 1,
    timeoutMs: 30 * 60_000,
  });
  if (ctx.config.JOBS_WORKER)
    app.addHook('onReady', async () => {
      await queueIntegrityCheck(ctx).catch((error: unknown) =>
        app.log.warn({ err: error }, 'integrity: could not queue the first pass'),
      );
    });
};

/**
 * The sweep of stored bytes no row names (a writer killed between storing them and writing its row): a
 * pass over the store in runs of SWEEP_RUN_FILES, daily; the process that runs the jobs queues the first
 * pass at start (kept when one is waiting already).
 */
const sweepJobs: JobRegistration = (app, ctx) => {
  ctx.jobs.register(SWEEP_JOB, (job) => runSweepJob(ctx, job), { concurrency: 1, timeoutMs: 30 * 60_000 });
  if (ctx.config.JOBS_WORKER)
    app.addHook('onReady', async () => {
      await queueSweep(ctx).catch((error: unknown) =>
        app.log.warn({ err: error }, 'sweep: could not queue the first pass'),
      );
    });
};

/**
 * Report exports (issue 30): a workbook or a PDF per request, two at a time (a year's report of 100,000
 * rows takes seconds); each file's removal a day later.
 */
const reportJobs: JobRegistration = (_app, ctx) => {
  ctx.jobs.register(EXPORT_JOB, (job) => runExport(ctx, job), { concurrency: 2, timeoutMs: 15 * 60_000 });
  ctx.jobs.register(EXPIRE_JOB, (job) => expireExport(ctx, job), { concurrency: 1, timeoutMs: 60_000 });
};

/**
 * Records management (issue 31): a disposition carried out — a destruction's documents, certificate and
 * stored files, or a transfer's package — one at a time (a file of 10,000 documents takes a minute or more).
 */
const recordsJobs: JobRegistration = (_app, ctx) => {
  ctx.jobs.register(DISPOSITION_JOB, (job) => runDisposition(ctx, job), {
    concurrency: 1,
    timeoutMs: 60 * 60_000,
  });
};

export const JOB_REGISTRATIONS: readonly JobRegistration[] = [
  searchJobs,
  finalJobs,
  notificationJobs,
  integrityJobs,
  sweepJobs,
  reportJobs,
  recordsJobs,
];
