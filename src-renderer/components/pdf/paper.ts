/**
 * Printing a registered document's paper (issue 26): its registration sticker at the size the user chose
 * (their settings), its cover sheet, and the separator sheet. The PDFs come from the server (which records
 * every print of a sticker or cover sheet); pdf.js draws them for printing (components/pdf/print.ts): a
 * sticker to this desk's sticker printer without a dialog on the desktop, else through the print dialog.
 */
import { correspondenceEndpoints as E } from '../../../src-shared/api/correspondence-endpoints';
import { fillPath } from '../../../src-shared/api/endpoint';
import type { LabelSize } from '../../../src-shared/paper-codes';
import { getBridge } from '../../lib/bridge';
import { downloadFile } from '../upload/transfer';

/** Each sticker size's sheet in millimetres (an A4 sheet of labels prints as A4). */
export const LABEL_PAGES: Record<LabelSize, { widthMm: number; heightMm: number }> = {
  '50x25': { widthMm: 50, heightMm: 25 },
  '70x35': { widthMm: 70, heightMm: 35 },
  'a4-24': { widthMm: 210, heightMm: 297 },
};
const A4 = LABEL_PAGES['a4-24'];

/** Prints a downloaded PDF (pdf.js and the print module load only when something is printed). */
async function printBlob(
  file: { blob: Blob; fileName: string },
  options: { pageSize: { widthMm: number; heightMm: number }; dpi: number; printer: string | null },
) {
  const [{ pdfjs }, { printDocument }] = await Promise.all([import('./pdfjs'), import('./print')]);
  const doc = await pdfjs.getDocument({ data: new Uint8Array(await file.blob.arrayBuffer()) }).promise;
  try {
    return await printDocument(doc, file.fileName, options);
  } finally {
    void doc.destroy();
  }
}

/** This desk's sticker printer (the desktop's setting), or null: the print dialog. */
async function stickerPrinter(): Promise<string | null> {
  const settings = await getBridge()
    .settingsGet()
    .catch(() => null);
  return settings?.ok ? settings.data.stickerPrinter : null;
}

/** The sticker's PDF as the server makes it (each fetch is a recorded print). */
export function stickerFile(id: number, size: LabelSize, position?: number) {
  return downloadFile(fillPath(E.sticker.path, { id }), {
    size,
    ...(position !== undefined ? { position } : {}),
  });
}

export async function printSticker(id: number, size: LabelSize, position?: number) {
  const file = await stickerFile(id, size, position);
  return printBlob(file, { pageSize: LABEL_PAGES[size], dpi: 300, printer: await stickerPrinter() });
}

export async function printCoverSheet(id: number) {
  const file = await downloadFile(fillPath(E.coverSheet.path, { id }));
  return printBlob(file, { pageSize: A4, dpi: 200, printer: null });
}

export async function printSeparatorSheet() {
  const file = await downloadFile(E.separatorSheet.path);
  return printBlob(file, { pageSize: A4, dpi: 200, printer: null });
}
