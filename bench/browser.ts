/** What the browser benchmarks share: the first administrator, created through the client as a person would. */
import type { Page } from '@playwright/test';

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
