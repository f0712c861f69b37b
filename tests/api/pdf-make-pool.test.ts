/**
 * The PDF making pool (src-server/pdf-making/pdf-make-pool.ts) with real worker threads: the server's
 * worker makes the certificate of destruction (the very bytes this thread makes) and a report's PDF from
 * rows sent as it asks for them, its progress heard in order; a progress that throws (a job aborted) fails
 * the task and closes its rows; a worker silent past its time, or that exits or throws, fails its tasks and
 * the next task gets a new worker; a task that fails in a worker fails alone; a worker that cannot start or
 * never becomes ready sends every task, those waiting included, to the calling thread for good. The faults
 * come from small stand-in workers (plain JavaScript speaking pdf-make-worker.ts's protocol). Last, the
 * server answers requests while a large certificate is being made (in order, not in time).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReportCell, ReportColumn } from '../../src-shared/api/reports';
import { certificatePdf } from '../../src-server/modules/records/certificate';
import { makePdf, PdfMakePool, type PdfMakePoolOptions } from '../../src-server/pdf-making/pdf-make-pool';
import { destroyedFile } from './support/disposition';
import { startHarness } from './support/harness';
import * as standIns from './support/stand-in-workers';
import { within } from './support/within';

/**
 * A stand-in worker: ready at once (unless `ready: false`), then by the input's `mode` — 'hang' never
 * answers, 'crash' exits, 'throw' throws outside any handler, 'fail' answers an error, 'chatty' tells its
 * progress every 20 ms until it is cancelled (then says so) — and otherwise answers at once with bytes
 * naming its thread (so a test knows which worker answered).
 */
function standIn(opts: { ready?: boolean } = {}): string {
  return `
    const { parentPort, threadId } = require('node:worker_threads');
    const chatty = new Map();
    parentPort.on('message', (request) => {
      if (request.type === 'cancel') {
        clearInterval(chatty.get(request.id));
        parentPort.postMessage({ type: 'cancelled', id: request.id });
        return;
      }
      if (request.type !== 'run') return;
      const { id } = request;
      switch (request.input.mode) {
        case 'hang': return;
        case 'crash': process.exit(1);
        case 'throw': setImmediate(() => { throw new Error('thrown in the worker'); }); return;
        case 'fail': parentPort.postMessage({ type: 'error', id, error: 'failed' }); return;
        case 'chatty': {
          let done = 0;
          chatty.set(id, setInterval(() => parentPort.postMessage({ type: 'progress', id, done: ++done }), 20));
          return;
        }
      }
      const bytes = new TextEncoder().encode('thread ' + threadId);
      parentPort.postMessage({ type: 'done', id, made: { bytes, rows: 0 } }, [bytes.buffer]);
    });
    ${opts.ready === false ? '' : 'parentPort.postMessage({ ready: true });'}
  `;
}

/** A pool closed after the test; long limits unless given. */
function pool(options: Partial<PdfMakePoolOptions> = {}): PdfMakePool {
  return standIns.closedAfterTest(
    new PdfMakePool({ size: 1, timeoutMs: 30_000, startupTimeoutMs: 30_000, ...options }),
  );
}

/** A stand-in's task: the input by its mode (the pool's types are the real tasks'). */
const standInTask = (p: PdfMakePool, mode: string) => p.make('certificate', { mode } as never);
const threadOf = (bytes: Uint8Array) => Number(/^thread (\d+)$/.exec(Buffer.from(bytes).toString())?.[1]);

afterEach(standIns.endPoolsAndWorkers);

const COLUMNS: ReportColumn[] = [
  { key: 'docNumber', type: 'text' },
  { key: 'subject', type: 'text' },
  { key: 'daysLate', type: 'days' },
];
const HEADING = { title: 'Overdue items', lines: ['Period'], headers: ['Number', 'Subject', 'Days late'] };
const BATCH = 50;

/** `total` report rows in batches of BATCH, counting the batches handed out and whether it was closed. */
function reportRows(total: number) {
  const seen = { batches: 0, closed: false };
  const batches = (async function* () {
    try {
      for (let i = 0; i < total; i += BATCH) {
        seen.batches++;
        yield Array.from({ length: Math.min(BATCH, total - i) }, (_, j): ReportCell[] => [
          `OUT-${i + j + 1}`,
          `Letter ${i + j + 1}`,
          (i + j) % 40,
        ]);
      }
    } finally {
      seen.closed = true;
    }
  })();
  return { seen, batches };
}

