#!/usr/bin/env node
// Builds the API server that `npm run server` runs: src-server/cli.ts as one ES module bundle in
// out/server/ (the dependencies stay in node_modules), with the OCR child beside it and the SQL migrations
// it applies — as the desktop build does for the embedded server. A server process then runs no
// TypeScript loader: tsx's transforms and the source maps it turns on kept ~50 MB more heap, which every
// full garbage collection marks (a tenth of the server's CPU during a scanning station's burst,
// bench/station), and slowed its start. Answers the bundle's path; `node scripts/build-server.mjs` builds.
import { cpSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');

/** Builds out/server/ afresh; answers the path of its entry (cli.js). */
export async function buildServer({ outDir = join(root, 'out/server') } = {}) {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: {
      cli: join(root, 'src-server/cli.ts'),
      // Forked by the search module for PDF text and OCR (ocr-process.ts finds it beside the bundle).
      'ocr-child': join(root, 'src-server/modules/search/ocr-child.ts'),
    },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // Beside the bundle, where src-server/db/open.ts looks for them.
  cpSync(join(root, 'src-server/db/migrations'), join(outDir, 'migrations'), { recursive: true });
  return join(outDir, 'cli.js');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await buildServer();
