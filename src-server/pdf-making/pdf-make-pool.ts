/**
 * Heavy PDFs are made in worker threads (pdf-make-worker.ts), not on the thread that answers requests: the
 * certificate of destruction (records/certificate.ts) took about half a second of that thread for 1,000
 * documents and ten seconds for 10,000, and a report's PDF export (reports/pdf.ts) up to half a minute for
 * its 10,000 rows, during which no other request was answered (bench/pdf-making). What is made there is
 * a task of tasks.ts, by its name, from plain data; its progress comes back as it goes, a streamed task's
 * rows are sent over a batch at a time as it asks for them (the report's, from its database cursor: at
 * most two batches on their way or waiting), and the bytes come back transferred, not copied. Small PDFs
 * made per request stay where they are (labels, a final letter's stamp), but for a reader's watermarked copy
of an attachment, which may be hundreds of pages.
 *
 * Modelled on the PDF check pool (storage/pdf-check-pool.ts): a few workers (at most two: these tasks are
 * rare), each started on first use and kept, holding the process open only while it has tasks (a command
 * or a benchmark that is done ends with its workers idle); a task goes to the worker with the fewest; a
 * worker silent for longer than its time while it has tasks, or grown past its heap, is ended and its tasks
 * fail (the job that asked fails and is tried again); where no worker can be started at all (a deployment
 * without the script, or one that never becomes ready), the tasks run in this thread, as they did before.
 *
 * The pool (`PdfMakePool`) is exported with its size, limits and the way it starts a worker as options, so
 * tests can run it with short limits and stand-in workers; the server uses the one made here (`makePdf`).
 */
import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { ReportCell } from '../../src-shared/api/reports';
import { startWorker } from '../entry';
import type { PdfMakeReply, PdfMakeRequest } from './pdf-make-worker';
import { PDF_TASKS, type PdfMade, type PdfTaskInput, type PdfTaskIo, type PdfTaskName } from './tasks';

/**
 * A worker with tasks that says nothing for this long is ended, and its tasks fail (pdf-lib run away). Long:
 * a certificate's last step (its fonts subset, the PDF written) says nothing, and took minutes for 10,000
 * documents on a loaded machine; the jobs that ask have their own time limit besides.
 */
const SILENCE_TIMEOUT_MS = 10 * 60_000;
/** A worker not ready this long after it was started is taken for one that cannot start. */
const STARTUP_TIMEOUT_MS = 60_000;
/**
 * The heap a worker may grow to before V8 ends it (its tasks fail): as much as the server's own thread has,
 * where these PDFs were made before. pdf-lib holds a certificate's pages until it is saved, and 10,000
 * documents needed more than a gigabyte (bench/pdf-making).
 */
const WORKER_HEAP_MB = Math.round(getHeapStatistics().heap_size_limit / (1024 * 1024));

/** How a pool is made (the server's: see the bottom of this file). */
export interface PdfMakePoolOptions {
  /** How many workers at most (each started on first use). */
  size: number;
  /** A worker with tasks silent this long is ended and its tasks fail (SILENCE_TIMEOUT_MS for the server). */
  timeoutMs: number;
  /** A worker not ready this long after it was started: the tasks run in this thread for good. */
  startupTimeoutMs: number;
  /**
   * Starts a worker that speaks pdf-make-worker.ts's protocol; it may throw when none can be started here.
   * Default: pdf-make-worker.ts, its heap bounded to WORKER_HEAP_MB.
   */
  start?: () => Worker;
}

/** What a task is given besides its input: both optional. */
export interface PdfMakeOptions {
  /** How far the task got (documents set, rows written); awaited one call at a time, the latest kept. */
  onProgress?: (done: number) => Promise<void>;
  /** The rows of a streamed task (the report's). */
  batches?: AsyncIterable<ReportCell[][]>;
}

