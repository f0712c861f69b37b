/**
 * Text extraction from PDF files for the search index: the text layer of born-digital pages (pdf.js, put
 * back in logical order: see src-shared/text-layout.ts) and OCR of pages that have none (scans, read by Tesseract).
 * Both are done in the low-priority child process (ocr-process.ts, ocr-child.ts), one page a request:
 * this module, on the server's thread, only checks that the file exists and looks like a PDF, asks the
 * child page by page, decides which pages need OCR, and maps failures to PdfExtractionError. It never
 * runs pdf.js itself, so a long file does not hold up the API's event loop. One string per page, lines
 * separated by `\n`, bidi marks removed, no search normalisation (src-shared/arabic.ts does that when
 * indexing).
 *
 * The child reads the file from disk by byte ranges (pdf.js keeps a buffer of the file's size for the
 * ranges it has read), and keeps it open from one page to the next.
 */
import { open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { ChildRequestError, codesService, ocrService, type TextPageResult } from './ocr-process';
import { stripBidiControls } from '../../../src-shared/text-layout';
import { observeOcrPage } from '../../process-metrics';

/**
 * The version of how text layers are read. Each page read from its text layer records it
 * (attachment_pages.reader); raising it reads those pages again from their files at the next start
 * (search jobs, `search.reread`), OCR pages kept. 1: before issue 25; 2: ligature glyphs put back in their
 * letters' order, and spaces found in tightly set lines (src-shared/pdf-ligatures.ts, text-layout.ts).
 */
export const READER_VERSION = 2;

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
  /** Awaited before each page after the first (a job gives way to the requests being answered). */
  beforePage?: () => Promise<void>;
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

const LANGUAGES = /^[a-z][a-z_]*(\+[a-z][a-z_]*)*$/;

const visibleLength = (text: string) => text.replace(/\s+/g, '').length;

/**
 * The error to reject with when the child could not read the text of page `number`: a PdfExtractionError
 * when the child says the file cannot be opened (`encrypted`, `invalid`, `unreadable`) or the page cannot
 * be read (`page`, or a hang: `timeout`); the signal's reason when aborted. Anything else (the child
 * crashed twice, OCR was closed) is passed on as it is: the file may well be readable another time.
 */
function textError(error: unknown, number: number, file: string, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (!(error instanceof ChildRequestError)) return error;
  const shown = basename(file);
  switch (error.kind) {
    case 'encrypted':
      return new PdfExtractionError('encrypted', `PDF is encrypted and needs a password: ${shown}`, {
        cause: error,
      });
    case 'invalid':
      return new PdfExtractionError('invalid', `PDF is damaged or not a PDF (${error.detail}): ${shown}`, {
        cause: error,
      });
    case 'unreadable':
      return new PdfExtractionError('unreadable', `PDF cannot be read (${error.detail}): ${shown}`, {
        cause: error,
      });
    default:
      return new PdfExtractionError(
        'unreadable',
        `PDF page ${number} cannot be read (${error.detail}): ${shown}`,
        { cause: error },
      );
  }
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

/**
 * Extracts the text of every page of a PDF file (up to `maxPages`), in page order. Pages whose text layer
 * is missing, nearly empty or mostly unmapped glyphs are rendered and read by OCR (unless `ocr: false`);
 * when OCR finds less than a nearly empty text layer had, the text layer is kept. Rejects with a PdfExtractionError when the file is
 * missing, not a PDF, damaged beyond reading or encrypted; with the signal's reason when aborted.
 */
export async function extractPdfText(filePath: string, options: ExtractOptions = {}): Promise<PageText[]> {
  const { ocr = true, languages = 'ara+eng', signal, onProgress, maxPages = 2000, beforePage } = options;
  signal?.throwIfAborted();
  if (!LANGUAGES.test(languages)) throw new Error(`Invalid OCR languages "${languages}" (e.g. ara+eng)`);
  if (!(maxPages >= 1)) throw new Error(`maxPages must be at least 1 (got ${maxPages})`);
  const file = resolve(filePath);
  await assertPdfFile(file);
  signal?.throwIfAborted();

  const results: PageText[] = [];
  const toRead: { number: number; broken: boolean }[] = [];
  let total = 0;
  let done = 0;
  const progress = () => {
    done += 1;
    onProgress?.(done, total);
  };
  // The page count comes with the first page's answer (a page past the end is answered without text).
  for (let number = 1; number === 1 || number <= total; number += 1) {
    if (number > 1) await beforePage?.();
    signal?.throwIfAborted();
    let layer: TextPageResult;
    try {
      layer = await ocrService.text({ file, page: number }, signal);
    } catch (error) {
      throw textError(error, number, file, signal);
    }
    if (number === 1) total = Math.min(layer.pages, Math.floor(maxPages));
    if (number > total) break;
    const { text } = layer;
    const broken = layer.unmappedShare >= MAX_UNMAPPED_SHARE;
    results.push({ page: number, text, method: text.length > 0 ? 'text' : 'empty' });
    if (!ocr || (visibleLength(text) >= MIN_TEXT_CHARS && !broken)) progress();
    else toRead.push({ number, broken });
  }

  for (const { number, broken } of toRead) {
    await beforePage?.();
    signal?.throwIfAborted();
    const read = await ocrService.read({ file, page: number, languages, dpi: OCR_DPI }, signal);
    const text = cleanOcrText(read.text);
    observeOcrPage((read.renderMs + read.ocrMs) / 1000, visibleLength(text) > 0 ? 'read' : 'empty');
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

/** Ends the OCR child process and the codes child, if running (server shutdown, end of tests). */
export async function closeOcr(): Promise<void> {
  await Promise.all([ocrService.close(), codesService.close()]);
}
