/**
 * The retention rule of a backup folder (issue 29; docs/backups.md), as a pure function: keep the N newest
 * complete backups, and the newest backup of each of the M latest months that have one (months of the
 * organisation's time zone); every other complete backup may go. prune.ts reads the folders and removes
 * what this says; the server applies it after each backup it makes, the command line on request.
 *
 * What it never lets go: the newest complete backup (N is at least 1) and anything that is not a complete
 * backup (no manifest: still being written, or failed) — those are not even handed to it.
 */
import { dayIn } from '../clock';
import type { ServerConfig } from '../config';

/** How many backups a folder keeps (BACKUP_KEEP_LAST, BACKUP_KEEP_MONTHLY in the server's configuration). */
export interface RetentionRule {
  /** The newest complete backups kept, whatever their age (at least 1: the newest is never removed). */
  keepLast: number;
  /** Months (the latest that have a backup) of which the newest backup is also kept; 0: none. */
  keepMonthly: number;
  /** The time zone whose calendar months count (ORG_TIME_ZONE). */
  timeZone: string;
}

/** The rule the server's configuration sets. */
export const retentionRuleOf = (
  config: Pick<ServerConfig, 'BACKUP_KEEP_LAST' | 'BACKUP_KEEP_MONTHLY' | 'ORG_TIME_ZONE'>,
): RetentionRule => ({
  keepLast: config.BACKUP_KEEP_LAST,
  keepMonthly: config.BACKUP_KEEP_MONTHLY,
  timeZone: config.ORG_TIME_ZONE,
});

/** Why the rule keeps a backup: among the newest (`last`), or its month's newest (`monthly`). */
export type KeptBy = 'last' | 'monthly';

/** A complete backup as the rule sees it: its name and when it was made. */
export interface DatedBackup {
  name: string;
  createdAt: Date;
}

/** The calendar month (YYYY-MM) an instant falls in, in a time zone. */
export const monthIn = (timeZone: string, at: Date) => dayIn(timeZone, at).slice(0, 7);

/** Newest first: by time, then by name (two made in the same millisecond still have one order). */
export function newestFirst<T extends DatedBackup>(backups: readonly T[]): T[] {
  return [...backups].sort(
    (a, b) =>
      b.createdAt.getTime() - a.createdAt.getTime() || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0),
  );
}

/**
 * What the rule keeps of these complete backups, and why: a map from each name to its reasons (empty: the
 * rule lets it go). Names must be distinct.
 */
export function applyRetention(backups: readonly DatedBackup[], rule: RetentionRule): Map<string, KeptBy[]> {
  const keepLast = Math.max(1, Math.floor(rule.keepLast));
  const keepMonthly = Math.max(0, Math.floor(rule.keepMonthly));
  const out = new Map<string, KeptBy[]>();
  const months = new Set<string>();
  newestFirst(backups).forEach((backup, index) => {
    const reasons: KeptBy[] = [];
    if (index < keepLast) reasons.push('last');
    const month = monthIn(rule.timeZone, backup.createdAt);
    if (!months.has(month) && months.size < keepMonthly) {
      months.add(month);
      reasons.push('monthly');
    }
    out.set(backup.name, reasons);
  });
  return out;
}
