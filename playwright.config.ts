/**
 * End-to-end tests: Debian's Chromium drives the web shell (the whole client over the real server).
 * Each test file gets a fresh web shell on a fresh data folder (tests/e2e/fixtures.ts).
 */
import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'tests/e2e',
  // npm test runs a few files in a second Playwright beside the first (scripts/test.mjs): its own folder.
  outputDir: process.env.SIJILL_E2E_OUTPUT_DIR ?? 'test-results/e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/e2e.json' }],
  ],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1366, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
