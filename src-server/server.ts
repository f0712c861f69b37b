/**
 * Starts and stops a listening server: used by the CLI (`npm run server`), by the embedded launcher of
 * the desktop's standalone mode, and by the web shell. Opens and migrates the database, builds the app,
 * listens; `close()` stops accepting requests, lets the ones under way finish, stops the background job
 * worker (waiting for the jobs under way), then closes the database.
 */
import { buildApp } from './app';
import type { App } from './app-type';
import type { ServerConfig } from './config';
import { openDatabase, type Database } from './db/open';

export interface RunningServer {
  app: App;
  database: Database;
  /** The base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** Stops accepting requests, finishes the ones under way, stops the job worker, closes the database. */
  close(): Promise<void>;
}

export interface StartServerOptions {
  logger?: boolean;
  /**
   * Where the SQL migrations are. Defaults to `migrations/` beside src-server/db/open.ts (or beside the
   * bundle that contains it); the Electron launcher passes its copy (`out/main/migrations`).
   */
  migrationsFolder?: string;
  /** Called with the built app before it listens (benchmarks add timing hooks here). */
  configureApp?: (app: App) => void;
}

/** How long `close()` lets requests under way finish before it closes their connections. */
export const CLOSE_GRACE_MS = 2000;

/** Opens the database, migrates it, builds the app and listens on HOST:PORT (PORT 0: a free port). */
export async function startServer(
  config: ServerConfig,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const database = await openDatabase({
    ...config,
    ...(options.migrationsFolder ? { migrationsFolder: options.migrationsFolder } : {}),
  });
  let app: App | undefined;
  try {
    app = await buildApp({ config, database, logger: options.logger ?? false });
    options.configureApp?.(app);
    // Ready (which starts the background job worker) after the migrations openDatabase applied.
    await app.listen({ host: config.HOST, port: config.PORT });
  } catch (error) {
    // The app first: it stops the job worker, which must not outlive the database.
    await app?.close().catch(() => undefined);
    await database.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  let closing: Promise<void> | undefined;
  return {
    app,
    database,
    url: `http://${host}:${port}`,
    close: () =>
      (closing ??= (async () => {
        // A connection may outlive its answer (a client still sending an upload the server refused
        // early, a keep-alive socket): after a short grace, close whatever is left.
        const grace = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
        try {
          await app.close(); // its onClose hook stops the job worker (app.ts)
        } finally {
          clearTimeout(grace);
          await database.close();
        }
      })()),
  };
}
