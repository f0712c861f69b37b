/**
 * Bilingual text on a PDF page: a line is split into runs by the Unicode bidirectional algorithm
 * (bidi-js: embedding levels, runs put in visual order by rule L2, mirrored brackets at odd levels), each
 * run is set in the font of its script (Noto Sans Arabic for Arabic letters and Arabic-Indic digits, Noto
 * Sans for the rest) and shaped by fontkit (Arabic joining forms, required ligatures, mark and kerning
 * positions from GPOS), and the glyphs are drawn where the shaping put them.
 *
 * pdf-lib's own text drawing is not used: it keeps fontkit's glyph order but drops GPOS positions, and
 * Noto Sans Arabic draws the dots of letters as marks placed by GPOS (ج is the body of ح and a dot), so
 * the dots landed beside their letters. The fonts are therefore embedded here (subset, CIDFontType2,
 * Identity-H) with one code per glyph *and* text, so that a body shared by several letters still reads
 * back as the right letter (ToUnicode); the dots and other marks that stand for no character are drawn
 * as outlines, so they add nothing to the text layer.
 */
import bidiFactory from 'bidi-js';
import type { PDFName } from 'pdf-lib';
import {
  PDFHexString,
  PDFString,
  appendBezierCurve,
  appendQuadraticCurve,
  beginText,
  closePath,
  concatTransformationMatrix,
  endText,
  fill,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  setFillingRgbColor,
  setFontAndSize,
  setTextMatrix,
  showText,
  type PDFDocument,
  type PDFOperator,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import { loadFonts, type FontKey, type LoadedFont, type ShapedGlyph } from './fonts';

const bidi = bidiFactory();

/** Arabic-script characters (letters, Arabic-Indic digits, Arabic punctuation, presentation forms). */
const ARABIC = /[\u0600-\u06ff\u0750-\u077f\u0870-\u08ff\ufb50-\ufdff\ufe70-\ufefc]/;
/** Bidi marks, embeddings and isolates: they order the text and draw nothing. */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Characters that take the font of their neighbours (spaces, punctuation, symbols). */
const NEUTRAL = /[^\p{L}\p{N}\p{M}]/u;

export interface TextStyle {
  size: number;
  bold?: boolean;
  /** The paragraph direction: `rtl` for Arabic text (the default), `ltr` for English. */
  dir?: 'rtl' | 'ltr';
  /** Sets every character in this script's font (when it has the glyph), e.g. a number that must read back as one piece. */
  script?: 'arabic' | 'latin';
  /** Grey level of the text, 0 (black) to 1. */
  gray?: number;
  /**
   * Sets each character on its own, with no ligature or kerning: for codes and hashes, which read back
   * character by character (and set quickly, whatever their length, since no two are alike).
   */
  plain?: boolean;
}

/** A shaped piece of text in font units, as fontkit answers it, in visual order. */
interface ShapedPiece {
  glyphs: ShapedGlyph[];
  positions: { xAdvance: number; xOffset: number; yOffset: number }[];
}

/** One glyph placed on a line: `x`/`y` in points from the line's start and baseline. */
interface PlacedGlyph {
  font: FontKey;
  glyph: ShapedGlyph;
  /** The characters this glyph stands for, in the order a reader of the drawn line meets them. */
  text: string;
  x: number;
  y: number;
}

interface ShapedLine {
  glyphs: PlacedGlyph[];
  width: number;
}

/** A font embedded in one document: its glyphs are collected as text is drawn, the subset written at the end. */
class EmbeddedFont {
  readonly ref: PDFRef;
  /** `glyph id + text` → code (CID); codes from 1 (0 is .notdef). */
  private readonly codes = new Map<string, number>();
  private readonly entries: { gid: number; text: string; width: number }[] = [];

  constructor(
    private readonly doc: PDFDocument,
    private readonly loaded: LoadedFont,
  ) {
    this.ref = doc.context.nextRef();
  }

  codeFor(glyph: ShapedGlyph, text: string): number {
    const key = `${glyph.id}\u0000${text}`;
    let code = this.codes.get(key);
    if (code === undefined) {
      this.entries.push({ gid: glyph.id, text, width: glyph.advanceWidth });
      code = this.entries.length;
      this.codes.set(key, code);
    }
    return code;
  }

  /** Writes the subset font and its dictionaries under `ref`. */
  async finish(): Promise<void> {
    const { context } = this.doc;
    const { font } = this.loaded;
    const subset = evenGlyphRecords(font.createSubset());
    const gidOf = new Map<number, number>();
    for (const { gid } of this.entries) if (!gidOf.has(gid)) gidOf.set(gid, subset.includeGlyph(gid));
    const fontBytes = await new Promise<Uint8Array>((resolve, reject) => {
      const parts: Uint8Array[] = [];
      const stream = subset.encodeStream();
      stream.on('data', (data: Uint8Array) => parts.push(data));
      stream.on('end', () => resolve(concat(parts)));
      stream.on('error', (error: unknown) =>
        reject(error instanceof Error ? error : new Error(String(error))),
      );
    });
    const scale = 1000 / font.unitsPerEm;
    const tag = subsetTag(this.loaded.key, this.entries.length);
    const baseFont = `${tag}+${(font.postscriptName ?? this.loaded.key).replace(/[^\w-]/g, '')}`;
    const cidToGid = new Uint8Array((this.entries.length + 1) * 2);
    this.entries.forEach(({ gid }, index) => {
      const subsetGid = gidOf.get(gid)!;
      cidToGid[(index + 1) * 2] = subsetGid >> 8;
      cidToGid[(index + 1) * 2 + 1] = subsetGid & 0xff;
    });
    const fontFile = context.register(context.flateStream(fontBytes, { Length1: fontBytes.length }));
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: baseFont,
        Flags: 4,
        FontBBox: [font.bbox.minX, font.bbox.minY, font.bbox.maxX, font.bbox.maxY].map((v) =>
          Math.round(v * scale),
        ),
        ItalicAngle: 0,
        Ascent: Math.round(font.ascent * scale),
        Descent: Math.round(font.descent * scale),
        CapHeight: Math.round((font.capHeight || font.ascent) * scale),
        StemV: 80,
        FontFile2: fontFile,
      }),
    );
    const cidFont = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        BaseFont: baseFont,
        CIDSystemInfo: {
          Registry: PDFString.of('Adobe'),
          Ordering: PDFString.of('Identity'),
          Supplement: 0,
        },
        FontDescriptor: descriptor,
        W: [1, this.entries.map((e) => Math.round(e.width * scale))],
        CIDToGIDMap: context.register(context.flateStream(cidToGid)),
      }),
    );
    const toUnicode = context.register(context.flateStream(toUnicodeCMap(this.entries)));
    context.assign(
      this.ref,
      context.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: baseFont,
        Encoding: 'Identity-H',
        DescendantFonts: [cidFont],
        ToUnicode: toUnicode,
      }),
    );
  }
}

