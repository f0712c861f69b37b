/**
 * Test PDFs made on the spot, for the extraction tests and benchmarks (and any test that needs a real
 * Arabic document): a born-digital PDF printed by Chromium (whose content streams hold Arabic in visual
 * order, as many producers do), a scanned PDF (a Chromium screenshot wrapped by pdf-lib into pages with no
 * text layer), an encrypted PDF (RC4, standard security handler, a user password) and broken files.
 *
 * Needs Debian's Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH). The born-digital pages use DejaVu Sans,
 * which fontconfig (a dependency of Chromium) always brings on Debian: its glyphs map back to characters.
 * The bundled Noto Sans Arabic draws letters from dot-less shapes plus separate dots, which Chromium's
 * PDF maps to nothing, so its text layer cannot be read back (the extractor sends such pages to OCR).
 * The scans use Noto Sans Arabic (from @fontsource), so they do not depend on the machine's fonts.
 */
import { execFile } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';

const run = promisify(execFile);

/** Debian's Chromium, or the one CHROMIUM_PATH names. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** True when Chromium is there to make the PDFs (tests skip with a message otherwise). */
export function canMakePdfs(): boolean {
  return existsSync(CHROMIUM);
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--hide-scrollbars',
  '--force-device-scale-factor=1',
];

const resolveFromHere = createRequire(import.meta.url).resolve;

/** The bundled Noto Sans Arabic (regular), as a file URL for @font-face. */
function notoSansArabicUrl(): string {
  const root = dirname(resolveFromHere('@fontsource/noto-sans-arabic/package.json'));
  return pathToFileURL(join(root, 'files', 'noto-sans-arabic-arabic-400-normal.woff2')).href;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Runs Chromium headless on an HTML file with extra arguments (print-to-pdf or screenshot), on a fresh profile. */
async function chromium(htmlFile: string, args: string[]): Promise<void> {
  const profile = await mkdtemp(join(tmpdir(), 'sijill-chromium-'));
  try {
    await run(
      CHROMIUM,
      [...CHROMIUM_ARGS, `--user-data-dir=${profile}`, ...args, pathToFileURL(htmlFile).href],
      {
        timeout: 120_000,
      },
    );
  } finally {
    await rm(profile, { recursive: true, force: true, maxRetries: 5 });
  }
}

let counter = 0;
const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${(counter += 1)}`;

/** Options of makeBornDigitalPdf. */
export interface BornDigitalOptions {
  /** File name without `.pdf` (default: a unique one). */
  name?: string;
  /** Lines per printed page: a page break follows every so many lines (default: none, pages as they fill). */
  linesPerPage?: number;
  /** Font size in CSS pixels (default 18). */
  fontSize?: number;
}

/**
 * Prints `lines` (one paragraph each, direction by content: `dir="auto"`, in a right-to-left page) with
 * Chromium's print-to-PDF into `dir`, and answers the PDF's path.
 */
export async function makeBornDigitalPdf(
  lines: string[],
  dir: string,
  options: BornDigitalOptions = {},
): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const name = options.name ?? uniqueName('born-digital');
  const every = options.linesPerPage ?? Infinity;
  const body = lines
    .map((line, i) => {
      const breakAfter = (i + 1) % every === 0 && i < lines.length - 1;
      return `<p dir="auto"${breakAfter ? ' style="break-after: page"' : ''}>${escapeHtml(line)}</p>`;
    })
    .join('\n');
  const html = join(dir, `${name}.html`);
  writeFileSync(
    html,
    `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><style>
body { font-family: 'DejaVu Sans'; font-size: ${options.fontSize ?? 18}px; margin: 0; }
p { margin: 0 0 0.6em; }
</style></head><body>${body}</body></html>`,
  );
  const pdf = join(dir, `${name}.pdf`);
  await chromium(html, [`--print-to-pdf=${pdf}`, '--no-pdf-header-footer']);
  if (!existsSync(pdf)) throw new Error(`Chromium made no PDF from ${html}`);
  return pdf;
}

/**
 * Prints a whole HTML document (`html`, written to `dir`) with Chromium's print-to-PDF, and answers the
 * PDF's path: for pages that need their own fonts and layout (ligature fonts, words placed without spaces).
 */
export async function makeHtmlPdf(html: string, dir: string, name = uniqueName('html')): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.html`);
  writeFileSync(file, html);
  const pdf = join(dir, `${name}.pdf`);
  await chromium(file, [`--print-to-pdf=${pdf}`, '--no-pdf-header-footer']);
  if (!existsSync(pdf)) throw new Error(`Chromium made no PDF from ${file}`);
  return pdf;
}

