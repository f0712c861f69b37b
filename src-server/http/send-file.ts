/**
 * Sends a stored file (an attachment's bytes) the way a viewer reads it: `Accept-Ranges: bytes`, a single
 * `Range: bytes=a-b` answered 206 with only those bytes (pdf.js reads a large PDF a piece at a time and
 * never holds the whole file), 416 for a range outside the file, an ETag (the content's SHA-256: the bytes
 * of an attachment never change) answered 304 when the client has them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';

export interface StoredFile {
  sha256: string;
  size: number;
  contentType: string;
  fileName: string;
  disposition: 'inline' | 'attachment';
}

/** `Content-Disposition` with an ASCII fallback name and the UTF-8 one (RFC 6266 / 5987). */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The single byte range a `Range` header asks for, `'unsatisfiable'`, or null to send everything. */
export function rangeOf(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: answer the whole file (allowed by RFC 9110).
  if (!match) return null;
  const [, a, b] = match;
  if (a === '' && b === '') return null;
  let start: number;
  let end: number;
  if (a === '') {
    // The last b bytes.
    const suffix = Number(b);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start >= size || start > end)
    return 'unsatisfiable';
  return { start, end };
}

export function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: StoredFile,
  open: (range?: { start: number; end: number }) => Readable,
) {
  const etag = `"${file.sha256}"`;
  reply
    .header('content-type', file.contentType)
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    .header('cache-control', 'private, no-cache')
    .header('content-disposition', contentDisposition(file.disposition, file.fileName))
    .header('x-content-type-options', 'nosniff');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === etag)) return reply.status(304).send();
  // A range applies only while the client's copy is this content (If-Range with our ETag, or none).
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : rangeOf(request.headers.range, file.size);
  if (range === 'unsatisfiable')
    return reply.status(416).header('content-range', `bytes */${file.size}`).send();
  if (range) {
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(open(range));
  }
  return reply.header('content-length', String(file.size)).send(open());
}
