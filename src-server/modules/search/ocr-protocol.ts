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

/** Asks the child to end (after its idle time, or when the server shuts down). */
export interface OcrExitRequest {
  type: 'exit';
}

export type ToOcrChild = OcrRequest | OcrExitRequest;

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
  | { type: 'failed'; id: number; message: string };
