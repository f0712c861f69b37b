/** What the browser benchmarks share: the first administrator, created through the client as a person would. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '..');
/** Where the browser benchmarks build the renderer (SIJILL_BENCH_RENDERER to use another build). */
export const BENCH_RENDERER = process.env.SIJILL_BENCH_RENDERER ?? join(ROOT, 'out/renderer');

/** Builds the renderer for a benchmark, unless --no-build is given and a build is there. */
export function buildRenderer(outDir: string = BENCH_RENDERER): void {
  if (process.argv.includes('--no-build') && existsSync(join(outDir, 'index.html'))) return;
  const result = spawnSync(
    'npx',
    ['vite', 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn', '--outDir', outDir],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (result.status !== 0) throw new Error('renderer build failed');
}

export const BENCH_ADMIN = { username: 'admin', email: 'admin@sijill.test', password: 'Admin#2025' };

/** Opens the web shell on its first run, creates the administrator, skips two-factor, waits for the menu. */
export async function createFirstAdmin(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByTestId('first-run').waitFor();
  await page.getByTestId('first-run-username').fill(BENCH_ADMIN.username);
  await page.getByTestId('first-run-email').fill(BENCH_ADMIN.email);
  await page.getByTestId('first-run-password').fill(BENCH_ADMIN.password);
  await page.getByTestId('first-run-password-confirmation').fill(BENCH_ADMIN.password);
  await page.getByTestId('first-run-submit').click();
  await page.getByTestId('two-factor-skip').click();
  await page.getByTestId('side-menu').waitFor();
}
