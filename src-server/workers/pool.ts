/**
 * The worker-thread pool that the PDF check pool (storage/pdf-check-pool.ts) and the PDF make pool
 * (pdf-making/pdf-make-pool.ts) are built on; what a task is, how it is sent and how its answers are
 * taken is theirs. A few workers (`resize` changes how many), each started on first use (or at once,
 * `warm`) and kept until it has had nothing to do for `idleMs`, which gives its memory back; a worker is
 * used once it says `{ ready: true }`, the tasks given it before waiting for that; a task goes to the
 * worker with the fewest tasks, waiting or under way. A worker holds the process open only while it has
 * tasks: a server, a command or a benchmark that is done ends with its workers idle. A worker silent for
 * longer than its time while it has a task (timed from the task's sending and from each word about it), or
 * one that exits or throws (past the heap its kind bounds it to, for one), is ended, its tasks given
 * up, and the next task starts a new one. Where no worker can be started at all (a deployment without the
 * script, or one that never becomes ready), the tasks run in this thread from then on, those waiting
 * included, and a process warning says so once.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../entry';

/**
 * How many workers a pool has unless told: one on the embedded desk, where each is memory the desk keeps;
 * elsewhere one for every core but the one the server's own thread uses, at least one, at most `most`.
 */
export function defaultWorkers(embedded: boolean, most: number): number {
  return embedded ? 1 : Math.max(1, Math.min(most, availableParallelism() - 1));
}

/** The workers of one pool: the script they run, their heap, and what the pool says when it has none. */
export interface WorkerKind {
  /** The worker's script: `script` beside the module at `from` (its `import.meta.url`, see entry.ts). */
  script: string;
  from: string;
  /** The heap a worker may grow to before V8 ends it (its tasks are given up). */
  heapMb: number;
  /** The process warning said once the tasks run in this thread: its words, and its code. */
  inThreadWarning: string;
  warningCode: string;
  /** Why, in that warning, when a worker was started but never became ready. */
  notReady: string;
}

/** How a pool is made: its size, its limits and the way it starts a worker. */
export interface WorkerPoolOptions {
  /** How many workers at most (each started on first use); `resize` changes it. */
  size: number;
  /** A worker with a task that is silent this long is ended, and its tasks are given up. */
  timeoutMs: number;
  /**
   * A worker with nothing to do for this long is ended (its memory given back); the next task starts a
   * new one. Unset: kept for good.
   */
  idleMs?: number;
  /** A worker not ready this long after it was started: the tasks run in this thread for good. */
  startupTimeoutMs: number;
  /** Starts a worker; it may throw when none can be started here. Default: the kind's script and heap. */
  start?: () => Worker;
}

/** A task sent to a worker, under the id its worker answers it by. */
export interface WorkerTask<Job> {
  readonly id: number;
  readonly job: Job;
  readonly worker: Worker;
}

/** Why a worker's tasks were given up. */
export type WorkerLoss =
  | { cause: 'silent' }
  | { cause: 'exit'; code: number }
  | { cause: 'error'; error: unknown }
  | { cause: 'startup' }
  | { cause: 'closed' };

/** What a pool's user does with its tasks (the pool only carries them). */
export interface WorkerPoolTasks<Job, Reply extends { id: number }> {
  /** Sends a task to its worker (its silence is timed from now). */
  send(task: WorkerTask<Job>): void;
  /** A word from the worker about one of its tasks (its silence is timed again from now). */
  answer(task: WorkerTask<Job>, reply: Reply): void;
  /** Runs a job in this thread: no worker can be had. */
  runHere(job: Job): void;
  /** A job taken back from a worker that is gone, or from the pool that was closed (the task is out of it). */
  giveUp(job: Job, loss: WorkerLoss): void;
}

interface Running<Job> extends WorkerTask<Job> {
  slot: Slot<Job>;
  timer: NodeJS.Timeout | null;
}

interface Slot<Job> {
  worker: Worker;
  /** Set by the worker's first message, once it can take tasks. */
  ready: boolean;
  queued: Job[];
  pending: Map<number, Running<Job>>;
  /** While it has nothing to do: when it is ended for that (see `idleMs`). */
  idle: NodeJS.Timeout | null;
}

