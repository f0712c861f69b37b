/**
 * Opens the server's database: node-postgres when DATABASE_URL is set, otherwise the embedded PGlite
 * (PostgreSQL in WASM, with pg_trgm) in DATA_DIR/pgdata, run in a worker thread of its own
 * (pglite-worker.ts, reached through pglite-proxy.ts) unless PGLITE_IN_THREAD is set. Applies the
 * committed drizzle-kit migrations and the base data (page tree, administrator role) in one transaction
 * (migrate.ts). Always `close()` what you open: an open PGlite
 * keeps Node alive.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';
import { applyMigrations } from './migrate';
import { INT8, INT8_ARRAY, parseInt8 } from './int8';
import { pgliteOptions } from './pglite-options';
import { PgliteProxy } from './pglite-proxy';

export { parseInt8 };

/**
 * What raw SQL (`execute`) answers, whichever driver: its rows. node-postgres' QueryResult and PGlite's
 * Results both carry them; the row type is the caller's (db/rows.ts, `rowsOf`).
 */
export interface RowsResultHKT extends PgQueryResultHKT {
  readonly type: RowsResult<this['row']>;
}
interface RowsResult<Row> {
  rows: Row[];
}

/** The drizzle database, whichever driver is underneath. */
export type Db = PgDatabase<RowsResultHKT, typeof schema>;

/** The folder name of the migrations beside this file, and (in the Electron build) beside the main bundle. */
export const MIGRATIONS_FOLDER_NAME = 'migrations';

/**
 * Where the migrations are by default: `./migrations` next to this module. Under tsx that is
 * src-server/db/migrations; in a bundle it is next to the bundle (the Electron build copies the folder to
 * out/main/migrations). The Electron launcher may pass its own path as `migrationsFolder`.
 */
export const DEFAULT_MIGRATIONS_FOLDER: string = fileURLToPath(
  new URL(`./${MIGRATIONS_FOLDER_NAME}/`, import.meta.url),
);

export interface OpenDatabaseOptions {
  DATA_DIR: string;
  DATABASE_URL?: string | undefined;
  DB_POOL_MAX?: number;
  /** Use an in-memory PGlite (tests) instead of DATA_DIR/pgdata. */
  inMemory?: boolean;
  /**
   * Run PGlite in this thread rather than in its worker thread (config PGLITE_IN_THREAD): what the server
   * did before, kept to compare (bench/embedded) and as a way out should the worker not start somewhere.
   */
  PGLITE_IN_THREAD?: boolean;
  /** PGlite's shared buffers in MB (config PGLITE_SHARED_BUFFERS_MB; pglite-options.ts). */
  PGLITE_SHARED_BUFFERS_MB?: number;
  migrationsFolder?: string;
  /** Apply migrations and base data (default true). */
  migrate?: boolean;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Applies pending migrations and the base data (idempotent), all or nothing; refuses a database a newer
   * release migrated (migrate.ts).
   */
  migrate(): Promise<void>;
  /**
   * PostgreSQL only: takes the session-level advisory lock `hashtextextended(name, 0)` on a connection
   * of its own (outside the pool) and holds it until `release()` — or until this process dies, when
   * PostgreSQL frees it with the connection: others know the holder is gone by taking it
   * (`pg_try_advisory_xact_lock`). A connection lost meanwhile is made again and the lock taken again.
   * The job queue's workers hold one each (jobs/queue.ts, "workers that die").
   */
  holdLock?(name: string): Promise<{ release(): Promise<void> }>;
  /**
   * Listens on a NOTIFY channel: `onPayload` gets each payload sent by a committed transaction, of this
   * process or (on PostgreSQL) of any server sharing the database. PostgreSQL: on a connection of its own,
   * made again when it drops, after which `onResumed` runs (what was sent meanwhile is lost: the caller
   * looks again). Answers the function that stops listening.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onResumed?: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** `Database.listen` on PostgreSQL: see there. */
async function listenPg(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
  onResumed?: () => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (resumed: boolean) => {
    const c = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
    c.on('error', () => undefined);
    c.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    c.on('end', () => {
      if (client !== c) return;
      client = null;
      if (!stopped) again(1000);
    });
    await c.connect();
    try {
      await c.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await c.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    if (resumed) onResumed?.();
  };
  const again = (delay: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect(true).catch(() => again(Math.min(RELOCK_MAX_MS, delay * 2)));
    }, delay);
    retry.unref();
  };
  await connect(false);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = null;
    await c?.end().catch(() => undefined);
  };
}

/** Waits before a lost life lock is taken again: 1 s, doubling to 30 s. */
const RELOCK_MAX_MS = 30_000;
/** How long a release waits for a taking again under way to end (see holdPgLock's release). */
const RELEASE_WAIT_MS = 10_000;

