/**
 * The one way a route reads an uploaded file: a multipart request with exactly one file part. A request
 * that is not multipart, is malformed (no or a wrong boundary, truncated) or has no file answers 400; a
 * second file answers 400 saying one file per request (never silently dropped); a file over the limit
 * answers 413 while streaming. The file name is cleaned for display (cleanFileName).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context';
import { assertPdfFile, assertPdfHead, formatMaxSize } from '../storage/validate';
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

/** 400: a second file in one request is refused by name, never silently dropped. */
const oneFileOnly = () =>
  new HttpProblem('badRequest', {
    detailKey: 'upload.oneFile',
    code: 'upload.oneFile',
    fields: { file: [{ key: 'upload.oneFile' }] },
  });
const required = () => new HttpProblem('badRequest', { fields: { file: [{ key: 'validation.required' }] } });
const malformed = () => new HttpProblem('badRequest', { fields: { file: [{ key: 'validation.invalid' }] } });

const tooLarge = (maxBytes: number) =>
  new HttpProblem('payloadTooLarge', { params: { maxSize: formatMaxSize(maxBytes) } });

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
        throw oneFileOnly();
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

/** A file received to disk by `receiveUpload`, not yet stored. */
export interface ReceivedFile {
  /** The temporary file (inside the file store's tempDir). */
  path: string;
  sha256: string;
  size: number;
  fileName: string | undefined;
  /** The first bytes (up to 1 KB), for a check by content. */
  head: Buffer;
  /** Removes the temporary file if it is still there (after `FileStore.putFile` it is not). */
  discard(): Promise<void>;
}

/**
 * Streams the single file of a multipart request to a temporary file in `tempDir`, hashing it on the
 * way: the bytes are never held in memory whole while they arrive (bench/files: +3 MB receiving 200 MB).
 * `checkHead` sees the first kilobyte as soon as it arrives and may throw (a file that is not a PDF is
 * refused before the rest is read). Over the size limit → 413 while streaming; the temporary file is
 * removed on every failure. Other multipart fields are answered in `fields` (text values only).
 */
export async function receiveUpload(
  request: FastifyRequest,
  options: { tempDir: string; maxBytes: number; checkHead?: (head: Buffer) => void },
): Promise<{ file: ReceivedFile; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw required();
  await mkdir(options.tempDir, { recursive: true });
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  let found: ReceivedFile | null = null;
  const cleanup = async () => found?.discard();
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (found) {
        part.file.resume();
        throw oneFileOnly();
      }
      const path = join(options.tempDir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
      const hash = createHash('sha256');
      let size = 0;
      let head = Buffer.alloc(0);
      const file: ReceivedFile = {
        path,
        sha256: '',
        size: 0,
        fileName: part.filename,
        head,
        discard: () => rm(path, { force: true }),
      };
      found = file;
      // Read with for-await, not pipeline(): a body cut short ends busboy's file stream in a way only
      // the iterator reports (pipeline would wait for ever).
      const out = createWriteStream(path, { flags: 'wx' });
      out.on('error', () => undefined); // reported by once('drain') or end() below
      try {
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          if (head.length < 1024) {
            head = Buffer.concat([head, chunk.subarray(0, 1024 - head.length)]);
            // Checked on the first kilobyte (a smaller file is checked once it has all arrived).
            if (head.length >= 1024) options.checkHead?.(head);
          }
          hash.update(chunk);
          size += chunk.length;
          if (!out.write(chunk)) await once(out, 'drain');
        }
      } finally {
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
      }
      if (part.file.truncated) throw tooLarge(options.maxBytes);
      if (head.length < 1024) options.checkHead?.(head);
      Object.assign(file, { sha256: hash.digest('hex'), size, head });
    }
  } catch (error) {
    await cleanup();
    if (error instanceof HttpProblem) throw error;
    if (isTooLarge(error)) throw tooLarge(options.maxBytes);
    throw malformed();
  }
  if (!found) throw required();
  return { file: found, fields };
}

/**
 * The one way a route receives a PDF: streamed to a temporary file (`receiveUpload`), refused on its
 * first kilobyte when it is not a PDF, then opened by pdf.js from disk (`assertPdfFile`: broken,
 * encrypted or active content refused). The caller stores it (`FileStore.putFile`) and discards it in
 * `finally`.
 */
export async function receivePdf(
  request: FastifyRequest,
  options: { tempDir: string; maxBytes: number },
): Promise<{ file: ReceivedFile; fields: Record<string, string>; pages: number }> {
  const { file, fields } = await receiveUpload(request, { ...options, checkHead: assertPdfHead });
  try {
    const { pages } = await assertPdfFile(file.path);
    return { file, fields, pages };
  } catch (error) {
    await file.discard();
    throw error;
  }
}

/** Where and how large a server's uploads may be. */
export const uploadOptions = (ctx: ServerContext) => ({
  tempDir: ctx.files.tempDir,
  maxBytes: ctx.config.UPLOAD_MAX_BYTES,
});

/**
 * A PDF receiver for a service that checks access before reading a byte: `receive` (at most once) reads
 * and checks the file, `discard` (always, in `finally`) removes whatever was not stored.
 */
export function pdfReceiver(request: FastifyRequest, ctx: ServerContext) {
  let received: ReceivedFile | undefined;
  return {
    receive: async () => {
      if (received) throw new Error('the upload was already received');
      const { file, fields } = await receivePdf(request, uploadOptions(ctx));
      received = file;
      return Object.assign(file, { fields });
    },
    discard: async () => {
      await received?.discard();
    },
  };
}
