/**
 * Where a script the server starts beside itself is — a child process (the OCR child) or a worker thread
 * (the PDF checks) — and how Node must start it: the TypeScript file beside the caller, with tsx's
 * loader, when the server runs as TypeScript (tests, the web shell); the bundled `<name>.js` when it runs
 * built (`npm run server`'s out/server, the desktop's out/main, see scripts/build-server.mjs and
 * electron.vite.config.ts): beside the bundle, or one level up from a chunk.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The script `name` (no extension) started from the module at `callerUrl` (its `import.meta.url`). */
export function siblingScript(callerUrl: string, name: string): { modulePath: string; execArgv: string[] } {
  const here = fileURLToPath(callerUrl);
  const folder = dirname(here);
  if (here.endsWith('.ts')) {
    // Run as TypeScript: the script needs the same loader. Resolved from here, not the working folder.
    const tsx = pathToFileURL(createRequire(callerUrl).resolve('tsx')).href;
    return { modulePath: join(folder, `${name}.ts`), execArgv: ['--import', tsx] };
  }
  for (const candidate of [join(folder, `${name}.js`), join(folder, '..', `${name}.js`)])
    if (existsSync(candidate)) return { modulePath: candidate, execArgv: [] };
  throw new Error(`${name}.js not found beside ${here}`);
}

/**
 * Starts the worker thread `name` (a script beside the module at `callerUrl`, see `siblingScript`). Run
 * as TypeScript, a worker cannot take tsx as a `--import` (its hooks are not applied to the worker's own
 * entry): it starts from a two-line bootstrap that registers tsx's loader in the worker, then imports the
 * script.
 */
export function startWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  const { modulePath, execArgv } = siblingScript(callerUrl, name);
  if (execArgv.length === 0) return new Worker(modulePath, options);
  const require = createRequire(callerUrl);
  const tsxRoot = dirname(require.resolve('tsx/package.json'));
  const manifest = JSON.parse(readFileSync(join(tsxRoot, 'package.json'), 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  const api = pathToFileURL(join(tsxRoot, manifest.exports['./esm/api']!.import.default)).href;
  const entry = pathToFileURL(modulePath).href;
  const bootstrap =
    `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); ` +
    `return import(${JSON.stringify(entry)}); });`;
  // Not the parent's own flags: tsx's there would load before the bootstrap and break it.
  return new Worker(bootstrap, { ...options, eval: true, execArgv: [] });
}
