/**
 * Upload checks by content, never by name or declared type: PDFs must start with `%PDF-` and open in
 * pdf.js without active content (pdf-check.ts, in a worker thread); images must decode (sharp) and are
 * re-encoded, which also drops metadata and any payload hidden after the image. Failures are problems the client shows as the specification words them
 * (415 'Please select a valid PDF file', 413 'File size must be less than {maxSize}'); a PDF locked by a
 * password is 415 too, but says it is encrypted and how to unlock it (`upload.encrypted`).
 */
import { formatMaxSize } from '../../src-shared/files';
import { HttpProblem } from '../http/problem';
import { hasPdfSignature, type PdfVerdict } from './pdf-check';
import { checkPdfInWorker } from './pdf-check-pool';

/** The maximum size as the 413 message shows it (shared with the scanning station's notes). */
export { formatMaxSize };

/** 413 when `bytes` is larger than `maxBytes`. */
export function assertSize(bytes: Buffer, maxBytes: number): void {
  if (bytes.length > maxBytes)
    throw new HttpProblem('payloadTooLarge', {
      code: 'upload.tooLarge',
      params: { maxSize: formatMaxSize(maxBytes) },
    });
}

const notPdf = () => new HttpProblem('unsupportedMediaType', { code: 'upload.notPdf' });

/** 415 for a PDF that needs a password to open: said as such, with what to do (not "not a valid PDF"). */
const encrypted = () =>
  new HttpProblem('unsupportedMediaType', { code: 'upload.encrypted', detailKey: 'upload.encrypted' });

/** 415 unless the first kilobyte carries the `%PDF-` signature (as readers accept it). */
export function assertPdfHead(head: Buffer): void {
  if (!hasPdfSignature(head)) throw notPdf();
}

const activeContent = (what: string) =>
  new HttpProblem('unprocessable', {
    detailKey: 'upload.activeContent',
    code: 'upload.activeContent',
    params: { what },
  });

/**
 * The checks of a PDF being received (`http/upload.ts`): the `%PDF-` signature within the first kilobyte
 * as soon as it has arrived (415 before the rest is read), then, once it has all arrived, the checks of
 * storage/pdf-check.ts in a worker thread (pdf-check-pool.ts): 415 unless pdf.js opens it with at least
 * one page (an encrypted one that needs a password to open: 415 `upload.encrypted`, saying so), 422 if it
 * carries active content (scripts, launch actions, form submission, rich media, XFA). A small file is
 * checked from memory (its bytes go to the worker and come back), a large one from its temporary file.
 */
export class PdfChecks {
  private head = Buffer.alloc(0);

  /** The next chunk of the upload; throws 415 as soon as the first kilobyte shows it is not a PDF. */
  feed(chunk: Buffer): void {
    if (this.head.length < 1024) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, 1024 - this.head.length)]);
      if (this.head.length >= 1024) assertPdfHead(this.head);
    }
  }

  /**
   * The upload has all arrived (in memory as `file.bytes`, or on disk as `file.path`): checked, or
   * refused (415, 422). Answers the page count. `file.bytes` is replaced by the same bytes handed back
   * by the worker.
   */
  async finish(file: { path: string | null; bytes: Buffer | null }): Promise<{ pages: number }> {
    if (this.head.length < 1024) assertPdfHead(this.head);
    let verdict: PdfVerdict;
    if (file.bytes) {
      const checked = await checkPdfInWorker({ bytes: file.bytes });
      verdict = checked.verdict;
      const back = checked.bytes ?? file.bytes;
      file.bytes = Buffer.from(back.buffer, back.byteOffset, back.byteLength);
    } else if (file.path) verdict = (await checkPdfInWorker({ path: file.path })).verdict;
    else throw new Error('a received file is either in memory or on disk');
    if (verdict.ok) return { pages: verdict.pages };
    if (verdict.reason === 'activeContent') throw activeContent(verdict.what);
    throw verdict.reason === 'encrypted' ? encrypted() : notPdf();
  }
}

/** Image formats accepted for a profile picture. */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

const notImage = () =>
  new HttpProblem('unsupportedMediaType', { detailKey: 'directory.invalidImage', code: 'upload.notImage' });

/**
 * Checks that bytes are an image by decoding them (415 otherwise), then resizes it to fit
 * `maxSide`×`maxSide` (never enlarging), applies the EXIF orientation and re-encodes it as WebP.
 */
export async function assertImage(
  bytes: Buffer,
  maxSide: number,
): Promise<{ bytes: Buffer; mime: 'image/webp'; width: number; height: number }> {
  // sharp (libvips) is loaded with the first image, not with the server: most uploads are PDFs.
  const { default: sharp } = await import('sharp');
  let format: string | undefined;
  try {
    const meta = await sharp(bytes, { limitInputPixels: 50_000_000 }).metadata();
    format = meta.format;
    if (!meta.width || !meta.height) throw notImage();
  } catch {
    throw notImage();
  }
  if (!format || !IMAGE_FORMATS.has(format)) throw notImage();
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: 50_000_000, animated: false })
      .rotate()
      .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, mime: 'image/webp', width: info.width, height: info.height };
  } catch {
    throw notImage();
  }
}
