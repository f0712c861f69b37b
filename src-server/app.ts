/**
 * Builds the Fastify application: zod validation and serialisation, helmet, the OpenAPI document at
 * `/docs/json` (UI at `/docs`), the caller's locale, and one error handler that turns every failure into
 * localised problem details; each request's id (http/request-id.ts), the metrics (http/metrics.ts) and GET
 * /health and /ready for the desktop and the proxy (http/ready.ts). Feature modules are plugins under their URL prefix (MODULES); their
 * background work is registered from jobs/registrations.ts.
 */
import Fastify, { type FastifySchema } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { pickLocale } from '../src-shared/locale';
import { healthSchema, envelopeOf } from '../src-shared/api/envelope';
import { systemClock, type Clock } from './clock';
import type { ServerConfig } from './config';
import type { App, AppModule } from './app-type';
import type { ServerContext } from './context';
import type { Database } from './db/open';
import { ClientGone } from './http/client-gone';
import { installAccessControl } from './http/access';
import { JobQueue, type WorkerLiveness } from './jobs/queue';
import { installTextGuard } from './http/text-guard';
import { installBoundedJsonParser } from './http/json-depth';
import { installDiskGuard, multipartDocBody } from './http/upload';
import { installAdmission } from './http/admission';
import { installRequestActivity } from './http/activity';
import { installRequestId, requestIdOf } from './http/request-id';
import { installMetrics } from './http/metrics';
import { installReadiness } from './http/ready';
import { sqlState } from './db/errors';
import { createPasswordHasher, type PasswordHasher } from './security/passwords';
import { authenticator } from './modules/auth/service';
import { authModule } from './modules/auth/routes';
import { adminModule } from './modules/admin/routes';
import { HttpProblem, fieldsOf, renderProblem } from './http/problem';
import { problemOfDbError } from './http/db-problems';
import type { FileStore } from './storage/files';
import { createFileStore } from './storage/index';
import { formatMaxSize } from './storage/validate';
import { defaultPdfCheckWorkers, warmPdfCheckWorkers } from './storage/pdf-check-pool';
import { defaultPdfMakeWorkers, sizePdfMakeWorkers } from './pdf-making/pdf-make-pool';
import { directoryModule } from './modules/directory/routes';
import { settingsModule } from './modules/settings/routes';
import { correspondenceModule } from './modules/correspondence/routes';
import { searchModule } from './modules/search/routes';
import { finalModule, verifyModule } from './modules/final/routes';
import { notificationsModule } from './modules/notifications/routes';
import { deadlinesModule } from './modules/deadlines/routes';
import { delegationModule } from './modules/delegation/routes';
import { recordsModule } from './modules/records/routes';
import { readsModule } from './modules/reads/routes';
import { backupsModule } from './modules/backups/routes';
import { reportsModule } from './modules/reports/routes';
import { dashboardsModule } from './modules/dashboards/routes';
import { JOB_REGISTRATIONS } from './jobs/registrations';
import { VERSION } from './version';

export type { App, AppModule } from './app-type';

/** The feature modules, each a plugin under its URL prefix, registered in this order after the plumbing. */
const MODULES: readonly AppModule[] = [
  authModule,
  adminModule,
  directoryModule,
  settingsModule,
  correspondenceModule,
  searchModule,
  finalModule,
  verifyModule,
  notificationsModule,
  deadlinesModule,
  delegationModule,
  recordsModule,
  readsModule,
  backupsModule,
  reportsModule,
  dashboardsModule,
];

/** SQLSTATE class 22 (data exception) and 54000 (program limit, e.g. a too long index row): bad values. */
function isDataError(error: unknown): boolean {
  const state = sqlState(error);
  return !!state && (state.startsWith('22') || state === '54000');
}

/** Errors of the multipart parser (busboy) on a malformed body: no boundary, truncated, wrong boundary. */
function isMultipartError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('FST_') && /MULTIPART|INVALID_MULTIPART/.test(code))
    return true;
  return /^(Multipart: Boundary not found|Unexpected end of (form|multipart)|Malformed part header|Unexpected end of file)/i.test(
    error.message,
  );
}

/** How the job workers of a database are known alive (jobs/queue.ts): PGlite has one process. */
export function jobLiveness(database: Database): WorkerLiveness | undefined {
  if (database.kind === 'pglite') return 'sole';
  return database.holdLock ? { holdLock: (name) => database.holdLock!(name) } : undefined;
}

