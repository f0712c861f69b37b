/**
 * The sweep of stored bytes no row names (src-server/storage/sweep.ts, job `files.sweep`) over
 * BENCH_SWEEP_FILES (100,000) stored files of 1 KB in a local store (the layout createLocalFileStore
 * reads, written here directly), all last written two days ago; every other one is named by an
 * employee_attachments row (inserted in bulk, 5,000 a statement). Then one whole pass (`sweepFiles`:
 * the store listed 1,000 at a time, `unreferenced` asked per batch, the unnamed half removed, an audit
 * entry per batch). Prints entries listed per second, how many were removed, and the heap's growth (the
 * listing must not hold the store in memory). The database is PGlite in a temporary folder, or
 * BENCH_DATABASE_URL (PostgreSQL: a database made and dropped).
 *
 *   npx tsx bench/sweep/run.ts            (BENCH_SWEEP_FILES=20000 for a shorter run)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { ServerContext } from '../../src-server/context';
import { openDatabase } from '../../src-server/db/open';
import { rowsOf } from '../../src-server/db/rows';
import { createLocalFileStore, sha256Of } from '../../src-server/storage/files';
import { SWEEP_BATCH, sweepFiles } from '../../src-server/storage/sweep';
import { benchConfig } from '../harness';
import { round } from '../station/support';

const FILES = Number(process.env.BENCH_SWEEP_FILES ?? 100_000);
const CHUNK = 5_000;

/** A database of its own on BENCH_DATABASE_URL's server (dropped afterwards), or undefined: PGlite. */
async function databaseUrl(): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => undefined };
  const name = `sijill_bench_sweep_${process.pid}`;
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
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-sweep-'));
  const target = await databaseUrl();
  const config = benchConfig(dataDir, target.url);
  const database = await openDatabase(config);
  try {
    const filesDir = join(dataDir, 'files');
    const files = createLocalFileStore(filesDir);
    const db = database.db;
    process.stderr.write(`seeding ${FILES} files of 1 KB, every other one named by a row…\n`);
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
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    const made = new Set<string>();
    for (let start = 0; start < FILES; start += CHUNK) {
      const named: string[] = [];
      for (let i = start; i < Math.min(FILES, start + CHUNK); i++) {
        const bytes = randomBytes(1024);
        const sha256 = sha256Of(bytes);
        const folder = join(filesDir, sha256.slice(0, 2), sha256.slice(2, 4));
        const key = folder.slice(-5);
        if (!made.has(key)) {
          await mkdir(folder, { recursive: true });
          made.add(key);
        }
        await writeFile(join(folder, sha256), bytes);
        await utimes(join(folder, sha256), twoDaysAgo, twoDaysAgo);
        if (i % 2 === 0) named.push(sha256);
      }
      await db.execute(
        sql`insert into employee_attachments (employee_id, sha256, file_name, size, mime)
            select ${employee!.id}, h, 'scan.pdf', 1024, 'application/pdf'
              from unnest(${`{${named.join(',')}}`}::text[]) as h`,
      );
    }
    const seedSeconds = (performance.now() - seededAt) / 1000;
    const ctx = { db, files, config } as unknown as ServerContext;
    process.stderr.write('the sweep…\n');
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const sampler = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 50);
    const startedAt = performance.now();
    const outcome = await sweepFiles(ctx);
    const seconds = (performance.now() - startedAt) / 1000;
    clearInterval(sampler);
    const expected = Math.floor(FILES / 2);
    if (outcome.listed !== FILES || outcome.removed.length !== expected)
      throw new Error(
        `listed ${outcome.listed} of ${FILES}, removed ${outcome.removed.length} of ${expected}`,
      );
    const results = {
      benchmark: 'sweep',
      database: target.url ? 'PostgreSQL' : 'PGlite',
      files: FILES,
      batch: SWEEP_BATCH,
      removed: outcome.removed.length,
      seedSeconds: round(seedSeconds, 1),
      passSeconds: round(seconds, 1),
      listedPerSecond: Math.round(FILES / seconds),
      // The outcome keeps every removed hash (the bench checks them); the job's runs keep 20,000 at most.
      heapGrowthMB: round((heapPeak - heapBefore) / 1024 / 1024, 1),
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
