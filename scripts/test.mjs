#!/usr/bin/env node
// `npm test`: every suite, one summary. Two lanes run side by side, since neither keeps a machine's cores
// busy alone (the end-to-end suite mostly waits on a browser and its server; the vitest suites on timers,
// child processes and the database):
// - vitest (unit, api on PGlite, renderer), then the api suite again on PostgreSQL when
//   SIJILL_TEST_DATABASE_URL is set;
// - the renderer's build, the end-to-end suite in Chromium through the web shell, then the Electron suite
//   (which skips where no binary exists).
// Whichever lane is the longer, files of the end-to-end suite listed in E2E_BESIDE run at the end of the
// vitest lane instead, in a Playwright of their own (own output folder and report), so both lanes end
// together. Today the vitest lane is the longer (the API suite on both databases: 35 and 8 minutes of a
// CI run, against 35 for the end-to-end suite), so none do.
// Each lane's lines are prefixed with its name. At the end, each failure on a line (`gist`), then the
// last line: `N passed, N failed, N skipped` over all of them. `npm test -- vitest|e2e|electron …` runs
// only those parts; SIJILL_TEST_LANES=1 runs the lanes one after the other.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);
mkdirSync('test-results', { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];
/** Each failed test, named with its file and its first error line: printed again at the very end. */
const failures = [];
/**
 * What a failure says, for the summary at the end (the last lines of a CI log are often all one sees):
 * its first non-empty lines (the assertion, the locator, expected and received) on one line, and where
 * in a test file it failed.
 */
const gist = (text, at) => {
  const lines = String(text ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const where =
    at?.file && at.line
      ? `${at.file.replace(`${root}/`, '')}:${at.line}`
      : lines
          .find((l) => /^(at |❯ ).*\btests\/.*:\d+/.test(l))
          ?.replace(/^(at |❯ )/, '')
          .replace(`${root}/`, '');
  return [...lines.filter((l) => !/^(at |❯ )/.test(l)).slice(0, 8), where].filter(Boolean).join(' ⏎ ');
};

/** Runs a command with its output's lines prefixed by the lane's name; resolves with its exit status. */
function run(lane, label, command, args, env = {}) {
  console.log(`[${lane}] === ${label}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...env },
    });
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => console.log(`[${lane}] ${line}`));
    child.on('close', (code) => {
      console.log(
        `[${lane}] === ${label}: exit ${code ?? 1} after ${Math.round((Date.now() - started) / 1000)} s`,
      );
      done(code ?? 1);
    });
    child.on('error', (error) => {
      console.log(`[${lane}] ${label}: ${error.message}`);
      done(1);
    });
  });
}

async function vitest(lane, label, args, outputFile, env = {}) {
  rmSync(outputFile, { force: true });
  const status = await run(
    lane,
    label,
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`],
    env,
  );
  if (!existsSync(outputFile)) {
    problems.push(`${label}: no report (exit ${status})`);
    totals.failed += 1;
    return;
  }
  const report = JSON.parse(readFileSync(outputFile, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  // A file that fails to load counts as a failure even when no test in it ran.
  const brokenFiles = report.testResults.filter(
    (f) => f.status === 'failed' && f.assertionResults.length === 0,
  ).length;
  totals.failed += brokenFiles;
  for (const file of report.testResults) {
    const name = file.name.replace(`${root}/`, '');
    if (file.status === 'failed' && file.assertionResults.length === 0)
      failures.push(`${label}: ${name}: ${gist(file.message)}`);
    for (const test of file.assertionResults)
      if (test.status === 'failed')
        failures.push(`${label}: ${name} › ${test.fullName}: ${gist(test.failureMessages?.[0])}`);
  }
  if (status !== 0 && report.numFailedTests === 0 && brokenFiles === 0) {
    problems.push(`${label}: exit ${status}`);
    totals.failed += 1;
  }
}

async function playwright(lane, label, args, outputFile, env = {}) {
  rmSync(outputFile, { force: true });
  const status = await run(lane, label, 'npx', ['playwright', 'test', ...args], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: outputFile,
    ...env,
  });
  if (!existsSync(outputFile)) {
    problems.push(`${label}: no report (exit ${status})`);
    totals.failed += 1;
    return;
  }
  const { stats, errors = [], suites = [] } = JSON.parse(readFileSync(outputFile, 'utf8'));
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected') {
          const result = test.results?.at(-1);
          failures.push(
            `${label}: ${[...path, spec.title].join(' › ')}: ${gist(result?.error?.message, result?.error?.location)}`,
          );
        }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of suites) walk(suite, [suite.title]);
  for (const error of errors) failures.push(`${label}: ${gist(error.message)}`);
  totals.passed += stats.expected + (stats.flaky ?? 0);
  totals.failed += stats.unexpected + errors.length;
  totals.skipped += stats.skipped;
  if (status !== 0 && stats.unexpected === 0 && errors.length === 0) {
    problems.push(`${label}: exit ${status}`);
    totals.failed += 1;
  }
}

