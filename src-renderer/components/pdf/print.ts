/**
 * Printing a PDF: every page drawn into an image of a print-only container (the screen's layout is
 * hidden by the print style), then printed, and the container removed once printing ends.
 *
 * A document from the viewer goes to the browser's print dialog at 150 dpi, each image fitting its sheet.
 * A registration sticker is printed at its label's size (`pageSize`, millimetres: an `@page` rule of that
 * size, the image filling it) at 300 dpi, so the codes stay sharp on a label printer; on the desktop with
 * a printer chosen it goes there without a dialog (Electron's silent printing through main), else to the
 * print dialog with the label's size already set.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { getBridge } from '../../lib/bridge';
import './print.css';

export interface PrintOptions {
  /** The sheet's size in millimetres (a label); absent: each page fits the printer's sheet. */
  pageSize?: { widthMm: number; heightMm: number };
  /** Resolution of the images (default 150 dpi; 300 for labels). */
  dpi?: number;
  /** The desktop's printer to print to without a dialog; absent or null: the print dialog. */
  printer?: string | null;
}

/** What printing did: printed without a dialog, or the print dialog was opened (its outcome unknown). */
export type PrintOutcome = { silent: true } | { silent: false; reason?: string | null };

export async function printDocument(
  doc: PDFDocumentProxy,
  title: string,
  options: PrintOptions = {},
): Promise<PrintOutcome> {
  document.getElementById('pdfv-print')?.remove();
  document.getElementById('pdfv-print-size')?.remove();
  const container = document.createElement('div');
  container.id = 'pdfv-print';
  container.setAttribute('aria-hidden', 'true');
  const dpi = options.dpi ?? 150;
  const urls: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    await page.render({ canvas, viewport, intent: 'print' }).promise;
    page.cleanup();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve));
    if (!blob) continue;
    const url = URL.createObjectURL(blob);
    urls.push(url);
    const holder = document.createElement('div');
    holder.className = 'pdfv-print-page';
    const img = document.createElement('img');
    img.src = url;
    img.alt = `${title} — ${n}`;
    holder.append(img);
    container.append(holder);
  }
  let sizeRule: HTMLStyleElement | null = null;
  if (options.pageSize) {
    const { widthMm, heightMm } = options.pageSize;
    sizeRule = document.createElement('style');
    sizeRule.id = 'pdfv-print-size';
    sizeRule.textContent =
      `@page { size: ${widthMm}mm ${heightMm}mm; margin: 0; }\n` +
      `@media print { .pdfv-print-page { height: ${heightMm}mm; } ` +
      `.pdfv-print-page img { width: ${widthMm}mm; height: ${heightMm}mm; max-height: none; } }`;
    document.head.append(sizeRule);
    container.dataset.pageSize = `${widthMm}x${heightMm}`;
  }
  document.body.append(container);
  document.body.classList.add('pdfv-printing');
  await Promise.all([...container.querySelectorAll('img')].map((img) => img.decode().catch(() => undefined)));
  const cleanup = () => {
    container.remove();
    sizeRule?.remove();
    document.body.classList.remove('pdfv-printing');
    for (const url of urls) URL.revokeObjectURL(url);
    window.removeEventListener('afterprint', cleanup);
  };
  if (options.printer && options.pageSize) {
    const result = await getBridge()
      .printSilent({ printer: options.printer, ...options.pageSize })
      .catch(() => null);
    if (result?.ok && result.data.printed) {
      cleanup();
      return { silent: true };
    }
    // Not printed without a dialog (no such printer any more, the system refused): the dialog then.
    window.addEventListener('afterprint', cleanup);
    window.print();
    return { silent: false, reason: result?.ok ? result.data.reason : 'failed' };
  }
  window.addEventListener('afterprint', cleanup);
  window.print();
  return { silent: false };
}
