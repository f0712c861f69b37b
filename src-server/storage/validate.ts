/**
 * Upload checks by content, never by name or declared type: PDFs must start with `%PDF-` and open in
 * pdf.js; images must decode (sharp) and are re-encoded, which also drops metadata and any payload
 * hidden after the image. Failures are problems the client shows as the specification words them
 * (415 'Please select a valid PDF file', 413 'File size must be less than {maxSize}').
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { formatMaxSize } from '../../src-shared/files';
import { HttpProblem } from '../http/problem';

/** The maximum size as the 413 message shows it (shared with the scanning station's notes). */
export { formatMaxSize };

/** 413 when `bytes` is larger than `maxBytes`. */
export function assertSize(bytes: Buffer, maxBytes: number): void {
  if (bytes.length > maxBytes)
    throw new HttpProblem('payloadTooLarge', { params: { maxSize: formatMaxSize(maxBytes) } });
}

let pdfjs:
  | Promise<{ lib: typeof PdfJsModule; root: string; worker: InstanceType<typeof PdfJsModule.PDFWorker> }>
  | undefined;

/**
 * Loads pdf.js once (legacy build: the modern one needs newer Node features), with its worker in this
 * thread: pdf.js would otherwise import the worker module on the first document, which under a
 * TypeScript loader (tsx: `npm run server`, the web shell) took seconds and made the first upload of a
 * server's life wait for it. One worker (its message port and handler, in this thread) serves every
 * check, as a viewer's serves every document it opens: setting one up for each document was a third of
 * a small scan's check (bench/station).
 */
function loadPdfJs() {
  pdfjs ??= (async () => {
    const require = createRequire(import.meta.url);
    const root = pathToFileURL(dirname(require.resolve('pdfjs-dist/package.json'))).href;
    // The minified builds: they carry no source map, which Node would otherwise load and keep (under tsx
    // source maps are on) — 9 MB of heap instead of 40, which every full garbage collection marks.
    const [lib, worker] = await Promise.all([
      // @ts-expect-error -- the minified build is the same module as pdf.mjs, whose types it takes.
      import('pdfjs-dist/legacy/build/pdf.min.mjs') as Promise<typeof PdfJsModule>,
      // @ts-expect-error -- the worker module ships without type declarations; it is only handed to pdf.js.
      import('pdfjs-dist/legacy/build/pdf.worker.min.mjs') as Promise<unknown>,
    ]);
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
    return { lib, root, worker: new lib.PDFWorker({ verbosity: 0 }) };
  })();
  return pdfjs;
}

/** Loads the PDF checks ahead of the first upload (the server calls it as it starts). */
export function warmPdfChecks(): Promise<void> {
  return loadPdfJs().then(() => undefined);
}

const notPdf = () => new HttpProblem('unsupportedMediaType', { code: 'upload.notPdf' });

/** 415 unless the first kilobyte carries the `%PDF-` signature (as readers accept it). */
export function assertPdfHead(head: Buffer): void {
  if (!head.subarray(0, 1024).toString('latin1').includes('%PDF-')) throw notPdf();
}

/**
 * The checks of a PDF being received, fed each chunk as it arrives (`http/upload.ts`): the `%PDF-`
 * signature within the first kilobyte (as readers accept it; 415 before the rest is read) and the
 * active-content scan, so that neither reads the file again afterwards. `finish` then requires a
 * document pdf.js opens with at least one page (an encrypted PDF without its password does not open, so
 * it is refused too: 415), and refuses (422) active content (scripts, launch actions, form submission,
 * rich media, XFA). pdf.js reads the file from memory when the receiver kept the bytes (a small file: a
 * scan of a few pages), else from disk by the ranges it needs; it still sets aside a buffer of the file's
 * length for those (about +100 MB while a 200 MB scan is checked, bench/files), freed when the check ends.
 */
export class PdfChecks {
  private head = Buffer.alloc(0);
  private readonly scanner = new ActiveContentScanner();

