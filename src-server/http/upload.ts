/**
 * The one way a route reads an uploaded file: a multipart request with exactly one file part. A request
 * that is not multipart, is malformed (no or a wrong boundary, truncated) or has no file answers 400; a
 * second file answers 400 saying one file per request (never silently dropped); a file over the limit
 * answers 413 while streaming. The file name is cleaned for display (cleanFileName). While the disk is
 * nearly full (below MIN_FREE_DISK_MB) every upload is refused before a byte is read (`installDiskGuard`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm, statfs } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { once } from 'node:events';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartPart } from '../../src-shared/api/endpoint';
import type { ServerContext } from '../context';
import type { FileStore } from '../storage/files';
import { PdfChecks, formatMaxSize } from '../storage/validate';
import { HttpProblem } from './problem';
import { nestsDeeperThan, tooDeep } from './json-depth';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The parts of a multipart request, for the OpenAPI document only (such a body is read from the
     * stream, never validated whole): each part's name, and whether it is one file, files, or a field
     * holding JSON or text. Set by `multipartSchema`.
     */
    multipart?: Readonly<Record<string, MultipartPart>>;
  }
}

export type { MultipartPart };

/**
 * A multipart route's schema fragment: what it consumes and its parts (one `file` unless told), so the
 * OpenAPI document publishes its body (`multipartDocBody`) and tools that read the document — the fuzz
 * suite among them — know the route takes a multipart body.
 */
export function multipartSchema(parts: Readonly<Record<string, MultipartPart>> = { file: 'file' }) {
  return { consumes: ['multipart/form-data'] as const, multipart: parts };
}

/** The OpenAPI body of a multipart route (its parts as a JSON schema, in order). */
export function multipartDocBody(parts: Readonly<Record<string, MultipartPart>> = { file: 'file' }) {
  const file = { type: 'string', format: 'binary' };
  const properties = Object.fromEntries(
    Object.entries(parts).map(([name, kind]) => [
      name,
      kind === 'file'
        ? file
        : kind === 'files'
          ? { type: 'array', items: file }
          : kind === 'json'
            ? { type: 'string', contentMediaType: 'application/json' }
            : { type: 'string' },
    ]),
  );
  return { type: 'object', required: Object.keys(parts), properties };
}

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
  new HttpProblem('payloadTooLarge', {
    code: 'upload.tooLarge',
    params: { maxSize: formatMaxSize(maxBytes) },
  });

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

/**
 * A file received by `receiveFilePart`, not yet stored: in memory when small (`bytes`), else in a
 * temporary file (`path`). `store` hands it to the file store; `discard` drops what was not stored.
 */
export interface ReceivedFile {
  sha256: string;
  size: number;
  fileName: string | undefined;
  /** The whole file, when it was small enough to keep in memory while it arrived (`keepInMemoryMax`). */
  bytes: Buffer | null;
  /** The temporary file holding it (inside the file store's tempDir) when it was larger; else null. */
  path: string | null;
  /** Stores it under its hash (once per content); afterwards nothing is left to discard. */
  store(files: FileStore): Promise<void>;
  /** Drops it if it was not stored (its temporary file removed, its bytes released). */
  discard(): Promise<void>;
}

/** How one file part is received. */
export interface ReceiveOptions {
  tempDir: string;
  maxBytes: number;
  /**
   * Sees every chunk as it arrives (a check by content, e.g. `PdfChecks`, that would otherwise read the
   * file again), and may throw: the file is refused.
   */
  onChunk?: (chunk: Buffer) => void;
  /** A file up to this size is kept in memory, never written to a temporary file (default 4 MiB). */
  keepInMemoryMax?: number;
  /**
   * A file refused by `onChunk` is still read to its end (and dropped) before the refusal is thrown, so
   * a request carrying several files goes on to the next; otherwise (one file a request) it is refused
   * before the rest is read.
   */
  readToEnd?: boolean;
}

/**
 * Files up to this size are kept in memory while they arrive (a scan of a few pages): checked there and
 * written once, where they are stored. A larger one goes to a temporary file as it arrives, so memory
 * stays flat however large the file (bench/files: +3 MB receiving 200 MB); at most this much is held
 * per upload in flight.
 */
