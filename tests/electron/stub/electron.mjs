// A stand-in for the parts of Electron's main-process API that out/main/index.js uses, recording what
// main asks of it (window options, registered channels, protocol handler, guards) so a test can check
// the built bundle's wiring on machines without an Electron binary. Not a simulation of Chromium.
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';

export const recorded = {
  schemes: null,
  protocolHandler: null,
  channels: new Map(),
  window: null,
  quitCalled: false,
  utilityForks: [],
  notices: [],
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

// A system notice: recorded when shown; `click` and `close` are emitted by a test.
export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options) {
    super();
    this.options = options;
  }
  show() {
    recorded.notices.push(this);
  }
  close() {
    this.emit('close');
  }
}

// A utility process as a Node child with an IPC channel (the OCR child speaks both transports).
export const utilityProcess = {
  fork(modulePath, args, options) {
    recorded.utilityForks.push({ modulePath, serviceName: options?.serviceName });
    const child = fork(modulePath, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    return Object.assign(child, { postMessage: (message) => child.send(message) });
  },
};

export default {
  app,
  dialog,
  ipcMain,
  protocol,
  safeStorage,
  BrowserWindow,
  Notification,
  session,
  utilityProcess,
};
