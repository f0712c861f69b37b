/**
 * Sending an outgoing letter's final PDF by e-mail (issue 27): only when its archive office (or an
 * administrator) asks, one message per address — a receiver's address from the directory or one typed by
 * the clerk — through the organisation's SMTP server (settings.ts), with mail.ts's bilingual covering
 * text. Each address is a row of email_dispatches sent by a background job (`final.email`, one attempt):
 * the job records the message id, or the failure and its reason, and never tries again on its own — a
 * failed one is sent again only when the clerk retries it, so no e-mail leaves without the clerk's action.
 */
import { sql } from 'drizzle-orm';
import type { EmailDispatch, EmailDispatches, SendEmailRequest } from '../../../src-shared/api/final';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import { appendEvent } from '../../db/records';
import { rowsOf } from '../../db/rows';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import type { JobContext } from '../../jobs/queue';
import type { Tx } from '../auth/queries';
import { badField, holds, scope, visibleDocument } from '../correspondence/common';
import { factsOf, finalRow, isoOf, verifyUrlOf } from './letters';
import { sendFinalLetter } from './mail';
import { noSmtp, readSettings, SMTP_TIMEOUT_MS, smtpOf } from './settings';
import { atLowestSecurity } from './verify';

export const FINAL_EMAIL = 'final.email';

interface DispatchRow {
  id: number;
  document_id: number;
  department_id: number | null;
  address: string;
  state: EmailDispatch['state'];
  message_id: string | null;
  error: string | null;
  error_code: string | null;
  attempts: number;
  sent_by: number | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  dep_ar: string | null;
  dep_en: string | null;
  by_ar: string | null;
  by_en: string | null;
}

const dispatchSelect = sql`select e.*, dep.name_ar as dep_ar, dep.name_en as dep_en,
       u.name_ar as by_ar, u.name_en as by_en
  from email_dispatches e
  left join departments dep on dep.id = e.department_id
  left join users u on u.id = e.sent_by`;

function dispatchOut(row: DispatchRow): EmailDispatch {
  const named = (id: number | null, ar: string | null, en: string | null) =>
    id === null ? null : { id, nameAr: ar ?? '', nameEn: en ?? '' };
  return {
    id: row.id,
    address: row.address,
    department: named(row.department_id, row.dep_ar, row.dep_en),
    state: row.state,
    messageId: row.message_id,
    error: row.error,
    errorCode: row.error_code,
    attempts: row.attempts,
    sentBy: named(row.sent_by, row.by_ar, row.by_en),
    createdAt: isoOf(row.created_at)!,
    sentAt: isoOf(row.sent_at),
  };
}

/** The document's receivers (its recipient departments, in the author's order) with their e-mail. */
async function receiversOf(db: Tx, documentId: number) {
  const rows = await rowsOf<{ id: number; name_ar: string; name_en: string; email: string | null }>(
    db,
    sql`select dep.id, dep.name_ar, dep.name_en, dep.email
          from document_recipients r join departments dep on dep.id = r.department_id
         where r.document_id = ${documentId} order by r.position`,
  );
  return rows.map((r) => ({ id: r.id, nameAr: r.name_ar, nameEn: r.name_en, email: r.email }));
}

async function listOf(ctx: ServerContext, documentId: number, mayManage: boolean): Promise<EmailDispatches> {
  const rows = await rowsOf<DispatchRow>(
    ctx.db,
    sql`${dispatchSelect} where e.document_id = ${documentId} order by e.created_at desc, e.id desc`,
  );
  const settings = await readSettings(ctx.db);
  return {
    items: rows.map(dispatchOut),
    receivers: await receiversOf(ctx.db, documentId),
    mayManage,
    smtpReady: settings.smtp !== null,
  };
}

