/**
 * The embedded database's own thread: PGlite (PostgreSQL in WASM, with pg_trgm) runs here, not on the
 * thread that answers requests, so a heavy search or a burst of scans keeps the database busy without
 * freezing every screen (docs/decisions.md, "The embedded database in a worker thread"). The server's
 * thread talks to it through pglite-proxy.ts, whose messages this file's types describe: queries with
 * their parameters, exec, transactions (begin … end, the statements between them sent with the
 * transaction's id), LISTEN, a backup's dump of the data folder, close. PGlite itself orders them: one connection, a transaction holds it
 * until it ends, as when it ran in the server's thread.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pgliteOptions } from './pglite-options';

/** What the worker is started with (`workerData`). */
export interface PgliteWorkerData {
  /** The data folder, or null for an in-memory database. */
  dataDir: string | null;
  /** PGlite's initial WASM memory, in bytes (it grows from there as it needs). */
  initialMemory?: number;
  /** Its shared buffers in MB (pglite-options.ts; its default when absent). */
  sharedBuffersMb?: number | undefined;
}

/** A request of the server's thread; each is answered by a `PgliteReply` with its `id`. */
export type PgliteRequest = { id: number } & (
  | {
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'object' | 'array' | undefined;
      /** Types whose values stay as PostgreSQL's text (drizzle reads dates and intervals itself). */
      rawTypes: number[];
      tx: number | null;
    }
  | { op: 'exec'; sql: string; tx: number | null }
  /** Opens a transaction; answered with its id once it holds the connection. */
  | { op: 'begin' }
  /** Commits (or rolls back) a transaction; answered once it has. */
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  /**
   * The data folder as an uncompressed tar, for a backup (backup/database.ts): a checkpoint, then
   * `dumpDataDir`, both under the transaction lock so no transaction is half-written in it.
   */
  | { op: 'dump' }
  | { op: 'close' }
);

/** An error as it crosses: its message, name and the database's fields (code, constraint, detail…). */
export interface PgliteErrorShape {
  message: string;
  name: string;
  stack?: string;
  fields: Record<string, string | number | boolean | null>;
}

/** A request's answer, or a NOTIFY on a channel listened to. */
export type PgliteReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: PgliteErrorShape }
  | { notify: string; payload: string }
  | { ready: true }
  | { failed: PgliteErrorShape };

/** An error as it can cross to the server's thread (see `PgliteErrorShape`). */
export function errorShape(error: unknown): PgliteErrorShape {
  const e = error instanceof Error ? error : new Error(String(error));
  const fields: PgliteErrorShape['fields'] = {};
  for (const [key, value] of Object.entries(e)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { message: e.message, name: e.name, ...(e.stack ? { stack: e.stack } : {}), fields };
}

if (!parentPort) throw new Error('pglite-worker runs as a worker thread');
const port: MessagePort = parentPort;
const options = workerData as PgliteWorkerData;

/** The query options of each set of raw types, made once (drizzle sends the same two sets every time). */
const queryOptions = new Map<string, QueryOptions>();
function optionsOf(rowMode: 'object' | 'array' | undefined, rawTypes: number[]): QueryOptions {
  const key = `${rowMode ?? ''}:${rawTypes.join(',')}`;
  let made = queryOptions.get(key);
  if (!made) {
    const keep = (value: string) => value;
    made = {
      ...(rowMode ? { rowMode } : {}),
      ...(rawTypes.length ? { parsers: Object.fromEntries(rawTypes.map((t) => [t, keep])) } : {}),
    };
    queryOptions.set(key, made);
  }
  return made;
}

/**
 * The buffers of the rows' byte values, handed over rather than copied (a bytea of a large row). Only a
 * Uint8Array that is its buffer's whole is handed over: a view on a larger one may share it.
 */
function transferablesOf(rows: unknown[]): ArrayBuffer[] {
  const found: ArrayBuffer[] = [];
  for (const row of rows) {
    if (!row || typeof row !== 'object') continue;
    for (const value of Object.values(row as Record<string, unknown>)) {
      if (
        value instanceof Uint8Array &&
        value.buffer instanceof ArrayBuffer &&
        value.byteOffset === 0 &&
        value.byteLength === value.buffer.byteLength &&
        !found.includes(value.buffer)
      )
        found.push(value.buffer);
    }
  }
  return found;
}

/** A transaction under way: its PGlite handle, how to end it, and when it has ended. */
interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean): void;
  ended: Promise<void>;
}

