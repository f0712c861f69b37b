/**
 * Arabic-Indic digits read again on a scanned page (issue 25, item 9). Tesseract's published Arabic models
 * (ara, best and fast, the Arabic script model, Persian) were trained with almost no Arabic-Indic digits
 * and read ٢٠٢٦/٤٥٦ as Latin junk ("TE/VE", "١76/1786"): no setting of the engine changes that
 * (bench/search/ocr-digits.ts measures the settings tried; docs/search-ocr.md has the figures). So after
 * Tesseract has read a page, the words of an Arabic line that look like a misread number (no Arabic
 * letter, some Latin letter or digit) are read here again, glyph by glyph:
 *
 * - the region of a run of such words is cut from the page in black and white and split into its
 *   connected components (digits are separate glyphs in every Arabic font);
 * - each component is compared (nearest neighbour on a 12×12 shape plus its proportions, its height
 *   and its place against the tallest glyph of the region) with templates — Arabic-Indic digits, Latin
 *   digits and the separators of numbers — drawn at two sizes from the label fonts the server ships
 *   (Noto Sans Arabic and Noto Sans, regular and bold), the shipped Noto Naskh Arabic and the machine's
 *   document fonts (digit-fonts.ts);
 * - when the components are nearer to the Arabic-Indic digits than to the Latin ones, the run is replaced
 *   by the digits read, in logical order (a number runs left to right inside the right-to-left line);
 *   otherwise Tesseract's reading is kept (Latin digits in an Arabic letter are read well by it).
 *
 * The Arabic letter of a circular's number (٢٠٢٦/٤٥٦/ص) is kept from Tesseract's own reading of that
 * glyph. Pure functions over pixels, but for the templates, which are drawn once with fontkit and sharp.
 */
import type Tesseract from 'tesseract.js';
import { loadFonts, type ShapingFont } from '../labels/fonts';
import { digitTemplateFonts } from './digit-fonts';

/** A grey image, one byte a pixel (0 black). */
export interface GreyImage {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A connected component of ink: its box and its pixels (a mask over the box). */
interface Component extends Box {
  mask: Uint8Array;
}

const INK = 140;
const GRID = 12;
const INDIC = '٠١٢٣٤٥٦٧٨٩';
const LATIN = '0123456789';
/** Separators inside numbers: drawn from the Latin fonts but for the Arabic thousands separator. */
const SEPARATORS = '/-.,';
const ARABIC_SEPARATORS = '٬';

/** The connected components (8-connected) of the ink inside `box`, smallest specks left out. */
function componentsIn(image: GreyImage, box: Box): Component[] {
  const x0 = Math.max(0, Math.floor(box.x0));
  const y0 = Math.max(0, Math.floor(box.y0));
  const x1 = Math.min(image.width, Math.ceil(box.x1));
  const y1 = Math.min(image.height, Math.ceil(box.y1));
  const w = x1 - x0;
  const h = y1 - y0;
  if (w <= 0 || h <= 0) return [];
  const label = new Int32Array(w * h);
  const out: Component[] = [];
  const stack: number[] = [];
  let next = 0;
  for (let start = 0; start < w * h; start += 1) {
    if (label[start] !== 0) continue;
    const sx = start % w;
    const sy = (start - sx) / w;
    if (image.data[(y0 + sy) * image.width + x0 + sx]! >= INK) {
      label[start] = -1;
      continue;
    }
    next += 1;
    const pixels: number[] = [];
    label[start] = next;
    stack.push(start);
    let bx0 = sx;
    let by0 = sy;
    let bx1 = sx;
    let by1 = sy;
    while (stack.length) {
      const p = stack.pop()!;
      pixels.push(p);
      const px = p % w;
      const py = (p - px) / w;
      if (px < bx0) bx0 = px;
      if (px > bx1) bx1 = px;
      if (py < by0) by0 = py;
      if (py > by1) by1 = py;
      for (let dy = -1; dy <= 1; dy += 1)
        for (let dx = -1; dx <= 1; dx += 1) {
          const nx = px + dx;
          const ny = py + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (label[q] !== 0) continue;
          if (image.data[(y0 + ny) * image.width + x0 + nx]! >= INK) {
            label[q] = -1;
            continue;
          }
          label[q] = next;
          stack.push(q);
        }
    }
    if (pixels.length < 6) continue;
    const cw = bx1 - bx0 + 1;
    const mask = new Uint8Array(cw * (by1 - by0 + 1));
    for (const p of pixels) {
      const px = p % w;
      mask[((p - px) / w - by0) * cw + px - bx0] = 1;
    }
    out.push({ x0: x0 + bx0, y0: y0 + by0, x1: x0 + bx1 + 1, y1: y0 + by1 + 1, mask });
  }
  return out.sort((a, b) => a.x0 - b.x0);
}

/**
 * A component's features: its shape on a GRID×GRID square (kept in proportion, centred), then its
 * proportions, its height and its middle against `band` (the box of the tallest glyph beside it).
 */
function features(c: Component, band: { top: number; height: number }): Float32Array {
  const w = c.x1 - c.x0;
  const h = c.y1 - c.y0;
  const side = Math.max(w, h);
  const offX = (side - w) / 2;
  const offY = (side - h) / 2;
  const f = new Float32Array(GRID * GRID + 3);
  // Each cell is the share of ink over the pixels it covers (at least one: a small glyph has fewer
  // pixels than cells).
  const span = (g: number) => {
    const from = Math.floor((g * side) / GRID);
    return [from, Math.max(from + 1, Math.ceil(((g + 1) * side) / GRID))] as const;
  };
  for (let gy = 0; gy < GRID; gy += 1) {
    const [sy0, sy1] = span(gy);
    for (let gx = 0; gx < GRID; gx += 1) {
      const [sx0, sx1] = span(gx);
      let ink = 0;
      for (let sy = sy0; sy < sy1; sy += 1)
        for (let sx = sx0; sx < sx1; sx += 1) {
          const x = Math.floor(sx - offX);
          const y = Math.floor(sy - offY);
          if (x >= 0 && y >= 0 && x < w && y < h && c.mask[y * w + x]) ink += 1;
        }
      f[gy * GRID + gx] = ink / ((sy1 - sy0) * (sx1 - sx0));
    }
  }
  f[GRID * GRID] = Math.log(w / h) * 1.5;
  f[GRID * GRID + 1] = (h / band.height) * 4;
  f[GRID * GRID + 2] = (((c.y0 + c.y1) / 2 - band.top) / band.height) * 4;
  return f;
}

function distance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
}