/** GET /correspondence/documents/{id}/email-dispatches: whoever may see the document sees them. */
export async function listEmailDispatches(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<EmailDispatches> {
  const s = await scope(ctx, caller);
  const doc = await visibleDocument(ctx.db, s, id);
  return listOf(ctx, id, holds(s, doc) && doc.direction === 'out');
}

const conflict = (code: string) => new HttpProblem('conflict', { code, detailKey: code });

/**
 * The document, when the caller may e-mail its final PDF now: its archive office or an administrator
 * (403), an outgoing letter whose final PDF is made (409 final.email.notReady) and not cancelled (409
 * final.cancelled), with the SMTP server set (409 final.email.noSmtp).
 */
async function sendable(ctx: ServerContext, caller: AuthContext, id: number) {
  const s = await scope(ctx, caller);
  const doc = await visibleDocument(ctx.db, s, id);
  if (!holds(s, doc)) throw new HttpProblem('forbidden');
  const row = await finalRow(ctx.db, id);
  if (doc.direction !== 'out' || !row) throw conflict('final.email.notReady');
  if (row.cancelled_at) throw conflict('final.cancelled');
  if (row.state !== 'done') throw conflict('final.email.notReady');
  if ((await readSettings(ctx.db)).smtp === null) throw noSmtp();
  return s;
}

const enqueueDispatch = (ctx: ServerContext, tx: Tx, dispatchId: number) =>
  // One attempt: a failure is recorded on the row and the clerk decides whether to send it again.
  ctx.jobs.enqueue(tx, FINAL_EMAIL, { dispatchId }, { key: String(dispatchId), maxAttempts: 1 });

/** POST /correspondence/documents/{id}/email-dispatches: one queued row (and job) per address. */
export async function sendEmail(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: SendEmailRequest,
  ip: string | null,
): Promise<EmailDispatches> {
  const s = await sendable(ctx, caller, id);
  const receivers = new Set((await receiversOf(ctx.db, id)).map((r) => r.id));
  // The same address twice is sent once (compared without regard to case).
  const seen = new Set<string>();
  const recipients: { departmentId: number | null; address: string }[] = [];
  input.recipients.forEach((r, i) => {
    const address = r.address.trim();
    if (r.departmentId !== undefined && !receivers.has(r.departmentId))
      throw badField(`recipients.${i}.departmentId`);
    if (seen.has(address.toLowerCase())) return;
    seen.add(address.toLowerCase());
    recipients.push({ departmentId: r.departmentId ?? null, address });
  });
  await ctx.db.transaction(async (tx) => {
    const ids: number[] = [];
    for (const r of recipients) {
      const [row] = await rowsOf<{ id: number }>(
        tx,
        sql`insert into email_dispatches (document_id, department_id, address, sent_by)
            values (${id}, ${r.departmentId}, ${r.address}, ${s.userId}) returning id`,
      );
      ids.push(row!.id);
      await enqueueDispatch(ctx, tx, row!.id);
    }
    await recordAudit(tx, {
      action: 'documents.emailQueued',
      actorId: s.userId,
      actorUsername: caller.username,
      targetType: 'document',
      targetId: id,
      details: { dispatchIds: ids, addresses: recipients.map((r) => r.address) },
      ip,
    });
  });
  ctx.jobs.nudge();
  return listOf(ctx, id, true);
}

/** POST /correspondence/documents/{id}/email-dispatches/{dispatchId}/retry: a failed one, queued again. */
export async function retryEmail(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  dispatchId: number,
  ip: string | null,
): Promise<EmailDispatches> {
  const s = await sendable(ctx, caller, id);
  await ctx.db.transaction(async (tx) => {
    const [row] = await rowsOf<{ state: string; address: string }>(
      tx,
      sql`select state, address from email_dispatches where id = ${dispatchId} and document_id = ${id} for update`,
    );
    if (!row) throw new HttpProblem('notFound');
    if (row.state !== 'failed') throw conflict('final.email.notFailed');
    await tx.execute(sql`update email_dispatches set state = 'queued', sent_by = ${s.userId}
      where id = ${dispatchId}`);
    await enqueueDispatch(ctx, tx, dispatchId);
    await recordAudit(tx, {
      action: 'documents.emailQueued',
      actorId: s.userId,
      actorUsername: caller.username,
      targetType: 'document',
      targetId: id,
      details: { dispatchIds: [dispatchId], addresses: [row.address], retry: true },
      ip,
    });
  });
  ctx.jobs.nudge();
  return listOf(ctx, id, true);
}

// ---------------------------------------------------------------- the job

type Outcome = { ok: true; messageId: string } | { ok: false; error: string; code: string | null };

/** Our own reasons not to send (the letter cancelled meanwhile…): the key, as error and code. */
const refused = (key: string): Outcome => ({ ok: false, error: key, code: key });

/** Sends one queued dispatch; any failure is the outcome, not an exception. */
async function attempt(ctx: ServerContext, dispatch: DispatchRow, signal: AbortSignal): Promise<Outcome> {
  const documentId = dispatch.document_id;
  const final = await finalRow(ctx.db, documentId);
  if (!final || final.state !== 'done' || !final.sha256) return refused('final.email.notReady');
  if (final.cancelled_at) return refused('final.cancelled');
  const settings = await readSettings(ctx.db);
  const smtp = await smtpOf(ctx, settings);
  if (!smtp) return refused('final.email.noSmtp');
  const facts = await factsOf(ctx.db, documentId);
  const [doc] = await rowsOf<{ subject: string | null; lowest: boolean }>(
    ctx.db,
    sql`select d.subject, ${atLowestSecurity(sql`d.security_rank`)} as lowest from documents d
         where d.id = ${documentId}`,
  );
  // The subject only at the lowest security level, in the part of the covering text of its language.
  const subject = doc?.lowest && doc.subject?.trim() ? doc.subject.trim() : null;
  const arabic = subject !== null && /[\u0600-\u06FF]/.test(subject);
  const bytes = await ctx.files.get(final.sha256);
  signal.throwIfAborted();
  const sent = await sendFinalLetter(
    smtp,
    {
      to: dispatch.address,
      number: facts.number,
      subjectAr: arabic ? subject : null,
      subjectEn: arabic ? null : subject,
      organisation: facts.organisation,
      verifyUrl: verifyUrlOf(settings.verify_base_url, final.token),
      attachment: { fileName: `${facts.number}.pdf`, bytes },
    },
    { timeoutMs: SMTP_TIMEOUT_MS },
  );
  return sent.ok
    ? { ok: true, messageId: sent.messageId }
    : { ok: false, error: sent.error, code: sent.code };
}

/** The job: sends one e-mail dispatch and records what happened, on the row and on the timeline. */
export async function sendQueuedEmail(ctx: ServerContext, job: JobContext): Promise<void> {
  const { dispatchId } = job.payload as { dispatchId: number };
  const [dispatch] = await rowsOf<DispatchRow>(ctx.db, sql`${dispatchSelect} where e.id = ${dispatchId}`);
  if (!dispatch || dispatch.state !== 'queued') return;
  await ctx.db.execute(sql`update email_dispatches set attempts = attempts + 1 where id = ${dispatchId}`);
  let outcome: Outcome;
  try {
    outcome = await attempt(ctx, dispatch, job.signal);
  } catch (error) {
    // The worker stopping: the job is queued again and the row stays queued for it.
    if (job.signal.aborted) throw error;
    // A file store or database failure: recorded like an SMTP failure, for the clerk to retry.
    outcome = { ok: false, error: error instanceof Error ? error.message : String(error), code: null };
  }
  const details = { dispatchId, address: dispatch.address };
  await ctx.db.transaction(async (tx) => {
    if (outcome.ok) {
      await tx.execute(sql`update email_dispatches set state = 'sent', message_id = ${outcome.messageId},
          error = null, error_code = null, sent_at = now()
        where id = ${dispatchId}`);
      await appendEvent(tx, dispatch.document_id, 'emailSent', dispatch.sent_by, {
        ...details,
        messageId: outcome.messageId,
      });
    } else {
      await tx.execute(sql`update email_dispatches set state = 'failed', error = ${outcome.error},
          error_code = ${outcome.code}
        where id = ${dispatchId}`);
      await appendEvent(tx, dispatch.document_id, 'emailFailed', dispatch.sent_by, {
        ...details,
        error: outcome.error,
        code: outcome.code,
      });
    }
  });
}
