/**
 * Background jobs after a crash: `npx tsx bench/jobs/run.ts` (BENCH_SCANS one-page scans, default 6;
 * BENCH_DATABASE_URL: on PostgreSQL instead of PGlite). The API server runs as `npm run server` runs it
 * (bench/station/support.ts). The scans are sent through intake, and once the server is reading one of
 * them by OCR it is killed with SIGKILL — no chance to put its jobs back. It is started again on the same
 * data, and the benchmark measures:
 *
 * - restartToListeningMs: from the new process's start to its "listening on" line;
 * - restartToTakeOverMs: from the new process's start until it takes over the job the killed one held
 *   (its warning "taking over a job whose worker stopped"): at once, not when the lease runs out;
 * - restartToAllDoneMs: from the new process's start until every scan's text is read (`done`) — mostly
 *   the OCR itself, which runs at the lowest priority and so takes what the machine has left;
 * - orphanOcrChild: whether the killed server's OCR child outlived it (and for how long it was seen);
 * - sigtermToExitMs: SIGTERM to the restarted server, while it reads, until it has exited (its OCR child
 *   with it).
 *
 * Prints the figures as JSON; nothing fails on a figure. Needs Chromium to draw the scans (CHROMIUM_PATH).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { canMakePdfs, makeScannedPdf } from '../../tests/support/pdf-makers';
import { firstAdmin, must, round, sleep, startServerProcess, type Child } from '../station/support';

const SCANS = Number(process.env.BENCH_SCANS ?? 6);
/** The benchmark gives up waiting for the reading after this long (a guard against a hang). */
const CEILING_MS = 15 * 60_000;

type Attachment = { id: number; text: { status: string } };

/** The processes whose parent is `pid` (Linux /proc), with their command lines. */
function childrenOf(pid: number): { pid: number; args: string }[] {
  const found: { pid: number; args: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid)
        found.push({
          pid: Number(name),
          args: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' '),
        });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Whether a process runs (a zombie, with no command line left, does not). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').length > 0;
  } catch {
    return false;
  }
}

