/**
 * `npm run server [serve]` — the API server alone, for an organisation's server or development.
 * Configuration comes from the environment (see config.ts).
 */
import { loadConfig } from './config';
import { startServer } from './server';

async function main(): Promise<void> {
  const [command = 'serve'] = process.argv.slice(2);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  switch (command) {
    case 'serve': {
      const server = await startServer(config, { logger: true });
      console.log(`Sijill API listening on ${server.url} (OpenAPI: ${server.url}/docs)`);
      let closing = false;
      const stop = async (signal: string) => {
        if (closing) return;
        closing = true;
        console.log(`${signal}: shutting down`);
        await server.close();
        process.exit(0);
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
      return;
    }
    default:
      console.error(`Unknown command "${command}". Commands: serve`);
      process.exit(2);
  }
}

void main();
