/**
 * A year's report of 100,000 rows exported (issue 30; src-server/modules/reports, docs/reports.md): the
 * overdue-items report of a department's manager over 2026, with N late items they may see — 40% replies
 * due on incoming letters, 40% action tasks on them, 20% approval steps waiting on the manager — among as
 * many again they may not see or that are not late (another department's letters, letters answered and
 * tasks done), made in bulk with SQL over an app of the API tests' harness, then `vacuum analyze` (a
 * year's tables have been vacuumed by then). The overdue report is the one measured: it reaches 100,000
 * rows from a year of ordinary mail and is the heaviest (three kinds of item under the visibility
 * predicate); the volumes report is an aggregate of a few hundred rows.
 *
 * Each measurement runs in a process of its own (a fresh app, database and heap, so the peaks of one do
 * not hide those of the next): for each database, each format and each number of rows, the table's first
 * page is asked (GET /reports/overdue, timed), then the export through the API — POST /reports/exports,
 * GET /reports/exports/:id every 250 ms until done, GET its file. Printed per run: seconds from the
 * request to the job finished (the job row's created_at → finished_at, so not rounded up to a poll) and
 * to the poll that saw it done; the process's resident memory and V8's heapUsed (process.memoryUsage()
 * sampled every 50 ms: before the request, after a GC, and the peak while the export ran); the file's size,
 * the rows exceljs' streaming reader finds in the workbook (or the PDF's pages); the load average before
 * and after (the machine may be shared). The app runs in the measured process, so the RSS holds the
 * server's whole memory, PGlite's included (its worker thread, whose heap heapUsed does not count).
 *
 *   npx tsx bench/reports-export/run.ts
 *
 * BENCH_REPORT_ROWS: the Excel runs' rows (default 10000,50000,100000); BENCH_PDF_ROWS: the PDF runs'
 * (default 2000,10000; a PDF stops at PDF_MAX_ROWS); BENCH_FORMATS (default xlsx,pdf); BENCH_DATABASES
 * (default pglite, and postgres when BENCH_DATABASE_URL or SIJILL_TEST_DATABASE_URL names a PostgreSQL
 * server, where each run makes a database of its own and drops it); BENCH_KEEP: a folder to keep the files
 * made in.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { PDFDocument } from 'pdf-lib';
import { MovableClock } from '../../src-server/clock';
import { PDF_MAX_ROWS } from '../../src-server/modules/reports/pdf';
import { PAGES } from '../../src-shared/pages';
import { call, makeRole, startHarness, type Harness } from '../../tests/api/support/harness';
import { actor, department } from '../../tests/api/support/correspondence';
import { MB, round, table } from '../station/support';

const FROM = '2026-01-01';
const TO = '2026-12-31';

type Database = 'pglite' | 'postgres';
type Format = 'xlsx' | 'pdf';
interface RunSpec {
  database: Database;
  format: Format;
  rows: number;
}

/** What one run prints (its last line of output, as JSON). */
interface RunResult extends RunSpec {
  seeded: { documents: number; tasks: number; approvals: number; seedSeconds: number };
  tableSeconds: number;
  rowsReported: number;
  rowsExported: number;
  /** Rows exceljs' streaming reader finds under the header row; the PDF's pages for a PDF. */
  readBack: number;
  jobSeconds: number;
  seenDoneSeconds: number;
  /**
   * CPU seconds this process used meanwhile (user + system, every thread: PGlite's worker too, not
   * PostgreSQL's server): steadier than the wall clock on a shared machine.
   */
  cpuSeconds: number;
  memoryMB: {
    rssBefore: number;
    rssPeak: number;
    rssGrowth: number;
    heapUsedBefore: number;
    heapUsedPeak: number;
    heapGrowth: number;
    /** BENCH_LIVE_HEAP: heapUsed after a full GC, every second of the export (the heap it holds). */
    heapLivePeak?: number;
  };
  fileMB: number;
  loadAverage: { before: number[]; after: number[] };
}

