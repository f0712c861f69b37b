/**
 * Who read what (issue 31 part 5; docs/read-audit-and-integrity.md). Each act of reading is one audit
 * record with who, when and from which address:
 * - a document opened: its GET with the opening's `read` token (once per token); a GET without a token
 *   (another client) is recorded each time, so leaving the token out never hides a reading;
 * - an attachment viewed: the viewer's requests carry the view's token (READ_TOKEN_HEADER) and the first
 *   of them makes the record, however many ranges pdf.js reads; a request without a token is recorded
 *   when it starts a reading (no Range, or a Range from byte 0), never for the later pieces;
 * - an attachment downloaded or printed: its own route, one request per act, answering the copy — with
 *   the reader's name and the time on every page when the document is above the lowest security level
 *   (watermark.ts); the stored file stays as it is. Viewing on screen is not watermarked.
 * The lists per document and per user are for holders of the audit page's view permission; a read names
 * its document's number and subject only to a caller who may see the document.
 */
import type { Readable } from 'node:stream';
import type { ReadsQuery, ReadEntry, ReadAction } from '../../../src-shared/api/reads';
import type { ListPage } from '../../../src-shared/api/envelope';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { rangeOf } from '../../http/send-file';
import { makePdf } from '../../pdf-making/pdf-make-pool';
import { scope } from '../correspondence/common';
import { openAttachment } from '../correspondence/documents';
import * as q from './queries';

/** Where a reading came from (the request's address). */
export interface ReadMeta {
  ip: string | null;
}

/** Records the opening of a document the caller was just answered (once per `token`). */
export async function recordOpened(
  ctx: ServerContext,
  caller: AuthContext,
  documentId: number,
  token: string | undefined,
  meta: ReadMeta,
): Promise<void> {
  await q.insertRead(ctx.db, {
    action: 'documents.opened',
    actorId: caller.userId,
    actorUsername: caller.username,
    documentId,
    details: token ? { read: token } : {},
    ip: meta.ip,
  });
}

/**
 * Records a view of an attachment the caller is being sent: once per view token, or — without one — when
 * the request starts a reading (no Range, or a Range from byte 0; not a suffix or a later piece).
 */
export async function recordView(
  ctx: ServerContext,
  caller: AuthContext,
  attachment: { id: number; documentId: number; fileName: string; size: number },
  request: { token: string | undefined; range: string | undefined },
  meta: ReadMeta,
): Promise<void> {
  if (!request.token) {
    const range = rangeOf(request.range, attachment.size);
    if (range !== null && (range === 'unsatisfiable' || range.start !== 0)) return;
  }
  await q.insertRead(ctx.db, {
    action: 'documents.attachmentViewed',
    actorId: caller.userId,
    actorUsername: caller.username,
    documentId: attachment.documentId,
    details: {
      attachmentId: attachment.id,
      fileName: attachment.fileName,
      // The token names the view of this attachment: the same token on another file is another view.
      ...(request.token ? { read: `${attachment.id}:${request.token}` } : {}),
    },
    ip: meta.ip,
  });
}

async function readWhole(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The time a copy was made as the organisation tells it: `2026-05-01 10:23 GMT+3`. */
export function watermarkTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    calendar: 'gregory',
    numberingSystem: 'latn',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
}

/**
 * A copy of an attachment to download or print, recorded (one record per request: one act): the stored
 * bytes, or — above the lowest security level — a copy with the reader's watermark on every page.
 */
export async function attachmentCopy(
  ctx: ServerContext,
  caller: AuthContext,
  documentId: number,
  attachmentId: number,
  purpose: 'download' | 'print',
  meta: ReadMeta,
): Promise<{ fileName: string; bytes: Uint8Array; watermarked: boolean }> {
  const { attachment, open } = await openAttachment(ctx, caller, documentId, attachmentId);
  const stored = await readWhole(open());
  const watermarked = await q.marksCopies(ctx.db, documentId);
  let bytes: Uint8Array = stored;
  if (watermarked) {
    const reader = await q.readerNames(ctx.db, caller.userId);
    // In a worker thread (pdf-making/): an attachment of hundreds of pages is seconds of pdf-lib.
    const made = await makePdf('watermark', {
      bytes: stored,
      facts: {
        nameAr: reader?.name_ar ?? caller.username,
        nameEn: reader?.name_en ?? caller.username,
        username: caller.username,
        time: watermarkTime(ctx.clock.now(), ctx.config.ORG_TIME_ZONE),
      },
    });
    bytes = made.bytes;
  }
  const action: ReadAction =
    purpose === 'download' ? 'documents.attachmentDownloaded' : 'documents.attachmentPrinted';
  await q.insertRead(ctx.db, {
    action,
    actorId: caller.userId,
    actorUsername: caller.username,
    documentId,
    details: { attachmentId, fileName: attachment.fileName, watermarked },
    ip: meta.ip,
  });
  return { fileName: attachment.fileName, bytes, watermarked };
}

/**
 * A page of reads of a document, or by a user (newest first). A read names its document's number and
 * subject only when the caller may see the document: the audit page shows who read what, not what a
 * document the caller may not open is about.
 */
export async function listReads(
  ctx: ServerContext,
  caller: AuthContext,
  by: { documentId: number } | { userId: number },
  query: ReadsQuery,
): Promise<ListPage<ReadEntry>> {
  const rows = await q.listReads(ctx.db, await scope(ctx, caller), by, query.page, query.pageSize);
  const num = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);
  return {
    items: rows.map((r) => ({
      id: Number(r.id),
      at: new Date(r.at).toISOString(),
      action: r.action,
      userId: r.actor_id,
      username: r.actor_username,
      documentId: Number(r.target_id),
      document:
        r.subject !== null && r.direction !== null && r.state !== null
          ? {
              id: Number(r.target_id),
              docNumber: r.doc_number,
              subject: r.subject,
              direction: r.direction,
              state: r.state,
            }
          : null,
      attachmentId: num(r.details.attachmentId),
      fileName: typeof r.details.fileName === 'string' ? r.details.fileName : null,
      watermarked: r.details.watermarked === true,
      ip: r.ip,
    })),
    total: rows[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}