  /** The next chunk of the upload; throws 415 as soon as the first kilobyte shows it is not a PDF. */
  feed(chunk: Buffer): void {
    if (this.head.length < 1024) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, 1024 - this.head.length)]);
      if (this.head.length >= 1024) assertPdfHead(this.head);
    }
    this.scanner.feed(chunk);
  }

  /**
   * The upload has all arrived (as `file.path`, and as `file.bytes` when it was kept in memory): 415
   * unless pdf.js opens it, 422 if it carries active content. Answers the page count.
   */
  async finish(file: { path: string | null; bytes: Buffer | null }): Promise<{ pages: number }> {
    if (this.head.length < 1024) assertPdfHead(this.head);
    const scanned = async () => this.scanner.end();
    if (file.bytes)
      // pdf.js takes ownership of (and may detach) the buffer it is given: hand it a copy.
      return openPdf({ data: new Uint8Array(file.bytes) }, scanned);
    if (!file.path) throw new Error('a received file is either in memory or on disk');
    return openPdf(
      { url: pathToFileURL(file.path).href, disableAutoFetch: true, disableStream: true },
      scanned,
    );
  }
}

async function openPdf(
  source: { data: Uint8Array } | { url: string; disableAutoFetch: boolean; disableStream: boolean },
  scan: () => Promise<string | null>,
): Promise<{ pages: number }> {
  const { lib, root, worker } = await loadPdfJs();
  const task = lib.getDocument({
    ...source,
    worker,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: true,
    verbosity: 0,
    standardFontDataUrl: `${root}/standard_fonts/`,
    cMapUrl: `${root}/cmaps/`,
    wasmUrl: `${root}/wasm/`,
  });
  try {
    const doc = await task.promise;
    const pages = doc.numPages;
    if (pages < 1) throw notPdf();
    await doc.getPage(1);
    if (doc.getJSActions && (await doc.getJSActions())) throw activeContent();
    const scanned = await scan();
    if (scanned) throw activeContent(scanned);
    return { pages };
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    throw notPdf();
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

/**
 * Active content an archive refuses to keep: scripts, launching programs, submitting or importing form
 * data, rich media and XFA forms. Embedded files alone are allowed (PDF/A-3 invoices carry their XML);
 * opening one needs a launch or a script, which is refused.
 */
const ACTIVE_NAMES = /\/(JavaScript|JS|Launch|SubmitForm|ImportData|RichMedia|XFA)(?![A-Za-z0-9])/;

const activeContent = (what = 'JavaScript') =>
  new HttpProblem('unprocessable', {
    detailKey: 'upload.activeContent',
    code: 'upload.activeContent',
    params: { what },
  });

/** Decodes `#xx` escapes in PDF names (`/J#61vaScript` is `/JavaScript`). */
function decodeNames(text: string): string {
  return text.replace(/\/[^\s/<>[\]()%{}]*/g, (name) =>
    name.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  );
}

/**
 * Finds active-content names in a PDF read front to back, a chunk at a time, in memory that does not
 * grow with the file: the object text between streams is searched (names decoded, so
 * `/J#61vaScript` is `/JavaScript`), stream contents are skipped (they draw; they cannot act) except
 * compressed object streams (`/Type /ObjStm`, Flate), which pack objects and are inflated and searched.
 * The state (inside a stream or not, the object stream being gathered) carries across chunks, so a
 * scan's random image bytes are never mistaken for names, however the chunks fall.
 */
export class ActiveContentScanner {
  private carry = '';
  private inStream = false;
  private objectStream: string[] | null = null;
  private objectStreamLength = 0;
  private budget = 64 * 1024 * 1024;
  private found: string | null = null;

  /** Feeds the next bytes; answers the first active-content name found so far, or null. */
  feed(chunk: Buffer): string | null {
    if (this.found) return this.found;
    const text = this.carry + chunk.toString('latin1');
    this.carry = '';
    const streamStart = /(?<![A-Za-z])stream\r?\n/g;
    let i = 0;
    while (i < text.length && !this.found) {
      if (this.inStream) {
        const end = text.indexOf('endstream', i);
        // Keep the last bytes: `endstream` may straddle this chunk and the next.
        const upTo = end < 0 ? Math.max(i, text.length - 8) : end;
        this.gather(text.slice(i, upTo));
        if (end < 0) {
          this.carry = text.slice(upTo);
          return null;
        }
        this.finishObjectStream();
        this.inStream = false;
        i = end + 'endstream'.length;
        continue;
      }
      streamStart.lastIndex = i;
      const m = streamStart.exec(text);
      const objectText = text.slice(i, m ? m.index : text.length);
      this.found = hit(objectText);
      if (!m) {
        // A name or a `stream` keyword may straddle chunks: search the tail again with the next one.
        this.carry = text.slice(Math.max(i, text.length - 2048));
        return this.found;
      }
      // The dictionary of the object this stream belongs to: from its `N G obj` on.
      const tail = objectText.slice(-4000);
      const starts = [...tail.matchAll(/\d+\s+\d+\s+obj\b/g)];
      const dict = decodeNames(tail.slice(starts.at(-1)?.index ?? 0));
      const packed = /\/Type\s*\/ObjStm/.test(dict) && /\/FlateDecode/.test(dict);
      this.objectStream = packed && this.budget > 0 ? [] : null;
      this.objectStreamLength = 0;
      this.inStream = true;
      i = m.index + m[0].length;
    }
    return this.found;
  }

  /** Ends the scan (the rest of a file that did not end its last stream is searched as it is). */
  end(): string | null {
    if (!this.found && this.inStream) this.finishObjectStream();
    else if (!this.found) this.found = hit(this.carry);
    return this.found;
  }

  private gather(data: string) {
    if (!this.objectStream) return;
    this.objectStreamLength += data.length;
    if (this.objectStreamLength > this.budget) this.objectStream = null;
    else this.objectStream.push(data);
  }

  private finishObjectStream() {
    if (!this.objectStream) return;
    const bytes = Buffer.from(this.objectStream.join(''), 'latin1');
    this.objectStream = null;
    try {
      const inflated = inflateSync(bytes, { maxOutputLength: this.budget });
      this.budget -= inflated.length;
      this.found = hit(inflated.toString('latin1'));
    } catch {
      // A stream that does not inflate holds nothing pdf.js could act on either.
    }
  }
}

const hit = (text: string) => ACTIVE_NAMES.exec(decodeNames(text))?.[1] ?? null;

/** The first active-content name in a PDF held in memory, or null (see ActiveContentScanner). */
export function activeContentIn(bytes: Buffer): string | null {
  const scanner = new ActiveContentScanner();
  return scanner.feed(bytes) ?? scanner.end();
}

/** Image formats accepted for a profile picture. */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

const notImage = () =>
  new HttpProblem('unsupportedMediaType', { detailKey: 'directory.invalidImage', code: 'upload.notImage' });

/**
 * Checks that bytes are an image by decoding them (415 otherwise), then resizes it to fit
 * `maxSide`×`maxSide` (never enlarging), applies the EXIF orientation and re-encodes it as WebP.
 */
export async function assertImage(
  bytes: Buffer,
  maxSide: number,
): Promise<{ bytes: Buffer; mime: 'image/webp'; width: number; height: number }> {
  let format: string | undefined;
  try {
    const meta = await sharp(bytes, { limitInputPixels: 50_000_000 }).metadata();
    format = meta.format;
    if (!meta.width || !meta.height) throw notImage();
  } catch {
    throw notImage();
  }
  if (!format || !IMAGE_FORMATS.has(format)) throw notImage();
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: 50_000_000, animated: false })
      .rotate()
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, mime: 'image/webp', width: info.width, height: info.height };
  } catch {
    throw notImage();
  }
}
