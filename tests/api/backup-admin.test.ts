/**
 * The running server backs itself up (issue 29; src-server/modules/backups, docs/backups.md): an
 * administrator's POST /admin/backup on the running app while it holds its database (the embedded PGlite
 * in its worker thread, or in the server's thread with PGLITE_IN_THREAD, or PostgreSQL with
 * SIJILL_TEST_DATABASE_URL), the folder restored into a fresh installation with the CLI's restore and
 * compared row for row and file for file; the list and its verify action; who is refused (403) and which
 * names (400, 404).
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src-server/backup/database';
import { restoreBackup } from '../../src-server/backup/restore';
import { loadConfig } from '../../src-server/config';
import { DEFAULT_MIGRATIONS_FOLDER } from '../../src-server/db/open';
import { createLocalFileStore, sha256Of } from '../../src-server/storage/files';
import { PAGES } from '../../src-shared/pages';
import { call, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { organisation, type Org } from './support/correspondence';
import { asItsBackupSaw, everything, letterWithAttachment } from './support/backup';
import { scratchPostgres } from '../support/postgres';

const PG_URL = process.env.SIJILL_TEST_DATABASE_URL;

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

/** Raw SQL on the harness's own database: its PGlite (worker proxy or in-thread) or a client of its own. */
async function sqlOf(h: Harness): Promise<{ sql: Sql; close(): Promise<void> }> {
  if (h.database.kind === 'pglite')
    return { sql: (h.database.db as unknown as { $client: Sql }).$client, close: async () => undefined };
  const [row] = await h.query<{ name: string }>('select current_database() as name');
  const url = new URL(PG_URL!);
  url.pathname = `/${row!.name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return { sql: client, close: () => client.end() };
}

function suite(title: string, overrides: Record<string, string>, onPglite: boolean) {
  describe(title, () => {
    let h: Harness;
    let org: Org;
    let backupDir: string;
    beforeAll(async () => {
      backupDir = temp('backups');
      const saved = process.env.SIJILL_TEST_DATABASE_URL;
      if (onPglite) delete process.env.SIJILL_TEST_DATABASE_URL;
      try {
        h = await startHarness({ DATA_DIR: temp('data'), BACKUP_DIR: backupDir, ...overrides });
      } finally {
        if (saved !== undefined) process.env.SIJILL_TEST_DATABASE_URL = saved;
      }
      cleanups.push(() => h.close());
      org = await organisation(h);
      for (let i = 0; i < 3; i++) await letterWithAttachment(h, org, `letter ${i}`);
      appendFileSync(join(h.config.DATA_DIR, 'secrets.key'), `${randomBytes(32).toString('base64')}\n`);
    });

    it(
      'an administrator backs up the running server; the folder restores into a fresh installation exactly',
      { timeout: 180_000 },
      async () => {
        const made = await call(h, {
          method: 'POST',
          url: '/admin/backup',
          token: org.admin.token,
          lang: 'en',
        });
        expect(made.status).toBe(201);
        const backup = made.json.data;
        expect(backup).toMatchObject({ state: 'complete', database: h.database.kind, hasSecret: true });
        expect(backup.name).toMatch(/^\d{8}-\d{6}-\d{3}$/);
        // The dump, three attachments (and whatever else the organisation stored), the secrets key.
        expect(backup.files).toBeGreaterThanOrEqual(5);
        expect(backup.size).toBeGreaterThan(0);
        expect(made.json.returnMessage).toBe('The backup was written');

        // Restored with the CLI's restore into an empty installation of the same kind.
        const dataDir = temp('restored');
        const url = h.database.kind === 'postgres' ? await freshPg() : undefined;
        const config = loadConfig({
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          ...(url ? { DATABASE_URL: url } : {}),
        });
        const files = createLocalFileStore(join(dataDir, 'files'));
        await restoreBackup({
          dir: join(backupDir, backup.name),
          config,
          files,
          migrationsFolder: DEFAULT_MIGRATIONS_FOLDER,
        });
        const source = await sqlOf(h);
        let target: { sql: Sql; close(): Promise<void> };
        if (url) {
          const c = new pg.Client({ connectionString: url });
          await c.connect();
          target = { sql: c, close: () => c.end() };
        } else {
          const p = await PGlite.create(join(dataDir, 'pgdata'), { extensions: { pg_trgm } });
          target = { sql: p, close: () => p.close() };
        }
        try {
          // Everything, less the audit row of the backup itself (written after its snapshot).
          expect(await everything(target.sql)).toEqual(
            asItsBackupSaw(await everything(source.sql), backup.name),
          );
          const { rows } = await target.sql.query<{ sha256: string }>(
            `select distinct sha256 from document_attachments`,
          );
          expect(rows.length).toBeGreaterThanOrEqual(3);
          for (const { sha256 } of rows) expect(sha256Of(await files.get(sha256))).toBe(sha256);
        } finally {
          await target.close();
          await source.close();
        }
        expect(readFileSync(join(dataDir, 'secrets.key'), 'utf8')).toBe(
          readFileSync(join(h.config.DATA_DIR, 'secrets.key'), 'utf8'),
        );
      },
    );

    it('lists the backups and verifies one by name; a damaged file shows', { timeout: 120_000 }, async () => {
      const made = await call(h, { method: 'POST', url: '/admin/backup', token: org.admin.token });
      expect(made.status).toBe(201);
      const name = made.json.data.name as string;
      const list = await call(h, { method: 'GET', url: '/admin/backups', token: org.admin.token });
      expect(list.status).toBe(200);
      const names = (list.json.data as { name: string }[]).map((b) => b.name);
      expect(names[0]).toBe(name); // newest first
      expect(list.json.data[0].verification).toBeNull();

      const ok = await call(h, {
        method: 'POST',
        url: `/admin/backups/${name}/verify`,
        token: org.admin.token,
      });
      expect(ok.status).toBe(200);
      expect(ok.json.data.verification).toMatchObject({ whole: true, problems: 0 });
      // Both are in the audit log, naming the backup and who asked.
      const entries = await h.query<{ action: string; actor_id: number; target_id: string }>(
        `select action, actor_id, target_id from audit_log where target_type = 'backup' and target_id = '${name}' order by id`,
      );
      expect(entries.map((e) => e.action)).toEqual(['backups.made', 'backups.verified']);
      expect(entries.every((e) => e.actor_id === org.admin.userId)).toBe(true);
      const again = await call(h, { method: 'GET', url: '/admin/backups', token: org.admin.token });
      expect(again.json.data[0].verification).toMatchObject({ whole: true });

      // One stored file damaged on the disk: the next verification says so.
      const manifest = JSON.parse(readFileSync(join(backupDir, name, 'manifest.json'), 'utf8')) as {
        files: { path: string; role: string }[];
      };
      const stored = manifest.files.find((f) => f.role === 'file')!;
      appendFileSync(join(backupDir, name, ...stored.path.split('/')), 'x');
      const bad = await call(h, {
        method: 'POST',
        url: `/admin/backups/${name}/verify`,
        token: org.admin.token,
      });
      expect(bad.status).toBe(200);
      expect(bad.json.data.verification).toMatchObject({ whole: false, problems: 1 });
    });

    it('refuses a user without the backups page (403) and names that are not a listed backup', async () => {
      // A user with every correspondence page, and one with view only on backups (lists, cannot make one).
      for (const [method, url] of [
        ['POST', '/admin/backup'],
        ['GET', '/admin/backups'],
        ['POST', '/admin/backups/20260101-000000-000/verify'],
      ] as const)
        expect((await call(h, { method, url, token: org.clerk.token })).status).toBe(403);
      const viewer = await makeUser(h, await makeRole(h, { [PAGES.backups]: ['view'] }));
      const token = await signIn(h, viewer);
      expect((await call(h, { method: 'GET', url: '/admin/backups', token })).status).toBe(200);
      expect((await call(h, { method: 'POST', url: '/admin/backup', token })).status).toBe(403);

      const verify = (name: string) =>
        call(h, { method: 'POST', url: `/admin/backups/${name}/verify`, token: org.admin.token });
      // Not a backup's name at all: 400 (or 404 where the URL itself resolves elsewhere: `..` is a path
      // step the router follows before any route); a well-made name the list does not hold: 404.
      for (const name of ['manifest.json', '..%2F..%2Fetc', '20260101-000000-000%2F..', 'x'.repeat(80)])
        expect([name, (await verify(name)).status]).toEqual([name, 400]);
      for (const name of ['..', '%2E%2E']) expect([400, 404]).toContain((await verify(name)).status);
      expect((await verify('19990101-000000-000')).status).toBe(404);
    });
  });
}

if (PG_URL) {
  suite('on PostgreSQL (pg_dump reading the exported snapshot)', {}, false);
} else {
  suite('on the embedded PGlite in its worker thread', {}, true);
  suite(
    'on the embedded PGlite in the server’s thread (PGLITE_IN_THREAD)',
    { PGLITE_IN_THREAD: 'true' },
    true,
  );
}
