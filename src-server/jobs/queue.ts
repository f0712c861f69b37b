/**
 * The durable background job queue, on the database (table `background_jobs`): text extraction and OCR of
 * attachments, search indexing; on the embedded PGlite and on a PostgreSQL shared by several servers.
 * How it claims, leases, retries, takes back a dead worker's jobs and gives way to requests:
 * docs/jobs.md. Why our own: docs/decisions.md.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/open';
import { isUniqueViolation } from '../db/errors';
import { rowsOf } from '../db/rows';
import { BACKGROUND_JOB_STATES, type BackgroundJobState } from '../db/schema';

/** What a handler is given. */
export interface JobContext {
  id: number;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  payload: unknown;
  /** Aborted when the job times out, the worker stops, or the worker lost its lease. */
  signal: AbortSignal;
  /** Stores the job's progress (a percentage or any JSON object); writes are coalesced. */
  progress(value: number | object): Promise<void>;
  /**
   * Gives way to the requests being answered, between two steps of a long job (a page of a file): resolves
   * once none has been answered for `checkMs`, or after `maxDeferMs` (work slows down, it never stops),
   * or at once when the queue is not told of requests (`yieldWhenBusy.requestsActive`) or yields not.
   */
  giveWay(): Promise<void>;
}

export type JobHandler = (job: JobContext) => Promise<void>;

export interface RegisterOptions {
  /** Jobs of this kind running at once in this process (default 1). */
  concurrency?: number;
  /** A run longer than this is aborted and counts as a failure (default 10 minutes). */
  timeoutMs?: number;
  /** Delay before attempt `attempt + 1` after attempt `attempt` failed (default: exponential with jitter). */
  backoff?: (attempt: number) => number;
}

export interface EnqueueOptions {
  /** The same (kind, key) waiting already: nothing is added and `enqueue` answers null. */
  key?: string;
  /** Not before this instant (default: now). */
  runAt?: Date;
  /** Runs before the job is dead (default 5). */
  maxAttempts?: number;
}

/** Where a line about the queue goes: pino's (Fastify's) logger fits. */
export interface JobLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** When the poller holds its claims back for the requests (see the file's header); every field optional. */
export interface YieldWhenBusy {
  /** Busy: this thread's event-loop utilization (0…1) since the last look is above this (default 0.6). */
  busyAbove?: number;
  /** While busy, the poller looks again after this long rather than `pollMs` (default 200 ms). */
  checkMs?: number;
  /**
   * A claim round runs at the latest this long after the previous one, however busy the process is
   * (default 5 s), so background work always progresses.
   */
  maxDeferMs?: number;
  /**
   * Whether this process has answered requests within the last `withinMs` (one in flight counts). When
   * given, the process is busy only while it answers requests and its thread is loaded, whatever loads
   * it (the jobs' own work included: it is what the requests wait behind); a process answering nothing
   * runs its jobs back to back. Without it, the load alone decides, the jobs' own work left out. The
   * server passes its request counter (app.ts).
   */
  requestsActive?: (withinMs: number) => boolean;
  /** Replaces the event-loop measure: answers whether the process is busy now (for tests). */
  busy?: () => boolean;
}

/** The defaults of `yieldWhenBusy`. */
export const YIELD_WHEN_BUSY_DEFAULTS = { busyAbove: 0.6, checkMs: 200, maxDeferMs: 5000 } as const;

/** A lock a worker holds for as long as it runs; released when it stops (or by its process dying). */
export interface LifeLock {
  release(): Promise<void>;
}

/**
 * How workers know which of them are alive (see the file's header): `'sole'` — this process alone opens
 * the database (PGlite); `{ holdLock }` — several processes may share it (PostgreSQL): `holdLock(name)`
 * takes the session-level advisory lock `hashtextextended(name, 0)` on a connection of its own and keeps
 * it (db/open.ts). Without one, only an expired lease frees the jobs of a worker that died.
 */
export type WorkerLiveness = 'sole' | { holdLock(name: string): Promise<LifeLock> };

/** The advisory lock name of a worker, as `holdLock` is given it and the claim looks it up. */
const LIFE_LOCK_PREFIX = 'sijill.jobs.worker:';

/** The queues of this process that run (started, not stopped), by worker id: alive by definition. */
const liveWorkers = new Set<string>();

/** Options of a `JobQueue`. */
export interface JobQueueOptions {
  /** Names this worker in `locked_by` (default: host:pid:random). */
  workerId?: string;
  /** How often the poller looks for due jobs (default 1000 ms); `nudge()` looks at once. */
  pollMs?: number;
  /**
   * A claim lasts this long unless renewed (default 60 s); renewed every third of it while running. A
   * handler that blocks the event loop longer than this loses its job (run CPU-heavy work such as OCR in
   * a worker thread or a child process).
   */
  leaseMs?: number;
  /**
   * `stop()` lets running handlers finish this long before it aborts them and puts their jobs back
   * (default 2 s: stopping a server takes seconds whatever its jobs are doing; a job cut short runs
   * again from its start).
   */
  stopGraceMs?: number;
  /** How this worker and its peers are known alive (default: by their leases only). */
  liveness?: WorkerLiveness;
  /** Done jobs older than this are pruned (default 7 days). */
  keepDoneDays?: number;
  /** How often done jobs are pruned (default hourly; the first prune a minute after start). */
  pruneEveryMs?: number;
  /**
   * Holds claim rounds back while the process is busy answering requests (default: on, with
   * `YIELD_WHEN_BUSY_DEFAULTS`); `false` claims whenever a slot is free.
   */
  yieldWhenBusy?: YieldWhenBusy | false;
  log?: JobLog;
}

/** Thrown by a handler: the job cannot succeed however often it is tried (a corrupt PDF); it goes to dead. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

/** The reason a handler's signal is aborted when it ran out of time. */
export class JobTimeoutError extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
    this.name = 'JobTimeoutError';
  }
}

