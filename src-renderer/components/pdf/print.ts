/**
 * Printing a PDF: every page drawn at 150 dpi into an image of a print-only container (the screen's
 * layout is hidden by the print style), the browser's print dialog opened on it, and the container
 * removed once printing ends.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';

const DPI = 150;

export async function printDocument(doc: PDFDocumentProxy, title: string): Promise<void> {
  document.getElementById('pdfv-print')?.remove();
  const container = document.createElement('div');
  container.id = 'pdfv-print';
  container.setAttribute('aria-hidden', 'true');
  const urls: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const viewport = page.getViewport({ scale: DPI / 72 });
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
  document.body.append(container);
  document.body.classList.add('pdfv-printing');
  await Promise.all([...container.querySelectorAll('img')].map((img) => img.decode().catch(() => undefined)));
  const cleanup = () => {
    container.remove();
    document.body.classList.remove('pdfv-printing');
    for (const url of urls) URL.revokeObjectURL(url);
    window.removeEventListener('afterprint', cleanup);
  };
  window.addEventListener('afterprint', cleanup);
  window.print();
}