export const KEEP_IN_MEMORY_MAX = 4 * 1024 * 1024;

/** A file part of a multipart request (as @fastify/multipart yields it). */
interface FilePart {
  filename: string | undefined;
  file: AsyncIterable<Buffer> & { truncated: boolean; resume(): unknown };
}

/**
 * Receives one file part, hashing it on the way: kept in memory while it stays within
 * `keepInMemoryMax`, streamed to a temporary file in `tempDir` from the chunk that passes it. Over the
 * size limit → 413 (the part is truncated by the parser, the request may go on). On any failure the
 * temporary file is removed and the error thrown as it is.
 */
export async function receiveFilePart(part: FilePart, options: ReceiveOptions): Promise<ReceivedFile> {
  const hash = createHash('sha256');
  const keep = options.keepInMemoryMax ?? KEEP_IN_MEMORY_MAX;
  let kept: Buffer[] | null = [];
  let size = 0;
  let path: string | null = null;
  let out: WriteStream | null = null;
  const discard = async () => {
    if (path) await rm(path, { force: true });
  };
  /** From memory to a temporary file: the chunks kept so far, then every chunk as it arrives. */
  const spill = async () => {
    path = join(options.tempDir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
    out = createWriteStream(path, { flags: 'wx' });
    out.on('error', () => undefined); // reported by once('drain') or end() below
    for (const chunk of kept!) if (!out.write(chunk)) await once(out, 'drain');
    kept = null;
  };
  // Iterated by hand, not with for-await (which destroys the stream when its body throws): a refused
  // file of a batch is read to its end, so the parser goes on to the next part. A body cut short ends
  // busboy's file stream in a way only the iterator reports (pipeline() would wait for ever).
  const chunks = part.file[Symbol.asyncIterator]();
  let refused: { error: unknown } | null = null;
  try {
    try {
      for (;;) {
        const next = await chunks.next();
        if (next.done) break;
        if (refused) continue; // the rest of a refused file, read and dropped
        const chunk = next.value;
        try {
          options.onChunk?.(chunk);
        } catch (error) {
          if (!options.readToEnd) {
            await chunks.return?.();
            throw error;
          }
          refused = { error };
          kept = null;
          continue;
        }
        hash.update(chunk);
        size += chunk.length;
        if (kept) {
          kept.push(chunk);
          if (size > keep) await spill();
        } else if (out && !(out as WriteStream).write(chunk)) await once(out, 'drain');
      }
    } finally {
      const stream = out as WriteStream | null;
      if (stream)
        await new Promise<void>((resolve, reject) =>
          stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
    }
    if (refused) throw refused.error;
    if (part.file.truncated) throw tooLarge(options.maxBytes);
  } catch (error) {
    await discard();
    // The parser's own size error, when it reports the limit by throwing rather than truncating.
    throw isTooLarge(error) ? tooLarge(options.maxBytes) : error;
  }
  const file: ReceivedFile = {
    sha256: hash.digest('hex'),
    size,
    fileName: part.filename,
    bytes: kept ? Buffer.concat(kept, size) : null,
    path,
    async store(files) {
      if (file.bytes) await files.put(file.bytes, file.sha256);
      else if (file.path) await files.putFile(file.path, file.sha256);
      file.bytes = null;
      file.path = null;
    },
    async discard() {
      file.bytes = null;
      const temp = file.path;
      file.path = null;
      if (temp) await rm(temp, { force: true });
    },
  };
  return file;
}

/** What tells one file from another without keeping it: its SHA-256 and the name it was sent with. */
export interface FileIdentity {
  sha256: string;
  fileName: string | undefined;
}

/**
 * Reads a file part to its end, hashing it, keeping nothing and checking nothing (a retry whose answer
 * is known, compared with the request it retries: http/idempotency.ts). A part over the size limit is
 * hashed as far as the parser let it through.
 */
async function identifyFilePart(part: FilePart): Promise<FileIdentity> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of part.file) hash.update(chunk);
  } catch (error) {
    if (isTooLarge(error)) return { sha256: hash.digest('hex'), fileName: part.filename };
    throw malformed();
  }
  return { sha256: hash.digest('hex'), fileName: part.filename };
}

