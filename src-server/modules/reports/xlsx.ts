/**
 * A report as an Excel workbook (exceljs' streaming WorkbookWriter: each row is written to the zip as it
 * comes and forgotten, so memory stays flat whatever the number of rows). One sheet, right to left in
 * Arabic (`views.rightToLeft`), left to right in English; a title, the period and when it was made above
 * the localised column headers (frozen, with a filter); real values in the cells — days and months as
 * Excel dates, counts and working days as numbers, shares as percentages — never text that looks like them.
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { ReportCell, ReportColumn } from '../../../src-shared/api/reports';
import type { Locale } from '../../../src-shared/locale';

/** What the sheet says above its table. */
export interface SheetHeading {
  title: string;
  /** Lines under the title (the period, the filters, when it was made). */
  lines: string[];
  /** The columns' headers, in column order. */
  headers: string[];
}

/** The row of the column headers (1-based): title, lines, a blank row, then the headers. */
export const headerRowOf = (heading: SheetHeading) => heading.lines.length + 3;

/** A day `YYYY-MM-DD` or a month `YYYY-MM` as the instant Excel reads as that day (UTC midnight). */
function dateOf(value: string): Date {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d ?? 1));
}

/** The cell's value as Excel should hold it. */
function valueOf(cell: ReportCell, type: ReportColumn['type']): ExcelJS.CellValue {
  if (cell === null) return null;
  switch (type) {
    case 'date':
    case 'month':
      return typeof cell === 'string' ? dateOf(cell) : cell;
    case 'percent':
      // A share of 0..100 is the fraction Excel formats as a percentage.
      return typeof cell === 'number' ? cell / 100 : cell;
    default:
      return cell;
  }
}

const FORMATS: Record<ReportColumn['type'], string | undefined> = {
  text: undefined,
  number: '#,##0',
  date: 'yyyy-mm-dd',
  month: 'yyyy-mm',
  days: '0.0',
  percent: '0.0%',
};

const WIDTHS: Record<ReportColumn['type'], number> = {
  text: 28,
  number: 12,
  date: 13,
  month: 10,
  days: 10,
  percent: 10,
};

/** Characters a sheet's name may not hold, and its length limit (Excel's). */
const sheetName = (title: string) => title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31);

/**
 * Writes the workbook to `stream` from the batches of rows; `onBatch` hears how many rows are written so far
 * (progress). Resolves once the workbook is complete (the stream ended).
 */
export async function writeXlsx(
  stream: Writable,
  lang: Locale,
  heading: SheetHeading,
  columns: ReportColumn[],
  batches: AsyncIterable<ReportCell[][]>,
  onBatch: (rows: number) => Promise<void>,
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Sijill';
  workbook.title = heading.title;
  const headerRow = headerRowOf(heading);
  const sheet = workbook.addWorksheet(sheetName(heading.title), {
    views: [{ rightToLeft: lang === 'ar', state: 'frozen', ySplit: headerRow, xSplit: 0 }],
    properties: { defaultRowHeight: 18 },
  });
  sheet.columns = columns.map((c) => ({
    key: c.key,
    width: WIDTHS[c.type],
    style: FORMATS[c.type] ? { numFmt: FORMATS[c.type] } : {},
  }));
  const title = sheet.getRow(1);
  title.getCell(1).value = heading.title;
  title.font = { bold: true, size: 14 };
  title.commit();
  heading.lines.forEach((line, i) => {
    const row = sheet.getRow(2 + i);
    row.getCell(1).value = line;
    row.commit();
  });
  const head = sheet.getRow(headerRow);
  heading.headers.forEach((h, i) => {
    const cell = head.getCell(i + 1);
    cell.value = h;
    cell.font = { bold: true };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF4' } };
    cell.alignment = { horizontal: 'center', vertical: 'middle', wrapText: true };
  });
  head.commit();
  sheet.autoFilter = {
    from: { row: headerRow, column: 1 },
    to: { row: headerRow, column: columns.length },
  };
  let written = 0;
  for await (const batch of batches) {
    for (const cells of batch) {
      sheet.addRow(cells.map((cell, i) => valueOf(cell, columns[i]!.type))).commit();
    }
    written += batch.length;
    await onBatch(written);
  }
  sheet.commit();
  await workbook.commit();
  return written;
}
