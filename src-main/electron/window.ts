/**
 * The main window and the hardening every web contents gets: sandboxed renderer with context isolation
 * and no Node, no new windows, no navigation away from our own pages, no webviews, and every permission
 * request (camera, notifications, geolocation, …) denied. The renderer needs none of them; should a
 * page ever be compromised, it can reach nothing beyond the IPC contract.
 */
import { BrowserWindow, app, session, type WebContents } from 'electron';

/** What the main window needs to know about the build and our own pages. */
export interface MainWindowOptions {
  /** Absolute path of the built preload script (CommonJS; sandboxed preloads cannot be ES modules). */
  preload: string;
  /** The first page (app://sijill/index.html, or the dev server's URL under `electron-vite dev`). */
  startUrl: string;
  /** Whether a URL belongs to our own pages (navigation inside them is allowed). */
  isOwnUrl: (url: string) => boolean;
  /** The window's icon (Linux and Windows taskbars; Windows installers carry assets/icon.ico). */
  icon?: string;
}

/** Creates the main window, shown once its first paint is ready so it never flashes white. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Sijill — سجل',
    ...(options.icon ? { icon: options.icon } : {}),
    autoHideMenuBar: true,
    webPreferences: {
      preload: options.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  // Also installed app-wide by installAppGuards; repeated here so the window is safe on its own.
  hardenContents(window.webContents, options.isOwnUrl);
  void window.loadURL(options.startUrl);
  return window;
}

/** Denies new windows, foreign navigation and webviews on one web contents. */
export function hardenContents(contents: WebContents, isOwnUrl: (url: string) => boolean): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event) => {
    if (!isOwnUrl(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isOwnUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * App-wide guards, installed once the app is ready: every permission denied in the default session, and
 * every web contents created later (devtools, a future viewer) hardened like the main window.
 */
export function installAppGuards(isOwnUrl: (url: string) => boolean): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  // Every kind (window, webview, devtools host…): the guards cost nothing where they are not needed.
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, isOwnUrl));
}
