/**
 * Stickers, cover and separator sheets (src-server/modules/labels): each PDF is read back the way Sijill
 * reads PDFs (pdf.js text layer laid out by src-shared/text-layout.ts), rendered at 200 dpi — a plain
 * office scan — and its codes decoded with zxing. Renderings are kept in /tmp/labels-*.png to look at.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, PDFDict, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import {
  arabicIndicDigits,
  coverSheetPdf,
  separatorSheetPdf,
  stickerPdf,
  type LabelDocument,
} from '../../src-server/modules/labels';
import { Typesetter } from '../../src-server/modules/labels/typeset';
import { loadFonts } from '../../src-server/modules/labels/fonts';
import { openPdf } from '../../src-server/pdfjs';
import { SEPARATOR_PAYLOAD, coverPayload, stickerPayload } from '../../src-shared/paper-codes';
import { layoutPageText, type PositionedText } from '../../src-shared/text-layout';

const DOC: LabelDocument = {
  number: 'IN-2026-000123',
  registeredAt: '2026-11-27T09:30:00Z',
  direction: 'in',
  entity: { ar: 'الإدارة العامة للسجلات والمحفوظات', en: 'General Directorate of Records and Archives' },
  subject: 'طلب تجديد عقد الصيانة (Contract 2026/17) لمبنى الأرشيف المركزي',
};

const MM = 72 / 25.4;
const DPI = 200;

interface CanvasEntry {
  canvas: { toBuffer(type: 'image/png'): Uint8Array };
  context: unknown;
}

/** Opens a PDF's first page: its size in mm, its text as the search reads it, a 200 dpi PNG. */
async function readBack(bytes: Uint8Array, name: string) {
  const task = await openPdf({ bytes: bytes.slice() });
  try {
    const pdf = await task.promise;
    const page = await pdf.getPage(1);
    const [x0, y0, x1, y1] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const items = content.items.filter((item): item is typeof item & PositionedText => 'str' in item);
    const text = layoutPageText(items);
    const viewport = page.getViewport({ scale: DPI / 72 });
    const factory = pdf.canvasFactory as {
      create(w: number, h: number): CanvasEntry;
      destroy(e: CanvasEntry): void;
    };
    const entry = factory.create(Math.floor(viewport.width), Math.floor(viewport.height));
    type RenderParameters = Parameters<typeof page.render>[0];
    await page.render({
      canvas: null,
      canvasContext: entry.context as RenderParameters['canvasContext'],
      viewport,
      background: 'rgb(255,255,255)',
    }).promise;
    const png = entry.canvas.toBuffer('image/png');
    factory.destroy(entry);
    await writeFile(`/tmp/labels-${name}.png`, png);
    return { pages: pdf.numPages, widthMm: (x1 - x0) / MM, heightMm: (y1 - y0) / MM, text, png };
  } finally {
    await task.destroy();
  }
}

async function codesIn(png: Uint8Array) {
  const results = await readBarcodes(png, {
    formats: ['QRCode', 'Code128'],
    tryHarder: true,
    maxNumberOfSymbols: 8,
  });
  return results.filter((r) => r.isValid).map((r) => ({ format: r.format, text: r.text }));
}

/** Every glyph outline of every font embedded in the PDF, parsed again from the file. */
async function embeddedGlyphs(bytes: Uint8Array) {
  const pdf = await PDFDocument.load(bytes);
  const fonts: { name: string; empty: number; glyphs: number }[] = [];
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || !object.has(PDFName.of('FontFile2'))) continue;
    const stream = pdf.context.lookup(object.get(PDFName.of('FontFile2')));
    if (!(stream instanceof PDFRawStream)) throw new Error('FontFile2 is not a stream');
    const font = fontkit.create(decodePDFRawStream(stream).decode()) as unknown as {
      numGlyphs: number;
      getGlyph(id: number): { path: { commands: unknown[] } };
    };
    let empty = 0;
    for (let id = 1; id < font.numGlyphs; id += 1)
      if (font.getGlyph(id).path.commands.length === 0) empty += 1;
    fonts.push({ name: String(object.get(PDFName.of('FontName'))), empty, glyphs: font.numGlyphs - 1 });
  }
  return fonts;
}

beforeAll(async () => {
  // The package exports no package.json: its entry point is found, and the WASM file beside it.
  const entry = createRequire(import.meta.url).resolve('zxing-wasm/reader');
  const wasm = await readFile(join(dirname(entry), '../../reader/zxing_reader.wasm'));
  await prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
    fireImmediately: true,
  });
});

