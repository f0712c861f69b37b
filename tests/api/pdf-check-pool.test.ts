/**
 * The PDF check pool (src-server/storage/pdf-check-pool.ts) with real worker threads: the server's
 * worker checks bytes and paths and hands the bytes back without a copy; a check that runs past its time,
 * or whose worker exits or throws, refuses the file and the next check gets a new worker; a worker that
 * cannot start or never becomes ready sends every check, those waiting included, to the calling thread
 * for good; a check goes to the worker with the fewest waiting. The faults come from small stand-in
 * workers (plain JavaScript speaking pdf-check-worker.ts's protocol) given as the pool's `start`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PdfCheckPool, type PdfCheckPoolOptions } from '../../src-server/storage/pdf-check-pool';
import { encryptedPdf, minimalPdf, ownerLockedPdf, pdfWith } from './support/files';
import * as standIns from './support/stand-in-workers';
import { within } from './support/within';

/**
 * A stand-in worker: ready at once (unless `ready: false`), then by the request's path — 'hang' never
 * answers, 'crash' exits, 'throw' throws outside any handler, 'fail' answers an error, 'slow' answers
 * after a second — and otherwise answers at once that the file is a PDF of as many pages as its thread's
 * id (so a test knows which worker answered), handing bytes back as the real worker does.
 */
function standIn(opts: { ready?: boolean } = {}): string {
  return `
    const { parentPort, threadId } = require('node:worker_threads');
    parentPort.on('message', (request) => {
      switch (request.path) {
        case 'hang': return;
        case 'crash': process.exit(1);
        case 'throw': setImmediate(() => { throw new Error('thrown in the worker'); }); return;
        case 'fail': parentPort.postMessage({ id: request.id, error: 'failed' }); return;
      }
      setTimeout(() => {
        const verdict = { ok: true, pages: threadId };
        if (request.bytes)
          parentPort.postMessage({ id: request.id, verdict, bytes: request.bytes }, [request.bytes.buffer]);
        else parentPort.postMessage({ id: request.id, verdict });
      }, request.path === 'slow' ? 1000 : 0);
    });
    ${opts.ready === false ? '' : 'parentPort.postMessage({ ready: true });'}
  `;
}

/** A worker that exits before it is ready (as the real one does where pdf.js cannot be loaded). */
const exitsAtOnce = 'process.exit(1);';

/** A pool closed after the test; long limits unless given. */
function pool(options: Partial<PdfCheckPoolOptions> = {}): PdfCheckPool {
  return standIns.closedAfterTest(
    new PdfCheckPool({ size: 1, timeoutMs: 30_000, startupTimeoutMs: 30_000, ...options }),
  );
}

/** Bytes with an ArrayBuffer of their own (what the pool transfers rather than copies). */
const own = (bytes: Buffer) => new Uint8Array(bytes);
const text = () => own(Buffer.from('plain text, not a PDF\n'.repeat(20)));

afterEach(standIns.endPoolsAndWorkers);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sijill-pdf-pool-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the server’s worker (default start)', () => {
  // pdf.js loads in the worker under tsx: a few seconds on a busy machine, hence the generous limits.
  const real = () => pool({ size: 1, timeoutMs: 60_000, startupTimeoutMs: 60_000 });

  it('checks bytes there and hands them back without a copy, then a file by its path', async () => {
    const checker = real();
    const content = minimalPdf('by bytes');
    const bytes = own(content);
    const answer = await checker.check({ bytes });
    expect(answer.verdict).toEqual({ ok: true, pages: 1 });
    // Transferred, not copied: the bytes given are detached, the ones answered are the file.
    expect(bytes.byteLength).toBe(0);
    expect(answer.bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(answer.bytes!).equals(content)).toBe(true);

    const path = join(dir, 'valid.pdf');
    await writeFile(path, minimalPdf('by path'));
    const byPath = await checker.check({ path });
    expect(byPath.verdict).toEqual({ ok: true, pages: 1 });
    expect(byPath.bytes).toBeUndefined();
  });

  it('copies bytes that share their buffer (Node’s pool) instead of detaching it', async () => {
    const checker = real();
    const shared = minimalPdf('pooled'); // a small Buffer: a slice of Node's shared allocation
    expect(shared.byteLength).toBeLessThan(shared.buffer.byteLength);
    const before = Buffer.from(shared);
    const answer = await checker.check({ bytes: shared });
    expect(answer.verdict).toEqual({ ok: true, pages: 1 });
    expect(shared.equals(before)).toBe(true);
    expect(Buffer.from(answer.bytes!).equals(before)).toBe(true);
  });

  it('refuses a file that is not a PDF, one with active content and an encrypted one', async () => {
    const checker = real();
    const [notPdf, active, encrypted] = await Promise.all([
      checker.check({ bytes: text() }),
      checker.check({
        bytes: own(
          pdfWith({ catalog: '/OpenAction 5 0 R', objects: ['<< /S /JavaScript /JS (app.alert(1)) >>'] }),
        ),
      }),
      checker.check({ bytes: own(encryptedPdf()) }),
    ]);
    expect(notPdf.verdict).toEqual({ ok: false, reason: 'notPdf' });
    expect(active.verdict).toMatchObject({ ok: false, reason: 'activeContent' });
    expect(encrypted.verdict).toEqual({ ok: false, reason: 'encrypted' });
  });

  it('takes a PDF whose password restricts only printing or copying (it opens without one)', async () => {
    const answer = await real().check({ bytes: own(ownerLockedPdf()) });
    expect(answer.verdict).toEqual({ ok: true, pages: 1 });
  });
});