/**
 * The single file of a multipart request, received by `receivePart`. A request that is not multipart,
 * is malformed or has no file answers 400, a second file 400 saying one file per request (never
 * silently dropped), a file over the limit 413 while streaming; the temporary file is removed on every
 * failure. Other multipart fields are answered in `fields` (text values only).
 */
async function receiveSingle<F extends { discard(): Promise<void> }>(
  request: FastifyRequest,
  options: { tempDir: string; maxBytes: number },
  receivePart: (part: FilePart) => Promise<F>,
): Promise<{ file: F; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw required();
  await mkdir(options.tempDir, { recursive: true });
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  let found: F | null = null;
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
      found = await receivePart(part);
    }
  } catch (error) {
    await found?.discard();
    if (error instanceof HttpProblem) throw error;
    if (isTooLarge(error)) throw tooLarge(options.maxBytes);
    throw malformed();
  }
  if (!found) throw required();
  return { file: found, fields };
}

/**
 * Receives one PDF file part and checks it by content (`PdfChecks`: the signature on its first
 * kilobyte as it arrives, then pdf.js and the active-content scan in a worker thread, from memory when
 * it is small). 415 not a PDF or broken (`upload.notPdf`), or locked by a password (`upload.encrypted`);
 * 422 active content; 413 too large. Dropped on a
 * refusal; otherwise the caller stores it (`ReceivedFile.store`) or discards it.
 */
export async function receivePdfPart(
  part: FilePart,
  options: { tempDir: string; maxBytes: number; readToEnd?: boolean },
): Promise<ReceivedFile & { pages: number }> {
  const checks = new PdfChecks();
  const file = await receiveFilePart(part, { ...options, onChunk: (chunk) => checks.feed(chunk) });
  try {
    const { pages } = await checks.finish(file);
    return Object.assign(file, { pages });
  } catch (error) {
    await file.discard();
    throw error;
  }
}

/**
 * The one way a route receives a single PDF: received and checked by `receivePdfPart`, the request's
 * other fields in `fields`. The caller stores it (`ReceivedFile.store`) and discards it in `finally`.
 */
export async function receivePdf(
  request: FastifyRequest,
  options: { tempDir: string; maxBytes: number },
): Promise<{ file: ReceivedFile; fields: Record<string, string>; pages: number }> {
  const { file, fields } = await receiveSingle(request, options, (part) => receivePdfPart(part, options));
  return { file, fields, pages: file.pages };
}

/**
 * One PDF of a batch (`receivePdfBatch`), read and checked, or identified, or passed over unread; in
 * order, once each.
 */
export interface BatchPdf {
  /** Reads and checks it as `receivePdfPart` does (413, 415, 422 refuse this file, and the batch goes on). */
  receive(): Promise<ReceivedFile>;
  /** Reads past it without keeping a byte (its answer is known without it). */
  skip(): Promise<void>;
  /** Reads past it, keeping nothing but its hash and name (a retry, compared with what it retries). */
  identify(): Promise<FileIdentity>;
}

const notAFilePart = () =>
  new HttpProblem('badRequest', { fields: { file: [{ key: 'validation.required' }] } });

/**
 * The PDFs of a multipart request that carries several (a scanning station's batch): first a field
 * `manifest` (JSON, given to `parseManifest`, which answers its entries or throws a 400 naming the fields
 * it refuses), then exactly one part `file` per entry, in the manifest's order. The files are read as
 * the caller asks for them (`files[i].receive()` or `.skip()`, in order), so the caller may decide which
 * it needs before a byte of them is read. The last one also reads the end of the request: a part more
 * than the manifest announced is refused (400) before anything is kept. A malformed request is 400, a
 * file part missing 400.
 */
