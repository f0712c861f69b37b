/**
 * Upload checks by content, never by name or declared type: PDFs must start with `%PDF-` and open in
 * pdf.js; images must decode (sharp) and are re-encoded, which also drops metadata and any payload
 * hidden after the image. Failures are problems the client shows as the specification words them
 * (415 'Please select a valid PDF file', 413 'File size must be less than {maxSize}').
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { HttpProblem } from '../http/problem';

/** The maximum size as the 413 message shows it (e.g. `25 MB`). */
export function formatMaxSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** 413 when `bytes` is larger than `maxBytes`. */
export function assertSize(bytes: Buffer, maxBytes: number): void {
  if (bytes.length > maxBytes)
    throw new HttpProblem('payloadTooLarge', { params: { maxSize: formatMaxSize(maxBytes) } });
}

let pdfjs: Promise<{ lib: typeof PdfJsModule; root: string }> | undefined;

/** Loads pdf.js once (legacy build: the modern one needs newer Node features). */
function loadPdfJs() {
  pdfjs ??= (async () => {
    const require = createRequire(import.meta.url);
    const root = pathToFileURL(dirname(require.resolve('pdfjs-dist/package.json'))).href;
    const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
    return { lib, root };
  })();
  return pdfjs;
}

const notPdf = () => new HttpProblem('unsupportedMediaType', { code: 'upload.notPdf' });

/**
 * Refuses (415) anything that is not a PDF pdf.js can open: the `%PDF-` signature within the first
 * kilobyte (as readers accept it) and a document with at least one page; refuses (422) a PDF carrying
 * active content (scripts, launch actions, form submission, rich media, XFA). Answers the page count.
 */
export async function assertPdf(bytes: Buffer): Promise<{ pages: number }> {
  const head = bytes.subarray(0, 1024).toString('latin1');
  if (!head.includes('%PDF-')) throw notPdf();
  const { lib, root } = await loadPdfJs();
  const task = lib.getDocument({
    // pdf.js takes ownership of (and may detach) the buffer it is given: hand it a copy.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: true,
    verbosity: 0,
    standardFontDataUrl: `${root}/standard_fonts/`,
    cMapUrl: `${root}/cmaps/`,
    wasmUrl: `${root}/wasm/`,
  });
  try {
    const doc = await task.promise;
    const pages = doc.numPages;
    if (pages < 1) throw notPdf();
    await doc.getPage(1);
    if (doc.getJSActions && (await doc.getJSActions())) throw activeContent();
    const scanned = activeContentIn(bytes);
    if (scanned) throw activeContent(scanned);
    return { pages };
  } catch (error) {
    if (error instanceof HttpProblem) throw error;
    throw notPdf();
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

/**
 * Active content an archive refuses to keep: scripts, launching programs, submitting or importing form
 * data, rich media and XFA forms. Embedded files alone are allowed (PDF/A-3 invoices carry their XML);
 * opening one needs a launch or a script, which is refused.
 */
const ACTIVE_NAMES = /\/(JavaScript|JS|Launch|SubmitForm|ImportData|RichMedia|XFA)(?![A-Za-z0-9])/;

const activeContent = (what = 'JavaScript') =>
  new HttpProblem('unprocessable', {
    detailKey: 'upload.activeContent',
    code: 'upload.activeContent',
    params: { what },
  });

/** Decodes `#xx` escapes in PDF names (`/J#61vaScript` is `/JavaScript`). */
function decodeNames(text: string): string {
  return text.replace(/\/[^\s/<>[\]()%{}]*/g, (name) =>
    name.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  );
}

/**
 * The first active-content name in a PDF's objects, or null: the file as written and the objects packed
 * in compressed object streams (`/Type /ObjStm`, Flate), where a plain byte search would miss them.
 * Content streams are not searched (they draw; they cannot act).
 */
export function activeContentIn(bytes: Buffer): string | null {
  const raw = bytes.toString('latin1');
  const hit = (text: string) => ACTIVE_NAMES.exec(decodeNames(text))?.[1] ?? null;
  const direct = hit(raw.replace(/stream\r?\n[\s\S]*?endstream/g, 'stream endstream'));
  if (direct) return direct;
  const objectStream =
    /<<((?:(?!>>\s*stream)[\s\S]){0,2000}?\/Type\s*\/ObjStm[\s\S]{0,2000}?)>>\s*stream\r?\n/g;
  let budget = 64 * 1024 * 1024;
  for (let m = objectStream.exec(raw); m; m = objectStream.exec(raw)) {
    const dict = decodeNames(m[1]!);
    if (!/\/FlateDecode/.test(dict)) continue;
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    try {
      const inflated = inflateSync(bytes.subarray(start, end), { maxOutputLength: budget });
      budget -= inflated.length;
      const found = hit(inflated.toString('latin1'));
      if (found) return found;
    } catch {
      // A stream that does not inflate holds nothing pdf.js could act on either.
    }
    if (budget <= 0) break;
  }
  return null;
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
