/**
 * Brings a database up to this build: the pending drizzle-kit migrations (src-server/db/migrations) and
 * the base data (seed.ts), all in ONE transaction, so a migration that fails leaves the database exactly
 * as it was (docs/upgrades.md). Concurrent starts on PostgreSQL wait their turn on an advisory lock held
 * by that transaction. A database that records a migration this build does not know (made by a newer
 * release) is refused before anything runs.
 *
 * The bookkeeping is drizzle's own (drizzle.__drizzle_migrations: hash and the journal's `when` as
 * created_at), so databases migrated by drizzle's migrator and by this function are the same: drizzle's
 * PostgreSQL migrator already runs the pending migrations in one transaction, but the base data after it
 * in another, and it takes no lock.
 */
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Db } from './open';
import { rowsOf } from './rows';
import { ensureBaseData } from './seed';

/** The advisory lock's name: one migrating transaction at a time per database. */
const MIGRATE_LOCK = 'sijill.migrate';

/** The database was migrated by a newer release than this build: opening it could spoil its data. */
export class DatabaseNewerThanAppError extends Error {
  override readonly name = 'DatabaseNewerThanAppError';
  constructor(readonly unknown: readonly { hash: string; createdAt: number }[]) {
    super(
      `The database has ${unknown.length} migration(s) this build of Sijill does not know ` +
        `(recorded at ${unknown.map((m) => new Date(m.createdAt).toISOString()).join(', ')}): ` +
        'it was upgraded by a newer release. Run that release (or newer), or restore a backup made ' +
        'with this one; nothing was changed.',
    );
  }
}

/** Applies the pending migrations of `migrationsFolder` and the base data in one transaction. */
export async function applyMigrations(db: Db, migrationsFolder: string): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder });
  const known = new Set(migrations.map((m) => m.folderMillis));
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${MIGRATE_LOCK}, 0))`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`
      create table if not exists drizzle.__drizzle_migrations (
        id serial primary key,
        hash text not null,
        created_at bigint
      )`);
    const applied = await rowsOf<{ hash: string; created_at: number | string | null }>(
      tx,
      sql`select hash, created_at from drizzle.__drizzle_migrations`,
    );
    const createdAts = applied.map((m) => Number(m.created_at ?? 0));
    const unknown = applied
      .map((m, i) => ({ hash: m.hash, createdAt: createdAts[i]! }))
      .filter((m) => !known.has(m.createdAt));
    if (unknown.length) throw new DatabaseNewerThanAppError(unknown);
    // As drizzle's migrator: every migration newer than the last one applied.
    const last = createdAts.length ? Math.max(...createdAts) : -Infinity;
    for (const migration of migrations) {
      if (migration.folderMillis <= last) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
    }
    await ensureBaseData(tx);
  });
}
