/**
 * A report as a printable PDF: A4 landscape pages in the report's language — Arabic set right to left
 * (the first column at the right edge), English left to right — with the title, the period and when it
 * was made on the first page, the column headers repeated on every page, and "page n of m" in the footer.
 * Set with the labels' typesetter (bidi-js ordering, fontkit shaping, the Noto fonts embedded), as the
 * certificate of destruction is, so Arabic text reads back from the PDF.
 *
 * The typesetter draws a glyph at a time (its own text matrix, and the dots of Arabic letters as
 * outlines), which is many PDF operators a cell: kept as pdf-lib's objects until the document is saved,
 * they took 1.6 GB of heap for 10,000 rows (bench/reports-export). So each page is written out (deflated)
 * as soon as it is full — the number of pages is known beforehand from the report's row count, so its
 * footer is drawn then — and a cell's text met again and again (a kind, a department, a day; the headers
 * of every page) is set once into a form XObject, then only placed. pdf-lib still holds the finished
 * document (a few megabytes) until it is saved, so exports to PDF stop at PDF_MAX_ROWS (a larger report
 * goes to Excel).
 */
import {
  PDFDocument,
  PDFPage,
  concatTransformationMatrix,
  degrees,
  drawLine,
  drawObject,
  drawRectangle,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  type PDFName,
  type PDFOperator,
  type PDFRef,
} from 'pdf-lib';
import type { ReportCell, ReportColumn } from '../../../src-shared/api/reports';
import type { Locale } from '../../../src-shared/locale';
import { MM } from '../labels/codes';
import { Typesetter } from '../labels/typeset';
import type { SheetHeading } from './xlsx';

/** The most rows a PDF export prints (about 310 pages). */
export const PDF_MAX_ROWS = 10_000;

const PAGE = { width: 297 * MM, height: 210 * MM };
const MARGIN = 12 * MM;
const SIZE = 8;
const ROW = SIZE * 1.9;
/** Where a page's first line is set, and the lowest a row may start. */
const TOP = PAGE.height - MARGIN - 4;
const BOTTOM = MARGIN + 8 * MM;
/**
 * Columns of codes (a document's number): set a character at a time (the typesetter's `plain`), as codes
 * are on labels. Shaped whole, every number was a text fontkit had not laid out yet (a millisecond each).
 */
const CODES = new Set(['docNumber']);
/**
 * A text becomes a form when met this many times: a letter's subject and number come twice (its reply due
 * and its task), and a form of its own for two uses is larger than the text drawn twice.
 */
const FORM_AFTER = 3;
/** Texts counted at most (beyond it, a text met for the first time is only drawn). */
const MET_MAX = 50_000;

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

/** Operators as the bytes of a content stream (what pdf-lib writes for them when it saves a page). */
function contentOf(ops: PDFOperator[]): Uint8Array {
  let size = 0;
  for (const op of ops) size += op.sizeInBytes() + 1;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const op of ops) {
    at += op.copyBytesInto(bytes, at);
    bytes[at++] = 0x0a;
  }
  return bytes;
}

/**
 * Writes the report's `total` rows, read from `batches` (`onBatch` hears how many so far), and answers the
 * document's bytes. `total` must be the number of rows the batches hold: the footer's page count is drawn
 * from it as each page is made (a different count fails the export rather than misnumber its pages).
 */