const seconds = (from: number) => (performance.now() - from) / 1000;
const list = (value: string | undefined, fallback: string) =>
  (value ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const load = () => loadavg().map((l) => round(l, 1));

/** Incoming letters: registered on a day of 2026 (the g-th of a series), reply due 10 days later. */
const incoming = (prefix: string, dept: number, cod: number, n: number, answered: boolean) => `
  insert into documents (direction, state, subject, security_rank, registered_at, recipient_department_id,
    codification_id, doc_number, reply_due_on, reply_done_at, created_by)
  select 'in', 'registered', 'خطاب وارد رقم ' || g || ' بشأن طلب الإفادة', 0,
         timestamp '2026-01-01 09:00' + ((g % 350) || ' days')::interval, ${dept}, ${cod}, '${prefix}-' || g,
         date '2026-01-11' + (g % 350), ${answered ? `timestamp '2026-01-05 09:00' + ((g % 350) || ' days')::interval` : 'null'}, null
    from generate_series(1, ${n}) g`;

/** The year of mail with `rows` late items for one manager: the manager, and what was made. */
async function seed(h: Harness, rows: number) {
  const role = await makeRole(h, { [PAGES.reports]: ['view', 'export'] });
  const deptA = await department(h, 'الشؤون المالية');
  const deptB = await department(h, 'الموارد البشرية');
  const manager = await actor(h, role, deptA);
  const other = await actor(h, role, deptB);
  await h.query(`update departments set manager_employee_id = ${manager.employeeId} where id = ${deptA}`);
  await h.query(`update departments set manager_employee_id = ${other.employeeId} where id = ${deptB}`);
  const [c] = await h.query<{ id: number }>(
    `insert into correspondence_settings (list, name_ar, name_en, prefix, direction)
     values ('codifications', 'وارد عام', 'General incoming', 'IN', 'in') returning id`,
  );
  const cod = c!.id;
  const seeding = performance.now();
  const letters = Math.round(rows * 0.4);
  const approvals = rows - 2 * letters;
  // Late for the manager: letters to their department, reply not done, each with an open action task.
  await h.query(incoming('LATE', deptA, cod, letters, false));
  // Not late: letters to their department answered, their tasks done; and another department's mail.
  await h.query(incoming('DONE', deptA, cod, Math.round(letters / 2), true));
  await h.query(incoming('OTHER', deptB, cod, letters, false));
  await h.query(
    `insert into distributions (document_id, department_id, type, direction, registered_at, security_rank)
     select d.id, d.recipient_department_id, 'forAction', 'in', d.registered_at, 0
       from documents d where d.direction = 'in'`,
  );
  await h.query(
    `insert into tasks (document_id, distribution_id, department_id, type, employee_id, task_date, state,
       created_at, completed_at)
     select d.id, x.id, x.department_id, 'forAction',
            case when x.department_id = ${deptA} then ${manager.employeeId} else ${other.employeeId} end,
            (d.registered_at)::date + 7,
            case when d.reply_done_at is null then 'new' else 'completed' end,
            d.registered_at + interval '1 hour', d.reply_done_at
       from documents d join distributions x on x.document_id = d.id`,
  );
  // Outgoing letters waiting on the manager's approval past its due day.
  await h.query(
    `insert into documents (direction, state, subject, security_rank, department_id, created_by, submitted_at,
       doc_number)
     select 'out', 'approving', 'Outgoing letter ' || g || ' awaiting signature', 0, ${deptA}, null,
            timestamp '2026-01-01 08:00' + ((g % 350) || ' days')::interval, 'OUT-' || g
       from generate_series(1, ${approvals}) g`,
  );
  await h.query(
    `insert into approval_members (document_id, position, kind, user_id, employee_id, pending, activated_at,
       due_on, direction, security_rank)
     select d.id, 1, 'sign', ${manager.userId}, ${manager.employeeId}, true, d.submitted_at,
            (d.submitted_at)::date + 3, 'out', 0
       from documents d where d.direction = 'out'`,
  );
  await h.query('vacuum analyze');
  const [counts] = await h.query<{ documents: number; tasks: number; approvals: number }>(
    `select (select count(*)::int from documents) as documents, (select count(*)::int from tasks) as tasks,
            (select count(*)::int from approval_members) as approvals`,
  );
  return { manager, seeded: { ...counts!, seedSeconds: round(seconds(seeding), 1) } };
}

/** One measurement, in this process: seeds, asks the table, exports, reads the file back. */
async function measure(spec: RunSpec): Promise<RunResult> {
  // The organisation's day: late January 2027, so every item due in 2026 and not done is late.
  const clock = new MovableClock('2027-01-20T09:00:00Z');
  const h = await startHarness({ JOBS_WORKER: '1' }, { clock });
  const dir = mkdtempSync(join(tmpdir(), 'bench-reports-'));
  try {
    if ((h.database.kind === 'postgres') !== (spec.database === 'postgres'))
      throw new Error(`asked for ${spec.database}, the harness opened ${h.database.kind}`);
    process.stderr.write(`${spec.database} ${spec.format} ${spec.rows}: seeding…\n`);
    const { manager, seeded } = await seed(h, spec.rows);

    const asking = performance.now();
    const tablePage = await call(h, {
      method: 'GET',
      url: `/reports/overdue?from=${FROM}&to=${TO}&limit=10`,
      token: manager.token,
      lang: 'ar',
    });
    if (tablePage.status !== 200)
      throw new Error(`report: ${tablePage.status} ${JSON.stringify(tablePage.json)}`);
    const tableSeconds = seconds(asking);
    const rowsReported = tablePage.json.data.total as number;

    // The export, followed as the screen follows it; memory sampled meanwhile.
    process.stderr.write(`${spec.database} ${spec.format} ${spec.rows}: exporting…\n`);
    global.gc?.();
    const loadBefore = load();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 50);
    // What the heap holds (garbage aside): a full GC, then heapUsed, every second. It slows the export.
    let liveHeap: number | undefined;
    const liveSampler =
      process.env.BENCH_LIVE_HEAP && global.gc
        ? setInterval(() => {
            global.gc!();
            liveHeap = Math.max(liveHeap ?? 0, process.memoryUsage().heapUsed);
          }, 1000)
        : undefined;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const created = await call(h, {
      method: 'POST',
      url: '/reports/exports',
      token: manager.token,
      body: { report: 'overdue', format: spec.format, filters: { from: FROM, to: TO }, lang: 'ar' },
    });
    if (created.status !== 201) throw new Error(`export: ${created.status} ${JSON.stringify(created.json)}`);
    const id = created.json.data.id as number;
    let status: { state: string; rows: number; error?: string };
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      const res = await call(h, { method: 'GET', url: `/reports/exports/${id}`, token: manager.token });
      status = res.json.data;
      if (status.state === 'done' || status.state === 'failed') break;
    }
    const seenDoneSeconds = seconds(started);
    const cpu = process.cpuUsage(cpuBefore);
    clearInterval(sampler);
    clearInterval(liveSampler);
    const loadAfter = load();
    if (status.state !== 'done') throw new Error(`export failed: ${status.error}`);
    const [job] = await h.query<{ s: string }>(
      `select extract(epoch from finished_at - created_at)::text as s from background_jobs where id = ${id}`,
    );

    const file = await h.app.inject({
      method: 'GET',
      url: `/reports/exports/${id}/file`,
      headers: { authorization: `Bearer ${manager.token}` },
    });
    if (file.statusCode !== 200) throw new Error(`file: ${file.statusCode}`);
    if (process.env.BENCH_KEEP)
      writeFileSync(
        join(process.env.BENCH_KEEP, `${spec.database}-${spec.rows}.${spec.format}`),
        file.rawPayload,
      );
    let readBack = 0;
    if (spec.format === 'xlsx') {
      const path = join(dir, 'overdue.xlsx');
      writeFileSync(path, file.rawPayload);
      for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(path, {}))
        for await (const row of sheet as AsyncIterable<ExcelJS.Row>)
          // Title, period, made at, a blank row, the headers: data from row 6.
          if (row.number > 5) readBack++;
    } else {
      readBack = (await PDFDocument.load(file.rawPayload)).getPageCount();
    }

    if (status.rows !== rowsReported) throw new Error(`exported ${status.rows} of ${rowsReported} rows`);
    if (spec.format === 'xlsx' && readBack !== status.rows)
      throw new Error(`the workbook holds ${readBack} rows, not ${status.rows}`);
    const mb = (bytes: number) => Math.round(bytes / MB);
    return {
      ...spec,
      seeded,
      tableSeconds: round(tableSeconds, 2),
      rowsReported,
      rowsExported: status.rows,
      readBack,
      jobSeconds: round(Number(job!.s), 2),
      seenDoneSeconds: round(seenDoneSeconds, 2),
      cpuSeconds: round((cpu.user + cpu.system) / 1e6, 2),
      memoryMB: {
        rssBefore: mb(before.rss),
        rssPeak: mb(peakRss),
        rssGrowth: mb(peakRss - before.rss),
        heapUsedBefore: mb(before.heapUsed),
        heapUsedPeak: mb(peakHeap),
        heapGrowth: mb(peakHeap - before.heapUsed),
        ...(liveHeap === undefined ? {} : { heapLivePeak: mb(liveHeap) }),
      },
      fileMB: round(file.rawPayload.length / MB, 2),
      loadAverage: { before: loadBefore, after: loadAfter },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await h.close();
  }
}

