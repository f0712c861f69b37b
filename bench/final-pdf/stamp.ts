/**
 * Stamping a letter's final PDF (issue 27, src-server/modules/final/stamp.ts): `npx tsx
 * bench/final-pdf/stamp.ts` makes a 2-page and a 100-page letter (pdf-lib, a page of Latin text each) and
 * measures how long stampPdf takes on each — load, stamp the first page (fonts subset and embedded, QR
 * code), save without object streams — as the median of BENCH_RUNS runs (5), and the process's peak
 * resident memory while the 100-page letter is stamped (the 2-page runs come first and are small, so the
 * peak is the 100-page one's; the resident size before it is given too). Prints one JSON object.
 */
import { median } from '../harness';
import { performance } from 'node:perf_hooks';
import { stampPdf } from '../../src-server/modules/final/stamp';
import {
  SAMPLE_FACTS as FACTS,
  SAMPLE_QR as QR_TEXT,
  SAMPLE_STAMP as SETTINGS,
  letterPdf,
} from '../../tests/support/letter-pdf';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** A letter of `pages` pages of text, 30 lines a page. */
const makeLetter = (pages: number) => letterPdf(pages, { lines: 30 });

/** Runs stampPdf `RUNS` times on `letter` (after one warm-up, which loads the fonts); answers times in ms. */
async function time(letter: Uint8Array): Promise<{ ms: number[]; outputBytes: number }> {
  let outputBytes = (await stampPdf(letter, FACTS, SETTINGS, QR_TEXT)).bytes.length;
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    const { bytes } = await stampPdf(letter, FACTS, SETTINGS, QR_TEXT);
    ms.push(performance.now() - start);
    outputBytes = bytes.length;
  }
  return { ms, outputBytes };
}

const small = await makeLetter(2);
const large = await makeLetter(100);
const smallRuns = await time(small);

// The resident size is sampled while the 100-page letter is stamped, and the process's own peak read after.
global.gc?.();
const rssBefore = process.memoryUsage.rss();
let sampledPeak = rssBefore;
const sampler = setInterval(() => {
  sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
}, 5);
const largeRuns = await time(large);
clearInterval(sampler);
const peakRss = Math.max(sampledPeak, process.resourceUsage().maxRSS * 1024);

console.log(
  JSON.stringify(
    {
      runs: RUNS,
      twoPages: {
        inputKB: round(small.length / 1024),
        outputKB: round(smallRuns.outputBytes / 1024),
        medianMs: round(median(smallRuns.ms)),
        runsMs: smallRuns.ms.map((x) => round(x)),
      },
      hundredPages: {
        inputKB: round(large.length / 1024),
        outputKB: round(largeRuns.outputBytes / 1024),
        medianMs: round(median(largeRuns.ms)),
        runsMs: largeRuns.ms.map((x) => round(x)),
        rssBeforeMB: mb(rssBefore),
        peakRssMB: mb(peakRss),
      },
    },
    null,
    2,
  ),
);
