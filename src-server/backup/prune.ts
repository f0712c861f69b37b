/**
 * Pruning a folder of backups (issue 29; docs/backups.md): each sub-folder is looked at, and only a
 * complete backup of ours is ever removed — one whose manifest this version reads and which holds nothing
 * its manifest does not list (besides the manifest and the last verification; the folder is walked just
 * before it goes). A folder without a manifest (a backup being written, or one that failed) or with
 * anything else in it is left alone, and so is the newest complete backup. What goes is chosen by the retention rule (retention.ts); the server prunes after
 * each backup it makes, the command line on request (`backup --prune`, with `--dry-run`), and an
 * administrator may remove one backup by name (`removeOneBackup`).
 *
 * A folder is removed by renaming it first (`.removing-<name>`, one step that no listing shows), then
 * deleting it: a removal cut short leaves no half-deleted folder that still looks like a backup, and the
 * next pruning finishes it.
 */
import { existsSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { ServerConfig } from '../config';
import { MANIFEST_NAME, readManifest, type Manifest } from './manifest';
import { applyRetention, newestFirst, type KeptBy, type RetentionRule } from './retention';

/** The folder the server's backups go into (BACKUP_DIR, else DATA_DIR/backups), and `backup --prune`'s. */
export const backupRoot = (config: Pick<ServerConfig, 'BACKUP_DIR' | 'DATA_DIR'>) =>
  resolve(config.BACKUP_DIR ?? join(config.DATA_DIR, 'backups'));

/** Beside a backup's manifest: its last verification (modules/backups writes it). */
export const VERIFICATION_NAME = 'verify.json';

/** The name a folder takes while it is being removed. */
const REMOVING = '.removing-';

/** What a sub-folder of the backups folder is, by its manifest. */
export type BackupFolder =
  | { kind: 'backup'; name: string; manifest: Manifest; size: number }
  /** No manifest: a backup being written, one that failed, or not a backup at all. Never removed. */
  | { kind: 'unfinished'; name: string }
  /**
   * A manifest this version does not read (another program's, a later format), or names at the folder's
   * top that the manifest does not list. Never removed.
   */
  | { kind: 'foreign'; name: string; reason: string };

/**
 * Looks at one folder: its manifest (a complete backup of ours, an unfinished one, or something else) and
 * the names at its top, which must be the manifest's (`files`, the dump, the secrets key), the manifest or
 * the last verification. Deeper down it is walked only before a removal (`notOurs`): a list of large
 * backups reads their manifests, not their millions of files.
 */
export async function inspectBackupFolder(root: string, name: string): Promise<BackupFolder> {
  const dir = join(root, name);
  // The manifest is written last (through a temporary name): without it, the backup is not whole yet.
  if (!existsSync(join(dir, MANIFEST_NAME))) return { kind: 'unfinished', name };
  let manifest: Manifest;
  try {
    manifest = await readManifest(dir);
  } catch (error) {
    return { kind: 'foreign', name, reason: (error as Error).message.split('\n')[0]! };
  }
  const top = new Set([
    MANIFEST_NAME,
    VERIFICATION_NAME,
    ...manifest.files.map((f) => f.path.split('/')[0]!),
  ]);
  const strangers = (await readdir(dir)).filter((entry) => !top.has(entry));
  if (strangers.length) return { kind: 'foreign', name, reason: strangersReason(strangers) };
  return { kind: 'backup', name, manifest, size: manifest.files.reduce((sum, f) => sum + f.size, 0) };
}

const strangersReason = (strangers: string[]) =>
  `holds ${strangers.length} file(s) its manifest does not list, e.g. ${strangers[0]}`;

/**
 * Just before a removal: the folder looked at again, and walked — everything in it must be what the
 * backup wrote (its manifest's files, the manifest, the last verification). Answers why it is not wholly
 * ours to remove, or null. (Walked only for a removal: a list of large backups reads their manifests only.)
 */
async function notOurs(root: string, name: string, planned: Manifest): Promise<string | null> {
  const now = await inspectBackupFolder(root, name);
  if (now.kind === 'unfinished') return 'no manifest: being written, or failed';
  if (now.kind === 'foreign') return now.reason;
  if (now.manifest.createdAt !== planned.createdAt) return 'its manifest changed since it was looked at';
  const dir = join(root, name);
  const allowed = new Set([MANIFEST_NAME, VERIFICATION_NAME, ...now.manifest.files.map((f) => f.path)]);
  const strangers: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (!entry.isFile() || !allowed.has(path)) strangers.push(path);
  }
  return strangers.length ? strangersReason(strangers) : null;
}

/** One folder of a pruning plan, and what becomes of it. */
export type PruneItem =
  | (Extract<BackupFolder, { kind: 'backup' }> & {
      /** Why the rule keeps it (empty: it goes); the newest complete backup is always kept. */
      keptBy: KeptBy[];
      newest: boolean;
    })
  | Exclude<BackupFolder, { kind: 'backup' }>
  /** A removal cut short (`.removing-<name>`): finished by the next pruning. */
  | { kind: 'leftover'; name: string };

