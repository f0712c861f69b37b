// A stand-in for the parts of Electron's main-process API that out/main/index.js uses, recording what
// main asks of it (window options, registered channels, protocol handler, guards) so a test can check
// the built bundle's wiring on machines without an Electron binary. Not a simulation of Chromium.
import { EventEmitter } from 'node:events';

export const recorded = {
  schemes: null,
  protocolHandler: null,
  channels: new Map(),
  window: null,
  quitCalled: false,
};
globalThis.__electronStub = recorded;

class App extends EventEmitter {
  isPackaged = false;
  #paths = { userData: process.env.STUB_USER_DATA };
  getPath(name) {
    return this.#paths[name];
  }
  setPath(name, value) {
    this.#paths[name] = value;
  }
  getName() {
    return 'Sijill';
  }
  getVersion() {
    return '0.0.0-stub';
  }
  requestSingleInstanceLock() {
    return true;
  }
  whenReady() {
    return Promise.resolve();
  }
  quit() {
    recorded.quitCalled = true;
  }
  exit(code) {
    process.exit(code);
  }
}
export const app = new App();

export const dialog = {
  showErrorBox: (title, message) => console.error(`[error box] ${title}: ${message}`),
};

export const ipcMain = {
  handle: (channel, handler) => recorded.channels.set(channel, handler),
  removeHandler: (channel) => recorded.channels.delete(channel),
};

export const protocol = {
  registerSchemesAsPrivileged: (schemes) => (recorded.schemes = schemes),
  handle: (_scheme, handler) => (recorded.protocolHandler = handler),
};

// Reversible and recognisable: enough to check that the vault round-trips through safeStorage.
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'basic_text',
  encryptString: (text) => Buffer.from(`stub:${text}`),
  decryptString: (buffer) => {
    const text = buffer.toString();
    if (!text.startsWith('stub:')) throw new Error('cannot decrypt');
    return text.slice(5);
  },
};

class WebContents extends EventEmitter {
  mainFrame = { url: 'app://sijill/index.html', parent: null, processId: 1, routingId: 1 };
  sent = [];
  openHandler = null;
  setWindowOpenHandler(handler) {
    this.openHandler = handler;
  }
  send(channel, payload) {
    this.sent.push([channel, payload]);
  }
  getType() {
    return 'window';
  }
}

export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContents();
    this.loadedUrl = null;
    recorded.window = this;
  }
  isDestroyed() {
    return false;
  }
  isMinimized() {
    return false;
  }
  loadURL(url) {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  show() {}
  focus() {}
  restore() {}
}

export const session = {
  defaultSession: {
    permissionRequestHandler: null,
    permissionCheckHandler: null,
    setPermissionRequestHandler(handler) {
      this.permissionRequestHandler = handler;
    },
    setPermissionCheckHandler(handler) {
      this.permissionCheckHandler = handler;
    },
    setDevicePermissionHandler() {},
  },
};

export default { app, dialog, ipcMain, protocol, safeStorage, BrowserWindow, session };