describe('a worker that fails while checking', () => {
  it('a check past its time is refused, its worker ended, and the next check gets a new worker', async () => {
    const checker = pool({ timeoutMs: 300, start: standIns.starting(standIn()) });
    const began = Date.now();
    const hung = await within(checker.check({ path: 'hang' }), 5_000, 'the hanging check');
    expect(hung.verdict).toEqual({ ok: false, reason: 'notPdf' });
    expect(Date.now() - began).toBeGreaterThanOrEqual(250);
    expect(standIns.started).toHaveLength(1);
    await within(standIns.exit(standIns.started[0]!), 5_000, 'the hung worker’s exit');

    const next = await within(checker.check({ path: 'next' }), 5_000, 'the next check');
    expect(standIns.started).toHaveLength(2);
    expect(next.verdict).toEqual({ ok: true, pages: standIns.started[1]!.threadId });
  });

  it.each(['crash', 'throw'])(
    'a worker that ends (%s) refuses every file it was checking; the next check gets a new worker',
    async (fault) => {
      const checker = pool({ start: standIns.starting(standIn()) });
      const [waiting, failing] = await within(
        Promise.all([checker.check({ path: 'hang' }), checker.check({ path: fault })]),
        5_000,
        'the checks of the failing worker',
      );
      expect(waiting.verdict).toEqual({ ok: false, reason: 'notPdf' });
      expect(failing.verdict).toEqual({ ok: false, reason: 'notPdf' });
      expect(standIns.started).toHaveLength(1);

      const next = await within(checker.check({ path: 'next' }), 5_000, 'the next check');
      expect(standIns.started).toHaveLength(2);
      expect(next.verdict).toEqual({ ok: true, pages: standIns.started[1]!.threadId });
    },
  );

  it('a check that fails in a worker is refused, and the worker keeps checking', async () => {
    const checker = pool({ start: standIns.starting(standIn()) });
    const failed = await within(checker.check({ path: 'fail' }), 5_000, 'the failing check');
    expect(failed.verdict).toEqual({ ok: false, reason: 'notPdf' });
    const next = await within(checker.check({ path: 'next' }), 5_000, 'the next check');
    expect(standIns.started).toHaveLength(1);
    expect(next.verdict).toEqual({ ok: true, pages: standIns.started[0]!.threadId });
  });
});

describe('no worker to check in: the calling thread checks, for good', () => {
  /** A valid PDF and a text file, as bytes and as paths: the real verdicts, found in this thread. */
  async function inThread(checker: PdfCheckPool) {
    const pdfPath = join(dir, 'here.pdf');
    const textPath = join(dir, 'here.txt');
    await writeFile(pdfPath, minimalPdf('here'));
    await writeFile(textPath, 'not a PDF');
    const pdf = own(minimalPdf('here'));
    const plain = text();
    const answers = await within(
      Promise.all([
        checker.check({ bytes: pdf }),
        checker.check({ bytes: plain }),
        checker.check({ path: pdfPath }),
        checker.check({ path: textPath }),
      ]),
      20_000,
      'the checks in this thread',
    );
    expect(answers.map((answer) => answer.verdict)).toEqual([
      { ok: true, pages: 1 },
      { ok: false, reason: 'notPdf' },
      { ok: true, pages: 1 },
      { ok: false, reason: 'notPdf' },
    ]);
    // Checked here, not transferred: the caller keeps its bytes, handed back as they were.
    expect(pdf.byteLength).toBeGreaterThan(0);
    expect(answers[0]!.bytes).toBe(pdf);
    expect(answers[1]!.bytes).toBe(plain);
  }

  it('a worker never ready: the checks waiting for it and later ones, and no worker is started again', async () => {
    const checker = pool({
      size: 2,
      startupTimeoutMs: 300,
      start: standIns.starting(standIn({ ready: false })),
    });
    // Both go to the first worker's queue or start the second: either way, they wait for a worker.
    const waiting = [checker.check({ bytes: own(minimalPdf('queued')) }), checker.check({ bytes: text() })];
    const began = Date.now();
    const answers = await within(Promise.all(waiting), 20_000, 'the queued checks');
    expect(Date.now() - began).toBeGreaterThanOrEqual(250);
    expect(answers.map((answer) => answer.verdict)).toEqual([
      { ok: true, pages: 1 },
      { ok: false, reason: 'notPdf' },
    ]);
    const starts = await standIns.allStartedExited();
    expect(starts).toBeGreaterThanOrEqual(1);

    await inThread(checker);
    checker.warm();
    expect(standIns.started).toHaveLength(starts);
  });

  it('a worker that exits before it is ready: the same', async () => {
    const checker = pool({ start: standIns.starting(exitsAtOnce) });
    const answer = await within(checker.check({ bytes: own(minimalPdf('queued')) }), 20_000, 'the check');
    expect(answer.verdict).toEqual({ ok: true, pages: 1 });
    await inThread(checker);
    expect(standIns.started).toHaveLength(1);
  });

  it('a worker that cannot be started: the same', async () => {
    const missing = standIns.cannotStart('pdf-check-worker.js not found');
    const checker = pool({ size: 2, start: missing.start });
    await inThread(checker);
    await inThread(checker);
    checker.warm();
    expect(missing.calls()).toBe(1);
  });
});