export async function writePdf(
  lang: Locale,
  heading: SheetHeading,
  pageLabel: (page: number, pages: number) => string,
  columns: ReportColumn[],
  total: number,
  batches: AsyncIterable<ReportCell[][]>,
  onBatch: (rows: number) => Promise<void>,
): Promise<{ bytes: Uint8Array; rows: number }> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(heading.title);
  pdf.setProducer('Sijill');
  pdf.setCreator('Sijill');
  const { context } = pdf;
  const ts = await Typesetter.create(pdf);
  const rtl = lang === 'ar';
  const dir: 'rtl' | 'ltr' = rtl ? 'rtl' : 'ltr';
  const inner = PAGE.width - 2 * MARGIN;
  const weights = columns.reduce((s, c) => s + WEIGHT[c.type], 0);
  const widths = columns.map((c) => (inner * WEIGHT[c.type]) / weights);
  // Each column's start edge, in reading order: from the right in Arabic, from the left in English.
  const starts: number[] = [];
  let edge = 0;
  for (const w of widths) {
    starts.push(rtl ? PAGE.width - MARGIN - edge : MARGIN + edge);
    edge += w;
  }
  const pad = 1.5 * MM;

  /** Where the first row of a page is set: under the header row (and under the title on the first page). */
  const firstRowY = (first: boolean) => {
    let y = TOP;
    if (first) {
      y -= 8 * MM;
      for (let i = 0; i < heading.lines.length; i++) y -= 5 * MM;
      y -= 2 * MM;
    }
    return y - ROW;
  };
  /** How many rows a page holds from `y` down (the same steps as the rows drawn). */
  const capacity = (y: number) => {
    let n = 0;
    for (; y >= BOTTOM; y -= ROW) n++;
    return n;
  };
  const onFirst = capacity(firstRowY(true));
  const onOthers = capacity(firstRowY(false));
  const pages = total <= onFirst ? 1 : 1 + Math.ceil((total - onFirst) / onOthers);

  // The page being made: its operators, collected here and written out when it is full.
  let page!: PDFPage;
  let ops: PDFOperator[] = [];
  let pageNumber = 0;
  let y = 0;
  let rowsLeft = 0;
  /** The names of the forms on this page's resources. */
  let placedForms = new Map<PDFRef, PDFName>();

  // Forms are set on a page of their own that is never added (the typesetter draws on a page), whose
  // resources (the fonts) are the forms' resources too.
  const scratch = PDFPage.create(pdf);
  scratch.node.normalize();
  const formResources = context.register(scratch.node.Resources()!);
  let formOps: PDFOperator[] = [];
  scratch.pushOperators = (...more) => void formOps.push(...more);
  const forms = new Map<string, PDFRef>();
  /** How many times each text not yet a form was met. */
  const met = new Map<string, number>();

  /** Sets a cell's text on `target` at `yy`, as the typesetter does (fits it into its column). */
  const setCell = (target: PDFPage, i: number, text: string, yy: number, bold: boolean) => {
    const w = widths[i]! - 2 * pad;
    // Numbers and dates read as one left-to-right piece in either language.
    const style = numeric(columns[i]!.type)
      ? { size: SIZE, bold, dir: 'ltr' as const, script: 'latin' as const }
      : { size: SIZE, bold, dir, plain: !bold && CODES.has(columns[i]!.key) };
    const x = rtl ? starts[i]! - pad : starts[i]! + pad;
    ts.draw(
      target,
      text,
      { x, y: yy, align: rtl ? 'right' : 'left', maxWidth: w, minSize: SIZE * 0.7 },
      style,
    );
  };
  /** A cell's text: placed as its form once met FORM_AFTER times, else drawn (and counted). */
  const cellAt = (i: number, text: string, yy: number, bold: boolean) => {
    if (!text) return;
    const key = `${i}${bold ? 'b' : ''}\u0000${text}`;
    let form = forms.get(key);
    const times = form ? 0 : (met.get(key) ?? 0) + 1;
    if (times >= FORM_AFTER) {
      met.delete(key);
      formOps = [];
      setCell(scratch, i, text, 0, bold);
      form = context.register(
        context.flateStream(contentOf(formOps), {
          Type: 'XObject',
          Subtype: 'Form',
          BBox: [0, -2 * ROW, PAGE.width, 2 * ROW],
          Resources: formResources,
        }),
      );
      forms.set(key, form);
    }
    if (form) {
      let name = placedForms.get(form);
      if (!name) placedForms.set(form, (name = page.node.newXObject('Cell', form)));
      ops.push(
        pushGraphicsState(),
        concatTransformationMatrix(1, 0, 0, 1, 0, yy),
        drawObject(name),
        popGraphicsState(),
      );
      return;
    }
    if (times > 1 || met.size < MET_MAX) met.set(key, times);
    setCell(page, i, text, yy, bold);
  };
  /** Writes the page being made into the document (deflated): its operators are let go. */
  const finishPage = () => {
    page.node.addContentStream(context.register(context.flateStream(contentOf(ops))));
    ops = [];
  };
  const newPage = () => {
    if (page) finishPage();
    if (++pageNumber > pages) throw new Error(`the report holds more rows than the ${total} it counted`);
    page = pdf.addPage([PAGE.width, PAGE.height]);
    // The typesetter draws through pushOperators: into this page's operators, written when it is full.
    page.pushOperators = (...more) => void ops.push(...more);
    placedForms = new Map();
    y = TOP;
    const first = pageNumber === 1;
    if (first) {
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
    ops.push(
      ...drawRectangle({
        x: MARGIN,
        y: y - ROW * 0.35,
        width: inner,
        height: ROW,
        borderWidth: 0,
        color: rgb(0.91, 0.93, 0.96),
        borderColor: undefined,
        rotate: degrees(0),
        xSkew: degrees(0),
        ySkew: degrees(0),
      }),
    );
    heading.headers.forEach((h, i) => cellAt(i, h, y, true));
    y -= ROW;
    rowsLeft = first ? onFirst : onOthers;
    ts.draw(
      page,
      pageLabel(pageNumber, pages),
      { x: PAGE.width / 2, y: MARGIN / 2, align: 'center' },
      { size: 8, dir, gray: 0.4 },
    );
  };
  newPage();
  let written = 0;
  for await (const batch of batches) {
    for (const cells of batch) {
      if (rowsLeft === 0) newPage();
      cells.forEach((cell, i) => cellAt(i, textOf(cell, columns[i]!.type), y, false));
      ops.push(
        ...drawLine({
          start: { x: MARGIN, y: y - ROW * 0.35 },
          end: { x: PAGE.width - MARGIN, y: y - ROW * 0.35 },
          thickness: 0.3,
          color: rgb(0.85, 0.85, 0.85),
        }),
      );
      y -= ROW;
      rowsLeft--;
    }
    written += batch.length;
    await onBatch(written);
  }
  if (pageNumber !== pages) throw new Error(`the report holds ${written} rows, not the ${total} it counted`);
  finishPage();
  context.delete(scratch.ref);
  await ts.finish();
  return { bytes: await pdf.save({ useObjectStreams: true }), rows: written };
}
