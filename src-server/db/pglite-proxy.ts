/**
 * The server's side of the embedded database's worker thread (pglite-worker.ts): an object with the part
 * of PGlite's interface that drizzle's pglite driver and open.ts use — `query` (parameters, row mode, the
 * types drizzle keeps as text), `exec`, `transaction`, `listen`, `close`, and for backups a consistent
 * `dumpDataDir` — each call a message to the
 * worker and its answer a message back. Rows come back by structured clone, so their types are PGlite's
 * own (Date, Uint8Array, parsed JSON, numbers; bytes handed over, not copied); a database error comes
 * back with its fields (code, constraint, detail…), which db/errors.ts reads.
 *
 * Order: the worker runs one statement at a time on PGlite's one connection, and a transaction holds the
 * connection from begin to end; statements of others sent meanwhile wait their turn there, as they did
 * when PGlite ran in this thread. Admission control (http/admission.ts) still bounds how many wait.
 */
import type { Worker } from 'node:worker_threads';
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { startWorker } from '../entry';
import type { PgliteErrorShape, PgliteReply, PgliteRequest, PgliteWorkerData } from './pglite-worker';

/** Distributes `Omit` over a union (each request without its id). */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** An error of the worker, made again here with its fields (what `sqlState`, `constraintOf` read). */
function errorFrom(shape: PgliteErrorShape): Error {
  const error = Object.assign(new Error(shape.message), shape.fields);
  error.name = shape.name;
  // Where it was thrown in the worker, after where it surfaced here.
  if (shape.stack) error.stack = `${error.stack ?? ''}\n    --- in the database worker ---\n${shape.stack}`;
  return error;
}

/**
 * The types a query's parsers keep as PostgreSQL's text. Only parsers that hand the text back can cross
 * to the worker (functions cannot): drizzle's are such (dates, intervals, numeric[]); any other is an error
 * here rather than a value parsed differently there.
 */
const rawTypesOf = new WeakMap<object, number[]>();
function rawTypes(parsers: QueryOptions['parsers']): number[] {
  if (!parsers) return [];
  let types = rawTypesOf.get(parsers);
  if (!types) {
    types = Object.entries(parsers).map(([oid, parse]) => {
      const probe = 'sijill-probe';
      if (parse(probe, Number(oid)) !== probe)
        throw new Error(`a query parser for type ${oid} cannot run in the database worker`);
      return Number(oid);
    });
    rawTypesOf.set(parsers, types);
  }
  return types;
}

/** The PGlite of the worker thread, as drizzle and open.ts use it (see the file's header). */
export class PgliteProxy {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(e: Error): void }>();
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();
  private nextId = 1;
  private failure: Error | null = null;
  closed = false;

  private constructor(private readonly worker: Worker) {}

  /** Starts the worker and answers once its PGlite is open (or throws why it could not open). */
  static async start(data: PgliteWorkerData): Promise<PgliteProxy> {
    const worker = startWorker(import.meta.url, 'pglite-worker', { workerData: data });
    const proxy = new PgliteProxy(worker);
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (reply: PgliteReply) => {
        if ('ready' in reply) return resolve();
        if ('failed' in reply) return reject(errorFrom(reply.failed));
        proxy.receive(reply);
      });
      worker.on('error', (error) => {
        proxy.fail(error);
        reject(error);
      });
      worker.on('exit', (code) => {
        const error = new Error(`the database worker stopped (exit code ${code})`);
        proxy.fail(error);
        reject(error);
      });
    }).catch(async (error: unknown) => {
      await worker.terminate();
      throw error;
    });
    return proxy;
  }

  private receive(reply: PgliteReply): void {
    if ('notify' in reply) {
      for (const listener of this.listeners.get(reply.notify) ?? []) listener(reply.payload);
      return;
    }
    if (!('id' in reply)) return;
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(errorFrom(reply.error));
  }

  /** The worker failed or ended: every request waiting, and every later one, gets the error. */
  private fail(error: Error): void {
    this.failure ??= this.closed ? new Error('the database is closed') : error;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }

  private call<T>(request: WithoutId<PgliteRequest>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** `PGlite.query`, in a transaction when `tx` is its id. */
  query<T>(sql: string, params: unknown[] = [], options?: QueryOptions, tx: number | null = null) {
    if (options?.serializers) throw new Error('query serializers cannot run in the database worker');
    return this.call<Results<T>>({
      op: 'query',
      sql,
      params,
      rowMode: options?.rowMode,
      rawTypes: rawTypes(options?.parsers),
      tx,
    });
  }

  /** `PGlite.exec` (several statements, no parameters), in a transaction when `tx` is its id. */
  exec(sql: string, _options?: QueryOptions, tx: number | null = null): Promise<Results[]> {
    return this.call<Results[]>({ op: 'exec', sql, tx });
  }

  /**
   * `PGlite.transaction`: `run` gets a handle whose statements go to this transaction; it commits when
   * `run` resolves and rolls back when it throws (or after `rollback()`).
   */
  async transaction<T>(run: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ op: 'begin' });
    let closed = false;
    const open = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const end = async (commit: boolean) => {
      if (closed) return;
      closed = true;
      await this.call({ op: 'end', tx: id, commit });
    };
    const tx = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
        open();
        return this.query<R>(sql, params, options, id);
      },
      exec: (sql: string, options?: QueryOptions) => {
        open();
        return this.exec(sql, options, id);
      },
      rollback: () => end(false),
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await run(tx);
    } catch (error) {
      await end(false).catch(() => undefined);
      throw error;
    }
    await end(true);
    return result;
  }

  /** `PGlite.listen`: `onPayload` gets each NOTIFY on `channel`; answers the function that stops it. */
  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      try {
        await this.call({ op: 'listen', channel });
      } catch (error) {
        this.listeners.delete(channel);
        throw error;
      }
    }
    set.add(onPayload);
    return async () => {
      if (!set.delete(onPayload) || set.size > 0 || this.listeners.get(channel) !== set) return;
      this.listeners.delete(channel);
      if (!this.closed) await this.call({ op: 'unlisten', channel });
    };
  }

  /**
   * The data folder as an uncompressed tar, consistent: taken in the worker after a checkpoint and under
   * the transaction lock (no transaction half-written; the server's writes wait the time of the copy).
   * What backup/database.ts `dumpPgliteData` does itself for a PGlite in this thread.
   */
  async dumpDataDir(): Promise<Buffer> {
    return Buffer.from(await this.call<ArrayBuffer>({ op: 'dump' }));
  }

  /** Closes PGlite (its data written) and ends the worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.call({ op: 'close' });
    } finally {
      this.closed = true;
      await this.worker.terminate();
    }
  }

  /** This object where drizzle wants a PGlite: it uses only what is above (see the file's header). */
  asPglite(): PGlite {
    return this as unknown as PGlite;
  }
}
