/**
 * `npm run server [command]` — the API server alone, for an organisation's server or development.
 * Configuration comes from the environment (see config.ts).
 *
 *   serve (default)   open and migrate the database, listen; SIGINT/SIGTERM close it cleanly, in seconds
 *                     whatever its jobs are doing (they are put back, or taken back at the next start);
 *                     a close that has not ended in STOP_DEADLINE_MS, or a second signal, exits at once
 *   migrate           apply pending migrations and the base data, then exit
 *   create-admin      --username U --email E [--password P | env SIJILL_ADMIN_PASSWORD | prompt]
 *                     [--name-ar A] [--name-en E]: a user with the administrator role
 *   seed-demo         [--password P]: demo roles (clerk, manager), users, directory and correspondence
 *   backup DIR        a backup folder of this installation (database, files, secrets key, manifest): while
 *                     it runs on PostgreSQL; the embedded PGlite only while the server is stopped
 *   backup --verify DIR   hashes the folder again against its manifest, names what is missing or damaged
 *   backup --prune [ROOT] [--dry-run]   the retention rule (BACKUP_KEEP_LAST, BACKUP_KEEP_MONTHLY) on a
 *                     folder of backups, BACKUP_DIR unless named: what goes, what stays and why
 *   restore DIR [--force] into an empty installation (refused over existing data without --force)
 *                     (src-server/backup/, docs/backups.md)
 */
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline/promises';
import { setupRequestSchema } from '../src-shared/api/auth';
import { loadConfig, type ServerConfig } from './config';
import { openDatabase } from './db/open';
import { isUniqueViolation } from './db/errors';
import { JobQueue } from './jobs/queue';
import { systemClock } from './clock';
import { recordAudit } from './audit';
import { createPasswordHasher } from './security/passwords';
import { insertUser, systemRoleId } from './modules/auth/queries';
import { seedDemo } from './modules/demo/seed';
import { startServer } from './server';
import { createFileStore } from './storage/index';
import { runBackupCommand, runRestoreCommand } from './backup/commands';

/** The longest a SIGINT/SIGTERM close may take before the process exits regardless. */
const STOP_DEADLINE_MS = 20_000;

async function askHidden(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

async function withDatabase<T>(
  config: ServerConfig,
  run: (ctx: Pick<Awaited<ReturnType<typeof openDatabase>>, 'db' | 'listen'>) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(config);
  try {
    return await run({ db: database.db, listen: database.listen });
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  const command = first && !first.startsWith('-') ? first : 'serve';
  const args = first && !first.startsWith('-') ? rest : process.argv.slice(2);
  let config: ServerConfig;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const passwords = createPasswordHasher({
    memoryKib: config.ARGON2_MEMORY_KIB,
    timeCost: config.ARGON2_TIME_COST,
  });
  switch (command) {
    case 'serve': {
      const server = await startServer(config, { logger: true });
      console.log(`Sijill API listening on ${server.url} (OpenAPI: ${server.url}/docs)`);
      let closing = false;
      const stop = async (signal: string) => {
        if (closing) {
          console.log(`${signal} again: exiting now`);
          process.exit(1);
        }
        closing = true;
        console.log(`${signal}: shutting down`);
        // Every part of the close is bounded (requests, jobs, the OCR child); this is the guard that a
        // service manager or the desktop never waits on a close that something unforeseen holds up. The
        // jobs left running are taken back at the next start (jobs/queue.ts).
        setTimeout(() => {
          console.error(`shutting down took more than ${STOP_DEADLINE_MS / 1000} s: exiting now`);
          process.exit(1);
        }, STOP_DEADLINE_MS).unref();
        try {
          await server.close();
          process.exit(0);
        } catch (error) {
          console.error(error);
          process.exit(1);
        }
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
      return;
    }
    case 'migrate': {
      await withDatabase(config, async () => undefined);
      console.log('Migrations applied.');
      return;
    }
    case 'create-admin': {
      const { values } = parseArgs({
        args,
        options: {
          username: { type: 'string' },
          email: { type: 'string' },
          password: { type: 'string' },
          'name-ar': { type: 'string' },
          'name-en': { type: 'string' },
        },
      });
      const password =
        values.password ??
        process.env.SIJILL_ADMIN_PASSWORD ??
        (process.stdin.isTTY ? await askHidden('Password: ') : undefined);
      const parsed = setupRequestSchema.safeParse({
        username: values.username,
        email: values.email,
        password,
        nameAr: values['name-ar'],
        nameEn: values['name-en'],
      });
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          console.error(`  --${String(issue.path[0] ?? '?')}: ${issue.message}`);
        console.error(
          'Usage: npm run server -- create-admin --username U --email E --password P [--name-ar A] [--name-en E]',
        );
        process.exit(2);
      }
      const input = parsed.data;
      const passwordHash = await passwords.hash(input.password);
      try {
        const id = await withDatabase(config, ({ db }) =>
          db.transaction(async (tx) => {
            const id = await insertUser(tx, {
              username: input.username,
              email: input.email,
              passwordHash,
              nameAr: input.nameAr ?? input.username,
              nameEn: input.nameEn ?? input.username,
              roleId: await systemRoleId(tx),
              locale: 'ar',
              active: true,
            });
            await recordAudit(tx, {
              action: 'setup.admin',
              actorUsername: 'cli',
              targetType: 'user',
              targetId: id,
              details: { username: input.username },
            });
            return id;
          }),
        );
        console.log(`Administrator "${input.username}" created (id ${id}).`);
      } catch (error) {
        if (isUniqueViolation(error)) {
          console.error('A user with this username or email already exists.');
          process.exit(1);
        }
        throw error;
      }
      return;
    }
    case 'seed-demo': {
      const { values } = parseArgs({ args, options: { password: { type: 'string' } } });
      const password = values.password ?? process.env.SIJILL_DEMO_PASSWORD ?? 'demo-password';
      const files = await createFileStore(config);
      const created = await withDatabase(config, ({ db, listen }) =>
        seedDemo(
          { db, config, passwords, files, jobs: new JobQueue(db), clock: systemClock, listen },
          password,
        ),
      );
      console.log(
        created.length
          ? `Created: ${created.join(', ')} (password: ${password === 'demo-password' ? password : '[hidden]'})`
          : 'Demo data already present.',
      );
      return;
    }
    case 'backup':
      process.exit(await runBackupCommand(config, args));
      return;
    case 'restore':
      process.exit(await runRestoreCommand(config, args));
      return;
    default:
      console.error(
        `Unknown command "${command}". Commands: serve, migrate, create-admin, seed-demo, backup, restore`,
      );
      process.exit(2);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
