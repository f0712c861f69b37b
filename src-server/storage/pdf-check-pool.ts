/**
 * Uploaded PDFs are checked in worker threads (pdf-check-worker.ts), not on the thread that answers
 * requests (and, on the embedded database, runs the database): a scanning station's burst kept that
 * thread busy, and pdf.js was a sixth of it (bench/station). The workers also keep pdf.js and its
 * garbage out of the server's heap, and bound what a hostile file can do: a check that runs away past
 * its time or memory ends its worker (the file is refused as not a valid PDF) instead of the server.
 *
 * One worker for every core but the one the server's own thread uses (at least one, at most four), each
 * started on first use and kept, holding the process open only while it has checks to answer: a server,
 * a benchmark or a command that is done ends with its workers idle, however many files they checked
 * (they kept bench/load, bench/correspondence and bench/pdf-viewer alive after their results). A check goes to the worker with the
 * fewest waiting. Bytes in memory travel to the worker and back without a copy (transferred). Where no
 * worker can be started at all (a deployment without the script, or one that never becomes ready), the
 * checks run in this thread.
 *
 * The pool itself (`PdfCheckPool`) is exported with its size, limits and the way it starts a worker as
 * options, so tests can run it with short limits and small stand-in workers; the server uses the one
 * made here, through `checkPdfInWorker` and `warmPdfCheckWorkers`.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../entry';
import { observePdfCheck } from '../process-metrics';
import { checkPdf, type PdfSource, type PdfVerdict } from './pdf-check';
import type { PdfCheckReply, PdfCheckRequest } from './pdf-check-worker';

/** A check longer than this ends its worker and refuses the file (pdf.js spinning on a hostile file). */
const CHECK_TIMEOUT_MS = 120_000;
/** A worker not ready (pdf.js loaded) this long after it was started is taken for one that cannot start. */
const STARTUP_TIMEOUT_MS = 60_000;
/** The heap a worker may grow to before V8 ends it (the file it was checking is refused). */
const WORKER_HEAP_MB = 512;

/** How a pool is made (the server's: see the bottom of this file). */
export interface PdfCheckPoolOptions {
  /** How many workers at most (each started on first use). */
  size: number;
  /** A check longer than this ends its worker and refuses the file (CHECK_TIMEOUT_MS for the server). */
  timeoutMs: number;
  /** A worker not ready this long after it was started: the checks run in this thread for good. */
  startupTimeoutMs: number;
  /**
   * Starts a worker that speaks pdf-check-worker.ts's protocol (`{ ready: true }` once it can check, then
   * a reply to each request); it may throw when none can be started here. Default: pdf-check-worker.ts,
   * its heap bounded to WORKER_HEAP_MB.
   */
  start?: () => Worker;
}

