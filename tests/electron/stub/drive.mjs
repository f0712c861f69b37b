// Loads the built main bundle against the Electron stub, exercises its wiring and prints one JSON line
// of observations for tests/electron/main-bundle.spec.ts. Exits when main has closed its services.
import { pathToFileURL } from 'node:url';
import { app, session } from 'electron';

const recorded = globalThis.__electronStub;
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

await import(pathToFileURL(process.argv[2]).href);
for (let i = 0; i < 300 && !recorded.window; i++) await wait(100);
const window = recorded.window;
if (!window) throw new Error('main never opened its window');

const trusted = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
const call = (channel, input, event = trusted) => recorded.channels.get(channel)(event, input);
const navigation = { url: 'https://evil.example/', prevented: false, preventDefault() { this.prevented = true; } }; // prettier-ignore
window.webContents.emit('will-navigate', navigation);
let permission = null;
session.defaultSession.permissionRequestHandler(null, 'media', (granted) => (permission = granted));
const page = await recorded.protocolHandler(new Request('app://sijill/index.html'));
const climbing = await recorded.protocolHandler(new Request('app://sijill/%2e%2e/main/index.js'));

const result = {
  webPreferences: window.options.webPreferences,
  loadedUrl: window.loadedUrl,
  schemes: recorded.schemes,
  channels: [...recorded.channels.keys()],
  appInfo: await call('app:info'),
  health: await call('api:request', { method: 'GET', path: '/health' }),
  foreignSender: await call('app:info', undefined, { sender: {}, senderFrame: window.webContents.mainFrame }),
  badArgument: await call('api:request', { method: 'GET', path: 'http://evil.example/x' }),
  settings: await call('settings:set', { selectedLocale: 'en' }),
  unauthorized: await call('api:request', { method: 'GET', path: '/auth/profile' }),
  sent: window.webContents.sent,
  windowOpen: window.webContents.openHandler({ url: 'https://evil.example/' }),
  navigationPrevented: navigation.prevented,
  permission,
  page: {
    status: page.status,
    csp: page.headers.get('content-security-policy'),
    type: page.headers.get('content-type'),
  },
  climbingStatus: climbing.status,
};

const quit = { prevented: false, preventDefault() { this.prevented = true; } }; // prettier-ignore
app.emit('will-quit', quit);
for (let i = 0; i < 100 && !recorded.quitCalled; i++) await wait(100);
result.quit = { prevented: quit.prevented, completed: recorded.quitCalled };
console.log(`RESULT ${JSON.stringify(result)}`);
process.exit(0);