/** Worker threads that run one kind of task (see the file's header). */
export class WorkerPool<Job, Reply extends { id: number }> {
  private readonly slots: (Slot<Job> | null)[];
  /** How many of the slots take tasks (`resize`); the workers of those beyond end once they idle. */
  private size: number;
  private nextId = 1;
  /** Set once a worker could not be started at all: the tasks run in this thread from then on. */
  private inThread = false;
  private readonly start: () => Worker;

  constructor(
    private readonly kind: WorkerKind,
    private readonly options: WorkerPoolOptions,
    private readonly tasks: WorkerPoolTasks<Job, Reply>,
  ) {
    this.size = Math.max(1, options.size);
    this.slots = Array.from({ length: this.size }, () => null);
    this.start =
      options.start ??
      (() =>
        startWorker(kind.from, kind.script, { resourceLimits: { maxOldGenerationSizeMb: kind.heapMb } }));
  }

  /** Starts the workers now, so the first task waits for none. */
  warm(): void {
    // Not once the tasks run here: a worker could not start, and a server started again (tests start
    // many in one process) would only start ones that are never used.
    for (let i = 0; i < this.size && !this.inThread; i++) this.slot(i);
  }

  /**
   * How many workers at most from now on (at least one). A worker beyond the new size takes no more tasks
   * and ends once those it has are answered.
   */
  resize(size: number): void {
    this.size = Math.max(1, size);
    while (this.slots.length < this.size) this.slots.push(null);
    for (const slot of this.slots.slice(this.size)) if (slot) this.settle(slot);
  }

  /** Runs a job: in the quietest worker, or in this thread where none can be had. */
  run(job: Job): void {
    if (this.inThread) return this.tasks.runHere(job);
    const index = this.quietest();
    const slot = this.slot(index);
    if (!slot) return this.tasks.runHere(job);
    if (slot.ready) this.send(slot, job);
    else slot.queued.push(job);
    this.settle(slot);
  }

  /** Whether a task is still with its worker (not answered, given up or taken back). */
  running(task: WorkerTask<Job>): boolean {
    return this.slotOf(task).pending.get(task.id) === task;
  }

  /** The worker was heard from (or sent to) about `task`: its silence is timed from now. */
  heard(task: WorkerTask<Job>): void {
    const slot = this.slotOf(task);
    const running = slot.pending.get(task.id);
    if (running !== task) return;
    if (running.timer) clearTimeout(running.timer);
    running.timer = setTimeout(() => this.drop(slot, { cause: 'silent' }), this.options.timeoutMs);
  }

  /** Takes a task out of its worker's list (answered, or failed here); false if it was out already. */
  finish(task: WorkerTask<Job>): boolean {
    const slot = this.slotOf(task);
    const running = slot.pending.get(task.id);
    if (running !== task) return false;
    slot.pending.delete(task.id);
    if (running.timer) clearTimeout(running.timer);
    running.timer = null;
    this.settle(slot);
    return true;
  }

  /** Ends the workers (tests); tasks still in them are given up. A later task starts a new one. */
  async close(): Promise<void> {
    const open = this.slots.filter((slot): slot is Slot<Job> => slot !== null);
    // Taken out first: their exits are then not failures (drop ignores a slot no longer in the pool).
    this.slots.fill(null);
    for (const slot of open) {
      if (slot.idle) clearTimeout(slot.idle);
      for (const job of slot.queued.splice(0)) this.tasks.giveUp(job, { cause: 'closed' });
      this.giveUpPending(slot, { cause: 'closed' });
    }
    await Promise.all(open.map((slot) => slot.worker.terminate().catch(() => undefined)));
  }

  /** The slot of a task the pool made (each `WorkerTask` is a `Running`). */
  private slotOf(task: WorkerTask<Job>): Slot<Job> {
    return (task as Running<Job>).slot;
  }

  private send(slot: Slot<Job>, job: Job): void {
    const task: Running<Job> = { id: this.nextId++, job, worker: slot.worker, slot, timer: null };
    slot.pending.set(task.id, task);
    this.heard(task);
    this.tasks.send(task);
  }