function startMakeWorker(): Worker {
  return startWorker(import.meta.url, 'pdf-make-worker', {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
}

/** A task sent to a worker. */
interface Pending {
  resolve(made: PdfMade): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout | null;
  options: PdfMakeOptions;
  rows: AsyncIterator<ReportCell[][]> | null;
  /** The latest progress not yet told, and whether it is being told (`onProgress` runs one at a time). */
  progress: number | null;
  telling: Promise<void> | null;
}

/** A task waiting for its worker to come up. */
interface Queued {
  task: PdfTaskName;
  input: unknown;
  options: PdfMakeOptions;
  resolve(made: PdfMade): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  queued: Queued[];
  pending: Map<number, Pending>;
}

function holdWhileBusy(slot: Slot): void {
  if (slot.pending.size + slot.queued.length > 0) slot.worker.ref();
  else slot.worker.unref();
}

const noRows: AsyncIterable<ReportCell[][]> = { [Symbol.asyncIterator]: async function* () {} };

/** Worker threads that make PDFs (see the file's header); the server has one (`makePdf`). */
export class PdfMakePool {
  private readonly slots: (Slot | null)[];
  private readonly timeoutMs: number;
  private readonly startupTimeoutMs: number;
  private readonly start: () => Worker;
  private nextId = 1;
  /** Set once a worker could not be started at all: the tasks run in this thread from then on. */
  private inThread = false;

  constructor(options: PdfMakePoolOptions) {
    this.slots = Array.from({ length: options.size }, () => null);
    this.timeoutMs = options.timeoutMs;
    this.startupTimeoutMs = options.startupTimeoutMs;
    this.start = options.start ?? startMakeWorker;
  }

  /** Makes the PDF of task `task` from `input` (in a worker unless none can be had here). */
  make<N extends PdfTaskName>(
    task: N,
    input: PdfTaskInput<N>,
    options: PdfMakeOptions = {},
  ): Promise<PdfMade> {
    if (this.inThread) return this.makeHere(task, input, options);
    const index = this.quietest();
    const slot = this.slot(index);
    if (!slot) return this.makeHere(task, input, options);
    return new Promise((resolve, reject) => {
      if (slot.ready) this.send(index, slot, { task, input, options, resolve, reject });
      else slot.queued.push({ task, input, options, resolve, reject });
      holdWhileBusy(slot);
    });
  }

  /** In this thread, as before there were workers: progress awaited, so the task gives way as it goes. */
  private makeHere(task: PdfTaskName, input: unknown, options: PdfMakeOptions): Promise<PdfMade> {
    const make = PDF_TASKS[task] as (input: unknown, io: PdfTaskIo) => Promise<PdfMade>;
    return make(input, {
      progress: options.onProgress ?? (async () => undefined),
      batches: options.batches ?? noRows,
    });
  }

  private send(index: number, slot: Slot, q: Queued): void {
    const id = this.nextId++;
    const pending: Pending = {
      resolve: q.resolve,
      reject: q.reject,
      timer: null,
      options: q.options,
      rows: q.options.batches ? q.options.batches[Symbol.asyncIterator]() : null,
      progress: null,
      telling: null,
    };
    slot.pending.set(id, pending);
    this.heard(index, slot, pending);
    const request: PdfMakeRequest = {
      type: 'run',
      id,
      task: q.task,
      input: q.input,
      streamed: !!pending.rows,
    };
    slot.worker.postMessage(request);
  }

  /** The worker was heard from (or sent to) about `pending`: its silence is timed from now. */
  private heard(index: number, slot: Slot, pending: Pending): void {
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = setTimeout(
      () => this.drop(index, slot, new Error('the PDF worker did not answer in time')),
      this.timeoutMs,
    );
  }

  /** A task that failed here (its progress or its rows threw): the worker is told to give it up. */
  private fail(slot: Slot, id: number, error: unknown): void {
    const pending = slot.pending.get(id);
    if (!pending) return;
    slot.worker.postMessage({ type: 'cancel', id } satisfies PdfMakeRequest);
    void this.settle(slot, id, pending).then(() => pending.reject(error));
  }

  /**
   * Takes a task out of its worker's list (answered, failed or given up); resolves once its rows are closed
   * (the report's cursor), before the task is answered, as a `for await` over them would have.
   */
  private async settle(slot: Slot, id: number, pending: Pending): Promise<void> {
    slot.pending.delete(id);
    if (pending.timer) clearTimeout(pending.timer);
    pending.timer = null;
    holdWhileBusy(slot);
    await pending.rows?.return?.()?.catch(() => undefined);
  }

  /** Tells the caller the latest progress, one call at a time (a worker may say it faster than it is told). */
  private tell(slot: Slot, id: number, pending: Pending): void {
    const { onProgress } = pending.options;
    if (!onProgress || pending.telling) return;
    pending.telling = (async () => {
      while (pending.progress !== null && slot.pending.get(id) === pending) {
        const done = pending.progress;
        pending.progress = null;
        await onProgress(done);
      }
    })().then(
      () => void (pending.telling = null),
      (error: unknown) => {
        pending.telling = null;
        this.fail(slot, id, error);
      },
    );
  }

  /** The next batch of a streamed task's rows, sent to its worker (or the end of them). */
  private async feed(index: number, slot: Slot, id: number, pending: Pending): Promise<void> {
    try {
      const next = await pending.rows!.next();
      if (slot.pending.get(id) !== pending) return;
      const request: PdfMakeRequest = next.done
        ? { type: 'end', id }
        : { type: 'batch', id, rows: next.value };
      slot.worker.postMessage(request);
      // The rows may have been slow to come (the database): the worker's silence is timed from now.
      this.heard(index, slot, pending);
    } catch (error) {
      this.fail(slot, id, error);
    }
  }

  private async answer(index: number, slot: Slot, reply: PdfMakeReply): Promise<void> {
    const pending = slot.pending.get(reply.id);
    if (!pending) return;
    this.heard(index, slot, pending);
    switch (reply.type) {
      case 'progress':
        pending.progress = reply.done;
        this.tell(slot, reply.id, pending);
        return;
      case 'want':
        if (pending.rows) await this.feed(index, slot, reply.id, pending);
        return;
      case 'error':
        await this.settle(slot, reply.id, pending);
        pending.reject(new Error(`the PDF was not made: ${reply.error}`));
        return;
      case 'done':
        // The progress told so far is told before the task is answered.
        if (pending.telling) await pending.telling;
        if (slot.pending.get(reply.id) !== pending) return;
        await this.settle(slot, reply.id, pending);
        pending.resolve(reply.made);
        return;
    }
  }

  private quietest(): number {
    const load = (slot: Slot | null) => (slot ? slot.pending.size + slot.queued.length : 0);
    let best = 0;
    for (let i = 1; i < this.slots.length; i++) if (load(this.slots[i]!) < load(this.slots[best]!)) best = i;
    return best;
  }

  /** No worker can be had here: the tasks run in this thread from now on (said once, as a warning). */
  private makeInThread(why: unknown): void {
    if (this.inThread) return;
    this.inThread = true;
    process.emitWarning(
      `PDFs are made in the server's own thread: no worker thread (${String((why as Error)?.message ?? why)})`,
      { code: 'SIJILL_PDF_MAKE_IN_THREAD' },
    );
  }

  private slot(index: number): Slot | null {
    const existing = this.slots[index];
    if (existing) return existing;
    let worker: Worker;
    try {
      worker = this.start();
    } catch (error) {
      this.makeInThread(error);
      return null;
    }
    const slot: Slot = { worker, ready: false, queued: [], pending: new Map() };
    const startup = setTimeout(() => this.drop(index, slot), this.startupTimeoutMs);
    startup.unref();
    worker.on('message', (reply: PdfMakeReply | { ready: true }) => {
      if ('ready' in reply) {
        clearTimeout(startup);
        slot.ready = true;
        for (const q of slot.queued.splice(0)) this.send(index, slot, q);
        return;
      }
      void this.answer(index, slot, reply);
    });
    worker.on('error', (error) => this.drop(index, slot, error));
    worker.on('exit', (code) => {
      clearTimeout(startup);
      this.drop(index, slot, new Error(`the PDF worker ended (exit code ${code})`));
    });
    // After the listeners: adding a 'message' listener refs a Worker again (Node 24).
    holdWhileBusy(slot);
    this.slots[index] = slot;
    return slot;
  }

  /**
   * A worker that failed or ended. One that never came up: the tasks run in this thread from now on, those
   * waiting included. One that was working: its tasks fail with `why`, and the next task starts a new one.
   */
  private drop(index: number, slot: Slot, why: unknown = new Error('the PDF worker ended')): void {
    if (this.slots[index] !== slot) return;
    this.slots[index] = null;
    if (!slot.ready) this.makeInThread(new Error('the PDF make worker did not come up'));
    for (const q of slot.queued.splice(0))
      this.makeHere(q.task, q.input, q.options).then(q.resolve, q.reject);
    for (const [id, pending] of [...slot.pending]) {
      void this.settle(slot, id, pending).then(() => pending.reject(why));
    }
    void slot.worker.terminate().catch(() => undefined);
  }

  /** Ends the workers (tests); tasks still in them fail. A later task starts a new one. */
  async close(): Promise<void> {
    const open = this.slots.filter((slot): slot is Slot => slot !== null);
    this.slots.fill(null);
    const closed = new Error('the PDF worker pool was closed');
    for (const slot of open) {
      for (const q of slot.queued.splice(0)) q.reject(closed);
      for (const [id, pending] of [...slot.pending]) {
        void this.settle(slot, id, pending).then(() => pending.reject(closed));
      }
    }
    await Promise.all(open.map((slot) => slot.worker.terminate().catch(() => undefined)));
  }
}

const pool = new PdfMakePool({
  size: Math.max(1, Math.min(2, availableParallelism() - 1)),
  timeoutMs: SILENCE_TIMEOUT_MS,
  startupTimeoutMs: STARTUP_TIMEOUT_MS,
});

/** Makes a PDF in a worker thread (see the file's header). */
export function makePdf<N extends PdfTaskName>(
  task: N,
  input: PdfTaskInput<N>,
  options: PdfMakeOptions = {},
): Promise<PdfMade> {
  return pool.make(task, input, options);
}
