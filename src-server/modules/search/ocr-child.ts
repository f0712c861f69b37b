/**
 * The OCR child process: does the server's work on PDF files, one request at a time, at a lowered CPU
 * priority, so that it never competes on equal terms with the API server that started it (see
 * ocr-process.ts). It reads the text layer of a page (pdf.js `getTextContent`, laid out in logical order
 * by src-shared/text-layout.ts), or renders a page (pdf.js on @napi-rs/canvas) to a grayscale image and
 * reads it with Tesseract (tesseract.js, one worker); the numbers of Arabic lines that Tesseract misread
 * (its Arabic models barely know the Arabic-Indic digits) are read again glyph by glyph (arabic-digits.ts).
 *
 * It also reads the codes on a scanned page (`codes`, issue 26): the page is rendered in grey and the QR
 * codes and Code 128s on it are read with zxing-wasm, whose WebAssembly is loaded only when the first such
 * request comes (an OCR-only child never loads it). The first try reads the page as rendered, which finds
 * a sticker anywhere on the page, turned a quarter turn or skewed a few degrees; only when it finds
 * nothing is the page tried again, with another threshold and turned by ±3° (see RETRIES).
 *
 * The document last asked for stays open while the requests that follow are for the same file (the
 * server asks page after page): it is closed when another file is asked for, when the file has changed on
 * disk, after a few seconds without requests, and when the child ends.
 *
 * Started by child_process.fork (messages over Node's IPC channel) or, in a packaged Electron app, as a
 * utility process (messages over `process.parentPort`). Everything it needs is local: language data comes
 * from the @tesseract.js-data packages, copied for the moment Tesseract loads it into a private temporary
 * folder (`ara+eng` needs both files in one folder), which is removed again right after; Tesseract's
 * cache is off, so nothing is fetched from the network or written to the working directory.
 */
import { readdirSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import type SharpFunction from 'sharp';
import type * as ZXingReaderModule from 'zxing-wasm/reader';
import type { ReaderOptions } from 'zxing-wasm/reader';
import Tesseract from 'tesseract.js';
import { rereadArabicIndicNumbers } from './arabic-digits';
import { rgbaToGray, rgbaToGrayPng } from './gray-png';
import {
  NICE_ARGUMENT,
  OCR_CHILD_NICE,
  type ChildFailureKind,
  type CodesRequest,
  type FromOcrChild,
  type OcrRequest,
  type TextRequest,
  type ToOcrChild,
} from './ocr-protocol';
import { openPdfFile, type PdfLoadingTask } from '../../pdfjs';
import { markOfCode } from '../../../src-shared/paper-codes';
import { layoutPageText, unmappedShare, type PositionedText } from '../../../src-shared/text-layout';
import { pageTextItems } from '../../../src-shared/pdf-ligatures';

/**
 * The nice value of this process's threads: what the server passed (`--nice=5` for the codes child), else
 * the lowest (see OCR_CHILD_NICE).
 */
const NICE = (() => {
  const argument = process.argv.find((arg) => arg.startsWith(NICE_ARGUMENT));
  const value = Number(argument?.slice(NICE_ARGUMENT.length));
  return argument && Number.isInteger(value) && value >= 0 && value <= 19 ? value : OCR_CHILD_NICE;
})();
/** The largest image rendered, in pixels (an A4 page at 300 dpi is 8.7 million). */
const MAX_PIXELS = 12_000_000;
/** Which build of the language data is used: the LSTM-only "best (integer)" models tesseract.js prefers. */
const DATA_VARIANT = '4.0.0_best_int';
/** How long the open document is kept without requests. */
const DOCUMENT_IDLE_MS = 10_000;

/** A request that failed, and why (sent to the server as `failed` with this kind). */
class RequestFailure extends Error {
  constructor(
    readonly kind: ChildFailureKind,
    message: string,
  ) {
    super(message);
  }
}

/** The kind of failure of a document that pdf.js (or the file system) could not open. */
function openingKind(error: unknown): ChildFailureKind {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'PasswordException') return 'encrypted';
  if (name === 'InvalidPDFException') return 'invalid';
  return 'unreadable';
}

interface UtilityParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as NodeJS.Process & { parentPort?: UtilityParentPort }).parentPort;

