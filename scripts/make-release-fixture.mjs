#!/usr/bin/env node
// `npm run release-fixture [-- --out DIR]`: at a release tag, makes tests/fixtures/releases/<version>/ —
// the demo data in this release's schema, as a PGlite data folder and (with DATABASE_URL or
// SIJILL_TEST_DATABASE_URL) a PostgreSQL dump — that tests/api/upgrade.test.ts migrates from then on
// (docs/upgrades.md). The work is tests/support/release-fixture.ts, run under tsx.
import { spawnSync } from 'node:child_process';

const code = `import('./tests/support/release-fixture.ts').then((m) => m.main(process.argv.slice(1)))
  .then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });`;
const run = spawnSync(process.execPath, ['--import', 'tsx', '--eval', code, '--', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
