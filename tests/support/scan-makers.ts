/**
 * Scanned pages as a scanning station makes them, for the tests and the benchmark of reading codes
 * (issue 26): any PDF page is rasterised with pdf.js at 200 dpi in grey, optionally with a sticker (any
 * PDF page, e.g. a registration sticker) placed at a given spot on an A4 letter first, then turned by a
 * quarter turn and skewed a few degrees, speckled with grey noise and blurred a little, and the images are
 * wrapped as the pages of a new PDF (pdf-lib), one page per image at the image's size at 200 dpi.
 *
 * `makeStandInSticker` and `makeSeparatorSheet` draw stand-ins with pdf-lib, quick to make and free of
 * fonts: a QR code (`qrcode`'s modules as rectangles, a module ≈ 0.45 mm) and a Code 128 (bwip-js).
 * `placeSticker` takes any PDF bytes, so the real ones (src-server/modules/labels) plug in as well.
 * Everything is deterministic: the noise comes from a seeded generator.
 */
import bwipjs from 'bwip-js/node';
import { PDFDocument, StandardFonts, rgb, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { openPdf } from '../../src-server/pdfjs';
import { SEPARATOR_PAYLOAD, stickerPayload } from '../../src-shared/paper-codes';

/** Points per millimetre. */
const MM = 72 / 25.4;
export const A4 = { width: 210 * MM, height: 297 * MM };

/** A seeded pseudo-random generator (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws a QR code of `text` with its lower left corner at (x, y) in points; answers its side in points. */
function drawQr(page: PDFPage, text: string, x: number, y: number, moduleMm: number): number {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = modules.size;
  const m = moduleMm * MM;
  for (let row = 0; row < size; row++)
    for (let col = 0; col < size; col++)
      if (modules.get(row, col))
        page.drawRectangle({
          x: x + col * m,
          y: y + (size - 1 - row) * m,
          width: m,
          height: m,
          color: rgb(0, 0, 0),
        });
  return size * m;
}

/** A Code 128 of `text` as a PNG of bars only (bwip-js), one pixel a module. */
function code128Png(text: string): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'code128', text, scale: 1, height: 4, includetext: false, paddingwidth: 0 });
}

/** Draws a Code 128 of `text` `width` × `height` points, lower left at (x, y). */
async function drawCode128(
  doc: PDFDocument,
  page: PDFPage,
  text: string,
  box: { x: number; y: number; width: number; height: number },
): Promise<void> {
  const image = await doc.embedPng(await code128Png(text));
  page.drawImage(image, box);
}

/**
 * A stand-in registration sticker for `number` (one page, 50 × 25 mm, or 70 × 35 mm drawn 1.4 times as
 * large): a QR code of `stickerPayload(number)` at the left, the number in text beside it, a Code 128 of
 * the number along the bottom.
 */
