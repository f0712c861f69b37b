#!/usr/bin/env node
// `npm start`: builds the desktop client and opens it. Without an Electron binary it first lets Electron
// download one (where the network allows and ELECTRON_SKIP_BINARY_DOWNLOAD is not set); if there is still
// none it says in plain words what happened and what to do, instead of a stack trace from node_modules.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { NO_ELECTRON_MESSAGE, electronBinary } from './electron-binary.mjs';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);

let binary = electronBinary();
if (!binary && !process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
  try {
    const installer = join(
      dirname(createRequire(import.meta.url).resolve('electron/package.json')),
      'install.js',
    );
    console.log('Downloading Electron (once)…');
    spawnSync(process.execPath, [installer], { stdio: 'inherit' });
  } catch {
    // The electron package itself is missing: the message below says what to do.
  }
  binary = electronBinary();
}
if (!binary) {
  console.error(NO_ELECTRON_MESSAGE);
  process.exit(1);
}

const build = spawnSync(
  process.execPath,
  [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
  {
    stdio: 'inherit',
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);
const app = spawnSync(binary, ['.'], { stdio: 'inherit' });
process.exit(app.status ?? 0);
