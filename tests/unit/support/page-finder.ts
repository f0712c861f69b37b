/**
 * The viewer's find (src-renderer/components/pdf/find.ts) over a pdf.js document in Node, as the viewer
 * makes it but with no page on screen: what it counts, and which pages it asks to be drawn again.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { PageFinder, type FindCount } from '../../../src-renderer/components/pdf/find';

export function headlessFinder(doc: PDFDocumentProxy) {
  const counts: FindCount[] = [];
  const redrawn: number[] = [];
  const f = new PageFinder({
    eventBus: { dispatch: (_name, data) => redrawn.push((data as { pageIndex: number }).pageIndex) },
    container: {
      scrollTop: 0,
      scrollLeft: 0,
      getBoundingClientRect: () => ({ top: 0, bottom: 0, left: 0, right: 0, width: 0, height: 0 }),
    },
    currentPage: () => 1,
    showPage: () => undefined,
    onCount: (count) => counts.push(count),
  });
  f.setDocument(doc);
  return { f, counts, redrawn };
}
