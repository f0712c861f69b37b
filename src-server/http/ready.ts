/**
 * GET /ready: whether this server can serve now, for the proxy in front of it (nginx, a load balancer, an
 * orchestrator's readiness probe). Its database answers `select 1` and its file store takes a file (the
 * local folder is writable; the S3 bucket answers), each within READY_TIMEOUT_MS: 200, else 503, with
 * what failed. GET /health (app.ts) stays the liveness answer: the process runs, nothing asked of the
 * database. Both are public, held by no admission gate and counted as no activity (http/admission.ts,
 * http/activity.ts).
 */
import { sql } from 'drizzle-orm';
import type { App } from '../app-type';
import type { Db } from '../db/open';
import type { FileStore } from '../storage/files';
import { envelopeOf, readinessSchema, type Readiness } from '../../src-shared/api/envelope';

/** How long each check may take before it counts as failed. */
export const READY_TIMEOUT_MS = 2000;

/** Resolves true when `work` succeeds within READY_TIMEOUT_MS, false when it fails or takes longer. */
async function within(work: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      work().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Registers GET /ready over the app's database and file store. */
export function installReadiness(app: App, sources: { db: Db; files: FileStore }): void {
  app.get(
    '/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers and the file store takes a file',
        response: { 200: envelopeOf(readinessSchema), 503: envelopeOf(readinessSchema) },
      },
    },
    async (request, reply) => {
      const [database, files] = await Promise.all([
        within(() => sources.db.execute(sql`select 1`)),
        within(() => sources.files.probe()),
      ]);
      const data: Readiness = {
        status: database && files ? 'ready' : 'unavailable',
        database: database ? 'ok' : 'failed',
        files: files ? 'ok' : 'failed',
      };
      if (data.status !== 'ready') request.log.warn({ readiness: data }, 'not ready');
      return reply.status(data.status === 'ready' ? 200 : 503).send({ data });
    },
  );
}
