/**
 * Intake: a scanning station's PDFs arriving one upload at a time. Each becomes a new incoming draft
 * (its subject the file's name, for the archive office to complete and register), or an attachment of
 * the document whose registration number the station read from the file's name. Decisions:
 * - Exactly once: the sender's `Idempotency-Key` (per user) is recorded with what the upload made, in
 *   the same transaction; a retry with the key answers that (200, `replayed`) without reading the file
 *   again, so a station that crashed or lost the answer never registers a file twice.
 * - The same content twice (a file dropped again, or already attached anywhere) is refused with 409
 *   naming the document when the caller may see it: the archive keeps one copy of a scan. Concurrent
 *   uploads of one content are serialised on its hash, so two stations racing cannot both win.
 * - Access is checked before a byte is read: creating incoming drafts, or filing on the named document.
 */
import type { IntakeResult } from '../../../src-shared/api/correspondence';
import { parseRegistrationNumber } from '../../../src-shared/numbering';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import { cleanFileName, type ReceivedFile } from '../../http/upload';
import { requireOnDirection, scope, visibleDocument } from './common';
import { requireFiling } from './documents';
import * as q from './queries';

/** What intake made, as the sender sees it. */
async function resultOf(ctx: ServerContext, receipt: q.IntakeReceiptRow, replayed: boolean) {
  const doc = await q.numberAndSubject(ctx.db, Number(receipt.document_id));
  return {
    documentId: Number(receipt.document_id),
    attachmentId: receipt.attachment_id === null ? null : Number(receipt.attachment_id),
    docNumber: doc?.doc_number ?? null,
    subject: doc?.subject ?? '',
    replayed,
  } satisfies IntakeResult;
}

const duplicate = (holder: { id: number; doc_number: string | null } | undefined) =>
  new HttpProblem('conflict', {
    code: 'intake.duplicate',
    detailKey: holder ? 'intake.duplicateOf' : 'intake.duplicate',
    params: { document: holder ? (holder.doc_number ?? `#${holder.id}`) : '' },
  });

/** POST /correspondence/intake. */
export async function intake(
  ctx: ServerContext,
  caller: AuthContext,
  input: { key: string; number?: string },
  receive: () => Promise<ReceivedFile>,
): Promise<IntakeResult> {
  const s = await scope(ctx, caller);
  const prior = await q.intakeReceipt(ctx.db, s.userId, input.key);
  if (prior) return resultOf(ctx, prior, true);

  let targetId: number | null = null;
  if (input.number !== undefined) {
    const number = parseRegistrationNumber(input.number);
    const id = number ? await q.documentIdByNumber(ctx.db, input.number.trim()) : null;
    if (id === null)
      throw new HttpProblem('notFound', {
        code: 'intake.noSuchNumber',
        detailKey: 'intake.noSuchNumber',
        params: { number: input.number },
      });
    await requireFiling(ctx.db, caller, s, await visibleDocument(ctx.db, s, id));
    targetId = id;
  } else {
    await requireOnDirection(ctx.db, caller, 'in', 'create');
  }

  const file = await receive();
  const fileName = cleanFileName(file.fileName, `scan-${file.sha256.slice(0, 8)}.pdf`);
  await ctx.files.putFile(file.path, file.sha256);
  if (targetId === null) {
    // A new incoming draft: the checks and every row in one statement, under the content's lock.
    const subject = fileName.replace(/\.pdf$/i, '').slice(0, 300) || fileName;
    const outcome = await ctx.db.transaction(async (tx) => {
      await q.lockContent(tx, file.sha256);
      const done = await q.intakeDraft(tx, {
        userId: s.userId,
        key: input.key,
        sha256: file.sha256,
        subject,
        fileName,
        size: file.size,
        archiveDepartmentId: s.archiveDepartmentId,
      });
      if ('held' in done) {
        const [holder] = await q.holdersOf(tx, s, file.sha256, null, 1);
        throw duplicate(holder);
      }
      return done;
    });
    // A concurrent retry of this very upload may have finished while the file arrived.
    if ('prior' in outcome) return resultOf(ctx, outcome.prior, true);
    return { ...outcome.made, docNumber: null, subject, replayed: false } satisfies IntakeResult;
  }

  const documentId = targetId;
  const receipt = await ctx.db.transaction(async (tx) => {
    await q.lockContent(tx, file.sha256);
    const raced = await q.intakeReceipt(tx, s.userId, input.key);
    if (raced) return { ...raced, replayed: true };
    if (await q.anyHolderOf(tx, file.sha256)) {
      const [holder] = await q.holdersOf(tx, s, file.sha256, null, 1);
      throw duplicate(holder);
    }
    await requireFiling(tx, caller, s, await visibleDocument(tx, s, documentId, true));
    await q.bumpVersion(tx, documentId);
    const attachmentId = await q.insertAttachment(tx, {
      documentId,
      sha256: file.sha256,
      fileName,
      size: file.size,
      mime: 'application/pdf',
      userId: s.userId,
    });
    await q.appendEvent(tx, documentId, 'attachmentAdded', s.userId, {
      attachmentId,
      fileName,
      size: file.size,
    });
    await q.insertIntakeReceipt(tx, {
      userId: s.userId,
      key: input.key,
      sha256: file.sha256,
      documentId,
      attachmentId,
    });
    return { document_id: documentId, attachment_id: attachmentId, sha256: file.sha256, replayed: false };
  });
  return resultOf(ctx, receipt, receipt.replayed);
}
