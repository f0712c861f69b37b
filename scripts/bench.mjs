#!/usr/bin/env node
/**
 * `npm run bench [-- name…]`: runs the benchmarks under bench/ one after another (all of them, or the
 * named ones), each in its own process, each printing its figures. The PostgreSQL benchmarks need
 * BENCH_DATABASE_URL (a server where a database may be created); without it they are skipped, saying so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const NEEDS_POSTGRES = new Set(['correspondence', 'directory', 'load', 'search']);
const all = readdirSync(join(ROOT, 'bench'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(ROOT, 'bench', d.name, 'run.ts')))
  .map((d) => d.name)
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !all.includes(name));
if (unknown.length) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Known: ${all.join(', ')}`);
  process.exit(2);
}

let failed = 0;
for (const name of wanted.length ? wanted : all) {
  if (NEEDS_POSTGRES.has(name) && !process.env.BENCH_DATABASE_URL) {
    console.log(`\n=== bench/${name}: skipped (set BENCH_DATABASE_URL to a PostgreSQL server)`);
    continue;
  }
  console.log(`\n=== bench/${name}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join('bench', name, 'run.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    failed += 1;
    console.error(`bench/${name} exited with ${run.status ?? run.signal}`);
  }
}
process.exit(failed ? 1 : 0);
