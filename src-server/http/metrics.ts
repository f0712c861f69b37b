/**
 * The server's Prometheus metrics (docs/operations.md lists them): requests by route pattern and status,
 * their latency, the database pool (PostgreSQL) and the admission gate (the embedded PGlite's queue), the
 * background jobs by kind and state and their failures, the admission gate's refusals; with the process's
 * own (Node's, the PDF checks', the OCR's: process-metrics.ts). Each app has a registry of its own (tests
 * build many apps in one process; prom-client's global registry is never used).
 *
 * Served on a port of its own (METRICS_PORT on METRICS_HOST, a plain HTTP server answering GET /metrics),
 * and/or on the main port at /metrics to a scraper sending `Authorization: Bearer <METRICS_TOKEN>`.
 * With neither set nothing is measured, and /metrics on the main port answers 404.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { App } from '../app-type';
import type { ServerConfig } from '../config';
import type { Database } from '../db/open';
import { rowsOf } from '../db/rows';
import type { JobQueue } from '../jobs/queue';
import { processRegistry } from '../process-metrics';
import { bearerToken } from './access';
import type { AdmissionGate } from './admission';
import { HttpProblem } from './problem';

/** What the metrics read from the app. */
export interface MetricsSources {
  database: Database;
  jobs: JobQueue;
  /** The admission gate, when it is on (http/admission.ts). */
  admission: AdmissionGate | null;
}

/** The label of a request no route took (a 404, a malformed URL): never its path. */
const UNMATCHED = '(unmatched)';

/** Latency buckets, in seconds: from a millisecond to half a minute. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** How long the job count may take on a scrape before it is left out of that scrape. */
const JOB_COUNT_TIMEOUT_MS = 2000;

/** The pool of node-postgres under drizzle (`$client`), as far as its counts go. */
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

function poolOf(database: Database): PoolCounts | null {
  const client = (database.db as unknown as { $client?: Partial<PoolCounts> }).$client;
  return client &&
    typeof client.totalCount === 'number' &&
    typeof client.idleCount === 'number' &&
    typeof client.waitingCount === 'number'
    ? (client as PoolCounts)
    : null;
}

/** SHA-256 of a token: compared in constant time whatever the lengths. */
const digest = (text: string) => createHash('sha256').update(text).digest();

const servers = new WeakMap<object, Server>();

/** Where the app's metrics port listens (once the app is ready), or null when it has none. */
export function metricsAddress(app: App): { host: string; port: number } | null {
  const address = servers.get(app)?.address() as AddressInfo | null | undefined;
  return address ? { host: address.address, port: address.port } : null;
}

/** Makes the app's registry and the hooks that fill it; serves it as the configuration says. */
export function installMetrics(app: App, config: ServerConfig, sources: MetricsSources): void {
  if (!config.METRICS_TOKEN && config.METRICS_PORT === undefined) return;
  const registry = new Registry();

  const requests = new Counter({
    name: 'sijill_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'sijill_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (`/correspondence/documents/:id`), never the URL: no ids in labels.
    const route = request.is404 ? UNMATCHED : (request.routeOptions.url ?? UNMATCHED);
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const gate = sources.admission;
  new Counter({
    name: 'sijill_admission_rejected_total',
    help: 'Requests the admission gate answered 503: its queue was full, or their wait ran out.',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      const refused = gate?.refused ?? { full: 0, timeout: 0 };
      this.reset();
      this.inc({ reason: 'full' }, refused.full);
      this.inc({ reason: 'timeout' }, refused.timeout);
    },
  });
  new Gauge({
    name: 'sijill_admission_requests',
    help: 'Requests inside the admission gate: working, or waiting for a place (0 when the gate is off).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const load = gate?.load ?? { active: 0, waiting: 0 };
      this.set({ state: 'active' }, load.active);
      this.set({ state: 'waiting' }, load.waiting);
    },
  });

  const pool = poolOf(sources.database);
  if (pool) {
    new Gauge({
      name: 'sijill_db_pool_connections',
      help: 'Connections of the PostgreSQL pool: all of them, and the idle ones.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'sijill_db_pool_waiting',
      help: 'Queries waiting for a connection of the PostgreSQL pool.',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  const db = sources.database.db;
  new Gauge({
    name: 'sijill_jobs',
    help: 'Background jobs by kind and state (queued, running, dead; done ones are history, not counted).',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      let timer: NodeJS.Timeout | undefined;
      try {
        const rows = await Promise.race([
          rowsOf<{ kind: string; state: string; n: number }>(
            db,
            sql`select kind, state, count(*)::int as n from background_jobs
                 where state in ('queued', 'running', 'dead') group by kind, state`,
          ),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), JOB_COUNT_TIMEOUT_MS);
          }),
        ]);
        for (const row of rows) this.set({ kind: row.kind, state: row.state }, row.n);
      } catch (error) {
        // The database away: the scrape goes on without the counts (GET /ready says why).
        app.log.warn({ err: error }, 'metrics: counting the background jobs failed');
      } finally {
        clearTimeout(timer);
      }
    },
  });
  const runs = new Counter({
    name: 'sijill_job_runs_total',
    help: 'Runs of background jobs this process ended, by kind and outcome (done; retry and dead: failures).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  const stopObserving = sources.jobs.observe((kind, outcome) => runs.inc({ kind, outcome }));
  app.addHook('onClose', async () => stopObserving());

  /** The app's metrics and the process's, in Prometheus' text format. */
  const scrape = () => Registry.merge([processRegistry(), registry]).metrics();
  processRegistry(); // Node's own metrics from now on, not from the first scrape

  if (config.METRICS_TOKEN) {
    const expected = digest(config.METRICS_TOKEN);
    app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      // Public to the access check (it knows sessions, not this token): the token is checked here.
      const token = bearerToken(request);
      if (!token || !timingSafeEqual(digest(token), expected)) throw new HttpProblem('unauthorized');
      return reply.type(registry.contentType).send(await scrape());
    });
  }

  if (config.METRICS_PORT !== undefined) {
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
        return;
      }
      scrape().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics: scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('scrape failed\n');
        },
      );
    });
    servers.set(app, server);
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.METRICS_PORT, config.METRICS_HOST, () => {
          server.off('error', reject);
          resolve();
        });
      });
      app.log.info({ address: server.address() }, 'metrics listening');
    });
    app.addHook('onClose', async () => {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  }
}