/** Runs one measurement in a child process of its own and answers what it printed. */
function inChild(spec: RunSpec, postgresUrl: string | undefined): Promise<RunResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_REPORTS_RUN: JSON.stringify(spec) };
  // The harness opens PostgreSQL when this is set, PGlite otherwise.
  if (spec.database === 'postgres') env.SIJILL_TEST_DATABASE_URL = postgresUrl;
  else delete env.SIJILL_TEST_DATABASE_URL;
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as RunResult);
      else reject(new Error(`run ${JSON.stringify(spec)} exited with ${code}: ${out.slice(-2000)}`));
    });
  });
}

async function main() {
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.SIJILL_TEST_DATABASE_URL;
  const databases = list(process.env.BENCH_DATABASES, postgresUrl ? 'pglite,postgres' : 'pglite');
  if (databases.includes('postgres') && !postgresUrl)
    throw new Error('postgres: set BENCH_DATABASE_URL (or SIJILL_TEST_DATABASE_URL) to a PostgreSQL server');
  const formats = list(process.env.BENCH_FORMATS, 'xlsx,pdf') as Format[];
  const rowsOf = (format: Format) =>
    format === 'xlsx'
      ? list(process.env.BENCH_REPORT_ROWS, '10000,50000,100000').map(Number)
      : list(process.env.BENCH_PDF_ROWS, '2000,10000')
          .map(Number)
          .filter((n) => n <= PDF_MAX_ROWS);
  const results: RunResult[] = [];
  for (const database of databases as Database[])
    for (const format of formats)
      for (const rows of rowsOf(format)) results.push(await inChild({ database, format, rows }, postgresUrl));

  console.log(
    table([
      [
        'database',
        'format',
        'rows',
        'job s',
        'CPU s',
        'rows/s',
        'RSS before → peak MB (+)',
        'heapUsed before → peak MB (+)',
        'file MB',
        'table page s',
        'load before/after',
      ],
      ...results.map((r) => [
        r.database === 'pglite' ? 'PGlite' : 'PostgreSQL',
        r.format,
        r.rowsExported,
        r.jobSeconds,
        r.cpuSeconds,
        Math.round(r.rowsExported / r.jobSeconds),
        `${r.memoryMB.rssBefore} → ${r.memoryMB.rssPeak} (+${r.memoryMB.rssGrowth})`,
        `${r.memoryMB.heapUsedBefore} → ${r.memoryMB.heapUsedPeak} (+${r.memoryMB.heapGrowth})`,
        r.fileMB,
        r.tableSeconds,
        `${r.loadAverage.before[0]} / ${r.loadAverage.after[0]}`,
      ]),
    ]),
  );
  console.log(
    JSON.stringify({ benchmark: 'reports-export', report: 'overdue', lang: 'ar', results }, null, 2),
  );
}

const child = process.env.BENCH_REPORTS_RUN;
if (child) console.log(JSON.stringify(await measure(JSON.parse(child) as RunSpec)));
else await main();
process.exit(0);
