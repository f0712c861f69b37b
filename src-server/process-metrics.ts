/**
 * The Prometheus metrics of the process rather than of one app: Node's own (CPU, memory, event loop,
 * garbage collection, handles) and the timings of work the process does for every app in it — the PDF
 * checks of uploads (storage/pdf-check-pool.ts) and the OCR of scanned pages (modules/search/extract.ts),
 * both done by one pool of workers and one child per process. In a registry of its own, never prom-client's
 * global one; each app's metrics (http/metrics.ts) are answered together with these. Node's metrics are
 * collected from the first app that serves metrics on: their observers are made once per process (tests
 * build many apps in one).
 */
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const registry = new Registry();
let collectingDefaults = false;

/** Seconds buckets from a tenth of a second to two minutes: a PDF check or an OCR page. */
const WORK_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80, 160];

const pdfCheckSeconds = new Histogram({
  name: 'sijill_pdf_check_seconds',
  help: 'Time to check an uploaded PDF (waiting for a worker included), by verdict.',
  labelNames: ['verdict'] as const,
  buckets: WORK_BUCKETS,
  registers: [registry],
});

const ocrPageSeconds = new Histogram({
  name: 'sijill_ocr_page_seconds',
  help: "Time the OCR child spent on one page (rendering and reading), by the page's outcome.",
  labelNames: ['outcome'] as const,
  buckets: WORK_BUCKETS,
  registers: [registry],
});

/** Records a PDF check: `verdict` is `ok` or the reason it was refused (notPdf, encrypted, activeContent). */
export function observePdfCheck(seconds: number, verdict: string): void {
  pdfCheckSeconds.observe({ verdict }, seconds);
}

/** Records the OCR of one page: `outcome` is `read` (it found text) or `empty`. */
export function observeOcrPage(seconds: number, outcome: 'read' | 'empty'): void {
  ocrPageSeconds.observe({ outcome }, seconds);
}

/** The process's registry, Node's own metrics collected into it from the first call on. */
export function processRegistry(): Registry {
  if (!collectingDefaults) {
    collectingDefaults = true;
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