/** `Database.holdLock` on PostgreSQL: see there. */
async function holdPgLock(connectionString: string, name: string): Promise<{ release(): Promise<void> }> {
  let released = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  /** A taking again under way (after a lost connection): `release()` waits for it to end. */
  let taking: Promise<void> | undefined;
  const take = async () => {
    const c = new pg.Client({ connectionString, connectionTimeoutMillis: 10_000 });
    // A connection that drops (the database restarted, the network) is made again, its lock taken again.
    c.on('error', () => undefined);
    c.on('end', () => {
      // Only a connection that held the lock is made again; a first one that failed is the caller's.
      if (client !== c) return;
      client = null;
      if (!released) again(1000);
    });
    await c.connect();
    try {
      await c.query('select pg_advisory_lock(hashtextextended($1, 0))', [name]);
    } catch (error) {
      await c.end().catch(() => undefined);
      throw error;
    }
    if (released) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
  };
  const again = (delay: number) => {
    if (released || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      const attempt: Promise<void> = take()
        .catch(() => again(Math.min(RELOCK_MAX_MS, delay * 2)))
        .finally(() => {
          if (taking === attempt) taking = undefined;
        });
      taking = attempt;
    }, delay);
    retry.unref();
  };
  await take();
  return {
    release: async () => {
      released = true;
      clearTimeout(retry);
      // A connection being made again ends itself once it has the lock (released): release() answers after
      // that, the lock free. It waits RELEASE_WAIT_MS at most: a lock still held by a connection the
      // database has not yet seen drop (a cut network) is freed with it, later.
      if (taking) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([taking, new Promise((r) => (timer = setTimeout(r, RELEASE_WAIT_MS)))]);
        clearTimeout(timer);
      }
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/** An int8[] element by element (either driver may hand the elements over as text or as bigint). */
function parseInt8s(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(parseInt8s);
  return value === null ? null : parseInt8(String(value));
}

let pgParsesIntegers = false;
/**
 * node-postgres answers int8 as text. drizzle gives each query its own type parsers but falls back to
 * pg's global ones for int8, so the parsers are set there, once per process (the server is pg's only
 * user in it).
 */
function parseIntegersOnPg(): void {
  if (pgParsesIntegers) return;
  pgParsesIntegers = true;
  const textArray = pg.types.getTypeParser(INT8_ARRAY);
  pg.types.setTypeParser(INT8, parseInt8);
  pg.types.setTypeParser(INT8_ARRAY, (text: string) => parseInt8s(textArray(text)));
}

/** Opens (and by default migrates) the database chosen by the configuration. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  const migrationsFolder = options.migrationsFolder ?? DEFAULT_MIGRATIONS_FOLDER;
  let database: Database;
  if (options.DATABASE_URL) {
    parseIntegersOnPg();
    const pool = new pg.Pool({
      connectionString: options.DATABASE_URL,
      max: options.DB_POOL_MAX ?? 20,
      // No JIT compilation: the server's statements read milliseconds, and PostgreSQL prices several of
      // them (the visibility predicate's OR of subplans, a search's probes, a dashboard's counts) high
      // enough to compile, which costs 40 ms to over a second each time (bench/search, bench/dashboards).
      // Set on each new connection before the pool lends it (a startup option would be refused by a
      // pooler such as PgBouncer); a connection that cannot take it is not lent.
      onConnect: async (client) => {
        await client.query('set jit = off');
      },
    });
    // An idle connection the database ends (a restart, a failover, an administrator) is dropped by the pool
    // and replaced on the next query; without a listener its error would bring the whole server down.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema });
    database = {
      db,
      kind: 'postgres',
      migrate: () => applyMigrations(db, migrationsFolder),
      holdLock: (name) => holdPgLock(options.DATABASE_URL!, name),
      listen: (channel, onPayload, onResumed) =>
        listenPg(options.DATABASE_URL!, channel, onPayload, onResumed),
      close: () => pool.end(),
    };
  } else {
    let dataDir: string | undefined;
    if (!options.inMemory) {
      dataDir = resolve(options.DATA_DIR, 'pgdata');
      mkdirSync(dataDir, { recursive: true });
    }
    // In its worker thread by default: a long query there leaves this thread free to answer requests.
    const sharedBuffersMb = options.PGLITE_SHARED_BUFFERS_MB;
    const client = options.PGLITE_IN_THREAD
      ? await PGlite.create(dataDir ?? 'memory://', pgliteOptions({ sharedBuffersMb }))
      : (await PgliteProxy.start({ dataDir: dataDir ?? null, sharedBuffersMb })).asPglite();
    const db = drizzlePglite(client, { schema });
    let closed = false;
    database = {
      db,
      kind: 'pglite',
      migrate: () => applyMigrations(db, migrationsFolder),
      // One process, one database: a NOTIFY reaches this process's listeners on commit.
      listen: async (channel, onPayload) => {
        const stop = await client.listen(channel, onPayload);
        return async () => {
          if (!closed) await stop();
        };
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await client.close();
      },
    };
  }
  if (options.migrate !== false) {
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}
