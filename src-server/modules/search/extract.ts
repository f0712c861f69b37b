/**
 * Text extraction from PDF files for the search index: the text layer of born-digital pages (pdf.js, put
 * back in logical order: see text-layout.ts) and OCR of pages that have none (scans), read by Tesseract in
 * a low-priority child process (ocr-process.ts, ocr-child.ts). One string per page, lines separated by
 * `\n`, bidi marks removed, no search normalisation (src-shared/arabic.ts does that when indexing).
 *
 * The file is read from disk by byte ranges (pdf.js keeps a buffer of the file's size for the ranges it
 * has read, freed when the extraction ends); the OCR child opens the same file itself.
 */
import { open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { ocrService } from './ocr-process';
import { openPdfFile } from './pdfjs';
import { layoutPageText, stripBidiControls, type PositionedText } from './text-layout';

/** The text of one page, and how it was obtained. */
export interface PageText {
  /** Page number, from 1. */
  page: number;
  text: string;
  /** `text`: from the text layer; `ocr`: read from the rendered page; `empty`: nothing found. */
  method: 'text' | 'ocr' | 'empty';
}

/** Options of `extractPdfText`. */
export interface ExtractOptions {
  /** Read pages that have no usable text layer by OCR (default true). */
  ocr?: boolean;
  /** Tesseract languages, joined by `+` (default `ara+eng`); each needs its @tesseract.js-data package. */
  languages?: string;
  /** Aborting stops the work promptly (the OCR child is killed if it is reading a page of this file). */
  signal?: AbortSignal;
  /** Called after each page: pages done so far, and pages to do in all. */
  onProgress?: (pagesDone: number, pagesTotal: number) => void;
  /** Safety cap (default 2000): pages after it are not read, and the result stops there. */
  maxPages?: number;
}

/** Why a PDF could not be read at all. */
export type PdfExtractionFailure = 'missing' | 'not-pdf' | 'invalid' | 'encrypted' | 'unreadable';

/** A PDF that could not be read: `reason` says why (the message says it in words). */
export class PdfExtractionError extends Error {
  override name = 'PdfExtractionError';
  constructor(
    readonly reason: PdfExtractionFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Rendering resolution for OCR. */
const OCR_DPI = 300;
/** A page with fewer visible characters than this in its text layer counts as having none. */
const MIN_TEXT_CHARS = 8;
/** A text layer whose glyphs are unmapped (no Unicode) in this share or more is not usable text. */
const MAX_UNMAPPED_SHARE = 0.25;
/** How long pdf.js may take over one page's text (a guard against a hang, not a speed limit). */
const TEXT_PAGE_TIMEOUT_MS = 120_000;

const LANGUAGES = /^[a-z][a-z_]*(\+[a-z][a-z_]*)*$/;

const visibleLength = (text: string) => text.replace(/\s+/g, '').length;

/** Rejects when `signal` aborts or `ms` pass, whichever first; otherwise settles as `promise` does. */
function guard<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  ms: number,
  what: string,
): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal?.reason);
    const timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(resolvePromise, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

/** The error to reject with when pdf.js cannot open a document. */
function openingError(error: unknown, file: string): PdfExtractionError {
  const name = (error as { name?: string } | null)?.name;
  const detail = error instanceof Error ? error.message : String(error);
  const shown = basename(file);
  if (name === 'PasswordException')
    return new PdfExtractionError('encrypted', `PDF is encrypted and needs a password: ${shown}`, {
      cause: error,
    });
  if (name === 'InvalidPDFException')
    return new PdfExtractionError('invalid', `PDF is damaged or not a PDF (${detail}): ${shown}`, {
      cause: error,
    });
  return new PdfExtractionError('unreadable', `PDF cannot be read (${detail}): ${shown}`, { cause: error });
}

/** Checks the file exists and carries the `%PDF-` signature in its first kilobyte (as readers accept it). */
async function assertPdfFile(file: string): Promise<void> {
  let handle;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a file');
    handle = await open(file, 'r');
  } catch (error) {
    throw new PdfExtractionError('missing', `PDF file not found or not readable: ${file}`, { cause: error });
  }
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead === 0) throw new PdfExtractionError('not-pdf', `PDF file is empty: ${basename(file)}`);
    if (!head.subarray(0, bytesRead).toString('latin1').includes('%PDF-'))
      throw new PdfExtractionError('not-pdf', `Not a PDF file (no %PDF- header): ${basename(file)}`);
  } finally {
    await handle.close();
  }
}

