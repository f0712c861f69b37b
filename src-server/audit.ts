/**
 * The audit log: sign-ins (success and failure), two-factor changes, every administrative change, the
 * records manager's acts (modules/records), the acts of reading a document (opened, an attachment viewed,
 * downloaded, printed: modules/reads) and the files the integrity check found changed or missing, with
 * who, what, when and from where. Written in the same transaction as the change when there is one.
 * A record written while a request is served keeps that request's id in its details (`requestId`,
 * http/request-id.ts): the same id as in the server's log lines and the proxy's access log.
 */
import type { Db } from './db/open';
import { auditLog } from './db/schema';
import { currentRequestId } from './http/request-id';

/** The stable action codes; their names live in locales under `audit.<code>`. */
export const AUDIT_ACTIONS = [
  'setup.admin',
  'auth.login.success',
  'auth.login.failure',
  'auth.login.locked',
  'auth.logout',
  'auth.twoFactor.challengeFailure',
  'auth.twoFactor.enrolled',
  'auth.twoFactor.enabled',
  'auth.twoFactor.disabled',
  'auth.twoFactor.skipped',
  'auth.twoFactor.recoveryCodeUsed',
  'auth.twoFactor.recoveryCodesRenewed',
  'auth.password.changed',
  'users.create',
  'users.update',
  'users.activate',
  'users.deactivate',
  'users.resetPassword',
  'users.setPassword',
  'users.clearance',
  'roles.create',
  'roles.update',
  'roles.activate',
  'roles.deactivate',
  'roles.permissions',
  'pages.create',
  'pages.update',
  'jobs.create',
  'jobs.update',
  'jobs.activate',
  'jobs.deactivate',
  'departments.create',
  'departments.update',
  'departments.activate',
  'departments.deactivate',
  'departments.configure',
  'employees.create',
  'employees.update',
  'employees.activate',
  'employees.deactivate',
  'employees.photo',
  'employees.attachmentAdded',
  'employees.attachmentDeleted',
  'secretaryOffices.create',
  'secretaryOffices.update',
  'secretaryOffices.activate',
  'secretaryOffices.deactivate',
  'signingAuthority.grant',
  'signingAuthority.revoke',
  'documents.stickerPrinted',
  'documents.coverSheetPrinted',
  'documents.finalRemade',
  'documents.finalCancelled',
  'documents.emailQueued',
  'documents.replyDueChanged',
  'documents.replyClosed',
  'letterSettings.updated',
  'letterSettings.certificateSet',
  'letterSettings.certificateRemoved',
  'letterSettings.smtpUpdated',
  'letterSettings.smtpRemoved',
  'deadlines.settingsUpdated',
  'deadlines.holidayCreated',
  'deadlines.holidayUpdated',
  'deadlines.holidayDeleted',
  'delegations.create',
  'delegations.end',
  'delegations.actedOnBehalf',
  'circuits.approverReplaced',
  'records.fileCreated',
  'records.fileUpdated',
  'records.fileClosed',
  'records.fileReopened',
  'records.documentMoved',
  'records.scheduleSet',
  'records.scheduleRemoved',
  'records.dispositionProposed',
  'records.dispositionApproved',
  'records.dispositionCancelled',
  'records.dispositionStarted',
  'records.dispositionExecuted',
  'records.dispositionStopped',
  'records.holdPlaced',
  'records.holdLifted',
  'documents.opened',
  'documents.attachmentViewed',
  'documents.attachmentDownloaded',
  'documents.attachmentPrinted',
  'files.integrityFailed',
  'files.swept',
  'backups.made',
  'backups.failed',
  'backups.verified',
  'backups.pruned',
  'backups.deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditRecord {
  action: AuditAction;
  actorId?: number | null;
  actorUsername?: string | null;
  targetType?: string | null;
  targetId?: string | number | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}

/** Appends one record (pass a transaction to write it with the change). */
export async function recordAudit(db: Pick<Db, 'insert'>, record: AuditRecord): Promise<void> {
  const requestId = currentRequestId();
  await db.insert(auditLog).values({
    action: record.action,
    actorId: record.actorId ?? null,
    actorUsername: record.actorUsername ?? null,
    targetType: record.targetType ?? null,
    targetId: record.targetId === undefined || record.targetId === null ? null : String(record.targetId),
    details: requestId ? { ...record.details, requestId } : (record.details ?? {}),
    ip: record.ip ?? null,
  });
}
