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

/** Asks the child to end (after its idle time, or when the server shuts down). */
export interface OcrExitRequest {
  type: 'exit';
}

/** The requests that get an answer (`done`, `textDone` or `failed`, with the request's id). */
export type ChildRequest = OcrRequest | TextRequest;

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
  | { type: 'failed'; id: number; message: string; kind: ChildFailureKind };

/**
 * The nice value of the OCR child and every thread of it (Windows: the idle priority class): the lowest
 * there is. Reading attachments is work nobody waits for; it takes only the CPU that nothing else wants,
 * so a scanning station's burst or a clerk's request is never slowed by it (at nice 10 it still took a
 * tenth of a core from a burst on two cores).
 */
export const OCR_CHILD_NICE = 19;
