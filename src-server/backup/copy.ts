/**
 * Copies an embedded desk's database (a PGlite tar from a backup) into PostgreSQL, row for row: the move
 * an office makes when it outgrows one desk. Generic over the schema: the tables, their columns, foreign
 * keys and sequences are read from the catalog, never listed here.
 *
 * The target is migrated to the app's level first (it must equal the backup's), emptied, and then, in one
 * transaction: user triggers off (search indexing, access versions: their results are copied as rows),
 * foreign keys dropped, every table copied in dependency order in batches (to_json out of PGlite,
 * json_populate_recordset into PostgreSQL, generated columns left to compute, identities kept with
 * OVERRIDING SYSTEM VALUE), each sequence set to where the source's stood, the foreign keys added back
 * (which checks every row) and the triggers on again.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrationLevel, type Sql } from './database';
import type { MigrationLevel } from './manifest';

/** Rows per batch (each batch one INSERT of a JSON array). */
const BATCH_ROWS = 500;

const ident = (name: string) => pg.escapeIdentifier(name);

/** The base tables of the public schema, each after the tables its foreign keys point to (cycles broken). */
export async function tablesInDependencyOrder(sql: Sql): Promise<string[]> {
  const { rows: tables } = await sql.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
  );
  const { rows: edges } = await sql.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent
       from pg_constraint k
       join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
       join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`,
  );
  const parents = new Map<string, Set<string>>(tables.map((t) => [t.name, new Set<string>()]));
  for (const e of edges) parents.get(e.child)?.add(e.parent);
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: string) => {
    if (state.get(table)) return; // done, or a cycle (its foreign keys are dropped during the copy anyway)
    state.set(table, 'visiting');
    for (const parent of parents.get(table) ?? []) visit(parent);
    state.set(table, 'done');
    order.push(table);
  };
  for (const t of tables) visit(t.name);
  return order;
}

/** The columns a copy writes: not dropped, not generated. */
async function writableColumns(sql: Sql, table: string): Promise<string[]> {
  const { rows } = await sql.query<{ name: string }>(
    `select a.attname as name from pg_attribute a
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by a.attnum`,
    [`public.${ident(table)}`],
  );
  return rows.map((r) => r.name);
}

/** The public schema's sequences and where each stands. */
async function sequences(sql: Sql): Promise<{ name: string; last: string; called: boolean }[]> {
  const { rows } = await sql.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'S' order by 1`,
  );
  const out = [];
  for (const { name } of rows) {
    const { rows: at } = await sql.query<{ last: string; called: boolean }>(
      `select last_value::text as last, is_called as called from public.${ident(name)}`,
    );
    out.push({ name, ...at[0]! });
  }
  return out;
}

/** Drops the public and drizzle schemas of the target and makes an empty public schema again. */
export async function emptyPostgres(client: pg.Client): Promise<void> {
  await client.query('drop schema if exists drizzle cascade');
  await client.query('drop schema if exists public cascade');
  await client.query('create schema public');
}

/**
 * Copies the database in `source` (an open PGlite, e.g. from openPgliteTar) into the PostgreSQL database
 * at `url`, which is emptied and migrated with `migrationsFolder` first; refuses when the app's migration
 * level differs from the source's. Answers the rows copied per table.
 */
export async function copyPgliteToPostgres(
  source: PGlite,
  url: string,
  migrationsFolder: string,
): Promise<Record<string, number>> {
  const from = await migrationLevel(source);
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await emptyPostgres(client);
    await migrate(drizzle(client), { migrationsFolder });
    const to = await migrationLevel(client);
    if (!sameLevel(from, to))
      throw new Error(
        `The backup's database is at migration ${from.count} and this version's at ${to.count}: restore it ` +
          `with the version that made it, then upgrade (docs/backups.md).`,
      );
    const tables = await tablesInDependencyOrder(client);
    const copied: Record<string, number> = {};
    await client.query('begin');
    try {
      const { rows: keys } = await client.query<{ table: string; name: string; def: string }>(
        `select c.relname as table, k.conname as name, pg_get_constraintdef(k.oid) as def
           from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
          where k.contype = 'f' and n.nspname = 'public'`,
      );
      for (const t of tables) await client.query(`alter table public.${ident(t)} disable trigger user`);
      for (const k of keys)
        await client.query(`alter table public.${ident(k.table)} drop constraint ${ident(k.name)}`);
      // What the migrations wrote (base data) goes: the backup's rows are the installation.
      if (tables.length) await client.query(`truncate ${tables.map((t) => `public.${ident(t)}`).join(', ')}`);
      for (const table of tables) copied[table] = await copyTable(source, client, table);
      for (const s of await sequences(source))
        await client.query(`select setval($1::regclass, $2::bigint, $3)`, [
          `public.${ident(s.name)}`,
          s.last,
          s.called,
        ]);
      for (const k of keys)
        await client.query(`alter table public.${ident(k.table)} add constraint ${ident(k.name)} ${k.def}`);
      for (const t of tables) await client.query(`alter table public.${ident(t)} enable trigger user`);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    }
    return copied;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function sameLevel(a: MigrationLevel, b: MigrationLevel): boolean {
  return a.count === b.count && a.last === b.last;
}

/** Copies one table in batches in its physical order (keyset on ctid); answers the rows copied. */
async function copyTable(source: PGlite, target: pg.Client, table: string): Promise<number> {
  const columns = await writableColumns(target, table);
  const sourceColumns = new Set(await writableColumns(source, table));
  const missing = columns.filter((c) => !sourceColumns.has(c));
  if (missing.length) throw new Error(`${table}: the backup has no column ${missing.join(', ')}`);
  const list = columns.map(ident).join(', ');
  const name = `public.${ident(table)}`;
  let after = '(0,0)';
  let total = 0;
  for (;;) {
    // As JSON text, never parsed into JS values on the way (a numeric's digits, an int8 beyond 2^53).
    const { rows } = await source.query<{ at: string; row: string }>(
      `select t.ctid::text as at, to_json(t)::text as row from ${name} t where t.ctid > $1::tid order by t.ctid limit ${BATCH_ROWS}`,
      [after],
    );
    if (!rows.length) return total;
    await target.query(
      `insert into ${name} (${list}) overriding system value
         select ${list} from json_populate_recordset(null::${name}, $1::json)`,
      [`[${rows.map((r) => r.row).join(',')}]`],
    );
    total += rows.length;
    after = rows[rows.length - 1]!.at;
  }
}
