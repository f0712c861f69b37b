/**
 * OCR of numbers benchmark (issue 25 item 9): `npx tsx bench/search/ocr-digits.ts [pages]` (default 8).
 * Makes scanned pages as bench/search/ocr.ts does (Chromium screenshots at 150 dpi in a PDF without a text
 * layer) from bench/search/digit-pages.ts — circular numbers, dates, amounts, telephone numbers and counts
 * in Arabic-Indic digits inside Arabic sentences, in Latin digits inside Arabic sentences and inside
 * English ones — reads them through extractPdfText (the server's path: the OCR child, ara+eng) and prints:
 *
 * - the character error rate of the numbers, per digit family, apart from that of the letters, per
 *   language (classedErrors in tests/support/ocr-measure.ts: one alignment, each error charged to the
 *   class of the reference character it touches);
 * - how many numbers were read exactly (after folding the digits to ASCII, as search does) and how many
 *   search finds: the page's lexemes (indexText) hold every term of the number typed as a query;
 * - pages per minute.
 *
 * `BENCH_FONT=family` draws the pages in a font installed on the machine (e.g. "Amiri", "KacstOne", "Noto
 * Kufi Arabic") instead of Noto Sans Arabic, and holds that family out of the digit templates
 * (OCR_DIGIT_FONTS_EXCEPT, src-server/modules/search/digit-fonts.ts), so the figure is that of a face the
 * pass has never seen; `BENCH_FONT_IN_TEMPLATES=1` keeps it in. Noto Sans Arabic, the label font, is always
 * among the templates.
 *
 * `--variants` instead runs Tesseract in this process over the same pages rendered as the OCR child
 * renders them, once per setting tried (languages and their order, page segmentation modes, the digits
 * pass), and prints the same figures for each: how the child's settings were chosen. Nothing fails on a
 * figure.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeOcr, extractPdfText } from '../../src-server/modules/search/extract';
import { loadPdfJs } from '../../src-server/pdfjs';
import { indexText, queryTerms } from '../../src-shared/search';
import { classedErrors, forComparison } from '../../tests/support/ocr-measure';
import { canMakePdfs, makeScannedPdf } from '../../tests/support/pdf-makers';
import { round, table } from '../station/support';
import { digitPages, lineText, type DigitPage } from './digit-pages';

const args = process.argv.slice(2);
const VARIANTS = args.includes('--variants');
const PAGES = Number(args.find((a) => /^\d+$/.test(a)) ?? process.env.BENCH_OCR_PAGES ?? 8);

/** The class a reference part is scored in: numbers by digit family, letters by language. */
function classedParts(page: DigitPage) {
  const numberClass =
    page.digits === 'arabic-indic' ? 'numbers, Arabic-Indic' : `numbers, Latin (${page.language})`;
  const letterClass = page.language === 'ar' ? 'letters, Arabic' : 'letters, English';
  return page.lines.flatMap((line) =>
    line.map((part) => ({ text: part.text, cls: part.kind === 'number' ? numberClass : letterClass })),
  );
}

const numberFold = (text: string) =>
  forComparison(text)
    .replace(/\u066c/g, ',')
    .replace(/\u066b/g, '.');

/** Scores of the text read from each page against the pages as made. */
function score(pages: DigitPage[], readTexts: string[]) {
  const classes = new Map<string, { errors: number; length: number }>();
  const numbers = new Map<string, { total: number; exact: number; found: number }>();
  pages.forEach((page, i) => {
    const read = readTexts[i] ?? '';
    for (const [cls, t] of classedErrors(read, classedParts(page))) {
      const c = classes.get(cls) ?? { errors: 0, length: 0 };
      c.errors += t.errors;
      c.length += t.length;
      classes.set(cls, c);
    }
    const folded = numberFold(read);
    const lexemes = new Set(indexText(read).split(' '));
    const family = page.digits === 'arabic-indic' ? 'Arabic-Indic' : `Latin (${page.language})`;
    const n = numbers.get(family) ?? { total: 0, exact: 0, found: 0 };
    for (const line of page.lines)
      for (const part of line) {
        if (part.kind !== 'number') continue;
        n.total += 1;
        if (folded.includes(numberFold(part.text))) n.exact += 1;
        if (queryTerms(part.text).every((group) => group.some((l) => lexemes.has(l)))) n.found += 1;
      }
    numbers.set(family, n);
  });
  return {
    cer: Object.fromEntries(
      [...classes].sort().map(([cls, t]) => [cls, round((t.errors / Math.max(1, t.length)) * 100, 2)]),
    ),
    numbers: Object.fromEntries(
      [...numbers].map(([family, n]) => [
        family,
        {
          ...n,
          exactShare: round((n.exact / n.total) * 100, 1),
          foundShare: round((n.found / n.total) * 100, 1),
        },
      ]),
    ),
  };
}

function printScores(title: string, scores: ReturnType<typeof score>, pagesPerMinute: number) {
  console.log(`\n${title}`);
  console.log(
    table([
      ['figure', 'value'],
      ...Object.entries(scores.cer).map(([cls, v]) => [`CER ${cls}`, `${v} %`]),
      ...Object.entries(scores.numbers).map(([family, n]) => [
        `numbers ${family}: read exactly / found by search`,
        `${n.exact}/${n.total} (${n.exactShare} %) / ${n.found}/${n.total} (${n.foundShare} %)`,
      ]),
      ['pages per minute', pagesPerMinute],
    ]),
  );
}

async function realPath(pages: DigitPage[], pdf: string) {
  await loadPdfJs();
  const started = performance.now();
  const result = await extractPdfText(pdf);
  const seconds = (performance.now() - started) / 1000;
  const scores = score(
    pages,
    result.map((p) => p.text),
  );
  const pagesPerMinute = round((pages.length / seconds) * 60, 1);
  printScores(
    `extractPdfText (ara+eng), ${pages.length} pages, ${cpus().length} cores`,
    scores,
    pagesPerMinute,
  );
  if (process.env.BENCH_SHOW_TEXT) result.forEach((p, i) => console.log(`--- page ${i + 1}\n${p.text}`));
  console.log(JSON.stringify({ pages: pages.length, pagesPerMinute, ...scores }, null, 2));
}

/** The bench's face held out of the digit templates (the OCR child inherits the environment). */
function holdOut(): string {
  const font = process.env.BENCH_FONT;
  if (!font) return 'Noto Sans Arabic (among the templates)';
  if (process.env.BENCH_FONT_IN_TEMPLATES === '1') return `${font} (among the templates)`;
  process.env.OCR_DIGIT_FONTS_EXCEPT = `^${font.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
  return `${font} (held out of the templates)`;
}

async function main() {
  console.log(`face: ${holdOut()}`);
  if (!canMakePdfs())
    throw new Error('Chromium is needed to make the scanned pages (apt-get install chromium)');
  const dir = await mkdtemp(join(tmpdir(), 'sijill-bench-ocr-digits-'));
  try {
    const pages = digitPages(PAGES);
    const pdf = await makeScannedPdf(
      pages.map((p) => p.lines.map(lineText)),
      dir,
      { name: 'bench-digits', fontFamily: process.env.BENCH_FONT },
    );
    if (VARIANTS) {
      const { runVariants } = await import('./ocr-digits-variants');
      await runVariants(pages, pdf, (title, texts, ppm) => printScores(title, score(pages, texts), ppm));
    } else await realPath(pages, pdf);
  } finally {
    await closeOcr();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
