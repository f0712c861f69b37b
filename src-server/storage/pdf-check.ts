/**
 * Whether bytes are a PDF an archive keeps, by content: the `%PDF-` signature within the first kilobyte
 * (as readers accept it), a document pdf.js opens with at least one page (an encrypted PDF that needs a
 * password to open is told apart: its text cannot be read, so it is refused as such), and no active content (scripts, launch actions, form
 * submission, rich media, XFA — found by pdf.js and by scanning the file's object text). Plain answers,
 * no HTTP: the checks run in a worker thread (pdf-check-pool.ts), or here when there is none;
 * storage/validate.ts turns a refusal into the specification's problem.
 */
import { createReadStream } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { loadPdfJs, openPdf, type PdfJs } from '../pdfjs';

/** What a check found: a PDF with its page count, or why not. */
export type PdfVerdict =
  | { ok: true; pages: number }
  | { ok: false; reason: 'notPdf' }
  /** Encrypted with a password needed to open it (one that restricts only printing or copying opens). */
  | { ok: false; reason: 'encrypted' }
  | { ok: false; reason: 'activeContent'; what: string };

/** The file to check: its bytes (a small upload, in memory), or its path (a large one, on disk). */
export type PdfSource = { bytes: Uint8Array } | { path: string };

/** Whether the first kilobyte carries the `%PDF-` signature (as readers accept it). */
export function hasPdfSignature(head: Uint8Array): boolean {
  return Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 1024))
    .toString('latin1')
    .includes('%PDF-');
}

let shared: Promise<InstanceType<PdfJs['PDFWorker']>> | undefined;

/**
 * pdf.js, and one pdf.js worker (its message port and handler, in this thread) serving every check, as
 * a viewer's serves every document it opens: setting one up for each document was a third of a small
 * scan's check (bench/station).
 */
function pdfWorker() {
  shared ??= loadPdfJs().then(({ lib }) => new lib.PDFWorker({ verbosity: 0 }));
  return shared;
}

/** Loads pdf.js ahead of the first check (a server calls it as it starts). */
export function warmPdfJs(): Promise<void> {
  return pdfWorker().then(() => undefined);
}

/**
 * Checks a PDF (see the file's header). `bytes` are handed to pdf.js, which takes them over: pass a copy
 * if they are needed afterwards. A file on disk is read by pdf.js by the ranges it needs and scanned a
 * megabyte at a time; pdf.js still sets aside a buffer of the file's length for those (about +100 MB
 * while a 200 MB scan is checked, bench/files), freed when the check ends.
 */
export async function checkPdf(source: PdfSource): Promise<PdfVerdict> {
  const notPdf = { ok: false, reason: 'notPdf' } as const;
  let head: Uint8Array;
  if ('bytes' in source) head = source.bytes.subarray(0, 1024);
  else {
    head = Buffer.alloc(0);
    for await (const chunk of createReadStream(source.path, { start: 0, end: 1023 }))
      head = Buffer.concat([head as Buffer, chunk as Buffer]);
  }
  if (!hasPdfSignature(head)) return notPdf;
  // The scan first when the bytes are here (pdf.js takes them over); else it reads the file itself.
  const scanned =
    'bytes' in source
      ? activeContentIn(Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength))
      : null;
  const task = await openPdf('bytes' in source ? { bytes: source.bytes } : { path: source.path }, {
    worker: await pdfWorker(),
    stopAtErrors: true,
  });
  try {
    const doc = await task.promise;
    const pages = doc.numPages;
    if (pages < 1) return notPdf;
    await doc.getPage(1);
    if (doc.getJSActions && (await doc.getJSActions()))
      return { ok: false, reason: 'activeContent', what: 'JavaScript' };
    const found = 'bytes' in source ? scanned : await activeContentInFile(source.path);
    if (found) return { ok: false, reason: 'activeContent', what: found };
    return { ok: true, pages };
  } catch (error) {
    if ((error as { name?: unknown } | null)?.name === 'PasswordException')
      return { ok: false, reason: 'encrypted' };
    return notPdf;
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

/** The first active-content name in a PDF file, read a megabyte at a time, or null. */
export async function activeContentInFile(path: string): Promise<string | null> {
  const scanner = new ActiveContentScanner();
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const found = scanner.feed(chunk as Buffer);
    if (found) return found;
  }
  return scanner.end();
}
