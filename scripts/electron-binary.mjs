// Finds the Electron binary without triggering a download. `require('electron')` downloads the binary
// on first use since Electron 42 (lazily), which on an offline machine fails with a stack trace from
// inside node_modules; this reads the same `path.txt` the package writes and checks the file is there.
// Shared by `npm start` (scripts/start.mjs) and the Electron test suite.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The Electron executable, or null when this machine has none (ELECTRON_SKIP_BINARY_DOWNLOAD).
 * @param {string} [from] where to resolve the electron package from (a file URL or path)
 * @returns {string | null}
 */
export function electronBinary(from = import.meta.url) {
  let packageDir;
  try {
    packageDir = dirname(createRequire(from).resolve('electron/package.json'));
  } catch {
    return null; // the electron package is not installed at all
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const candidate = join(override, relative || 'electron');
    return existsSync(candidate) ? candidate : null;
  }
  if (!relative) return null;
  const candidate = join(packageDir, 'dist', relative);
  return existsSync(candidate) ? candidate : null;
}

/** What `npm start` says when there is no Electron binary, in plain words. */
export const NO_ELECTRON_MESSAGE = `
Sijill cannot open its desktop window: the Electron program that runs it is not on this computer.
It was not downloaded when the packages were installed (for example with ELECTRON_SKIP_BINARY_DOWNLOAD=1,
or without an internet connection), and it could not be downloaded now.

What you can do:
  - With an internet connection, install it and start again:
        npm install electron && npm start
    (do not set ELECTRON_SKIP_BINARY_DOWNLOAD for that command).
  - Or use the same client in your web browser, with the same embedded server and database:
        npm run web
`;