export interface BuildAppOptions {
  config: ServerConfig;
  /** The opened (and migrated) database; the caller owns it and closes it. */
  database: Database;
  /** Overrides the argon2id hasher built from the configuration (tests may share one). */
  passwords?: PasswordHasher;
  /** Overrides the file store (default: the one FILE_STORE names, storage/index.ts). */
  files?: FileStore;
  /**
   * Overrides the background job queue (tests poll faster). Either way the app starts it when ready
   * (unless JOBS_WORKER=0) and stops it when it closes.
   */
  jobs?: JobQueue;
  /** Overrides the system clock for deadlines, reminders and digests (tests move it). */
  clock?: Clock;
  /** More feature modules, registered after the app's own (MODULES). */
  modules?: AppModule[];
  logger?: boolean;
}

/**
 * Builds the app over an opened database: plumbing, access control on every route, the core modules
 * (auth, administration) and then `modules`. Does not listen; `app.inject` works on it directly.
 */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config } = options;
  const app = Fastify({
    // JSON lines (pino), each line of a request with its id (http/request-id.ts): docs/operations.md.
    logger: options.logger ? { level: config.LOG_LEVEL, redact: ['req.headers.authorization'] } : false,
    genReqId: requestIdOf,
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    // Behind a reverse proxy (TRUST_PROXY): request.ip is the address the proxy saw, read from its
    // X-Forwarded-For only when the connection comes from the proxy itself (docs/several-servers.md).
    trustProxy: config.TRUST_PROXY?.length ? config.TRUST_PROXY : false,
    // What the router refuses before any route runs (a path segment longer than any id or token, a
    // malformed URL) is answered as every other refusal: localised problem details, never the path
    // echoed back. A segment too long names nothing: 404.
    frameworkErrors: (error, request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const body = renderProblem(
        new HttpProblem(tooLong ? 'notFound' : 'badRequest'),
        pickLocale(request.headers['accept-language']),
      );
      // The reply of a request no route took: its type knows no statuses.
      const raw = reply as unknown as { code(n: number): { type(t: string): { send(b: unknown): void } } };
      raw.code(body.status).type('application/problem+json; charset=utf-8').send(body);
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;
  const ctx: ServerContext = {
    db: options.database.db,
    config,
    passwords:
      options.passwords ??
      createPasswordHasher({ memoryKib: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST }),
    files: options.files ?? (await createFileStore(config)),
    jobs:
      options.jobs ??
      new JobQueue(options.database.db, {
        log: app.log,
        keepDoneDays: config.JOBS_KEEP_DONE_DAYS,
        leaseMs: config.JOBS_LEASE_SECONDS * 1000,
        // A worker that died is known at once: on PGlite this process is the only one, on PostgreSQL
        // each worker holds a lock for as long as it lives (jobs/queue.ts, "workers that die").
        liveness: jobLiveness(options.database),
        // Background work yields while the server answers requests and its thread is loaded.
        yieldWhenBusy: { requestsActive: installRequestActivity(app) },
      }),
    clock: options.clock ?? systemClock,
    listen: (channel, onPayload, onResumed) => options.database.listen(channel, onPayload, onResumed),
  };
  // The worker starts once the app is ready, so every module has registered its job handlers by then
  // (never with JOBS_WORKER=0: that process only enqueues), and stops when the app closes — before the
  // caller closes the database. Enqueueing works either way.
  if (config.JOBS_WORKER) app.addHook('onReady', async () => ctx.jobs.start());
  app.addHook('onClose', async () => ctx.jobs.stop());

  // The request's id before anything can answer: every answer carries it, every log line and audit record.
  installRequestId(app);

  // The caller's language first: every later hook may answer a localised problem.
  app.decorateRequest('locale', 'ar');
  app.addHook('onRequest', async (request) => {
    request.locale = pickLocale(request.headers['accept-language']);
  });

  // Security headers before anything can refuse a request: a 401 or 403 from the access check, a 404 or
  // a 400 carry the same headers as a success.
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
      },
    },
  });

  // Bounded admission before anything touches the database (authentication already does).
  const admission = installAdmission(app, {
    concurrency:
      config.DB_CONCURRENCY >= 0 ? config.DB_CONCURRENCY : options.database.kind === 'pglite' ? 4 : 0,
    queue: config.DB_QUEUE_MAX,
    waitMs: config.DB_QUEUE_WAIT_MS,
  });

  // Before any route: records every route's access declaration and enforces it on each request.
  installAccessControl(app, authenticator(ctx));

  // No JSON body nested deeper than the server walks is parsed (400 instead), and no NUL or lone
  // surrogate reaches validation, a handler, the audit log or a query.
  installBoundedJsonParser(app);
  installTextGuard(app);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Not global: only the sign-in and two-factor routes opt in (config.rateLimit), see modules/auth/routes.ts.
  // Its counters are per process (a defence in depth); the lockouts that matter live in the database.
  await app.register(rateLimit, { global: false });

  // Uploads (employee photos and attachments, document attachments): one file per request, capped by
  // UPLOAD_MAX_BYTES; a larger file fails with 413 while streaming, before it is all read. The parser
  // lets a second file through so readSingleUpload (http/upload.ts) can refuse it by name.
  // The PDF checks' worker threads start now (they load pdf.js) rather than with the first upload.
  const embedded = options.database.kind === 'pglite';
  warmPdfCheckWorkers(config.PDF_CHECK_WORKERS || defaultPdfCheckWorkers(embedded));
  sizePdfMakeWorkers(config.PDF_MAKE_WORKERS || defaultPdfMakeWorkers(embedded));
  await app.register(multipart, {
    limits: { fileSize: config.UPLOAD_MAX_BYTES, files: 2, fields: 10, fieldSize: 64 * 1024, parts: 20 },
  });
  // No upload while the disk of the data or the files is nearly full (507, before a byte is read).
  installDiskGuard(app, {
    folders: [config.DATA_DIR, ctx.files.tempDir],
    minFreeMb: config.MIN_FREE_DISK_MB,
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Sijill API', version: VERSION, description: 'Correspondence and electronic archiving' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    // A multipart route's body is read from the stream, never validated whole: the document still shows
    // it (its parts, from the route's `multipart`), so readers of the document know what to send.
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const schema = input.schema as FastifySchema | undefined;
      if (!schema?.consumes?.includes('multipart/form-data')) return out;
      return { ...out, schema: { ...out.schema, body: multipartDocBody(schema.multipart) } };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.setErrorHandler((error, request, reply) => {
    // Its sender is gone (http/client-gone.ts): nobody reads this answer, and it is no failure of ours.
    if (error instanceof ClientGone) {
      request.log.info('the client went away before the answer');
      return reply.status(499).send();
    }
    let problem: HttpProblem;
    const dbProblem = problemOfDbError(error);
    if (error instanceof HttpProblem) {
      problem = error;
    } else if (dbProblem) {
      problem = dbProblem;
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      problem = new HttpProblem('badRequest', {
        fields: fieldsOf(error.validation, error.validationContext),
      });
    } else if (isDataError(error)) {
      // Defence in depth: a value the schemas let through but the database cannot take (out of range,
      // malformed, untranslatable) is the caller's bad input, not a server failure. Logged so the gap in
      // the schema gets closed.
      request.log.warn({ err: error, sqlState: sqlState(error) }, 'database refused a value');
      problem = new HttpProblem('badRequest');
    } else if (isMultipartError(error)) {
      problem = new HttpProblem('badRequest', { fields: { file: [{ key: 'validation.invalid' }] } });
    } else if (
      typeof error === 'object' &&
      error !== null &&
      'statusCode' in error &&
      typeof error.statusCode === 'number'
    ) {
      const status = error.statusCode;
      problem = new HttpProblem(
        status === 413
          ? 'payloadTooLarge'
          : status === 415
            ? 'unsupportedMediaType'
            : status === 429
              ? 'tooManyRequests'
              : status === 404
                ? 'notFound'
                : status >= 400 && status < 500
                  ? 'badRequest'
                  : 'internal',
        status === 413 ? { params: { maxSize: formatMaxSize(config.UPLOAD_MAX_BYTES) } } : {},
      );
      if (status >= 500) request.log.error({ err: error }, 'request failed');
    } else {
      request.log.error({ err: error }, 'request failed');
      problem = new HttpProblem('internal');
    }
    const body = renderProblem(problem, request.locale);
    return reply.status(body.status).type('application/problem+json; charset=utf-8').send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const body = renderProblem(new HttpProblem('notFound'), request.locale);
    return reply.status(404).type('application/problem+json; charset=utf-8').send(body);
  });

  // Prometheus metrics (when METRICS_PORT or METRICS_TOKEN is set) and the proxy's readiness probe: after
  // the error handler (a route keeps the one set when it was added), before the modules (whose requests
  // the metrics' hook counts).
  installMetrics(app, config, { database: options.database, jobs: ctx.jobs, admission });
  installReadiness(app, { db: ctx.db, files: ctx.files });

  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Liveness and version',
        response: { 200: envelopeOf(healthSchema) },
      },
    },
    async () => ({
      data: { status: 'ok' as const, version: VERSION, uploadMaxBytes: config.UPLOAD_MAX_BYTES },
    }),
  );

  for (const module of [...MODULES, ...(options.modules ?? [])]) {
    await app.register(async (scope) => module.routes(scope as App, ctx), { prefix: module.prefix });
  }
  // Background work after the modules, on the root: its hooks run after the worker's own (started
  // first, stopped first).
  for (const register of JOB_REGISTRATIONS) register(app, ctx);
  return app;
}
