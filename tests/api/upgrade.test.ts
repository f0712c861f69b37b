/**
 * Upgrades from every earlier release (docs/upgrades.md): each fixture under tests/fixtures/releases (a
 * released schema with the demo data; tests/support/release-fixture.ts) is loaded into a fresh PGlite
 * and, with SIJILL_TEST_DATABASE_URL, a fresh PostgreSQL database, and migrated by today's code; then the
 * demo users sign in through the app, the counts are the fixture's and a document reads back. A
 * migration that fails midway (a copy of the migrations with a broken one added) leaves the database as
 * it was, and a database a newer release migrated is refused untouched.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-server/app';
import { loadConfig } from '../../src-server/config';
import { DatabaseNewerThanAppError } from '../../src-server/db/migrate';
import { DEFAULT_MIGRATIONS_FOLDER, openDatabase, type Database } from '../../src-server/db/open';
import { INITIAL_PAGE_TREE } from '../../src-server/db/page-tree';
import { rowsOf } from '../../src-server/db/rows';
import { JobQueue } from '../../src-server/jobs/queue';
import { createLocalFileStore } from '../../src-server/storage/files';
import {
  countsOf,
  loadPgliteFixture,
  loadPostgresFixture,
  releaseFixtures,
  scratchPostgres,
  type ReleaseExpectation,
} from '../support/release-fixture';

const BASE_URL = process.env.SIJILL_TEST_DATABASE_URL;
const KIND: 'pglite' | 'postgres' = BASE_URL ? 'postgres' : 'pglite';
const fixtures = releaseFixtures();
const TODAY = readMigrationFiles({ migrationsFolder: DEFAULT_MIGRATIONS_FOLDER });

const config = loadConfig({
  DATA_DIR: '/nonexistent-test-data',
  LOG_LEVEL: 'silent',
  AUTH_RATE_LIMIT_PER_MINUTE: '0',
  JOBS_WORKER: '0',
});

/** What each test made, undone after it (databases closed, folders removed, scratch databases dropped). */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Loads a fixture into a fresh database of this run's kind; answers how to open it (by default migrated
 * with today's migrations, as a server's start does).
 */
async function loadFixture(fixture: { dir: string; expected: ReleaseExpectation }) {
  const dataDir = tempDir('sijill-upgrade-');
  let url: string | undefined;
  if (KIND === 'postgres') {
    expect(fixture.expected.files.postgres, 'the fixture has a PostgreSQL dump').toBeTruthy();
    const scratch = await scratchPostgres(BASE_URL!);
    cleanups.push(scratch.drop);
    url = scratch.url;
    await loadPostgresFixture(fixture.dir, url);
  } else {
    await loadPgliteFixture(fixture.dir, dataDir);
  }
  return async (options: { migrate?: boolean; migrationsFolder?: string } = {}): Promise<Database> => {
    const database = await openDatabase({ ...config, DATA_DIR: dataDir, DATABASE_URL: url, ...options });
    // A test may close it first (to open it again); a second close is no matter here.
    cleanups.push(() => database.close().catch(() => undefined));
    return database;
  };
}

/** What a failed or refused start must leave as it found: the migrations recorded, the tables, the counts. */
async function stateOf(database: Database) {
  const db = database.db;
  const migrations = await rowsOf<{ hash: string; created_at: number }>(
    db,
    sql`select hash, created_at from drizzle.__drizzle_migrations order by id`,
  );
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' order by table_name`,
  );
  return { migrations, tables: tables.map((t) => t.name), counts: await countsOf(db) };
}

/** Signs in as the app's client does: the password, then "skip for now" when enrolment is offered. */
async function signIn(app: Awaited<ReturnType<typeof buildApp>>, login: string, password: string) {
  const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { login, password } });
  expect(res.statusCode, `${login}: ${res.body}`).toBe(200);
  const data = res.json().data as { accessToken?: string; challengeToken?: string; canSkip?: boolean };
  if (data.accessToken) return data.accessToken;
  expect(data.canSkip, `${login} may skip enrolment`).toBe(true);
  const skipped = await app.inject({
    method: 'POST',
    url: '/auth/two-factor/skip',
    payload: { challengeToken: data.challengeToken },
  });
  expect(skipped.statusCode, skipped.body).toBe(200);
  return skipped.json().data.accessToken as string;
}

it('there is at least one release fixture', () => {
  expect(fixtures.length).toBeGreaterThan(0);
});

