/**
 * Sign-in and session benchmark (issue 3): starts the server on PGlite (temp folder) and, when
 * BENCH_DATABASE_URL is set, on PostgreSQL (a fresh database, dropped afterwards), then runs autocannon
 * at 10 and 100 connections against POST /auth/login, GET /auth/profile, GET /auth/user-pages-tree and
 * GET /health (the baseline). Prints JSON: p50/p99 latency (ms) and requests per second.
 *
 *   npx tsx bench/auth/run.ts                      # PGlite only
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/auth/run.ts
 *   BENCH_SECONDS=5 (default) per run
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { startServer } from '../../src-server/server';
import { createPasswordHasher } from '../../src-server/security/passwords';
import { insertUser, systemRoleId } from '../../src-server/modules/auth/queries';
import { autocannon, benchConfig } from '../harness';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PASSWORD = 'bench-password-1';

interface Result {
  backend: string;
  route: string;
  connections: number;
  p50: number;
  p99: number;
  reqPerSec: number;
  non2xx: number;
}

/**
 * One autocannon run in its own process: sharing the server's event loop would measure the load
 * generator as much as the server.
 */
async function run(
  url: string,
  opts: { method: 'GET' | 'POST'; path: string; token?: string; body?: string; connections: number },
) {
  const r = await autocannon(url + opts.path, { ...opts, seconds: SECONDS });
  return { p50: r.latency.p50, p99: r.latency.p99, reqPerSec: r.reqPerSec, non2xx: r.non2xx };
}

async function benchBackend(backend: 'pglite' | 'postgres', databaseUrl?: string): Promise<Result[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-'));
  const config = benchConfig(dataDir, databaseUrl, {
    LOGIN_MAX_FAILURES_ACCOUNT: '1000',
    LOGIN_MAX_FAILURES_IP: '100000',
  });
  const server = await startServer(config);
  const results: Result[] = [];
  try {
    const db = server.database.db;
    const hasher = createPasswordHasher({
      memoryKib: config.ARGON2_MEMORY_KIB,
      timeCost: config.ARGON2_TIME_COST,
    });
    const id = await insertUser(db, {
      username: 'bench',
      email: 'bench@example.com',
      passwordHash: await hasher.hash(PASSWORD),
      nameAr: 'قياس',
      nameEn: 'Bench',
      roleId: await systemRoleId(db),
      locale: 'ar',
      active: true,
    });
    await db.execute(sql`update users set two_factor_skipped_at = now() where id = ${id}`);
    const login = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'bench', password: PASSWORD }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const scenarios = [
      { route: 'GET /health', method: 'GET' as const, path: '/health' },
      { route: 'GET /auth/profile', method: 'GET' as const, path: '/auth/profile', token },
      { route: 'GET /auth/user-pages-tree', method: 'GET' as const, path: '/auth/user-pages-tree', token },
      {
        route: 'POST /auth/login',
        method: 'POST' as const,
        path: '/auth/login',
        body: JSON.stringify({ login: 'bench', password: PASSWORD }),
      },
    ];
    // Warm-up.
    await run(server.url, { ...scenarios[2]!, connections: 10 });
    for (const s of scenarios) {
      for (const connections of [10, 100]) {
        const r = await run(server.url, { ...s, connections });
        results.push({ backend, route: s.route, connections, ...r });
        process.stderr.write(
          `${backend} ${s.route} c=${connections}: p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.reqPerSec} req/s\n`,
        );
      }
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

async function main() {
  const results: Result[] = await benchBackend('pglite');
  const base = process.env.BENCH_DATABASE_URL;
  if (base) {
    const name = `sijill_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    try {
      results.push(...(await benchBackend('postgres', url.toString())));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
  const verdict = (backend: string) => {
    const at100 = (route: string) =>
      results.find((r) => r.backend === backend && r.route === route && r.connections === 100);
    const health = at100('GET /health');
    if (!health) return undefined;
    return Object.fromEntries(
      ['GET /auth/profile', 'GET /auth/user-pages-tree'].map((route) => {
        const r = at100(route)!;
        return [
          route,
          {
            p50VsHealth: Number((r.p50 / Math.max(health.p50, 0.001)).toFixed(2)),
            p99: r.p99,
            withinTarget: r.p50 <= 1.5 * health.p50 && r.p99 < 10,
          },
        ];
      }),
    );
  };
  console.log(
    JSON.stringify(
      { seconds: SECONDS, results, targets: { pglite: verdict('pglite'), postgres: verdict('postgres') } },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
