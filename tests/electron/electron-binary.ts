/**
 * Finds the Electron binary without triggering a download. `require('electron')` downloads the binary
 * on first use since Electron 42 (lazily, from GitHub), which on an offline machine would hang or fail
 * noisily; so this reads the same `path.txt` the package writes and checks the file is there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The Electron executable, or null when this machine has none (ELECTRON_SKIP_BINARY_DOWNLOAD). */
export function electronBinary(): string | null {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
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

/** Why the Electron suite skips, shown in the report. */
export const SKIP_REASON =
  'Electron binary not available on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD): skipped';