function send(message: FromOcrChild): void {
  if (parentPort) parentPort.postMessage(message);
  else process.send?.(message);
}

/**
 * Lowers the priority of every thread of this process. On Linux a nice value belongs to a thread, and the
 * parent's `os.setPriority(pid)` reaches the main thread only; threads started before it (V8's, libuv's)
 * or by a thread that was not lowered keep the normal priority, so each one is lowered here, again after
 * Tesseract has started its worker thread.
 */
function lowerPriority(): void {
  try {
    if (os.getPriority() < NICE) os.setPriority(NICE);
  } catch {
    // Not permitted (or not supported): the work still runs, one page at a time.
  }
  if (process.platform !== 'linux') return;
  try {
    for (const entry of readdirSync('/proc/self/task')) {
      const tid = Number(entry);
      try {
        if (os.getPriority(tid) < NICE) os.setPriority(tid, NICE);
      } catch {
        // The thread ended meanwhile.
      }
    }
  } catch {
    // No /proc: nothing more to do.
  }
}

const resolveFromHere = createRequire(import.meta.url).resolve;

/** The folder of a language's data package, e.g. node_modules/@tesseract.js-data/ara. */
function languagePackage(language: string): string {
  try {
    return dirname(resolveFromHere(`@tesseract.js-data/${language}/package.json`));
  } catch {
    throw new Error(
      `No OCR language data for "${language}" (the package @tesseract.js-data/${language} is not installed)`,
    );
  }
}

/** Copies the data of `languages` into one new private folder (Tesseract reads all of them from one). */
async function gatherLanguageData(languages: string[]): Promise<string> {
  const folder = await mkdtemp(join(os.tmpdir(), 'sijill-ocr-'));
  try {
    for (const language of languages) {
      const file = `${language}.traineddata.gz`;
      await copyFile(join(languagePackage(language), DATA_VARIANT, file), join(folder, file));
    }
    return folder;
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

let tesseract: { worker: Tesseract.Worker; languages: string } | null = null;

/** The Tesseract worker for `languages`, started (or restarted for other languages) when needed. */
async function tesseractFor(languages: string): Promise<Tesseract.Worker> {
  if (tesseract?.languages === languages) return tesseract.worker;
  if (tesseract) {
    await tesseract.worker.terminate();
    tesseract = null;
  }
  const langPath = await gatherLanguageData(languages.split('+'));
  try {
    const worker = await Tesseract.createWorker(languages, Tesseract.OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      cacheMethod: 'none',
      // Without a handler, tesseract.js throws a failed job's error out of its message listener.
      errorHandler: () => undefined,
    });
    tesseract = { worker, languages };
    return worker;
  } finally {
    await rm(langPath, { recursive: true, force: true });
    lowerPriority();
  }
}

type PdfDocument = Awaited<PdfLoadingTask['promise']>;
interface CanvasAndContext {
  canvas: unknown;
  context: {
    getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
  };
}
interface CanvasFactory {
  create(width: number, height: number): CanvasAndContext;
  destroy(entry: CanvasAndContext): void;
}

let openDocument: {
  file: string;
  mtimeMs: number;
  size: number;
  task: PdfLoadingTask;
  doc: PdfDocument;
} | null = null;

/**
 * The open document for `file` (kept between requests for one file; reopened if the file changed). Rejects
 * with a RequestFailure of the kind `openingKind` gives when the file cannot be opened.
 */
async function documentFor(file: string): Promise<PdfDocument> {
  let task: PdfLoadingTask | undefined;
  try {
    const { mtimeMs, size } = await stat(file);
    if (openDocument?.file === file && openDocument.mtimeMs === mtimeMs && openDocument.size === size)
      return openDocument.doc;
    await closeDocument();
    task = await openPdfFile(file);
    const doc = await task.promise;
    openDocument = { file, mtimeMs, size, task, doc };
    return doc;
  } catch (error) {
    await task?.destroy().catch(() => undefined);
    throw new RequestFailure(openingKind(error), error instanceof Error ? error.message : String(error));
  }
}

async function closeDocument(): Promise<void> {
  const current = openDocument;
  openDocument = null;
  await current?.task.destroy().catch(() => undefined);
}

/**
 * Renders a page at `dpi` (less for a page so large it would pass MAX_PIXELS) on a white background:
 * RGBA pixels, their size, and the resolution used.
 */
async function renderPixels(doc: PdfDocument, pageNumber: number, dpi: number) {
  const page = await doc.getPage(pageNumber);
  try {
    const unit = page.getViewport({ scale: 1 });
    let scale = dpi / 72;
    if (unit.width * unit.height * scale * scale > MAX_PIXELS)
      scale = Math.sqrt(MAX_PIXELS / (unit.width * unit.height));
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.floor(viewport.width));
    const height = Math.max(1, Math.floor(viewport.height));
    const factory = doc.canvasFactory as CanvasFactory;
    const entry = factory.create(width, height);
    try {
      // The node tsconfig has no DOM types: the parameter type is taken from pdf.js itself.
      type RenderParameters = Parameters<typeof page.render>[0];
      await page.render({
        canvas: null,
        canvasContext: entry.context as unknown as RenderParameters['canvasContext'],
        viewport,
        background: 'rgb(255,255,255)',
      }).promise;
      const { data } = entry.context.getImageData(0, 0, width, height);
      return { data, width, height, dpi: scale * 72 };
    } finally {
      factory.destroy(entry);
    }
  } finally {
    page.cleanup();
  }
}

