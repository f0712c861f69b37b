/**
 * An approved letter's or memo's final PDF (issue 27). The signatory's approval opens it (`openFinal`, in
 * the approval's transaction: a token for its verification link and a job); the job (`makeFinal`) stamps
 * the author's letter — the first PDF among its content attachments, the others staying enclosures — and
 * signs it with the organisation's certificate when one is set, stores it beside the untouched original
 * and records it on the timeline. Its archive office may make it again (after a failure, or once a
 * certificate is set) or cancel it; the public verification page (verify.ts) reads it by token.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FinalLetter, CertificateSummary } from '../../../src-shared/api/final';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import type { Tx } from '../auth/queries';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import type { JobContext } from '../../jobs/queue';
import { rowsOf } from '../../db/rows';
import { holds, scope, visibleDocument } from '../correspondence/common';
import * as cq from '../../db/records';
import { entityOf } from '../../db/records';
import { readSettings, secretsOf, stampSettingsOf } from './settings';
import { stampPdf, UnstampableLetter } from './stamp';
import { signPdf } from './signature';
import type { LetterFacts } from './types';

export const FINAL_MAKE = 'final.make';
/** Attempts before a final PDF is marked failed (a file store or database hiccup is retried). */
const MAX_ATTEMPTS = 4;

/** A final PDF that cannot be made whatever the attempt (no letter, an unreadable letter): no retry. */
class FinalRefusal extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

interface FinalRow {
  document_id: number;
  token: string;
  state: FinalLetter['state'];
  sha256: string | null;
  size: number | null;
  pages: number | null;
  signed: boolean;
  certificate: CertificateSummary | null;
  error: string | null;
  made_at: Date | string | null;
  cancelled_at: Date | string | null;
  cancel_reason: string | null;
}

export async function finalRow(db: Tx, documentId: number): Promise<FinalRow | null> {
  const [row] = await rowsOf<FinalRow>(
    db,
    sql`select * from final_letters where document_id = ${documentId}`,
  );
  return row ?? null;
}

/** The verification page's address of a token, under the organisation's public address. */
export function verifyUrlOf(base: string | null, token: string): string | null {
  return base ? `${base.replace(/\/+$/, '')}/verify/${token}` : null;
}

/**
 * Opens a document's final PDF in the signatory's approval transaction: its verification token (128
 * random bits) and the job that makes it. Once per document.
 */
export async function openFinal(ctx: ServerContext, tx: Tx, documentId: number): Promise<void> {
  const token = randomBytes(16).toString('base64url');
  await tx.execute(sql`insert into final_letters (document_id, token) values (${documentId}, ${token})
    on conflict (document_id) do nothing`);
  await ctx.jobs.enqueue(
    tx,
    FINAL_MAKE,
    { documentId },
    { key: String(documentId), maxAttempts: MAX_ATTEMPTS },
  );
}

interface FactsRow {
  id: number;
  direction: string;
  doc_number: string | null;
  approved_at: Date | string | null;
  department_id: number | null;
  archive_department_id: number | null;
  name_ar: string | null;
  name_en: string | null;
  job_ar: string | null;
  job_en: string | null;
}

/** What the stamp says of a document: its entity, number, approval and signatory. */
export async function factsOf(db: Tx, documentId: number): Promise<LetterFacts> {
  const [row] = await rowsOf<FactsRow>(
    db,
    sql`select d.id, d.direction, d.doc_number, d.approved_at, d.department_id, d.archive_department_id,
               u.name_ar, u.name_en, j.name_ar as job_ar, j.name_en as job_en
          from documents d
          left join approval_members m on m.document_id = d.id and m.kind = 'sign'
          left join users u on u.id = m.user_id
          left join employees e on e.id = u.employee_id
          left join jobs j on j.id = e.job_id
         where d.id = ${documentId}
         limit 1`,
  );
  if (!row || !row.doc_number || !row.approved_at) throw new FinalRefusal('final.notApproved');
  const owner = row.department_id ?? row.archive_department_id;
  const entity = owner === null ? null : await entityOf(db, owner);
  return {
    organisation: { ar: entity?.name_ar ?? '', en: entity?.name_en ?? '' },
    number: row.doc_number,
    approvedAt: new Date(row.approved_at),
    signatory: {
      nameAr: row.name_ar ?? '',
      nameEn: row.name_en ?? '',
      jobAr: row.job_ar,
      jobEn: row.job_en,
    },
    kind: row.direction === 'memo' ? 'memo' : 'outgoing',
  };
}

