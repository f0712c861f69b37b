/**
 * A worker thread that makes PDFs (tasks.ts: the certificate of destruction, a report's PDF export) for the
 * server's thread (pdf-make-pool.ts), so that pdf-lib's seconds of work and its garbage stay off the thread
 * that answers requests. Speaks the protocol below: a task is run from its input; a streamed task's rows
 * are asked for a batch at a time (the next asked for as one is taken to be set, so at most two are held);
 * progress goes back as it comes; the bytes made are transferred back, not copied.
 */
import { parentPort } from 'node:worker_threads';
import type { ReportCell } from '../../src-shared/api/reports';
import { PDF_TASKS, type PdfMade, type PdfTaskIo, type PdfTaskName } from './tasks';

/** What the pool sends a worker. */
export type PdfMakeRequest =
  | { type: 'run'; id: number; task: PdfTaskName; input: unknown; streamed: boolean }
  | { type: 'batch'; id: number; rows: ReportCell[][] }
  | { type: 'end'; id: number }
  | { type: 'cancel'; id: number };

/** What a worker sends the pool (after `{ ready: true }`, once it can run tasks). */
export type PdfMakeReply =
  | { type: 'progress'; id: number; done: number }
  | { type: 'want'; id: number }
  | { type: 'done'; id: number; made: PdfMade }
  | { type: 'error'; id: number; error: string };

const port = parentPort;
if (!port) throw new Error('pdf-make-worker runs as a worker thread');
const send = (reply: PdfMakeReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

/** A task under way: its rows as they come, and whether the pool gave it up. */
interface Running {
  rows: ReportCell[][][];
  ended: boolean;
  cancelled: boolean;
  /** Wakes the task waiting for rows. */
  wake: (() => void) | null;
}
const running = new Map<number, Running>();

function ioOf(id: number, task: Running, streamed: boolean): PdfTaskIo {
  const stopIfCancelled = () => {
    if (task.cancelled) throw new Error('cancelled');
  };
  return {
    progress: async (done) => {
      stopIfCancelled();
      send({ type: 'progress', id, done });
      // The thread turned once, so that a cancel sent meanwhile is read (and the task stops at its next step).
      await new Promise<void>((resolve) => setImmediate(resolve));
      stopIfCancelled();
    },
    batches: {
      async *[Symbol.asyncIterator]() {
        if (!streamed) return;
        send({ type: 'want', id });
        for (;;) {
          while (task.rows.length === 0 && !task.ended && !task.cancelled)
            await new Promise<void>((resolve) => (task.wake = resolve));
          stopIfCancelled();
          const batch = task.rows.shift();
          if (!batch) return;
          // The next one asked for while this one is set: one asked, one held, one being set at most.
          if (!task.ended) send({ type: 'want', id });
          yield batch;
        }
      },
    },
  };
}

port.on('message', (request: PdfMakeRequest) => {
  if (request.type !== 'run') {
    const task = running.get(request.id);
    if (!task) return;
    if (request.type === 'batch') task.rows.push(request.rows);
    else if (request.type === 'end') task.ended = true;
    else task.cancelled = true;
    task.wake?.();
    task.wake = null;
    return;
  }
  const { id } = request;
  const task: Running = { rows: [], ended: false, cancelled: false, wake: null };
  running.set(id, task);
  void (async () => {
    try {
      const make = PDF_TASKS[request.task] as (input: unknown, io: PdfTaskIo) => Promise<PdfMade>;
      if (!make) throw new Error(`no PDF task ${String(request.task)}`);
      const made = await make(request.input, ioOf(id, task, request.streamed));
      // Only a buffer of its own can be transferred: else a copy that is.
      const { bytes } = made;
      const own =
        bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
      send({ type: 'done', id, made: { bytes: own, rows: made.rows } }, [own.buffer as ArrayBuffer]);
    } catch (error) {
      send({ type: 'error', id, error: String((error as Error)?.message ?? error) });
    } finally {
      running.delete(id);
    }
  })();
});

port.postMessage({ ready: true });
