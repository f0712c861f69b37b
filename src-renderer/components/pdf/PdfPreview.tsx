/**
 * A PDF shown in a dialog with the viewer (loaded on demand: pdf.js stays out of the first screens), and
 * `usePdfPreview`, how a screen opens it: the dialog keeps its own open state, so opening a file draws the
 * dialog and not the screen around it again.
 */
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactElement,
} from 'react';
import { Modal, Spin } from 'antd';
import type { PdfOpening, PdfSource } from './opening';
import { prefetchPdf } from './prefetch';

const PdfViewer = lazy(async () => ({ default: (await import('./PdfViewer')).PdfViewer }));

/**
 * Gets the viewer ready while the user looks at a list of attachments: its code loaded and pdf.js's
 * worker started, so opening a file only reads and draws it.
 */
export function warmPdfViewer(): void {
  void import('./PdfViewer').then(async () => (await import('./pdfjs')).sharedWorker());
}

/** A file to show: where its bytes come from, its name, and how to download it (when it can be). */
export interface PreviewedFile {
  source: PdfSource;
  fileName: string;
  onDownload?: () => void;
  /** The copy to print, from the server (see PdfViewer). */
  printCopy?: () => Promise<Uint8Array>;
}

/**
 * The PDF dialog of a screen. `show` opens it on a file; `dialog` goes where the screen renders its
 * dialogs. The open file is state of the dialog alone: a screen that kept it (a form of many fields, a
 * document's page) would be drawn again on every opening and closing, on the way to the first page.
 */
export function usePdfPreview(): { show: (file: PreviewedFile) => void; dialog: ReactElement } {
  const setter = useRef<(file: PreviewedFile | null) => void>(() => undefined);
  const show = useCallback((file: PreviewedFile) => setter.current(file), []);
  const dialog = useMemo(() => <PreviewDialog bind={(set) => (setter.current = set)} />, []);
  return { show, dialog };
}

function PreviewDialog({ bind }: { bind: (set: (file: PreviewedFile | null) => void) => void }) {
  const [file, setFile] = useState<PreviewedFile | null>(null);
  useLayoutEffect(() => bind(setFile), [bind]);
  return (
    <PdfPreview
      open={file !== null}
      source={file?.source ?? null}
      fileName={file?.fileName ?? ''}
      onClose={() => setFile(null)}
      onDownload={file?.onDownload}
      printCopy={file?.printCopy}
    />
  );
}

export function PdfPreview({
  open,
  source,
  fileName,
  onClose,
  onDownload,
  printCopy,
}: {
  open: boolean;
  source: PdfSource | null;
  fileName: string;
  onClose: () => void;
  onDownload?: () => void;
  printCopy?: () => Promise<Uint8Array>;
}) {
  // The file's first reads and its opening in pdf.js start now, with the click that opened the dialog, not
  // once the viewer is drawn (once per opening: a later render of the open dialog reads nothing more): the
  // worker parses the file while React draws the dialog, and the viewer takes the opening over. One that
  // no viewer took (the dialog closed first) is stopped when the next file is shown or the dialog goes.
  const started = useRef<{ source: PdfSource; opening: Promise<PdfOpening> } | null>(null);
  if (open && source && source !== started.current?.source) {
    void started.current?.opening.then((o) => o.cancel());
    if ('url' in source) prefetchPdf(source);
    started.current = { source, opening: import('./opening').then((m) => m.openPdf(source)) };
  }
  useEffect(() => () => void started.current?.opening.then((o) => o.cancel()), []);
  const opening = source && started.current?.source === source ? started.current.opening : null;
  return (
    <Modal
      open={open}
      title={<bdi>{fileName}</bdi>}
      footer={null}
      width="min(1200px, 94vw)"
      style={{ top: 24 }}
      onCancel={onClose}
      destroyOnHidden
      // Shown at once, without the zoom and fade: on two cores those frames are drawn at the cost of the
      // first page's (bench/pdf-viewer).
      transitionName=""
      maskTransitionName=""
      data-testid="pdf-preview"
    >
      <Suspense fallback={<Spin delay={400} />}>
        {source && (
          <PdfViewer
            source={source}
            opening={opening}
            fileName={fileName}
            onDownload={onDownload}
            printCopy={printCopy}
            height="78vh"
          />
        )}
      </Suspense>
    </Modal>
  );
}