/** OCR output as page text: bidi marks removed, line ends trimmed, no empty lines. */
function cleanOcrText(text: string): string {
  return stripBidiControls(text)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/** Share of glyphs in a text layer that map to no character (NUL or U+FFFD): a broken ToUnicode map. */
function unmappedShare(items: readonly PositionedText[]): number {
  let glyphs = 0;
  let unmapped = 0;
  for (const item of items)
    for (const ch of item.str) {
      if (/\s/.test(ch)) continue;
      glyphs += 1;
      if (ch === '\u0000' || ch === '\ufffd') unmapped += 1;
    }
  return glyphs === 0 ? 0 : unmapped / glyphs;
}

/**
 * Extracts the text of every page of a PDF file (up to `maxPages`), in page order. Pages whose text layer
 * is missing, nearly empty or mostly unmapped glyphs are rendered and read by OCR (unless `ocr: false`);
 * when OCR finds less than a nearly empty text layer had, the text layer is kept. Rejects with a PdfExtractionError when the file is
 * missing, not a PDF, damaged beyond reading or encrypted; with the signal's reason when aborted.
 */
export async function extractPdfText(filePath: string, options: ExtractOptions = {}): Promise<PageText[]> {
  const { ocr = true, languages = 'ara+eng', signal, onProgress, maxPages = 2000 } = options;
  signal?.throwIfAborted();
  if (!LANGUAGES.test(languages)) throw new Error(`Invalid OCR languages "${languages}" (e.g. ara+eng)`);
  if (!(maxPages >= 1)) throw new Error(`maxPages must be at least 1 (got ${maxPages})`);
  const file = resolve(filePath);
  await assertPdfFile(file);
  signal?.throwIfAborted();

  const task = await openPdfFile(file);
  const results: PageText[] = [];
  const toRead: { number: number; broken: boolean }[] = [];
  let total = 0;
  let done = 0;
  const progress = () => {
    done += 1;
    onProgress?.(done, total);
  };
  try {
    let doc;
    try {
      doc = await guard(task.promise, signal, TEXT_PAGE_TIMEOUT_MS, 'Opening the PDF');
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw openingError(error, file);
    }
    total = Math.min(doc.numPages, Math.floor(maxPages));
    for (let number = 1; number <= total; number += 1) {
      signal?.throwIfAborted();
      const items = await guard(
        (async () => {
          const page = await doc.getPage(number);
          try {
            const content = await page.getTextContent();
            return content.items.filter((item): item is typeof item & PositionedText => 'str' in item);
          } finally {
            page.cleanup();
          }
        })(),
        signal,
        TEXT_PAGE_TIMEOUT_MS,
        `Reading the text of page ${number}`,
      ).catch((error: unknown) => {
        if (signal?.aborted) throw signal.reason;
        throw new PdfExtractionError(
          'unreadable',
          `PDF page ${number} cannot be read (${error instanceof Error ? error.message : String(error)}): ${basename(file)}`,
          { cause: error },
        );
      });
      const text = layoutPageText(items);
      const broken = unmappedShare(items) >= MAX_UNMAPPED_SHARE;
      results.push({ page: number, text, method: text.length > 0 ? 'text' : 'empty' });
      if (!ocr || (visibleLength(text) >= MIN_TEXT_CHARS && !broken)) progress();
      else toRead.push({ number, broken });
    }
  } finally {
    // The OCR child opens the file itself: this process needs the document no longer.
    await task.destroy().catch(() => undefined);
  }

  for (const { number, broken } of toRead) {
    signal?.throwIfAborted();
    const read = await ocrService.read({ file, page: number, languages, dpi: OCR_DPI }, signal);
    const text = cleanOcrText(read.text);
    const entry = results[number - 1]!;
    // A text layer of unmapped glyphs is garbage however long; a short one is kept unless OCR read more.
    if (visibleLength(text) > 0 && (broken || visibleLength(text) >= visibleLength(entry.text))) {
      entry.text = text;
      entry.method = 'ocr';
    }
    progress();
  }
  return results;
}

/** Ends the OCR child process, if one is running (server shutdown, end of tests). */
export async function closeOcr(): Promise<void> {
  await ocrService.close();
}