/** The letter to stamp: the first PDF among the document's content attachments. */
async function letterOf(db: Tx, documentId: number) {
  const [row] = await rowsOf<{ id: number; sha256: string; file_name: string }>(
    db,
    sql`select id, sha256, file_name from document_attachments
         where document_id = ${documentId} and kind = 'content' and mime = 'application/pdf'
         order by id limit 1`,
  );
  return row ?? null;
}

async function fail(ctx: ServerContext, documentId: number, key: string) {
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`update final_letters set state = 'failed', error = ${key}
      where document_id = ${documentId}`);
    await cq.appendEvent(tx, documentId, 'finalFailed', null, { error: key });
  });
}

/** The job: makes a document's final PDF (stamped, signed when a certificate is set). */
export async function makeFinal(ctx: ServerContext, job: JobContext): Promise<void> {
  const { documentId } = job.payload as { documentId: number };
  const row = await finalRow(ctx.db, documentId);
  if (!row || row.cancelled_at) return;
  try {
    const facts = await factsOf(ctx.db, documentId);
    const letter = await letterOf(ctx.db, documentId);
    if (!letter) throw new FinalRefusal('final.noLetter');
    const settings = await readSettings(ctx.db);
    const original = await ctx.files.get(letter.sha256);
    const qrText = verifyUrlOf(settings.verify_base_url, row.token) ?? `SIJILL:DOC:${facts.number}`;
    let stamped: Uint8Array;
    let pages: number;
    try {
      ({ bytes: stamped, pages } = await stampPdf(
        original,
        facts,
        stampSettingsOf(settings, facts.kind),
        qrText,
      ));
    } catch (error) {
      if (error instanceof UnstampableLetter) throw new FinalRefusal('final.unreadableLetter');
      throw error;
    }
    job.signal.throwIfAborted();
    const secrets = await secretsOf(ctx, settings);
    let bytes = stamped;
    let certificate: CertificateSummary | null = null;
    if (secrets.certificate) {
      bytes = await signPdf(stamped, secrets.certificate.pkcs12, secrets.certificate.password, {
        reason: `${facts.number}`,
        name: facts.organisation.en || facts.number,
        location: facts.organisation.en || '-',
        signingTime: new Date(),
      });
      certificate = settings.certificate as CertificateSummary | null;
    }
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const stored = await ctx.files.put(buffer);
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`update final_letters set state = 'done', error = null,
          source_attachment_id = ${letter.id}, sha256 = ${stored.sha256}, size = ${stored.size},
          pages = ${pages}, signed = ${certificate !== null},
          certificate = ${certificate ? JSON.stringify(certificate) : null}::jsonb, made_at = now()
        where document_id = ${documentId}`);
      await cq.appendEvent(tx, documentId, 'finalMade', null, {
        signed: certificate !== null,
        sha256: stored.sha256,
        pages,
      });
    });
  } catch (error) {
    if (error instanceof FinalRefusal) return fail(ctx, documentId, error.key);
    // A certificate that expired since it was set: stamped letters wait for a new one, marked failed.
    if (error instanceof Error && error.name === 'CertificateProblem')
      return fail(ctx, documentId, 'final.certificateUnusable');
    if (job.attempt >= MAX_ATTEMPTS) await fail(ctx, documentId, 'final.failed');
    throw error;
  }
}

// ---------------------------------------------------------------- the document's screen

/** A timestamp of a raw row (a Date from node-postgres, a string from PGlite's raw rows) in ISO form. */
export const isoOf = (v: Date | string | null): string | null =>
  v === null ? null : new Date(v).toISOString();

function finalOut(row: FinalRow, base: string | null, mayManage: boolean): FinalLetter {
  return {
    state: row.state,
    signed: row.signed,
    sha256: row.sha256,
    size: row.size === null ? null : Number(row.size),
    pages: row.pages,
    madeAt: isoOf(row.made_at),
    verifyUrl: verifyUrlOf(base, row.token),
    certificate: row.certificate,
    error: row.error,
    cancelled: row.cancelled_at ? { at: isoOf(row.cancelled_at)!, reason: row.cancel_reason ?? '' } : null,
    mayManage,
  };
}