/** The worker the server checks in: the script beside this module, its heap bounded. */
function startCheckWorker(): Worker {
  return startWorker(import.meta.url, 'pdf-check-worker', {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
}

interface Pending {
  resolve(answer: { verdict: PdfVerdict; bytes?: Uint8Array }): void;
  timer: NodeJS.Timeout | null;
}

/** A check waiting for its worker to come up (its bytes are sent only to a worker that is there). */
interface Queued {
  source: PdfSource;
  resolve(answer: { verdict: PdfVerdict; bytes?: Uint8Array }): void;
}

interface Slot {
  worker: Worker;
  /** Set by the worker's first message, once pdf.js is loaded there. */
  ready: boolean;
  queued: Queued[];
  pending: Map<number, Pending>;
}

/**
 * A worker holds the process open while it has checks waiting or under way, and not while it idles: a
 * pending check is answered before the process may end, and an idle pool never keeps it running.
 */
function holdWhileBusy(slot: Slot): void {
  if (slot.pending.size + slot.queued.length > 0) slot.worker.ref();
  else slot.worker.unref();
}

/** A file whose check ended its worker (or failed in it): refused as not a valid PDF. */
const refused = { verdict: { ok: false, reason: 'notPdf' } as PdfVerdict };

/** Worker threads that check PDFs (see the file's header); the server has one (`checkPdfInWorker`). */
export class PdfCheckPool {
  private readonly slots: (Slot | null)[];
  private readonly timeoutMs: number;
  private readonly startupTimeoutMs: number;
  private readonly start: () => Worker;
  private nextId = 1;
  /** Set once a worker could not be started at all: the checks run in this thread from then on. */
  private inThread = false;

  constructor(options: PdfCheckPoolOptions) {
    this.slots = Array.from({ length: options.size }, () => null);
    this.timeoutMs = options.timeoutMs;
    this.startupTimeoutMs = options.startupTimeoutMs;
    this.start = options.start ?? startCheckWorker;
  }

  /** Starts the workers now (a server calls it as it starts), so the first upload waits for none. */
  warm(): void {
    // Not once the checks run here: a worker could not start, and a server started again (tests start
    // many in one process) would only start ones that are never used.
    for (let i = 0; i < this.slots.length && !this.inThread; i++) this.slot(i);
  }

  /**
   * Checks a PDF. Bytes are transferred to the worker and handed back with the verdict (use the ones
   * answered: the ones given are detached).
   */
  check(source: PdfSource): Promise<{ verdict: PdfVerdict; bytes?: Uint8Array }> {
    if (this.inThread) return this.checkHere(source);
    const index = this.quietest();
    const slot = this.slot(index);
    if (!slot) return this.checkHere(source);
    return new Promise((resolve) => {
      if (slot.ready) this.send(index, slot, source, resolve);
      else slot.queued.push({ source, resolve });
      holdWhileBusy(slot);
    });
  }

  private send(
    index: number,
    slot: Slot,
    source: PdfSource,
    resolve: (answer: { verdict: PdfVerdict; bytes?: Uint8Array }) => void,
  ): void {
    const id = this.nextId++;
    const pending: Pending = { resolve, timer: null };
    // Runs away: the worker goes with it, and the file is refused.
    pending.timer = setTimeout(() => this.drop(index, slot), this.timeoutMs);
    slot.pending.set(id, pending);
    const request: PdfCheckRequest = { id };
    if ('bytes' in source) {
      const { bytes } = source;
      // Only a buffer of its own can be transferred (a small one may share Node's pool): else a copy.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      request.bytes = own ? bytes : new Uint8Array(bytes);
      slot.worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    } else {
      request.path = source.path;
      slot.worker.postMessage(request);
    }
  }

  /** In this thread: pdf.js takes the bytes over, so it gets a copy and the caller keeps them. */
  private async checkHere(source: PdfSource): Promise<{ verdict: PdfVerdict; bytes?: Uint8Array }> {
    if ('path' in source) return { verdict: await checkPdf(source) };
    return { verdict: await checkPdf({ bytes: new Uint8Array(source.bytes) }), bytes: source.bytes };
  }

  private quietest(): number {
    const load = (slot: Slot | null) => (slot ? slot.pending.size + slot.queued.length : 0);
    let best = 0;
    for (let i = 1; i < this.slots.length; i++) if (load(this.slots[i]!) < load(this.slots[best]!)) best = i;
    return best;
  }

  /**
   * No worker can be had here: the checks run in this thread from now on. Said once, as a process
   * warning (the server's log shows it), since the answers are the same and nothing else would show it.
   */
  private checkInThread(why: unknown): void {
    if (this.inThread) return;
    this.inThread = true;
    process.emitWarning(
      `PDF checks run in the server's own thread: no worker thread (${String((why as Error)?.message ?? why)})`,
      { code: 'SIJILL_PDF_CHECK_IN_THREAD' },
    );
  }

  /** The worker of slot `index`, started if it is not running; null when none can be started here. */
  private slot(index: number): Slot | null {
    const existing = this.slots[index];
    if (existing) return existing;
    let worker: Worker;
    try {
      worker = this.start();
    } catch (error) {
      this.checkInThread(error);
      return null;
    }
    const slot: Slot = { worker, ready: false, queued: [], pending: new Map() };
    // A worker that does not come up in time is taken for one that cannot: the checks run here.
    const startup = setTimeout(() => this.drop(index, slot), this.startupTimeoutMs);
    startup.unref();
    worker.on('message', (reply: PdfCheckReply | { ready: true }) => {
      if ('ready' in reply) {
        clearTimeout(startup);
        slot.ready = true;
        for (const { source, resolve } of slot.queued.splice(0)) this.send(index, slot, source, resolve);
        return;
      }
      const pending = slot.pending.get(reply.id);
      if (!pending) return;
      slot.pending.delete(reply.id);
      if (pending.timer) clearTimeout(pending.timer);
      if ('error' in reply) pending.resolve(refused);
      else pending.resolve({ verdict: reply.verdict, ...(reply.bytes ? { bytes: reply.bytes } : {}) });
      holdWhileBusy(slot);
    });
    worker.on('error', () => this.drop(index, slot));
    worker.on('exit', () => {
      clearTimeout(startup);
      this.drop(index, slot);
    });
    // After the listeners: adding a 'message' listener to a Worker refs it again (Node 24), and a
    // worker left referenced kept every process that had checked a file alive after its work.
    holdWhileBusy(slot);
    this.slots[index] = slot;
    return slot;
  }

  /**
   * A worker that failed or ended. One that never came up (no script, no loader here): the checks run
   * in this thread from now on, those waiting included. One that was working: the files it was checking
   * are refused (one of them may be why), and the next check starts a new one.
   */
  private drop(index: number, slot: Slot): void {
    if (this.slots[index] !== slot) return;
    this.slots[index] = null;
    if (!slot.ready) this.checkInThread(new Error('the PDF check worker did not come up'));
    for (const { source, resolve } of slot.queued.splice(0)) void this.checkHere(source).then(resolve);
    for (const pending of slot.pending.values()) {
      if (pending.timer) clearTimeout(pending.timer);
      pending.resolve(refused);
    }
    slot.pending.clear();
    void slot.worker.terminate().catch(() => undefined);
  }

  /**
   * Ends the workers (tests: the workers do not hold the process open, but a test ends what it started).
   * Checks still waiting in them are refused; that a worker was closed does not send the pool to this
   * thread, and a later check starts a new one.
   */
  async close(): Promise<void> {
    const open = this.slots.filter((slot): slot is Slot => slot !== null);
    // Taken out first: their exits are then not failures (drop ignores a slot no longer in the pool).
    this.slots.fill(null);
    for (const slot of open) {
      for (const { resolve } of slot.queued.splice(0)) resolve(refused);
      for (const pending of slot.pending.values()) {
        if (pending.timer) clearTimeout(pending.timer);
        pending.resolve(refused);
      }
      slot.pending.clear();
    }
    await Promise.all(open.map((slot) => slot.worker.terminate().catch(() => undefined)));
  }
}

const pool = new PdfCheckPool({
  size: Math.max(1, Math.min(4, availableParallelism() - 1)),
  timeoutMs: CHECK_TIMEOUT_MS,
  startupTimeoutMs: STARTUP_TIMEOUT_MS,
});

/** Checks a PDF in a worker thread (see the file's header). */
export async function checkPdfInWorker(
  source: PdfSource,
): Promise<{ verdict: PdfVerdict; bytes?: Uint8Array }> {
  const started = performance.now();
  const answer = await pool.check(source);
  observePdfCheck((performance.now() - started) / 1000, answer.verdict.ok ? 'ok' : answer.verdict.reason);
  return answer;
}

/** Starts the PDF check workers (the server calls it as it starts). */
export function warmPdfCheckWorkers(): void {
  pool.warm();
}
