/**
 * Restores a backup folder (backup.ts) into the installation the configuration names, which must be
 * empty (no users or documents in its database, no file in its local store) unless `force`: the manifest is
 * verified first (every file hashed again), then the database (PGlite tar → PGlite data folder; pg_dump →
 * PostgreSQL with pg_restore; PGlite tar → PostgreSQL copied row for row, copy.ts), the files and the
 * secrets key. A PostgreSQL backup does not go into an embedded PGlite. The server is stopped meanwhile.
 */
import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions } from '../db/pglite-options';
import pg from 'pg';
import type { ServerConfig } from '../config';
import type { FileStore } from '../storage/files';
import { pgliteDir, pgliteInUse } from './backup';
import { copyPgliteToPostgres, emptyPostgres } from './copy';
import { appMigrationLevel, openPgliteTar, type Sql } from './database';
import { entryPath, verifyBackup, type Manifest } from './manifest';
import { pgRestore } from './pg-tools';

/** A restore refused before anything was written: the message says why and what to do. */
export class RestoreRefused extends Error {}

export interface RestoreOptions {
  dir: string;
  config: ServerConfig;
  files: FileStore;
  migrationsFolder: string;
  /** Restore over existing data (the database is replaced; stored files stay, the backup's are added). */
  force?: boolean;
  log?: (line: string) => void;
}

/** Whether a database holds an installation's data (users or documents), not just the base data. */
async function hasData(sql: Sql): Promise<boolean> {
  for (const table of ['users', 'documents']) {
    const { rows } = await sql.query<{ t: string | null }>(`select to_regclass($1)::text as t`, [
      `public.${table}`,
    ]);
    if (!rows[0]?.t) continue;
    const { rows: any } = await sql.query(`select 1 from public.${table} limit 1`);
    if (any.length) return true;
  }
  return false;
}

/**
 * Whether the local file store holds any file. A bucket is not listed: its files are named by their
 * content, so a restore only ever adds the same bytes under the same names beside what is there; the
 * database (hasData) says whether an installation is there.
 */
async function storeHasFiles(config: ServerConfig): Promise<boolean> {
  if (config.FILE_STORE === 's3') return false;
  const root = join(config.DATA_DIR, 'files');
  const walk = async (dir: string): Promise<boolean> => {
    const list = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of list) {
      if (e.name === '.incoming') continue;
      if (e.isFile() || (e.isDirectory() && (await walk(join(dir, e.name))))) return true;
    }
    return false;
  };
  return walk(root);
}

/** Restores the backup in `dir`; answers its manifest. Throws RestoreRefused when it would overwrite. */
export async function restoreBackup(options: RestoreOptions): Promise<Manifest> {
  const { dir, config, files } = options;
  const log = options.log ?? (() => undefined);
  const target = config.DATABASE_URL ? 'postgres' : 'pglite';

  // 1. The backup is whole.
  const { manifest, problems } = await verifyBackup(dir);
  if (problems.length)
    throw new RestoreRefused(
      `The backup is damaged; nothing was restored:\n${problems.map((p) => `  ${p.path}: ${p.problem}`).join('\n')}`,
    );
  const backup = manifest.database;
  if (backup.kind === 'postgres' && target === 'pglite')
    throw new RestoreRefused(
      'This is a PostgreSQL backup: it restores into PostgreSQL (set DATABASE_URL), not into the embedded database.',
    );
  const app = await appMigrationLevel(options.migrationsFolder);
  if (backup.migrations.count > app.count)
    throw new RestoreRefused(
      `The backup was made by a newer version (${manifest.appVersion}, migration ${backup.migrations.count}; ` +
        `this one knows ${app.count}): restore it with that version or a later one.`,
    );

  // 2. The installation is empty, or the operator said --force.
  const existing: string[] = [];
  if (target === 'pglite') {
    if (pgliteInUse(config.DATA_DIR))
      throw new RestoreRefused(
        `The embedded database in ${pgliteDir(config.DATA_DIR)} is open (a server is running on it, or did ` +
          `not stop cleanly): stop the server first.`,
      );
    if (existsSync(join(pgliteDir(config.DATA_DIR), 'PG_VERSION'))) {
      const db = await PGlite.create(pgliteDir(config.DATA_DIR), pgliteOptions({ parsers: false }));
      try {
        if (await hasData(db)) existing.push(`the embedded database in ${pgliteDir(config.DATA_DIR)}`);
      } finally {
        await db.close();
      }
    }
  } else {
    const client = new pg.Client({ connectionString: config.DATABASE_URL });
    await client.connect();
    try {
      if (await hasData(client)) existing.push('the PostgreSQL database of DATABASE_URL');
    } finally {
      await client.end();
    }
  }
  if (await storeHasFiles(config)) existing.push(`the file store in ${join(config.DATA_DIR, 'files')}`);
  if (existing.length && !options.force)
    throw new RestoreRefused(
      `Refusing to restore over existing data in ${existing.join(' and ')}. Restore into an empty ` +
        `installation, or add --force to replace its database (stored files are kept beside the backup's).`,
    );

  // 3. The database.
  const dump = entryPath(dir, backup.path);
  if (target === 'pglite') {
    const data = pgliteDir(config.DATA_DIR);
    await rm(data, { recursive: true, force: true });
    await mkdir(data, { recursive: true });
    const db = await PGlite.create(data, {
      ...pgliteOptions({ parsers: false }),
      loadDataDir: new Blob([await readFile(dump)]),
    });
    await db.query('select 1');
    await db.close();
  } else if (backup.kind === 'postgres') {
    const client = new pg.Client({ connectionString: config.DATABASE_URL });
    await client.connect();
    try {
      await emptyPostgres(client);
    } finally {
      await client.end();
    }
    await pgRestore(config.DATABASE_URL!, dump);
  } else {
    const source = await openPgliteTar(await readFile(dump));
    try {
      const copied = await copyPgliteToPostgres(source, config.DATABASE_URL!, options.migrationsFolder);
      log(
        `copied ${Object.values(copied).reduce((a, b) => a + b, 0)} rows of ${Object.keys(copied).length} tables`,
      );
    } finally {
      await source.close();
    }
  }
  log(`database restored (${backup.kind} → ${target})`);

  // 4. The files, each through the store's own way in (a temporary copy it takes over).
  await mkdir(files.tempDir, { recursive: true });
  let n = 0;
  for (const entry of manifest.files) {
    if (entry.role !== 'file') continue;
    const temp = join(files.tempDir, `restore-${process.pid}-${n++}`);
    await copyFile(entryPath(dir, entry.path), temp);
    await files.putFile(temp, entry.sha256);
  }
  log(`${n} files restored`);

  // 5. The secrets key; one there before is kept beside it, never lost.
  const secret = manifest.files.find((e) => e.role === 'secret');
  if (secret) {
    const key = join(config.DATA_DIR, 'secrets.key');
    await mkdir(config.DATA_DIR, { recursive: true });
    const incoming = await readFile(entryPath(dir, secret.path));
    const before = await readFile(key).catch(() => null);
    if (before && !before.equals(incoming)) await rename(key, `${key}.before-restore-${Date.now()}`);
    await writeFile(key, incoming, { mode: 0o600 });
    await chmod(key, 0o600);
    log('secrets key restored');
  }
  return manifest;
}