  private giveUpPending(slot: Slot<Job>, loss: WorkerLoss): void {
    const pending = [...slot.pending.values()];
    slot.pending.clear();
    for (const task of pending) {
      if (task.timer) clearTimeout(task.timer);
      task.timer = null;
      this.tasks.giveUp(task.job, loss);
    }
  }

  private quietest(): number {
    const load = (slot: Slot<Job> | null) => (slot ? slot.pending.size + slot.queued.length : 0);
    let best = 0;
    for (let i = 1; i < this.size; i++) if (load(this.slots[i]!) < load(this.slots[best]!)) best = i;
    return best;
  }

  /**
   * After a worker's tasks changed. One with tasks waiting or under way holds the process open, and an
   * idle one does not: a task is answered before the process may end, and an idle pool never keeps it
   * running. An idle worker beyond the pool's size ends now; one within it after `idleMs` of nothing.
   */
  private settle(slot: Slot<Job>): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    if (slot.pending.size + slot.queued.length > 0) return void slot.worker.ref();
    slot.worker.unref();
    if (!slot.ready) return;
    if (this.slots.indexOf(slot) >= this.size) return this.retire(slot);
    if (this.options.idleMs === undefined) return;
    slot.idle = setTimeout(() => this.retire(slot), this.options.idleMs);
    slot.idle.unref();
  }

  /** Ends an idle worker, not as a failure: its slot is emptied first (drop ignores it then). */
  private retire(slot: Slot<Job>): void {
    const index = this.slots.indexOf(slot);
    if (index < 0 || slot.pending.size + slot.queued.length > 0) return;
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    this.slots[index] = null;
    void slot.worker.terminate().catch(() => undefined);
  }

  /**
   * No worker can be had here: the tasks run in this thread from now on. Said once, as a process warning
   * (the server's log shows it), since the answers are the same and nothing else would show it.
   */
  private runInThread(why: unknown): void {
    if (this.inThread) return;
    this.inThread = true;
    process.emitWarning(
      `${this.kind.inThreadWarning}: no worker thread (${String((why as Error)?.message ?? why)})`,
      { code: this.kind.warningCode },
    );
  }

  /** The worker of slot `index`, started if it is not running; null when none can be started here. */
  private slot(index: number): Slot<Job> | null {
    const existing = this.slots[index];
    if (existing) return existing;
    let worker: Worker;
    try {
      worker = this.start();
    } catch (error) {
      this.runInThread(error);
      return null;
    }
    const slot: Slot<Job> = { worker, ready: false, queued: [], pending: new Map(), idle: null };
    // A worker that does not come up in time is taken for one that cannot: the tasks run here.
    const startup = setTimeout(() => this.drop(slot, { cause: 'startup' }), this.options.startupTimeoutMs);
    startup.unref();
    worker.on('message', (reply: Reply | { ready: true }) => {
      if ('ready' in reply) {
        clearTimeout(startup);
        slot.ready = true;
        for (const job of slot.queued.splice(0)) this.send(slot, job);
        this.settle(slot);
        return;
      }
      const task = slot.pending.get(reply.id);
      if (!task) return;
      this.heard(task);
      this.tasks.answer(task, reply);
    });
    worker.on('error', (error) => this.drop(slot, { cause: 'error', error }));
    worker.on('exit', (code) => {
      clearTimeout(startup);
      this.drop(slot, { cause: 'exit', code });
    });
    // After the listeners: adding a 'message' listener to a Worker refs it again (Node 24), and a
    // worker left referenced kept every process that had checked a file alive after its work.
    this.settle(slot);
    this.slots[index] = slot;
    return slot;
  }

  /**
   * A worker that failed or ended. One that never came up (no script, no loader here): the tasks run in
   * this thread from now on, those waiting included. One that was working: its tasks are given up (one of
   * them may be why), and the next task starts a new one.
   */
  private drop(slot: Slot<Job>, loss: WorkerLoss): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots[index] = null;
    if (slot.idle) clearTimeout(slot.idle);
    if (!slot.ready) this.runInThread(new Error(this.kind.notReady));
    for (const job of slot.queued.splice(0)) this.tasks.runHere(job);
    this.giveUpPending(slot, loss);
    void slot.worker.terminate().catch(() => undefined);
  }
}