describe('which worker checks', () => {
  it('two checks at once go to different workers', async () => {
    const checker = pool({ size: 2, start: standIns.starting(standIn()) });
    const [first, second] = await within(
      Promise.all([checker.check({ path: 'slow' }), checker.check({ path: 'slow' })]),
      5_000,
      'the two checks',
    );
    expect(standIns.started).toHaveLength(2);
    const threads = standIns.started.map((worker) => worker.threadId).sort((a, b) => a - b);
    const pages = [first.verdict, second.verdict].map((v) => (v.ok ? v.pages : 0));
    expect(pages.sort((a, b) => a - b)).toEqual(threads);
  });

  it('a check goes to the worker with the fewest waiting, not the next in turn', async () => {
    const checker = pool({ size: 2, start: standIns.starting(standIn()) });
    const slow = checker.check({ path: 'slow' }); // the first worker, busy for a second
    const quick = await within(checker.check({ path: 'quick' }), 5_000, 'the quick check');
    expect(quick.verdict).toEqual({ ok: true, pages: standIns.started[1]!.threadId });
    // The first worker still has the slow one waiting: the second, now idle, gets this one too.
    const again = await within(checker.check({ path: 'quick' }), 5_000, 'the next quick check');
    expect(again.verdict).toEqual({ ok: true, pages: standIns.started[1]!.threadId });
    expect((await slow).verdict).toEqual({ ok: true, pages: standIns.started[0]!.threadId });
  });
});

describe('how many workers, and for how long', () => {
  it('a worker idle past idleMs ends, not as a failure, and the next check starts a new one', async () => {
    const checker = pool({ idleMs: 200, start: standIns.starting(standIn()) });
    const first = await within(checker.check({ path: 'quick' }), 5_000, 'the first check');
    expect(first.verdict).toEqual({ ok: true, pages: standIns.started[0]!.threadId });
    await within(standIns.exit(standIns.started[0]!), 5_000, 'the idle worker’s exit');
    const second = await within(checker.check({ path: 'quick' }), 5_000, 'the check after it');
    expect(standIns.started).toHaveLength(2);
    expect(second.verdict).toEqual({ ok: true, pages: standIns.started[1]!.threadId });
  });

  it('a worker with a check under way is not ended for idling, however long the check', async () => {
    const checker = pool({ idleMs: 100, start: standIns.starting(standIn()) });
    const slow = await within(checker.check({ path: 'slow' }), 5_000, 'the slow check');
    expect(slow.verdict).toEqual({ ok: true, pages: standIns.started[0]!.threadId });
    expect(standIns.exited.has(standIns.started[0]!)).toBe(false);
  });

  it('resized down, the workers beyond take no more checks and end once their checks are answered', async () => {
    const checker = pool({ size: 2, start: standIns.starting(standIn()) });
    const slow = checker.check({ path: 'slow' });
    await within(checker.check({ path: 'quick' }), 5_000, 'the quick check'); // the second worker
    expect(standIns.started).toHaveLength(2);
    const [first, second] = standIns.started as [Worker, Worker];
    checker.resize(1);
    await within(standIns.exit(second), 5_000, 'the second worker’s exit');
    expect(standIns.exited.has(first)).toBe(false);
    expect((await slow).verdict).toEqual({ ok: true, pages: first.threadId });
    // Both go to the first worker now, one after the other, and no worker is started.
    const later = await within(
      Promise.all([checker.check({ path: 'quick' }), checker.check({ path: 'quick' })]),
      5_000,
      'the checks after the resize',
    );
    expect(later.map((answer) => answer.verdict)).toEqual([
      { ok: true, pages: first.threadId },
      { ok: true, pages: first.threadId },
    ]);
    expect(standIns.started).toHaveLength(2);
  });
});
