/**
 * Client load benchmark (`npx tsx bench/client-load/run.ts`): builds the renderer (unless --no-build and
 * out/renderer exists), starts the web shell on a fresh data folder, creates the first administrator
 * through POST /setup (skipping the two-factor offer), then measures in Chromium:
 *
 * - the initial JavaScript: the entry chunk and its static imports (modulepreload), gzip;
 * - that every route has its own chunk (each route module's dynamic import is a separate chunk, none of
 *   them part of the initial JavaScript);
 * - a cold load of the signed-in client to its first page: navigation timing, and the time until the
 *   side menu and the page are visible (first page interactive), median of several runs.
 *
 * Targets: initial JS ≤ 350 KB gzip; first page interactive < 1500 ms. Prints one JSON object.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { startWebShell } from '../../src-main/web/shell';
import { BENCH_RENDERER, buildRenderer, createFirstAdmin } from '../browser';

const ROOT = resolve(import.meta.dirname, '../..');
const RENDERER = BENCH_RENDERER;
const RUNS = Number(process.env.SIJILL_BENCH_RUNS ?? 5);
const TARGET_INITIAL_KB = 350;
const TARGET_INTERACTIVE_MS = 1500;

const gz = (file: string) => gzipSync(readFileSync(file)).length;

/** The entry chunk and what index.html preloads with it. */
function initialJs() {
  const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const sizes = files.map((f) => ({ file: f, gzipBytes: gz(join(RENDERER, f)) }));
  return { files: sizes, gzipBytes: sizes.reduce((sum, s) => sum + s.gzipBytes, 0) };
}

/**
 * Every route module's chunk: Vite names a chunk after its module, so each route file appears as its own
 * `<Name>-<hash>.js`. Checks that each route module has a chunk of its own and that none is initial.
 */
function routeChunks(initialFiles: string[]) {
  const router = readFileSync(join(ROOT, 'src-renderer/app/router.tsx'), 'utf8');
  const modules = [...router.matchAll(/import\('(\.\.?\/[^']+)'\)/g)].map((m) => m[1]!.split('/').pop()!);
  const assets = readdirSync(join(RENDERER, 'assets')).filter((f) => f.endsWith('.js'));
  const missing: string[] = [];
  const initial: string[] = [];
  for (const name of modules) {
    const chunk = assets.find((f) => f.startsWith(`${name}-`));
    if (!chunk) missing.push(name);
    else if (initialFiles.includes(`assets/${chunk}`)) initial.push(name);
  }
  return { routeModules: modules.length, distinct: new Set(modules).size, missing, initial };
}

async function main() {
  buildRenderer();
  const initial = initialJs();
  const routes = routeChunks(initial.files.map((f) => f.file));

  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-'));
  const shell = await startWebShell({ dataDir, rendererDir: RENDERER });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    // The first administrator, signed in through the client (so the session lives in the shell's main).
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    await createFirstAdmin(page, shell.url);
    await context.close();

    // Cold loads (a new browser context each time: no HTTP cache) of the signed-in client.
    const runs: {
      ttfbMs: number;
      domContentLoadedMs: number;
      loadMs: number;
      menuVisibleMs: number;
      firstPageMs: number;
    }[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const cold = await browser.newContext({ viewport: { width: 1366, height: 800 } });
      const tab = await cold.newPage();
      const started = Date.now();
      await tab.goto(shell.url);
      await tab.getByTestId('side-menu').waitFor();
      const menuVisibleMs = Date.now() - started;
      await tab.getByTestId('page-title').waitFor();
      const firstPageMs = Date.now() - started;
      const nav = await tab.evaluate(() => {
        const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        return {
          ttfb: entry!.responseStart,
          dcl: entry!.domContentLoadedEventEnd,
          load: entry!.loadEventEnd,
        };
      });
      runs.push({
        ttfbMs: nav.ttfb,
        domContentLoadedMs: nav.dcl,
        loadMs: nav.load,
        menuVisibleMs,
        firstPageMs,
      });
      await cold.close();
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const firstPageInteractiveMs = median(runs.map((r) => r.firstPageMs));
    const result = {
      bench: 'client-load',
      runs: RUNS,
      initialJs: {
        gzipKB: +(initial.gzipBytes / 1024).toFixed(1),
        targetKB: TARGET_INITIAL_KB,
        ok: initial.gzipBytes / 1024 <= TARGET_INITIAL_KB,
        files: initial.files.map((f) => ({ file: f.file, gzipKB: +(f.gzipBytes / 1024).toFixed(1) })),
      },
      routeChunks: {
        ...routes,
        ok:
          routes.missing.length === 0 &&
          routes.initial.length === 0 &&
          routes.distinct === routes.routeModules,
      },
      coldLoad: {
        medianMs: {
          ttfb: Math.round(median(runs.map((r) => r.ttfbMs))),
          domContentLoaded: Math.round(median(runs.map((r) => r.domContentLoadedMs))),
          load: Math.round(median(runs.map((r) => r.loadMs))),
          menuVisible: median(runs.map((r) => r.menuVisibleMs)),
          firstPageInteractive: firstPageInteractiveMs,
        },
        targetMs: TARGET_INTERACTIVE_MS,
        ok: firstPageInteractiveMs < TARGET_INTERACTIVE_MS,
        runs,
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await browser.close();
    await shell.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
