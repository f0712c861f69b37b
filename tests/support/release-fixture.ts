/**
 * A release's upgrade fixture (docs/upgrades.md): a database made by that release's schema with the demo
 * data, kept under tests/fixtures/releases/<version>/ so every later build proves it migrates it
 * (tests/api/upgrade.test.ts). Made at each release tag by `npm run release-fixture`
 * (scripts/make-release-fixture.mjs runs this file's `main`):
 *
 *   pglite-datadir.tar.gz   the embedded database's data folder (`PGlite.dumpDataDir('gzip')`): what a
 *                           desktop installation keeps in DATA_DIR/pgdata
 *   postgres.sql            a plain pg_dump (INSERTs, no owners or grants) of the same seed on PostgreSQL,
 *                           when a server is given (DATABASE_URL or SIJILL_TEST_DATABASE_URL)
 *   expected.json           what the test checks after migrating: counts, the demo users, one document
 *
 * Both loaders are here too, so the test and the maker agree on the files.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { scratchPostgres } from './postgres';

export { scratchPostgres };
import { systemClock } from '../../src-server/clock';
import { loadConfig } from '../../src-server/config';
import { openDatabase, DEFAULT_MIGRATIONS_FOLDER, type Db } from '../../src-server/db/open';
import { rowsOf } from '../../src-server/db/rows';
import { JobQueue } from '../../src-server/jobs/queue';
import { seedDemo } from '../../src-server/modules/demo/seed';
import { createPasswordHasher } from '../../src-server/security/passwords';
import { createLocalFileStore } from '../../src-server/storage/files';
import { VERSION } from '../../src-server/version';

/** Where the fixtures are, one folder per released version. */
export const RELEASES_DIR: string = fileURLToPath(new URL('../fixtures/releases/', import.meta.url));
export const PGLITE_FILE = 'pglite-datadir.tar.gz';
export const POSTGRES_FILE = 'postgres.sql';
export const EXPECTED_FILE = 'expected.json';
/** The demo users' password in every fixture. */
export const FIXTURE_PASSWORD = 'demo-password';

export interface FixtureCounts {
  documents: number;
  attachments: number;
  users: number;
}

/** expected.json. */
export interface ReleaseExpectation {
  version: string;
  madeAt: string;
  /** The migrations that release had: how many, and the last one's tag. */
  migrations: { count: number; last: string };
  password: string;
  /** Demo users who sign in with `password`. */
  users: string[];
  counts: FixtureCounts;
  /** A registered document `readBy` can open: its number and subject as that release wrote them. */
  document: { id: number; docNumber: string; subject: string; readBy: string };
  files: { pglite: string; postgres: string | null };
}

/** The counts the test compares. */
export async function countsOf(db: Db): Promise<FixtureCounts> {
  const [row] = await rowsOf<FixtureCounts>(
    db,
    sql`select (select count(*) from documents)::int as documents,
               (select count(*) from document_attachments)::int as attachments,
               (select count(*) from users)::int as users`,
  );
  return row!;
}

/** The fixtures present: one per folder under RELEASES_DIR holding an expected.json. */
export function releaseFixtures(): { dir: string; expected: ReleaseExpectation }[] {
  if (!existsSync(RELEASES_DIR)) return [];
  return readdirSync(RELEASES_DIR)
    .sort()
    .map((name) => join(RELEASES_DIR, name))
    .filter((dir) => existsSync(join(dir, EXPECTED_FILE)))
    .map((dir) => ({
      dir,
      expected: JSON.parse(readFileSync(join(dir, EXPECTED_FILE), 'utf8')) as ReleaseExpectation,
    }));
}

/** Unpacks a fixture's PGlite data folder into `dataDir/pgdata` (what openDatabase opens). */
export async function loadPgliteFixture(fixtureDir: string, dataDir: string): Promise<void> {
  const pgdata = join(dataDir, 'pgdata');
  mkdirSync(pgdata, { recursive: true });
  const tarball = readFileSync(join(fixtureDir, PGLITE_FILE));
  const client = await PGlite.create(pgdata, {
    extensions: { pg_trgm },
    loadDataDir: new Blob([tarball]),
  });
  await client.close();
}

/** A dump without psql's `\restrict KEY` / `\unrestrict KEY` lines. */
function withoutPsqlFence(dump: string): string {
  return dump.replace(/^\\(un)?restrict .*\n/gm, '');
}

/** Runs a fixture's plain SQL dump into the (empty) PostgreSQL database at `url`. */
export async function loadPostgresFixture(fixtureDir: string, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(withoutPsqlFence(readFileSync(join(fixtureDir, POSTGRES_FILE), 'utf8')));
  } finally {
    await client.end();
  }
}

/** Seeds the demo into the database at DATA_DIR (PGlite) or DATABASE_URL; answers what the test checks. */
async function seedFixture(
  DATA_DIR: string,
  DATABASE_URL: string | undefined,
): Promise<Pick<ReleaseExpectation, 'counts' | 'document'>> {
  const config = loadConfig({ DATA_DIR, LOG_LEVEL: 'silent', JOBS_WORKER: '0' });
  const database = await openDatabase({ ...config, DATABASE_URL });
  try {
    const db = database.db;
    await seedDemo(
      {
        db,
        config,
        // The fixture's hashes need no strength: a cheap hash keeps the sign-ins of the test fast.
        passwords: createPasswordHasher({ memoryKib: 256, timeCost: 1 }),
        files: createLocalFileStore(join(DATA_DIR, 'files')),
        jobs: new JobQueue(db),
        clock: systemClock,
        listen: database.listen,
      },
      FIXTURE_PASSWORD,
    );
    const [doc] = await rowsOf<{ id: number; doc_number: string; subject: string }>(
      db,
      sql`select d.id, d.doc_number, d.subject from documents d join users u on u.id = d.registered_by
          where u.username = 'clerk' and d.doc_number is not null order by d.id limit 1`,
    );
    if (!doc) throw new Error('the demo seed registered no document by the clerk');
    return {
      counts: await countsOf(db),
      document: { id: doc.id, docNumber: doc.doc_number, subject: doc.subject, readBy: 'clerk' },
    };
  } finally {
    await database.close();
  }
}

