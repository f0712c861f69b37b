/**
 * Backups (src-server/backup/, docs/backups.md) with real parts: documents with attachments registered
 * while a backup runs, restored into a fresh installation whose rows (every table, every sequence) and
 * files (each hashed again) are compared with the source; --verify naming a damaged file; a restore over
 * existing data refused without --force; on PostgreSQL (SIJILL_TEST_DATABASE_URL) PG → PG and the desk's
 * move PGlite → PG; one round trip through an S3 store (@20minutes/s3rver).
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src-server/app';
import { createBackup, filePath, type BackupSource } from '../../src-server/backup/backup';
import { runBackupCommand } from '../../src-server/backup/commands';
import {
  hashColumns,
  OPTIONAL_FILE_COLUMNS,
  REQUIRED_FILE_COLUMNS,
  type Sql,
} from '../../src-server/backup/database';
import { hashFile, verifyBackup } from '../../src-server/backup/manifest';
import { restoreBackup, RestoreRefused } from '../../src-server/backup/restore';
import { loadConfig } from '../../src-server/config';
import { DEFAULT_MIGRATIONS_FOLDER } from '../../src-server/db/open';
import { createLocalFileStore, sha256Of, type FileStore } from '../../src-server/storage/files';
import { createS3FileStore } from '../../src-server/storage/s3';
import { startHarness, type Harness } from './support/harness';
import { organisation, type Org } from './support/correspondence';
import { everything, letterWithAttachment } from './support/backup';
import { scratchPostgres } from '../support/postgres';

const PG_URL = process.env.SIJILL_TEST_DATABASE_URL;

interface S3rver {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer: Server;
}
// CommonJS without type declarations.
const S3rverClass = createRequire(import.meta.url)('@20minutes/s3rver') as new (
  options: Record<string, unknown>,
) => S3rver;
const temps: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `sijill-${name}-`));
  temps.push(dir);
  return dir;
};
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

/** A new PostgreSQL database (dropped after the file); answers its URL. */
async function freshPg(): Promise<string> {
  const made = await scratchPostgres(PG_URL!);
  cleanups.push(made.drop);
  return made.url;
}

