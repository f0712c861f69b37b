/**
 * A PDF shown in a dialog with the viewer (loaded on demand: pdf.js stays out of the first screens).
 */
import { lazy, Suspense, useRef } from 'react';
import { Modal, Spin } from 'antd';
import type { PdfSource } from './PdfViewer';
import { prefetchPdf } from './prefetch';

const PdfViewer = lazy(async () => ({ default: (await import('./PdfViewer')).PdfViewer }));

/**
 * Gets the viewer ready while the user looks at a list of attachments: its code loaded and pdf.js's
 * worker started, so opening a file only reads and draws it.
 */
export function warmPdfViewer(): void {
  void import('./PdfViewer').then(async () => (await import('./pdfjs')).sharedWorker());
}

export function PdfPreview({
  open,
  source,
  fileName,
  onClose,
  onDownload,
}: {
  open: boolean;
  source: PdfSource | null;
  fileName: string;
  onClose: () => void;
  onDownload?: () => void;
}) {
  // The file's first reads start now, with the click that opened the dialog, not once the viewer is drawn
  // (once per opening: a later render of the open dialog reads nothing more).
  const prefetched = useRef<PdfSource | null>(null);
  if (open && source && source !== prefetched.current) {
    prefetched.current = source;
    if ('url' in source) prefetchPdf(source);
  }
  return (
    <Modal
      open={open}
      title={<bdi>{fileName}</bdi>}
      footer={null}
      width="min(1200px, 94vw)"
      style={{ top: 24 }}
      onCancel={onClose}
      destroyOnHidden
      data-testid="pdf-preview"
    >
      <Suspense fallback={<Spin />}>
        {source && <PdfViewer source={source} fileName={fileName} onDownload={onDownload} height="78vh" />}
      </Suspense>
    </Modal>
  );
}