/** The reason a handler's signal is aborted when another worker may have taken the job over. */
export class JobLeaseLostError extends Error {
  constructor() {
    super('the lease on this job was lost');
    this.name = 'JobLeaseLostError';
  }
}

/** The reason a handler's signal is aborted when the worker stops before the handler finished. */
export class JobQueueStoppingError extends Error {
  constructor() {
    super('the worker is stopping');
    this.name = 'JobQueueStoppingError';
  }
}

export type JobStats = Record<string, Record<BackgroundJobState, number>>;

/**
 * How a run of a job ended, as told to `observe` listeners (the server's metrics): `retry` (failed, to be
 * tried again) and `dead` (failed for good) are the failures.
 */
export type JobOutcome = 'done' | 'retry' | 'dead';

/** Default back-off: 10 s, 20 s, 40 s … capped at an hour, each between half and all of that (jitter). */
export function defaultBackoff(attempt: number): number {
  const ms = Math.min(60 * 60_000, 10_000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(ms * (0.5 + Math.random() / 2));
}

/** `yieldWhenBusy` resolved. */
interface YieldPolicy {
  busyAbove: number;
  checkMs: number;
  maxDeferMs: number;
  requestsActive: ((withinMs: number) => boolean) | undefined;
  busy: (() => boolean) | undefined;
}

/** Anything that runs SQL: the database or a transaction. */
type Executor = Pick<Db, 'execute'>;

interface Registration {
  handler: JobHandler;
  concurrency: number;
  timeoutMs: number;
  backoff: (attempt: number) => number;
}

interface ClaimedRow {
  id: number;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  previous_state: BackgroundJobState;
}

/** A job this worker is running. */
interface Running {
  id: number;
  kind: string;
  attempt: number;
  controller: AbortController;
  /** When the lease surely runs out unless renewed (this process's monotonic clock, conservatively). */
  leaseDeadline: number;
  /** Settles once the outcome is written (or could not be). */
  done: Promise<void>;
  progressNext?: { value: number | object };
  progressWriting?: Promise<void>;
}

const MAX_ERROR_LENGTH = 4000;
const MAX_POLL_BACKOFF_MS = 30_000;
const PRUNE_BATCH = 1000;
/** The shortest window over which the event loop's utilization is judged (yieldWhenBusy). */
const MIN_LOOK_MS = 20;

const consoleLog: JobLog = {
  warn: (obj, msg) => console.warn(`[jobs] ${msg}`, obj),
  error: (obj, msg) => console.error(`[jobs] ${msg}`, obj),
};

/** `now() + ms` in SQL. */
const inMs = (ms: number) => sql`now() + ${Math.max(0, ms)}::float8 * interval '1 millisecond'`;
/** A bigint[] parameter (as array text, which both drivers pass as is). */
const idArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::bigint[]`;
/** A text[] parameter, each element quoted. */
const textArray = (values: string[]) =>
  sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`}::text[]`;

function errorText(error: unknown): string {
  const one = (e: unknown) =>
    e instanceof Error ? (e.name && e.name !== 'Error' ? `${e.name}: ` : '') + e.message : String(e);
  // The causes too, the deepest first: under a query's wrapper (drizzle's "Failed query: …" and its
  // parameters) the driver's error says what went wrong, and a long query must not cut it off.
  const chain: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e !== undefined && e !== null; depth++) {
    chain.unshift(one(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  const text = chain.join(' ← ');
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

const isPermanent = (error: unknown) =>
  error instanceof PermanentJobError || (error instanceof Error && error.name === 'PermanentJobError');

/**
 * A worker over the `background_jobs` table, and the way to enqueue into it. One per server process; any
 * number of processes may share one PostgreSQL database.
 */
export class JobQueue {
  readonly workerId: string;
  private readonly db: Db;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly stopGraceMs: number;
  private readonly keepDoneDays: number;
  private readonly pruneEveryMs: number;
  private readonly log: JobLog;
  private readonly registrations = new Map<string, Registration>();
  private readonly running = new Map<number, Running>();
  private started = false;
  private stopping: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private pruning: Promise<void> | undefined;
  private tickAgain = false;
  private pollFailures = 0;
  /** Wakes `drain()` when a job of this worker settles. */
  private settledWaiters: (() => void)[] = [];
  /** `yieldWhenBusy`, resolved; undefined when turned off. */
  private readonly yielding: YieldPolicy | undefined;
  /** Where the event-loop measure's current window began. */
  private eluMark: EventLoopUtilization | undefined;
  /** When this worker last asked the database for jobs (monotonic clock). */
  private lastClaimRound = 0;
  /** `drain()` calls under way: claims are not held back meanwhile. */
  private draining = 0;
  private readonly liveness: WorkerLiveness | undefined;
  /** This worker's life lock (`liveness.holdLock`), once taken. */
  private lifeLock: Promise<LifeLock> | undefined;
  private readonly outcomeListeners = new Set<(kind: string, outcome: JobOutcome) => void>();
  /**
   * Runs a handler in the context the queue was made in, never in that of the request that nudged it:
   * an audit record a job writes must not carry that request's id (http/request-id.ts).
   */
  private readonly outsideRequests = AsyncLocalStorage.snapshot();

  constructor(db: Db, opts: JobQueueOptions = {}) {
    this.db = db;
    this.workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.pollMs = opts.pollMs ?? 1000;
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.stopGraceMs = opts.stopGraceMs ?? 2000;
    this.liveness = opts.liveness;
    this.keepDoneDays = opts.keepDoneDays ?? 7;
    this.pruneEveryMs = opts.pruneEveryMs ?? 60 * 60_000;
    this.log = opts.log ?? consoleLog;
    if (opts.yieldWhenBusy !== false) {
      const y = { ...YIELD_WHEN_BUSY_DEFAULTS, ...opts.yieldWhenBusy };
      if (!(y.busyAbove >= 0 && y.busyAbove <= 1)) throw new RangeError('busyAbove must be 0 … 1');
      if (!(y.checkMs >= 1 && y.maxDeferMs >= 0)) throw new RangeError('checkMs must be ≥ 1, maxDeferMs ≥ 0');
      this.yielding = {
        busyAbove: y.busyAbove,
        checkMs: y.checkMs,
        maxDeferMs: y.maxDeferMs,
        requestsActive: y.requestsActive,
        busy: y.busy,
      };
    }
  }

  /**
   * Adds a job; answers its id, or null when the same (kind, key) is already waiting (queued). Pass the
   * caller's transaction to enqueue with its other writes (a rollback leaves no job); call `nudge()` after
   * it commits. Enqueued on the queue's own database, the poller is nudged at once.
   */
  async enqueue(
    tx: Executor,
    kind: string,
    payload: object,
    opts: EnqueueOptions = {},
  ): Promise<number | null> {
    const maxAttempts = opts.maxAttempts ?? 5;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts must be ≥ 1');
    const runAt = opts.runAt ? sql`${opts.runAt.toISOString()}::timestamptz` : sql`now()`;
    const [row] = await rowsOf<{ id: number }>(
      tx,
      sql`insert into background_jobs (kind, payload, key, max_attempts, run_at)
          values (${kind}, ${JSON.stringify(payload)}::jsonb, ${opts.key ?? null}, ${maxAttempts}, ${runAt})
          on conflict (kind, key) where key is not null and state = 'queued' do nothing
          returning id`,
    );
    if (tx === this.db) this.nudge();
    return row ? row.id : null;
  }

  /** Handles jobs of `kind` in this process (once per kind). May be called before or after `start()`. */
  register(kind: string, handler: JobHandler, opts: RegisterOptions = {}): void {
    if (this.registrations.has(kind)) throw new Error(`a handler for ${kind} is already registered`);
    const concurrency = opts.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be ≥ 1');
    const timeoutMs = opts.timeoutMs ?? 10 * 60_000;
    // setTimeout fires at once beyond 2^31 - 1 ms.
    if (!(timeoutMs >= 1 && timeoutMs <= 2 ** 31 - 1))
      throw new RangeError('timeoutMs must be 1 ms … 24 days');
    this.registrations.set(kind, {
      handler,
      concurrency,
      timeoutMs,
      backoff: opts.backoff ?? defaultBackoff,
    });
    this.nudge();
  }

  /** Starts polling, renewing leases and pruning. */
  start(): void {
    if (this.started) return;
    if (this.stopping) throw new Error('a stopped job queue cannot start again');
    this.started = true;
    liveWorkers.add(this.workerId);
    this.lastClaimRound = performance.now();
    this.eluMark = performance.eventLoopUtilization();
    this.renewTimer = setInterval(() => void this.renewLeases(), Math.max(10, Math.floor(this.leaseMs / 3)));
    this.renewTimer.unref();
    this.schedulePrune(Math.min(60_000, this.pruneEveryMs));
    this.schedulePoll(0);
  }

  /**
   * Stops claiming, lets running handlers finish for `graceMs`, then aborts the rest and puts their jobs
   * back to queued (the interrupted attempt does not count). Resolves when nothing of this worker is
   * touching the database any more. Idempotent.
   */
  stop(opts: { graceMs?: number } = {}): Promise<void> {
    this.stopping ??= this.stopNow(opts.graceMs ?? this.stopGraceMs);
    return this.stopping;
  }

  private async stopNow(graceMs: number): Promise<void> {
    this.started = false;
    clearTimeout(this.pollTimer);
    clearTimeout(this.pruneTimer);
    await Promise.allSettled([this.ticking, this.pruning]);
    const all = () => Promise.allSettled([...this.running.values()].map((r) => r.done));
    if (this.running.size > 0) {
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([all(), new Promise((resolve) => (graceTimer = setTimeout(resolve, graceMs)))]);
      clearTimeout(graceTimer);
      for (const run of this.running.values()) run.controller.abort(new JobQueueStoppingError());
      await all();
    }
    clearInterval(this.renewTimer);
    liveWorkers.delete(this.workerId);
    const lock = this.lifeLock;
    this.lifeLock = undefined;
    if (lock) await lock.then((held) => held.release()).catch(() => undefined);
  }

  /**
   * Takes this worker's life lock before its first claim (a peer must never take a job of a worker that
   * runs); a failure (the database away) fails the claim round, which is tried again later.
   */
  private async holdLife(): Promise<void> {
    const liveness = this.liveness;
    if (liveness === undefined || liveness === 'sole') return;
    this.lifeLock ??= liveness.holdLock(`${LIFE_LOCK_PREFIX}${this.workerId}`);
    try {
      await this.lifeLock;
    } catch (error) {
      this.lifeLock = undefined;
      throw error;
    }
  }

  /**
   * SQL true for a running job (of the subselect in `claim`) whose worker is known gone, before its
   * lease runs out: held by none of this process's running queues, and — on a shared database — its
   * worker's life lock free (tried in the claim's own transaction, so released with it).
   */
  private holderGone(): SQL {
    const liveness = this.liveness;
    if (liveness === undefined) return sql`false`;
    const live = textArray([...liveWorkers]);
    if (liveness === 'sole') return sql`not (coalesce(locked_by, '') = any(${live}))`;
    // CASE keeps the order: the lock is tried only for a live lease held by another process.
    return sql`case when state = 'running' and locked_until >= now() and locked_by is not null
                     and not (locked_by = any(${live}))
                    then pg_try_advisory_xact_lock(hashtextextended(${LIFE_LOCK_PREFIX} || locked_by, 0))
                    else false end`;
  }

  /**
   * Looks for due jobs now (after an enqueue that committed, or a job that finished) — unless the process
   * is busy (`yieldWhenBusy`): then the claim waits like any other.
   */
  nudge(): void {
    if (!this.started) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.schedulePoll(0);
  }

  /**
   * Resolves when no job of a kind registered here is due or running (in any worker); rejects after
   * `timeoutMs` (default 30 s). For tests and tools; the queue must be started. Meanwhile this worker
   * claims even when the process is busy (`yieldWhenBusy`): the caller wants the work done now.
   */
  async drain(opts: { timeoutMs?: number } = {}): Promise<void> {
    if (!this.started) throw new Error('drain() needs a started job queue');
    this.draining += 1;
    try {
      await this.drainNow(opts.timeoutMs ?? 30_000);
    } finally {
      this.draining -= 1;
    }
  }

  private async drainNow(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.running.size === 0) {
        const kinds = [...this.registrations.keys()];
        if (kinds.length === 0) return;
        const [row] = await rowsOf<{ n: number }>(
          this.db,
          sql`select count(*)::int as n from background_jobs
              where kind in ${kinds} and ((state = 'queued' and run_at <= now()) or state = 'running')`,
        );
        if ((row?.n ?? 0) === 0 && this.running.size === 0) return;
      }
      if (Date.now() >= deadline) throw new Error(`drain(): jobs still due or running after ${timeoutMs} ms`);
      this.nudge();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.settledWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * Puts a dead job back to queued with its attempts reset (a clerk's or an administrator's retry).
   * Answers false when there is no such dead job, or when the same work (kind, key) is already waiting.
   */
  async retry(id: number): Promise<boolean> {
    try {
      const rows = await rowsOf<{ id: number }>(
        this.db,
        sql`update background_jobs
               set state = 'queued', attempts = 0, run_at = now(), finished_at = null, locked_by = null,
                   locked_until = null, progress = null, updated_at = now()
             where id = ${id} and state = 'dead'
            returning id`,
      );
      if (rows.length > 0) this.nudge();
      return rows.length > 0;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** How many jobs of each kind are in each state. */
  async stats(): Promise<JobStats> {
    const rows = await rowsOf<{ kind: string; state: BackgroundJobState; n: number }>(
      this.db,
      sql`select kind, state, count(*)::int as n from background_jobs group by kind, state`,
    );
    const out: JobStats = {};
    for (const row of rows) {
      out[row.kind] ??= Object.fromEntries(BACKGROUND_JOB_STATES.map((s) => [s, 0])) as Record<
        BackgroundJobState,
        number
      >;
      out[row.kind]![row.state] = row.n;
    }
    return out;
  }

  /** Deletes done jobs older than `keepDoneDays`, a batch at a time (short statements on PGlite). */
  async prune(): Promise<number> {
    let total = 0;
    for (let i = 0; i < 50; i++) {
      const rows = await rowsOf<{ id: number }>(
        this.db,
        sql`delete from background_jobs where id in (
              select id from background_jobs
               where state = 'done' and finished_at < now() - ${this.keepDoneDays}::float8 * interval '1 day'
               limit ${PRUNE_BATCH})
            returning id`,
      );
      total += rows.length;
      if (rows.length < PRUNE_BATCH) break;
    }
    return total;
  }

  // ---------------------------------------------------------------- polling

  private schedulePoll(delay: number): void {
    if (!this.started) return;
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => void this.tick(), delay);
    this.pollTimer.unref();
  }

  private async tick(): Promise<void> {
    if (!this.started || this.ticking) return;
    this.tickAgain = false;
    const holdBack = this.holdBack();
    if (holdBack > 0) {
      this.schedulePoll(holdBack);
      return;
    }
    let delay = this.pollMs;
    this.ticking = this.claimAll().then(
      () => {
        this.pollFailures = 0;
      },
      (error: unknown) => {
        // The database away or refusing: say so, and look again later, less and less often.
        this.pollFailures += 1;
        delay = Math.min(MAX_POLL_BACKOFF_MS, this.pollMs * 2 ** this.pollFailures);
        this.log.error({ err: error, workerId: this.workerId, retryInMs: delay }, 'job poll failed');
      },
    );
    await this.ticking;
    this.ticking = undefined;
    this.schedulePoll(this.tickAgain && this.pollFailures === 0 ? 0 : delay);
  }

  /** Free slots of `kind` in this worker. */
  private freeSlots(kind: string, registration: Registration): number {
    let taken = 0;
    for (const run of this.running.values()) if (run.kind === kind) taken += 1;
    return registration.concurrency - taken;
  }

  /**
   * How long to hold the next claim round back for the requests (`yieldWhenBusy`); 0: claim now. Never
   * past `maxDeferMs` since the last round; nothing to hold back when no slot is free (the round claims
   * nothing) or while `drain()` waits.
   */
  private holdBack(): number {
    const policy = this.yielding;
    if (!policy || this.draining > 0) return 0;
    if (![...this.registrations].some(([kind, r]) => this.freeSlots(kind, r) > 0)) return 0;
    const left = Math.ceil(this.lastClaimRound + policy.maxDeferMs - performance.now());
    if (left <= 0) return 0;
    if (policy.busy) return policy.busy() ? Math.min(policy.checkMs, left) : 0;
    if (policy.requestsActive && !policy.requestsActive(policy.checkMs)) {
      this.eluMark = performance.eventLoopUtilization(); // a new window from now
      return 0;
    }
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, this.eluMark);
    // Over a window of a few milliseconds the measure tells the instant, not the load (a timer already
    // due when the loop came round: all active, never idle): such a look waits for a longer window.
    const tooShort = Math.min(policy.checkMs, MIN_LOOK_MS) - (since.idle + since.active);
    if (tooShort > 0) return Math.min(Math.ceil(tooShort), left);
    this.eluMark = now;
    return since.utilization > policy.busyAbove ? Math.min(policy.checkMs, left) : 0;
  }

  /** JobContext.giveWay: waits `checkMs` at a time while requests are answered, `maxDeferMs` at most. */
  private async giveWay(signal: AbortSignal): Promise<void> {
    const policy = this.yielding;
    const active = policy?.busy ? () => policy.busy!() : policy?.requestsActive;
    if (!policy || !active) return;
    const until = performance.now() + policy.maxDeferMs;
    while (!signal.aborted && performance.now() < until && active(policy.checkMs))
      await new Promise<void>((resolve) =>
        setTimeout(resolve, Math.max(1, Math.min(policy.checkMs, until - performance.now()))),
      );
  }

  /**
   * Starts a new window of the event-loop measure (see the header: after a handler settles), unless the
   * queue knows when requests are answered: then the jobs' own work counts while they are.
   */
  private restartBusyMeasure(): void {
    if (this.yielding && !this.yielding.busy && !this.yielding.requestsActive)
      this.eluMark = performance.eventLoopUtilization();
  }

  /** Claims due jobs for every registered kind with free slots, and starts them. */
  private async claimAll(): Promise<void> {
    await this.holdLife();
    for (const [kind, registration] of this.registrations) {
      if (!this.started) return;
      const free = this.freeSlots(kind, registration);
      if (free <= 0) continue;
      const claimedAt = performance.now();
      this.lastClaimRound = claimedAt;
      const rows = await this.claim(kind, free);
      for (const row of rows) this.begin(kind, registration, row, claimedAt);
    }
  }

  private claim(kind: string, limit: number): Promise<ClaimedRow[]> {
    const mine = [...this.running.keys()];
    return rowsOf<ClaimedRow>(
      this.db,
      sql`update background_jobs j
             set state = 'running', attempts = j.attempts + 1, locked_by = ${this.workerId},
                 locked_until = ${inMs(this.leaseMs)}, updated_at = now()
            from (select id, state as previous_state from background_jobs
                   where kind = ${kind}
                     and ((state = 'queued' and run_at <= now())
                          or (state = 'running' and (locked_until < now() or ${this.holderGone()})))
                     and not (id = any(${idArray(mine)}))
                   order by run_at, id
                   limit ${limit}
                   for update skip locked) c
           where j.id = c.id
       returning j.id, j.payload, j.attempts, j.max_attempts, c.previous_state`,
    );
  }

  // ---------------------------------------------------------------- running a job

  private begin(kind: string, registration: Registration, row: ClaimedRow, claimedAt: number): void {
    const id = row.id;
    const attempt = row.attempts;
    const run: Running = {
      id,
      kind,
      attempt,
      controller: new AbortController(),
      leaseDeadline: claimedAt + this.leaseMs,
      done: Promise.resolve(),
    };
    this.running.set(id, run);
    run.done = this.execute(run, registration, row)
      .catch((error: unknown) => this.log.error({ err: error, jobId: id, kind }, 'job bookkeeping failed'))
      .finally(() => {
        this.running.delete(id);
        this.restartBusyMeasure();
        for (const wake of this.settledWaiters.splice(0)) wake();
        this.nudge();
      });
  }

  private async execute(run: Running, registration: Registration, row: ClaimedRow): Promise<void> {
    if (!this.started) {
      // Claimed while stopping: hand it straight back.
      await this.release(run);
      return;
    }
    if (run.attempt > row.max_attempts) {
      // Its lease ran out on every attempt: the worker died each time (this job may be what kills it).
      this.tell(run.kind, 'dead');
      await this.finish(run, 'dead', `${run.attempt - 1} attempts; the worker running it stopped each time`);
      return;
    }
    if (row.previous_state === 'running')
      this.log.warn(
        { jobId: run.id, kind: run.kind, attempt: run.attempt },
        'taking over a job whose worker stopped',
      );

    const { signal } = run.controller;
    const timeout = setTimeout(
      () => run.controller.abort(new JobTimeoutError(registration.timeoutMs)),
      registration.timeoutMs,
    );
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<{ ok: false; error: unknown }>((resolve) => {
      onAbort = () => resolve({ ok: false, error: signal.reason });
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const context: JobContext = {
      id: run.id,
      attempt: run.attempt,
      payload: row.payload,
      signal,
      progress: (value) => this.progress(run, value),
      giveWay: () => this.giveWay(signal),
    };
    const handled = Promise.resolve()
      .then(() => this.outsideRequests(() => registration.handler(context)))
      .then(
        () => ({ ok: true as const }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    // A handler that ignores its signal is left behind, not waited for: its late writes are fenced off.
    const outcome = await Promise.race([handled, aborted]);
    clearTimeout(timeout);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    await run.progressWriting;

    if (outcome.ok) {
      this.tell(run.kind, 'done');
      return this.finish(run, 'done', null);
    }
    const { error } = outcome;
    if (error instanceof JobLeaseLostError) return; // not ours any more
    if (error instanceof JobQueueStoppingError) return this.release(run);
    const dead = isPermanent(error) || run.attempt >= row.max_attempts;
    this.tell(run.kind, dead ? 'dead' : 'retry');
    if (!dead) {
      const delay = registration.backoff(run.attempt);
      await this.requeue(
        run,
        sql`state = 'queued', run_at = ${inMs(delay)}, last_error = ${errorText(error)},
            locked_by = null, locked_until = null`,
        errorText(error),
      );
      return;
    }
    await this.finish(run, 'dead', errorText(error));
  }

  /**
   * Calls `listener` with the kind and outcome of every run of a job this worker ends (the server's
   * metrics count failures with it); answers the function that stops it.
   */
  observe(listener: (kind: string, outcome: JobOutcome) => void): () => void {
    this.outcomeListeners.add(listener);
    return () => this.outcomeListeners.delete(listener);
  }

  private tell(kind: string, outcome: JobOutcome): void {
    for (const listener of this.outcomeListeners) listener(kind, outcome);
  }

  private finish(run: Running, state: 'done' | 'dead', lastError: string | null): Promise<void> {
    return this.write(
      run,
      state === 'done'
        ? sql`state = 'done', finished_at = now(), locked_by = null, locked_until = null`
        : sql`state = 'dead', finished_at = now(), last_error = ${lastError}, locked_by = null, locked_until = null`,
    );
  }

  /** Back to queued now, the interrupted attempt not counted (the worker stopped, not the job failed). */
  private release(run: Running): Promise<void> {
    return this.requeue(
      run,
      sql`state = 'queued', attempts = attempts - 1, run_at = now(), locked_by = null, locked_until = null`,
      'stopped with its worker',
    );
  }

  /**
   * Puts the job back to queued (`set`). When the same work (kind, key) was queued again while this run
   * ran, that job does it: this one ends, done, `why` kept as its last error with the job that took its
   * place. Without this the write broke the key's unique index and the job stayed running, claimed by
   * nobody, until its lease ran out (a minute of a drain waiting on it).
   */
  private async requeue(run: Running, set: SQL, why: string): Promise<void> {
    try {
      await this.write(run, set);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const [waiting] = await rowsOf<{ id: number }>(
        this.db,
        sql`select w.id from background_jobs w join background_jobs j on j.kind = w.kind and j.key = w.key
             where j.id = ${run.id} and w.state = 'queued' and w.id <> j.id limit 1`,
      );
      await this.write(
        run,
        sql`state = 'done', finished_at = now(), locked_by = null, locked_until = null,
            last_error = ${errorText(`${why}; the same work was queued again${waiting ? ` (job ${waiting.id})` : ''}`)}`,
      );
    }
  }

  /** An update of this worker's claim on the job; nothing happens if the claim is no longer ours. */
  private async write(run: Running, set: SQL): Promise<void> {
    await this.db.execute(
      sql`update background_jobs set ${set}, updated_at = now()
           where id = ${run.id} and state = 'running' and locked_by = ${this.workerId} and attempts = ${run.attempt}`,
    );
  }

  /** Stores progress; while a write is under way, later values replace each other and the last is written. */
  private progress(run: Running, value: number | object): Promise<void> {
    run.progressNext = { value };
    run.progressWriting ??= (async () => {
      try {
        while (run.progressNext) {
          const { value: next } = run.progressNext;
          run.progressNext = undefined;
          await this.write(run, sql`progress = ${JSON.stringify(next)}::jsonb`);
        }
      } catch (error) {
        this.log.warn({ err: error, jobId: run.id }, 'job progress not stored');
      } finally {
        run.progressWriting = undefined;
      }
    })();
    return run.progressWriting;
  }

  /** Extends the leases of the running jobs; aborts a job whose lease is gone or surely expired. */
  private async renewLeases(): Promise<void> {
    if (this.running.size === 0) return;
    const runs = [...this.running.values()];
    const now = performance.now();
    for (const run of runs)
      if (now > run.leaseDeadline && !run.controller.signal.aborted)
        run.controller.abort(new JobLeaseLostError());
    const live = runs.filter((r) => !r.controller.signal.aborted);
    if (live.length === 0) return;
    try {
      const renewed = await rowsOf<{ id: number; attempts: number }>(
        this.db,
        sql`update background_jobs set locked_until = ${inMs(this.leaseMs)}
             where id = any(${idArray(live.map((r) => r.id))}) and state = 'running' and locked_by = ${this.workerId}
            returning id, attempts`,
      );
      const held = new Set(renewed.map((r) => `${r.id}:${r.attempts}`));
      for (const run of live) {
        if (held.has(`${run.id}:${run.attempt}`)) run.leaseDeadline = now + this.leaseMs;
        else if (this.running.get(run.id) === run) run.controller.abort(new JobLeaseLostError());
      }
    } catch (error) {
      this.log.warn({ err: error, workerId: this.workerId }, 'job lease renewal failed');
    }
  }

  // ---------------------------------------------------------------- pruning

  private schedulePrune(delay: number): void {
    this.pruneTimer = setTimeout(() => {
      this.pruning = this.prune()
        .then(
          () => undefined,
          (error: unknown) => this.log.warn({ err: error }, 'pruning done jobs failed'),
        )
        .finally(() => {
          this.pruning = undefined;
          if (this.started) this.schedulePrune(this.pruneEveryMs);
        });
    }, delay);
    this.pruneTimer.unref();
  }
}
