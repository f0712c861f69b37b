/**
 * Paper for a registered document (issue 26): its registration sticker and its cover sheet, and the
 * plain separator sheet a scanning clerk puts between documents. The PDFs are made by labels/ (fonts,
 * Arabic shaping, codes); this decides who may have them and records each print: every sticker and
 * cover sheet printed is on the document's timeline (the first print, then each reprint counted) and in
 * the audit log, so a second sticker on a second paper never goes unnoticed.
 */
import type { LabelSize } from '../../../src-shared/paper-codes';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import { coverSheetPdf, separatorSheetPdf, stickerPdf, type LabelDocument } from '../labels';
import { entityOf } from './approval-queries';
import { scope, visibleDocument } from './common';
import * as q from './queries';

const notNumbered = () =>
  new HttpProblem('conflict', { code: 'paper.notNumbered', detailKey: 'paper.notNumbered' });

/** The document as its paper shows it, when the caller may see it and it has a number. */
async function labelDocument(ctx: ServerContext, caller: AuthContext, id: number) {
  const s = await scope(ctx, caller);
  const doc = await visibleDocument(ctx.db, s, id);
  if (!doc.doc_number) throw notNumbered();
  const owner = doc.archive_department_id ?? doc.department_id;
  const entity = owner === null ? null : await entityOf(ctx.db, owner);
  const label: LabelDocument = {
    number: doc.doc_number,
    registeredAt: doc.registered_at ?? doc.created_at,
    direction: doc.direction,
    entity: { ar: entity?.name_ar ?? '', en: entity?.name_en ?? '' },
    subject: doc.subject,
  };
  return { s, label };
}

/** Records one print of a document's paper on its timeline and in the audit log; answers which copy it is. */
async function recordPrint(
  ctx: ServerContext,
  caller: AuthContext,
  userId: number,
  documentId: number,
  what: 'sticker' | 'coverSheet',
  details: Record<string, unknown>,
  ip: string | null,
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const event = what === 'sticker' ? 'stickerPrinted' : 'coverSheetPrinted';
    const copy = (await q.eventCount(tx, documentId, event)) + 1;
    await q.appendEvent(tx, documentId, event, userId, { ...details, copy });
    await recordAudit(tx, {
      action: what === 'sticker' ? 'documents.stickerPrinted' : 'documents.coverSheetPrinted',
      actorId: userId,
      actorUsername: caller.username,
      targetType: 'document',
      targetId: documentId,
      details: { ...details, copy },
      ip,
    });
    return copy;
  });
}

/** GET /correspondence/documents/{id}/sticker: the registration sticker's PDF, its print recorded. */
export async function documentSticker(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  options: { size: LabelSize; position?: number | undefined },
  ip: string | null,
): Promise<Uint8Array> {
  const { s, label } = await labelDocument(ctx, caller, id);
  const bytes = await stickerPdf(label, options);
  await recordPrint(
    ctx,
    caller,
    s.userId,
    id,
    'sticker',
    { size: options.size, ...(options.position ? { position: options.position } : {}) },
    ip,
  );
  return bytes;
}

/** GET /correspondence/documents/{id}/cover-sheet: the document's cover sheet (A4), its print recorded. */
export async function documentCoverSheet(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  ip: string | null,
): Promise<Uint8Array> {
  const { s, label } = await labelDocument(ctx, caller, id);
  const bytes = await coverSheetPdf(label);
  await recordPrint(ctx, caller, s.userId, id, 'coverSheet', {}, ip);
  return bytes;
}

/** GET /correspondence/separator-sheet: the "new document" sheet (A4), the same for everyone. */
export function separatorSheet(): Promise<Uint8Array> {
  return separatorSheetPdf();
}
