/**
 * The stored files' integrity pass (issue 31; src-server/modules/reads/integrity.ts, job `files.integrity`)
 * over BENCH_INTEGRITY_FILES (100,000) stored files: each a file of BENCH_INTEGRITY_KB (4) random bytes in a
 * local store (the layout createLocalFileStore reads, written here directly) and an employee_attachments
 * row naming its SHA-256, inserted in bulk with SQL (unnest, 5,000 a statement). Then one whole pass
 * (`runIntegrityPass`, the job's batches of 500 one after another) reads and hashes every file again.
 * Prints files/second and MB/second of the pass, and what seeding took. The database is PGlite in a
 * temporary folder (the desk's default), or BENCH_DATABASE_URL (PostgreSQL: a database made and dropped).
 *
 *   npx tsx bench/integrity/run.ts            (BENCH_INTEGRITY_FILES=20000 for a shorter run)
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { ServerContext } from '../../src-server/context';
import { openDatabase } from '../../src-server/db/open';
import { rowsOf } from '../../src-server/db/rows';
import { createLocalFileStore } from '../../src-server/storage/files';
import { INTEGRITY_BATCH, runIntegrityPass } from '../../src-server/modules/reads/integrity';
import { benchConfig } from '../harness';
import { round } from '../station/support';

const FILES = Number(process.env.BENCH_INTEGRITY_FILES ?? 100_000);
const FILE_KB = Number(process.env.BENCH_INTEGRITY_KB ?? 4);
const CHUNK = 5_000;

/** A database of its own on BENCH_DATABASE_URL's server (dropped afterwards), or undefined: PGlite. */
async function databaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => undefined };
  const name = `sijill_bench_integrity_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-integrity-'));
  const target = await databaseUrl();
  const config = benchConfig(dataDir, target.url);
  const database = await openDatabase(config);
  try {
    const filesDir = join(dataDir, 'files');
    const files = createLocalFileStore(filesDir);
    const db = database.db;
    process.stderr.write(`seeding ${FILES} files of ${FILE_KB} KB…\n`);
    const seededAt = performance.now();
    const [dept] = await rowsOf<{ id: number }>(
      db,
      sql`insert into departments (name_ar, name_en) values ('قسم', 'Bench') returning id`,
    );
    const [job] = await rowsOf<{ id: number }>(
      db,
      sql`insert into jobs (name_ar, name_en) values ('وظيفة', 'Bench') returning id`,
    );
    const [employee] = await rowsOf<{ id: number }>(
      db,
      sql`insert into employees (first_name_ar, last_name_ar, first_name_en, last_name_en, department_id, job_id)
          values ('أ', 'ب', 'A', 'B', ${dept!.id}, ${job!.id}) returning id`,
    );
    const made = new Set<string>();
    for (let start = 0; start < FILES; start += CHUNK) {
      const hashes: string[] = [];
      for (let i = start; i < Math.min(FILES, start + CHUNK); i++) {
        const bytes = randomBytes(FILE_KB * 1024);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        const folder = join(filesDir, sha256.slice(0, 2), sha256.slice(2, 4));
        const key = folder.slice(-5);
        if (!made.has(key)) {
          await mkdir(folder, { recursive: true });
          made.add(key);
        }
        await writeFile(join(folder, sha256), bytes);
        hashes.push(sha256);
      }
      await db.execute(
        sql`insert into employee_attachments (employee_id, sha256, file_name, size, mime)
            select ${employee!.id}, h, 'scan.pdf', ${FILE_KB * 1024}, 'application/pdf'
              from unnest(${`{${hashes.join(',')}}`}::text[]) as h`,
      );
    }
    const seedSeconds = (performance.now() - seededAt) / 1000;
    // The pass reads what a server's context would give it: the database, the store, the settings.
    const ctx = { db, files, config } as unknown as ServerContext;
    process.stderr.write('the integrity pass…\n');
    const startedAt = performance.now();
    const pass = await runIntegrityPass(ctx);
    const seconds = (performance.now() - startedAt) / 1000;
    if (pass.checked !== FILES || pass.reported.length)
      throw new Error(`checked ${pass.checked} of ${FILES}, reported ${pass.reported.length}`);
    const results = {
      benchmark: 'integrity',
      database: target.url ? 'PostgreSQL' : 'PGlite',
      files: FILES,
      fileKB: FILE_KB,
      batch: INTEGRITY_BATCH,
      seedSeconds: round(seedSeconds, 1),
      passSeconds: round(seconds, 1),
      filesPerSecond: Math.round(FILES / seconds),
      MBPerSecond: round((FILES * FILE_KB) / 1024 / seconds, 1),
    };
    console.log(JSON.stringify(results, null, 2));
  } finally {
    await database.close();
    await target.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
