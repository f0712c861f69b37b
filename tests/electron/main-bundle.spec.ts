/**
 * The built bundles without an Electron binary: out/main/index.js runs under Node against a stub of
 * Electron's main-process API (tests/electron/stub), and out/preload/index.cjs runs in a bare VM context
 * with only `electron` requirable, as in a sandboxed renderer. This checks what the build produced — the
 * embedded server with its shipped migrations, IPC registration and the sender check, the protocol and
 * its CSP, the guards, the 401 push, a clean quit — where app.spec.ts has to skip.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { expect, test } from '@playwright/test';

const root = resolve(import.meta.dirname, '../..');
const mainBundle = join(root, 'out/main/index.js');
const preloadBundle = join(root, 'out/preload/index.cjs');

test.describe('the built bundles (no Electron binary needed)', () => {
  test.beforeAll(() => {
    if (!existsSync(mainBundle) || !existsSync(preloadBundle)) {
      throw new Error(
        'out/main or out/preload is missing: run `npx electron-vite build` (the global setup does).',
      );
    }
  });

  test('main starts the embedded server and wires the IPC contract, protocol and guards', async () => {
    test.setTimeout(120_000);
    const userData = mkdtempSync(join(tmpdir(), 'sijill-main-bundle-'));
    try {
      const run = spawnSync(
        process.execPath,
        ['--import', './tests/electron/stub/register.mjs', 'tests/electron/stub/drive.mjs', mainBundle],
        { cwd: root, env: { ...process.env, STUB_USER_DATA: userData }, encoding: 'utf8', timeout: 100_000 },
      );
      const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
      expect(line, `no result from the driver (exit ${run.status}):\n${run.stderr}`).toBeTruthy();
      const result = JSON.parse(line!.slice('RESULT '.length));

      expect(result.webPreferences).toMatchObject({
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        webSecurity: true,
        preload: preloadBundle,
      });
      expect(result.loadedUrl).toBe('app://sijill/index.html');
      expect(result.schemes).toEqual([
        expect.objectContaining({
          scheme: 'app',
          privileges: expect.objectContaining({ standard: true, secure: true }),
        }),
      ]);
      expect(result.channels).toEqual(
        expect.arrayContaining(['app:info', 'settings:get', 'settings:set', 'api:request']),
      );
      expect(result.appInfo).toMatchObject({ ok: true, data: { host: 'electron', mode: 'standalone' } });
      expect(result.appInfo.data.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(result.health).toMatchObject({ ok: true, data: { status: 200 } });
      expect(result.foreignSender).toEqual({ ok: false, error: { code: 'ipc.forbiddenSender' } });
      expect(result.badArgument).toMatchObject({ ok: false, error: { code: 'ipc.invalidInput' } });
      expect(result.settings).toEqual({ ok: true, data: { selectedLocale: 'en', stickerPrinter: null } });
      expect(result.unauthorized).toMatchObject({ ok: true, data: { status: 401 } });
      expect(result.sent).toEqual([['event:session:expired', { rememberMe: null }]]);
      expect(result.windowOpen).toEqual({ action: 'deny' });
      expect(result.navigationPrevented).toBe(true);
      expect(result.permission).toBe(false);
      expect(result.page.status).toBe(200);
      expect(result.page.type).toMatch(/^text\/html/);
      expect(result.page.csp).toContain("script-src 'self'");
      expect(result.page.csp).toContain("object-src 'none'");
      expect(result.climbingStatus).toBe(404);
      expect(result.quit).toEqual({ prevented: true, completed: true });
      expect(existsSync(join(userData, 'client.sqlite'))).toBe(true);
      expect(existsSync(join(userData, 'server'))).toBe(true);
    } finally {
      rmSync(userData, { recursive: true, force: true });
    }
  });

  test('main ships the server’s PDF check worker, database worker and OCR child beside its bundle', () => {
    // The embedded server starts them from beside the bundle (src-server/entry.ts `siblingScript`);
    // without the PDF worker it would check PDFs in main's own thread, without the database worker the
    // embedded database would not open, without the child read no text.
    for (const name of ['pdf-check-worker.js', 'pglite-worker.js', 'ocr-child.js']) {
      const script = join(root, 'out/main', name);
      expect(existsSync(script), `${script} is missing from the build (electron.vite.config.ts)`).toBe(true);
      expect(statSync(script).size, `${script} is empty`).toBeGreaterThan(0);
    }
  });

  test('the preload is self-contained CommonJS exposing one function per channel and `on`', async () => {
    const required: string[] = [];
    const invoked: Array<[string, unknown]> = [];
    const listeners = new Map<string, (...args: unknown[]) => void>();
    let exposed: { name: string; api: Record<string, unknown> } | null = null;
    const electron = {
      contextBridge: {
        exposeInMainWorld: (name: string, api: Record<string, unknown>) => (exposed = { name, api }),
      },
      ipcRenderer: {
        invoke: async (channel: string, input: unknown) => {
          invoked.push([channel, input]);
          return { ok: true, data: null };
        },
        on: (channel: string, listener: (...args: unknown[]) => void) => listeners.set(channel, listener),
        removeListener: (channel: string) => listeners.delete(channel),
      },
    };
    // A sandboxed preload can require `electron` and little else: anything more would fail there.
    const sandboxRequire = (name: string) => {
      required.push(name);
      if (name === 'electron') return electron;
      throw new Error(`a sandboxed preload cannot require ${name}`);
    };
    const module = { exports: {} };
    runInNewContext(readFileSync(preloadBundle, 'utf8'), {
      require: sandboxRequire,
      module,
      exports: module.exports,
      console,
    });

    expect(required).toEqual(['electron']);
    expect(exposed).not.toBeNull();
    const { name, api } = exposed!;
    expect(name).toBe('sijill');
    expect(Object.keys(api)).toEqual(
      expect.arrayContaining(['appInfo', 'settingsGet', 'settingsSet', 'apiRequest', 'on']),
    );
    expect(api).not.toHaveProperty('ipcRenderer');

    await (api.settingsSet as (input: unknown) => Promise<unknown>)({ selectedLocale: 'en' });
    expect(invoked).toEqual([['settings:set', { selectedLocale: 'en' }]]);

    const payloads: unknown[] = [];
    const off = (api.on as (e: string, l: (p: unknown) => void) => () => void)('session:expired', (p) =>
      payloads.push(p),
    );
    listeners.get('event:session:expired')?.({ sender: 'the ipcRenderer event' }, { rememberMe: 'false' });
    expect(payloads).toEqual([{ rememberMe: 'false' }]);
    off();
    expect(listeners.has('event:session:expired')).toBe(false);
    (api.on as (e: string, l: () => void) => () => void)('not:an-event', () => {});
    expect(listeners.size).toBe(0);
  });
});
