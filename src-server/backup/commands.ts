/**
 * The command line's `backup DIR`, `backup --verify DIR` and `restore DIR [--force]` (cli.ts): arguments,
 * progress and the exit code (0 done, 1 failed or damaged, 2 bad usage or refused). docs/backups.md.
 */
import { parseArgs } from 'node:util';
import type { ServerConfig } from '../config';
import { DEFAULT_MIGRATIONS_FOLDER } from '../db/open';
import { createFileStore } from '../storage/index';
import { backupInstallation } from './backup';
import { verifyBackup } from './manifest';
import { restoreBackup, RestoreRefused } from './restore';

const log = (line: string) => console.log(line);

/** `backup DIR` or `backup --verify DIR`; answers the exit code. */
export async function runBackupCommand(config: ServerConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { verify: { type: 'boolean' } },
    allowPositionals: true,
  });
  const dir = positionals[0];
  if (!dir || positionals.length > 1) {
    console.error('Usage: npm run server -- backup DIR | backup --verify DIR');
    return 2;
  }
  try {
    if (values.verify) {
      const { manifest, problems } = await verifyBackup(dir);
      for (const p of problems)
        console.error(
          `${p.problem === 'missing' ? 'MISSING' : 'DAMAGED'} ${p.path}${p.problem === 'missing' ? '' : ` (${p.problem} differs)`}`,
        );
      if (problems.length) {
        console.error(
          `The backup in ${dir} is NOT whole: ${problems.length} of ${manifest.files.length} files fail.`,
        );
        return 1;
      }
      console.log(
        `The backup in ${dir} is whole: ${manifest.files.length} files match the manifest ` +
          `(${manifest.database.kind}, version ${manifest.appVersion}, ${manifest.createdAt}).`,
      );
      return 0;
    }
    const files = await createFileStore(config);
    try {
      const manifest = await backupInstallation(config, files, dir, log);
      console.log(`Backup written to ${dir} (${manifest.files.length} files).`);
      if (manifest.files.some((f) => f.secret))
        console.log('It holds the secrets key (secrets.key): keep it as safely as a password.');
      return 0;
    } finally {
      (files as { destroy?: () => void }).destroy?.();
    }
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

/** `restore DIR [--force]`; answers the exit code. */
export async function runRestoreCommand(config: ServerConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { force: { type: 'boolean' } },
    allowPositionals: true,
  });
  const dir = positionals[0];
  if (!dir || positionals.length > 1) {
    console.error('Usage: npm run server -- restore DIR [--force]');
    return 2;
  }
  const files = await createFileStore(config);
  try {
    const manifest = await restoreBackup({
      dir,
      config,
      files,
      migrationsFolder: DEFAULT_MIGRATIONS_FOLDER,
      force: values.force ?? false,
      log,
    });
    console.log(`Restored the backup of ${manifest.createdAt} (version ${manifest.appVersion}).`);
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return error instanceof RestoreRefused ? 2 : 1;
  } finally {
    (files as { destroy?: () => void }).destroy?.();
  }
}
