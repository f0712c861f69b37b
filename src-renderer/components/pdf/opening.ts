/**
 * A PDF's opening in pdf.js, apart from the viewer that shows it: the file's ends read (prefetch.ts), the
 * range transport over the file source, pdf.js's document, and page 1's fonts read by the worker.
 * The dialog starts it with the click (PdfPreview), so the worker parses the file while React mounts the
 * dialog and the viewer, and the viewer takes a document that is already open or nearly so
 * (bench/pdf-viewer); a viewer given none opens the file itself. Loaded with pdf.js, on demand.
 */
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'pdfjs-dist';
import { pdfjs, sharedWorker } from './pdfjs';
import { PDF_CHUNK, readRange, takePdfEnds, type PdfUrlSource } from './prefetch';

/** Where the bytes come from: our file source (a URL read in ranges) or bytes already here. */
export type PdfSource = PdfUrlSource | { data: Uint8Array };

/** An opening under way: pdf.js's loading task once it exists, and the means to stop it. */
export interface PdfOpening {
  /** pdf.js's loading task; null when the opening was cancelled before the task began. */
  task: Promise<PDFDocumentLoadingTask | null>;
  /** Stops the opening and destroys its document (once: later calls do nothing). */
  cancel(): void;
  /** Whether it was stopped (a viewer mounted again, as StrictMode does, opens the file afresh). */
  readonly cancelled: boolean;
}

/**
 * pdf.js's range transport over the file source: the file's first and last pieces (prefetch.ts: asked
 * for at once, often already under way since the click), the last kept for pdf.js's first requests
 * (the cross-reference table and trailer live at the end), every other range fetched when pdf.js asks.
 * Null (a server without ranges, a small file) falls back to a plain URL.
 */
async function rangedSource(source: PdfUrlSource) {
  const ends = await takePdfEnds(source);
  if (!ends) return null;
  const { length, head, tail, tailStart } = ends;
  const transport = new pdfjs.PDFDataRangeTransport(length, head);
  transport.requestDataRange = (begin: number, end: number) => {
    if (begin >= tailStart && end <= length) {
      transport.onDataRange(begin, tail.slice(begin - tailStart, end - tailStart));
      return;
    }
    void readRange(source, `bytes=${begin}-${end - 1}`)
      .then((answer) => answer.arrayBuffer())
      .then((bytes) => transport.onDataRange(begin, new Uint8Array(bytes)))
      .catch(() => transport.abort());
  };
  return transport;
}

/** Opens a PDF in pdf.js (the shared worker) and asks for page 1's content as soon as the document is there. */
export function openPdf(source: PdfSource): PdfOpening {
  let cancelled = false;
  let created: PDFDocumentLoadingTask | null = null;
  const task = (async () => {
    // A file from the file source: its first and last pieces (the header and the cross-reference table
    // pdf.js reads first), then a range at a time as pages come into view.
    const ranged = 'url' in source ? await rangedSource(source).catch(() => null) : null;
    // Marks for bench/pdf-viewer (performance.getEntriesByType('mark')): where the first page's time goes.
    performance.mark('pdf:ends');
    if (cancelled) return null;
    created = pdfjs.getDocument({
      ...(ranged
        ? { range: ranged }
        : 'url' in source
          ? { url: source.url, httpHeaders: source.httpHeaders, withCredentials: false }
          : { data: source.data }),
      // Read what the pages in view need, in ranges, never the whole file ahead of time: no streaming
      // of the whole file, no fetching of the rest in the background.
      disableAutoFetch: true,
      disableStream: true,
      worker: sharedWorker(),
      rangeChunkSize: PDF_CHUNK,
      isEvalSupported: false,
      cMapUrl: new URL('pdfjs/cmaps/', document.baseURI).href,
      cMapPacked: true,
      standardFontDataUrl: new URL('pdfjs/standard_fonts/', document.baseURI).href,
    });
    created.promise.then(
      (doc: PDFDocumentProxy) => {
        performance.mark('pdf:document');
        // Page 1's fonts are read now, while the viewer lays its pages out: the worker keeps them for
        // the document, so the viewer's drawing of page 1 finds them ready. Its text, not its operator
        // list: pdf.js keeps an operator list per intent, and one asked for here (the "oplist" intent)
        // would not be the one the drawing uses — the worker would read page 1 twice, its images with it.
        // (Drawing page 1 here on a one-pixel canvas, whose display list the viewer's drawing would take
        // over, measured no better in bench/pdf-viewer: that drawing is main-thread work while the
        // viewer makes its pages.)
        void doc
          .getPage(1)
          .then((first) => first.getTextContent())
          .catch(() => {});
      },
      () => {},
    );
    return created;
  })();
  return {
    task,
    get cancelled() {
      return cancelled;
    },
    cancel: () => {
      if (cancelled) return;
      cancelled = true;
      void created?.destroy();
    },
  };
}