/** Renders a page (see renderPixels) to a grayscale PNG, and its grey pixels. */
async function renderPage(doc: PdfDocument, pageNumber: number, dpi: number) {
  const { data, width, height, dpi: used } = await renderPixels(doc, pageNumber, dpi);
  return {
    png: rgbaToGrayPng(data, width, height, used),
    grey: rgbaToGray(data, width, height),
    width,
    height,
    dpi: used,
  };
}

/**
 * What Tesseract read on a page, with the numbers of its Arabic lines that it misread read again as
 * Arabic-Indic digits (arabic-digits.ts). Should that fail (the fonts its templates are drawn from are
 * missing), Tesseract's text is kept.
 */
async function withArabicIndicNumbers(
  page: Tesseract.Page,
  image: { grey: Uint8Array; width: number; height: number },
): Promise<string> {
  try {
    const again = await rereadArabicIndicNumbers(page, {
      data: image.grey,
      width: image.width,
      height: image.height,
    });
    return again?.text ?? page.text ?? '';
  } catch {
    return page.text ?? '';
  }
}

type ZXingReader = typeof ZXingReaderModule;
let zxing: Promise<ZXingReader> | null = null;

/**
 * zxing-wasm's reader, loaded on the first codes request. Its WebAssembly is handed in read from the
 * package (found as the Tesseract data is, through the module resolver): left alone, it would be fetched
 * from a CDN.
 */
function loadZXing(): Promise<ZXingReader> {
  const loading = (zxing ??= (async () => {
    const reader = await import('zxing-wasm/reader');
    const bytes = await readFile(resolveFromHere('zxing-wasm/reader/zxing_reader.wasm'));
    const wasmBinary = bytes.buffer.slice(
      bytes.byteOffset,
      bytes.byteOffset + bytes.byteLength,
    ) as ArrayBuffer;
    await reader.prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
    return reader;
  })());
  // A failed load is tried again by the next request.
  loading.catch(() => {
    if (zxing === loading) zxing = null;
  });
  return loading;
}

type Sharp = typeof SharpFunction;
let sharpModule: Promise<Sharp> | null = null;

/** sharp, loaded for the first retry; one libvips thread (the child works one page at a time). */
function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}

/**
 * How zxing reads a page: QR codes and Code 128s only (the codes Sijill prints), anywhere on the page in
 * any of the four orientations (tryRotate), trying harder (more scan lines, a slower detector), on
 * downscaled copies as well (tryDownscale: a blurred or large code), not inverted (stickers are dark on
 * light). A page holds at most a few codes.
 */
const READER_OPTIONS: ReaderOptions = {
  formats: ['QRCode', 'Code128'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: true,
  binarizer: 'LocalAverage',
  maxNumberOfSymbols: 8,
};

interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  grey?: Uint8Array;
}

