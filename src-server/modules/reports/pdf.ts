/**
 * A report as a printable PDF: A4 landscape pages in the report's language — Arabic set right to left
 * (the first column at the right edge), English left to right — with the title, the period and when it
 * was made on the first page, the column headers repeated on every page, and "page n of m" in the footer.
 * Set with the labels' typesetter (bidi-js ordering, fontkit shaping, the Noto fonts embedded), as the
 * certificate of destruction is, so Arabic text reads back from the PDF. A PDF is made in memory (pdf-lib),
 * so exports to PDF stop at PDF_MAX_ROWS (a larger report goes to Excel).
 */
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import type { ReportCell, ReportColumn } from '../../../src-shared/api/reports';
import type { Locale } from '../../../src-shared/locale';
import { MM } from '../labels/codes';
import { Typesetter } from '../labels/typeset';
import type { SheetHeading } from './xlsx';

/** The most rows a PDF export prints (about 250 pages). */
export const PDF_MAX_ROWS = 10_000;

const PAGE = { width: 297 * MM, height: 210 * MM };
const MARGIN = 12 * MM;
const SIZE = 8;
const ROW = SIZE * 1.9;

/** How wide each type of column is, relative to the others. */
const WEIGHT: Record<ReportColumn['type'], number> = {
  text: 3,
  number: 1.1,
  date: 1.4,
  month: 1.1,
  days: 1,
  percent: 1,
};

/** A cell as printed: numbers with at most one decimal, shares with a percent sign. */
function textOf(cell: ReportCell, type: ReportColumn['type']): string {
  if (cell === null) return '';
  if (typeof cell === 'number') {
    const n = Number.isInteger(cell) ? String(cell) : cell.toFixed(1);
    return type === 'percent' ? `${n}%` : n;
  }
  return cell;
}

const numeric = (type: ReportColumn['type']) => type !== 'text';

export async function writePdf(
  lang: Locale,
  heading: SheetHeading,
  pageLabel: (page: number, pages: number) => string,
  columns: ReportColumn[],
  batches: AsyncIterable<ReportCell[][]>,
  onBatch: (rows: number) => Promise<void>,
): Promise<{ bytes: Uint8Array; rows: number }> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(heading.title);
  pdf.setProducer('Sijill');
  pdf.setCreator('Sijill');
  const ts = await Typesetter.create(pdf);
  const rtl = lang === 'ar';
  const dir: 'rtl' | 'ltr' = rtl ? 'rtl' : 'ltr';
  const inner = PAGE.width - 2 * MARGIN;
  const total = columns.reduce((s, c) => s + WEIGHT[c.type], 0);
  const widths = columns.map((c) => (inner * WEIGHT[c.type]) / total);
  // Each column's start edge, in reading order: from the right in Arabic, from the left in English.
  const starts: number[] = [];
  let edge = 0;
  for (const w of widths) {
    starts.push(rtl ? PAGE.width - MARGIN - edge : MARGIN + edge);
    edge += w;
  }
  const pad = 1.5 * MM;
  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;

  const cellAt = (i: number, text: string, yy: number, bold: boolean) => {
    const w = widths[i]! - 2 * pad;
    if (!text) return;
    const type = columns[i]!.type;
    // Numbers and dates read as one left-to-right piece in either language.
    const style = numeric(type)
      ? { size: SIZE, bold, dir: 'ltr' as const, script: 'latin' as const }
      : { size: SIZE, bold, dir };
    const x = rtl ? starts[i]! - pad : starts[i]! + pad;
    ts.draw(page, text, { x, y: yy, align: rtl ? 'right' : 'left', maxWidth: w, minSize: SIZE * 0.7 }, style);
  };
  const headerRow = () => {
    page.drawRectangle({
      x: MARGIN,
      y: y - ROW * 0.35,
      width: inner,
      height: ROW,
      color: rgb(0.91, 0.93, 0.96),
    });
    heading.headers.forEach((h, i) => cellAt(i, h, y, true));
    y -= ROW;
  };
  const newPage = () => {
    page = pdf.addPage([PAGE.width, PAGE.height]);
    pages.push(page);
    y = PAGE.height - MARGIN - 4;
    if (pages.length === 1) {
      const at = rtl ? PAGE.width - MARGIN : MARGIN;
      ts.draw(
        page,
        heading.title,
        { x: at, y, align: rtl ? 'right' : 'left' },
        { size: 16, bold: true, dir },
      );
      y -= 8 * MM;
      for (const line of heading.lines) {
        ts.draw(page, line, { x: at, y, align: rtl ? 'right' : 'left' }, { size: 9, dir, gray: 0.3 });
        y -= 5 * MM;
      }
      y -= 2 * MM;
    }
    headerRow();
  };
  newPage();
  let written = 0;
  for await (const batch of batches) {
    for (const cells of batch) {
      if (y < MARGIN + 8 * MM) newPage();
      cells.forEach((cell, i) => cellAt(i, textOf(cell, columns[i]!.type), y, false));
      page.drawLine({
        start: { x: MARGIN, y: y - ROW * 0.35 },
        end: { x: PAGE.width - MARGIN, y: y - ROW * 0.35 },
        thickness: 0.3,
        color: rgb(0.85, 0.85, 0.85),
      });
      y -= ROW;
    }
    written += batch.length;
    await onBatch(written);
  }
  pages.forEach((p, i) =>
    ts.draw(
      p,
      pageLabel(i + 1, pages.length),
      { x: PAGE.width / 2, y: MARGIN / 2, align: 'center' },
      { size: 8, dir, gray: 0.4 },
    ),
  );
  await ts.finish();
  return { bytes: await pdf.save({ useObjectStreams: true }), rows: written };
}
