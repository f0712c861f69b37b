/**
 * pdf.js as the server's own code uses it — the PDF checks of uploads (storage/pdf-check.ts, in a worker
 * thread) and the text layer and OCR rendering of attachments (modules/search/ocr-child.ts, in a child
 * process): the legacy build (the modern one needs newer Node features), minified, its worker run in the
 * calling thread, its font, CMap and WASM data read from the package, and documents never allowed to run
 * code or use system fonts.
 */
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

export type PdfJs = typeof PdfJsModule;
export type PdfLoadingTask = ReturnType<PdfJs['getDocument']>;
export type PdfSourceOptions = Parameters<PdfJs['getDocument']>[0];

let loaded: Promise<{ lib: PdfJs; root: string }> | undefined;

/** What a thread that never draws is given for the geometry pdf.js builds as it loads (see withoutDrawing). */
class NoDrawingMatrix {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
}

/** Drawing in a thread that was set up not to draw: a mistake of ours, said plainly. */
class NoDrawing {
  constructor() {
    throw new Error('this thread does not draw PDFs (pdfjs.ts, withoutDrawing)');
  }
}

/**
 * Loads pdf.js, in this thread, without @napi-rs/canvas. In Node, pdf.js requires that package as it
 * loads, for the DOMMatrix, Path2D and ImageData it draws with, whether or not anything is ever drawn;
 * loading it (Skia, its font manager) costs about 45 MB of the process's memory. A thread that only
 * opens documents and reads their structure (the PDF check workers) never draws: the package is put in
 * Node's require cache for pdf.js's own require as a module whose matrix is an identity (pdf.js makes
 * one as it loads) and whose drawing classes throw, so a drawing call by mistake fails loudly (a check
 * that fails refuses the file) instead of drawing nothing. Call it before anything else in the thread
 * loads pdf.js; the process's other threads are not affected (each has its own require cache).
 */
export function loadPdfJsWithoutDrawing(): Promise<{ lib: PdfJs; root: string }> {
  if (!loaded) {
    const fromPdfJs = createRequire(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    let canvasPath: string | undefined;
    try {
      canvasPath = fromPdfJs.resolve('@napi-rs/canvas');
    } catch {
      // Not installed: pdf.js's own require fails and it warns; the globals below keep it quiet.
    }
    const exports = { DOMMatrix: NoDrawingMatrix, Path2D: NoDrawing, ImageData: NoDrawing };
    if (canvasPath) {
      const stub = new Module(canvasPath);
      stub.filename = canvasPath;
      stub.loaded = true;
      stub.exports = exports;
      fromPdfJs.cache[canvasPath] = stub;
    } else {
      const globals = globalThis as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) globals[name] ??= value;
    }
  }
  return loadPdfJs();
}

/**
 * Loads pdf.js once. Its worker module is handed to it up front (`globalThis.pdfjsWorker`), so pdf.js
 * runs it in this thread instead of importing it on the first document (under tsx that took seconds).
 * The minified builds: they carry no source map, which Node would otherwise load and keep (source maps
 * are on under tsx) — 9 MB of heap instead of 40, which every full garbage collection marks.
 */
export function loadPdfJs(): Promise<{ lib: PdfJs; root: string }> {
  loaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const root = pathToFileURL(dirname(require.resolve('pdfjs-dist/package.json'))).href;
    const [lib, worker] = await Promise.all([
      // @ts-expect-error -- the minified build is the same module as pdf.mjs, whose types it takes.
      import('pdfjs-dist/legacy/build/pdf.min.mjs') as Promise<PdfJs>,
      // @ts-expect-error -- the worker module ships without type declarations; it is only handed to pdf.js.
      import('pdfjs-dist/legacy/build/pdf.worker.min.mjs') as Promise<unknown>,
    ]);
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
    return { lib, root };
  })();
  return loaded;
}

/**
 * Opens a PDF: bytes (pdf.js takes them over), or a file on disk read by the byte ranges it needs (no
 * auto-fetch, no streaming of the whole file). `options` adds to the common ones (a shared worker,
 * stopping at the first error).
 */
export async function openPdf(
  source: { bytes: Uint8Array } | { path: string },
  options: Partial<NonNullable<PdfSourceOptions> & object> = {},
): Promise<PdfLoadingTask> {
  const { lib, root } = await loadPdfJs();
  return lib.getDocument({
    ...('bytes' in source
      ? { data: source.bytes }
      : { url: pathToFileURL(source.path).href, disableAutoFetch: true, disableStream: true }),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
    standardFontDataUrl: `${root}/standard_fonts/`,
    cMapUrl: `${root}/cmaps/`,
    wasmUrl: `${root}/wasm/`,
    ...options,
  });
}

/** Opens a PDF file for reading (the OCR child): pdf.js reads the byte ranges it needs from disk. */
export function openPdfFile(filePath: string): Promise<PdfLoadingTask> {
  return openPdf({ path: filePath });
}
