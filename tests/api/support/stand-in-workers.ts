/**
 * For the worker pool tests (pdf-check-pool.test.ts, pdf-make-pool.test.ts): a pool's `start` that runs a
 * small stand-in worker (plain JavaScript, eval) and counts it, the pools a test made, and the end of both
 * after each test (`afterEach(standIns.endPoolsAndWorkers)`). Imported whole, as `standIns`.
 */
import { Worker } from 'node:worker_threads';
import { within } from './within';

/** Workers the stand-in `start`s made, in order (emptied after each test), and which of them have exited. */
export const started: Worker[] = [];
export const exited = new Set<Worker>();
const pools: { close(): Promise<void> }[] = [];

/** A `start` that runs `code` as a worker (eval), counted in `started`. */
export function starting(code: string): () => Worker {
  return () => {
    const worker = new Worker(code, { eval: true });
    worker.on('exit', () => exited.add(worker));
    started.push(worker);
    return worker;
  };
}

/**
 * A `start` that cannot start a worker (as where its script is missing: it throws), and how often it was
 * called.
 */
export function cannotStart(why: string): { start: () => Worker; calls: () => number } {
  let calls = 0;
  return {
    start: () => {
      calls++;
      throw new Error(why);
    },
    calls: () => calls,
  };
}

/** `pool`, closed after the test. */
export function closedAfterTest<P extends { close(): Promise<void> }>(pool: P): P {
  pools.push(pool);
  return pool;
}

/** Resolves once `worker` has exited (at once if it has). */
export function exit(worker: Worker): Promise<void> {
  if (exited.has(worker)) return Promise.resolve();
  return new Promise((resolve) => worker.once('exit', () => resolve()));
}

/** Waits for every worker started so far to exit (the pool ends one that never became ready); how many. */
export async function allStartedExited(): Promise<number> {
  const starts = started.length;
  await within(Promise.all(started.map(exit)), 5_000, 'the unready workers’ exits');
  return starts;
}

/** Closes the test's pools and ends the workers it started. */
export async function endPoolsAndWorkers(): Promise<void> {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await Promise.all(started.splice(0).map((worker) => worker.terminate()));
  exited.clear();
}
