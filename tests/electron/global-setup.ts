/**
 * Builds main, preload and renderer (`electron-vite build`) before the Electron suite, but only where an
 * Electron binary exists: elsewhere the suite skips and there is nothing to launch.
 */
import { spawnSync } from 'node:child_process';
import { electronBinary } from './electron-binary';

export default function globalSetup(): void {
  if (!electronBinary() || process.env.SIJILL_ELECTRON_SKIP_BUILD === '1') return;
  const result = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`electron-vite build failed (exit ${result.status})`);
}