/** The codes zxing reads on an RGBA image, each once. */
async function decode(reader: ZXingReader, image: Pixels, options: ReaderOptions = READER_OPTIONS) {
  const { data, width, height } = image;
  const found = await reader.readBarcodes({ data, width, height, colorSpace: 'srgb' }, options);
  const codes = new Map<string, { format: string; text: string }>();
  for (const code of found)
    if (code.isValid) codes.set(`${code.format}\n${code.text}`, { format: code.format, text: code.text });
  return [...codes.values()];
}

/** The grey of an RGBA image, one byte a pixel (computed once for the retries that turn it). */
const greyOf = (image: Pixels) => {
  if (image.grey) return image.grey;
  const grey = new Uint8Array(image.width * image.height);
  for (let i = 0, j = 0; j < grey.length; i += 4, j++)
    grey[j] = (image.data[i]! * 77 + image.data[i + 1]! * 150 + image.data[i + 2]! * 29) >> 8;
  return (image.grey = grey);
};

/** `image` turned by `degrees` (clockwise, on white) with sharp: grey in, RGBA out as zxing takes it. */
async function transformed(image: Pixels, change: { degrees: number }): Promise<Pixels> {
  const sharp = await loadSharp();
  const grey = greyOf(image);
  let pipeline = sharp(grey, { raw: { width: image.width, height: image.height, channels: 1 } });
  pipeline = pipeline.rotate(change.degrees, { background: '#ffffff' });
  const { data, info } = await pipeline.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const rgba = new Uint8ClampedArray(info.width * info.height * 4);
  for (let i = 0, j = 0; j < data.length; i += 4, j++) {
    rgba[i] = rgba[i + 1] = rgba[i + 2] = data[j]!;
    rgba[i + 3] = 255;
  }
  // libvips started its threads meanwhile.
  lowerPriority();
  return { data: rgba, width: info.width, height: info.height };
}

/** The text layer of a page, laid out, with its share of unmapped glyphs. */
async function readText(request: TextRequest): Promise<FromOcrChild> {
  const doc = await documentFor(request.file);
  if (request.page < 1) throw new RequestFailure('page', `page ${request.page} is not a page number`);
  if (request.page > doc.numPages)
    return { type: 'textDone', id: request.id, pages: doc.numPages, text: '', unmappedShare: 0 };
  const page = await doc.getPage(request.page);
  try {
    const items = await pageTextItems(
      page,
      (item): item is PositionedText => typeof item === 'object' && item !== null && 'str' in item,
    );
    return {
      type: 'textDone',
      id: request.id,
      pages: doc.numPages,
      text: layoutPageText(items),
      unmappedShare: unmappedShare(items),
    };
  } finally {
    page.cleanup();
  }
}

/**
 * What is tried when the page as rendered gives no code, in this order, until one gives a code: the
 * whole-page threshold instead of the local one (a grey or unevenly lit sticker; costs one more decode),
 * then the page turned by +3° and by −3° with sharp (a Code 128 skewed past what zxing's scan lines follow,
 * a small QR code turned between two quarter turns; each costs a rotation and a decode). A page without
 * a code of ours (most pages of a batch; a page with only a sender's codes) goes through all of them:
 * about four first tries in all (bench/barcodes).
 */
const RETRIES: ({ options: ReaderOptions } | { degrees: number })[] = [
  { options: { ...READER_OPTIONS, binarizer: 'GlobalHistogram' } },
  { degrees: 3 },
  { degrees: -3 },
];

/**
 * Whether a rendered page has any ink: a pixel darker than light grey. A code is dark bars on light, so a
 * page without one has no code; a scanned blank page's speckles count as ink (it is decoded as any page).
 */
function hasInk(image: Pixels): boolean {
  const { data } = image;
  for (let i = 0; i < data.length; i += 4) if (data[i]! < 160) return true;
  return false;
}

