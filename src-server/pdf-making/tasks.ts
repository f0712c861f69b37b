/**
 * The PDFs made away from the thread that answers requests (pdf-make-pool.ts): each task by its name, from
 * an input that structured cloning carries to a worker thread (plain data, no functions), answering the
 * document's bytes and how many rows (documents, report rows) it holds. The same functions run in the
 * worker (pdf-make-worker.ts) and, where no worker can be started, in the server's own thread.
 *
 * `io.progress` hears how far a task got (awaited: in the server's thread it is where the task gives way to
 * requests); `io.batches` is the rows a streamed task reads (the report's, from its database cursor, sent
 * over a batch at a time).
 */
import type { Disposition } from '../../src-shared/api/records';
import type { ReportCell, ReportColumn } from '../../src-shared/api/reports';
import type { Locale } from '../../src-shared/locale';
import { translate } from '../i18n';
import { certificatePdf } from '../modules/records/certificate';
import { watermarkPdf, type WatermarkFacts } from '../modules/reads/watermark';
import { writePdf } from '../modules/reports/pdf';
import type { SheetHeading } from '../modules/reports/xlsx';

/** What a task is given besides its input. */
export interface PdfTaskIo {
  progress(done: number): Promise<void>;
  batches: AsyncIterable<ReportCell[][]>;
}

/** What a task answers. */
export interface PdfMade {
  bytes: Uint8Array;
  rows: number;
}

/** A report's PDF export (reports/pdf.ts `writePdf`): everything but its rows, which come as batches. */
export interface ReportPdfInput {
  lang: Locale;
  heading: SheetHeading;
  columns: ReportColumn[];
  /** How many rows the batches hold (the footer's page count is drawn from it). */
  total: number;
}

export const PDF_TASKS = {
  /** The certificate of destruction (records/certificate.ts); progress: documents set. */
  certificate: async (d: Disposition, io: PdfTaskIo): Promise<PdfMade> => ({
    bytes: await certificatePdf(d, io.progress),
    rows: d.record.length,
  }),
  /** A report as PDF (reports/pdf.ts); progress: rows written. */
  reportPdf: (input: ReportPdfInput, io: PdfTaskIo): Promise<PdfMade> =>
    writePdf(
      input.lang,
      input.heading,
      (page, pages) => translate(input.lang, 'reports.heading.page', { page, pages }),
      input.columns,
      input.total,
      io.batches,
      io.progress,
    ),
  /**
   * A reader's watermarked copy of an attachment (reads/watermark.ts): per request, but the attachment may
   * be hundreds of pages (pdf-lib parses and writes it all); no rows counted.
   */
  watermark: async (input: { bytes: Uint8Array; facts: WatermarkFacts }): Promise<PdfMade> => {
    const bytes = await watermarkPdf(input.bytes, input.facts);
    return { bytes, rows: 0 };
  },
} satisfies Record<string, (input: never, io: PdfTaskIo) => Promise<PdfMade>>;

export type PdfTaskName = keyof typeof PDF_TASKS;
export type PdfTaskInput<N extends PdfTaskName> = Parameters<(typeof PDF_TASKS)[N]>[0];