type Subset = ReturnType<LoadedFont['font']['createSubset']>;

/**
 * fontkit writes a small subset with the short `loca` format, which stores offsets halved, but copies
 * each glyph's record as it is: after a record of odd length every later glyph is read from the wrong
 * place (Noto Sans has such records — its Latin letters came out blank or as other letters). Each
 * record is padded to an even length, as the format requires.
 */
function evenGlyphRecords(subset: Subset): Subset {
  const internal = subset as Subset & {
    _addGlyph?: (gid: number) => number;
    glyf?: Uint8Array[];
    offset?: number;
  };
  const addGlyph = internal._addGlyph;
  if (typeof addGlyph !== 'function') return subset;
  internal._addGlyph = function (this: typeof internal, gid: number) {
    const index = addGlyph.call(this, gid);
    const record = this.glyf?.[index];
    if (record && record.length % 2 === 1 && this.offset !== undefined) {
      // fontkit's own Buffer class (its stream accepts no other): the record's constructor.
      const Kind = record.constructor as { alloc?: (size: number) => Uint8Array };
      const padded = Kind.alloc ? Kind.alloc(record.length + 1) : new Uint8Array(record.length + 1);
      padded.set(record);
      this.glyf![index] = padded;
      this.offset += 1;
    }
    return index;
  };
  return subset;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A subset's six-letter tag (PDF 9.6.4), from its font and size: stable for the same content. */
function subsetTag(key: FontKey, count: number): string {
  let n = count * 31 + key.length * 7 + key.charCodeAt(0);
  let tag = '';
  for (let i = 0; i < 6; i += 1) {
    tag += String.fromCharCode(65 + (n % 26));
    n = Math.floor(n / 26) + i * 11;
  }
  return tag;
}

const hex4 = (n: number) => n.toString(16).padStart(4, '0');

function utf16Hex(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) out += hex4(text.charCodeAt(i));
  return out;
}