const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

/** End-to-end files run at the end of the vitest lane (see the top): none while that lane is the longer. */
const E2E_BESIDE = [];
const E2E_FILES = readdirSync('tests/e2e')
  .filter((f) => f.endsWith('.spec.ts'))
  .sort();

/** The renderer's build, once, for whichever lane needs it first. */
let building = null;
function buildRenderer() {
  building ??= run('e2e', 'build the renderer', 'npx', [
    'vite',
    'build',
    '--config',
    'vite.renderer.config.ts',
    '--logLevel',
    'warn',
  ]).then((status) => {
    if (status !== 0) {
      problems.push('renderer build failed');
      totals.failed += 1;
    }
    return status === 0;
  });
  return building;
}

async function endToEnd(lane, files, name) {
  if (files.length === 0 || !(await buildRenderer())) return;
  await playwright(
    lane,
    `end-to-end in Chromium (${files.length === 1 ? '1 file' : `${files.length} files`})`,
    files.map((f) => `tests/e2e/${f}`),
    `test-results/${name}.json`,
    { SIJILL_E2E_OUTPUT_DIR: `test-results/${name}` },
  );
}

async function vitestLane() {
  if (want('vitest')) {
    // With a PostgreSQL to run the API suite again, the fuzz suite sends 4 random requests per route on
    // each database, from two different seeds (on PGlite alone it sends 12): the two runs together try
    // as many requests as the 8 per route of one, and twice as many kinds.
    const fuzzRuns = process.env.SIJILL_TEST_DATABASE_URL ? { FUZZ_RUNS: process.env.FUZZ_RUNS ?? '4' } : {};
    const fuzzRunsPg = {
      FUZZ_RUNS: process.env.FUZZ_RUNS ?? '4',
      FUZZ_SEED: process.env.FUZZ_SEED ?? '20261125',
    };
    await vitest('vitest', 'vitest (unit, api on PGlite, renderer)', [], 'test-results/vitest.json', {
      SIJILL_TEST_DATABASE_URL: '',
      ...fuzzRuns,
    });
    if (process.env.SIJILL_TEST_DATABASE_URL)
      await vitest(
        'vitest-pg',
        'vitest api on PostgreSQL',
        ['--project', 'api'],
        'test-results/vitest-postgres.json',
        fuzzRunsPg,
      );
  }
  if (want('e2e'))
    await endToEnd(
      'e2e-beside',
      E2E_FILES.filter((f) => E2E_BESIDE.includes(f)),
      'e2e-beside',
    );
}

async function browserLane() {
  if (want('e2e'))
    await endToEnd(
      'e2e',
      E2E_FILES.filter((f) => !E2E_BESIDE.includes(f)),
      'e2e',
    );
  if (want('electron'))
    await playwright(
      'electron',
      'Electron',
      ['-c', 'playwright.electron.config.ts'],
      'test-results/electron.json',
    );
}

if (process.env.SIJILL_TEST_LANES === '1') {
  await vitestLane();
  await browserLane();
} else {
  await Promise.all([vitestLane(), browserLane()]);
}

console.log('');
for (const f of failures) console.log(`failed: ${f.slice(0, 1500)}`);
for (const p of problems) console.log(`problem: ${p}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || problems.length > 0 ? 1 : 0);
