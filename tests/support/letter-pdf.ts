/**
 * A letter as an author writes it, and the facts and settings of a sample stamp: for the final-letter
 * tests and benchmarks (issue 27).
 */
import {
  PDFDocument,
  StandardFonts,
  concatTransformationMatrix,
  degrees,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';
import { randomBytes } from 'node:crypto';
import type { LetterFacts, StampSettings } from '../../src-server/modules/final/types';

export const A4: [number, number] = [595.28, 841.89];

export interface LetterOptions {
  /**
   * Lines of body text per page: 1 (the default) writes `Letter body, page <n>` once, lower on the page;
   * more fill the page from its top (`Page <n>, line <l>: …`).
   */
  lines?: number;
  /** The first page turned, or of another size and cropped. */
  first?: { rotate?: number; mediaBox?: [number, number]; cropBox?: [number, number, number, number] };
  /** Each page also shows an image of random pixels of about this many KB (a scanned letter's weight). */
  imageKB?: number;
}

/** A letter of `pages` A4 pages of Latin text (the stamp brings the Arabic). */
export async function letterPdf(pages = 2, options: LetterOptions = {}): Promise<Buffer> {
  const { lines = 1, first = {}, imageKB = 0 } = options;
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n += 1) {
    const page = pdf.addPage(n === 1 && first.mediaBox ? first.mediaBox : A4);
    if (lines === 1) page.drawText(`Letter body, page ${n}`, { x: 72, y: 600, size: 14, font });
    else {
      const top = page.getHeight() - 60;
      for (let line = 0; line < lines; line += 1)
        page.drawText(`Page ${n}, line ${line + 1}: the archive keeps every letter it sends.`, {
          x: 60,
          y: top - line * 22,
          size: 11,
          font,
        });
    }
    if (imageKB) {
      // A grey-scale raw image (no compression helps random pixels): side² bytes ≈ imageKB.
      const side = Math.round(Math.sqrt(imageKB * 1024));
      const image = pdf.context.stream(randomBytes(side * side), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: side,
        Height: side,
        ColorSpace: 'DeviceGray',
        BitsPerComponent: 8,
      });
      const name = page.node.newXObject('Scan', pdf.context.register(image));
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(483, 0, 0, 483, 56, 40),
        drawObject(name),
        popGraphicsState(),
      );
    }
    if (n === 1 && first.cropBox) page.setCropBox(...first.cropBox);
    if (n === 1 && first.rotate) page.setRotation(degrees(first.rotate));
  }
  return Buffer.from(await pdf.save());
}

/** What a sample stamp says. */
export const SAMPLE_FACTS: LetterFacts = {
  organisation: { ar: 'وزارة الشؤون البلدية والقروية', en: 'Ministry of Municipal and Rural Affairs' },
  number: 'OUT-2026-000012',
  approvedAt: new Date('2026-11-27T09:30:00Z'),
  signatory: {
    nameAr: 'أحمد بن محمد العتيبي',
    nameEn: 'Ahmad bin Mohammed Al-Otaibi',
    jobAr: 'مدير الإدارة العامة',
    jobEn: 'Director General',
  },
  kind: 'outgoing',
};

/** The default stamp: top right of an Arabic letter, Arabic-Indic digits. */
export const SAMPLE_STAMP: StampSettings = {
  corner: 'top-start',
  direction: 'rtl',
  digits: 'arabic-indic',
  headingAr: 'صادر',
  headingEn: 'Outgoing',
};

export const SAMPLE_QR = 'https://sijill.example.org/verify/OUT-2026-000012?c=8f3a2b1c9d7e6f50';
