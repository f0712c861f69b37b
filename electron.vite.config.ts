/**
 * electron-vite builds the three parts of the desktop app:
 * - main (src-main/electron/main.ts → out/main/index.js, an ES module as package.json says
 *   "type": "module"; npm dependencies stay external and load from node_modules/app.asar, which native
 *   modules such as better-sqlite3 require; src-server and the locale JSON it imports are bundled), the
 *   server's OCR child process (src-server/modules/search/ocr-child.ts → out/main/ocr-child.js), its
 *   PDF check worker thread (src-server/storage/pdf-check-worker.ts → out/main/pdf-check-worker.js), its
 *   PDF make worker thread (src-server/pdf-making/pdf-make-worker.ts → out/main/pdf-make-worker.js) and
 *   its embedded database's worker thread (src-server/db/pglite-worker.ts → out/main/pglite-worker.js);
 * - preload (src-preload/index.ts → out/preload/index.cjs: sandboxed preloads must be CommonJS and
 *   self-contained, so zod is bundled and only `electron` stays external);
 * - renderer (the shared `rendererConfig` of vite.renderer.config.ts → out/renderer).
 */
import { cpSync, existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import { rendererConfig } from './vite.renderer.config';

const here = import.meta.dirname;

/**
 * Ships the server's SQL migrations with main (out/main/migrations): the bundled server cannot find them
 * relative to its own source file any more. Skipped while src-server/db/migrations does not exist.
 */
function copyServerMigrations(): Plugin {
  const from = resolve(here, 'src-server/db/migrations');
  const to = resolve(here, 'out/main/migrations');
  return {
    name: 'sijill:copy-server-migrations',
    apply: 'build',
    writeBundle() {
      rmSync(to, { recursive: true, force: true });
      if (existsSync(from)) cpSync(from, to, { recursive: true });
    },
  };
}

export default defineConfig({
  main: {
    plugins: [copyServerMigrations()],
    build: {
      outDir: resolve(here, 'out/main'),
      externalizeDeps: true,
      sourcemap: true,
      rolldownOptions: {
        input: {
          index: resolve(here, 'src-main/electron/main.ts'),
          // The OCR child process of the embedded server (src-server/modules/search/ocr-process.ts forks
          // out/main/ocr-child.js, found beside the bundle that runs it).
          'ocr-child': resolve(here, 'src-server/modules/search/ocr-child.ts'),
          // The worker threads that check uploaded PDFs (src-server/storage/pdf-check-pool.ts starts
          // out/main/pdf-check-worker.js, found beside the bundle that runs it).
          'pdf-check-worker': resolve(here, 'src-server/storage/pdf-check-worker.ts'),
          // The worker threads that make heavy PDFs (src-server/pdf-making/pdf-make-pool.ts starts
          // out/main/pdf-make-worker.js, found beside the bundle that runs it).
          'pdf-make-worker': resolve(here, 'src-server/pdf-making/pdf-make-worker.ts'),
          // The embedded database (PGlite) runs in a worker thread of its own (src-server/db/pglite-proxy.ts
          // starts out/main/pglite-worker.js, found beside the bundle that runs it).
          'pglite-worker': resolve(here, 'src-server/db/pglite-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(here, 'out/preload'),
      // Everything but electron is bundled: a sandboxed preload has no module loader for node_modules.
      externalizeDeps: false,
      lib: {
        entry: resolve(here, 'src-preload/index.ts'),
        formats: ['cjs'],
        fileName: () => 'index.cjs',
      },
    },
  },
  renderer: {
    ...rendererConfig,
    build: { ...rendererConfig.build, outDir: resolve(here, 'out/renderer') },
  },
});
