/**
 * The stamp on a letter's final PDF (src-server/modules/final/stamp.ts), read back with real tools: the
 * text by poppler's pdftotext, the QR code from a 200 dpi rendering (pdftoppm) by zxing, the words by our
 * own OCR child (Tesseract), and where the stamp stands by comparing renderings of the page before and
 * after. Renderings are kept in /tmp/final-stamp-*.png to look at.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { arabicIndicDigits } from '../../src-server/modules/labels';
import { stampPdf } from '../../src-server/modules/final/stamp';
import type { StampSettings } from '../../src-server/modules/final/types';
import { closeOcr } from '../../src-server/modules/search/extract';
import { openPdf } from '../../src-server/pdfjs';
import { layoutPageText, type PositionedText } from '../../src-shared/text-layout';
import { ocrService } from '../../src-server/modules/search/ocr-process';
import { makeBrokenPdf, makeEncryptedPdf } from '../support/pdf-makers';
import {
  A4,
  SAMPLE_FACTS as FACTS,
  SAMPLE_QR as QR_TEXT,
  SAMPLE_STAMP as SETTINGS,
  letterPdf,
  type LetterOptions,
} from '../support/letter-pdf';

const run = promisify(execFile);

/** Rendering resolution of the corner checks (coarse is enough to find a 92 mm box). */
const COARSE_DPI = 50;
const MM_PER_INCH = 25.4;

let dir: string;
let count = 0;

/** A letter of `pages` A4 pages of Latin text, 30 lines a page; the first page turned or cropped when asked. */
const makeLetter = (pages: number, first: LetterOptions['first'] = {}) =>
  letterPdf(pages, { lines: 30, first });