const STICKERS = [
  { size: '50x25', name: 'sticker-50x25', width: 50, height: 25 },
  { size: '70x35', name: 'sticker-70x35', width: 70, height: 35 },
  { size: 'a4-24', name: 'sticker-a4-24', width: 210, height: 297, position: 14 },
] as const;

describe('stickers', () => {
  for (const sticker of STICKERS) {
    it(`${sticker.size}: page size, both digit forms, both names, and both codes read back`, async () => {
      const bytes = await stickerPdf(DOC, {
        size: sticker.size,
        position: 'position' in sticker ? sticker.position : undefined,
      });
      const page = await readBack(bytes, sticker.name);
      expect(page.pages).toBe(1);
      expect(page.widthMm).toBeCloseTo(sticker.width, 1);
      expect(page.heightMm).toBeCloseTo(sticker.height, 1);
      expect(page.text).toContain(DOC.number);
      expect(page.text).toContain(arabicIndicDigits(DOC.number));
      expect(page.text).toContain(DOC.entity.ar);
      expect(page.text).toContain(DOC.entity.en);
      expect(page.text).toContain('جمادى الآخرة');
      expect(page.text).toContain('وارد');
      expect(page.text).toContain('Incoming');
      const codes = await codesIn(page.png);
      expect(codes).toContainEqual({ format: 'QRCode', text: stickerPayload(DOC.number) });
      expect(codes).toContainEqual({ format: 'Code128', text: DOC.number });
    });
  }

  it('puts an A4 sheet label at its position: 3 columns × 8 rows of 70×37 mm from the top left', async () => {
    const first = await readBack(await stickerPdf(DOC, { size: 'a4-24', position: 1 }), 'sticker-a4-pos1');
    const last = await readBack(await stickerPdf(DOC, { size: 'a4-24', position: 24 }), 'sticker-a4-pos24');
    const pdfFirst = await PDFDocument.load(await stickerPdf(DOC, { size: 'a4-24', position: 1 }));
    expect(pdfFirst.getPageCount()).toBe(1);
    // Where the ink is: the first label in the top left cell, the last in the bottom right one.
    const { default: sharp } = await import('sharp');
    const inkBox = async (png: Uint8Array) => {
      const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
      let minX = info.width;
      let minY = info.height;
      let maxX = 0;
      let maxY = 0;
      for (let y = 0; y < info.height; y += 1)
        for (let x = 0; x < info.width; x += 1)
          if (data[y * info.width + x]! < 128) {
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x);
            minY = Math.min(minY, y);
            maxY = Math.max(maxY, y);
          }
      const mm = (px: number) => (px / DPI) * 25.4;
      return { left: mm(minX), right: mm(maxX), top: mm(minY), bottom: mm(maxY) };
    };
    /** The sheet's cell (1–24, left to right, top to bottom) holding a point in millimetres. */
    const cellAt = (x: number, y: number) => Math.floor((y - 0.5) / 37) * 3 + Math.floor(x / 70) + 1;
    /** The cells the ink's four corners fall in: one cell when the label stays inside its own. */
    const cellsOf = (box: { left: number; right: number; top: number; bottom: number }) => [
      ...new Set([
        cellAt(box.left, box.top),
        cellAt(box.right, box.top),
        cellAt(box.left, box.bottom),
        cellAt(box.right, box.bottom),
      ]),
    ];
    expect(cellsOf(await inkBox(first.png))).toEqual([1]);
    expect(cellsOf(await inkBox(last.png))).toEqual([24]);
  });

  it('fits a long entity name and a seven-digit number on the small label, codes still reading', async () => {
    const memo: LabelDocument = {
      number: 'MEMO-2026-1234567',
      registeredAt: '2026-03-01T12:00:00Z',
      direction: 'memo',
      entity: {
        ar: 'وزارةُ الشؤونِ البلدية والقروية والإسكان — الإدارة العامة للاتصالات الإدارية والأرشيف',
        en: 'Ministry of Municipal, Rural Affairs and Housing — General Directorate of Administrative Communications and Archives',
      },
    };
    const page = await readBack(await stickerPdf(memo, { size: '50x25' }), 'sticker-50x25-long');
    expect(page.text).toContain(memo.number);
    expect(page.text).toContain(arabicIndicDigits(memo.number));
    expect(page.text).toContain('مذكرة داخلية');
    // The names give way to an ellipsis rather than run into the codes.
    expect(page.text).toContain('Ministry of Municipal');
    expect(page.text).toContain('…');
    const codes = await codesIn(page.png);
    expect(codes).toContainEqual({ format: 'QRCode', text: stickerPayload(memo.number) });
    expect(codes).toContainEqual({ format: 'Code128', text: memo.number });
  });

  it('refuses a position off the sheet', async () => {
    await expect(stickerPdf(DOC, { size: 'a4-24', position: 25 })).rejects.toThrow(RangeError);
    await expect(stickerPdf(DOC, { size: 'a4-24', position: 0 })).rejects.toThrow(RangeError);
  });
});

