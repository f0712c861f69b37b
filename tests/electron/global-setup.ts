/**
 * Builds main, preload and renderer (`electron-vite build`) before the Electron suite, so both specs
 * test what the sources produce now: app.spec.ts launches it where an Electron binary exists, and
 * main-bundle.spec.ts runs the bundles under Node everywhere. SIJILL_ELECTRON_SKIP_BUILD=1 reuses out/.
 */
import { spawnSync } from 'node:child_process';

export default function globalSetup(): void {
  if (process.env.SIJILL_ELECTRON_SKIP_BUILD === '1') return;
  const result = spawnSync('npx', ['electron-vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`electron-vite build failed (exit ${result.status})`);
}
