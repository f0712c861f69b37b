/**
 * pdf.js for the renderer: the library with its worker from our own bundle (CSP worker-src 'self'), and
 * the viewer components (pdf_viewer.mjs reads the library from globalThis, so it loads after it).
 */
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
(globalThis as { pdfjsLib?: typeof pdfjs }).pdfjsLib = pdfjs;

export const viewerModule = import('pdfjs-dist/web/pdf_viewer.mjs');

let shared: InstanceType<typeof pdfjs.PDFWorker> | null = null;
/**
 * One worker for every document the viewer opens (starting pdf.js's worker — parsing its script — is the
 * largest part of showing a first page; each document gets its own port on it).
 */
export function sharedWorker(): InstanceType<typeof pdfjs.PDFWorker> {
  if (!shared || shared.destroyed) shared = new pdfjs.PDFWorker();
  return shared;
}
export { pdfjs };
