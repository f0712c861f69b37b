/**
 * The command line's `backup DIR`, `backup --verify DIR`, `backup --prune [ROOT] [--dry-run]` and
 * `restore DIR [--force]` (cli.ts): arguments, progress and the exit code (0 done, 1 failed or damaged,
 * 2 bad usage or refused). docs/backups.md.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { recordAudit } from '../audit';
import type { ServerConfig } from '../config';
import { DEFAULT_MIGRATIONS_FOLDER, openDatabase, type Database } from '../db/open';
import { createFileStore } from '../storage/index';
import { backupInstallation, pgliteDir, pgliteInUse } from './backup';
import { verifyBackup } from './manifest';
import { backupRoot, pruneBackups, type PruneItem, type PruneResult } from './prune';
import { monthIn, retentionRuleOf, type RetentionRule } from './retention';
import { restoreBackup, RestoreRefused } from './restore';

const log = (line: string) => console.log(line);

const USAGE = 'Usage: npm run server -- backup DIR | backup --verify DIR | backup --prune [ROOT] [--dry-run]';

/** `backup DIR`, `backup --verify DIR` or `backup --prune [ROOT] [--dry-run]`; answers the exit code. */
export async function runBackupCommand(config: ServerConfig, args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { verify: { type: 'boolean' }, prune: { type: 'boolean' }, 'dry-run': { type: 'boolean' } },
      allowPositionals: true,
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const dir = positionals[0];
  const usageError =
    positionals.length > 1 ||
    (values.verify && values.prune) ||
    (values['dry-run'] && !values.prune) ||
    (!dir && !values.prune);
  if (usageError) {
    console.error(USAGE);
    return 2;
  }
  try {
    if (values.prune)
      return await pruneCommand(config, dir ?? backupRoot(config), values['dry-run'] ?? false);
    if (!dir) return 2;
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

/** What a line of `backup --prune` says of a folder. */
function pruneLine(item: PruneItem, rule: RetentionRule, dryRun: boolean, result: PruneResult): string {
  const gone = dryRun ? 'WOULD REMOVE' : 'REMOVE';
  const line = (label: string, text: string) => `${label.padEnd(12)} ${item.name}  ${text}`;
  switch (item.kind) {
    case 'leftover':
      return line(gone, 'a removal cut short, finished now');
    case 'unfinished':
      return line('LEAVE', 'no manifest: being written, failed, or not a backup');
    case 'foreign':
      return line('LEAVE', `not a backup of ours: ${item.reason}`);
    case 'backup': {
      const left = result.left.find((l) => l.name === item.name);
      if (left) return line('LEAVE', `not wholly a backup of ours: ${left.reason}`);
      const why = item.newest
        ? 'the newest'
        : [
            ...(item.keptBy.includes('last') ? [`one of the ${rule.keepLast} newest`] : []),
            ...(item.keptBy.includes('monthly')
              ? [`the newest of ${monthIn(rule.timeZone, new Date(item.manifest.createdAt))}`]
              : []),
          ].join(', ');
      const label = result.removed.some((r) => r.name === item.name) ? gone : 'KEEP';
      return line(label, `${item.manifest.createdAt}  ${megabytes(item.size)}${why ? `  ${why}` : ''}`);
    }
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The audit log of the installation the configuration names, when it can be written from here: PostgreSQL,
 * or the embedded database while no server holds it (the running server's PGlite is its own). Answers null
 * and says why otherwise: the removals are still printed.
 */
async function auditDatabase(config: ServerConfig): Promise<Database | null> {
  if (!config.DATABASE_URL) {
    if (!existsSync(join(pgliteDir(config.DATA_DIR), 'PG_VERSION'))) {
      console.log(`(not in an audit log: no database in ${config.DATA_DIR})`);
      return null;
    }
    if (pgliteInUse(config.DATA_DIR)) {
      console.log(
        '(not in the audit log: the running server holds the embedded database; its own pruning after ' +
          'each backup is audited)',
      );
      return null;
    }
  }
  try {
    return await openDatabase({ ...config, PGLITE_IN_THREAD: true, migrate: false });
  } catch (error) {
    console.log(`(not in the audit log: ${(error as Error).message})`);
    return null;
  }
}

/** `backup --prune ROOT [--dry-run]`: the retention rule applied to ROOT's backups; answers the exit code. */
async function pruneCommand(config: ServerConfig, root: string, dryRun: boolean): Promise<number> {
  const rule = retentionRuleOf(config);
  console.log(
    `Pruning ${root}: keeping the ${rule.keepLast} newest backups and the newest of each of the ` +
      `${rule.keepMonthly} latest months (${rule.timeZone})${dryRun ? ' — dry run, nothing is removed' : ''}.`,
  );
  const database = dryRun ? null : await auditDatabase(config);
  let audit = database !== null;
  try {
    const result = await pruneBackups(root, rule, {
      dryRun,
      onRemoved: async (item) => {
        if (!audit || !database) return;
        try {
          await recordAudit(database.db, {
            action: 'backups.pruned',
            actorUsername: 'cli',
            targetType: 'backup',
            targetId: item.name,
            details: {
              createdAt: item.manifest.createdAt,
              size: item.size,
              keepLast: rule.keepLast,
              keepMonthly: rule.keepMonthly,
              root,
            },
          });
        } catch (error) {
          audit = false;
          console.log(`(not in the audit log: ${(error as Error).message})`);
        }
      },
    });
    for (const item of result.plan) console.log(pruneLine(item, rule, dryRun, result));
    const count = result.removed.length;
    const bytes = megabytes(result.removed.reduce((sum, i) => sum + i.size, 0));
    console.log(
      dryRun
        ? `Dry run: ${count} backup(s) (${bytes}) would be removed; nothing was.`
        : `Removed ${count} backup(s) (${bytes}).`,
    );
    return 0;
  } finally {
    await database?.close();
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
