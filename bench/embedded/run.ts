/**
 * The embedded database under a crowd: the demo data on PGlite (the desktop's default), 100 concurrent
 * readers of the clerk's incoming box for BENCH_SECONDS (default 20), with the admission gate as shipped
 * (4 at work, 64 waiting, 3 s at most) and, beside it, without the gate (what the desk did before).
 * Prints JSON: throughput, client p50/p99, server-side p99 and maximum (the wait included), how many were
 * answered 503 (with Retry-After) and how many waited more than 10 s (target 0), other errors (target 0).
 * Then the desk during a burst of scans, PGlite in the server's thread and in its worker (burst.ts).
 *
 *   npx tsx bench/embedded/run.ts            (BENCH_EMBEDDED=crowd or =burst: only that part)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../src-server/server';
import { openDatabase } from '../../src-server/db/open';
import { JobQueue } from '../../src-server/jobs/queue';
import { systemClock } from '../../src-server/clock';
import { createPasswordHasher } from '../../src-server/security/passwords';
import { createLocalFileStore } from '../../src-server/storage/files';
import { seedDemo } from '../../src-server/modules/demo/seed';
import { autocannon, benchConfig, percentile, signInDemo } from '../harness';
import { runBurst } from './burst';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = 100;
const PASSWORD = 'Bench#2026';

async function seed(dataDir: string): Promise<void> {
  const config = benchConfig(dataDir);
  const database = await openDatabase(config);
  try {
    await seedDemo(
      {
        db: database.db,
        config,
        passwords: createPasswordHasher({
          memoryKib: config.ARGON2_MEMORY_KIB,
          timeCost: config.ARGON2_TIME_COST,
        }),
        files: createLocalFileStore(join(dataDir, 'files')),
        jobs: new JobQueue(database.db),
        clock: systemClock,
        listen: database.listen,
      },
      PASSWORD,
    );
  } finally {
    await database.close();
  }
}

async function run(dataDir: string, label: string, extra: Record<string, string>) {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const server = await startServer(benchConfig(dataDir, undefined, extra), {
    configureApp: (app) =>
      app.addHook('onResponse', async (request, reply) => {
        if (!request.url.startsWith('/correspondence/boxes/')) return;
        times.push(reply.elapsedTime);
        statuses.set(reply.statusCode, (statuses.get(reply.statusCode) ?? 0) + 1);
      }),
  });
  try {
    const token = await signInDemo(server.url, 'clerk', PASSWORD);
    const rssBefore = process.memoryUsage().rss;
    const client = await autocannon(`${server.url}/correspondence/boxes/incoming?page=1&pageSize=20`, {
      token,
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    times.sort((a, b) => a - b);
    const count = (pred: (s: number) => boolean) =>
      [...statuses].filter(([s]) => pred(s)).reduce((n, [, c]) => n + c, 0);
    return {
      label,
      connections: CONNECTIONS,
      seconds: SECONDS,
      requests: times.length,
      reqPerSec: client.reqPerSec,
      clientMs: { p50: client.latency.p50, p99: client.latency.p99, max: client.latency.max },
      serverMs: {
        p50: Math.round(percentile(times, 50)),
        p99: Math.round(percentile(times, 99)),
        max: Math.round(times.at(-1) ?? 0),
      },
      ok200: count((s) => s === 200),
      busy503: count((s) => s === 503),
      otherErrors: count((s) => s !== 200 && s !== 503),
      over10s: times.filter((t) => t > 10_000).length,
      rssMB: { before: Math.round(rssBefore / 1e6), after: Math.round(process.memoryUsage().rss / 1e6) },
    };
  } finally {
    await server.close();
  }
}

const PART = process.env.BENCH_EMBEDDED ?? 'both';
if (PART !== 'burst') {
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-embedded-'));
  try {
    await seed(dataDir);
    const gated = await run(dataDir, 'PGlite, admission gate as shipped (4 working, 64 waiting, 3 s)', {});
    const ungated = await run(dataDir, 'PGlite, no admission gate (DB_CONCURRENCY=0)', {
      DB_CONCURRENCY: '0',
    });
    console.log(JSON.stringify({ benchmark: 'embedded', results: [gated, ungated] }, null, 2));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (PART !== 'crowd') console.log(JSON.stringify(await runBurst(), null, 2));
process.exit(0);