export async function receivePdfBatch<M extends { files: readonly unknown[] }>(
  request: FastifyRequest,
  options: { tempDir: string; maxBytes: number; maxFiles: number },
  parseManifest: (value: unknown) => M,
): Promise<{ manifest: M; files: BatchPdf[] }> {
  if (!request.isMultipart()) throw required();
  await mkdir(options.tempDir, { recursive: true });
  const parseOptions = {
    // A file over the size limit is truncated and refused by itself (413), not the request as a whole.
    throwFileSizeLimit: false,
    limits: {
      fileSize: options.maxBytes,
      files: options.maxFiles,
      fields: 1,
      parts: options.maxFiles + 1,
      fieldSize: 64 * 1024,
    },
  };
  // The parser reads `throwFileSizeLimit` per call, though its typings only name busboy's options.
  const parts = request.parts(parseOptions as Parameters<FastifyRequest['parts']>[0]);

  // Any failure of the request itself (truncated, malformed, over the parser's limits) is a 400.
  const next = async () => {
    try {
      return await parts.next();
    } catch (error) {
      if (error instanceof HttpProblem) throw error;
      throw malformed();
    }
  };
  // The manifest first (a JSON field the parser could not read is the manifest's fault, not the file's).
  const head = await parts.next().catch(() => {
    throw new HttpProblem('badRequest', { fields: { manifest: [{ key: 'validation.invalid' }] } });
  });
  if (head.done || head.value.type !== 'field' || head.value.fieldname !== 'manifest')
    throw new HttpProblem('badRequest', { fields: { manifest: [{ key: 'validation.required' }] } });
  let value: unknown = head.value.value;
  if (typeof value === 'string') {
    if (nestsDeeperThan(value)) throw tooDeep('manifest');
    try {
      value = head.value.valueTruncated ? undefined : JSON.parse(value);
    } catch {
      value = undefined;
    }
  }
  if (value === undefined)
    throw new HttpProblem('badRequest', { fields: { manifest: [{ key: 'validation.invalid' }] } });
  const manifest = parseManifest(value);
  const count = manifest.files.length;
  let taken = 0;
  /** The next file part, in turn; after the last, the end of the request must follow. */
  const nextFile = async (index: number) => {
    if (index !== taken) throw new Error('batch files are read in order, once each');
    taken += 1;
    const part = await next();
    if (part.done || part.value.type !== 'file' || part.value.fieldname !== 'file') throw notAFilePart();
    return part.value;
  };
  const atEnd = async () => {
    const extra = await next();
    if (!extra.done) {
      if (extra.value.type === 'file') extra.value.file.resume();
      throw new HttpProblem('badRequest', { detailKey: 'upload.batchCount', code: 'upload.batchCount' });
    }
  };
  const files = Array.from({ length: count }, (_, i): BatchPdf => ({
    receive: async () => {
      const part = await nextFile(i);
      let file: ReceivedFile | undefined;
      let refusal: HttpProblem | undefined;
      try {
        file = await receivePdfPart(part, { ...options, readToEnd: true });
      } catch (error) {
        if (!(error instanceof HttpProblem)) throw malformed(); // the body cut short while it arrived
        refusal = error; // this file is refused; the request goes on
      }
      if (i === count - 1) {
        try {
          await atEnd();
        } catch (error) {
          await file?.discard();
          throw error;
        }
      }
      if (refusal) throw refusal;
      return file!;
    },
    skip: async () => {
      const part = await nextFile(i);
      try {
        for await (const chunk of part.file as AsyncIterable<Buffer>) void chunk;
      } catch {
        throw malformed();
      }
      if (i === count - 1) await atEnd();
    },
    identify: async () => {
      const identity = await identifyFilePart(await nextFile(i));
      if (i === count - 1) await atEnd();
      return identity;
    },
  }));
  return { manifest, files };
}

/** Where and how large a server's uploads may be. */
export const uploadOptions = (ctx: ServerContext) => ({
  tempDir: ctx.files.tempDir,
  maxBytes: ctx.config.UPLOAD_MAX_BYTES,
});

/**
 * A PDF receiver for a service that checks access before reading a byte: `receive` (at most once) reads
 * and checks the file, or `identify` reads it keeping only its hash and name (a retry); `discard`
 * (always, in `finally`) removes whatever was not stored.
 */
