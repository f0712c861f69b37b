/**
 * Playwright fixtures: every test file (worker) gets its own web shell started by the real CLI on a
 * fresh data folder; the test waits for its "ready" line, and the shell's log is attached on failure.
 */
import { test as base, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface WebShellProcess {
  /** The URL with the per-launch secret. */
  url: string;
  /** The API server's base URL (for tests that seed data through the API). */
  apiBaseUrl: string;
  dataDir: string;
  log: () => string;
}

const ROOT = resolve(import.meta.dirname, '../..');

/** Starts `src-main/web/cli.ts` with tsx and resolves when it prints its URL. */
export async function launchWebShell(
  dataDir: string,
): Promise<{ shell: WebShellProcess; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/web/cli.ts', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const url = /Sijill web shell: (\S+)/.exec(output)?.[1];
    const api = /API server: (\S+)/.exec(output)?.[1];
    if (url && api) return { shell: { url, apiBaseUrl: api, dataDir, log: () => output }, child };
    if (child.exitCode !== null) throw new Error(`web shell exited (${child.exitCode}):\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`web shell did not start in time:\n${output}`);
}

/** Stops the shell and waits for it to exit. */
export async function stopWebShell(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export const test = base.extend<{ shellLog: void }, { shell: WebShellProcess }>({
  shell: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'sijill-e2e-'));
      const { shell, child } = await launchWebShell(dataDir);
      await use(shell);
      await stopWebShell(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  shellLog: [
    async ({ shell }, use, testInfo) => {
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('web-shell.log', { body: shell.log(), contentType: 'text/plain' });
      }
    },
    { auto: true },
  ],
});

export { expect };
