/**
 * The embedded server of the desktop's standalone mode: src-server started inside main, on 127.0.0.1 at
 * a random port, with its PGlite data in the user-data folder. This is the only src-main file that
 * imports src-server (an ESLint rule keeps it so), so the server's start-up stays behind one function.
 */
import { loadConfig } from '../../src-server/config';
import {
  setOcrLauncher,
  utilityProcessOcrLauncher,
  type UtilityProcessFork,
} from '../../src-server/modules/search/ocr-process';
import { startServer } from '../../src-server/server';

/** A running embedded server. */
export interface EmbeddedServer {
  /** Its base URL, e.g. `http://127.0.0.1:49152`. */
  url: string;
  /** Stops it and closes its database. */
  close(): Promise<void>;
}

/** Options of `startEmbeddedServer`. */
export interface EmbeddedServerOptions {
  /**
   * Where the server's SQL migrations are in a built app: electron-vite copies src-server/db/migrations
   * to out/main/migrations, and main passes that path. Omitted under tsx (the web shell), where the
   * server finds them beside its own source.
   */
  migrationsDir?: string;
  /**
   * Electron's `utilityProcess.fork`: the server's OCR child then runs as a utility process (the packaged
   * app cannot start Node with child_process.fork, its RunAsNode fuse being off). Omitted under Node.
   */
  utilityFork?: UtilityProcessFork;
}

/**
 * Starts the API server for this computer only: loopback address, port chosen by the OS, data in
 * `dataDir`, the organisation settings of the environment ignored (an empty environment is parsed, so a
 * DATABASE_URL set for development never leaks into the desktop app).
 */
export async function startEmbeddedServer(
  dataDir: string,
  options: EmbeddedServerOptions = {},
): Promise<EmbeddedServer> {
  if (options.utilityFork) setOcrLauncher(utilityProcessOcrLauncher(options.utilityFork));
  const server = await startServer(
    { ...loadConfig({}), HOST: '127.0.0.1', PORT: 0, DATA_DIR: dataDir },
    { logger: false, ...(options.migrationsDir ? { migrationsFolder: options.migrationsDir } : {}) },
  );
  let closed: Promise<void> | null = null;
  return {
    url: server.url,
    // Quitting may ask twice (before-quit and will-quit); close once.
    close: () => (closed ??= server.close()),
  };
}