/** Where pg_dump is: PG_BIN, else PostgreSQL 15's folder on Debian, else the PATH. */
function pgDumpPath(): string {
  const dirs = [process.env.PG_BIN, '/usr/lib/postgresql/15/bin'].filter(Boolean) as string[];
  for (const dir of dirs) if (existsSync(join(dir, 'pg_dump'))) return join(dir, 'pg_dump');
  return 'pg_dump';
}

/** Makes tests/fixtures/releases/<version>/ for this build; answers its expected.json. */
export async function makeReleaseFixture(
  options: { outDir?: string; databaseUrl?: string } = {},
): Promise<ReleaseExpectation> {
  const outDir = options.outDir ?? join(RELEASES_DIR, VERSION);
  mkdirSync(outDir, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'sijill-fixture-'));
  try {
    // PGlite: seed on disk, then pack the data folder. Its WAL (16 MB segments, which gzip reads as
    // ~2 MB each) is most of it: a switch to a fresh segment and a checkpoint that removes the old ones
    // instead of keeping them for reuse leave one, zero-filled.
    const lite = await seedFixture(work, undefined);
    const client = await PGlite.create(join(work, 'pgdata'), { extensions: { pg_trgm } });
    await client.exec('vacuum full');
    await client.exec('set wal_recycle = off');
    await client.exec('select pg_switch_wal()');
    await client.exec('checkpoint');
    await client.exec('checkpoint');
    const dump = await client.dumpDataDir('gzip');
    await client.close();
    writeFileSync(join(outDir, PGLITE_FILE), Buffer.from(await dump.arrayBuffer()));

    // PostgreSQL: the same seed on a scratch database, dumped as plain SQL a pg client can run.
    let postgres: string | null = null;
    if (options.databaseUrl) {
      const scratch = await scratchPostgres(options.databaseUrl);
      try {
        const onPg = await seedFixture(work, scratch.url);
        if (JSON.stringify(onPg.counts) !== JSON.stringify(lite.counts))
          throw new Error(
            `the demo seed differs: PGlite ${JSON.stringify(lite.counts)}, PostgreSQL ${JSON.stringify(onPg.counts)}`,
          );
        // expected.json names one document for both: the seeds must have numbered it alike.
        if (JSON.stringify(onPg.document) !== JSON.stringify(lite.document))
          throw new Error(
            `the demo seed's document differs: ${JSON.stringify([lite.document, onPg.document])}`,
          );
        const dumped = spawnSync(
          pgDumpPath(),
          [
            '--inserts',
            '--rows-per-insert=500',
            '--no-owner',
            '--no-privileges',
            '--no-comments',
            scratch.url,
          ],
          { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
        );
        if (dumped.status !== 0) throw new Error(`pg_dump failed: ${dumped.stderr || dumped.error?.message}`);
        // pg_dump ≥ 15.14 fences its output with psql's \restrict (a random key each run); a pg client
        // cannot run psql's commands, and the file is the same from run to run without them.
        writeFileSync(join(outDir, POSTGRES_FILE), withoutPsqlFence(dumped.stdout));
        postgres = POSTGRES_FILE;
      } finally {
        await scratch.drop();
      }
    } else if (existsSync(join(outDir, POSTGRES_FILE))) {
      rmSync(join(outDir, POSTGRES_FILE));
    }

    const migrations = readMigrationFiles({ migrationsFolder: DEFAULT_MIGRATIONS_FOLDER });
    const journal = JSON.parse(
      readFileSync(join(DEFAULT_MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: { tag: string }[] };
    const expected: ReleaseExpectation = {
      version: VERSION,
      madeAt: new Date().toISOString(),
      migrations: { count: migrations.length, last: journal.entries.at(-1)?.tag ?? '' },
      password: FIXTURE_PASSWORD,
      users: ['admin', 'clerk', 'manager'],
      counts: lite.counts,
      document: lite.document,
      files: { pglite: PGLITE_FILE, postgres },
    };
    writeFileSync(join(outDir, EXPECTED_FILE), `${JSON.stringify(expected, null, 2)}\n`);
    return expected;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `npm run release-fixture [-- --out DIR]`: makes this version's fixture and prints its sizes. */
export async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf('--out');
  const outDir = at >= 0 && argv[at + 1] ? resolve(argv[at + 1]!) : join(RELEASES_DIR, VERSION);
  const databaseUrl = process.env.DATABASE_URL || process.env.SIJILL_TEST_DATABASE_URL || undefined;
  if (!databaseUrl)
    console.warn('No DATABASE_URL or SIJILL_TEST_DATABASE_URL: making the PGlite fixture only.');
  const expected = await makeReleaseFixture({ outDir, ...(databaseUrl ? { databaseUrl } : {}) });
  for (const file of [expected.files.pglite, expected.files.postgres, EXPECTED_FILE]) {
    if (file)
      console.log(`${join(outDir, file)}  ${(statSync(join(outDir, file)).size / 1024).toFixed(0)} KiB`);
  }
  console.log(`counts: ${JSON.stringify(expected.counts)}`);
}
