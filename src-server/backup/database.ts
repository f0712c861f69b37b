/**
 * The database side of a backup: a consistent dump (PostgreSQL: pg_dump reading a snapshot this module
 * exported; PGlite: its data folder as a tar, taken while no transaction is under way), and, read from
 * that same state, the migration level and the files its rows name. Works on any SQL client that answers
 * `query(text, params) → { rows }` (node-postgres' Client, PGlite and the worker's PgliteProxy all do).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from '../db/pglite-options';
import pg from 'pg';
import { PgliteProxy } from '../db/pglite-proxy';
import type { MigrationLevel } from './manifest';
import { pgDump } from './pg-tools';

/** What both node-postgres and PGlite offer. */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/**
 * Columns that name a file of the store by its SHA-256 and whose file must be there: a backup missing one
 * of these is refused. Other columns named `sha256` or `…_sha256` (e.g. intake_receipts.sha256, the
 * hash of a scanned batch that was cut into parts and never stored whole) are copied when the store has
 * their file. tests/api/backup.test.ts checks that every such column is named in one of the two lists.
 */
export const REQUIRED_FILE_COLUMNS: readonly string[] = [
  // A disposition's output (its certificate, records/service.ts) is stored before the row names it.
  'dispositions.output_sha256',
  'document_attachments.sha256',
  'employee_attachments.sha256',
  'employees.photo_sha256',
  'final_letters.sha256',
];
/** `…sha256` columns that are not (always) a stored file: see REQUIRED_FILE_COLUMNS. */
export const OPTIONAL_FILE_COLUMNS: readonly string[] = [
  // What a damaged file's bytes hashed to when the integrity check read them: not a file of the store.
  'integrity_failures.found_sha256',
  // The file found damaged or missing: required through the row that names it (an attachment), not here.
  'integrity_failures.sha256',
  'intake_receipts.sha256',
];

/** Every text column of the public schema named `sha256` or `…_sha256`, as `table.column`. */
export async function hashColumns(sql: Sql): Promise<string[]> {
  const { rows } = await sql.query<{ name: string }>(
    `select c.table_name || '.' || c.column_name as name
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
        and (c.column_name = 'sha256' or c.column_name like '%\\_sha256')
        and c.data_type = 'text'
      order by 1`,
  );
  return rows.map((r) => r.name);
}

/**
 * The files the rows name: `required` (REQUIRED_FILE_COLUMNS) and `optional` (any other hash column),
 * each a sorted list of distinct SHA-256s; a hash in both is required.
 */
export async function referencedFiles(sql: Sql): Promise<{ required: string[]; optional: string[] }> {
  const required = new Set<string>();
  const optional = new Set<string>();
  for (const name of await hashColumns(sql)) {
    const [table, column] = name.split('.') as [string, string];
    const { rows } = await sql.query<{ h: string }>(
      `select distinct ${pg.escapeIdentifier(column)} as h from ${pg.escapeIdentifier(table)}
        where ${pg.escapeIdentifier(column)} ~ '^[0-9a-f]{64}$'`,
    );
    const into = REQUIRED_FILE_COLUMNS.includes(name) ? required : optional;
    for (const { h } of rows) into.add(h);
  }
  for (const h of required) optional.delete(h);
  return { required: [...required].sort(), optional: [...optional].sort() };
}

/** The migration level of a database (count 0 when drizzle never ran there). */
export async function migrationLevel(sql: Sql): Promise<MigrationLevel> {
  const { rows: exists } = await sql.query<{ t: string | null }>(
    `select to_regclass('drizzle.__drizzle_migrations')::text as t`,
  );
  if (!exists[0]?.t) return { count: 0, last: null };
  const { rows } = await sql.query<{ count: number; last: string | null }>(
    `select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  return { count: rows[0]?.count ?? 0, last: rows[0]?.last ? Number(rows[0].last) : null };
}

/** The migration level this build of the server brings (its migrations folder's journal). */
export async function appMigrationLevel(migrationsFolder: string): Promise<MigrationLevel> {
  const journal = JSON.parse(await readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const whens = journal.entries.map((e) => e.when);
  return { count: whens.length, last: whens.length ? Math.max(...whens) : null };
}

/** What one dump read from the state it saved. */
export interface DumpFacts {
  migrations: MigrationLevel;
  files: { required: string[]; optional: string[] };
  serverVersion?: string;
}

/**
 * Dumps a PostgreSQL database into `file` (pg_dump, custom format) and reads the facts from the very
 * snapshot pg_dump reads: a repeatable-read transaction exports its snapshot, pg_dump is given it, and the
 * file references are read in that transaction while it stays open.
 */
export async function dumpPostgres(url: string, file: string): Promise<DumpFacts> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string; version: string }>(
      `select pg_export_snapshot() as snapshot, current_setting('server_version') as version`,
    );
    const { snapshot, version } = rows[0]!;
    const [facts] = await Promise.all([
      (async () => ({ migrations: await migrationLevel(client), files: await referencedFiles(client) }))(),
      pgDump(url, file, snapshot),
    ]);
    await client.query('commit');
    return { ...facts, serverVersion: version };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * PGlite's data folder as an uncompressed tar, taken while no transaction of the running server is under
 * way: PGlite runs drizzle's transactions one at a time under its transaction lock, which this holds
 * (a transaction of its own that writes nothing) while the tar is made; single statements outside a transaction are
 * atomic under its query lock, which `dumpDataDir` takes. The server goes on answering meanwhile; its
 * writes wait the time of the copy.
 */
export async function dumpPgliteData(client: PGlite | PgliteProxy): Promise<Buffer> {
  // In the worker thread (the server's default): the worker does the same steps (pglite-worker.ts).
  if (client instanceof PgliteProxy) return client.dumpDataDir();
  // A checkpoint first: the tar then opens without replaying the log, and its sequences stand exactly
  // where they stood (a replay moves each one on by the values it had logged ahead).
  const blob = await client.transaction(async (tx) => {
    await tx.query('checkpoint');
    return client.dumpDataDir('none');
  });
  return Buffer.from(await blob.arrayBuffer());
}

/** Opens a PGlite tar (dumpPgliteData) in memory, with the extensions the schema uses. Close it. */
export async function openPgliteTar(tar: Buffer): Promise<PGlite> {
  return PGlite.create({
    ...pgliteOptions({ parsers: false }),
    loadDataDir: new Blob([tar as Uint8Array<ArrayBuffer>]),
  });
}

/** The facts of a PGlite tar, read by opening it: proof too that the dump opens. */
export async function pgliteFacts(tar: Buffer): Promise<DumpFacts> {
  const copy = await openPgliteTar(tar);
  try {
    return { migrations: await migrationLevel(copy), files: await referencedFiles(copy) };
  } finally {
    await copy.close();
  }
}
