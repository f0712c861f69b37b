/**
 * How long the server's thread stops while a heavy PDF is made (src-server/pdf-making, docs/records.md and
 * docs/reports.md): a certificate of destruction of BENCH_CERT_DOCS (10,000) documents and a report's PDF
 * of BENCH_REPORT_ROWS (10,000, PDF_MAX_ROWS) rows, each made three ways in this process:
 * - here, whole: in this thread, nothing awaited between its steps (how GET …/certificate made a lost one);
 * - here, giving way: in this thread, the thread turned once at every step (setImmediate; the disposition
 *   job's progress write and the export's did at least that much): how both were made before;
 * - worker: through the server's pool (pdf-make-pool.ts), as they are made now.
 * Printed per run: the wall time, the event-loop delay of this thread while it ran (perf_hooks
 * monitorEventLoopDelay, 10 ms resolution: its 99th percentile and its maximum — the longest a request
 * arriving then would have waited before being read), and this thread's V8 heap at its peak (heapUsed
 * sampled every 50 ms; in the worker runs, what the task costs this thread: little), the PDF's size, and
 * the load average (the machine may be shared). A small certificate is made first each way, so that the
 * fonts are loaded and the worker is up before anything is measured.
 *
 *   npx tsx bench/pdf-making/run.ts        (BENCH_CERT_DOCS=1000 BENCH_REPORT_ROWS=2000 for a shorter run)
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ReportCell, ReportColumn } from '../../src-shared/api/reports';
import { makePdf } from '../../src-server/pdf-making/pdf-make-pool';
import { PDF_TASKS, type PdfMade } from '../../src-server/pdf-making/tasks';
import { destroyedFile } from '../../tests/api/support/disposition';
import { round, table } from '../station/support';

const DOCS = Number(process.env.BENCH_CERT_DOCS ?? 10_000);
const ROWS = Number(process.env.BENCH_REPORT_ROWS ?? 10_000);
const MB = 1024 * 1024;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const COLUMNS: ReportColumn[] = [
  { key: 'kind', type: 'text' },
  { key: 'docNumber', type: 'text' },
  { key: 'subject', type: 'text' },
  { key: 'department', type: 'text' },
  { key: 'dueOn', type: 'date' },
  { key: 'daysLate', type: 'days' },
];
const HEADING = {
  title: 'العناصر المتأخرة',
  lines: ['الفترة: 2026-01-01 — 2026-12-31'],
  headers: ['النوع', 'الرقم', 'الموضوع', 'الإدارة', 'الاستحقاق', 'أيام التأخير'],
};
/** The report's rows in batches of 500, as the export's cursor hands them over. */
async function* rows(total: number): AsyncIterable<ReportCell[][]> {
  for (let i = 0; i < total; i += 500)
    yield Array.from({ length: Math.min(500, total - i) }, (_, j): ReportCell[] => {
      const n = i + j;
      return [
        n % 3 ? 'رد مستحق' : 'مهمة',
        `OUT-2026-${String(n + 1).padStart(5, '0')}`,
        `خطاب رقم ${n + 1} بشأن ${n % 7 ? 'الميزانية السنوية' : 'عقد الصيانة'}`,
        ['الشؤون المالية', 'الموارد البشرية', 'الإدارة العامة'][n % 3]!,
        `2026-${String((n % 12) + 1).padStart(2, '0')}-15`,
        n % 90,
      ];
    });
}

type Way = 'here, whole' | 'here, giving way' | 'worker';

function make(what: 'certificate' | 'report', way: Way, size: number): Promise<PdfMade> {
  const onProgress = way === 'here, whole' ? async () => undefined : turn;
  if (what === 'certificate') {
    const d = destroyedFile(size);
    if (way === 'worker') return makePdf('certificate', d, { onProgress });
    return PDF_TASKS.certificate(d, { progress: onProgress, batches: rows(0) });
  }
  const input = { lang: 'ar' as const, heading: HEADING, columns: COLUMNS, total: size };
  if (way === 'worker') return makePdf('reportPdf', input, { batches: rows(size), onProgress });
  return PDF_TASKS.reportPdf(input, { progress: onProgress, batches: rows(size) });
}

async function measure(what: 'certificate' | 'report', way: Way, size: number) {
  global.gc?.();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let heapPeak = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 50);
  delay.enable();
  // Its clock starts at its first tick: a block begun before that would not be seen.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = performance.now();
  const made = await make(what, way, size);
  const seconds = (performance.now() - started) / 1000;
  delay.disable();
  clearInterval(sampler);
  return [
    what,
    size,
    way,
    round(seconds, 2),
    round(delay.percentile(99) / 1e6, 0),
    round(delay.max / 1e6, 0),
    round(heapPeak / MB, 0),
    round(made.bytes.byteLength / MB, 1),
  ];
}

async function main() {
  const load = loadavg().map((v) => round(v, 2));
  for (const way of ['here, whole', 'worker'] as const) {
    await make('certificate', way, 20);
    await make('report', way, 100);
  }
  const results: (string | number)[][] = [];
  for (const [what, size] of [
    ['certificate', DOCS],
    ['report', ROWS],
  ] as const)
    for (const way of ['here, whole', 'here, giving way', 'worker'] as const) {
      process.stderr.write(`${what} of ${size}, ${way}…\n`);
      results.push(await measure(what, way, size));
    }
  console.log(
    table([
      ['PDF', 'size', 'made', 'seconds', 'delay p99 ms', 'delay max ms', 'heap peak MB', 'PDF MB'],
      ...results,
    ]),
  );
  console.log(
    `load average before: ${load.join(' ')}; after: ${loadavg()
      .map((v) => round(v, 2))
      .join(' ')}`,
  );
}

await main();
