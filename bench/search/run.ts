/**
 * Search benchmark (issue 15): 1,000,000 documents on PostgreSQL — the correspondence benchmark's mail
 * (bench/correspondence/run.ts makes it in the database `sijill_bench_search`, or keeps it) with a scanned
 * attachment each, one page of generated Arabic and English text per attachment and every document in the
 * search index (bench/search/data.ts) — then GET /search measured through the real server:
 *
 * - a one-word Arabic query typed as people type (no hamza, ه for ة), a three-word Arabic query, the
 *   same with a word no document has (searched again without it), a person's name (two rare words), an
 *   English word, and a number lookup (a registration number);
 * - without words, the filters alone (the list behind a dashboard's figure): incoming, incoming of the
 *   last month, of a department that month, of a month two years back, and of a department at any date;
 * - as the archive-office clerk (who holds most of the incoming mail) and as a department manager (who
 *   sees what was distributed to the department).
 *
 * The server's time per request (Fastify's elapsed time) under autocannon, beside the raw SQL: the
 * statements the server issued for the request (the session check excluded) replayed on one connection.
 * Targets: p95 < 100 ms (suggestions as the header box is typed: < 50 ms) and within 2× of the raw SQL.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/search/run.ts
 *
 * BENCH_REUSE=1 keeps a database already made (reruns take seconds). BENCH_DOCUMENTS, BENCH_SECONDS (8),
 * BENCH_RAW_RUNS (200) as in the correspondence benchmark. BENCH_ONLY (a regular expression) measures only
 * the cases whose name it matches (`BENCH_ONLY=filters` the filters alone). BENCH_STATEMENTS_DIR: a folder
 * where each case's statements are written (JSON), to be explained by hand.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { autocannon, percentile, signInPassword, startMeasuredServer } from '../harness';
import { captureStatements, explain, replay, startCapture, stopCapture } from '../sql-capture';
import { LEXICON_VERSION } from '../../src-shared/search';
import { fillSearchData } from './data';

const DB_NAME = process.env.BENCH_DB_NAME ?? 'sijill_bench_search';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RAW_RUNS = Number(process.env.BENCH_RAW_RUNS ?? 200);
const REUSE = process.env.BENCH_REUSE === '1';
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
/** A folder where each case's SQL statements (text and values) are written, to read their plans. */
const STATEMENTS_DIR = process.env.BENCH_STATEMENTS_DIR;
/** The correspondence benchmark's users' password. */
const PASSWORD = 'bench-password-1';
const TARGET_MS = 100;
const SUGGEST_TARGET_MS = 50;
const round = (v: number) => Math.round(v * 100) / 100;

