/**
 * pdf.js for text extraction and OCR rendering, as the OCR child uses it (ocr-child.ts: the text layer
 * and the rendering of pages both run there, not in the server process): the legacy build (the modern
 * one needs newer Node features), its worker run in this thread, its font, CMap and WASM data read from
 * the package, and documents read from disk in ranges rather than loaded whole.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

export type PdfJs = typeof PdfJsModule;
export type PdfLoadingTask = ReturnType<PdfJs['getDocument']>;

let loaded: Promise<{ lib: PdfJs; root: string }> | undefined;

/**
 * Loads pdf.js once. Its worker module is handed to it up front (`globalThis.pdfjsWorker`), so pdf.js
 * runs it in this thread instead of importing it on the first document (under tsx that took seconds).
 */
export function loadPdfJs(): Promise<{ lib: PdfJs; root: string }> {
  loaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const root = pathToFileURL(dirname(require.resolve('pdfjs-dist/package.json'))).href;
    const [lib, worker] = await Promise.all([
      import('pdfjs-dist/legacy/build/pdf.mjs'),
      // @ts-expect-error -- the worker module ships without type declarations; it is only handed to pdf.js.
      import('pdfjs-dist/legacy/build/pdf.worker.mjs') as Promise<unknown>,
    ]);
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
    return { lib, root };
  })();
  return loaded;
}

/**
 * Opens a PDF file for reading: pdf.js reads the byte ranges it needs from disk (no auto-fetch, no
 * streaming of the whole file), never evaluates code from the document and uses no system fonts.
 */
export async function openPdfFile(filePath: string): Promise<PdfLoadingTask> {
  const { lib, root } = await loadPdfJs();
  return lib.getDocument({
    url: pathToFileURL(filePath).href,
    disableAutoFetch: true,
    disableStream: true,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
    standardFontDataUrl: `${root}/standard_fonts/`,
    cMapUrl: `${root}/cmaps/`,
    wasmUrl: `${root}/wasm/`,
  });
}