async function main(): Promise<void> {
  const pg = await PGlite.create(options.dataDir ?? 'memory://', {
    ...pgliteOptions({ sharedBuffersMb: options.sharedBuffersMb }),
    ...(options.initialMemory ? { initialMemory: options.initialMemory } : {}),
  });
  const transactions = new Map<number, OpenTransaction>();
  const listening = new Map<string, () => Promise<void>>();
  let nextTx = 1;
  const on = (tx: number | null) => {
    if (tx === null) return pg;
    const open = transactions.get(tx);
    if (!open) throw new Error(`transaction ${tx} is not open`);
    return open.tx;
  };

  const begin = (id: number) => {
    const txId = nextTx++;
    let opened = false;
    let end!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (end = resolve));
    const ended = pg
      .transaction(async (tx) => {
        opened = true;
        transactions.set(txId, { tx, end, ended });
        port.postMessage({ id, ok: true, value: txId } satisfies PgliteReply);
        // PGlite commits when this returns, and rolls back on what is thrown or after tx.rollback().
        if (!(await decided)) await tx.rollback();
      })
      .finally(() => transactions.delete(txId));
    ended.catch((error: unknown) => {
      // BEGIN itself failed: the request that asked for it hears it (a COMMIT that failed is `end`'s).
      if (!opened) port.postMessage({ id, ok: false, error: errorShape(error) } satisfies PgliteReply);
    });
  };

  const answer = async (request: PgliteRequest): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> => {
    switch (request.op) {
      case 'query': {
        const results = await on(request.tx).query(
          request.sql,
          request.params,
          optionsOf(request.rowMode, request.rawTypes),
        );
        // `blob` is for COPY … TO; none of ours.
        const { blob: _blob, ...value } = results;
        return { value, transfer: transferablesOf(results.rows) };
      }
      case 'exec':
        return { value: (await on(request.tx).exec(request.sql)).map(({ blob: _blob, ...r }) => r) };
      case 'end': {
        const open = transactions.get(request.tx);
        if (!open) throw new Error(`transaction ${request.tx} is not open`);
        open.end(request.commit);
        await open.ended;
        return { value: null };
      }
      case 'listen': {
        if (!listening.has(request.channel)) {
          const channel = request.channel;
          const stop = await pg.listen(channel, (payload) =>
            port.postMessage({ notify: channel, payload } satisfies PgliteReply),
          );
          listening.set(channel, stop);
        }
        return { value: null };
      }
      case 'unlisten': {
        const stop = listening.get(request.channel);
        listening.delete(request.channel);
        await stop?.();
        return { value: null };
      }
      case 'dump': {
        // A transaction of its own that writes nothing holds the lock every other transaction waits on;
        // the checkpoint makes the tar open without replaying the log (sequences stand where they stood).
        const blob = await pg.transaction(async (tx) => {
          await tx.query('checkpoint');
          return pg.dumpDataDir('none');
        });
        const bytes = await blob.arrayBuffer();
        return { value: bytes, transfer: [bytes] };
      }
      case 'close':
        await pg.close();
        return { value: null };
      case 'begin':
        throw new Error('begin is answered by its transaction');
    }
  };

  port.on('message', (request: PgliteRequest) => {
    if (request.op === 'begin') return begin(request.id);
    answer(request).then(
      ({ value, transfer }) =>
        port.postMessage({ id: request.id, ok: true, value } satisfies PgliteReply, transfer ?? []),
      (error: unknown) =>
        port.postMessage({ id: request.id, ok: false, error: errorShape(error) } satisfies PgliteReply),
    );
  });
  port.postMessage({ ready: true } satisfies PgliteReply);
}

main().catch((error: unknown) => port.postMessage({ failed: errorShape(error) } satisfies PgliteReply));
