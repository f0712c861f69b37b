#!/usr/bin/env node
// Builds the API server that `npm run server` runs: src-server/cli.ts as one ES module bundle in
// out/server/ (the dependencies stay in node_modules), with the OCR child, the PDF check worker, the PDF
// make worker and the embedded database's worker beside it and the SQL migrations
// it applies — as the desktop build does for the embedded server. A server process then runs no
// TypeScript loader: tsx's transforms and the source maps it turns on kept ~50 MB more heap, which every
// full garbage collection marks (a tenth of the server's CPU during a scanning station's burst,
// bench/station), and slowed its start. Answers the bundle's path; `node scripts/build-server.mjs` builds.
import { cpSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');

/**
 * Node's flags for the server process (docs/decisions.md, "The embedded server's memory"):
 * - `--liftoff-only`: the embedded PGlite's WASM compiled by V8's baseline compiler only, never tiered up
 *   to TurboFan, whose compiling of the hot Postgres functions cost ~500 MB at its peak. A flag of the
 *   process: V8 freezes its flags once started, so `v8.setFlagsFromString` in the server is too late. On
 *   PostgreSQL it changes nothing of note.
 * - `--max-semi-space-size=2`: a young generation of a few MB. V8's default let it grow to ~50 MB of the
 *   server's idle memory; its collections stay short.
 * - `--optimize-for-size`: the old generation collected before it doubles rather than quadruples. Under a
 *   burst of scans the requests' garbage grew the heap from 45 to 130 MB before a full collection; with
 *   the flag it stays near 55 MB, the incoming box as fast (bench/embedded).
 * The desk's main process, where the embedded server runs, is given the same flags
 * (src-main/electron/js-flags.ts; a unit test keeps the lists alike).
 */
export const SERVER_NODE_FLAGS = ['--liftoff-only', '--max-semi-space-size=2', '--optimize-for-size'];

/**
 * The server process's environment beside the caller's: glibc's malloc keeps two arenas rather than one
 * per thread (eight times the cores), each holding on to what its thread freed: ~20–40 MB of the server's
 * memory under a burst of scans with the worker threads busy.
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };

/** Builds out/server/ afresh; answers the path of its entry (cli.js). */
export async function buildServer({ outDir = join(root, 'out/server') } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: {
      cli: join(root, 'src-server/cli.ts'),
      // Forked by the search module for PDF text and OCR (ocr-process.ts finds it beside the bundle).
      'ocr-child': join(root, 'src-server/modules/search/ocr-child.ts'),
      // The worker threads that check uploaded PDFs (storage/pdf-check-pool.ts finds it beside the bundle).
      'pdf-check-worker': join(root, 'src-server/storage/pdf-check-worker.ts'),
      // The worker threads that make heavy PDFs (pdf-making/pdf-make-pool.ts finds it beside the bundle).
      'pdf-make-worker': join(root, 'src-server/pdf-making/pdf-make-worker.ts'),
      // The embedded database's worker thread (db/pglite-proxy.ts finds it beside the bundle).
      'pglite-worker': join(root, 'src-server/db/pglite-worker.ts'),
    },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // What the server imports on demand (the S3 store, exceljs through its module…) goes into chunks
    // beside the entries, loaded when first used rather than with the server.
    splitting: true,
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // Beside the bundle, where src-server/db/open.ts looks for them.
  cpSync(join(root, 'src-server/db/migrations'), join(outDir, 'migrations'), { recursive: true });
  return join(outDir, 'cli.js');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await buildServer();
