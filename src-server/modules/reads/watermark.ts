/**
 * The reader's watermark on a copy of an attachment that leaves the server (issue 31: a download or a
 * print of a document above the lowest security level): every page gets, along its bottom edge, a line
 * naming the reader (Arabic and English names, the user name) and the time the copy was made, on a white
 * band so it reads on any page. The stored file is never touched: the copy is made from its bytes.
 *
 * The text is set by the labels' Typesetter (Arabic shaped, a text layer that reads back in logical
 * order), so the watermark is found by search and read by OCR; pages are placed upright through the
 * stamp's view of the page (final/stamp.ts `viewOf`: CropBox and /Rotate).
 */
import { PDFDocument, concatTransformationMatrix, popGraphicsState, pushGraphicsState, rgb } from 'pdf-lib';
import { MM } from '../labels/codes';
import { Typesetter } from '../labels/typeset';
import { viewOf } from '../final/stamp';

/** Who the copy is for and when it was made. */
export interface WatermarkFacts {
  nameAr: string;
  nameEn: string;
  username: string;
  /** The time as the reader's organisation tells it (e.g. `2026-05-01 10:23 +03:00`). */
  time: string;
}

/** The watermark's line: the same words on every page. */
export function watermarkLine(f: WatermarkFacts): string {
  // The names in both languages and the user name: each reads back whole whatever the reader's language.
  return `نسخة ${f.nameAr} — Copy for ${f.nameEn} (${f.username}) — ${f.time}`;
}

/** Answers a copy of `original` with the reader's watermark on every page (the original bytes unchanged). */
export async function watermarkPdf(original: Uint8Array, facts: WatermarkFacts): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(original, { updateMetadata: false });
  const ts = await Typesetter.create(pdf);
  const line = watermarkLine(facts);
  for (const page of pdf.getPages()) {
    // The page's own content in q … Q: a transformation it leaves behind does not move the watermark.
    page.node.normalize();
    const view = viewOf(page);
    const margin = 6 * MM;
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...view.matrix));
    // The line at 7 pt, or broken into lines at 5 pt on a page too narrow for it (never cut short: the
    // name and the time are what the watermark is for).
    const maxWidth = view.width - 2 * margin - 4 * MM;
    let size = 7;
    let lines = [line];
    if (ts.width(line, { size, dir: 'rtl' }) > maxWidth) {
      size = 5;
      lines = ts.wrap(line, maxWidth, { size, dir: 'rtl' });
    }
    const leading = size * 1.3;
    const width = Math.min(
      Math.max(...lines.map((l) => ts.width(l, { size, dir: 'rtl' }))) + 4 * MM,
      view.width - 2 * margin,
    );
    // A white band under the lines along the bottom, so they read on any page.
    page.drawRectangle({
      x: (view.width - width) / 2,
      y: margin - 1.5 * MM,
      width,
      height: leading * lines.length + 3 * MM,
      color: rgb(1, 1, 1),
      opacity: 0.85,
    });
    lines.forEach((text, i) =>
      ts.draw(
        page,
        text,
        { x: view.width / 2, y: margin + leading * (lines.length - 1 - i), align: 'center' },
        { size, dir: 'rtl', gray: 0.25 },
      ),
    );
    page.pushOperators(popGraphicsState());
  }
  await ts.finish();
  return pdf.save();
}