describe.each(fixtures.map((f) => [f.expected.version, f] as const))(
  `release %s on ${KIND}`,
  (_, fixture) => {
    const expected = fixture.expected;

    it("today's migrations bring it up; the demo users sign in and its data reads back", async () => {
      const open = await loadFixture(fixture);
      const database = await open();
      const applied = await rowsOf<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(applied[0]!.n).toBe(TODAY.length);
      expect(await countsOf(database.db)).toEqual(expected.counts);
      // Every page offers what today's page tree offers (base data never overwrites a page: a permission a
      // page gained later comes with its migration).
      const offered = await rowsOf<{ path: string; available_permissions: string[] }>(
        database.db,
        sql`select path, available_permissions from pages`,
      );
      const byPath = new Map(offered.map((p) => [p.path, p.available_permissions]));
      for (const page of INITIAL_PAGE_TREE.flatMap((section) => section.pages))
        if (byPath.has(page.path))
          expect([...byPath.get(page.path)!].sort(), page.path).toEqual([...page.permissions].sort());

      const filesDir = tempDir('sijill-upgrade-files-');
      const app = await buildApp({
        config: { ...config, DATABASE_URL: undefined },
        database,
        files: createLocalFileStore(filesDir),
        jobs: new JobQueue(database.db),
      });
      cleanups.push(() => app.close());
      await app.ready();
      const tokens = new Map<string, string>();
      for (const user of expected.users) tokens.set(user, await signIn(app, user, expected.password));
      const res = await app.inject({
        method: 'GET',
        url: `/correspondence/documents/${expected.document.id}`,
        headers: { authorization: `Bearer ${tokens.get(expected.document.readBy)}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        docNumber: expected.document.docNumber,
        subject: expected.document.subject,
      });

      // A second start finds nothing to do and changes nothing.
      const before = await stateOf(database);
      await database.migrate();
      expect(await stateOf(database)).toEqual(before);
    });

    it('a migration that fails midway leaves the database as it was', async () => {
      // Today's migrations and two more: one that works, then one whose second statement fails after its
      // first has created a table. All pending ones run in one transaction, so none of them stays.
      const folder = tempDir('sijill-migrations-');
      cpSync(DEFAULT_MIGRATIONS_FOLDER, folder, { recursive: true });
      const journalPath = join(folder, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
        entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
      };
      const last = journal.entries.at(-1)!;
      const added = [
        { tag: '9998_works', sql: 'create table upgrade_works (id integer primary key);' },
        {
          tag: '9999_broken',
          sql: [
            'create table upgrade_broken (id integer primary key);',
            'insert into upgrade_broken values (1);',
            'insert into upgrade_broken values (1);', // a duplicate key: fails after two statements ran
          ].join('\n--> statement-breakpoint\n'),
        },
      ];
      added.forEach((m, i) => {
        journal.entries.push({
          ...last,
          idx: last.idx + 1 + i,
          when: last.when + 1000 * (i + 1),
          tag: m.tag,
        });
        writeFileSync(join(folder, `${m.tag}.sql`), m.sql);
      });
      writeFileSync(journalPath, JSON.stringify(journal, null, 2));

      const open = await loadFixture(fixture);
      const untouched = await open({ migrate: false });
      const before = await stateOf(untouched);
      await untouched.close();
      expect(before.migrations.length).toBe(expected.migrations.count);

      await expect(open({ migrationsFolder: folder })).rejects.toThrow(/insert into upgrade_broken/);

      const after = await open({ migrate: false });
      expect(await stateOf(after)).toEqual(before);
      const probes = await rowsOf<{ works: string | null; broken: string | null }>(
        after.db,
        sql`select to_regclass('public.upgrade_works')::text as works,
                 to_regclass('public.upgrade_broken')::text as broken`,
      );
      expect(probes).toEqual([{ works: null, broken: null }]);
    });

    it('a database a newer release migrated is refused, and left as it was', async () => {
      const open = await loadFixture(fixture);
      const migrated = await open();
      const future = TODAY.at(-1)!.folderMillis + 86_400_000;
      await migrated.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', ${future})`,
      );
      const before = await stateOf(migrated);
      await migrated.close();

      const refused = open();
      await expect(refused).rejects.toThrow(DatabaseNewerThanAppError);
      await expect(refused).rejects.toThrow(/newer release/);
      const after = await open({ migrate: false });
      expect(await stateOf(after)).toEqual(before);
    });
  },
);
