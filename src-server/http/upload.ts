/**
 * The one way a route reads an uploaded file: a multipart request with exactly one file part. A request
 * that is not multipart, is malformed (no or a wrong boundary, truncated) or has no file answers 400; a
 * second file answers 400 saying one file per request (never silently dropped); a file over the limit
 * answers 413 while streaming. The file name is cleaned for display (cleanFileName).
 */
import type { FastifyRequest } from 'fastify';
import { HttpProblem } from './problem';

/** Bidi embeddings, overrides and isolates, directional marks, and other invisible format characters. */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\uFFF9-\uFFFB]/gu;

/**
 * A safe display name for an uploaded file: the last path segment only; no control characters and no
 * bidi or invisible format characters (a right-to-left override can make `cod.exe` read `exe.doc`);
 * Unicode NFC; at most 200 characters, keeping the extension. Empty → `fallback`.
 */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  let clean = base
    .normalize('NFC')
    .replace(/\p{Cc}/gu, '')
    .replace(INVISIBLE, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .trim();
  if (clean.length > 200) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
    clean = clean.slice(0, 200 - ext.length) + ext;
  }
  return clean.replace(/^\.+$/, '') || fallback;
}

const required = () => new HttpProblem('badRequest', { fields: { file: [{ key: 'validation.required' }] } });
const malformed = () => new HttpProblem('badRequest', { fields: { file: [{ key: 'validation.invalid' }] } });

/** Whether a multipart stream error is the size limit (413 from @fastify/multipart). */
function isTooLarge(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { statusCode?: unknown }).statusCode === 413
  );
}

/** Reads the single file of a multipart request. */
export async function readSingleUpload(
  request: FastifyRequest,
): Promise<{ bytes: Buffer; fileName: string | undefined }> {
  if (!request.isMultipart()) throw required();
  let found: { bytes: Buffer; fileName: string | undefined } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (found) {
        part.file.resume();
        throw new HttpProblem('badRequest', {
          detailKey: 'upload.oneFile',
          code: 'upload.oneFile',
          fields: { file: [{ key: 'upload.oneFile' }] },
        });
      }
      found = { bytes: await part.toBuffer(), fileName: part.filename };
    }
  } catch (error) {
    if (error instanceof HttpProblem || isTooLarge(error)) throw error;
    throw malformed();
  }
  if (!found) throw required();
  return found;
}
