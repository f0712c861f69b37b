/**
 * The `--variants` mode of bench/search/ocr-digits.ts: the same pages read by Tesseract in this process,
 * rendered as the OCR child renders them (pdf.js at 300 dpi, grey PNG), once per setting tried.
 */
import sharp from 'sharp';
import Tesseract from 'tesseract.js';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { rgbaToGrayPng } from '../../src-server/modules/search/gray-png';
import { openPdfFile } from '../../src-server/pdfjs';
import { round } from '../station/support';
import type { DigitPage } from './digit-pages';
import { rereadArabicIndicNumbers } from '../../src-server/modules/search/arabic-digits';

/** The glyph pass of the OCR child (src-server/modules/search/arabic-digits.ts) over a page read. */
async function glyphPass(page: Tesseract.Page, image: Rendered): Promise<string> {
  const { data, info } = await sharp(image.png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const again = await rereadArabicIndicNumbers(page, { data, width: info.width, height: info.height });
  if (again) secondPasses += again.replaced;
  return again?.text ?? page.text;
}

const resolveHere = createRequire(import.meta.url).resolve;

async function workerFor(languages: string, data = '4.0.0_best_int', oem = Tesseract.OEM.LSTM_ONLY) {
  const folder = await mkdtemp(join(tmpdir(), 'sijill-ocr-variants-'));
  for (const language of languages.split('+')) {
    const file = `${language}.traineddata.gz`;
    const from = join(dirname(resolveHere(`@tesseract.js-data/${language}/package.json`)), data, file);
    await copyFile(from, join(folder, file));
  }
  try {
    return await Tesseract.createWorker(languages, oem, {
      langPath: folder,
      gzip: true,
      cacheMethod: 'none',
      errorHandler: () => undefined,
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

interface Rendered {
  png: Buffer;
  dpi: number;
}

async function renderAll(pdf: string, dpi = 300): Promise<Rendered[]> {
  const task = await openPdfFile(pdf);
  const doc = await task.promise;
  const out: Rendered[] = [];
  for (let n = 1; n <= doc.numPages; n += 1) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const width = Math.floor(viewport.width);
    const height = Math.floor(viewport.height);
    const factory = doc.canvasFactory as {
      create(
        w: number,
        h: number,
      ): { context: { getImageData(...a: number[]): { data: Uint8ClampedArray } } };
    };
    const entry = factory.create(width, height);
    type RenderParameters = Parameters<typeof page.render>[0];
    await page.render({
      canvas: null,
      canvasContext: entry.context as unknown as RenderParameters['canvasContext'],
      viewport,
      background: 'rgb(255,255,255)',
    }).promise;
    const { data } = entry.context.getImageData(0, 0, width, height);
    out.push({ png: rgbaToGrayPng(data, width, height, dpi), dpi });
    page.cleanup();
  }
  await task.destroy();
  return out;
}

export interface Variant {
  name: string;
  languages: string;
  parameters?: Partial<Tesseract.WorkerParams>;
  data?: string;
  oem?: Tesseract.OEM;
  /** Post-processing of the first pass's result, with the page image (the digits pass). */
  after?: (page: Tesseract.Page, image: Rendered) => Promise<string>;
}

const ARABIC = /[\u0600-\u06ff]/g;
const LATIN = /[A-Za-z]/g;
const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

/** Whether a line of OCR is Arabic: more Arabic letters than Latin ones. */
const arabicLine = (text: string) => count(text, ARABIC) > count(text, LATIN);

const digitsWorkers = new Map<string, Tesseract.Worker>();
let secondPasses = 0;

interface PassOptions {
  data?: string;
  oem?: Tesseract.OEM;
  psm?: Tesseract.PSM;
  whitelist?: string;
}

/** The digits pass: words of an Arabic line read as Latin junk, read again with the digits whitelist. */
async function digitsPass(
  page: Tesseract.Page,
  image: Rendered,
  suspicious: (w: Tesseract.Word) => boolean,
  options: PassOptions = {},
) {
  const key = JSON.stringify(options);
  let digitsWorker = digitsWorkers.get(key);
  if (!digitsWorker) {
    digitsWorker = await workerFor('ara', options.data, options.oem);
    await digitsWorker.setParameters({
      tessedit_char_whitelist: options.whitelist ?? '٠١٢٣٤٥٦٧٨٩/-.,٬٫',
      tessedit_pageseg_mode: options.psm ?? Tesseract.PSM.SINGLE_WORD,
      user_defined_dpi: '300',
    });
    digitsWorkers.set(key, digitsWorker);
  }
  const lines: string[] = [];
  for (const block of page.blocks ?? [])
    for (const paragraph of block.paragraphs)
      for (const line of paragraph.lines) {
        let text = line.text.replace(/\s+/g, ' ').trim();
        if (arabicLine(text))
          for (const word of line.words) {
            if (!suspicious(word)) continue;
            const pad = 8;
            const left = Math.max(0, word.bbox.x0 - pad);
            const top = Math.max(0, word.bbox.y0 - pad);
            const crop = await sharp(image.png)
              .extract({
                left,
                top,
                width: word.bbox.x1 - word.bbox.x0 + 2 * pad,
                height: word.bbox.y1 - word.bbox.y0 + 2 * pad,
              })
              .extend({ top: 10, bottom: 10, left: 10, right: 10, background: '#ffffff' })
              .png()
              .toBuffer();
            if (process.env.BENCH_SAVE_CROPS) await sharp(crop).toFile(`/tmp/crop-${secondPasses}.png`);
            secondPasses += 1;
            const { data } = await digitsWorker.recognize(crop);
            const again = data.text.replace(/\s+/g, '');
            if (process.env.BENCH_SHOW_WORDS)
              console.log(
                `  ${word.text} (${round(word.confidence)}) -> ${again} (${round(data.confidence)})`,
              );
            if (again) text = text.replace(word.text, again);
          }
        lines.push(text);
      }
  return lines.join('\n');
}

/** A word that may be a number misread: Latin letters or ASCII digits in it, no Arabic letter. */
const numberShaped = (w: Tesseract.Word) => !/[\u0621-\u064a]/.test(w.text) && /[A-Za-z0-9]/.test(w.text);

export const VARIANTS: Variant[] = [
  { name: 'ara+eng, automatic segmentation (the child as it was)', languages: 'ara+eng' },
  { name: 'ara only', languages: 'ara' },
  { name: 'eng+ara', languages: 'eng+ara' },
  {
    name: 'ara+eng, psm 4 (one column)',
    languages: 'ara+eng',
    parameters: { tessedit_pageseg_mode: Tesseract.PSM.SINGLE_COLUMN },
  },
  {
    name: 'ara+eng, psm 6 (one block)',
    languages: 'ara+eng',
    parameters: { tessedit_pageseg_mode: Tesseract.PSM.SINGLE_BLOCK },
  },
  {
    name: 'ara+eng, preserve_interword_spaces',
    languages: 'ara+eng',
    parameters: { preserve_interword_spaces: '1' },
  },
  {
    name: 'ara+eng, digits pass over number-shaped words of Arabic lines',
    languages: 'ara+eng',
    after: (page, image) => digitsPass(page, image, numberShaped),
  },
  {
    name: 'digits pass, ara 4.0.0 (standard) LSTM',
    languages: 'ara+eng',
    after: (page, image) => digitsPass(page, image, numberShaped, { data: '4.0.0' }),
  },
  {
    name: 'digits pass, psm 7 (a line)',
    languages: 'ara+eng',
    after: (page, image) => digitsPass(page, image, numberShaped, { psm: Tesseract.PSM.SINGLE_LINE }),
  },
  {
    name: 'ara+eng, Arabic-Indic digits read again glyph by glyph (arabic-digits.ts)',
    languages: 'ara+eng',
    after: glyphPass,
  },
];

/** Reads the pages with each variant (those named in BENCH_VARIANTS, by index, if set) and reports. */
export async function runVariants(
  pages: DigitPage[],
  pdf: string,
  report: (title: string, texts: string[], pagesPerMinute: number) => void,
) {
  const images = await renderAll(pdf);
  const chosen = process.env.BENCH_VARIANTS?.split(',').map(Number) ?? VARIANTS.map((_, i) => i);
  for (const index of chosen) {
    const variant = VARIANTS[index]!;
    const worker = await workerFor(variant.languages, variant.data, variant.oem);
    await worker.setParameters({ user_defined_dpi: '300', ...variant.parameters });
    secondPasses = 0;
    const started = performance.now();
    const texts: string[] = [];
    for (const image of images) {
      const { data } = await worker.recognize(image.png, {}, { text: true, blocks: Boolean(variant.after) });
      texts.push(variant.after ? await variant.after(data, image) : data.text);
    }
    const seconds = (performance.now() - started) / 1000;
    await worker.terminate();
    report(
      `${index}: ${variant.name}${secondPasses ? ` (${secondPasses} words read again)` : ''}`,
      texts,
      round((pages.length / seconds) * 60, 1),
    );
    if (process.env.BENCH_SHOW_TEXT) texts.forEach((t, i) => console.log(`--- page ${i + 1}\n${t}`));
  }
  for (const w of digitsWorkers.values()) await w.terminate();
  digitsWorkers.clear();
}
