/**
 * The Electron main process (built to out/main/index.js): one instance, the local database, the embedded
 * or the organisation's API, the services of ../setup.ts, the `app://` protocol and the window; on quit
 * the services, the server and the database close in that order so PGlite and SQLite flush cleanly.
 * The server's notifications are also shown as system notices (notices.ts). A packaged desk started
 * without its V8 flags first starts itself again with them (js-flags.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, utilityProcess, type BrowserWindow } from 'electron';
import { startEmbeddedServer, type EmbeddedServer } from '../embedded/launcher';
import { LocalStore, NewerDatabaseError } from '../services/local-store';
import { createMainServices, type MainServicesHandle } from '../setup';
import { pushEvent, registerIpc } from './ipc';
import { RELAUNCHED_FOR_JS_FLAGS, relaunchArgsForJsFlags } from './js-flags';
import { startDesktopNotices } from './notices';
import { APP_START_URL, isAppUrl, registerAppScheme, serveRenderer } from './protocol';
import { windowPrinting } from './print';
import { SafeStorageVault, safeStorageKeyProtector } from './safe-storage-vault';
import { trustedSender } from './sender-check';
import { createMainWindow, installAppGuards } from './window';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Built layout: out/main/index.js, out/preload/index.cjs, out/renderer/index.html, out/main/migrations. */
const PRELOAD = join(here, '../preload/index.cjs');
const RENDERER_DIR = join(here, '../renderer');
const SERVER_MIGRATIONS_DIR = join(here, 'migrations');

/** `electron-vite dev` serves the renderer with hot reload; only honoured in an unpackaged app. */
const devRendererUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const devOrigin = devRendererUrl ? new URL(devRendererUrl).origin : null;

/** Whether a URL is one of our pages: app://sijill, or the dev server during development. */
function isOwnUrl(url: string): boolean {
  if (isAppUrl(url)) return true;
  if (!devOrigin) return false;
  try {
    return new URL(url).origin === devOrigin;
  } catch {
    return false;
  }
}

let window: BrowserWindow | null = null;
let store: LocalStore | null = null;
let embedded: EmbeddedServer | null = null;
let services: MainServicesHandle | null = null;
let unregisterIpc: (() => void) | null = null;
let stopNotices: (() => void) | null = null;

async function start(): Promise<void> {
  const userData = app.getPath('userData');
  mkdirSync(userData, { recursive: true });

  try {
    store = LocalStore.open(join(userData, 'client.sqlite'));
  } catch (error) {
    const message =
      error instanceof NewerDatabaseError
        ? error.message
        : `The local database could not be opened: ${String(error)}`;
    dialog.showErrorBox('Sijill', message);
    app.exit(1);
    return;
  }
  const localStore = store;

  const serverUrl = localStore.getServerUrl();
  if (!serverUrl) {
    // The embedded server reads scanned pages (OCR) in a child: here an Electron utility process.
    embedded = await startEmbeddedServer(join(userData, 'server'), {
      migrationsDir: SERVER_MIGRATIONS_DIR,
      utilityFork: utilityProcess.fork,
    });
  }
  const apiBaseUrl = serverUrl ?? embedded!.url;

  services = createMainServices(
    {
      dataDir: userData,
      store: localStore,
      vault: new SafeStorageVault(join(userData, 'session.bin')),
      keyProtector: safeStorageKeyProtector(),
      apiBaseUrl,
      localServerUrl: embedded?.url ?? null,
      startedConnected: false,
      app: { name: app.getName(), version: app.getVersion(), host: 'electron' },
      chooseFolder: async () => {
        const options: Electron.OpenDialogOptions = {
          properties: ['openDirectory', 'createDirectory', 'dontAddToRecent'],
        };
        const chosen = window
          ? await dialog.showOpenDialog(window, options)
          : await dialog.showOpenDialog(options);
        return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
      },
      print: windowPrinting(() => window),
      log: console.log,
      logError: console.error,
    },
    (event, payload) => pushEvent(window, event, payload),
  );
  const { api, dispatch, sendFile } = services;
  // The server's notifications also as the system's notices, for the kinds the user wants there.
  stopNotices = startDesktopNotices({
    stream: services.notifications,
    api,
    window: () => window,
    push: (event, payload) => pushEvent(window, event, payload),
    locale: () => localStore.getSettings().selectedLocale,
    log: console.log,
  });

  installAppGuards(isOwnUrl);
  serveRenderer(RENDERER_DIR, (path, forward) => api.openFile(path, forward), sendFile);
  unregisterIpc = registerIpc(
    dispatch,
    trustedSender(() => window, isOwnUrl),
  );

  openWindow();
  app.on('window-all-closed', () => app.quit());
}

function openWindow(): void {
  window = createMainWindow({
    preload: PRELOAD,
    startUrl: devRendererUrl ?? APP_START_URL,
    isOwnUrl,
    icon: join(RENDERER_DIR, 'icon-256.png'),
  });
  window.on('closed', () => {
    window = null;
  });
}

let shutDown = false;
/** Closes the server and the database once, before Electron exits. */
async function shutdown(): Promise<void> {
  unregisterIpc?.();
  unregisterIpc = null;
  stopNotices?.();
  stopNotices = null;
  try {
    await services?.close();
  } catch (error) {
    console.error('services did not close cleanly:', error);
  }
  try {
    await embedded?.close();
  } catch (error) {
    console.error('embedded server did not close cleanly:', error);
  }
  store?.close();
}

/** Sets up and starts the desk: one instance, the window once Electron is ready, an orderly quit. */
function boot(): void {
  // Tests launch the unpackaged app on a fresh profile (Playwright's Electron suite). Set before the
  // single-instance lock, which is keyed on the user-data folder; a packaged app ignores the variable.
  if (!app.isPackaged && process.env.SIJILL_USER_DATA_DIR)
    app.setPath('userData', process.env.SIJILL_USER_DATA_DIR);

  registerAppScheme();

  if (!app.requestSingleInstanceLock()) {
    // Another Sijill is running: it gets focus (second-instance below) and this one leaves at once.
    app.quit();
  } else {
    app.on('second-instance', () => {
      if (!window) return;
      if (window.isMinimized()) window.restore();
      window.focus();
    });
    app.on('will-quit', (event) => {
      if (shutDown) return;
      event.preventDefault();
      void shutdown().finally(() => {
        shutDown = true;
        app.quit();
      });
    });
    app
      .whenReady()
      .then(start)
      .catch((error: unknown) => {
        console.error('Sijill failed to start:', error);
        dialog.showErrorBox(
          'Sijill',
          `Sijill failed to start: ${error instanceof Error ? error.message : String(error)}`,
        );
        app.exit(1);
      });
  }
}

// A packaged desk started without its V8 flags starts itself again with them, before it opens anything
// (js-flags.ts); started from source (tests, development) it runs as it is.
const relaunchArgs = app.isPackaged ? relaunchArgsForJsFlags(process.argv, process.env) : null;
if (relaunchArgs) {
  process.env[RELAUNCHED_FOR_JS_FLAGS] = '1';
  app.relaunch({ args: relaunchArgs });
  app.exit(0);
} else {
  boot();
}
