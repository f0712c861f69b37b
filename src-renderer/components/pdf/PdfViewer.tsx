/**
 * The inline PDF viewer (pdf.js's own viewer components: PDFViewer renders only the pages in view and
 * keeps a text layer for selection and find). Find is ours (find.ts): it reads and normalises a page's
 * text as the server's search does, so an Arabic word is found whatever its hamza, ta marbuta, alef
 * maqsura or diacritics, in PDFs that store Arabic glyph by glyph too, and pdf.js's highlighter marks it.
 * A file is read from our file source a range at a time (never whole into memory) or from bytes the user
 * picked, opened in pdf.js by opening.ts: the dialog starts that opening with the click and hands it over,
 * so the document is parsed while the viewer mounts; the pages are made at their first fit, and the toolbar
 * comes with the first page. Thumbnails render lazily as they scroll into view. Page number and count, zoom (fit width, fit
 * page, steps; a fit is kept as the pane changes size: thumbnails shown or hidden, window or dialog
 * resized), rotate, find, print (the server's print copy when the screen gives one: recorded, and
 * watermarked for the reader above the lowest security level), download, and the shortcuts of ordinary PDF viewers: Ctrl+F find,
 * Enter / Shift+Enter next / previous match, Ctrl + / - / 0 zoom, R / Shift+R rotate, N / J and P / K,
 * Home / End. The page area is always left-to-right, inside right-to-left screens too.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Flex, Input, InputNumber, Select, Spin, Tooltip, Typography } from 'antd';
import {
  DownloadOutlined,
  LeftOutlined,
  MenuOutlined,
  PrinterOutlined,
  RotateRightOutlined,
  RightOutlined,
  SearchOutlined,
  RotateLeftOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import type { PDFFindController } from 'pdfjs-dist/web/pdf_viewer.mjs';
import { pdfjs, sharedWorker, viewerModule } from './pdfjs';
import { Thumbnails } from './Thumbnails';
import { printDocument } from './print';
import { PageFinder, type FindCount } from './find';
import { openPdf, type PdfOpening, type PdfSource } from './opening';
import './pdf-viewer.css';

export type { PdfSource } from './opening';

/** pdf.js's room beside a page fitted to the pane's width (SCROLLBAR_PADDING in its web/ui_utils.js). */
const PAGE_WIDTH_PADDING = 40;

const ZOOMS = ['page-width', 'page-fit', '0.5', '0.75', '1', '1.25', '1.5', '2', '3'] as const;

/**
 * What pdf.js's viewer asks of its l10n. Its default (GenericL10n) parses a Fluent bundle and translates,
 * in English, a landmark label on every page as the pages are added — on the way to the first page of a
 * 300-page file. Ours answers the few strings it asks for with their fallback; the page landmarks are
 * named in the app's language once the first page is drawn.
 */
const quietL10n = {
  getLanguage: () => 'en-us',
  getDirection: () => 'ltr',
  get: async (_ids: unknown, _args: unknown, fallback?: string) => fallback ?? '',
  translate: async () => undefined,
  translateOnce: async () => undefined,
  destroy: async () => undefined,
  pause: () => undefined,
  resume: () => undefined,
};

export interface PdfViewerProps {
  source: PdfSource;
  /**
   * The opening of `source` already under way (the dialog starts it with the click: opening.ts); the
   * viewer takes it over, or opens the file itself when there is none (or it was stopped).
   */
  opening?: Promise<PdfOpening> | null;
  fileName: string;
  onDownload?: () => void;
  /**
   * The copy to print, asked of the server when the user prints (it records the print and may carry the
   * reader's watermark); absent: the pages on the screen are printed.
   */
  printCopy?: () => Promise<Uint8Array>;
  /** Height of the viewer (CSS length). */
  height?: string;
}

