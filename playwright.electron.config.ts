/**
 * The Electron suite: Playwright's Electron launcher against the built app (out/). Where no Electron
 * binary exists (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1) every test skips with a clear reason
 * and the run still exits 0.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests/electron',
  outputDir: 'test-results/electron',
  globalSetup: './tests/electron/global-setup.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/electron.json' }],
  ],
  use: { trace: 'retain-on-failure', screenshot: 'only-on-failure' },
});
