/**
 * Backups made by the running server (issue 29; docs/backups.md): POST /admin/backup writes one into a
 * folder of BACKUP_DIR named by its time (then prunes the folder by the retention rule), GET
 * /admin/backups lists them with their manifest's summary, the last verification and what the rule does
 * with each, POST /admin/backups/:name/verify hashes one again against its manifest, DELETE
 * /admin/backups/:name removes one (never the newest), GET /admin/backups/retention tells the rule. The
 * client names a backup only by its folder name, which the server finds in its own list (never a path).
 * Schemas and endpoints, shared by the server (src-server/modules/backups) and the client.
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import { endpoint } from './endpoint';

/** A backup folder's name: its UTC time, `20261128-071722-123` (date, time, milliseconds). */
export const BACKUP_NAME = /^\d{8}-\d{6}-\d{3}$/;

export const backupNameParamsSchema = z.object({ name: z.string().regex(BACKUP_NAME) }).strict();

/** The last verification of a backup (kept beside it, verify.json). */
export const backupVerificationSchema = z.object({
  at: z.string(),
  /** True when every file the manifest lists is there with its size and SHA-256. */
  whole: z.boolean(),
  /** How many files are missing or differ. */
  problems: z.number().int().min(0),
});
export type BackupVerification = z.infer<typeof backupVerificationSchema>;

/**
 * What the retention rule does with a backup now: `newest` (the newest complete one, never removed),
 * `last` (one of the newest kept), `monthly` (its month's newest, kept), `expired` (the next pruning
 * removes it), `outside` (never pruned: no manifest, or files its manifest does not list).
 */
export const BACKUP_RETENTION = ['newest', 'last', 'monthly', 'expired', 'outside'] as const;
export type BackupRetention = (typeof BACKUP_RETENTION)[number];

/** The retention rule of BACKUP_DIR (BACKUP_KEEP_LAST, BACKUP_KEEP_MONTHLY, ORG_TIME_ZONE). */
export const backupRetentionRuleSchema = z.object({
  /** The newest complete backups kept (at least 1). */
  keepLast: z.number().int().min(1),
  /** Of the latest months that have a backup, how many keep their newest one (0: none). */
  keepMonthly: z.number().int().min(0),
  /** The time zone whose months count. */
  timeZone: z.string(),
});
export type BackupRetentionRule = z.infer<typeof backupRetentionRuleSchema>;

export const backupSummarySchema = z.object({
  name: z.string(),
  /** `complete`: it has its manifest; `unfinished`: no manifest (still being written, or failed). */
  state: z.enum(['complete', 'unfinished']),
  createdAt: z.string().nullable(),
  appVersion: z.string().nullable(),
  database: z.enum(['postgres', 'pglite']).nullable(),
  migrations: z.number().int().nullable(),
  /** Files the manifest lists (the dump, the stored files, the secrets key) and their bytes in all. */
  files: z.number().int().min(0),
  size: z.number().int().min(0),
  /** Whether it holds the secrets key (keep it as safely as a password). */
  hasSecret: z.boolean(),
  verification: backupVerificationSchema.nullable(),
  retention: z.enum(BACKUP_RETENTION),
});
export type BackupSummary = z.infer<typeof backupSummarySchema>;

export const backupEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/admin/backups',
    response: z.array(backupSummarySchema),
    access: { page: PAGES.backups, permission: 'view' },
    tags: ['backups'],
    summary: 'The backups in BACKUP_DIR, newest first',
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/backup',
    response: backupSummarySchema,
    status: 201,
    message: 'backup.made',
    access: { page: PAGES.backups, permission: 'add' },
    tags: ['backups'],
    summary: 'Back up the installation now (answers when the backup is written)',
  }),
  verify: endpoint({
    method: 'POST',
    path: '/admin/backups/:name/verify',
    params: backupNameParamsSchema,
    response: backupSummarySchema,
    message: 'backup.verified',
    access: { page: PAGES.backups, permission: 'view' },
    tags: ['backups'],
    summary: 'Hash a backup’s files again against its manifest (restores nothing)',
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/admin/backups/:name',
    params: backupNameParamsSchema,
    response: z.null(),
    message: 'backup.deleted',
    access: { page: PAGES.backups, permission: 'delete' },
    tags: ['backups'],
    summary: 'Remove one backup (refused for the newest complete one and for what is not wholly a backup)',
  }),
  retention: endpoint({
    method: 'GET',
    path: '/admin/backups/retention',
    response: backupRetentionRuleSchema,
    access: { page: PAGES.backups, permission: 'view' },
    tags: ['backups'],
    summary: 'The retention rule applied after each backup the server makes',
  }),
} as const;
