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
 * (they kept bench/load, bench/correspondence and bench/pdf-viewer alive after their results). A check goes
 * to the worker with the fewest waiting. Bytes in memory travel to the worker and back without a copy
 * (transferred). Where no worker can be started at all (a deployment without the script, or one that never
 * becomes ready), the checks run in this thread. The workers themselves (starting them, their time and
 * heap limits, the choice among them, the fallback) are the worker pool's (workers/pool.ts), shared with
 * the PDF make pool; what is here is what a check is.
 *
 * The pool itself (`PdfCheckPool`) is exported with its size, limits and the way it starts a worker as
 * options, so tests can run it with short limits and small stand-in workers; the server uses the one
 * made here, through `checkPdfInWorker` and `warmPdfCheckWorkers`.
 */
import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { observePdfCheck } from '../process-metrics';
import { WorkerPool, defaultWorkers, type WorkerKind, type WorkerTask } from '../workers/pool';
import { checkPdf, type PdfSource, type PdfVerdict } from './pdf-check';
import type { PdfCheckReply, PdfCheckRequest } from './pdf-check-worker';

/** A check longer than this ends its worker and refuses the file (pdf.js spinning on a hostile file). */
const CHECK_TIMEOUT_MS = 120_000;
/** A worker not ready (pdf.js loaded) this long after it was started is taken for one that cannot start. */
const STARTUP_TIMEOUT_MS = 60_000;
/** A worker with no check for this long ends, giving its memory back; the next upload starts one. */
const IDLE_MS = 5 * 60_000;
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
  /** A worker with no check for this long ends (the next check starts one); unset: kept for good. */
  idleMs?: number;
  /**
   * Starts a worker that speaks pdf-check-worker.ts's protocol (`{ ready: true }` once it can check, then
   * a reply to each request); it may throw when none can be started here. Default: pdf-check-worker.ts,
   * its heap bounded to WORKER_HEAP_MB.
   */
  start?: () => Worker;
}

/** The workers the server checks in: the script beside this module, its heap bounded. */
const CHECK_WORKERS: WorkerKind = {
  script: 'pdf-check-worker',
  from: import.meta.url,
  heapMb: WORKER_HEAP_MB,
  inThreadWarning: "PDF checks run in the server's own thread",
  warningCode: 'SIJILL_PDF_CHECK_IN_THREAD',
  notReady: 'the PDF check worker did not come up',
};

/** The answer to a check: the verdict, and the bytes handed back (when it was given bytes). */
type Checked = { verdict: PdfVerdict; bytes?: Uint8Array };

/** A check given to the pool (its bytes are sent only to a worker that is there). */
interface Check {
  source: PdfSource;
  resolve(answer: Checked): void;
  reject(error: unknown): void;
}

/** A file whose check ended its worker (or failed in it): refused as not a valid PDF. */
const refused = { verdict: { ok: false, reason: 'notPdf' } as PdfVerdict };

/** Worker threads that check PDFs (see the file's header); the server has one (`checkPdfInWorker`). */
export class PdfCheckPool {
  private readonly workers: WorkerPool<Check, PdfCheckReply>;

  constructor(options: PdfCheckPoolOptions) {
    this.workers = new WorkerPool<Check, PdfCheckReply>(CHECK_WORKERS, options, {
      send: (task) => this.send(task),
      answer: (task, reply) => {
        this.workers.finish(task);
        if ('error' in reply) task.job.resolve(refused);
        else task.job.resolve({ verdict: reply.verdict, ...(reply.bytes ? { bytes: reply.bytes } : {}) });
      },
      runHere: ({ source, resolve, reject }) => void this.checkHere(source).then(resolve, reject),
      // Its worker ran away (past its time or its heap) or ended, maybe for this file, or the pool was
      // closed: the file is refused.
      giveUp: (check) => check.resolve(refused),
    });
  }

  /** Starts the workers now (a server calls it as it starts), so the first upload waits for none. */
  warm(): void {
    this.workers.warm();
  }

  /** How many workers at most from now on (see WorkerPool.resize). */
  resize(size: number): void {
    this.workers.resize(size);
  }

  /**
   * Checks a PDF. Bytes are transferred to the worker and handed back with the verdict (use the ones
   * answered: the ones given are detached).
   */
  check(source: PdfSource): Promise<Checked> {
    return new Promise((resolve, reject) => this.workers.run({ source, resolve, reject }));
  }

  /**
   * Ends the workers (tests: the workers do not hold the process open, but a test ends what it started).
   * Checks still waiting in them are refused; that a worker was closed does not send the pool to this
   * thread, and a later check starts a new one.
   */
  close(): Promise<void> {
    return this.workers.close();
  }

  private send({ id, job: { source }, worker }: WorkerTask<Check>): void {
    const request: PdfCheckRequest = { id };
    if ('bytes' in source) {
      const { bytes } = source;
      // Only a buffer of its own can be transferred (a small one may share Node's pool): else a copy.
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      request.bytes = own ? bytes : new Uint8Array(bytes);
      worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    } else {
      request.path = source.path;
      worker.postMessage(request);
    }
  }

  /** In this thread: pdf.js takes the bytes over, so it gets a copy and the caller keeps them. */
  private async checkHere(source: PdfSource): Promise<Checked> {
    if ('path' in source) return { verdict: await checkPdf(source) };
    return { verdict: await checkPdf({ bytes: new Uint8Array(source.bytes) }), bytes: source.bytes };
  }
}

/**
 * How many check workers a server has unless told (PDF_CHECK_WORKERS): one for every core but the one
 * the server's own thread uses, at least one, at most four; one on the embedded desk, where each is
 * memory the desk keeps (about 45 MB once pdf.js has read a file) and one answers a scanning station's
 * burst (bench/embedded).
 */
export function defaultPdfCheckWorkers(embedded: boolean): number {
  return defaultWorkers(embedded, 4);
}

const pool = new PdfCheckPool({
  size: defaultPdfCheckWorkers(false),
  timeoutMs: CHECK_TIMEOUT_MS,
  startupTimeoutMs: STARTUP_TIMEOUT_MS,
  idleMs: IDLE_MS,
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

/** Sizes the PDF check workers (see defaultPdfCheckWorkers) and starts them (the server, as it starts). */
export function warmPdfCheckWorkers(size: number): void {
  pool.resize(size);
  pool.warm();
}