interface Template {
  symbol: string;
  family: 'indic' | 'latin' | 'separator';
  features: Float32Array;
}

let templates: Promise<Template[]> | null = null;

/**
 * The sizes templates are drawn at (pixels to the em): large, and near a 12-point letter at 300 dpi, where
 * a small glyph (٠, a separator) is a few pixels and its shape is not the large one's.
 */
const TEMPLATE_SIZES = [96, 40];

/** An SVG path of a fontkit glyph, at `scale` pixels a font unit, baseline at `baseline`. */
function svgPath(font: ShapingFont, symbol: string, scale: number, x: number, baseline: number): string {
  const glyph = font.layout(symbol).glyphs[0]!;
  const at = (px: number, py: number) =>
    `${(x + px * scale).toFixed(2)} ${(baseline - py * scale).toFixed(2)}`;
  return glyph.path.commands
    .map(({ command, args }) => {
      switch (command) {
        case 'moveTo':
          return `M${at(args[0]!, args[1]!)}`;
        case 'lineTo':
          return `L${at(args[0]!, args[1]!)}`;
        case 'quadraticCurveTo':
          return `Q${at(args[0]!, args[1]!)} ${at(args[2]!, args[3]!)}`;
        case 'bezierCurveTo':
          return `C${at(args[0]!, args[1]!)} ${at(args[2]!, args[3]!)} ${at(args[4]!, args[5]!)}`;
        case 'closePath':
          return 'Z';
        default:
          return '';
      }
    })
    .join('');
}

/**
 * Draws `symbols` of one font in a row (each in its own cell), with sharp, and answers each symbol's
 * components as a page would give them.
 */
