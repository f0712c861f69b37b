/**
 * The server under a realistic load on PostgreSQL: the demo organisation plus BENCH_DOCUMENTS (default
 * 2,000) registered letters, then 100 connections for BENCH_SECONDS (default 60) of a mix — the clerk's
 * incoming box, a document's detail, the page tree, a draft created, a letter registered — the same mix at
 * 10 connections, and /health at 100 as the floor. Prints JSON: throughput, p50/p99 per kind (Fastify's
 * own time), errors (target 0: anything but 2xx, and socket errors or timeouts), the server's RSS before
 * and after. The load generator runs in its own process (bench/load/client.mjs).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/load/run.ts
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { JobQueue } from '../../src-server/jobs/queue';
import { systemClock } from '../../src-server/clock';
import { createPasswordHasher } from '../../src-server/security/passwords';
import { createLocalFileStore } from '../../src-server/storage/files';
import { seedDemo } from '../../src-server/modules/demo/seed';
import { startServer } from '../../src-server/server';
import { benchConfig, percentile, signInDemo } from '../harness';

const BASE = process.env.BENCH_DATABASE_URL;
if (!BASE) {
  console.log(
    JSON.stringify({ benchmark: 'load', skipped: 'set BENCH_DATABASE_URL to a PostgreSQL server' }),
  );
  process.exit(0);
}
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 2000);
const PASSWORD = 'Bench#2026';
const MIX = ['box', 'detail', 'tree', 'box', 'detail', 'draft', 'detail', 'register'];

const name = `sijill_bench_load_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: BASE });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(BASE);
url.pathname = `/${name}`;
const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-load-'));

/** Which kind of the mix a request is, by method and route. */
function kindOf(method: string, route: string, body: string | undefined): string | null {
  if (route === '/correspondence/boxes/incoming') return 'box';
  if (route === '/correspondence/documents/:id' && method === 'GET') return 'detail';
  if (route === '/auth/user-pages-tree') return 'tree';
  if (route === '/correspondence/documents' && method === 'POST')
    return body?.includes('"register":true') ? 'register' : 'draft';
  if (route === '/health') return 'health';
  return null;
}

async function generate(plan: Record<string, unknown>) {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'client.mjs'), JSON.stringify(plan)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  if (code !== 0) throw new Error(`load generator exited with ${code}`);
  return JSON.parse(out) as {
    reqPerSec: number;
    total: number;
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
}

try {
  const byKind = new Map<string, number[]>();
  const statuses = new Map<string, number>();
  let recording = false;
  const server = await startServer(benchConfig(dataDir, url.toString()), {
    configureApp: (app) =>
      app.addHook('onResponse', async (request, reply) => {
        if (!recording) return;
        const raw = request.method === 'POST' ? JSON.stringify(request.body ?? {}) : undefined;
        const kind = kindOf(request.method, request.routeOptions.url ?? '', raw);
        if (!kind) return;
        (byKind.get(kind) ?? byKind.set(kind, []).get(kind)!).push(reply.elapsedTime);
        if (reply.statusCode >= 300) {
          const key = `${kind} ${reply.statusCode}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
      }),
  });
  try {
    const config = benchConfig(dataDir, url.toString());
    await seedDemo(
      {
        db: server.database.db,
        config,
        passwords: createPasswordHasher({
          memoryKib: config.ARGON2_MEMORY_KIB,
          timeCost: config.ARGON2_TIME_COST,
        }),
        files: createLocalFileStore(join(dataDir, 'files')),
        jobs: new JobQueue(server.database.db),
        clock: systemClock,
        listen: server.database.listen,
      },
      PASSWORD,
    );
    const token = await signInDemo(server.url, 'clerk', PASSWORD);
    // A letter like the demo's registered ones, for drafts and registrations.
    const res = (await server.database.db.execute(sql`
      select codification_id, security_level_id, priority_id, medium_id, sender_department_id, recipient_department_id
      from documents where direction = 'in' and doc_number is not null order by id limit 1`)) as unknown as {
      rows: Record<string, number>[];
    };
    const d = res.rows[0]!;
    const letter = {
      direction: 'in',
      subject: 'طلب اعتماد الميزانية التشغيلية للربع القادم',
      senderDepartmentId: Number(d.sender_department_id),
      recipientDepartmentId: Number(d.recipient_department_id),
      documentDate: '2026-11-01',
      codificationId: Number(d.codification_id),
      securityLevelId: Number(d.security_level_id),
      priorityId: Number(d.priority_id),
      mediumId: Number(d.medium_id),
    };
    for (let i = 0; i < DOCUMENTS; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, DOCUMENTS - i) }, (_, j) =>
          fetch(`${server.url}/correspondence/documents`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ ...letter, subject: `${letter.subject} ${i + j}`, register: true }),
          }).then((r) => r.arrayBuffer()),
        ),
      );
    }
    const ids = (
      (await server.database.db.execute(
        sql`select id from documents order by id desc limit 500`,
      )) as unknown as { rows: { id: number }[] }
    ).rows.map((r) => Number(r.id));

    const results = [];
    for (const [label, connections, mix] of [
      ['mix at 100 connections', 100, MIX],
      ['mix at 10 connections', 10, MIX],
      ['/health at 100 connections (floor)', 100, ['health']],
    ] as const) {
      byKind.clear();
      statuses.clear();
      const rssBefore = process.memoryUsage().rss;
      recording = true;
      const client = await generate({
        url: server.url,
        token,
        connections,
        seconds: SECONDS,
        mix,
        documentIds: ids,
        letter,
      });
      recording = false;
      const kinds = Object.fromEntries(
        [...byKind].map(([k, t]) => {
          t.sort((a, b) => a - b);
          return [
            k,
            {
              count: t.length,
              p50: Math.round(percentile(t, 50) * 10) / 10,
              p99: Math.round(percentile(t, 99) * 10) / 10,
            },
          ];
        }),
      );
      results.push({
        label,
        seconds: SECONDS,
        reqPerSec: client.reqPerSec,
        requests: client.total,
        clientMs: { p50: client.latency.p50, p99: client.latency.p99 },
        serverMsByKind: kinds,
        errors: client.non2xx + client.errors + client.timeouts,
        errorsByKind: Object.fromEntries(statuses),
        serverRssMB: {
          before: Math.round(rssBefore / 1e6),
          after: Math.round(process.memoryUsage().rss / 1e6),
        },
      });
    }
    console.log(
      JSON.stringify({ benchmark: 'load', database: 'PostgreSQL', documents: DOCUMENTS, results }, null, 2),
    );
  } finally {
    await server.close();
  }
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}
