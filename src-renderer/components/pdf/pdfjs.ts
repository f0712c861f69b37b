/**
 * pdf.js for the renderer: the library with its worker from our own bundle (CSP worker-src 'self'), and
 * the viewer components (pdf_viewer.mjs reads the library from globalThis, so it loads after it).
 */
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
(globalThis as { pdfjsLib?: typeof pdfjs }).pdfjsLib = pdfjs;

export const viewerModule = import('pdfjs-dist/web/pdf_viewer.mjs');
export { pdfjs };