/** Options of makeScannedPdf. */
export interface ScannedOptions {
  /** File name without `.pdf` (default: a unique one). */
  name?: string;
  /** Font size in CSS pixels of the rendered page (default 30: about 11 pt on A4 at 150 dpi). */
  fontSize?: number;
  /** Text direction of the page (default `rtl`; each line still takes its own by content). */
  dir?: 'rtl' | 'ltr';
  /** A font family installed on the machine to draw the page in (default: Noto Sans Arabic from npm). */
  fontFamily?: string;
}

/** Page image size: A4 at 150 dpi. */
const SCAN_WIDTH = 1240;
const SCAN_HEIGHT = 1754;

/**
 * Renders `lines` as an A4 page image (1240×1754 pixels, 150 dpi) with Chromium's screenshot, in Noto
 * Sans Arabic, and answers the PNG's bytes.
 */
export async function renderPageImage(
  lines: string[],
  dir: string,
  options: ScannedOptions = {},
): Promise<Buffer> {
  mkdirSync(dir, { recursive: true });
  const name = uniqueName('scan-page');
  const html = join(dir, `${name}.html`);
  const body = lines.map((line) => `<p dir="auto">${escapeHtml(line)}</p>`).join('\n');
  writeFileSync(
    html,
    `<!doctype html><html lang="ar" dir="${options.dir ?? 'rtl'}"><head><meta charset="utf-8"><style>
@font-face { font-family: 'Scan Sans'; src: url('${notoSansArabicUrl()}') format('woff2'); }
html, body { background: #fff; color: #000; }
body { font-family: ${options.fontFamily ? `'${options.fontFamily}', ` : ''}'Scan Sans', 'DejaVu Sans', sans-serif; font-size: ${options.fontSize ?? 30}px;
  margin: 0; padding: 110px 120px; }
p { margin: 0 0 0.8em; line-height: 1.5; }
</style></head><body>${body}</body></html>`,
  );
  const png = join(dir, `${name}.png`);
  await chromium(html, [`--screenshot=${png}`, `--window-size=${SCAN_WIDTH},${SCAN_HEIGHT}`]);
  if (!existsSync(png)) throw new Error(`Chromium made no screenshot of ${html}`);
  return readFileSync(png);
}

/**
 * Makes a scanned PDF in `dir`: each entry of `pages` (a page's lines) is rendered to an image and put on
 * an A4 page of its own, with no text layer at all. A flat list of lines makes one page. Answers the path.
 */
export async function makeScannedPdf(
  pages: string[] | string[][],
  dir: string,
  options: ScannedOptions = {},
): Promise<string> {
  const list: string[][] =
    pages.length > 0 && Array.isArray(pages[0]) ? (pages as string[][]) : [pages as string[]];
  const images: Buffer[] = [];
  for (const lines of list) images.push(await renderPageImage(lines, dir, options));
  return wrapImagesInPdf(images, join(dir, `${options.name ?? uniqueName('scanned')}.pdf`));
}

