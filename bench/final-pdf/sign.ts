/**
 * Signing a letter's final PDF (issue 27): `npx tsx bench/final-pdf/sign.ts`. Signs with
 * src-server/modules/final/signature.ts `signPdf` — PAdES B-B, a CA chain of three RSA-2048 certificates
 * made by tests/support/certificates.ts — PDFs made with pdf-lib:
 * - a 2-page letter and a 100-page one (text on every page);
 * - a heavy one: BENCH_HEAVY_PAGES (20) pages, each showing its own image of BENCH_HEAVY_KB (500) KB of
 *   random pixels, as a letter with scanned attachments would (about 10 MB).
 * Measured for each: the median of BENCH_RUNS (5) signings (each one reads the PKCS#12, loads and saves
 * the PDF with pdf-lib, hashes it and signs), the file's size before and after, and this process's peak
 * resident memory (getrusage maxRSS) after each case, against its memory at the start. Prints one JSON object; nothing fails on a figure.
 */
import { median } from '../harness';
import { readPkcs12, signPdf } from '../../src-server/modules/final/signature';
import { caChain } from '../../tests/support/certificates';
import { letterPdf } from '../../tests/support/letter-pdf';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const HEAVY_PAGES = Number(process.env.BENCH_HEAVY_PAGES ?? 20);
const HEAVY_KB = Number(process.env.BENCH_HEAVY_KB ?? 500);

const peakRssMB = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** A letter of `pages` A4 pages of text; with `imageKB`, each page also shows an image of random pixels. */
const letter = (pages: number, imageKB = 0) => letterPdf(pages, { lines: 30, imageKB });

const rssAtStartMB = Math.round(process.memoryUsage().rss / 1e6);
const chain = caChain();
const info = { reason: 'اعتماد الخطاب', name: 'المدير العام', location: 'الرياض' };
const started = performance.now();
readPkcs12(chain.p12, chain.password);
const readMs = performance.now() - started;

// One signing first, so the figures below are not the first run's compiling and loading.
await signPdf(await letter(1), chain.p12, chain.password, info);

const cases: Record<string, unknown> = {};
for (const [name, pdf] of [
  ['2 pages', await letter(2)],
  ['100 pages', await letter(100)],
  [`${HEAVY_PAGES} scanned pages`, await letter(HEAVY_PAGES, HEAVY_KB)],
] as const) {
  const times: number[] = [];
  let signed: Uint8Array = pdf;
  for (let run = 0; run < RUNS; run++) {
    const t = performance.now();
    signed = await signPdf(pdf, chain.p12, chain.password, info);
    times.push(performance.now() - t);
  }
  cases[name] = {
    medianMs: Math.round(median(times)),
    minMs: Math.round(Math.min(...times)),
    maxMs: Math.round(Math.max(...times)),
    sizeKB: Math.round(pdf.length / 1024),
    signedSizeKB: Math.round(signed.length / 1024),
    peakRssMB: peakRssMB(),
  };
}
console.log(
  JSON.stringify(
    {
      runs: RUNS,
      certificate: 'RSA-2048, chain of 3 (leaf, intermediate, root)',
      readPkcs12Ms: Math.round(readMs),
      // This process before any PDF was made (tsx, pdf-lib, forge loaded; keys made).
      rssAtStartMB,
      cases,
      peakRssMB: peakRssMB(),
    },
    null,
    2,
  ),
);