export function pdfReceiver(request: FastifyRequest, ctx: ServerContext) {
  let received: ReceivedFile | undefined;
  let read = false;
  const readOnce = () => {
    if (read) throw new Error('the upload was already received');
    read = true;
  };
  return {
    receive: async () => {
      readOnce();
      const { file, fields } = await receivePdf(request, uploadOptions(ctx));
      received = file;
      return Object.assign(file, { fields });
    },
    identify: async (): Promise<FileIdentity> => {
      readOnce();
      const { file } = await receiveSingle(request, uploadOptions(ctx), async (part) => ({
        ...(await identifyFilePart(part)),
        discard: async () => undefined,
      }));
      return { sha256: file.sha256, fileName: file.fileName };
    },
    discard: async () => {
      await received?.discard();
    },
  };
}

/** How long a reading of the free disk space is trusted: uploads in a burst do not each ask the disk. */
const FREE_SPACE_TTL_MS = 5000;

/**
 * The free space of the disks that hold `folders` (the smallest), read with statfs at most every
 * FREE_SPACE_TTL_MS. A folder not made yet is measured at its nearest ancestor that is; one that cannot
 * be measured at all is left out (the guard never refuses because it could not look).
 */
export class FreeDiskSpace {
  private reading: { at: number; freeBytes: number | null } | null = null;
  private pending: Promise<number | null> | null = null;
  constructor(
    private readonly folders: string[],
    private readonly now: () => number = Date.now,
  ) {}

  /** The fewest free bytes among the folders' disks, or null when none could be measured. */
  async freeBytes(): Promise<number | null> {
    if (this.reading && this.now() - this.reading.at < FREE_SPACE_TTL_MS) return this.reading.freeBytes;
    this.pending ??= this.measure().finally(() => (this.pending = null));
    return this.pending;
  }

  private async measure(): Promise<number | null> {
    let least: number | null = null;
    for (const folder of this.folders) {
      const free = await freeBytesAt(resolve(folder));
      if (free !== null && (least === null || free < least)) least = free;
    }
    this.reading = { at: this.now(), freeBytes: least };
    return least;
  }
}

/** statfs's space available to this (unprivileged) process on the disk of `folder` or its nearest ancestor. */
async function freeBytesAt(folder: string): Promise<number | null> {
  for (let at = folder; ; at = dirname(at)) {
    try {
      const stats = await statfs(at);
      return Number(stats.bavail) * Number(stats.bsize);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) return null;
    }
  }
}

/** 507: the disk is nearly full, so nothing more is taken in until space is made. */
export const diskFull = (freeMb: number, minFreeMb: number) =>
  new HttpProblem('insufficientStorage', {
    detailKey: 'upload.diskFull',
    code: 'upload.diskFull',
    params: { freeMb, minFreeMb },
  });

/**
 * Refuses every upload (a multipart request, or a route that consumes multipart) with 507
 * `upload.diskFull` while the disks of `folders` (the data folder, the file store) have less than
 * `minFreeMb` free: a full disk would break the database's writes and half-store files, so the desk says
 * so while reads and everything else go on. Runs before the handler, after authentication (a stranger
 * learns nothing of the disk). `minFreeMb` 0: off.
 */
export function installDiskGuard(app: FastifyInstance, options: { folders: string[]; minFreeMb: number }) {
  if (options.minFreeMb <= 0) return;
  const space = new FreeDiskSpace(options.folders);
  const minBytes = options.minFreeMb * 1024 * 1024;
  app.addHook('preHandler', async (request) => {
    const consumes = (request.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes;
    if (!request.isMultipart() && !consumes?.includes('multipart/form-data')) return;
    const free = await space.freeBytes();
    if (free !== null && free < minBytes) {
      request.log.warn({ freeBytes: free, minFreeMb: options.minFreeMb }, 'upload refused: disk nearly full');
      throw diskFull(Math.floor(free / 1024 / 1024), options.minFreeMb);
    }
  });
}