export function PdfViewer({
  source,
  opening: given,
  fileName,
  onDownload,
  printCopy,
  height = '75vh',
}: PdfViewerProps) {
  const { t } = useTranslation('common');
  const containerRef = useRef<HTMLDivElement>(null);
  const viewerRef = useRef<HTMLDivElement>(null);
  const findRef = useRef<HTMLInputElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<'encrypted' | 'broken' | null>(null);
  const [page, setPage] = useState(1);
  const [zoom, setZoom] = useState<string>('page-width');
  const [rotation, setRotation] = useState(0);
  const [thumbs, setThumbs] = useState(true);
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<FindCount>(null);
  const [printing, setPrinting] = useState(false);
  // Thumbnails wait for the first page of the main view: they would otherwise compete with it for
  // pdf.js's worker and for the file's ranges (bench/pdf-viewer).
  const [firstDrawn, setFirstDrawn] = useState(false);
  const tools = useRef<{
    viewer: InstanceType<Awaited<typeof viewerModule>['PDFViewer']>;
    finder: PageFinder;
  } | null>(null);

  // Open the document and the viewer once per source.
  useEffect(() => {
    let cancelled = false;
    performance.mark('pdf:open');
    let opening: PdfOpening | null = null;
    let opened: PDFDocumentProxy | null = null;
    let refit: ResizeObserver | null = null;
    let frame = 0;
    void (async () => {
      const offered = given ? await given.catch(() => null) : null;
      if (cancelled) return;
      opening = offered && !offered.cancelled ? offered : openPdf(source);
      const [{ EventBus, PDFLinkService, PDFViewer: Viewer }, loading] = await Promise.all([
        viewerModule,
        opening.task,
      ]);
      if (!loading) return;
      let first: PDFPageProxy | null = null;
      try {
        opened = await loading.promise;
        // Page 1 (pdf.js keeps it: the viewer's own request gets the same one) for the first fit below.
        first = await opened.getPage(1).catch(() => null);
      } catch (e) {
        if (!cancelled)
          setError((e as { name?: string }).name === 'PasswordException' ? 'encrypted' : 'broken');
        return;
      }
      if (cancelled || !containerRef.current || !viewerRef.current) return;
      const eventBus = new EventBus();
      const linkService = new PDFLinkService({ eventBus });
      const container = containerRef.current;
      const finder = new PageFinder({
        eventBus,
        container,
        currentPage: () => linkService.page,
        showPage: (n) => (linkService.page = n),
        onCount: setMatches,
      });
      const viewer = new Viewer({
        container,
        viewer: viewerRef.current,
        eventBus,
        linkService,
        // Ours in place of pdf.js's PDFFindController (find.ts): pdf.js's highlighter draws its matches.
        findController: finder as unknown as PDFFindController,
        textLayerMode: 1,
        // No forms or links that could act, and no editing: an archive shows what was filed.
        annotationMode: 0,
        annotationEditorMode: pdfjs.AnnotationEditorType.DISABLE,
        removePageBorders: false,
        l10n: quietL10n as unknown as ConstructorParameters<typeof Viewer>[0]['l10n'],
      });
      linkService.setViewer(viewer);
      // The pages are made at the fit width from the start: pdf.js would make them at 100 %, lay all of
      // them out, and lay them out again at the fit set on "pagesinit" (two layouts of every page on the
      // way to the first picture). Its own formula (PDFViewer #setScale, "page-width": the pane's width
      // less its 40 px of padding, over page 1's width at 100 %), so the fit asked for on "pagesinit"
      // finds the scale already set and changes nothing; the pane keeps its scrollbar's room whether the
      // pages overflow it or not (pdf-viewer.css), so its width is the one pdf.js will read.
      if (first) {
        const width = first.getViewport({ scale: pdfjs.PixelsPerInch.PDF_TO_CSS_UNITS }).width;
        const fit = (container.clientWidth - PAGE_WIDTH_PADDING) / width;
        if (fit > 0) viewer._currentScale = fit;
      }
      // Marks for bench/pdf-viewer (performance.getEntriesByType('mark')): where the first page's time goes.
      eventBus.on('pagesinit', () => {
        performance.mark('pdf:pagesinit');
        viewer.currentScaleValue = 'page-width';
      });
      // A fit (width, page) is kept whenever the pane changes size — thumbnails shown or hidden, the window
      // or the dialog resized — as pdf.js's own viewer does on resize (web/app.js, onResize); a zoom the
      // user chose stays as it is. The border box: a scrollbar coming or going is not a new size.
      refit = new ResizeObserver(() => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => {
          const value = viewer.currentScaleValue;
          if (value === 'page-width' || value === 'page-fit' || value === 'auto')
            viewer.currentScaleValue = value;
        });
      });
      refit.observe(container, { box: 'border-box' });
      // The first page drawn (once: not a mark for every page scrolled to).
      const onFirstDrawn = () => {
        eventBus.off('pagerendered', onFirstDrawn);
        performance.mark('pdf:pagerendered');
      };
      eventBus.on('pagerendered', onFirstDrawn);
      // The toolbar comes (with the page count, print, find) and the thumbnails start once the first page
      // is on the screen (the frame after it was drawn), not before: drawing the toolbar, the thumbnails'
      // list and the pages' landmarks would hold up its painting. pdf.js says "pagesloaded"
      // after the first page is drawn, or at once when the pages cannot be seen (nothing will be drawn).
      const shown = opened;
      eventBus.on('pagesloaded', () =>
        requestAnimationFrame(() =>
          setTimeout(() => {
            if (cancelled) return;
            setDoc(shown);
            setFirstDrawn(true);
          }),
        ),
      );
      eventBus.on('pagechanging', (e: { pageNumber: number }) => setPage(e.pageNumber));
      viewer.setDocument(opened);
      linkService.setDocument(opened, null);
      tools.current = { viewer, finder };
    })();
    return () => {
      cancelled = true;
      refit?.disconnect();
      cancelAnimationFrame(frame);
      tools.current?.viewer.setDocument(null as never);
      tools.current = null;
      opening?.cancel();
    };
  }, [source, given]);

  // The pages' landmarks, named in the app's language (pdf.js leaves them to its l10n) once the first page
  // is drawn, and named again when the language changes.
  useEffect(() => {
    if (!firstDrawn) return;
    for (const div of viewerRef.current?.querySelectorAll<HTMLElement>('.page[data-page-number]') ?? [])
      div.setAttribute('aria-label', t('pdf.pageLandmark', { page: div.dataset.pageNumber }));
  }, [firstDrawn, t]);

  const goTo = useCallback(
    (n: number) => {
      if (!tools.current || !doc) return;
      tools.current.viewer.currentPageNumber = Math.min(Math.max(1, n), doc.numPages);
    },
    [doc],
  );
  const applyZoom = useCallback((value: string) => {
    if (!tools.current) return;
    tools.current.viewer.currentScaleValue = value;
    setZoom(value);
  }, []);
  const step = useCallback(
    (by: number) => {
      if (!tools.current) return;
      const next = Math.min(
        5,
        Math.max(0.25, Math.round((tools.current.viewer.currentScale + by) * 100) / 100),
      );
      applyZoom(String(next));
    },
    [applyZoom],
  );
  const rotate = useCallback((by: number) => {
    if (!tools.current) return;
    const next = (((tools.current.viewer.pagesRotation + by) % 360) + 360) % 360;
    tools.current.viewer.pagesRotation = next;
    setRotation(next);
  }, []);
  // A new query is looked for a moment after the typing stops; an empty one ends the search at once.
  useEffect(() => {
    if (!doc) return;
    const timer = setTimeout(() => void tools.current?.finder.find(query), query.trim() ? 250 : 0);
    return () => clearTimeout(timer);
  }, [query, doc]);

  const print = async () => {
    if (!doc) return;
    setPrinting(true);
    try {
      if (printCopy) {
        // The server's copy (recorded, watermarked when the document calls for it), not the screen's.
        const copy = await pdfjs.getDocument({
          data: await printCopy(),
          worker: sharedWorker(),
          isEvalSupported: false,
          cMapUrl: new URL('pdfjs/cmaps/', document.baseURI).href,
          cMapPacked: true,
          standardFontDataUrl: new URL('pdfjs/standard_fonts/', document.baseURI).href,
        }).promise;
        try {
          await printDocument(copy, fileName);
        } finally {
          void copy.destroy();
        }
      } else await printDocument(doc, fileName);
    } catch {
      // The copy could not be had (its error was shown by the download): nothing is printed.
    } finally {
      setPrinting(false);
    }
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    const inField = (e.target as HTMLElement).tagName === 'INPUT';
    if (mod && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      findRef.current?.focus();
      findRef.current?.select();
    } else if (mod && (e.key === '+' || e.key === '=')) {
      e.preventDefault();
      step(0.1);
    } else if (mod && e.key === '-') {
      e.preventDefault();
      step(-0.1);
    } else if (mod && e.key === '0') {
      e.preventDefault();
      applyZoom('page-width');
    } else if (mod && e.key.toLowerCase() === 'p') {
      e.preventDefault();
      void print();
    } else if (!inField && !mod && e.key.toLowerCase() === 'r') {
      rotate(e.shiftKey ? -90 : 90);
    } else if (!inField && !mod && ['n', 'j'].includes(e.key.toLowerCase())) {
      goTo(page + 1);
    } else if (!inField && !mod && ['p', 'k'].includes(e.key.toLowerCase())) {
      goTo(page - 1);
    } else if (!inField && e.key === 'Home') {
      goTo(1);
    } else if (!inField && e.key === 'End' && doc) {
      goTo(doc.numPages);
    }
  };

  const zoomOptions = useMemo(
    () =>
      ZOOMS.map((z) => ({
        value: z,
        label:
          z === 'page-width'
            ? t('pdf.fitWidth')
            : z === 'page-fit'
              ? t('pdf.fitPage')
              : `${Math.round(Number(z) * 100)}%`,
      })),
    [t],
  );
  const zoomValue = ZOOMS.includes(zoom as (typeof ZOOMS)[number]) ? zoom : null;

  if (error)
    return (
      <Alert
        type="error"
        showIcon
        message={t(error === 'encrypted' ? 'pdf.encrypted' : 'pdf.broken', { name: fileName })}
        data-testid="pdf-error"
      />
    );

  return (
    <div className="pdfv" onKeyDown={onKeyDown} data-testid="pdf-viewer">
      {/* The toolbar comes with the first page, not before it: its controls' first drawing (antd's
          components and their styles, made again at each opening) would hold up the page's on two cores
          (bench/pdf-viewer). Until then a strip of its height keeps the page where it will stay. */}
      {firstDrawn ? (
        <Flex className="pdfv-toolbar" gap={6} wrap align="center">
          <Tooltip title={t('pdf.thumbnails')}>
            <Button
              type={thumbs ? 'primary' : 'default'}
              ghost={thumbs}
              icon={<MenuOutlined />}
              onClick={() => setThumbs((v) => !v)}
              aria-label={t('pdf.thumbnails')}
              aria-pressed={thumbs}
            />
          </Tooltip>
          <Flex gap={4} align="center" className="pdfv-pages">
            <Button
              icon={<RightOutlined className="pdfv-prev" />}
              onClick={() => goTo(page - 1)}
              disabled={!doc || page <= 1}
              aria-label={t('pdf.previousPage')}
            />
            <InputNumber
              size="middle"
              min={1}
              max={doc?.numPages ?? 1}
              value={page}
              onChange={(v) => v && goTo(Number(v))}
              className="pdfv-page-input"
              aria-label={t('pdf.page')}
              data-testid="pdf-page"
            />
            <Typography.Text data-testid="pdf-page-count">
              {t('pdf.of', { count: doc?.numPages ?? 0 })}
            </Typography.Text>
            <Button
              icon={<LeftOutlined className="pdfv-next" />}
              onClick={() => goTo(page + 1)}
              disabled={!doc || page >= (doc?.numPages ?? 1)}
              aria-label={t('pdf.nextPage')}
            />
          </Flex>
          <Flex gap={4} align="center">
            <Button icon={<ZoomOutOutlined />} onClick={() => step(-0.1)} aria-label={t('pdf.zoomOut')} />
            <Select
              value={zoomValue}
              placeholder={`${Math.round((tools.current?.viewer.currentScale ?? 1) * 100)}%`}
              options={zoomOptions}
              onChange={applyZoom}
              className="pdfv-zoom"
              aria-label={t('pdf.zoom')}
              data-testid="pdf-zoom"
            />
            <Button icon={<ZoomInOutlined />} onClick={() => step(0.1)} aria-label={t('pdf.zoomIn')} />
          </Flex>
          <Flex gap={4} align="center">
            <Tooltip title={t('pdf.rotateLeft')}>
              <Button
                icon={<RotateLeftOutlined />}
                onClick={() => rotate(-90)}
                aria-label={t('pdf.rotateLeft')}
              />
            </Tooltip>
            <Tooltip title={t('pdf.rotateRight')}>
              <Button
                icon={<RotateRightOutlined />}
                onClick={() => rotate(90)}
                aria-label={t('pdf.rotateRight')}
                data-testid="pdf-rotate"
              />
            </Tooltip>
          </Flex>
          <Input
            ref={(el) => {
              findRef.current = el?.input ?? null;
            }}
            prefix={<SearchOutlined />}
            allowClear
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onPressEnter={(e) => tools.current?.finder.next(query, e.shiftKey)}
            placeholder={t('pdf.find')}
            aria-label={t('pdf.find')}
            className="pdfv-find"
            data-testid="pdf-find"
            suffix={
              matches && query ? (
                <Typography.Text type={matches.total ? 'secondary' : 'danger'} data-testid="pdf-matches">
                  {matches.total
                    ? t('pdf.matchOf', { current: matches.current, total: matches.total })
                    : t('pdf.noMatch')}
                </Typography.Text>
              ) : null
            }
          />
          <Flex gap={4} className="pdfv-end">
            <Tooltip title={t('pdf.print')}>
              <Button
                icon={<PrinterOutlined />}
                loading={printing}
                onClick={() => void print()}
                disabled={!doc}
                aria-label={t('pdf.print')}
                data-testid="pdf-print"
              />
            </Tooltip>
            {onDownload && (
              <Tooltip title={t('pdf.download')}>
                <Button icon={<DownloadOutlined />} onClick={onDownload} aria-label={t('pdf.download')} />
              </Tooltip>
            )}
          </Flex>
        </Flex>
      ) : (
        <div className="pdfv-toolbar pdfv-toolbar-waiting" />
      )}
      {/* The page area reads left to right whatever the screen's direction (pdf.js lays text out so). */}
      <div className="pdfv-body" dir="ltr" style={{ height }}>
        {/* The pane is there from the start (empty until the first page is drawn), so the first fit is
            made for the width the page keeps. */}
        {thumbs &&
          (doc && firstDrawn ? (
            <Thumbnails doc={doc} current={page} rotation={rotation} onPick={goTo} />
          ) : (
            <div className="pdfv-thumbs" data-testid="pdf-thumbnails" />
          ))}
        <div className="pdfv-stage">
          {/* Only when the file is slow to come: an animation costs frames on the way to the first page. */}
          {!doc && <Spin className="pdfv-spin" delay={400} />}
          <div ref={containerRef} className="pdfv-container" tabIndex={0} data-testid="pdf-pages">
            <div ref={viewerRef} className="pdfViewer" />
          </div>
        </div>
      </div>
    </div>
  );
}