/** Renders a page in grey and reads its codes (see RETRIES). */
async function readCodes(request: CodesRequest): Promise<FromOcrChild> {
  const started = performance.now();
  const doc = await documentFor(request.file);
  if (request.page < 1) throw new RequestFailure('page', `page ${request.page} is not a page number`);
  const answer = { type: 'codesDone' as const, id: request.id, pages: doc.numPages };
  if (request.page > doc.numPages) return { ...answer, codes: [], renderMs: 0, decodeMs: 0, attempts: 0 };
  const [image, reader] = await Promise.all([renderPixels(doc, request.page, request.dpi), loadZXing()]);
  const rendered = performance.now();
  // A page without ink (the blank back of a duplex scan) holds no code: not decoded at all.
  if (!hasInk(image))
    return { ...answer, codes: [], renderMs: Math.round(rendered - started), decodeMs: 0, attempts: 0 };
  // Every code found is kept (each once); the retries go on until one of Sijill's own is among them: a
  // letter's own QR code (an e-invoice's, a sender's) must not stop the search for the sticker beside it.
  const found = new Map<string, { format: string; text: string }>();
  const add = (codes: { format: string; text: string }[]) => {
    for (const code of codes) found.set(`${code.format}\n${code.text}`, code);
  };
  const ours = () => [...found.values()].some((code) => markOfCode(code) !== null);
  add(await decode(reader, image));
  let attempts = 1;
  for (const retry of RETRIES) {
    if (ours()) break;
    attempts += 1;
    add(
      'options' in retry
        ? await decode(reader, image, retry.options)
        : await decode(reader, await transformed(image, retry)),
    );
  }
  return {
    ...answer,
    codes: [...found.values()],
    renderMs: Math.round(rendered - started),
    decodeMs: Math.round(performance.now() - rendered),
    attempts,
  };
}

async function recognise(request: OcrRequest): Promise<FromOcrChild> {
  const started = performance.now();
  const doc = await documentFor(request.file);
  if (request.page < 1 || request.page > doc.numPages)
    throw new Error(`page ${request.page} is not in the document (${doc.numPages} pages)`);
  const image = await renderPage(doc, request.page, request.dpi);
  const rendered = performance.now();
  const worker = await tesseractFor(request.languages);
  await worker.setParameters({ user_defined_dpi: String(Math.round(image.dpi)) });
  // The blocks (words with their boxes and symbols) are what the digits are read again from.
  const { data } = await worker.recognize(image.png, {}, { text: true, blocks: true });
  const text = await withArabicIndicNumbers(data, image);
  return {
    type: 'done',
    id: request.id,
    text,
    width: image.width,
    height: image.height,
    renderMs: Math.round(rendered - started),
    ocrMs: Math.round(performance.now() - rendered),
  };
}

async function shutdown(code: number): Promise<never> {
  try {
    await closeDocument();
    await tesseract?.worker.terminate();
  } finally {
    process.exit(code);
  }
}

let work = Promise.resolve();
/** Requests received and not yet answered. */
let pending = 0;
let documentIdle: NodeJS.Timeout | null = null;

function onMessage(message: unknown): void {
  const m = message as ToOcrChild;
  if (m?.type === 'exit') {
    work = work.then(() => shutdown(0));
    return;
  }
  if (m?.type !== 'ocr' && m?.type !== 'text' && m?.type !== 'codes') return;
  pending += 1;
  if (documentIdle) clearTimeout(documentIdle);
  documentIdle = null;
  // One request at a time, in the order asked.
  work = work.then(async () => {
    try {
      send(
        m.type === 'text' ? await readText(m) : m.type === 'codes' ? await readCodes(m) : await recognise(m),
      );
    } catch (error) {
      send({
        type: 'failed',
        id: m.id,
        message: error instanceof Error ? error.message : String(error),
        kind: error instanceof RequestFailure ? error.kind : 'page',
      });
    }
    pending -= 1;
    if (pending === 0 && openDocument) {
      // No more work asked for: the document is closed unless a request comes soon.
      documentIdle = setTimeout(() => {
        documentIdle = null;
        if (pending === 0) work = work.then(closeDocument);
      }, DOCUMENT_IDLE_MS);
      documentIdle.unref();
    }
  });
}

if (parentPort) {
  parentPort.on('message', (event) => onMessage(event.data));
} else if (process.send) {
  process.on('message', onMessage);
  // The server went away: nothing is left to work for.
  process.on('disconnect', () => void shutdown(0));
} else {
  console.error('ocr-child: start me through ocr-process.ts (child_process.fork or a utility process)');
  process.exit(2);
}

lowerPriority();
send({ type: 'ready', pid: process.pid });
