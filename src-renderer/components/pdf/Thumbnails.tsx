/**
 * Page thumbnails beside the viewer, each drawn only when it scrolls into view (a 300-page scan costs
 * what is visible), the current page marked and kept in view.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { PDFDocumentProxy } from 'pdfjs-dist';

const WIDTH = 96;

/** One page's thumbnail (its label from the list: a 300-page file would otherwise hook i18n 300 times). */
function Thumbnail({
  doc,
  n,
  label,
  rotation,
  current,
  observer,
  onPick,
}: {
  doc: PDFDocumentProxy;
  n: number;
  label: string;
  rotation: number;
  current: boolean;
  observer: IntersectionObserver | null;
  onPick: (n: number) => void;
}) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !observer) return;
    observer.observe(el);
    return () => observer.unobserve(el);
  }, [observer]);
  useEffect(() => {
    if (current) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  return (
    <button
      ref={ref}
      type="button"
      className={`pdfv-thumb${current ? ' pdfv-thumb-current' : ''}`}
      data-page={n}
      data-rotation={rotation}
      data-doc={doc.fingerprints[0]}
      onClick={() => onPick(n)}
      aria-label={label}
      aria-current={current ? 'page' : undefined}
    >
      <span className="pdfv-thumb-image" />
      <span className="pdfv-thumb-number">{n}</span>
    </button>
  );
}

export function Thumbnails({
  doc,
  current,
  rotation,
  onPick,
}: {
  doc: PDFDocumentProxy;
  current: number;
  rotation: number;
  onPick: (n: number) => void;
}) {
  const { t } = useTranslation('common');
  const listRef = useRef<HTMLDivElement>(null);
  const observerRef = useRef<IntersectionObserver | null>(null);
  const drawn = useRef(new Map<number, number>());
  /** Thumbnails in or near the view: one scrolled past before its turn is not drawn (until it returns). */
  const near = useRef(new Set<HTMLElement>());

  if (!observerRef.current && typeof IntersectionObserver !== 'undefined') {
    observerRef.current = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const el = entry.target as HTMLElement;
          if (!entry.isIntersecting) {
            near.current.delete(el);
            continue;
          }
          near.current.add(el);
          void draw(el);
        }
      },
      { root: null, rootMargin: '200px 0px' },
    );
  }

  // One thumbnail at a time: the pages of the main view, asked for meanwhile, go first in pdf.js's worker.
  const line = useRef<Promise<void>>(Promise.resolve());
  function draw(el: HTMLElement): Promise<void> {
    line.current = line.current.then(() => drawNow(el)).catch(() => undefined);
    return line.current;
  }

  async function drawNow(el: HTMLElement) {
    if (!el.isConnected || !near.current.has(el)) return;
    const n = Number(el.dataset.page);
    const turn = Number(el.dataset.rotation);
    if (drawn.current.get(n) === turn) return;
    drawn.current.set(n, turn);
    const page = await doc.getPage(n);
    const base = page.getViewport({ scale: 1, rotation: (page.rotate + turn) % 360 });
    const viewport = page.getViewport({ scale: WIDTH / base.width, rotation: (page.rotate + turn) % 360 });
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    await page.render({ canvas, viewport }).promise;
    const holder = el.querySelector('.pdfv-thumb-image');
    if (holder) holder.replaceChildren(canvas);
    page.cleanup();
  }

  useEffect(() => {
    // A rotation redraws what is in view.
    drawn.current.clear();
    for (const el of listRef.current?.querySelectorAll<HTMLElement>('.pdfv-thumb') ?? []) {
      const rect = el.getBoundingClientRect();
      if (rect.bottom > 0 && rect.top < window.innerHeight) {
        near.current.add(el);
        void draw(el);
      }
    }
  }, [rotation]);
  useEffect(() => () => observerRef.current?.disconnect(), []);

  return (
    <div className="pdfv-thumbs" ref={listRef} data-testid="pdf-thumbnails">
      {Array.from({ length: doc.numPages }, (_, i) => (
        <Thumbnail
          key={i + 1}
          doc={doc}
          n={i + 1}
          label={t('pdf.goToPage', { page: i + 1 })}
          rotation={rotation}
          current={current === i + 1}
          observer={observerRef.current}
          onPick={onPick}
        />
      ))}
    </div>
  );
}
