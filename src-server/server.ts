/**
 * Starts and stops a listening server: used by the CLI (`npm run server`), by the embedded launcher of
 * the desktop's standalone mode, and by the web shell.
 */
import { buildApp, type App } from './app';
import type { ServerConfig } from './config';

export interface RunningServer {
  app: App;
  /** The base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** Stops accepting requests, finishes the ones under way, closes the database. */
  close(): Promise<void>;
}

export async function startServer(config: ServerConfig, options: { logger?: boolean } = {}): Promise<RunningServer> {
  const app = await buildApp({ config, logger: options.logger ?? false });
  await app.listen({ host: config.HOST, port: config.PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return {
    app,
    url: `http://${host}:${port}`,
    close: async () => {
      await app.close();
    },
  };
}
