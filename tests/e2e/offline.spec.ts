/**
 * The organisation's server goes away and comes back (issue 14): the client keeps its menu from the
 * cached page tree and says it is offline; a screen whose data could not be loaded says so (never "no
 * data yet"); when the server is back the banner goes by itself — nobody presses "Try again" — and the
 * screen shows live data. The API server runs alone here (its own process), so the test can stop it and
 * start it again on the same port; the web shell uses it as an organisation's server (--server).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { PAGES } from '../../src-shared/pages';
import { expect, launchApiServer, launchWebShell, stopWebShell, test } from './fixtures';
import { AdminShell } from './pages/AdminScreens';
import { ADMIN, Api } from './support/api';

const SCREENS = 'test-results/screens';
// The narrowest desktop the screens are made for.
test.use({ viewport: { width: 1280, height: 800 } });

test('the offline banner comes by itself and goes by itself, and screens say what could not load', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const serverDir = mkdtempSync(join(tmpdir(), 'sijill-e2e-server-'));
  const shellDir = mkdtempSync(join(tmpdir(), 'sijill-e2e-shell-'));
  let server: { url: string; child: ChildProcess } | null = await launchApiServer(serverDir);
  const url = server.url;
  const port = Number(new URL(url).port);
  const shell = await launchWebShell(shellDir, ['--server', url]);
  try {
    const api = await Api.administrator(url);
    await api.ok('POST', '/ec/jobs', { nameAr: 'أمين الأرشيف', nameEn: 'Archivist', isManager: false });

    const app = new AdminShell(page);
    await app.open(shell.shell.url);
    await app.signIn(ADMIN.username, ADMIN.password);
    await app.goTo(shell.shell.url, PAGES.jobs);
    await expect(page.getByText('أمين الأرشيف')).toBeVisible();
    await expect(page.getByTestId('offline-banner')).toHaveCount(0);

    // The server goes away: the client opens again from its cache and says so.
    await stopWebShell(server.child);
    server = null;
    await app.goTo(shell.shell.url, PAGES.employees);
    await page.reload();
    await expect(page.getByTestId('offline-banner')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('side-menu')).toBeVisible();
    await expect(page.getByTestId('dashboard-failed')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('لا توجد بيانات بعد')).toHaveCount(0);
    await page.screenshot({ path: `${SCREENS}/offline-ar.png` });

    // Back: the banner goes without anybody pressing "Try again", and the screen shows live data.
    server = await launchApiServer(serverDir, port);
    await expect(page.getByTestId('offline-banner')).toHaveCount(0, { timeout: 60_000 });
    await expect(page.getByTestId('dashboard-failed')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId('employee-dashboard')).toContainText('الوظائف');
    await page.screenshot({ path: `${SCREENS}/offline-back-ar.png` });

    // The same in English.
    await app.switchLanguage();
    await stopWebShell(server.child);
    server = null;
    await app.goTo(shell.shell.url, PAGES.jobs);
    await page.reload();
    await expect(page.getByTestId('offline-banner')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('offline-banner')).toContainText(/offline|server/i);
    await page.screenshot({ path: `${SCREENS}/offline-en.png` });
    server = await launchApiServer(serverDir, port);
    await expect(page.getByTestId('offline-banner')).toHaveCount(0, { timeout: 60_000 });
    await expect(page.getByText('Archivist')).toBeVisible({ timeout: 30_000 });
  } finally {
    if (server) await stopWebShell(server.child);
    await stopWebShell(shell.child);
    rmSync(serverDir, { recursive: true, force: true });
    rmSync(shellDir, { recursive: true, force: true });
  }
});
