/**
 * Backups the running server makes of itself (issue 29; docs/backups.md): `makeBackup` writes one with
 * backup/backup.ts into a new folder of BACKUP_DIR (DATA_DIR/backups unless set) named by its UTC time,
 * from the database it runs on — PostgreSQL through pg_dump reading an exported snapshot, the embedded
 * PGlite through its consistent dump (in its worker thread or in this one) — then prunes the folder by the
 * retention rule (backup/prune.ts); `listBackups` reads each folder's manifest and what the rule does with
 * it; `verifyBackupNamed` hashes one again and keeps the result beside it (verify.json); `removeBackupNamed`
 * removes one (never the newest, never what is not wholly a backup). Removals are in the audit log.
 *
 * A request waits until its backup is written (a desk's backup takes seconds; nothing is streamed): one at
 * a time per BACKUP_DIR in this process, a second is refused (409). A client names a backup only by its
 * folder name, which must be one of the list's: no path ever comes from the client.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import {
  BACKUP_NAME,
  backupVerificationSchema,
  type BackupRetention,
  type BackupRetentionRule,
  type BackupSummary,
  type BackupVerification,
} from '../../../src-shared/api/backups';
import { createBackup, type BackupSource } from '../../backup/backup';
import { readManifest, verifyBackup } from '../../backup/manifest';
import {
  backupRoot,
  goes,
  planPrune,
  pruneBackups,
  removeOneBackup,
  RemoveRefused,
  VERIFICATION_NAME,
  type PruneItem,
} from '../../backup/prune';
import { retentionRuleOf } from '../../backup/retention';
import type { ServerContext } from '../../context';
import type { PgliteProxy } from '../../db/pglite-proxy';
import { HttpProblem } from '../../http/problem';
import { recordAudit } from '../../audit';
import type { AuthContext } from '../../http/access';

/** Who asked, and from where: each backup made, failed or verified is in the audit log. */
export interface BackupActor {
  caller: AuthContext;
  ip: string | null;
}

const audited = (
  ctx: ServerContext,
  by: BackupActor,
  action: 'backups.made' | 'backups.failed' | 'backups.verified' | 'backups.pruned' | 'backups.deleted',
  name: string,
  details: Record<string, unknown> = {},
) =>
  recordAudit(ctx.db, {
    action,
    actorId: by.caller.userId,
    actorUsername: by.caller.username,
    targetType: 'backup',
    targetId: name,
    details,
    ip: by.ip,
  });