/** Writes `bytes` to a new file in the test's folder and answers its path. */
function save(bytes: Uint8Array, name: string): string {
  count += 1;
  const file = join(dir, `${name}-${count}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

/**
 * A page's text by pdftotext. The stamp's text layer maps each glyph to its letters in logical order
 * (labels/typeset.ts), so poppler gives back the words as typed; NFKC folds any Arabic presentation form
 * (ﻭﺯﺍﺭﺓ) a reader might still emit back into the plain letters, and the bidi embedding marks poppler puts
 * around right-to-left runs (U+202B … U+202C) are dropped, so a plain `toContain` compares the words.
 * Poppler orders the runs of a line with numbers in it as they are drawn (٢٧ نوفمبر read from the left):
 * whole lines mixing Arabic words and numbers are checked on pdf.js's reading (`sijillText`) instead.
 */
async function pageText(file: string, page: number, mode: '-layout' | '-raw' = '-layout'): Promise<string> {
  const { stdout } = await run('pdftotext', [
    mode,
    '-enc',
    'UTF-8',
    '-f',
    String(page),
    '-l',
    String(page),
    file,
    '-',
  ]);
  return stdout.normalize('NFKC').replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

/** Page 1's text as Sijill reads it (pdf.js, laid out by src-shared/text-layout.ts): lines in logical order. */
async function sijillText(bytes: Uint8Array): Promise<string> {
  const task = await openPdf({ bytes: bytes.slice() });
  try {
    const page = await (await task.promise).getPage(1);
    const content = await page.getTextContent();
    return layoutPageText(
      content.items.filter((item): item is typeof item & PositionedText => 'str' in item),
    );
  } finally {
    await task.destroy();
  }
}

/** One page rendered by pdftoppm (its visible area, the CropBox, turned as a viewer shows it) as PNG bytes. */
async function render(file: string, page: number, dpi: number, name?: string): Promise<Buffer> {
  const out = join(dir, `render-${(count += 1)}`);
  await run('pdftoppm', [
    '-r',
    String(dpi),
    '-cropbox',
    '-png',
    '-singlefile',
    '-f',
    String(page),
    '-l',
    String(page),
    file,
    out,
  ]);
  const png = readFileSync(`${out}.png`);
  if (name) writeFileSync(`/tmp/final-stamp-${name}.png`, png);
  return png;
}

/**
 * Where the stamp is on the first page, in millimetres of the page as shown: the box around the pixels
 * that differ between the letter's rendering and the stamped one's; with the page's shown size.
 */
async function stampBox(letter: Uint8Array, stamped: Uint8Array) {
  const before = await sharp(await render(save(letter, 'before'), 1, COARSE_DPI))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const after = await sharp(await render(save(stamped, 'after'), 1, COARSE_DPI))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = after.info;
  expect([before.info.width, before.info.height]).toEqual([width, height]);
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1)
      if (Math.abs(before.data[y * width + x]! - after.data[y * width + x]!) > 40) {
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
  const mm = (px: number) => (px / COARSE_DPI) * MM_PER_INCH;
  return {
    page: { width: mm(width), height: mm(height) },
    left: mm(left),
    right: mm(right + 1),
    top: mm(top),
    bottom: mm(bottom + 1),
  };
}

/**
 * The words pdftotext finds on page 1 with their boxes (in the shown page's orientation). Here poppler
 * gives each word's characters in the order they are drawn: an Arabic word comes out reversed.
 */
async function words(file: string) {
  const { stdout } = await run('pdftotext', ['-bbox', '-enc', 'UTF-8', '-f', '1', '-l', '1', file, '-']);
  return [
    ...stdout.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    ),
  ].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
    text: m[5]!.normalize('NFKC'),
  }));
}

async function qrCodesIn(png: Uint8Array): Promise<string[]> {
  const results = await readBarcodes(png, { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 4 });
  return results.filter((r) => r.isValid).map((r) => r.text);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sijill-stamp-'));
  // The package exports no package.json: its entry point is found, and the WASM file beside it.
  const entry = createRequire(import.meta.url).resolve('zxing-wasm/reader');
  const wasm = readFileSync(join(dirname(entry), '../../reader/zxing_reader.wasm'));
  await prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
    fireImmediately: true,
  });
});

afterAll(async () => {
  await closeOcr();
  rmSync(dir, { recursive: true, force: true });
});

// Each case renders pages and runs poppler: seconds on two busy cores, so a guard against a hang only.
describe('stampPdf', { timeout: 60_000 }, () => {
  it('writes the heading, both names, the number, the dates and the signatory on page 1 only', async () => {
    const letter = await makeLetter(2);
    const { bytes, pages } = await stampPdf(letter, FACTS, SETTINGS, QR_TEXT);
    expect(pages).toBe(2);
    // No object streams: the signature module adds its placeholder to a plain cross-reference table.
    expect(Buffer.from(bytes).toString('latin1')).not.toContain('/ObjStm');
    const file = save(bytes, 'stamped');
    const text = await pageText(file, 1);
    expect(text).toContain('صادر');
    expect(text).toContain('Outgoing');
    // In logical order, joined words as typed (a reversed or unjoined word would not match).
    expect(text).toContain('وزارة');
    expect(text).toContain(FACTS.organisation.ar);
    expect(text).toContain(FACTS.organisation.en);
    expect(text).toContain(FACTS.signatory.nameAr);
    expect(text).toContain(FACTS.signatory.jobAr!);
    expect(text).toContain(FACTS.signatory.nameEn);
    // The number in Arabic-Indic digits. It is set right to left as Arabic text sets it (٠٠٠٠١٢-٢٠٢٦-OUT,
    // read from the right), and poppler gives back its groups in the order they are drawn: each group must
    // be there, on one line (pdf.js reads it back whole, below).
    const numberLine = text.split('\n').find((line) => line.includes('OUT'));
    expect(numberLine).toBeDefined();
    for (const group of arabicIndicDigits(FACTS.number).split('-')) expect(numberLine).toContain(group);
    expect(text).not.toContain('000012');
    // Hijri (Umm al-Qura) and Gregorian, in both languages.
    for (const word of ['جمادى الآخرة', '١٤٤٨', 'هـ الموافق', 'نوفمبر', '٢٠٢٦']) expect(text).toContain(word);
    expect(text).toContain('Jumada II 17, 1448 AH');
    expect(text).toContain('27 November 2026');
    // Sijill's own reader gets the whole lines back in logical order.
    const read = await sijillText(bytes);
    expect(read).toContain(arabicIndicDigits(FACTS.number));
    expect(read).toContain('التاريخ: ١٧ جمادى الآخرة ١٤٤٨ هـ الموافق ٢٧ نوفمبر ٢٠٢٦ م');
    expect(read).toContain(`الموقع: ${FACTS.signatory.nameAr} — ${FACTS.signatory.jobAr!}`);
    // Page 2 is the author's page as it was.
    const original = save(letter, 'letter');
    expect(await pageText(file, 2)).toBe(await pageText(original, 2));
    expect(await pageText(file, 2)).not.toContain('وزارة');
    const [was, is] = [await render(original, 2, COARSE_DPI), await render(file, 2, COARSE_DPI)];
    const [a, b] = [await sharp(was).raw().toBuffer(), await sharp(is).raw().toBuffer()];
    expect(a.equals(b)).toBe(true);
  });

  it('writes Western digits when the organisation chose them', async () => {
    const { bytes } = await stampPdf(await makeLetter(1), FACTS, { ...SETTINGS, digits: 'western' }, QR_TEXT);
    const text = await pageText(save(bytes, 'western'), 1);
    expect(text).toContain(FACTS.number);
    for (const word of ['جمادى الآخرة', '1448', 'نوفمبر']) expect(text).toContain(word);
    expect(text).not.toMatch(/[٠-٩]/);
    expect(await sijillText(bytes)).toContain('التاريخ: 17 جمادى الآخرة 1448 هـ الموافق 27 نوفمبر 2026 م');
  });

  it('carries a QR code of the verification link that reads from a 200 dpi rendering', async () => {
    const { bytes } = await stampPdf(await makeLetter(2), FACTS, SETTINGS, QR_TEXT);
    const png = await render(save(bytes, 'qr'), 1, 200, 'top-start-rtl');
    expect(await qrCodesIn(png)).toEqual([QR_TEXT]);
  });

  const CORNERS: { corner: StampSettings['corner']; direction: StampSettings['direction']; at: string }[] = [
    { corner: 'top-start', direction: 'rtl', at: 'top right' },
    { corner: 'top-start', direction: 'ltr', at: 'top left' },
    { corner: 'bottom-end', direction: 'rtl', at: 'bottom left' },
    { corner: 'bottom-start', direction: 'rtl', at: 'bottom right' },
    { corner: 'top-end', direction: 'ltr', at: 'top right' },
  ];
  for (const { corner, direction, at } of CORNERS) {
    it(`stands ${at}, about 12 mm from the edges, with ${corner} in ${direction}`, async () => {
      const letter = await makeLetter(2);
      const { bytes } = await stampPdf(letter, FACTS, { ...SETTINGS, corner, direction }, QR_TEXT);
      const box = await stampBox(letter, bytes);
      const [vertical, side] = at.split(' ');
      if (side === 'right') expect(box.page.width - box.right).toBeCloseTo(12, -0.5);
      else expect(box.left).toBeCloseTo(12, -0.5);
      if (vertical === 'top') expect(box.top).toBeCloseTo(12, -0.5);
      else expect(box.page.height - box.bottom).toBeCloseTo(12, -0.5);
      // The whole box: 92 mm wide, wider than tall.
      expect(box.right - box.left).toBeCloseTo(92, -0.5);
      expect(box.bottom - box.top).toBeLessThan(60);
    });
  }

  for (const rotate of [90, 180, 270]) {
    it(`stands upright in the top right of a first page turned by ${rotate}°`, async () => {
      const letter = await makeLetter(2, { rotate });
      const { bytes } = await stampPdf(letter, FACTS, SETTINGS, QR_TEXT);
      const box = await stampBox(letter, bytes);
      // Shown turned: a quarter turn shows the A4 page landscape.
      expect(box.page.width).toBeCloseTo(rotate === 180 ? 210 : 297, -0.5);
      expect(box.page.width - box.right).toBeCloseTo(12, -0.5);
      expect(box.top).toBeCloseTo(12, -0.5);
      expect(box.right - box.left).toBeCloseTo(92, -0.5);
      // Upright: the heading's words run across the shown page, English at the left of the Arabic.
      const file = save(bytes, `rot${rotate}`);
      const found = await words(file);
      const english = found.find((w) => w.text === 'Outgoing')!;
      const arabic = found.find((w) => [...w.text].reverse().join('') === 'صادر')!;
      expect(english.xMax - english.xMin).toBeGreaterThan(english.yMax - english.yMin);
      expect(english.xMax).toBeLessThan(arabic.xMin);
      // On one line (the two fonts' boxes differ in height: their middles are compared).
      const middle = (w: { yMin: number; yMax: number }) => (w.yMin + w.yMax) / 2;
      expect(Math.abs(middle(english) - middle(arabic))).toBeLessThan(4);
      expect(await qrCodesIn(await render(file, 1, 200, `rotated-${rotate}`))).toEqual([QR_TEXT]);
    });
  }

  it('stands inside the visible area of a page whose CropBox is offset in its MediaBox', async () => {
    // A 300×350 mm sheet showing an A4 area 40 mm from its left and 25 mm from its bottom.
    const letter = await makeLetter(1, { mediaBox: [850, 992], cropBox: [113, 71, A4[0], A4[1]] });
    const { bytes } = await stampPdf(letter, FACTS, SETTINGS, QR_TEXT);
    const box = await stampBox(letter, bytes);
    expect(box.page.width).toBeCloseTo(210, -0.5);
    expect(box.page.height).toBeCloseTo(297, -0.5);
    expect(box.page.width - box.right).toBeCloseTo(12, -0.5);
    expect(box.top).toBeCloseTo(12, -0.5);
    expect(box.right - box.left).toBeCloseTo(92, -0.5);
    const png = await render(save(bytes, 'cropped'), 1, 200, 'cropped');
    expect(await qrCodesIn(png)).toEqual([QR_TEXT]);
  });

  it('puts a white box under the stamp, hiding the letter beneath it', async () => {
    const letter = await makeLetter(1);
    const { bytes } = await stampPdf(letter, FACTS, { ...SETTINGS, direction: 'ltr' }, QR_TEXT);
    // The letter's lines start 60 pt (21 mm) from the left, under a stamp standing 12 mm from it: the
    // text still reads and the QR code too, which letter text running through them would prevent.
    const png = await render(save(bytes, 'over-text'), 1, 200, 'top-start-ltr');
    expect(await qrCodesIn(png)).toEqual([QR_TEXT]);
  });

  it('refuses an encrypted PDF and a file that is no PDF, saying why', async () => {
    const encrypted = readFileSync(makeEncryptedPdf(dir, { userPassword: 'secret', text: 'Sealed letter' }));
    await expect(stampPdf(encrypted, FACTS, SETTINGS, QR_TEXT)).rejects.toThrow(/encrypted/);
    const garbage = new TextEncoder().encode('This is not a PDF at all, just a few words of text.');
    await expect(stampPdf(garbage, FACTS, SETTINGS, QR_TEXT)).rejects.toThrow(/not a readable PDF/);
    const broken = readFileSync(makeBrokenPdf(dir));
    await expect(stampPdf(broken, FACTS, SETTINGS, QR_TEXT)).rejects.toThrow(/cannot be stamped|no pages/);
  });

  it(
    'reads back by OCR: the organisation’s name in Arabic',
    async () => {
      const { bytes } = await stampPdf(await makeLetter(1), FACTS, SETTINGS, QR_TEXT);
      const file = save(bytes, 'ocr');
      const read = await ocrService.read({ file, page: 1, languages: 'ara+eng', dpi: 300 });
      const text = read.text.normalize('NFKC');
      expect(text).toContain('وزارة');
      expect(text).toMatch(/البلدية|والقروية/);
      expect(text).toContain('Ministry');
    },
    // Tesseract on a whole A4 page, on two busy cores: a guard against a hang, not a speed limit.
    5 * 60_000,
  );
});