async function main() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) {
    console.error('Set BENCH_DATABASE_URL (a PostgreSQL server where a database may be created).');
    process.exit(2);
  }
  const url = new URL(base);
  url.pathname = `/${DB_NAME}`;
  // The mail: made (or kept) by the correspondence benchmark, which stops before measuring.
  const made = spawnSync('npx', ['tsx', 'bench/correspondence/run.ts'], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_DB_NAME: DB_NAME, BENCH_REUSE: REUSE ? '1' : '0', BENCH_GENERATE_ONLY: '1' },
  });
  if (made.status !== 0) throw new Error(`bench/correspondence/run.ts failed (${made.status})`);

  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  const [state] = (
    await db.query<{ documents: string; indexed: string; stale: boolean }>(
      `select (select count(*) from documents) as documents, (select count(*) from document_search) as indexed,
         exists (select 1 from document_search where lexicon <> $1) as stale`,
      [LEXICON_VERSION],
    )
  ).rows;
  let fillSeconds: number | null = null;
  // Made by another lexicon, the index would be remade by the server's jobs while it is measured.
  if (!REUSE || state!.documents !== state!.indexed || state!.stale) {
    const t = performance.now();
    await fillSearchData(db);
    fillSeconds = round((performance.now() - t) / 1000);
    process.stderr.write(`search data filled in ${fillSeconds} s\n`);
  }
  const pick = async (text: string) => (await db.query<{ v: string }>(text)).rows[0]?.v ?? '';
  const counts = (
    await db.query<Record<string, string>>(
      `select (select count(*) from documents) as documents, (select count(*) from attachment_pages) as pages,
         (select count(*) from document_search) as indexed,
         pg_size_pretty(pg_total_relation_size('document_search')) as index_table_size`,
    )
  ).rows[0]!;
  // A registered letter each user may see: the clerk's archive holds it; the manager's department got it.
  const clerkNumber =
    await pick(`select d.doc_number as v from documents d join users u on u.username = 'bench-clerk'
      join employees e on e.id = u.employee_id
    where d.direction = 'in' and d.state = 'registered' and d.archive_department_id = e.department_id
    order by d.id desc offset 5000 limit 1`);
  const managerNumber = await pick(`select d.doc_number as v from distributions x
      join documents d on d.id = x.document_id
      join users u on u.username = 'bench-manager' join employees e on e.id = u.employee_id
    where x.department_id = e.department_id and d.doc_number is not null order by x.id desc offset 50 limit 1`);
  // The filters alone: the manager's department, the last month of the mail and one two years before it.
  const department = await pick(`select e.department_id::text as v from users u
      join employees e on e.id = u.employee_id where u.username = 'bench-manager'`);
  const last = await pick(`select to_char(max(coalesce(registered_at, created_at)), 'YYYY-MM-DD') as v
      from documents`);
  const monthOf = (back: number) => {
    const end = new Date(`${last}T00:00:00Z`);
    const from = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - back, 1));
    const to = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - back + 1, 0));
    return { fromDate: from.toISOString().slice(0, 10), toDate: to.toISOString().slice(0, 10) };
  };
  await db.end();

  captureStatements();
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-search-'));
  const { server, timings, measuring } = await startMeasuredServer(url.toString(), dataDir);
  const results: Record<string, unknown>[] = [];
  try {
    const signIn = (login: string) => signInPassword(server.url, login, PASSWORD);
    // The correspondence benchmark's users have the incoming pages; search is a page of its own.
    const grant = new pg.Client({ connectionString: url.toString() });
    await grant.connect();
    await grant.query(`insert into role_page_permissions (role_id, page_id, permissions)
      select distinct u.role_id, p.id, '{view}'::text[] from users u, pages p
      where u.username in ('bench-clerk', 'bench-manager') and p.path = '/search/documents'
      on conflict do nothing`);
    await grant.end();
    const filtered: { name: string; filters: Record<string, string> }[] = [
      { name: 'filters: incoming', filters: { direction: 'in' } },
      { name: 'filters: incoming, last month', filters: { direction: 'in', ...monthOf(0) } },
      {
        name: 'filters: a department, last month',
        filters: { direction: 'in', departmentId: department, ...monthOf(0) },
      },
      { name: 'filters: incoming, 2 years back', filters: { direction: 'in', ...monthOf(24) } },
      { name: 'filters: a department', filters: { departmentId: department } },
    ];
    const queries = (number: string) => [
      { name: 'one Arabic word (المناقصه)', q: 'المناقصه' },
      { name: 'three Arabic words', q: 'اعتماد الميزانيه السنويه' },
      { name: 'a name (نوره الشهري)', q: 'نوره الشهري' },
      // One word nobody wrote: the words every document has are searched again without it, and it is named.
      { name: 'three words, one nobody wrote', q: 'اعتماد الميزانيه قرنبيط' },
      { name: 'one English word', q: 'budgets' },
      { name: 'number lookup', q: number },
      // The header box's suggestions as it is typed (target SUGGEST_TARGET_MS).
      { name: 'suggest: a word begun (مناق)', q: 'مناق', suggest: true },
      { name: 'suggest: a word and one begun', q: 'اعتماد الميز', suggest: true },
      { name: 'suggest: a number begun', q: number.slice(0, -3), suggest: true },
      ...filtered,
    ];
    const users = [
      { who: 'clerk', login: 'bench-clerk', queries: queries(clerkNumber) },
      { who: 'manager', login: 'bench-manager', queries: queries(managerNumber) },
    ];
    for (const u of users) {
      const token = await signIn(u.login);
      for (const s of u.queries) {
        const route = `${u.who}: ${s.name}`;
        if (ONLY && !ONLY.test(route)) continue;
        const suggest = 'suggest' in s;
        const target = suggest ? SUGGEST_TARGET_MS : TARGET_MS;
        const words: Record<string, string> = 'q' in s ? { q: s.q } : {};
        const filters: Record<string, string> = 'filters' in s ? s.filters : {};
        const path = suggest
          ? `/search/suggest?${new URLSearchParams(words).toString()}`
          : `/search?${new URLSearchParams({ ...words, ...filters, page: '1', pageSize: '20' }).toString()}`;
        startCapture();
        const check = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
        const statements = stopCapture().filter((x) => !/\bsessions\b/.test(x.text));
        if (STATEMENTS_DIR)
          writeFileSync(
            join(STATEMENTS_DIR, `${route.replace(/[^\p{L}\p{N}]+/gu, '-')}.json`),
            JSON.stringify(statements, null, 2),
          );
        const answer = (await check.json()) as {
          data?:
            { total: number; totalExact: boolean; items: { numberMatch: boolean }[] } | { kind: string }[];
        };
        if (check.status !== 200 || !answer.data)
          throw new Error(`${route}: ${check.status} ${JSON.stringify(answer)}`);
        // Suggestions answer a list: as many as they are, the first by its number or not.
        const body = {
          data: Array.isArray(answer.data)
            ? {
                total: answer.data.length,
                totalExact: true,
                items: answer.data.map((x) => ({ numberMatch: x.kind === 'number' })),
              }
            : answer.data,
        };
        measuring('');
        await autocannon(server.url + path, { token, connections: 1, seconds: 2 }); // warm-up
        measuring(route);
        const load = await autocannon(server.url + path, { token, connections: 1, seconds: SECONDS });
        measuring('');
        const serverMs = [...timings.get(route)!].sort((a, b) => a - b);
        const raw = await replay(url.toString(), statements, RAW_RUNS);
        const plans = await explain(url.toString(), statements);
        const p95 = percentile(serverMs, 95);
        const entry = {
          route,
          q: 'q' in s ? s.q : new URLSearchParams(filters).toString(),
          total: `${body.data.totalExact ? '' : '> '}${body.data.total}`,
          firstIsNumber: body.data.items[0]?.numberMatch ?? false,
          reqPerSec: load.reqPerSec,
          non2xx: load.non2xx,
          serverMs: { samples: serverMs.length, p50: round(percentile(serverMs, 50)), p95: round(p95) },
          rawSqlMs: { statements: statements.length, ...raw, explainExecutionMs: plans },
          target,
          withinTarget: p95 < target,
          within2xRaw: p95 <= 2 * raw.p95,
        };
        results.push(entry);
        process.stderr.write(`${JSON.stringify(entry)}\n`);
      }
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    JSON.stringify({ database: DB_NAME, filled: fillSeconds ?? 'reused', counts, results }, null, 2),
  );
  const pad = (v: unknown, n: number) => String(v).padEnd(n);
  const lines = [
    `${pad('query', 40)}${pad('matches', 10)}${pad('server p95', 12)}${pad('raw SQL p95', 13)}result`,
  ];
  for (const e of results as {
    route: string;
    target: number;
    total: string;
    serverMs: { p95: number };
    rawSqlMs: { p95: number };
    withinTarget: boolean;
    within2xRaw: boolean;
  }[])
    lines.push(
      `${pad(e.route, 40)}${pad(e.total, 10)}${pad(`${e.serverMs.p95} ms`, 12)}${pad(`${e.rawSqlMs.p95} ms`, 13)}` +
        `${e.withinTarget ? `< ${e.target} ms` : `MISSED (${e.target} ms)`} / ${e.within2xRaw ? '≤ 2× raw' : '> 2× raw (MISSED)'}`,
    );
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