/** The ToUnicode CMap: each code to its text (codes of no text are left out). */
function toUnicodeCMap(entries: { text: string }[]): Uint8Array {
  const lines: string[] = [];
  entries.forEach(({ text }, index) => {
    if (text) lines.push(`<${hex4(index + 1)}> <${utf16Hex(text)}>`);
  });
  const chunks: string[] = [];
  for (let i = 0; i < lines.length; i += 100) {
    const chunk = lines.slice(i, i + 100);
    chunks.push(`${chunk.length} beginbfchar\n${chunk.join('\n')}\nendbfchar`);
  }
  const cmap = [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <ffff>',
    'endcodespacerange',
    ...chunks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
  return new TextEncoder().encode(cmap);
}

/** The font a character is set in, or null for a neutral (it takes its neighbours'). */
function scriptOf(ch: string): 'arabic' | 'latin' | null {
  if (ARABIC.test(ch)) return 'arabic';
  if (NEUTRAL.test(ch)) return null;
  return 'latin';
}

/**
 * Sets text on the pages of one document. `create` loads the fonts; `finish` must be called once all
 * text is drawn, before the document is saved.
 */
export class Typesetter {
  private readonly embedded = new Map<FontKey, EmbeddedFont>();
  private readonly resourceNames = new Map<string, PDFName>();
  private readonly pageIds = new WeakMap<PDFPage, number>();
  private pages = 0;

  private constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: Record<FontKey, LoadedFont>,
  ) {}

  static async create(doc: PDFDocument): Promise<Typesetter> {
    return new Typesetter(doc, await loadFonts());
  }

  /** Shapes one line of text (no line breaks) into glyphs in visual order, from x = 0 left to right. */
  shape(text: string, style: TextStyle): ShapedLine {
    const line = text.replace(/\s+/g, ' ').trim();
    if (!line) return { glyphs: [], width: 0 };
    const { levels } = bidi.getEmbeddingLevels(line, style.dir ?? 'rtl');
    const mirrors = bidi.getMirroredCharactersMap(line, levels);
    const bold = style.bold ?? false;
    const fallback: 'arabic' | 'latin' = (style.dir ?? 'rtl') === 'rtl' ? 'arabic' : 'latin';

    // Characters (whole code points) with their level and script; neutrals take the script before them.
    const chars: { ch: string; level: number; script: 'arabic' | 'latin' | null }[] = [];
    for (let i = 0; i < line.length;) {
      const cp = line.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      // Bidi controls (isolates, marks) shape the order but are not drawn.
      if (BIDI_CONTROL.test(ch)) {
        i += ch.length;
        continue;
      }
      chars.push({ ch: mirrors.get(i) ?? ch, level: levels[i]!, script: scriptOf(ch) });
      i += ch.length;
    }
    for (let i = 0; i < chars.length; i += 1)
      if (chars[i]!.script === null && i > 0 && chars[i - 1]!.level === chars[i]!.level)
        chars[i]!.script = chars[i - 1]!.script;
    for (let i = chars.length - 1; i >= 0; i -= 1)
      if (chars[i]!.script === null)
        chars[i]!.script =
          i + 1 < chars.length && chars[i + 1]!.level === chars[i]!.level ? chars[i + 1]!.script : fallback;

    // Runs of one level and one script, in logical order.
    const runs: { text: string; level: number; key: FontKey }[] = [];
    for (const { ch, level, script } of chars) {
      let key: FontKey = (style.script ?? script) === 'arabic' ? 'arabic' : 'latin';
      if (!this.fonts[key].font.hasGlyphForCodePoint(ch.codePointAt(0)!))
        key = key === 'arabic' ? 'latin' : 'arabic';
      if (bold) key = `${key}-bold` as FontKey;
      const last = runs.at(-1);
      if (last && last.level === level && last.key === key) last.text += ch;
      else runs.push({ text: ch, level, key });
    }

    // Rule L2: from the highest level down to the lowest odd one, reverse every sequence at that level or above.
    const maxLevel = Math.max(...runs.map((r) => r.level));
    const minOdd = Math.min(...runs.map((r) => (r.level % 2 ? r.level : r.level + 1)));
    for (let level = maxLevel; level >= minOdd; level -= 1) {
      for (let i = 0; i < runs.length;) {
        if (runs[i]!.level < level) {
          i += 1;
          continue;
        }
        let j = i;
        while (j < runs.length && runs[j]!.level >= level) j += 1;
        runs.splice(i, j - i, ...runs.slice(i, j).reverse());
        i = j;
      }
    }

    const glyphs: PlacedGlyph[] = [];
    let pen = 0;
    for (const run of runs) {
      const { font } = this.fonts[run.key];
      const rtl = run.level % 2 === 1;
      const scale = style.size / font.unitsPerEm;
      // A run is shaped word by word (Arabic letters do not join across a space, nor do ligatures form
      // there), each word once per document: fontkit's layout costs milliseconds a call, and a document's
      // words repeat. Plain text goes character by character. Right to left, the pieces are laid out in
      // reverse, each already in visual order.
      const pieces = style.plain ? [...run.text] : run.text.split(/( )/).filter((piece) => piece !== '');
      if (rtl) pieces.reverse();
      for (const piece of pieces) {
        const shaped = this.layout(run.key, piece, rtl);
        shaped.glyphs.forEach((glyph, index) => {
          const position = shaped.positions[index]!;
          const chars = String.fromCodePoint(...glyph.codePoints);
          glyphs.push({
            font: run.key,
            glyph,
            // Right to left, a ligature holds its characters in visual order, as its neighbours do, and a
            // mirrored bracket its own character (the `(` drawn as `)`), which is how readers of PDFs
            // (pdf.js, src-shared/text-layout.ts) turn the line back into logical order.
            text: rtl
              ? [...chars]
                  .reverse()
                  .map((ch) => bidi.getMirroredCharacter(ch) ?? ch)
                  .join('')
              : chars,
            x: pen + position.xOffset * scale,
            y: position.yOffset * scale,
          });
          pen += position.xAdvance * scale;
        });
      }
    }
    return { glyphs, width: pen };
  }

  /** Pieces shaped in this document, by font, direction and text. */
  private readonly pieces = new Map<string, ShapedPiece>();

  /**
   * One piece shaped by fontkit. The direction is given, not guessed by fontkit from the script:
   * Arabic-Indic digits are Arabic script but run left to right, and a neutral between Arabic words runs
   * right to left.
   */
  private layout(key: FontKey, text: string, rtl: boolean): ShapedPiece {
    const cacheKey = `${key}${rtl ? '<' : '>'}${text}`;
    let piece = this.pieces.get(cacheKey);
    if (!piece) {
      const { glyphs, positions } = this.fonts[key].font.layout(
        text,
        [],
        undefined,
        undefined,
        rtl ? 'rtl' : 'ltr',
      );
      piece = {
        glyphs,
        positions: positions.map(({ xAdvance, xOffset, yOffset }) => ({ xAdvance, xOffset, yOffset })),
      };
      this.pieces.set(cacheKey, piece);
    }
    return piece;
  }

  width(text: string, style: TextStyle): number {
    return this.shape(text, style).width;
  }

  /**
   * Draws one line. `x` is the left edge, the right edge or the centre by `align`; a line wider than
   * `maxWidth` is set smaller, down to `minSize` (then it is drawn at that size, overflowing). Answers the
   * size used and the width drawn.
   */
  draw(
    page: PDFPage,
    text: string,
    at: {
      x: number;
      y: number;
      align?: 'left' | 'right' | 'center';
      maxWidth?: number;
      minSize?: number;
    },
    style: TextStyle,
  ): { size: number; width: number } {
    let size = style.size;
    let line = this.shape(text, { ...style, size });
    if (at.maxWidth !== undefined && line.width > at.maxWidth) {
      size = Math.max(at.minSize ?? size * 0.6, (size * at.maxWidth) / line.width);
      line = this.shape(text, { ...style, size });
      // Still too wide at the smallest size: the last words give way to an ellipsis (a line running
      // into a code's quiet zone would stop the code from reading).
      const words = text.trim().split(/\s+/);
      while (line.width > at.maxWidth && words.length > 1) {
        words.pop();
        line = this.shape(`${words.join(' ')}…`, { ...style, size });
      }
    }
    const align = at.align ?? ((style.dir ?? 'rtl') === 'rtl' ? 'right' : 'left');
    const left = align === 'left' ? at.x : align === 'right' ? at.x - line.width : at.x - line.width / 2;
    this.drawShaped(page, line, left, at.y, size, style.gray ?? 0);
    return { size, width: line.width };
  }

  /**
   * Breaks `text` into lines no wider than `maxWidth` (at word boundaries; a long word stays whole). A
   * line's width is measured as its words' widths and the spaces between them (Arabic letters do not join
   * across a space), each word shaped once per document and style: shaping every candidate line again
   * made a long certificate quadratic in its lines' words.
   */
  wrap(text: string, maxWidth: number, style: TextStyle): string[] {
    const words = text.replace(/\s+/g, ' ').trim().split(' ');
    const space = this.spaceWidth(style);
    const lines: string[] = [];
    let current = '';
    let width = 0;
    for (const word of words) {
      const own = this.wordWidth(word, style);
      if (current && width + space + own > maxWidth) {
        lines.push(current);
        current = word;
        width = own;
      } else {
        width = current ? width + space + own : own;
        current = current ? `${current} ${word}` : word;
      }
    }
    if (current) lines.push(current);
    return lines;
  }

  /** Widths of words at size 1, by style: a document's words repeat (labels, names, dates). */
  private readonly unitWidths = new Map<string, number>();

  private wordWidth(word: string, style: TextStyle): number {
    const key = `${style.bold ? 'b' : ''}${style.dir ?? 'rtl'}${style.script ?? ''}\u0000${word}`;
    let unit = this.unitWidths.get(key);
    if (unit === undefined) {
      unit = this.shape(word, { ...style, size: 1 }).width;
      this.unitWidths.set(key, unit);
    }
    return unit * style.size;
  }

  /** The width of a space in the paragraph's own font at the style's size. */
  private spaceWidth(style: TextStyle): number {
    const script = style.script ?? ((style.dir ?? 'rtl') === 'rtl' ? 'arabic' : 'latin');
    const key = `${script}${style.bold ? '-bold' : ''}` as FontKey;
    const { font } = this.fonts[key];
    const advance = this.layout(key, ' ', false).positions[0]?.xAdvance ?? 0;
    return (advance * style.size) / font.unitsPerEm;
  }

  private fontName(page: PDFPage, key: FontKey): PDFName {
    let embedded = this.embedded.get(key);
    if (!embedded) {
      embedded = new EmbeddedFont(this.doc, this.fonts[key]);
      this.embedded.set(key, embedded);
    }
    let pageId = this.pageIds.get(page);
    if (pageId === undefined) {
      pageId = ++this.pages;
      this.pageIds.set(page, pageId);
    }
    const cacheKey = `${pageId}:${key}`;
    let name = this.resourceNames.get(cacheKey);
    if (!name) {
      name = page.node.newFontDictionary(`Noto-${key}`, embedded.ref);
      this.resourceNames.set(cacheKey, name);
    }
    return name;
  }

  private drawShaped(page: PDFPage, line: ShapedLine, x: number, y: number, size: number, gray: number) {
    const ops: PDFOperator[] = [pushGraphicsState(), setFillingRgbColor(gray, gray, gray)];
    const marks: PlacedGlyph[] = [];
    ops.push(beginText());
    let currentFont: FontKey | null = null;
    for (const placed of line.glyphs) {
      // A mark that stands for no character (the dots of Noto's Arabic letters) is drawn as an outline.
      if (!placed.text) {
        marks.push(placed);
        continue;
      }
      if (placed.font !== currentFont) {
        ops.push(setFontAndSize(this.fontName(page, placed.font), size));
        currentFont = placed.font;
      }
      const code = this.embedded.get(placed.font)!.codeFor(placed.glyph, placed.text);
      ops.push(setTextMatrix(1, 0, 0, 1, x + placed.x, y + placed.y), showText(PDFHexString.of(hex4(code))));
    }
    ops.push(endText());
    for (const mark of marks) {
      const scale = size / this.fonts[mark.font].font.unitsPerEm;
      ops.push(
        pushGraphicsState(),
        concatTransformationMatrix(scale, 0, 0, scale, x + mark.x, y + mark.y),
        ...outline(mark.glyph),
        fill(),
        popGraphicsState(),
      );
    }
    ops.push(popGraphicsState());
    page.pushOperators(...ops);
  }

  /** Writes the fonts used; call once, after the last text is drawn. */
  async finish(): Promise<void> {
    for (const font of this.embedded.values()) await font.finish();
  }
}

/** A glyph's outline as path operators, in font units. */
function outline(glyph: ShapedGlyph): PDFOperator[] {
  const ops: PDFOperator[] = [];
  for (const { command, args } of glyph.path.commands) {
    const a = args as [number, number, number, number, number, number];
    if (command === 'moveTo') ops.push(moveTo(a[0], a[1]));
    else if (command === 'lineTo') ops.push(lineTo(a[0], a[1]));
    else if (command === 'quadraticCurveTo') ops.push(appendQuadraticCurve(a[0], a[1], a[2], a[3]));
    else if (command === 'bezierCurveTo') ops.push(appendBezierCurve(a[0], a[1], a[2], a[3], a[4], a[5]));
    else if (command === 'closePath') ops.push(closePath());
  }
  return ops;
}
