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
 * Built, like the PDF check pool (storage/pdf-check-pool.ts), on the worker pool of workers/pool.ts: a few
 * workers (at most two: these tasks are rare), each started on first use and kept, holding the process open
 * only while it has tasks (a command or a benchmark that is done ends with its workers idle); a task goes
 * to the worker with the fewest; a worker silent for longer than its time while it has tasks, or grown past
 * its heap, is ended and its tasks fail (the job that asked fails and is tried again); where no worker can
 * be started at all (a deployment without the script, or one that never becomes ready), the tasks run in
 * this thread, as they did before. What is here is what a task is: its request, its progress, its rows.
 *
 * The pool (`PdfMakePool`) is exported with its size, limits and the way it starts a worker as options, so
 * tests can run it with short limits and stand-in workers; the server uses the one made here (`makePdf`).
 */
import { getHeapStatistics } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type { ReportCell } from '../../src-shared/api/reports';
import {
  WorkerPool,
  defaultWorkers,
  type WorkerKind,
  type WorkerLoss,
  type WorkerTask,
} from '../workers/pool';
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
  /** A worker with no task for this long ends (the next task starts one); unset: kept for good. */
  idleMs?: number;
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

/** The workers that make PDFs: the script beside this module, its heap bounded. */
const MAKE_WORKERS: WorkerKind = {
  script: 'pdf-make-worker',
  from: import.meta.url,
  heapMb: WORKER_HEAP_MB,
  inThreadWarning: "PDFs are made in the server's own thread",
  warningCode: 'SIJILL_PDF_MAKE_IN_THREAD',
  notReady: 'the PDF make worker did not come up',
};

/** A task given to the pool, and what it holds while a worker runs it. */
interface Making {
  task: PdfTaskName;
  input: unknown;
  options: PdfMakeOptions;
  resolve(made: PdfMade): void;
  reject(error: unknown): void;
  /** The rows of a streamed task, taken from `options.batches` once it is sent to a worker. */
  rows: AsyncIterator<ReportCell[][]> | null;
  /** The latest progress not yet told, and whether it is being told (`onProgress` runs one at a time). */
  progress: number | null;
  telling: Promise<void> | null;
}

type Task = WorkerTask<Making>;

const noRows: AsyncIterable<ReportCell[][]> = { [Symbol.asyncIterator]: async function* () {} };

/** In this thread, as before there were workers: progress awaited, so the task gives way as it goes. */
function makeHere(task: PdfTaskName, input: unknown, options: PdfMakeOptions): Promise<PdfMade> {
  const make = PDF_TASKS[task] as (input: unknown, io: PdfTaskIo) => Promise<PdfMade>;
  return make(input, {
    progress: options.onProgress ?? (async () => undefined),
    batches: options.batches ?? noRows,
  });
}

/** Closes a task's rows (the report's cursor), as a `for await` over them would have. */
async function closeRows(making: Making): Promise<void> {
  await making.rows?.return?.()?.catch(() => undefined);
}

/** Why a task failed with its worker. */
function lossError(loss: WorkerLoss): unknown {
  switch (loss.cause) {
    case 'silent':
      return new Error('the PDF worker did not answer in time');
    case 'exit':
      return new Error(`the PDF worker ended (exit code ${loss.code})`);
    case 'error':
      return loss.error;
    case 'startup':
      return new Error('the PDF worker ended');
    case 'closed':
      return new Error('the PDF worker pool was closed');
  }
}

/** Worker threads that make PDFs (see the file's header); the server has one (`makePdf`). */
export class PdfMakePool {
  private readonly workers: WorkerPool<Making, PdfMakeReply>;

  constructor(options: PdfMakePoolOptions) {
    this.workers = new WorkerPool<Making, PdfMakeReply>(MAKE_WORKERS, options, {
      send: (task) => this.send(task),
      answer: (task, reply) => void this.answer(task, reply),
      runHere: (making) =>
        void makeHere(making.task, making.input, making.options).then(making.resolve, making.reject),
      // Its worker went (silent past its time, grown past its heap, ended) or the pool was closed: the
      // task fails, once its rows are closed.
      giveUp: (making, loss) => {
        const error = lossError(loss);
        void closeRows(making).then(() => making.reject(error));
      },
    });
  }

  /** How many workers at most from now on (see WorkerPool.resize). */
  resize(size: number): void {
    this.workers.resize(size);
  }

