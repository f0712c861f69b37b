/**
 * Dashboards benchmark (issue 30): the archive clerk's, a manager's and the organisation's dashboards on the
 * correspondence benchmark's mail (bench/correspondence: 1,000,000 documents over five years, with their
 * distributions, tasks and circuits), measured through the real server on PostgreSQL: p50/p95 of the
 * server's time per dashboard and viewer (Fastify's reply.elapsedTime), beside the raw SQL (the statements
 * the server issued for one request, replayed on one connection) and each statement's EXPLAIN ANALYZE time,
 * so the slowest figure of a dashboard is named. Viewers: the administrator (everything), the main archive
 * office's clerk (80% of the mail, clearance "confidential") and a department's manager.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55450/postgres npx tsx bench/dashboards/run.ts
 *
 * The data is made by bench/correspondence (BENCH_GENERATE_ONLY) in its own database, `bench_dash_corr`
 * (BENCH_DB_NAME), dropped at the end unless BENCH_KEEP=1 (BENCH_REUSE=1 reuses a kept one). Knobs:
 * BENCH_DOCUMENTS (1000000), BENCH_RUNS (30 requests per case).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PAGES } from '../../src-shared/pages';
import { percentile, signInDemo, startMeasuredServer } from '../harness';
import { captureStatements, explain, replay, startCapture, stopCapture } from '../sql-capture';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const DB_NAME = process.env.BENCH_DB_NAME ?? 'bench_dash_corr';
const PASSWORD = 'bench-password-1';
const round = (v: number) => Math.round(v * 100) / 100;

async function main() {
  const base = process.env.BENCH_DATABASE_URL ?? process.env.SIJILL_TEST_DATABASE_URL;
  if (!base) {
    console.error('Set BENCH_DATABASE_URL (a PostgreSQL server where a database may be created).');
    process.exit(2);
  }
  if (!DB_NAME.startsWith('bench_dash_')) throw new Error('BENCH_DB_NAME must start with bench_dash_');
  const url = new URL(base);
  url.pathname = `/${DB_NAME}`;
  const started = performance.now();
  const made = spawnSync('npx', ['tsx', 'bench/correspondence/run.ts'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      BENCH_DATABASE_URL: base,
      BENCH_GENERATE_ONLY: '1',
      BENCH_DB_NAME: DB_NAME,
      BENCH_DOCUMENTS: String(DOCUMENTS),
    },
  });
  if (made.status !== 0) throw new Error(`bench/correspondence could not make the data (${made.status})`);
  const generationSeconds = round((performance.now() - started) / 1000);

  // The dashboards' pages for the benchmark's correspondence role (the clerks and managers).
  const setup = new pg.Client({ connectionString: url.toString() });
  await setup.connect();
  await setup.query(
    `insert into role_page_permissions (role_id, page_id, permissions)
     select r.id, p.id, '{view}' from roles r, pages p
     where r.name_en = 'Correspondence' and p.path = any($1)
     on conflict do nothing`,
    [[PAGES.archiveDashboard, PAGES.managerDashboard, PAGES.organisationDashboard]],
  );
  // The generator loads with triggers off: the dashboards' tallies and flags are computed once (a reused
  // database that has them keeps them: the triggers kept them since).
  const { rows: kept } = await setup.query<{ ready: boolean }>(
    `select exists (select 1 from dashboard_tallies) and exists (select 1 from task_tallies) as ready`,
  );
  if (!(process.env.BENCH_REUSE === '1' && kept[0]!.ready)) {
    await setup.query('select dashboard_tallies_rebuild()');
    await setup.query('vacuum analyze documents, tasks, dashboard_tallies, task_tallies');
  }
  const counts = (
    await setup.query<Record<string, string>>(
      `select (select count(*) from documents) as documents, (select count(*) from distributions) as distributions,
         (select count(*) from tasks) as tasks, (select count(*) from approval_members) as circuit_rows`,
    )
  ).rows[0]!;
  await setup.end();

  captureStatements();
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-dash-'));
  const results: Record<string, unknown>[] = [];
  try {
    const { server, timings, measuring } = await startMeasuredServer(url.toString(), dataDir);
    try {
      const viewers = { admin: 'bench-admin', clerk: 'bench-clerk', manager: 'bench-manager' };
      const get = async (token: string, path: string) => {
        const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return (await res.json()) as { data: { figures: { key: string; value: number }[] } };
      };
      const cases: [string, keyof typeof viewers, string][] = [
        ['archive', 'clerk', '/dashboards/archive'],
        ['archive', 'admin', '/dashboards/archive'],
        ['manager', 'manager', '/dashboards/manager'],
        ['manager', 'admin', '/dashboards/manager'],
        ['organisation (12 months)', 'admin', '/dashboards/organisation'],
        ['organisation (12 months)', 'clerk', '/dashboards/organisation'],
        ['organisation (12 months)', 'manager', '/dashboards/organisation'],
      ];
      for (const [name, who, path] of cases) {
        // Signed in afresh for each case (skipping the administrator's offer of two-factor enrolment).
        const token = await signInDemo(server.url, viewers[who], PASSWORD);
        for (let i = 0; i < 3; i++) await get(token, path); // warm-up
        startCapture();
        const answer = await get(token, path);
        const statements = stopCapture().filter((s) => !/^\s*select .* from sessions\b/is.test(s.text));
        const label = `${name} as ${who}`;
        measuring(label);
        for (let i = 0; i < RUNS; i++) await get(token, path);
        measuring('');
        const times = [...timings.get(label)!].sort((a, b) => a - b);
        const raw = await replay(url.toString(), statements, RUNS);
        const perStatement = await explain(url.toString(), statements);
        results.push({
          dashboard: name,
          viewer: who,
          server_p50_ms: round(percentile(times, 50)),
          server_p95_ms: round(percentile(times, 95)),
          raw_sql_p50_ms: raw.p50,
          raw_sql_p95_ms: raw.p95,
          statements_ms: perStatement,
          figures: Object.fromEntries(answer.data.figures.map((f) => [f.key, f.value])),
        });
        process.stderr.write(`${JSON.stringify(results.at(-1))}\n`);
      }
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP !== '1') {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
      await admin.end();
    }
  }
  console.log(
    JSON.stringify({ documents: DOCUMENTS, counts, generationSeconds, runs: RUNS, results }, null, 2),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