/** Writes a PDF of A4 pages, each filled by one PNG image (no text layer), to `path`. */
export async function wrapImagesInPdf(pngs: Buffer[], path: string): Promise<string> {
  const doc = await PDFDocument.create();
  doc.setProducer('sijill tests (scanned page)');
  for (const png of pngs) {
    const image = await doc.embedPng(png);
    const page = doc.addPage([595.28, 841.89]);
    page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(path, await doc.save());
  return path;
}

/** RC4, the cipher of the PDF standard security handler's revision 2 (40-bit keys). */
function rc4(key: Buffer, data: Buffer): Buffer {
  try {
    const cipher = createCipheriv('rc4', key, null);
    return Buffer.concat([cipher.update(data), cipher.final()]);
  } catch {
    // OpenSSL 3 without its legacy provider has no RC4: the cipher is small enough to write out.
    const s = Array.from({ length: 256 }, (_, i) => i);
    for (let i = 0, j = 0; i < 256; i += 1) {
      j = (j + s[i]! + key[i % key.length]!) & 255;
      [s[i], s[j]] = [s[j]!, s[i]!];
    }
    const out = Buffer.alloc(data.length);
    for (let n = 0, i = 0, j = 0; n < data.length; n += 1) {
      i = (i + 1) & 255;
      j = (j + s[i]!) & 255;
      [s[i], s[j]] = [s[j]!, s[i]!];
      out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
    }
    return out;
  }
}

const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();

/** The 32-byte padding of the standard security handler. */
const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const padPassword = (password: string) =>
  Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PAD]).subarray(0, 32);

/**
 * Writes a one-page PDF encrypted with a user password (standard security handler, V1 R2, RC4 40-bit: the
 * oldest form, which every reader supports) whose page shows `text` (ASCII), and answers its path. Without
 * the password the page cannot be read; with it, pdf.js reads `text`.
 */
export function makeEncryptedPdf(
  dir: string,
  options: { userPassword: string; ownerPassword?: string; text: string; name?: string },
): string {
  mkdirSync(dir, { recursive: true });
  const id = createHash('md5').update(`sijill-${options.text}`).digest();
  const permissions = -44; // print, copy and the rest allowed (bits 3-6 set, upper bits 1)
  // Algorithm 3 (owner entry) and 2 (file key), then 4 (user entry), of the PDF reference.
  const ownerKey = md5(padPassword(options.ownerPassword ?? `${options.userPassword}-owner`)).subarray(0, 5);
  const O = rc4(ownerKey, padPassword(options.userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions, 0);
  const fileKey = md5(padPassword(options.userPassword), O, p, id).subarray(0, 5);
  const U = rc4(fileKey, PASSWORD_PAD);
  const objectKey = (num: number) => {
    const extra = Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0]);
    return md5(fileKey, extra).subarray(0, 10);
  };
  const escaped = options.text.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = rc4(objectKey(4), Buffer.from(`BT /F1 24 Tf 72 720 Td (${escaped}) Tj ET`, 'latin1'));
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R ' +
        '/Resources << /Font << /F1 5 0 R >> >> >>',
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`),
      content,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
    Buffer.from(
      `<< /Filter /Standard /V 1 /R 2 /O <${O.toString('hex')}> /U <${U.toString('hex')}> /P ${permissions} >>`,
    ),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), object, Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    length += chunk.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) tail += `${String(offset).padStart(10, '0')} 00000 n \n`;
  const idHex = id.toString('hex');
  tail +=
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 6 0 R /ID [<${idHex}> <${idHex}>] >>\n` +
    `startxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(tail, 'latin1'));
  const path = join(dir, `${options.name ?? uniqueName('encrypted')}.pdf`);
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

/** Writes a file that starts like a PDF but holds no readable document (header, then noise), and answers its path. */
export function makeBrokenPdf(dir: string, name = uniqueName('broken')): string {
  mkdirSync(dir, { recursive: true });
  const noise = Buffer.alloc(4096);
  for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 7919 + 13) % 251;
  const path = join(dir, `${name}.pdf`);
  writeFileSync(
    path,
    Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R', 'latin1'), noise]),
  );
  return path;
}