/** The harness's database as a backup source and as raw SQL. */
async function sourceOf(h: Harness): Promise<{ source: BackupSource; sql: Sql; close(): Promise<void> }> {
  if (h.database.kind === 'pglite') {
    const client = (h.database.db as unknown as { $client: PGlite }).$client;
    return { source: { kind: 'pglite', client }, sql: client, close: async () => undefined };
  }
  const [row] = await h.query<{ name: string }>('select current_database() as name');
  const url = new URL(PG_URL!);
  url.pathname = `/${row!.name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return { source: { kind: 'postgres', url: url.toString() }, sql: client, close: () => client.end() };
}

/** A fresh, empty installation of the given kind: its configuration, store and a way to read its database. */
async function emptyInstallation(kind: 'pglite' | 'postgres') {
  const dataDir = temp('restored');
  const url = kind === 'postgres' ? await freshPg() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(url ? { DATABASE_URL: url } : {}),
  });
  const files = createLocalFileStore(join(dataDir, 'files'));
  const open = async (): Promise<{ sql: Sql; close(): Promise<void> }> => {
    if (url) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return { sql: c, close: () => c.end() };
    }
    const p = await PGlite.create(join(dataDir, 'pgdata'), { extensions: { pg_trgm } });
    return { sql: p, close: () => p.close() };
  };
  return { dataDir, config, files, open };
}

/** Every attachment row's file is in `files` with the bytes its hash names. */
async function filesMatch(sql: Sql, files: FileStore): Promise<number> {
  const { rows } = await sql.query<{ sha256: string }>(`select distinct sha256 from document_attachments`);
  for (const { sha256 } of rows) expect(sha256Of(await files.get(sha256))).toBe(sha256);
  return rows.length;
}

const restore = (dir: string, target: Awaited<ReturnType<typeof emptyInstallation>>, force = false) =>
  restoreBackup({
    dir,
    config: target.config,
    files: target.files,
    migrationsFolder: DEFAULT_MIGRATIONS_FOLDER,
    force,
  });

/** The round trip on one harness (its database kind) into an empty installation of `targetKind`. */
function roundTrip(
  title: string,
  targetKind: 'pglite' | 'postgres',
  harnessOnPglite: boolean,
  withS3 = false,
) {
  describe(title, () => {
    let h: Harness;
    let org: Org;
    let src: Awaited<ReturnType<typeof sourceOf>>;
    let store: FileStore;
    beforeAll(async () => {
      const saved = process.env.SIJILL_TEST_DATABASE_URL;
      if (harnessOnPglite) delete process.env.SIJILL_TEST_DATABASE_URL;
      try {
        h = await startHarness({ DATA_DIR: temp('source') });
      } finally {
        if (saved !== undefined) process.env.SIJILL_TEST_DATABASE_URL = saved;
      }
      cleanups.push(() => h.close());
      org = await organisation(h);
      for (let i = 0; i < 3; i++) await letterWithAttachment(h, org, `before ${i}`);
      src = await sourceOf(h);
      cleanups.push(() => src.close());
      store = createLocalFileStore(h.filesDir);
      // A secrets key in the source's data folder, as the final letters make one.
      appendFileSync(join(h.config.DATA_DIR, 'secrets.key'), `${randomBytes(32).toString('base64')}\n`);
    });

    it('knows every column named …sha256 as a required or an optional file reference', async () => {
      const columns = await hashColumns(src.sql);
      for (const c of columns) expect([...REQUIRED_FILE_COLUMNS, ...OPTIONAL_FILE_COLUMNS]).toContain(c);
      for (const c of REQUIRED_FILE_COLUMNS) expect(columns).toContain(c);
    });

    it(
      'backs up while letters are registered: the restored rows agree with their files',
      { timeout: 180_000 },
      async () => {
        const dir = join(temp('backup'), 'b');
        let writing = true;
        const registered: number[] = [];
        const writer = (async () => {
          while (writing || registered.length < 3)
            registered.push(await letterWithAttachment(h, org, 'during'));
        })();
        const manifest = await createBackup({
          dir,
          source: src.source,
          files: store,
          fileStore: 'local',
          dataDir: h.config.DATA_DIR,
        });
        writing = false;
        await writer;
        expect(manifest.database.kind).toBe(h.database.kind);
        expect(manifest.files.find((f) => f.role === 'secret')).toMatchObject({
          path: 'secrets.key',
          secret: true,
        });
        expect((await verifyBackup(dir)).problems).toEqual([]);

        const target = await emptyInstallation(targetKind);
        await restore(dir, target);
        const db = await target.open();
        try {
          // Each restored document has the source's number; each attachment row is the source's (attachments
          // do not change; a document's row does, when a file is attached to it after the snapshot).
          const numbers = `select id, doc_number from documents order by id`;
          const before = (await src.sql.query(numbers)).rows;
          const after = (await db.sql.query(numbers)).rows;
          expect(after.length).toBeGreaterThanOrEqual(3);
          expect(before.slice(0, after.length)).toEqual(after);
          const rows = (await everything(src.sql)).document_attachments!;
          const restored = (await everything(db.sql)).document_attachments!;
          for (const row of restored) expect(rows).toContain(row);
          // …and every file its rows name is there, with those bytes.
          expect(await filesMatch(db.sql, target.files)).toBe(restored.length);
        } finally {
          await db.close();
        }
        expect(readFileSync(join(target.dataDir, 'secrets.key'), 'utf8')).toBe(
          readFileSync(join(h.config.DATA_DIR, 'secrets.key'), 'utf8'),
        );
      },
    );

    it(
      'restores a quiet installation exactly: every row of every table, every sequence, every file',
      { timeout: 180_000 },
      async () => {
        const dir = join(temp('backup'), 'b');
        await createBackup({
          dir,
          source: src.source,
          files: store,
          fileStore: 'local',
          dataDir: h.config.DATA_DIR,
        });
        const target = await emptyInstallation(targetKind);
        await restore(dir, target);
        const db = await target.open();
        try {
          expect(await everything(db.sql)).toEqual(await everything(src.sql));
          expect(await filesMatch(db.sql, target.files)).toBeGreaterThanOrEqual(6);
        } finally {
          await db.close();
        }

        // Restoring over it again is refused, unless --force.
        await expect(restore(dir, target)).rejects.toThrow(RestoreRefused);
        await expect(restore(dir, target)).rejects.toThrow(/existing data/);
        await restore(dir, target, true);
        const again = await target.open();
        try {
          expect(await everything(again.sql)).toEqual(await everything(src.sql));
        } finally {
          await again.close();
        }
      },
    );

    it('--verify names a damaged and a missing file and exits non-zero; restore refuses the backup', async () => {
      const dir = join(temp('backup'), 'b');
      const manifest = await createBackup({
        dir,
        source: src.source,
        files: store,
        fileStore: 'local',
        dataDir: h.config.DATA_DIR,
      });
      const [damaged, missing] = manifest.files.filter((f) => f.role === 'file');
      const errors: string[] = [];
      const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
      const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
      try {
        expect(await runBackupCommand(h.config, ['--verify', dir])).toBe(0);
        const path = join(dir, ...damaged!.path.split('/'));
        const bytes = readFileSync(path);
        const middle = bytes.length >> 1;
        bytes[middle] = bytes[middle]! ^ 0x01;
        rmSync(path);
        appendFileSync(path, bytes);
        rmSync(join(dir, ...missing!.path.split('/')));
        expect(await runBackupCommand(h.config, ['--verify', dir])).toBe(1);
      } finally {
        spy.mockRestore();
        log.mockRestore();
      }
      expect(errors.join('\n')).toContain(`DAMAGED ${damaged!.path}`);
      expect(errors.join('\n')).toContain(`MISSING ${missing!.path}`);
      expect((await hashFile(join(dir, ...damaged!.path.split('/')))).size).toBe(damaged!.size);
      const target = await emptyInstallation(targetKind);
      await expect(restore(dir, target)).rejects.toThrow(damaged!.path);
    });

    // One S3 round trip per run (not again for the PGlite → PostgreSQL move).
    if (withS3)
      it('backs up from an S3 store and restores into another prefix with the same bytes', async () => {
        const server = new S3rverClass({
          address: '127.0.0.1',
          port: 0,
          silent: true,
          directory: temp('s3'),
          configureBuckets: [{ name: 'backup-test' }],
        });
        const { port } = await server.run();
        cleanups.push(() => server.close());
        const endpoint = `http://127.0.0.1:${port}`;
        const s3 = (prefix: string) =>
          createS3FileStore({
            bucket: 'backup-test',
            endpoint,
            credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
            prefix,
            tempDir: temp('s3-temp'),
          });
        // This installation's store moved into a bucket, and one more letter registered through it.
        const files = s3('source/');
        cleanups.push(async () => files.destroy());
        const { rows } = await src.sql.query<{ sha256: string }>(
          `select distinct sha256 from document_attachments`,
        );
        for (const { sha256 } of rows) await files.put(await store.get(sha256), sha256);
        const app = await buildApp({ config: h.config, database: h.database, files });
        await app.ready();
        cleanups.push(() => app.close());
        await letterWithAttachment({ ...h, app }, org, 'in the bucket');

        const dir = join(temp('backup'), 'b');
        const manifest = await createBackup({
          dir,
          source: src.source,
          files,
          fileStore: 's3',
          dataDir: h.config.DATA_DIR,
        });
        const stored = manifest.files.filter((f) => f.role === 'file');
        expect(stored.length).toBe(rows.length + 1);
        for (const f of stored) expect(f.path).toBe(filePath(f.sha256));

        const dataDir = temp('s3-restored');
        const url = targetKind === 'postgres' ? await freshPg() : undefined;
        const config = loadConfig({
          DATA_DIR: dataDir,
          FILE_STORE: 's3',
          S3_BUCKET: 'backup-test',
          S3_ENDPOINT: endpoint,
          S3_PREFIX: 'restored/',
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
          ...(url ? { DATABASE_URL: url } : {}),
        });
        const target = s3('restored/');
        cleanups.push(async () => target.destroy());
        await restoreBackup({ dir, config, files: target, migrationsFolder: DEFAULT_MIGRATIONS_FOLDER });
        for (const f of stored) expect(sha256Of(await target.get(f.sha256))).toBe(f.sha256);
        // The installation holds data now: a second restore is refused.
        await expect(
          restoreBackup({ dir, config, files: target, migrationsFolder: DEFAULT_MIGRATIONS_FOLDER }),
        ).rejects.toThrow(/existing data/);
      });
  });
}

if (PG_URL) {
  roundTrip('PostgreSQL → PostgreSQL', 'postgres', false, true);
  roundTrip('the desk outgrown: PGlite → PostgreSQL', 'postgres', true);
} else {
  roundTrip('PGlite → PGlite', 'pglite', true, true);
}