/** A fresh PostgreSQL database for this run (dropped at the end), or undefined on PGlite. */
async function database(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return undefined;
  const name = `sijill_bench_jobs_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function main(): Promise<void> {
  if (!canMakePdfs()) {
    console.log(JSON.stringify({ skipped: 'no Chromium to draw the scans (CHROMIUM_PATH)' }));
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'sijill-bench-jobs-'));
  const pdfDir = await mkdtemp(join(tmpdir(), 'sijill-bench-jobs-pdf-'));
  const db = await database();
  const env: Record<string, string> = db ? { DATABASE_URL: db.url } : {};
  let server: (Child & { url: string }) | undefined;
  try {
    const scans: Buffer[] = [];
    for (let i = 1; i <= SCANS; i++)
      scans.push(
        await readFile(
          await makeScannedPdf(
            [`خطاب رقم ${i} بشأن الميزانية السنوية`, `Letter ${i} about the annual budget review`],
            pdfDir,
          ),
        ),
      );

    server = await startServerProcess(dataDir, env, CEILING_MS);
    const token = await firstAdmin(server.url);
    const made: { documentId: number; attachmentId: number }[] = [];
    for (const [i, bytes] of scans.entries()) {
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: 'application/pdf' }), `scan ${i + 1}.pdf`);
      const res = await fetch(`${server.url}/correspondence/intake`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': `bench-jobs:${Date.now()}:${i}` },
        body: form,
      });
      if (res.status !== 201) throw new Error(`intake: ${res.status} ${await res.text()}`);
      const { data } = (await res.json()) as { data: { documentId: number; attachmentId: number } };
      made.push(data);
    }
    const statuses = async (url: string) =>
      Promise.all(
        made.map(async ({ documentId, attachmentId }) => {
          const list = await must<Attachment[]>(
            200,
            url,
            'GET',
            `/correspondence/documents/${documentId}/attachments`,
            {
              token,
            },
          );
          return list.find((a) => a.id === attachmentId)?.text.status ?? 'missing';
        }),
      );

    // Killed while it reads a scan by OCR.
    const until = Date.now() + CEILING_MS;
    let before: string[] = [];
    for (;;) {
      before = await statuses(server.url);
      if (before.includes('reading') || Date.now() > until) break;
      await sleep(100);
    }
    const ocr = childrenOf(server.pid).find((c) => c.args.includes('ocr-child'));
    server.process.kill('SIGKILL');
    await server.stop(0);
    const killedAt = Date.now();
    let orphanSeenMs = 0;

    const restartedAt = performance.now();
    server = await startServerProcess(dataDir, env, CEILING_MS);
    const listeningMs = performance.now() - restartedAt;
    let takeOverMs: number | null = null;
    const restarted = server;
    const watchTakeOver = (chunk: Buffer) => {
      if (takeOverMs === null && chunk.toString().includes('taking over a job whose worker stopped'))
        takeOverMs = performance.now() - restartedAt;
    };
    restarted.process.stdout?.on('data', watchTakeOver);
    restarted.process.stderr?.on('data', watchTakeOver);
    if (restarted.output().includes('taking over a job whose worker stopped')) takeOverMs = listeningMs;
    let after: string[] = [];
    for (;;) {
      if (ocr && alive(ocr.pid)) orphanSeenMs = Date.now() - killedAt;
      after = await statuses(server.url);
      if (after.every((s) => s === 'done' || s === 'failed') || performance.now() - restartedAt > CEILING_MS)
        break;
      // Looked at once a second: a reader's screen, not a load the jobs would yield to.
      await sleep(1000);
    }
    const allDoneMs = performance.now() - restartedAt;

    // SIGTERM while it reads: another scan, so its OCR child is at work.
    const form = new FormData();
    const extra = await readFile(await makeScannedPdf(['خطاب أخير قبل الإيقاف', 'A last letter'], pdfDir));
    form.append('file', new Blob([extra], { type: 'application/pdf' }), 'last.pdf');
    const last = await fetch(`${server.url}/correspondence/intake`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': `bench-jobs:${Date.now()}:last` },
      body: form,
    });
    const lastMade = ((await last.json()) as { data: { documentId: number; attachmentId: number } }).data;
    made.push(lastMade);
    for (const stop = Date.now() + CEILING_MS; Date.now() < stop; await sleep(100))
      if ((await statuses(server.url)).at(-1) === 'reading') break;
    const child = childrenOf(server.pid).find((c) => c.args.includes('ocr-child'));
    const termAt = performance.now();
    await server.stop(CEILING_MS);
    const sigtermToExitMs = performance.now() - termAt;
    const exitCode = server.process.exitCode;
    server = undefined;

    console.log(
      JSON.stringify(
        {
          database: db ? 'postgres' : 'pglite',
          scans: SCANS,
          killedWhile: before,
          orphanOcrChild: ocr ? { seenForMs: orphanSeenMs, aliveAtEnd: alive(ocr.pid) } : null,
          restartToListeningMs: round(listeningMs, 0),
          restartToTakeOverMs: takeOverMs === null ? null : round(takeOverMs, 0),
          restartToAllDoneMs: round(allDoneMs, 0),
          finalStatuses: after,
          sigtermToExitMs: round(sigtermToExitMs, 0),
          exitCode,
          ocrChildAfterSigterm: child ? alive(child.pid) : null,
        },
        null,
        2,
      ),
    );
    if (ocr && alive(ocr.pid)) process.kill(ocr.pid, 'SIGKILL');
  } catch (error) {
    console.error(error, server ? `\n--- server:\n${server.output()}` : '');
    process.exitCode = 1;
  } finally {
    await server?.stop(5000);
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10 });
    await rm(pdfDir, { recursive: true, force: true, maxRetries: 10 });
  }
}

await main();