describe('cover sheet', () => {
  it('is A4, says what it is in both languages, and carries the cover code twice over', async () => {
    const page = await readBack(await coverSheetPdf(DOC), 'cover');
    expect(page.widthMm).toBeCloseTo(210, 1);
    expect(page.heightMm).toBeCloseTo(297, 1);
    expect(page.text).toContain('ورقة غلاف');
    expect(page.text).toContain('Cover sheet');
    expect(page.text).toContain(DOC.number);
    expect(page.text).toContain(arabicIndicDigits(DOC.number));
    expect(page.text).toContain(DOC.entity.ar);
    expect(page.text).toContain('General Directorate of Records');
    expect(page.text).toContain('طلب تجديد عقد الصيانة');
    expect(page.text).toContain('Contract 2026/17');
    const codes = await codesIn(page.png);
    expect(codes).toContainEqual({ format: 'QRCode', text: coverPayload(DOC.number) });
    expect(codes).toContainEqual({ format: 'Code128', text: coverPayload(DOC.number) });
  });
});

describe('separator sheet', () => {
  it('is A4, says so in both languages, and carries the separator code at the top and the bottom', async () => {
    const page = await readBack(await separatorSheetPdf(), 'separator');
    expect(page.widthMm).toBeCloseTo(210, 1);
    expect(page.heightMm).toBeCloseTo(297, 1);
    expect(page.text).toContain('معاملة جديدة');
    expect(page.text).toContain('New document');
    const codes = await codesIn(page.png);
    expect(codes.filter((c) => c.format === 'QRCode' && c.text === SEPARATOR_PAYLOAD)).toHaveLength(2);
    expect(codes.filter((c) => c.format === 'Code128' && c.text === SEPARATOR_PAYLOAD)).toHaveLength(2);
  });
});

describe('typesetting', () => {
  it('joins Arabic letters and lays them out right to left', async () => {
    const ts = await Typesetter.create(await PDFDocument.create());
    const { arabic } = await loadFonts();
    const word = ts.shape('سجل', { size: 10 });
    const drawn = word.glyphs.filter((g) => g.text);
    // Visual order: the last letter (lam) leftmost, the first (seen) rightmost.
    expect(drawn.map((g) => g.text)).toEqual(['ل', 'ج', 'س']);
    // Joined forms, not the isolated letters the character map gives.
    for (const g of drawn) {
      const plain = (
        arabic.font as unknown as { glyphForCodePoint(cp: number): { id: number } }
      ).glyphForCodePoint(g.text.codePointAt(0)!);
      expect(g.glyph.id).not.toBe(plain.id);
    }
    // Joined, the word is narrower than its letters set apart.
    const apart = ['س', 'ج', 'ل'].reduce((w, ch) => w + ts.width(ch, { size: 10 }), 0);
    expect(word.width).toBeLessThan(apart * 0.9);
  });

  it('keeps a number left to right inside Arabic and mirrors brackets', async () => {
    const ts = await Typesetter.create(await PDFDocument.create());
    const line = ts.shape('العدد (12) هنا', { size: 10 });
    // From the left: هنا, the closing bracket, 1, 2, the opening bracket, العدد.
    const visible = line.glyphs.filter((g) => /[\d()]/.test(g.text));
    expect(visible.map((g) => g.text)).toEqual([')', '1', '2', '(']);
    // The brackets are drawn mirrored: the closing one as "(" on the left, the opening one as ")".
    expect(visible.map((g) => String.fromCodePoint(...g.glyph.codePoints))).toEqual(['(', '1', '2', ')']);
    const xOf = (letter: string) => line.glyphs.find((g) => g.text === letter)!.x;
    expect(xOf('ه')).toBeLessThan(visible[0]!.x); // هنا
    expect(xOf('ع')).toBeGreaterThan(visible[3]!.x); // العدد
  });

  it('embeds fonts whose glyphs all have outlines (no broken subset)', async () => {
    const fonts = await embeddedGlyphs(await stickerPdf(DOC, { size: '70x35' }));
    expect(fonts.length).toBeGreaterThanOrEqual(3);
    // Only the space may be empty.
    for (const font of fonts) expect(font.empty, font.name).toBeLessThanOrEqual(1);
  });
});
