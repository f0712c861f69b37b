/**
 * Playwright fixtures: every test file gets its own web shell started by the real CLI on a fresh data
 * folder — or, with `test.use({ demo: true })`, on a copy of the demo organisation (`seed-demo`: its
 * directory, settings and correspondence in every state, users admin, clerk, manager, employee1–5 with
 * DEMO_PASSWORD) — the test waits for its "ready" line, and the shell's log is attached on failure.
 */
import { test as base, expect } from '@playwright/test';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
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

/**
 * Starts one of our commands under tsx (`args` after the script) and resolves with what `ready` reads in
 * its output once it says it is ready; a command that exits or stays silent for two minutes fails the test
 * with its output.
 */
async function launch<T>(
  name: string,
  args: string[],
  env: Record<string, string>,
  ready: (output: string) => T | null,
): Promise<{ value: T; child: ChildProcess; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const value = ready(output);
    if (value !== null) return { value, child, log: () => output };
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not start in time:\n${output}`);
}

/** Starts `src-main/web/cli.ts` and resolves when it prints its URL. */
export async function launchWebShell(
  dataDir: string,
  extraArgs: string[] = [],
): Promise<{ shell: WebShellProcess; child: ChildProcess }> {
  const { value, child, log } = await launch(
    'web shell',
    ['src-main/web/cli.ts', '--data-dir', dataDir, ...extraArgs],
    {},
    (output) => {
      const url = /Sijill web shell: (\S+)/.exec(output)?.[1];
      const api = /API server: (\S+)/.exec(output)?.[1];
      return url && api ? { url, api } : null;
    },
  );
  return { shell: { url: value.url, apiBaseUrl: value.api, dataDir, log }, child };
}

/**
 * Starts the API server alone (`src-server/cli.ts serve`, PGlite in `dataDir`) on `port` (0: any), as an
 * organisation's server the shell connects to, so a test can stop it and start it again; `env`: more of
 * its settings (config.ts), such as INTEGRITY_CHECK_INTERVAL_HOURS.
 */
export async function launchApiServer(
  dataDir: string,
  port = 0,
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; log: () => string }> {
  const { value, child, log } = await launch(
    'API server',
    ['src-server/cli.ts', 'serve'],
    { ...env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir },
    (output) => /Sijill API listening on (\S+)/.exec(output)?.[1] ?? null,
  );
  return { url: value, child, log };
}

/** The password of every demo account (`seed-demo --password`). */
export const DEMO_PASSWORD = 'Demo#2026';

/** Every file under `dir` (recursively), for hashing what the demo data is made from. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * A fresh data folder holding the demo organisation. Seeding takes half a minute, so it is done once into
 * a template (named after the day, since the demo's dates follow today, and after the code it is made
 * from: the migrations and the demo seed) and each test file gets a copy of it.
 */
export function demoDataDir(): string {
  const hash = createHash('sha256').update(new Date().toISOString().slice(0, 10));
  const sources = [
    ...filesUnder(join(ROOT, 'src-server/db/migrations')),
    join(ROOT, 'src-server/db/seed.ts'),
    join(ROOT, 'src-server/db/page-tree.ts'),
    ...filesUnder(join(ROOT, 'src-server/modules/demo')),
  ];
  for (const file of sources) hash.update(file).update(readFileSync(file));
  const template = join(tmpdir(), `sijill-e2e-demo-${hash.digest('hex').slice(0, 16)}`);
  if (!existsSync(template)) {
    const building = mkdtempSync(`${template}-building-`);
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'src-server/cli.ts', 'seed-demo', '--password', DEMO_PASSWORD],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: 'test', DATA_DIR: join(building, 'server') },
        stdio: 'pipe',
        timeout: 240_000,
      },
    );
    // Another run may have finished the same template meanwhile: either copy serves.
    try {
      renameSync(building, template);
    } catch {
      rmSync(building, { recursive: true, force: true });
    }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-e2e-'));
  cpSync(template, dataDir, { recursive: true });
  return dataDir;
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

/**
 * One web shell per test file: a worker runs several files one after the other, so the worker keeps the
 * shell of the file it is on and replaces it (fresh data folder) when the next file starts. Tests of one
 * file share it, in order (first run, then sign-in, …).
 */
class ShellPerFile {
  private current: { file: string; shell: WebShellProcess; child: ChildProcess } | null = null;

  async forFile(file: string, demo = false): Promise<WebShellProcess> {
    if (this.current?.file === file) return this.current.shell;
    await this.stop();
    const dataDir = demo ? demoDataDir() : mkdtempSync(join(tmpdir(), 'sijill-e2e-'));
    const { shell, child } = await launchWebShell(dataDir);
    this.current = { file, shell, child };
    return shell;
  }

  async stop(): Promise<void> {
    if (!this.current) return;
    const { child, shell } = this.current;
    this.current = null;
    await stopWebShell(child);
    rmSync(shell.dataDir, { recursive: true, force: true });
  }
}

export const test = base.extend<
  { shell: WebShellProcess; shellLog: void },
  { shells: ShellPerFile; demo: boolean }
>({
  // The shell of a file runs on the demo organisation (see demoDataDir).
  demo: [false, { scope: 'worker', option: true }],
  shells: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const shells = new ShellPerFile();
      await use(shells);
      await shells.stop();
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  shell: [
    async ({ shells, demo }, use, testInfo) => {
      await use(await shells.forFile(testInfo.file, demo));
    },
    { timeout: 300_000 },
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
