/**
 * `npm run web`: starts the web shell and prints the URL to open in a browser.
 * Options: --data-dir <folder> (default .data/web), --port <n> (default 0: a free port),
 * --server <url> (use an organisation's API server instead of the embedded one).
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startWebShell } from './shell';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: process.env.SIJILL_DATA_DIR ?? '.data/web' },
    port: { type: 'string', default: process.env.SIJILL_WEB_PORT ?? '0' },
    server: { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a whole number from 0 to 65535 (got "${values.port}")`);
  process.exit(2);
}

const shell = await startWebShell({
  dataDir: values['data-dir']!,
  rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
  port,
  ...(values.server ? { serverUrl: values.server } : {}),
  log: (message) => console.error(message),
});
console.log(`Sijill web shell: ${shell.url}`);
console.log(`API server: ${shell.apiBaseUrl}`);

let closing = false;
async function stop() {
  if (closing) return;
  closing = true;
  await shell.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