describe('the server’s worker (default start)', () => {
  // The worker loads under tsx: seconds on a busy machine, hence the generous limits.
  const real = () => pool({ size: 1, timeoutMs: 120_000, startupTimeoutMs: 120_000 });

  it('makes the certificate there — the bytes this thread makes — its progress heard in order', async () => {
    const d = destroyedFile(300);
    const heard: number[] = [];
    const made = await real().make('certificate', d, {
      onProgress: async (set) => void heard.push(set),
    });
    expect(made.rows).toBe(300);
    expect(Buffer.from(made.bytes).equals(Buffer.from(await certificatePdf(d)))).toBe(true);
    expect(heard.length).toBeGreaterThan(0);
    expect(heard).toEqual([...heard].sort((a, b) => a - b));
    expect(new Set(heard).size).toBe(heard.length);
    // Progress tells sets done before the last: never the whole record (the answer says that).
    expect(heard.every((set) => set < made.rows)).toBe(true);
  });

  it('prints a report from rows sent as it asks for them, never more than two batches ahead', async () => {
    const rows = 1_000;
    const { seen, batches } = reportRows(rows);
    const ahead: number[] = [];
    const made = await real().make(
      'reportPdf',
      { lang: 'en', heading: HEADING, columns: COLUMNS, total: rows },
      { batches, onProgress: async (written) => void ahead.push(seen.batches * BATCH - written) },
    );
    expect(made.rows).toBe(rows);
    expect(seen.closed).toBe(true);
    expect(ahead.length).toBeGreaterThan(0);
    expect(Math.max(...ahead)).toBeLessThanOrEqual(2 * BATCH);
    const dir = mkdtempSync(join(tmpdir(), 'pdf-make-'));
    try {
      writeFileSync(join(dir, 'report.pdf'), made.bytes);
      const text = execFileSync('pdftotext', [join(dir, 'report.pdf'), '-'], { encoding: 'utf8' });
      expect(text).toContain('Overdue items');
      expect(text).toContain('Letter 1000');
      expect(text).toMatch(/Page 1 of \d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a progress that throws (the job aborted) fails the task and closes its rows; the worker goes on', async () => {
    const maker = real();
    const { seen, batches } = reportRows(2_000);
    const aborted = new Error('aborted');
    let calls = 0;
    await expect(
      maker.make(
        'reportPdf',
        { lang: 'ar', heading: HEADING, columns: COLUMNS, total: 2_000 },
        {
          batches,
          onProgress: async () => {
            if (++calls === 2) throw aborted;
          },
        },
      ),
    ).rejects.toBe(aborted);
    expect(seen.closed).toBe(true);
    expect(seen.batches).toBeLessThan(2_000 / BATCH);
    const next = await maker.make('certificate', destroyedFile(3));
    expect(next.rows).toBe(3);
  });
});

describe('a worker that fails while making', () => {
  it('a worker silent past its time fails its task, is ended, and the next task gets a new worker', async () => {
    const maker = pool({ timeoutMs: 300, start: standIns.starting(standIn()) });
    await expect(within(standInTask(maker, 'hang'), 5_000, 'the hanging task')).rejects.toThrow(
      /did not answer in time/,
    );
    expect(standIns.started).toHaveLength(1);
    await within(standIns.exit(standIns.started[0]!), 5_000, 'the silent worker’s exit');
    const next = await within(standInTask(maker, 'next'), 5_000, 'the next task');
    expect(standIns.started).toHaveLength(2);
    expect(threadOf(next.bytes)).toBe(standIns.started[1]!.threadId);
  });

  it('a worker telling its progress is not silent: its task runs past the time, until it is given up', async () => {
    const maker = pool({ timeoutMs: 200, start: standIns.starting(standIn()) });
    const cancelled = new Promise((resolve) =>
      maker
        .make('certificate', { mode: 'chatty' } as never, {
          onProgress: async (done) => {
            if (done === 30) throw new Error('given up'); // 600 ms: three times its time
          },
        })
        .catch(resolve),
    );
    expect(String(await within(cancelled, 5_000, 'the chatty task'))).toContain('given up');
    // The worker was told, and lives on.
    const told = await within(
      new Promise((resolve) =>
        standIns.started[0]!.on('message', (m: { type: string }) => m.type === 'cancelled' && resolve(m)),
      ),
      5_000,
      'the cancel',
    );
    expect(told).toMatchObject({ type: 'cancelled' });
    expect(standIns.exited.has(standIns.started[0]!)).toBe(false);
  });

  it.each(['crash', 'throw'])(
    'a worker that ends (%s) fails every task it had; the next task gets a new worker',
    async (fault) => {
      const maker = pool({ start: standIns.starting(standIn()) });
      const results = await within(
        Promise.allSettled([standInTask(maker, 'hang'), standInTask(maker, fault)]),
        5_000,
        'the tasks of the failing worker',
      );
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      const next = await within(standInTask(maker, 'next'), 5_000, 'the next task');
      expect(standIns.started).toHaveLength(2);
      expect(threadOf(next.bytes)).toBe(standIns.started[1]!.threadId);
    },
  );

  it('a task that fails in a worker fails alone, and the worker goes on', async () => {
    const maker = pool({ start: standIns.starting(standIn()) });
    await expect(within(standInTask(maker, 'fail'), 5_000, 'the failing task')).rejects.toThrow(/failed/);
    const next = await within(standInTask(maker, 'next'), 5_000, 'the next task');
    expect(standIns.started).toHaveLength(1);
    expect(threadOf(next.bytes)).toBe(standIns.started[0]!.threadId);
  });
});

describe('no worker to make in: the calling thread makes, for good', () => {
  const d = destroyedFile(20);
  let expected: Buffer;
  const inThread = async (maker: PdfMakePool) => {
    expected ??= Buffer.from(await certificatePdf(d));
    const heard: number[] = [];
    const made = await within(
      maker.make('certificate', d, { onProgress: async (set) => void heard.push(set) }),
      20_000,
      'the certificate in this thread',
    );
    expect(Buffer.from(made.bytes).equals(expected)).toBe(true);
    // Here every step is told (awaited: where the task gives way to requests).
    expect(heard).toEqual([10]);
  };

  it('a worker never ready: the tasks waiting for it and later ones, and no worker is started again', async () => {
    const maker = pool({
      size: 2,
      startupTimeoutMs: 300,
      start: standIns.starting(standIn({ ready: false })),
    });
    await inThread(maker);
    const starts = await standIns.allStartedExited();
    expect(starts).toBeGreaterThanOrEqual(1);
    await inThread(maker);
    expect(standIns.started).toHaveLength(starts);
  });

  it('a worker that exits before it is ready: the same', async () => {
    const maker = pool({ start: standIns.starting('process.exit(1);') });
    await inThread(maker);
    await inThread(maker);
    expect(standIns.started).toHaveLength(1);
  });

  it('a worker that cannot be started: the same', async () => {
    const missing = standIns.cannotStart('pdf-make-worker.js not found');
    const maker = pool({ size: 2, start: missing.start });
    await inThread(maker);
    await inThread(maker);
    expect(missing.calls()).toBe(1);
  });
});

describe('the server while a large certificate is made', () => {
  // 9 s on a quiet machine, over a minute with CI's two lanes and a browser on two cores: the time the
  // test may take is not what it checks.
  it('answers other requests between the certificate’s steps', { timeout: 240_000 }, async () => {
    const h = await startHarness();
    try {
      const events: string[] = [];
      let making = true;
      const certificate = makePdf('certificate', destroyedFile(1_500), {
        onProgress: async (set) => void events.push(`progress ${set}`),
      }).finally(() => (making = false));
      const health = (async () => {
        // A request at a time, each after the thread has turned (as one from a socket would come: an
        // injected request alone is answered in microtasks, before any message from the worker), every
        // 10 ms — as a busy office's clients would, not as a flood that itself slows the certificate
        // (on a loaded CI machine it then outlasted the test's minute).
        for (let n = 0; making && n < 100_000; n++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          const res = await h.app.inject({ method: 'GET', url: '/health' });
          expect(res.statusCode).toBe(200);
          events.push('health');
        }
      })();
      const made = await certificate;
      await health;
      expect(made.rows).toBe(1_500);
      const first = events.findIndex((e) => e.startsWith('progress'));
      const last = events.findLastIndex((e) => e.startsWith('progress'));
      expect(first).toBeGreaterThanOrEqual(0);
      // Answered while the certificate was being set, not only before it began or after it was done: in
      // this thread no request is answered between its steps (they do not give way).
      expect(events.slice(first, last).filter((e) => e === 'health').length).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  });
});