  /** Makes the PDF of task `task` from `input` (in a worker unless none can be had here). */
  make<N extends PdfTaskName>(
    task: N,
    input: PdfTaskInput<N>,
    options: PdfMakeOptions = {},
  ): Promise<PdfMade> {
    return new Promise((resolve, reject) =>
      this.workers.run({ task, input, options, resolve, reject, rows: null, progress: null, telling: null }),
    );
  }

  /** Ends the workers (tests); tasks still in them fail. A later task starts a new one. */
  close(): Promise<void> {
    return this.workers.close();
  }

  private send(task: Task): void {
    const { job: making } = task;
    making.rows = making.options.batches ? making.options.batches[Symbol.asyncIterator]() : null;
    const request: PdfMakeRequest = {
      type: 'run',
      id: task.id,
      task: making.task,
      input: making.input,
      streamed: !!making.rows,
    };
    task.worker.postMessage(request);
  }

  /** A task that failed here (its progress or its rows threw): the worker is told to give it up. */
  private fail(task: Task, error: unknown): void {
    if (!this.workers.running(task)) return;
    task.worker.postMessage({ type: 'cancel', id: task.id } satisfies PdfMakeRequest);
    void this.settle(task).then(() => task.job.reject(error));
  }

  /**
   * Takes a task out of its worker's list (answered, failed or given up); resolves once its rows are closed
   * (the report's cursor), before the task is answered, as a `for await` over them would have.
   */
  private async settle(task: Task): Promise<void> {
    this.workers.finish(task);
    await closeRows(task.job);
  }

  /** Tells the caller the latest progress, one call at a time (a worker may say it faster than it is told). */
  private tell(task: Task): void {
    const making = task.job;
    const { onProgress } = making.options;
    if (!onProgress || making.telling) return;
    making.telling = (async () => {
      while (making.progress !== null && this.workers.running(task)) {
        const done = making.progress;
        making.progress = null;
        await onProgress(done);
      }
    })().then(
      () => void (making.telling = null),
      (error: unknown) => {
        making.telling = null;
        this.fail(task, error);
      },
    );
  }

  /** The next batch of a streamed task's rows, sent to its worker (or the end of them). */
  private async feed(task: Task): Promise<void> {
    try {
      const next = await task.job.rows!.next();
      if (!this.workers.running(task)) return;
      const request: PdfMakeRequest = next.done
        ? { type: 'end', id: task.id }
        : { type: 'batch', id: task.id, rows: next.value };
      task.worker.postMessage(request);
      // The rows may have been slow to come (the database): the worker's silence is timed from now.
      this.workers.heard(task);
    } catch (error) {
      this.fail(task, error);
    }
  }

  private async answer(task: Task, reply: PdfMakeReply): Promise<void> {
    const making = task.job;
    switch (reply.type) {
      case 'progress':
        making.progress = reply.done;
        this.tell(task);
        return;
      case 'want':
        if (making.rows) await this.feed(task);
        return;
      case 'error':
        await this.settle(task);
        making.reject(new Error(`the PDF was not made: ${reply.error}`));
        return;
      case 'done':
        // The progress told so far is told before the task is answered.
        if (making.telling) await making.telling;
        if (!this.workers.running(task)) return;
        await this.settle(task);
        making.resolve(reply.made);
        return;
    }
  }
}

/**
 * How many make workers a server has unless told (PDF_MAKE_WORKERS): one for every core but the one the
 * server's own thread uses, at least one, at most two; one on the embedded desk, where each is memory the
 * desk keeps.
 */
export function defaultPdfMakeWorkers(embedded: boolean): number {
  return defaultWorkers(embedded, 2);
}

/** A worker with no task for this long ends, giving its memory back; the next task starts one. */
const IDLE_MS = 5 * 60_000;

const pool = new PdfMakePool({
  size: defaultPdfMakeWorkers(false),
  timeoutMs: SILENCE_TIMEOUT_MS,
  startupTimeoutMs: STARTUP_TIMEOUT_MS,
  idleMs: IDLE_MS,
});

/** Sizes the PDF make workers (see defaultPdfMakeWorkers; the server, as it starts). */
export function sizePdfMakeWorkers(size: number): void {
  pool.resize(size);
}

/** Makes a PDF in a worker thread (see the file's header). */
export function makePdf<N extends PdfTaskName>(
  task: N,
  input: PdfTaskInput<N>,
  options: PdfMakeOptions = {},
): Promise<PdfMade> {
  return pool.make(task, input, options);
}
