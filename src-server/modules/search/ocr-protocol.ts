/**
 * The messages between the server process and its OCR child process (ocr-process.ts ↔ ocr-child.ts).
 * Plain JSON objects: they travel over Node's IPC channel (child_process.fork) or, in a packaged Electron
 * app, over a utility process's message port.
 */

/** Asks the child to render one page of a PDF file and read it. */
export interface OcrRequest {
  type: 'ocr';
  id: number;
  /** Absolute path of the PDF file. */
  file: string;
  /** Page number, from 1. */
  page: number;
  /** Tesseract languages joined by `+`, e.g. `ara+eng`. */
  languages: string;
  /** Rendering resolution in dots per inch. */
  dpi: number;
}

/**
 * Asks the child for the text layer of one page of a PDF file, laid out in logical order (src-shared/text-layout.ts).
 * A page past the end of the document is answered with the document's page count and no text (a document
 * may have no pages at all).
 */
export interface TextRequest {
  type: 'text';
  id: number;
  /** Absolute path of the PDF file. */
  file: string;
  /** Page number, from 1. */
  page: number;
}

/**
 * Asks the child to render one page of a PDF file in grey and read the QR codes and Code 128s on it
 * (zxing-wasm, loaded on the first such request). A page past the end is answered with the document's
 * page count and no codes, as for `text`.
 */
export interface CodesRequest {
  type: 'codes';
  id: number;
  /** Absolute path of the PDF file. */
  file: string;
  /** Page number, from 1. */
  page: number;
  /** Rendering resolution in dots per inch. */
  dpi: number;
}

/** Asks the child to end (after its idle time, or when the server shuts down). */
export interface OcrExitRequest {
  type: 'exit';
}

/** The requests that get an answer (`done`, `textDone`, `codesDone` or `failed`, with the request's id). */
export type ChildRequest = OcrRequest | TextRequest | CodesRequest;

export type ToOcrChild = ChildRequest | OcrExitRequest;

/**
 * Why a request failed. The document could not be opened: it is encrypted (`encrypted`), damaged or no PDF
 * (`invalid`), or anything else (`unreadable`: the file is gone, pdf.js gave another error). Or it was
 * opened, but the page could not be read or rendered, or OCR failed (`page`).
 */
export type ChildFailureKind = 'encrypted' | 'invalid' | 'unreadable' | 'page';

export type FromOcrChild =
  /** Sent once the child has loaded its modules and waits for work. */
  | { type: 'ready'; pid: number }
  | {
      type: 'done';
      id: number;
      text: string;
      /** Size of the rendered image in pixels. */
      width: number;
      height: number;
      renderMs: number;
      ocrMs: number;
    }
  | {
      type: 'textDone';
      id: number;
      /** Pages in the document. */
      pages: number;
      /** The page's text layer as layoutPageText lays it out: lines in logical order, joined by `\n`. */
      text: string;
      /** Share of the page's glyphs that map to no character (NUL or U+FFFD); 0 for a page without glyphs. */
      unmappedShare: number;
    }
  | {
      type: 'codesDone';
      id: number;
      /** Pages in the document. */
      pages: number;
      /** The codes read on the page (QR codes and Code 128s), each once; empty for a page past the end. */
      codes: { format: string; text: string }[];
      renderMs: number;
      decodeMs: number;
      /** Images decoded: 1 when the page as rendered gave its codes (or nothing looked like a code). */
      attempts: number;
    }
  | { type: 'failed'; id: number; message: string; kind: ChildFailureKind };

/**
 * The nice value of the OCR child and every thread of it (Windows: the idle priority class): the lowest
 * there is. Reading attachments is work nobody waits for; it takes only the CPU that nothing else wants,
 * so a scanning station's burst or a clerk's request is never slowed by it (at nice 10 it still took a
 * tenth of a core from a burst on two cores).
 */
export const OCR_CHILD_NICE = 19;

/**
 * The nice value of the child that reads codes on scanned pages (codesService): a station's upload waits
 * for it, so it must not queue behind OCR at the lowest priority, but a 300-page batch must not take the
 * API server's CPU either: mildly below normal.
 */
export const CODES_CHILD_NICE = 5;

/** How the server tells a child its nice value: an argument `--nice=<n>` (the OCR child's when absent). */
export const NICE_ARGUMENT = '--nice=';