/** The document (visible to the caller) and its final PDF's row. */
async function visibleFinal(ctx: ServerContext, caller: AuthContext, id: number) {
  const s = await scope(ctx, caller);
  const doc = await visibleDocument(ctx.db, s, id);
  const row = await finalRow(ctx.db, id);
  return { s, doc, row };
}

/** GET /correspondence/documents/{id}/final. */
export async function getFinal(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<FinalLetter | null> {
  const { s, doc, row } = await visibleFinal(ctx, caller, id);
  if (!row) return awaitsFirst(doc) ? { ...NONE, mayManage: holds(s, doc) } : null;
  const settings = await readSettings(ctx.db);
  return finalOut(row, settings.verify_base_url, holds(s, doc));
}

/** GET /correspondence/documents/{id}/final/file: the stored final PDF (404 until made). */
export async function finalFile(ctx: ServerContext, caller: AuthContext, id: number) {
  const { doc, row } = await visibleFinal(ctx, caller, id);
  if (!row || row.state !== 'done' || !row.sha256) throw new HttpProblem('notFound');
  return {
    sha256: row.sha256,
    size: Number(row.size),
    mime: 'application/pdf',
    fileName: `${doc.doc_number ?? id}-final.pdf`,
  };
}

/**
 * A letter or memo approved before final PDFs existed (an upgrade): it has none until its archive office
 * has it made.
 */
const awaitsFirst = (doc: { state: string; direction: string }) =>
  doc.state === 'approved' && (doc.direction === 'out' || doc.direction === 'memo');

const NONE: Omit<FinalLetter, 'mayManage'> = {
  state: 'none',
  signed: false,
  sha256: null,
  size: null,
  pages: null,
  madeAt: null,
  verifyUrl: null,
  certificate: null,
  error: null,
  cancelled: null,
};

async function managedFinal(ctx: ServerContext, caller: AuthContext, id: number) {
  const { s, doc, row } = await visibleFinal(ctx, caller, id);
  if (!row && !awaitsFirst(doc)) throw new HttpProblem('notFound');
  if (!holds(s, doc)) throw new HttpProblem('forbidden');
  if (!row) return { s, row };
  if (row.cancelled_at)
    throw new HttpProblem('conflict', { code: 'final.cancelled', detailKey: 'final.cancelled' });
  return { s, row };
}

/** POST /correspondence/documents/{id}/final/remake. */
export async function remakeFinal(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  ip: string | null,
): Promise<FinalLetter> {
  const { s, row } = await managedFinal(ctx, caller, id);
  await ctx.db.transaction(async (tx) => {
    // A letter approved before final PDFs existed gets its token now.
    if (!row) await openFinal(ctx, tx, id);
    await tx.execute(sql`update final_letters set state = 'pending', error = null where document_id = ${id}`);
    await ctx.jobs.enqueue(
      tx,
      FINAL_MAKE,
      { documentId: id },
      { key: String(id), maxAttempts: MAX_ATTEMPTS },
    );
    await recordAudit(tx, {
      action: 'documents.finalRemade',
      actorId: s.userId,
      actorUsername: caller.username,
      targetType: 'document',
      targetId: id,
      ip,
    });
  });
  ctx.jobs.nudge();
  return (await getFinal(ctx, caller, id))!;
}

/** POST /correspondence/documents/{id}/final/cancel. */
export async function cancelFinal(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  reason: string,
  ip: string | null,
): Promise<FinalLetter> {
  const { s, row } = await managedFinal(ctx, caller, id);
  // Nothing was issued yet: there is nothing to cancel.
  if (!row) throw new HttpProblem('notFound');
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`update final_letters set cancelled_at = now(), cancelled_by = ${s.userId},
        cancel_reason = ${reason} where document_id = ${id}`);
    await cq.appendEvent(tx, id, 'finalCancelled', s.userId, { reason });
    await recordAudit(tx, {
      action: 'documents.finalCancelled',
      actorId: s.userId,
      actorUsername: caller.username,
      targetType: 'document',
      targetId: id,
      details: { reason },
      ip,
    });
  });
  return (await getFinal(ctx, caller, id))!;
}
