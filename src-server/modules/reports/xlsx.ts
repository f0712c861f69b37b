/**
 * A report as an Excel workbook (exceljs' streaming WorkbookWriter: each row is written to the zip as it
 * comes and forgotten, so memory stays flat whatever the number of rows). One sheet, right to left in
 * Arabic (`views.rightToLeft`), left to right in English; a title, the period and when it was made above
 * the localised column headers (frozen, with a filter); real values in the cells — days and months as
 * Excel dates, counts and working days as numbers, shares as percentages — never text that looks like them.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
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

/**
 * The cell's value as Excel should hold it; `dates` remembers the days met (a year's rows fall on a few
 * hundred, and exceljs only reads the Date it is given).
 */
function valueOf(cell: ReportCell, type: ReportColumn['type'], dates: Map<string, Date>): ExcelJS.CellValue {
  if (cell === null) return null;
  switch (type) {
    case 'date':
    case 'month': {
      if (typeof cell !== 'string') return cell;
      let date = dates.get(cell);
      if (!date) dates.set(cell, (date = dateOf(cell)));
      return date;
    }
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

/** Rows written between two looks at the zip's input (a few hundred kilobytes of XML). */
const ROWS_PER_LOOK = 500;

/**
 * Waits until the zip has taken the sheet's XML written so far. exceljs' streaming writer has no
 * backpressure (exceljs issues 464, 734): a committed row's XML waits in the input of the zip entry until
 * the deflater, on libuv's threads, takes it, and a writer that does not let the event loop turn meanwhile
 * buffers the whole sheet — memory then grew with the rows (27 MB more at 50,000 rows, 49 MB at 100,000).
 * The input is the stream exceljs' own issue names (`worksheet.stream.pipes[0]`, archiver's PassThrough);
 * should a later exceljs lack it, the event loop is still let turn once.
 */
async function zipCaughtUp(sheet: ExcelJS.Worksheet): Promise<void> {
  type Input = Writable & { _writableState?: { needDrain?: boolean } };
  const input = (sheet as unknown as { stream?: { pipes?: Input[] } }).stream?.pipes?.[0];
  if (input?._writableState?.needDrain) await once(input, 'drain');
  else await new Promise((resolve) => setImmediate(resolve));
}

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
  // exceljs is loaded when a report is first written, not with the server (it is not small).
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.stream.xlsx.WorkbookWriter({
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
  // One style object per column, given to each of its cells: exceljs looks a style object up once and
  // remembers its id (a new object per cell was serialised and looked up again for each: a third of the time).
  const styles: Partial<ExcelJS.Style>[] = columns.map((c) => {
    const numFmt = FORMATS[c.type];
    return numFmt ? { numFmt } : {};
  });
  sheet.columns = columns.map((c, i) => ({ key: c.key, width: WIDTHS[c.type], style: styles[i] }));
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
  const types = columns.map((c) => c.type);
  const dates = new Map<string, Date>();
  let written = 0;
  let sinceLook = 0;
  for await (const batch of batches) {
    for (const cells of batch) {
      const row = sheet.addRow(cells.map((cell, i) => valueOf(cell, types[i]!, dates)));
      for (let i = 0; i < styles.length; i++) row.getCell(i + 1).style = styles[i]!;
      row.commit();
      if (++sinceLook === ROWS_PER_LOOK) {
        sinceLook = 0;
        await zipCaughtUp(sheet);
      }
    }
    written += batch.length;
    await onBatch(written);
  }
  sheet.commit();
  await workbook.commit();
  return written;
}
