#!/usr/bin/env node
// `npm test`: every suite, one summary. Runs vitest (unit, api on PGlite, renderer), the api suite
// again on PostgreSQL when SIJILL_TEST_DATABASE_URL is set, builds the renderer, runs the end-to-end
// suite in Chromium through the web shell and the Electron suite (which skips where no binary exists),
// then prints one closing line `N passed, N failed, N skipped` over all of them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);
mkdirSync('test-results', { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function vitest(label, args, outputFile, env = {}) {
  rmSync(outputFile, { force: true });
  const status = run(
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
  if (status !== 0 && report.numFailedTests === 0 && brokenFiles === 0) {
    problems.push(`${label}: exit ${status}`);
    totals.failed += 1;
  }
}

function playwright(label, args, outputFile) {
  rmSync(outputFile, { force: true });
  const status = run(label, 'npx', ['playwright', 'test', ...args], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: outputFile,
  });
  if (!existsSync(outputFile)) {
    problems.push(`${label}: no report (exit ${status})`);
    totals.failed += 1;
    return;
  }
  const { stats, errors = [] } = JSON.parse(readFileSync(outputFile, 'utf8'));
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

if (want('vitest'))
  vitest('vitest (unit, api on PGlite, renderer)', [], 'test-results/vitest.json', {
    SIJILL_TEST_DATABASE_URL: '',
  });
if (want('vitest') && process.env.SIJILL_TEST_DATABASE_URL) {
  vitest('vitest api on PostgreSQL', ['--project', 'api'], 'test-results/vitest-postgres.json');
}
if (want('e2e')) {
  if (
    run('build the renderer', 'npx', [
      'vite',
      'build',
      '--config',
      'vite.renderer.config.ts',
      '--logLevel',
      'warn',
    ]) !== 0
  ) {
    problems.push('renderer build failed');
    totals.failed += 1;
  } else {
    playwright('end-to-end in Chromium', [], 'test-results/e2e.json');
  }
}
if (want('electron'))
  playwright('Electron', ['-c', 'playwright.electron.config.ts'], 'test-results/electron.json');

console.log('');
for (const p of problems) console.log(`problem: ${p}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || problems.length > 0 ? 1 : 0);