/** Whether a plan's item is removed by the pruning. */
export const goes = (item: PruneItem) =>
  item.kind === 'leftover' || (item.kind === 'backup' && !item.newest && item.keptBy.length === 0);

/**
 * Every sub-folder of `root` and what the rule does with it: complete backups newest first, then the
 * others by name. Reads only; a missing root is an empty one.
 */
export async function planPrune(root: string, rule: RetentionRule): Promise<PruneItem[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const folders = await Promise.all(
    entries
      .filter((e) => e.isDirectory())
      .map((e) =>
        e.name.startsWith(REMOVING)
          ? Promise.resolve<PruneItem>({ kind: 'leftover', name: e.name })
          : inspectBackupFolder(root, e.name),
      ),
  );
  const backups = newestFirst(
    folders
      .filter((f) => f.kind === 'backup')
      .map((f) => ({ ...f, createdAt: new Date(f.manifest.createdAt) })),
  );
  const kept = applyRetention(backups, rule);
  const others = folders.filter((f) => f.kind !== 'backup').sort((a, b) => (a.name < b.name ? -1 : 1));
  return [
    ...backups.map(({ createdAt: _createdAt, ...b }, index) => ({
      ...b,
      keptBy: kept.get(b.name) ?? [],
      newest: index === 0,
    })),
    ...others,
  ];
}

/**
 * Removes a folder of `root`: renamed out of every listing first, then deleted. Answers false when it was
 * no longer there (another removal took it meanwhile).
 */
async function removeFolder(root: string, name: string): Promise<boolean> {
  const aside = name.startsWith(REMOVING) ? name : `${REMOVING}${name}`;
  if (aside !== name) {
    try {
      await rename(join(root, name), join(root, aside));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
  await rm(join(root, aside), { recursive: true, force: true });
  return true;
}

export interface PruneResult {
  plan: PruneItem[];
  /** The backups removed (with `dryRun`: that would be). Leftovers of cut-short removals are not counted. */
  removed: Extract<PruneItem, { kind: 'backup' }>[];
  /** Backups the rule let go but that were left, and why (files of someone else's in the folder). */
  left: { name: string; reason: string }[];
}

/**
 * Applies the rule to `root`: removes the complete backups it lets go — each looked at again and walked
 * just before, so a folder changed since the plan or holding anything that is not the backup's is left —
 * and finishes removals cut short. With `dryRun` removes nothing (the same checks are made). `onRemoved` is
 * told of each backup once it is gone (the audit log).
 */
export async function pruneBackups(
  root: string,
  rule: RetentionRule,
  options: {
    dryRun?: boolean;
    /** A backup kept whatever the rule says (the one just made, even if a clock put another after it). */
    spare?: string;
    onRemoved?: (item: Extract<PruneItem, { kind: 'backup' }>) => Promise<void>;
  } = {},
): Promise<PruneResult> {
  const plan = await planPrune(root, rule);
  const result: PruneResult = { plan, removed: [], left: [] };
  for (const item of plan) {
    if (!goes(item) || item.name === options.spare) continue;
    if (item.kind === 'leftover') {
      if (!options.dryRun) await removeFolder(root, item.name);
      continue;
    }
    if (item.kind !== 'backup') continue;
    const reason = await notOurs(root, item.name, item.manifest).catch((error: Error) => error.message);
    if (reason) result.left.push({ name: item.name, reason });
    else if (options.dryRun) result.removed.push(item);
    else if (await removeFolder(root, item.name)) {
      result.removed.push(item);
      await options.onRemoved?.(item);
    }
  }
  return result;
}

/** Why one backup may not be removed. */
export class RemoveRefused extends Error {
  constructor(
    readonly reason: 'notFound' | 'unfinished' | 'foreign' | 'newest',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Removes one backup of `root` by its folder name (an administrator's choice): refused when there is no
 * such folder, when it is not a complete backup of ours, or when it is the newest complete backup.
 */
export async function removeOneBackup(
  root: string,
  name: string,
): Promise<Extract<BackupFolder, { kind: 'backup' }>> {
  if (!name || name.startsWith('.') || name.includes('/') || name.includes(sep))
    throw new RemoveRefused('notFound', `${name}: not a backup folder's name`);
  const plan = await planPrune(root, { keepLast: 1, keepMonthly: 0, timeZone: 'UTC' });
  const item = plan.find((i) => i.name === name);
  if (!item) throw new RemoveRefused('notFound', `${name}: no such backup`);
  if (item.kind === 'unfinished')
    throw new RemoveRefused('unfinished', `${name} has no manifest: it is being written, or failed`);
  if (item.kind !== 'backup')
    throw new RemoveRefused(
      'foreign',
      `${name} is not a backup of ours: ${'reason' in item ? item.reason : ''}`,
    );
  if (item.newest) throw new RemoveRefused('newest', `${name} is the newest complete backup: it is kept`);
  const reason = await notOurs(root, name, item.manifest);
  if (reason) throw new RemoveRefused('foreign', `${name} is not wholly a backup of ours: ${reason}`);
  if (!(await removeFolder(root, name))) throw new RemoveRefused('notFound', `${name}: no such backup`);
  const { keptBy: _keptBy, newest: _newest, ...backup } = item;
  return backup;
}
