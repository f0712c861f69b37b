/**
 * The desktop app itself, driven by Playwright's Electron launcher: it starts in standalone mode on a
 * fresh profile, the page gets `window.sijill` and no Node, and `app:info` answers from Electron. Skips
 * with a clear message where no Electron binary could be installed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { electronBinary, SKIP_REASON } from './electron-binary';

const executablePath = electronBinary();
const root = resolve(import.meta.dirname, '../..');
// The list reporter does not print skip reasons: say it once so the log explains the skips.
if (executablePath === null) console.log(SKIP_REASON);

test.describe('the desktop app', () => {
  test.skip(executablePath === null, SKIP_REASON);

  let app: ElectronApplication;
  let page: Page;
  let profile: string;

  test.beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'sijill-electron-'));
    const env = { ...process.env, SIJILL_USER_DATA_DIR: profile } as Record<string, string>;
    delete env.ELECTRON_RENDERER_URL; // the built renderer over app://, never a dev server
    delete env.ELECTRON_RUN_AS_NODE;
    app = await electron.launch({ executablePath: executablePath!, args: [root], cwd: root, env });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  test.afterAll(async () => {
    await app?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  test('the page is served from app://sijill', async () => {
    expect(page.url()).toMatch(/^app:\/\/sijill\//);
  });

  test('the page gets the bridge and no Node', async () => {
    const shape = await page.evaluate(() => {
      const g = globalThis as unknown as { sijill?: Record<string, unknown> };
      return {
        bridge: typeof g.sijill,
        methods: Object.keys(g.sijill ?? {}).sort(),
        require: typeof (globalThis as { require?: unknown }).require,
        process: typeof (globalThis as { process?: unknown }).process,
        ipcRenderer: typeof (g.sijill as { ipcRenderer?: unknown } | undefined)?.ipcRenderer,
      };
    });
    expect(shape.bridge).toBe('object');
    expect(shape.methods).toEqual(['apiRequest', 'appInfo', 'on', 'settingsGet', 'settingsSet']);
    expect(shape.require).toBe('undefined');
    expect(shape.process).toBe('undefined');
    expect(shape.ipcRenderer).toBe('undefined');
  });

  test('app:info answers from Electron in standalone mode', async () => {
    const result = await page.evaluate(() =>
      (globalThis as unknown as { sijill: { appInfo(): Promise<unknown> } }).sijill.appInfo(),
    );
    expect(result).toMatchObject({ ok: true, data: { host: 'electron', mode: 'standalone' } });
  });

  test('a bad argument is refused and the embedded server answers', async () => {
    const [bad, health] = await page.evaluate(async () => {
      const bridge = (
        globalThis as unknown as {
          sijill: { apiRequest(input: unknown): Promise<unknown> };
        }
      ).sijill;
      return [
        await bridge.apiRequest({ method: 'GET', path: 'http://evil.example/x' }),
        await bridge.apiRequest({ method: 'GET', path: '/health' }),
      ];
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'ipc.invalidInput' } });
    expect(health).toMatchObject({ ok: true, data: { status: 200 } });
  });
});