/** A backup's folder name from its time: `20261128-071722-123` (UTC). */
export function backupName(at: Date): string {
  const iso = at.toISOString(); // 2026-11-28T07:17:22.123Z
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}-${iso.slice(20, 23)}`;
}

/** The backup folders being written by this process. */
const writing = new Set<string>();

/** The database the server runs on, as a backup reads it. */
function sourceOf(ctx: ServerContext): BackupSource {
  if (ctx.config.DATABASE_URL) return { kind: 'postgres', url: ctx.config.DATABASE_URL };
  // drizzle's pglite driver keeps the client it was given: a PgliteProxy (worker thread) or a PGlite.
  const client = (ctx.db as unknown as { $client: PGlite | PgliteProxy }).$client;
  return { kind: 'pglite', client };
}

/** Writes a backup now; answers its summary. */
export async function makeBackup(
  ctx: ServerContext,
  by: BackupActor,
  log: (line: string) => void,
): Promise<BackupSummary> {
  const root = backupRoot(ctx.config);
  if (writing.has(root)) throw new HttpProblem('conflict', { detailKey: 'backup.busy', code: 'backup.busy' });
  writing.add(root);
  try {
    await mkdir(root, { recursive: true });
    let name = backupName(new Date());
    // A new folder of its own (mkdir without `recursive` fails when another made that name first).
    for (;;) {
      try {
        await mkdir(join(root, name));
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        await new Promise((r) => setTimeout(r, 2));
        name = backupName(new Date());
      }
    }
    const dir = join(root, name);
    try {
      await createBackup({
        dir,
        source: sourceOf(ctx),
        files: ctx.files,
        fileStore: ctx.config.FILE_STORE,
        dataDir: ctx.config.DATA_DIR,
        log,
      });
    } catch (error) {
      log(`backup ${name} failed: ${(error as Error).message}`);
      await rm(dir, { recursive: true, force: true });
      await audited(ctx, by, 'backups.failed', name);
      throw new HttpProblem('internal', { detailKey: 'backup.failed', code: 'backup.failed' });
    }
    // Written once the backup is whole: this entry is the first one the backup does not hold.
    const made = await summaryOf(root, name, null);
    await audited(ctx, by, 'backups.made', name, { files: made.files, size: made.size });
    // Then the older backups the retention rule lets go (the new one is the newest: it stays). A pruning
    // that fails leaves the backup made; the next one tries again.
    const rule = retentionRuleOf(ctx.config);
    try {
      const { removed } = await pruneBackups(root, rule, {
        spare: name,
        onRemoved: async (item) => {
          log(`backup ${item.name} removed by the retention rule`);
          await audited(ctx, by, 'backups.pruned', item.name, {
            createdAt: item.manifest.createdAt,
            size: item.size,
            keepLast: rule.keepLast,
            keepMonthly: rule.keepMonthly,
          });
        },
      });
      if (removed.length) log(`${removed.length} older backup(s) removed by the retention rule`);
    } catch (error) {
      log(`pruning ${root} failed: ${(error as Error).message}`);
    }
    return await summaryOf(root, name, await planPrune(root, rule));
  } finally {
    writing.delete(root);
  }
}

/** The backups of BACKUP_DIR, newest first (folders named as `backupName` makes them; others ignored). */
export async function listBackups(ctx: ServerContext): Promise<BackupSummary[]> {
  const root = backupRoot(ctx.config);
  const plan = await planPrune(root, retentionRuleOf(ctx.config));
  const names = await backupNames(root);
  return Promise.all(names.map((name) => summaryOf(root, name, plan)));
}

/** The retention rule applied after each backup. */
export function backupRetention(ctx: ServerContext): BackupRetentionRule {
  return retentionRuleOf(ctx.config);
}

/**
 * Removes one backup by name (an administrator's choice, audited). Refused: a name the list does not hold
 * (404), one without a manifest — being written, or failed — or holding files its manifest does not list
 * (409), and the newest complete backup (409: there is always one to restore).
 */
export async function removeBackupNamed(ctx: ServerContext, by: BackupActor, name: string): Promise<null> {
  const root = backupRoot(ctx.config);
  const notFound = () =>
    new HttpProblem('notFound', { detailKey: 'backup.notFound', code: 'backup.notFound' });
  if (!BACKUP_NAME.test(name) || !(await backupNames(root)).includes(name)) throw notFound();
  try {
    const removed = await removeOneBackup(root, name);
    await audited(ctx, by, 'backups.deleted', name, {
      createdAt: removed.manifest.createdAt,
      size: removed.size,
    });
    return null;
  } catch (error) {
    if (!(error instanceof RemoveRefused)) throw error;
    if (error.reason === 'notFound') throw notFound();
    const key = error.reason === 'unfinished' ? 'backup.unfinishedKept' : `backup.${error.reason}`;
    throw new HttpProblem('conflict', { detailKey: key, code: key });
  }
}

/** Hashes a backup's files again against its manifest; keeps and answers the result. */
export async function verifyBackupNamed(
  ctx: ServerContext,
  by: BackupActor,
  name: string,
): Promise<BackupSummary> {
  const root = backupRoot(ctx.config);
  // Only a name of the list: the folder is the server's, never a path the client made.
  if (!BACKUP_NAME.test(name) || !(await backupNames(root)).includes(name))
    throw new HttpProblem('notFound', { detailKey: 'backup.notFound', code: 'backup.notFound' });
  const dir = join(root, name);
  const summary = await summaryOf(root, name, await planPrune(root, retentionRuleOf(ctx.config)));
  if (summary.state !== 'complete')
    throw new HttpProblem('conflict', { detailKey: 'backup.unfinished', code: 'backup.unfinished' });
  const { problems } = await verifyBackup(dir);
  const verification: BackupVerification = {
    at: new Date().toISOString(),
    whole: problems.length === 0,
    problems: problems.length,
  };
  await writeFile(join(dir, VERIFICATION_NAME), `${JSON.stringify(verification, null, 2)}\n`);
  await audited(ctx, by, 'backups.verified', name, { whole: verification.whole, problems: problems.length });
  return { ...summary, verification };
}

async function backupNames(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries
    .filter((e) => e.isDirectory() && BACKUP_NAME.test(e.name))
    .map((e) => e.name)
    .sort()
    .reverse();
}

/** What the rule does with a folder, from a plan of the whole BACKUP_DIR (null: the plan is not read). */
function retentionOf(plan: PruneItem[] | null, name: string): BackupRetention {
  const item = plan?.find((i) => i.name === name);
  if (!item || item.kind !== 'backup') return 'outside';
  if (item.newest) return 'newest';
  if (goes(item)) return 'expired';
  return item.keptBy.includes('last') ? 'last' : 'monthly';
}

async function summaryOf(root: string, name: string, plan: PruneItem[] | null): Promise<BackupSummary> {
  const dir = join(root, name);
  // The plan read the manifests already (a large archive's lists every file it holds: read it once).
  const planned = plan?.find((i) => i.name === name);
  const manifest = planned?.kind === 'backup' ? planned.manifest : await readManifest(dir).catch(() => null);
  if (!manifest)
    return {
      name,
      state: 'unfinished',
      createdAt: null,
      appVersion: null,
      database: null,
      migrations: null,
      files: 0,
      size: 0,
      hasSecret: false,
      verification: null,
      retention: 'outside',
    };
  return {
    name,
    state: 'complete',
    createdAt: manifest.createdAt,
    appVersion: manifest.appVersion,
    database: manifest.database.kind,
    migrations: manifest.database.migrations.count,
    files: manifest.files.length,
    size: manifest.files.reduce((sum, f) => sum + f.size, 0),
    hasSecret: manifest.files.some((f) => f.secret),
    verification: await verificationOf(dir),
    retention: retentionOf(plan, name),
  };
}

async function verificationOf(dir: string): Promise<BackupVerification | null> {
  try {
    const parsed = backupVerificationSchema.safeParse(
      JSON.parse(await readFile(join(dir, VERIFICATION_NAME), 'utf8')) as unknown,
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