export async function makeStandInSticker(
  number: string,
  size: '50x25' | '70x35' = '50x25',
): Promise<Uint8Array> {
  const k = size === '50x25' ? 1 : 1.4;
  const doc = await PDFDocument.create();
  const page = doc.addPage([50 * k * MM, 25 * k * MM]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const qr = drawQr(page, stickerPayload(number), 2 * k * MM, 10 * k * MM, 0.45 * k);
  page.drawText(number, { x: 2 * k * MM + qr + 2 * k * MM, y: 18 * k * MM, size: 7 * k, font });
  page.drawText('Sijill', { x: 2 * k * MM + qr + 2 * k * MM, y: 13 * k * MM, size: 6 * k, font });
  await drawCode128(doc, page, number, {
    x: 2.5 * k * MM,
    y: 1.5 * k * MM,
    width: 45 * k * MM,
    height: 7 * k * MM,
  });
  return doc.save();
}

/** A stand-in separator sheet (A4): "new document" with a large QR code and a Code 128 of SEPARATOR_PAYLOAD. */
export async function makeSeparatorSheet(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([A4.width, A4.height]);
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText('NEW DOCUMENT', { x: 40 * MM, y: 250 * MM, size: 32, font });
  drawQr(page, SEPARATOR_PAYLOAD, 75 * MM, 150 * MM, 2.5);
  await drawCode128(doc, page, SEPARATOR_PAYLOAD, {
    x: 45 * MM,
    y: 100 * MM,
    width: 120 * MM,
    height: 25 * MM,
  });
  return doc.save();
}

const WORDS =
  'the of and to in archive letter ministry request reply council minutes meeting office report budget committee decision copy attached please note regards sincerely received department director public works'.split(
    ' ',
  );

/** An A4 letter of Latin text (`lines` lines of words drawn from `seed`), as a one-page PDF. */
export async function makeLetterPage(seed: number, lines = 30): Promise<Uint8Array> {
  const random = seededRandom(seed);
  const doc = await PDFDocument.create();
  const page = doc.addPage([A4.width, A4.height]);
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  page.drawText(`Reference ${1000 + Math.floor(random() * 9000)}`, {
    x: 25 * MM,
    y: 270 * MM,
    size: 12,
    font,
  });
  for (let i = 0; i < lines; i++) {
    const words = Array.from(
      { length: 9 + Math.floor(random() * 4) },
      () => WORDS[Math.floor(random() * WORDS.length)],
    );
    page.drawText(words.join(' '), { x: 25 * MM, y: (255 - i * 7) * MM, size: 11, font });
  }
  return doc.save();
}

/**
 * A one-page A4 PDF: page `basePage` of `base` (a letter; a blank page when absent) with page 1 of
 * `sticker` placed on it, its top left corner `x` mm from the left and `y` mm from the top of the page.
 */
export async function placeSticker(
  base: Uint8Array | null,
  sticker: Uint8Array,
  at: { x: number; y: number },
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([A4.width, A4.height]);
  if (base) {
    const [letter] = await doc.embedPdf(base, [0]);
    page.drawPage(letter!, { x: 0, y: 0, width: A4.width, height: A4.height });
  }
  const [label] = await doc.embedPdf(sticker, [0]);
  const box = {
    x: at.x * MM,
    y: A4.height - at.y * MM - label!.height,
    width: label!.width,
    height: label!.height,
  };
  // A paper label hides what is under it (a sticker's PDF page itself has no background).
  page.drawRectangle({ ...box, color: rgb(1, 1, 1) });
  page.drawPage(label!, box);
  return doc.save();
}

/** How a page is scanned. */
export interface ScanOptions {
  /** Resolution, dots per inch (200). */
  dpi?: number;
  /** Quarter turns, clockwise degrees (0). */
  rotate?: 0 | 90 | 180 | 270;
  /** Skew in degrees, −5…+5 (0). */
  skew?: number;
  /** Share of pixels set to a random grey, 0…1 (0). */
  noise?: number;
  /** Gaussian blur sigma in pixels, 0 for none, else ≥ 0.3 (0). */
  blur?: number;
  /** Seed of the noise (1). */
  seed?: number;
}

/** Rasterises page `pageNumber` (from 1) of `pdf` with pdf.js as raw grey pixels. */
export async function rasterise(
  pdf: Uint8Array,
  pageNumber = 1,
  dpi = 200,
): Promise<{ data: Buffer; width: number; height: number }> {
  const task = await openPdf({ bytes: pdf.slice() });
  try {
    const doc = await task.promise;
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const width = Math.floor(viewport.width);
    const height = Math.floor(viewport.height);
    type Factory = {
      create(w: number, h: number): { context: unknown; canvas: unknown };
      destroy(e: unknown): void;
    };
    const factory = doc.canvasFactory as Factory;
    const entry = factory.create(width, height);
    type RenderParameters = Parameters<typeof page.render>[0];
    await page.render({
      canvas: null,
      canvasContext: entry.context as RenderParameters['canvasContext'],
      viewport,
      background: 'rgb(255,255,255)',
    }).promise;
    const rgba = (
      entry.context as {
        getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
      }
    ).getImageData(0, 0, width, height).data;
    factory.destroy(entry);
    page.cleanup();
    const data = Buffer.alloc(width * height);
    for (let i = 0, j = 0; j < data.length; i += 4, j++)
      data[j] = (rgba[i]! * 77 + rgba[i + 1]! * 150 + rgba[i + 2]! * 29) >> 8;
    return { data, width, height };
  } finally {
    await task.destroy();
  }
}

/** Scans page `pageNumber` of `pdf` as `options` say: a grey JPEG and its size in pixels and dpi. */
export async function scanPage(
  pdf: Uint8Array,
  options: ScanOptions = {},
  pageNumber = 1,
): Promise<{ jpeg: Buffer; width: number; height: number; dpi: number }> {
  const dpi = options.dpi ?? 200;
  const { data, width, height } = await rasterise(pdf, pageNumber, dpi);
  const angle = (options.rotate ?? 0) + (options.skew ?? 0);
  let turned = sharp(data, { raw: { width, height, channels: 1 } });
  if (angle !== 0) turned = turned.rotate(angle, { background: { r: 255, g: 255, b: 255 } });
  const raw = await turned.greyscale().raw().toBuffer({ resolveWithObject: true });
  const pixels = raw.data;
  const noise = options.noise ?? 0;
  if (noise > 0) {
    const random = seededRandom(options.seed ?? 1);
    const channels = raw.info.channels;
    for (let p = 0; p < raw.info.width * raw.info.height; p++)
      if (random() < noise) {
        const grey = Math.floor(random() * 256);
        for (let c = 0; c < channels; c++) pixels[p * channels + c] = grey;
      }
  }
  let out = sharp(pixels, {
    raw: { width: raw.info.width, height: raw.info.height, channels: raw.info.channels },
  });
  if ((options.blur ?? 0) > 0) out = out.blur(Math.max(0.3, options.blur!));
  // One channel, as a grey scan is (sharp's greyscale alone still writes three).
  const jpeg = await out.greyscale().toColourspace('b-w').jpeg({ quality: 85 }).toBuffer();
  return { jpeg, width: raw.info.width, height: raw.info.height, dpi };
}

/** Wraps scanned images as the pages of a new PDF, each page the image's size at its resolution. */
export async function wrapScans(
  scans: { jpeg: Buffer; width: number; height: number; dpi: number }[],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const scan of scans) {
    const image = await doc.embedJpg(scan.jpeg);
    const width = (scan.width * 72) / scan.dpi;
    const height = (scan.height * 72) / scan.dpi;
    doc.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  }
  return doc.save();
}
