/**
 * A year's report of 100,000 rows exported to Excel (issue 30; src-server/modules/reports, docs/reports.md):
 * the overdue-items report of a department's manager over 2026, with BENCH_REPORT_ROWS (100,000) late
 * items they may see — 40% replies due on incoming letters, 40% action tasks on them, 20% approval steps
 * waiting on the manager — among as many again they may not see or that are not late (another department's
 * letters, letters answered and tasks done), made in bulk with SQL over an app of the API tests' harness
 * (PGlite by default; SIJILL_TEST_DATABASE_URL: PostgreSQL). The overdue report is the one measured: it
 * reaches 100,000 rows from a year of ordinary mail and is the heaviest (three kinds of item under the
 * visibility predicate, read in keyset pages); the volumes report is an aggregate of a few hundred rows.
 *
 * Then, through the API: POST /reports/exports, GET /reports/exports/:id every 250 ms until done, GET its
 * file. Printed: rows, seconds from the request to the file ready, the process's resident memory
 * (process.memoryUsage().rss sampled every 50 ms: before, peak, and at each tenth of the export's time) and
 * heapUsed (before, peak), the file's size, the rows exceljs' streaming reader finds in it, and the load
 * average (the machine may be shared).
 *
 *   npx tsx bench/reports-export/run.ts            (BENCH_REPORT_ROWS=20000 for a shorter run)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { MovableClock } from '../../src-server/clock';
import { PAGES } from '../../src-shared/pages';
import { call, makeRole, startHarness, type Harness } from '../../tests/api/support/harness';
import { actor, department } from '../../tests/api/support/correspondence';
import { round } from '../station/support';

const ROWS = Number(process.env.BENCH_REPORT_ROWS ?? 100_000);
const FROM = '2026-01-01';
const TO = '2026-12-31';
const MB = 1024 * 1024;

const seconds = (from: number) => (performance.now() - from) / 1000;

/** Incoming letters: registered on a day of 2026 (the g-th of a series), reply due 10 days later. */
const incoming = (prefix: string, dept: number, cod: number, n: number, answered: boolean) => `
  insert into documents (direction, state, subject, security_rank, registered_at, recipient_department_id,
    codification_id, doc_number, reply_due_on, reply_done_at, created_by)
  select 'in', 'registered', 'خطاب وارد رقم ' || g || ' بشأن طلب الإفادة', 0,
         timestamp '2026-01-01 09:00' + ((g % 350) || ' days')::interval, ${dept}, ${cod}, '${prefix}-' || g,
         date '2026-01-11' + (g % 350), ${answered ? `timestamp '2026-01-05 09:00' + ((g % 350) || ' days')::interval` : 'null'}, null
    from generate_series(1, ${n}) g`;

async function main() {
  // The organisation's day: late January 2027, so every item due in 2026 and not done is late.
  const clock = new MovableClock('2027-01-20T09:00:00Z');
  const h: Harness = await startHarness({ JOBS_WORKER: '1' }, { clock });
  const dir = mkdtempSync(join(tmpdir(), 'bench-reports-'));
  try {
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

    process.stderr.write(`seeding a year of mail with ${ROWS} late items for one manager…\n`);
    const seeding = performance.now();
    const letters = Math.round(ROWS * 0.4);
    const approvals = ROWS - 2 * letters;
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
    await h.query('analyze');
    const seedSeconds = seconds(seeding);
    const [counts] = await h.query<{ documents: number; tasks: number; approvals: number }>(
      `select (select count(*)::int from documents) as documents, (select count(*)::int from tasks) as tasks,
              (select count(*)::int from approval_members) as approvals`,
    );

    const table = await call(h, {
      method: 'GET',
      url: `/reports/overdue?from=${FROM}&to=${TO}&limit=10`,
      token: manager.token,
      lang: 'ar',
    });
    if (table.status !== 200) throw new Error(`report: ${table.status} ${JSON.stringify(table.json)}`);
    const total = table.json.data.total as number;

    // The export, followed as the screen follows it; memory sampled meanwhile.
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const samples: { at: number; rss: number }[] = [];
    const started = performance.now();
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
      samples.push({ at: performance.now() - started, rss: m.rss });
    }, 50);
    const created = await call(h, {
      method: 'POST',
      url: '/reports/exports',
      token: manager.token,
      body: { report: 'overdue', format: 'xlsx', filters: { from: FROM, to: TO }, lang: 'ar' },
    });
    if (created.status !== 201) throw new Error(`export: ${created.status} ${JSON.stringify(created.json)}`);
    const id = created.json.data.id as number;
    let status: { state: string; rows: number; progress: number; error?: string };
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      const res = await call(h, { method: 'GET', url: `/reports/exports/${id}`, token: manager.token });
      status = res.json.data;
      if (status.state === 'done' || status.state === 'failed') break;
    }
    const exportSeconds = seconds(started);
    clearInterval(sampler);
    if (status.state !== 'done') throw new Error(`export failed: ${status.error}`);

    const downloading = performance.now();
    const file = await h.app.inject({
      method: 'GET',
      url: `/reports/exports/${id}/file`,
      headers: { authorization: `Bearer ${manager.token}` },
    });
    if (file.statusCode !== 200) throw new Error(`file: ${file.statusCode}`);
    const downloadSeconds = seconds(downloading);
    const path = join(dir, 'overdue.xlsx');
    writeFileSync(path, file.rawPayload);

    // Read back with exceljs' streaming reader: the rows under the header row.
    const reading = performance.now();
    let sheetRows = 0;
    let dataRows = 0;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {});
    for await (const sheet of reader) {
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        sheetRows++;
        // Title, period, made at, a blank row, the headers: data from row 6.
        if (row.number > 5) dataRows++;
      }
    }
    const readSeconds = seconds(reading);

    const tenths = Array.from({ length: 10 }, (_, i) => {
      const t = ((i + 1) / 10) * exportSeconds * 1000;
      const s = samples.filter((x) => x.at <= t).at(-1);
      return s ? Math.round(s.rss / MB) : null;
    });
    console.log(
      JSON.stringify(
        {
          benchmark: 'reports-export',
          database: h.database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL',
          report: 'overdue',
          format: 'xlsx',
          seeded: { ...counts, seedSeconds: round(seedSeconds, 1) },
          rows: { report: total, exported: status.rows, readBack: dataRows, sheetRows },
          exportSeconds: round(exportSeconds, 1),
          rowsPerSecond: Math.round(status.rows / exportSeconds),
          memoryMB: {
            rssBefore: Math.round(before.rss / MB),
            rssPeak: Math.round(peakRss / MB),
            rssGrowth: Math.round((peakRss - before.rss) / MB),
            rssByTenthOfExport: tenths,
            heapUsedBefore: Math.round(before.heapUsed / MB),
            heapUsedPeak: Math.round(peakHeap / MB),
          },
          fileMB: round(file.rawPayload.length / MB, 2),
          downloadSeconds: round(downloadSeconds, 2),
          readBackSeconds: round(readSeconds, 1),
          loadAverage: loadavg().map((l) => round(l, 1)),
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await h.close();
  }
}

await main();
process.exit(0);