async function drawSymbols(
  font: ShapingFont,
  symbols: string[],
  em: number,
): Promise<{ image: GreyImage; cells: Box[] }> {
  const { default: sharp } = await import('sharp');
  // One libvips thread, as the OCR child uses it (one page at a time).
  sharp.concurrency(1);
  const scale = em / font.unitsPerEm;
  const cell = em * 1.5;
  const width = Math.ceil(cell * symbols.length);
  const height = Math.ceil(em * 2);
  const baseline = em * 1.3;
  const paths = symbols.map(
    (s, i) => `<path d="${svgPath(font, s, scale, i * cell + em * 0.25, baseline)}"/>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g fill="#000">${paths.join('')}</g></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image = { data: new Uint8Array(data), width: info.width, height: info.height };
  const cells = symbols.map((_, i) => ({ x0: i * cell + 1, y0: 0, x1: (i + 1) * cell - 1, y1: height }));
  return { image, cells };
}

/**
 * The band the digits of a region stand in: the height most of its tall glyphs have (the upper quartile
 * of the heights, so that a slash or a letter taller than the digits does not set it), and where their
 * tops are.
 */
function bandOf(cs: Box[]): { top: number; height: number } {
  const heights = cs.map((c) => c.y1 - c.y0).sort((a, b) => a - b);
  const height = heights[Math.floor((heights.length - 1) * 0.75)]!;
  const tops = cs
    .filter((c) => Math.abs(c.y1 - c.y0 - height) <= height * 0.15)
    .map((c) => c.y0)
    .sort((a, b) => a - b);
  return { top: tops[Math.floor(tops.length / 2)] ?? cs[0]!.y0, height };
}

/** The union box of components. */
const union = (cs: Box[]): Box => ({
  x0: Math.min(...cs.map((c) => c.x0)),
  y0: Math.min(...cs.map((c) => c.y0)),
  x1: Math.max(...cs.map((c) => c.x1)),
  y1: Math.max(...cs.map((c) => c.y1)),
});

/** One component for a drawn symbol (its largest; a symbol of several pieces is not a template). */
function symbolComponent(image: GreyImage, box: Box): Component | null {
  const cs = componentsIn(image, box);
  if (cs.length === 0) return null;
  return cs.reduce((a, b) => (a.mask.length >= b.mask.length ? a : b));
}

/** The templates, drawn once from the fonts the server ships. */
function loadTemplates(): Promise<Template[]> {
  templates ??= (async () => {
    const fonts = await loadFonts();
    const out: Template[] = [];
    /** Draws `symbols` of `font` and keeps their templates, in the band `band` or their own. */
    const draw = async (
      font: ShapingFont,
      family: Template['family'],
      symbols: string,
      band?: { top: number; height: number },
    ) => {
      const list = [...symbols].filter((s) => font.hasGlyphForCodePoint(s.codePointAt(0)!));
      if (list.length === 0) return band;
      let own = band;
      for (const em of TEMPLATE_SIZES) {
        const drawn = await drawSymbols(font, list, em);
        const cs = list.map((_, i) => symbolComponent(drawn.image, drawn.cells[i]!));
        // The band: the tallest digits of the family in this font, as on a page.
        own = band ?? bandOf(cs.filter((c): c is Component => c !== null));
        list.forEach((symbol, i) => {
          if (cs[i]) out.push({ symbol, family, features: features(cs[i]!, own!) });
        });
      }
      return own;
    };
    const arabicBand = await draw(fonts.arabic.font, 'indic', INDIC);
    await draw(fonts['arabic-bold'].font, 'indic', INDIC);
    const latinBand = await draw(fonts.latin.font, 'latin', LATIN);
    await draw(fonts['latin-bold'].font, 'latin', LATIN);
    await draw(fonts.arabic.font, 'latin', LATIN, arabicBand);
    await draw(fonts.latin.font, 'separator', SEPARATORS, latinBand);
    await draw(fonts.arabic.font, 'separator', ARABIC_SEPARATORS, arabicBand);
    // The other faces (digit-fonts.ts): their Arabic-Indic digits, their Latin digits (so that a number
    // in Latin digits typed in that face stays nearer to the Latin ones) and the Arabic separator.
    const label = Object.values(fonts).map((f) => f.font.postscriptName ?? '');
    for (const { font } of await digitTemplateFonts(label)) {
      const before = out.length;
      try {
        const band = await draw(font, 'indic', INDIC);
        if ([...LATIN].every((d) => font.hasGlyphForCodePoint(d.codePointAt(0)!)))
          await draw(font, 'latin', LATIN);
        if (band) await draw(font, 'separator', ARABIC_SEPARATORS, band);
      } catch {
        // A face whose glyphs cannot be drawn adds nothing.
        out.length = before;
      }
    }
    return out;
  })();
  templates.catch(() => {
    templates = null;
  });
  return templates;
}

/** The nearest template of `families` to `f`, and its distance. */
function nearest(all: Template[], f: Float32Array, families: Template['family'][]) {
  let best: Template | null = null;
  let bestDistance = Infinity;
  for (const t of all) {
    if (!families.includes(t.family)) continue;
    const d = distance(f, t.features);
    if (d < bestDistance) {
      bestDistance = d;
      best = t;
    }
  }
  return { template: best!, distance: bestDistance };
}

/** A component read by Tesseract as a letter and farther than this from every digit is that letter. */
const LETTER = 2.5;
/** A component farther than this from every template is not read at all (a letter misread by Tesseract). */
const UNKNOWN = 3.5;
/** The same for a small component (a ٠ has few pixels). */
const UNKNOWN_SMALL = 6;

/** How a component is read: a digit, a separator, a letter Tesseract read there, or nothing. */
interface ReadGlyph {
  box: Box;
  symbol: string;
  digit: boolean;
}

/**
 * Reads the glyphs of a region (`box`, inside the line `line`) as Arabic-Indic digits, or answers null when
 * they are not (nearer to the Latin digits, or no digit at all). The region grows over the digits just
 * beside it that Tesseract put in a neighbouring word. `letterAt` names the Arabic letter Tesseract read
 * over a box, if any.
 */
function readRegion(
  image: GreyImage,
  box: Box,
  line: Box,
  all: Template[],
  letterAt: (c: Box) => string | null,
): string | null {
  const lineHeight = line.y1 - line.y0;
  const around = componentsIn(image, {
    x0: Math.max(line.x0, box.x0 - lineHeight * 2),
    y0: line.y0 - lineHeight * 0.1,
    x1: Math.min(line.x1, box.x1 + lineHeight * 2),
    y1: line.y1 + lineHeight * 0.1,
  });
  const inside = (c: Box) => (c.x0 + c.x1) / 2 >= box.x0 && (c.x0 + c.x1) / 2 <= box.x1;
  let first = around.findIndex(inside);
  if (first < 0) return null;
  let last = around.length - 1;
  while (last > first && !inside(around[last]!)) last -= 1;
  const band = bandOf(around.slice(first, last + 1));
  const readOne = (c: Component) => {
    const f = features(c, band);
    return { i: nearest(all, f, ['indic', 'separator']), l: nearest(all, f, ['latin', 'separator']) };
  };
  // A clean digit just beside the region, closer than a space, belongs to the number (a ١ Tesseract left
  // out: its side bearings are wide, ~0.45 of the digits' height, where a space between words is ~0.75).
  const joins = (c: Component | undefined, gap: number) => {
    if (!c || gap > band.height * 0.55) return false;
    const { i } = readOne(c);
    return i.template.family === 'indic' && i.distance < LETTER;
  };
  while (joins(around[first - 1], around[first]!.x0 - (around[first - 1]?.x1 ?? 0))) first -= 1;
  while (joins(around[last + 1], (around[last + 1]?.x0 ?? 0) - around[last]!.x1)) last += 1;
  const cs = around.slice(first, last + 1);
  let indic = 0;
  let latin = 0;
  let digits = 0;
  const read: ReadGlyph[] = cs.map((c) => {
    const { i, l } = readOne(c);
    if (i.template.family === 'indic' || l.template.family === 'latin') {
      indic += Math.min(i.distance, UNKNOWN);
      latin += Math.min(l.distance, UNKNOWN);
    }
    // A glyph Tesseract read as an Arabic letter, and unlike a digit, is that letter (the ص of a
    // circular's number); one unlike anything (a letter Tesseract took for Latin junk) is left out. Small
    // glyphs (٠, separators) are drawn with few pixels and allowed a larger distance.
    const small = c.y1 - c.y0 < band.height * 0.4;
    const letter = letterAt(c);
    if ((letter && i.distance > LETTER) || i.distance > (small ? UNKNOWN_SMALL : UNKNOWN))
      return { box: c, symbol: letter ?? '', digit: false };
    const digit = i.template.family === 'indic';
    if (digit) digits += 1;
    return { box: c, symbol: i.template.symbol, digit };
  });
  if (digits === 0 || indic >= latin) return null;
  return logicalOrder(read, band.height);
}

/**
 * The text of glyphs read left to right on a right-to-left line: a number (digits, and separators
 * between digits) runs left to right and stays as it is; anything else is an item of the right-to-left
 * line. Logical order is the items reversed. Digits are kept together across the spacing of a narrow digit
 * (١ and ٠ stand far apart from their neighbours); only a gap wider than a digit parts two numbers.
 */
function logicalOrder(read: ReadGlyph[], bandHeight: number): string {
  const items: string[] = [];
  let run = '';
  let lastX = -Infinity;
  read.forEach((r, k) => {
    const gap = r.box.x0 - lastX > bandHeight * 1.2;
    lastX = r.box.x1;
    const separator = !r.digit && (SEPARATORS.includes(r.symbol) || ARABIC_SEPARATORS.includes(r.symbol));
    const between = separator && run !== '' && read[k + 1]?.digit === true;
    if (r.digit || between) {
      if (gap && run) {
        items.push(run, ' ');
        run = '';
      }
      run += r.symbol;
      return;
    }
    if (run) items.push(run);
    run = '';
    if (r.symbol) items.push(r.symbol);
  });
  if (run) items.push(run);
  return items.reverse().join('').replace(/\s+/g, ' ').trim();
}

const ARABIC_LETTER = /[\u0621-\u064a]/;
const ARABIC_LETTERS = /[\u0621-\u064a]/g;
const LATIN_LETTERS = /[A-Za-z]/g;
const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

/** A word Tesseract read that may be a number in Arabic-Indic digits misread. */
function numberShaped(word: Tesseract.Word): boolean {
  // Only marks (`+/+`, `|`, `.`): what Tesseract makes of a ٠ or a ٨ among other marks.
  if (!/[\p{L}\p{N}]/u.test(word.text)) return /\S/.test(word.text);
  if (!/[0-9A-Za-z\u0660-\u0669]/.test(word.text)) return false;
  if (!ARABIC_LETTER.test(word.text)) return true;
  // A circular's number with its letter (٢٠٢٦/٤٥٦/ص): digits, a separator and one letter.
  return /[0-9\u0660-\u0669]/.test(word.text) && count(word.text, ARABIC_LETTERS) <= 1;
}

const stripMarks = (text: string) => text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');

/**
 * The text of a page Tesseract read (`page`, with its blocks), with the runs of number-shaped words of
 * its Arabic lines read again as Arabic-Indic digits where their glyphs are those (see the top of this
 * file); null when nothing was changed (the caller keeps Tesseract's text). `image` is the page as read.
 */
export async function rereadArabicIndicNumbers(
  page: Tesseract.Page,
  image: GreyImage,
): Promise<{ text: string; regions: number; replaced: number } | null> {
  if (!page.blocks || !ARABIC_LETTER.test(page.text)) return null;
  const all = await loadTemplates();
  let regions = 0;
  let replaced = 0;
  const paragraphs: string[] = [];
  for (const block of page.blocks)
    for (const paragraph of block.paragraphs) {
      const lines: string[] = [];
      for (const line of paragraph.lines) {
        const words = line.words.map((w) => ({ word: w, text: stripMarks(w.text).trim() }));
        if (count(line.text, ARABIC_LETTERS) <= count(line.text, LATIN_LETTERS)) {
          lines.push(words.map((w) => w.text).join(' '));
          continue;
        }
        const out: string[] = [];
        for (let i = 0; i < words.length;) {
          if (!numberShaped(words[i]!.word)) {
            out.push(words[i]!.text);
            i += 1;
            continue;
          }
          let j = i + 1;
          while (j < words.length && numberShaped(words[j]!.word)) j += 1;
          const run = words.slice(i, j);
          const box = union(run.map((w) => w.word.bbox));
          regions += 1;
          const letters = run.flatMap((w) => w.word.symbols).filter((s) => ARABIC_LETTER.test(s.text));
          const letterAt = (c: Box) => {
            const s = letters.find(
              (l) => l.bbox.x0 < c.x1 && c.x0 < l.bbox.x1 && l.bbox.y0 < c.y1 && c.y0 < l.bbox.y1,
            );
            return s ? s.text : null;
          };
          const again = readRegion(
            image,
            { ...box, x0: box.x0 - 2, x1: box.x1 + 2 },
            line.bbox,
            all,
            letterAt,
          );
          if (again) {
            replaced += 1;
            out.push(again);
          } else out.push(...run.map((w) => w.text));
          i = j;
        }
        lines.push(out.join(' '));
      }
      paragraphs.push(lines.join('\n'));
    }
  return replaced > 0 ? { text: paragraphs.join('\n\n'), regions, replaced } : null;
}
