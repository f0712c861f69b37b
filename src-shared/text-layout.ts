/**
 * Turns the positioned text items of a PDF page (pdf.js `getTextContent`) into lines of text in logical
 * (reading) order. Many producers, Chromium's print-to-PDF among them, draw Arabic glyph by glyph from left
 * to right, so their content streams hold right-to-left text in visual order, often one glyph per item and
 * in presentation forms (`ﻢ` for a final meem). Storage order is therefore not trusted: items are grouped
 * into lines by baseline, put in visual order by their position, and the line is turned back into logical
 * order by the reordering step of the Unicode bidirectional algorithm (rule L2, which undoes itself),
 * run over whole items so that a Latin word or a number keeps its own left-to-right order inside an Arabic
 * line. Presentation forms are mapped to the letters they show; no search normalisation is applied here.
 *
 * The server reads attachments' text with it (src-server/modules/search), and the PDF viewer finds words
 * in a page with it (`layoutPageTextMapped` also says which character of which item each character of
 * the text came from, so that a match is highlighted on the glyphs it was read from).
 */
import { foldPresentationForm } from './arabic';

/** The part of a pdf.js text item this module reads. */
export interface PositionedText {
  str: string;
  /** pdf.js text matrix: [a, b, c, d, e, f]; e/f is the start of the baseline in page space. */
  transform: number[];
  /** Advance width in page space. */
  width: number;
}

/** Bidi marks and embedding controls: U+200E/F, U+202A–202E, U+2066–2069 (and U+061C, Arabic letter mark). */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/g;
/** A glyph without a Unicode mapping: NUL or U+FFFD. */
const UNMAPPED = new Set(['\u0000', '\ufffd']);
const BIDI_CONTROL = new RegExp(BIDI_CONTROLS.source);
/** What a text item's string holds that is not text: bidi controls and unmapped glyphs. */
const isNotText = (ch: string) => UNMAPPED.has(ch) || BIDI_CONTROL.test(ch);

/** Strong right-to-left letters: Hebrew, Arabic (with its supplements and presentation forms), Syriac, Thaana, N'Ko. */
const RTL_LETTER =
  /[\u0590-\u05ff\u0608\u060b\u060d\u061b-\u064a\u066d-\u066f\u0671-\u06d5\u06e5\u06e6\u06ee\u06ef\u06fa-\u07ff\u0860-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
/** Strong left-to-right letters (any letter that is not right-to-left). */
const LTR_LETTER = /\p{L}/u;
/** Digits of any script (European, Arabic-Indic, extended Arabic-Indic). */
const DIGIT = /\p{Nd}/u;
/** Combining marks only (harakat and the like, drawn as their own zero-width items by some producers). */
const MARKS_ONLY = /^\p{M}+$/u;

/** Removes the bidi control marks (they carry no text and break exact matching). */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}

/**
 * Text with, for each of its UTF-16 units, the position it came from in the page's items (the offset in
 * their strings joined, as pdf.js's text layer and find count them), or -1 for a unit the layout added (a
 * space standing for a gap, a line break).
 */
export interface SourcedText {
  text: string;
  src: number[];
}

/** `text` taken apart at `[start, end)` with its sources. */
const slice = (t: SourcedText, start: number, end?: number): SourcedText => ({
  text: t.text.slice(start, end),
  src: t.src.slice(start, end),
});

type BidiClass = 'R' | 'L' | 'D' | 'CS' | 'ET' | 'N';

/** One item on a line, in the line's own coordinates (x along the baseline, y across it). */
interface LineUnit {
  text: string;
  /** Where each unit of `text` came from (SourcedText). */
  src: number[];
  x: number;
  end: number;
  y: number;
  size: number;
  order: number;
}

/** Separators inside a number (dates, decimals, times, ranges): bidi classes CS and ES. */
const NUMBER_SEPARATOR = /^[,.:/\u060c\u066b\u066c+\-\u2212]$/;
/** Signs that stay with a number: bidi class ET (percent, currencies, degrees, hash). */
const NUMBER_SIGNS = /^[%\u066a\u2030\u2031#$\u00a2-\u00a5\u00b0\u00b1\u20ac\u20a0-\u20cf]+$/;

function bidiClassOf(text: string): BidiClass {
  let rtl = 0;
  let ltr = 0;
  let digits = 0;
  for (const ch of text) {
    if (RTL_LETTER.test(ch)) rtl += 1;
    else if (LTR_LETTER.test(ch)) ltr += 1;
    else if (DIGIT.test(ch)) digits += 1;
  }
  if (rtl > 0 && rtl >= ltr) return 'R';
  if (ltr > 0) return 'L';
  if (digits > 0) return 'D';
  if (NUMBER_SEPARATOR.test(text)) return 'CS';
  if (NUMBER_SIGNS.test(text)) return 'ET';
  return 'N';
}

/** Characters a right-to-left run shows mirrored (rule L4): the glyph drawn is the mirror's. */
const MIRRORED: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '\u00ab': '\u00bb',
  '\u00bb': '\u00ab',
  '\u2039': '\u203a',
  '\u203a': '\u2039',
};

/**
 * Orders the units of one line (given in visual order, left to right) logically. Levels follow the bidi
 * algorithm closely enough for lines of text: in a right-to-left line Arabic is at level 1 and Latin words
 * and numbers at level 2; in a left-to-right line Latin is at level 0, Arabic at 1 and a number that stands
 * between Arabic words at 2. A separator between two numbers (`2024/05/01`) and a sign beside one (`75%`)
 * go with the number; other neutrals (spaces, punctuation) between two runs of one direction take it, the
 * rest take the line's. Reversing every run at level ≥ k, from the highest level down to 1, turns visual
 * order into logical order, as it turns logical into visual; neutrals left at an odd level are mirrored
 * back (a `(` shown in Arabic is drawn as `)`).
 *
 * Visual order cannot tell every logical string apart (`IT 2024` in an Arabic line looks the same whether
 * the number came first or last); such cases are read the way a reader reads them on the page.
 */
function logicalOrder(units: LineUnit[], fallbackRtl: boolean): { unit: LineUnit; mirrored: boolean }[] {
  const kinds = units.map((u) => bidiClassOf(u.text));
  if (!kinds.includes('R')) return units.map((unit) => ({ unit, mirrored: false }));
  // The paragraph direction (rule P2 takes the first strong character, which visual order cannot tell):
  // when the strong items at both ends of the line agree, that is the direction; when they differ (an
  // Arabic line that ends with a Latin word looks like a Latin line that ends with an Arabic one), the
  // line's alignment or else the page's dominant direction decides (`fallbackRtl`).
  const left = kinds.find((c) => c === 'R' || c === 'L');
  const right = kinds.findLast((c) => c === 'R' || c === 'L');
  const rtlLine = left === right ? left === 'R' : fallbackRtl;
  const base = rtlLine ? 1 : 0;
  const n = units.length;

  const strongAt = (from: number, step: number): 'R' | 'L' | null => {
    for (let i = from; i >= 0 && i < n; i += step) {
      const c = kinds[i];
      if (c === 'R' || c === 'L') return c;
    }
    return null;
  };
  const levels: number[] = kinds.map((c, i) => {
    if (c === 'R') return 1;
    if (c === 'L') return rtlLine ? 2 : 0;
    if (c === 'D') {
      // In a left-to-right line a number is part of the Arabic around it only when Arabic is on both sides.
      if (rtlLine) return 2;
      return strongAt(i - 1, -1) === 'R' && strongAt(i + 1, 1) === 'R' ? 2 : 0;
    }
    return -1;
  });
  // A number after Arabic is an Arabic number (W2): a separator joins two of them only if it is a comma,
  // point, colon or slash (W4), and a sign beside one stays a neutral (so `75%` after Arabic shows as
  // `%75`). A number with no Arabic before it is a European number: separators and signs join it (W4, W5).
  // In a right-to-left line, a number inside a left-to-right run (a Latin word to its left, nothing
  // Arabic between) follows that word (W7); otherwise the Arabic to its right comes before it.
  const arabicNumber = (i: number) =>
    rtlLine ? strongAt(i - 1, -1) !== 'L' && strongAt(i + 1, 1) === 'R' : levels[i] === 2;
  const isNumber = (i: number) => i >= 0 && i < n && kinds[i] === 'D' && levels[i] === 2;
  for (let i = 1; i < n - 1; i += 1) {
    if (kinds[i] !== 'CS' || !isNumber(i - 1) || !isNumber(i + 1)) continue;
    const european = !arabicNumber(i - 1) && !arabicNumber(i + 1);
    if (european || !/^[+\-\u2212]$/.test(units[i]!.text)) levels[i] = 2;
  }
  for (let i = 0; i < n; i += 1) {
    if (kinds[i] !== 'ET' || levels[i] !== -1) continue;
    let j = i;
    while (j < n && kinds[j] === 'ET') j += 1;
    const next = isNumber(j) && !arabicNumber(j);
    const prev = isNumber(i - 1) && !arabicNumber(i - 1);
    if (next || prev) for (let k = i; k < j; k += 1) levels[k] = 2;
    i = j - 1;
  }
  // N1/N2: a run of neutrals takes the direction of both sides when they agree (numbers count as
  // right-to-left), the line's otherwise. In a right-to-left line, the neutrals between a Latin word and
  // a Latin word or number stay in their left-to-right run.
  const sideOf = (i: number): 'R' | 'L' => {
    if (i < 0 || i >= n) return rtlLine ? 'R' : 'L';
    const level = levels[i]!;
    if (kinds[i] === 'L') return 'L';
    return level % 2 === 1 || level === 2 ? 'R' : 'L';
  };
  for (let i = 0; i < n;) {
    if (levels[i] !== -1) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < n && levels[j] === -1) j += 1;
    const before = sideOf(i - 1);
    const after = sideOf(j);
    let level = before === after ? (before === 'R' ? 1 : rtlLine ? 2 : 0) : base;
    if (rtlLine && i > 0 && j < n) {
      const a = kinds[i - 1];
      const b = kinds[j];
      if ((a === 'L' && (b === 'L' || b === 'D')) || (a === 'D' && b === 'L')) level = 2;
    }
    for (let k = i; k < j; k += 1) levels[k] = level;
    i = j;
  }

  const ordered = units.map((unit, i) => ({
    unit,
    level: levels[i]!,
    mirrored: levels[i]! % 2 === 1 && kinds[i] !== 'R' && kinds[i] !== 'L' && kinds[i] !== 'D',
  }));
  const highest = Math.max(...levels);
  for (let level = highest; level >= 1; level -= 1) {
    for (let i = 0; i < ordered.length;) {
      if (ordered[i]!.level < level) {
        i += 1;
        continue;
      }
      let j = i;
      while (j < ordered.length && ordered[j]!.level >= level) j += 1;
      const run = ordered.slice(i, j).reverse();
      ordered.splice(i, j - i, ...run);
      i = j;
    }
  }
  return ordered.map(({ unit, mirrored }) => ({ unit, mirrored }));
}

/** Angle of an item's baseline, in whole degrees (lines are only formed from items of one angle). */
function baselineAngle(t: number[]): number {
  return Math.round((Math.atan2(t[1] ?? 0, t[0] ?? 1) * 180) / Math.PI);
}

/**
 * Splits units of one angle into lines by baseline, top to bottom. Marks (harakat above or below their
 * letter) sit off the baseline, so lines are formed from the other items and each mark joins the nearest.
 */
function groupLines(units: LineUnit[]): LineUnit[][] {
  const isMark = (u: LineUnit) => MARKS_ONLY.test(u.text);
  const sorted = units.filter((u) => !isMark(u)).sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: { y: number; size: number; count: number; units: LineUnit[] }[] = [];
  for (const unit of sorted) {
    const line = lines.at(-1);
    if (line && Math.abs(line.y - unit.y) <= 0.45 * Math.max(line.size, unit.size, 1)) {
      line.units.push(unit);
      line.count += 1;
      line.y += (unit.y - line.y) / line.count;
      line.size = Math.max(line.size, unit.size);
    } else {
      lines.push({ y: unit.y, size: unit.size, count: 1, units: [unit] });
    }
  }
  for (const mark of units.filter(isMark)) {
    let nearest: (typeof lines)[number] | undefined;
    for (const line of lines)
      if (!nearest || Math.abs(line.y - mark.y) < Math.abs(nearest.y - mark.y)) nearest = line;
    if (nearest && Math.abs(nearest.y - mark.y) <= Math.max(nearest.size, mark.size))
      nearest.units.push(mark);
    else lines.push({ y: mark.y, size: mark.size, count: 1, units: [mark] });
  }
  return lines.sort((a, b) => b.y - a.y).map((l) => l.units);
}

/**
 * Attaches combining marks that come as items of their own (one per haraka in some producers) to the letter
 * they sit on, so that reordering cannot part them from it. A mark's item has no width and starts a little
 * before the middle of its letter's ink; the letter is the one that holds a point just after the mark's
 * start, or else the nearest.
 */
function attachMarks(visual: LineUnit[]): LineUnit[] {
  const bases = visual.filter((u) => !MARKS_ONLY.test(u.text));
  const extra = new Map<LineUnit, SourcedText>();
  for (const mark of visual) {
    if (!MARKS_ONLY.test(mark.text)) continue;
    const at = mark.x + 0.12 * mark.size;
    let host: LineUnit | undefined;
    let best = Infinity;
    for (const u of bases) {
      if (/^\s+$/.test(u.text)) continue;
      const distance = at < u.x ? u.x - at : at > u.end ? at - u.end : 0;
      if (distance < best) {
        best = distance;
        host = u;
      }
    }
    // A mark with no letter near it (more than an em away) is kept where it stands.
    if (!host || best > mark.size) bases.push(mark);
    else {
      const marks = extra.get(host) ?? { text: '', src: [] };
      extra.set(host, { text: marks.text + mark.text, src: [...marks.src, ...mark.src] });
    }
  }
  return bases
    .map((u) => {
      const marks = extra.get(u);
      return marks ? { ...u, text: u.text + marks.text, src: [...u.src, ...marks.src] } : u;
    })
    .sort((a, b) => a.x - b.x || a.order - b.order);
}

/**
 * A gap between two items wider than this share of the font size is a space. Word spaces are 0.2–0.4 em
 * in most fonts, but some Arabic fonts have narrower ones (0.15 em in ArabicCIDTrueType.pdf), and
 * producers that place words without space glyphs (Chromium, words set one by one) leave only the gap;
 * letter spacing (CSS `letter-spacing`, tracking) opens gaps of up to about 0.1 em inside words. pdf.js
 * itself takes 0.102 em as the least space inside a chunk.
 */
const SPACE_GAP = 0.12;

/**
 * Characters pdf.js's own normalisation would have folded (its `normalizeUnicode`), other than the Arabic
 * presentation forms: Latin and Hebrew presentation forms (`ﬁ` → `fi`) and a few compatibility signs.
 * Items are read unnormalised (`disableNormalization`), since pdf.js normalises before it reverses a
 * right-to-left chunk and so reverses the letters of an Arabic ligature (src-shared/pdf-ligatures.ts);
 * the folding is done here, after ordering.
 */
const COMPATIBILITY = /^[\u00b5\u037e\u0eb3\u2126\ufb00-\ufb4f]$/;

/** The letters a character stands for: presentation forms and compatibility characters folded. */
const lettersOf = (ch: string) => (COMPATIBILITY.test(ch) ? ch.normalize('NFKC') : foldPresentationForm(ch));

/** An item of spaces narrower than this share of the font size takes no room of its own. */
const THIN_SPACE = 0.05;
/**
 * A narrow space item parts its neighbours only when they stand apart by more than this share of the font
 * size (pdf.js's own bound below which an advance is not a space): pdf.js also gives such items where
 * glyphs of one word jump back and forth (a ligature drawn from parts, justification), with no gap.
 */
const THIN_SPACE_GAP = 0.03;

const isSpaceUnit = (u: LineUnit) => /^\s+$/.test(u.text);
const isThinSpace = (u: LineUnit) => isSpaceUnit(u) && u.end - u.x < THIN_SPACE * u.size;

/**
 * The line without its thin space items (see THIN_SPACE), and the pairs of neighbours (by order) that a
 * thin space parts: those that stand apart by more than THIN_SPACE_GAP.
 */
function thinSpaces(visual: LineUnit[]): { kept: LineUnit[]; parted: Set<string> } {
  const kept = visual.filter((u) => !isThinSpace(u));
  const parted = new Set<string>();
  for (let i = 0; i < visual.length; i += 1) {
    const space = visual[i]!;
    if (!isThinSpace(space)) continue;
    let l = i - 1;
    while (l >= 0 && isThinSpace(visual[l]!)) l -= 1;
    let r = i + 1;
    while (r < visual.length && isThinSpace(visual[r]!)) r += 1;
    const left = visual[l];
    const right = visual[r];
    if (!left || !right) continue;
    if (right.x - left.end > THIN_SPACE_GAP * Math.max(left.size, right.size, space.size)) {
      parted.add(`${left.order}:${right.order}`);
      parted.add(`${right.order}:${left.order}`);
    }
  }
  return { kept, parted };
}

/** Joins the logically ordered units of a line, with a space where a gap stands for one. */
function joinLine(line: LineUnit[], fallbackRtl: boolean): SourcedText {
  const { kept: visual, parted: gapBetween } = thinSpaces(line);
  const logical = logicalOrder(visual, fallbackRtl);
  // Gaps are measured in visual order, between neighbours on the page.
  for (let i = 1; i < visual.length; i += 1) {
    const left = visual[i - 1]!;
    const right = visual[i]!;
    // An item of text that pdf.js gave no width (a font without widths) has no known end: no gap is
    // measured after it, or the advance of its own glyphs would read as a space inside a word.
    if (left.end <= left.x && !isSpaceUnit(left)) continue;
    const gap = right.x - left.end;
    if (gap > SPACE_GAP * Math.max(left.size, right.size)) {
      gapBetween.add(`${left.order}:${right.order}`);
      gapBetween.add(`${right.order}:${left.order}`);
    }
  }
  // Presentation forms become the letters they show; whitespace runs become one space, none at the ends.
  const out: SourcedText = { text: '', src: [] };
  let space: number | null = null;
  const append = (ch: string, from: number) => {
    // The word الله drawn with the ligature glyph of U+FDF2 after its own alef (`اﷲ`, `واﷲ`): the glyph
    // stands for the letters after the alef, which NFKC would repeat.
    const letters = ch === '\ufdf2' && out.text.endsWith('\u0627') ? '\u0644\u0644\u0647' : lettersOf(ch);
    for (const letter of letters) {
      if (/\s/.test(letter)) {
        if (out.text.length > 0 && space === null) space = from;
        continue;
      }
      if (space !== null) {
        out.text += ' ';
        out.src.push(space);
        space = null;
      }
      out.text += letter;
      for (let k = 0; k < letter.length; k += 1) out.src.push(from);
    }
  };
  for (let i = 0; i < logical.length; i += 1) {
    const { unit, mirrored } = logical[i]!;
    const prev = logical[i - 1]?.unit;
    if (prev && gapBetween.has(`${prev.order}:${unit.order}`)) append(' ', -1);
    // Code points with where each came from, in the order they are read.
    const chars: { ch: string; from: number }[] = [];
    let at = 0;
    for (const ch of unit.text) {
      chars.push({ ch, from: unit.src[at]! });
      at += ch.length;
    }
    // Neutrals at an odd level were drawn right to left: an item of several (".%") is reversed too, and
    // brackets are mirrored back.
    if (mirrored) for (const c of chars.reverse()) append(MIRRORED[c.ch] ?? c.ch, c.from);
    else for (const c of chars) append(c.ch, c.from);
  }
  return out;
}

/**
 * Splits an item that holds no right-to-left letters into words, numbers, single punctuation marks and
 * spaces, placed along the item's width by character count. pdf.js joins glyphs that touch into one item,
 * so a run such as `4567 123 11 966` (a phone number drawn in an Arabic line, whose groups the line shows in
 * right-to-left order) must be taken apart before the line can be reordered. Items with Arabic letters
 * are kept whole: pdf.js has already put their characters in logical order.
 */
function splitUnit(unit: LineUnit): LineUnit[] {
  if (RTL_LETTER.test(unit.text)) return [unit];
  const tokens = unit.text.match(/[\p{L}\p{M}\p{N}]+|\s+|[^\p{L}\p{M}\p{N}\s]/gu) ?? [];
  if (tokens.length <= 1) return [unit];
  const total = [...unit.text].length;
  const perChar = (unit.end - unit.x) / total;
  const parts: LineUnit[] = [];
  let at = 0;
  let offset = 0;
  for (const token of tokens) {
    const length = [...token].length;
    const x = unit.x + at * perChar;
    parts.push({ ...unit, ...slice(unit, offset, offset + token.length), x, end: x + length * perChar });
    at += length;
    offset += token.length;
  }
  return parts;
}

/**
 * The text of a page from its positioned items: one string, lines top to bottom separated by `\n`, each
 * line in logical order. Empty items, NUL glyphs (glyphs without a Unicode mapping) and bidi marks are
 * dropped. A gap wider than SPACE_GAP of the font size between two items is a space, and so is an item of
 * spaces (pdf.js gives one where the PDF drew a space glyph), a narrow one only where its neighbours stand
 * apart (THIN_SPACE_GAP). Read the items with
 * pdf.js's `disableNormalization: true` and, for ligature glyphs, pass them through `restoreLigatures`
 * (src-shared/pdf-ligatures.ts) first.
 */
export function layoutPageText(items: readonly PositionedText[]): string {
  return layoutPageTextMapped(items).text;
}

/**
 * `layoutPageText`, with where each character of the text came from: its offset in the items' strings
 * joined (item after item, nothing between them: how pdf.js's text layer and find count), or -1 for a
 * space or line break the layout added.
 */
export function layoutPageTextMapped(items: readonly PositionedText[]): SourcedText {
  const byAngle = new Map<number, LineUnit[]>();
  let rtlLetters = 0;
  let ltrLetters = 0;
  let offset = 0;
  items.forEach((item, order) => {
    const start = offset;
    offset += item.str.length;
    const cleaned: SourcedText = { text: '', src: [] };
    for (let k = 0; k < item.str.length; k += 1) {
      if (isNotText(item.str[k]!)) continue;
      cleaned.text += item.str[k];
      cleaned.src.push(start + k);
    }
    const text = cleaned.text;
    const t = item.transform;
    const size = Math.hypot(t[2] ?? 0, t[3] ?? 0) || Math.hypot(t[0] ?? 0, t[1] ?? 0) || 1;
    const width = Math.max(0, item.width);
    // An item of spaces, even one that takes no room, says a space glyph stood there (pdf.js makes one
    // where a space glyph is followed by little or no advance, as in fonts with narrow spaces): it is
    // kept, and joinLine decides whether it parts words. Only an item with no text at all is dropped.
    if (text.length === 0) return;
    // A mark that came with a space of no width (" ً") is the mark alone.
    const unit = /^\s+\p{M}+$/u.test(text) ? slice(cleaned, text.length - text.trimStart().length) : cleaned;
    const unitText = unit.text;
    for (const ch of unitText) {
      if (RTL_LETTER.test(ch)) rtlLetters += 1;
      else if (LTR_LETTER.test(ch)) ltrLetters += 1;
    }
    const angle = baselineAngle(t);
    const rad = (angle * Math.PI) / 180;
    const cos = Math.cos(rad);
    const sin = Math.sin(rad);
    const e = t[4] ?? 0;
    const f = t[5] ?? 0;
    // Rotate into the baseline's frame: x runs along the line, y across it (up).
    const x = e * cos + f * sin;
    const y = -e * sin + f * cos;
    let list = byAngle.get(angle);
    if (!list) byAngle.set(angle, (list = []));
    list.push(...splitUnit({ ...unit, x, end: x + width, y, size, order }));
  });
  const pageRtl = rtlLetters >= ltrLetters;
  const page: SourcedText = { text: '', src: [] };
  // Upright text first, then the rest by angle.
  const angles = [...byAngle.keys()].sort((a, b) => Math.abs(a) - Math.abs(b) || a - b);
  for (const angle of angles) {
    const units = byAngle.get(angle)!;
    const left = Math.min(...units.map((u) => u.x));
    const right = Math.max(...units.map((u) => u.end));
    for (const line of groupLines(units)) {
      const visual = attachMarks([...line].sort((a, b) => a.x - b.x || a.order - b.order));
      // A line flush with one side of the text block only is a paragraph of that side's direction.
      const size = Math.max(...visual.map((u) => u.size));
      const tolerance = Math.max(2 * size, 0.03 * (right - left));
      const flushLeft = visual[0]!.x - left <= tolerance;
      const flushRight = right - visual.at(-1)!.end <= tolerance;
      const joined = joinLine(visual, flushLeft !== flushRight ? flushRight : pageRtl);
      if (joined.text.length === 0) continue;
      if (page.text.length > 0) {
        page.text += '\n';
        page.src.push(-1);
      }
      page.text += joined.text;
      page.src.push(...joined.src);
    }
  }
  return page;
}

/**
 * Share of the glyphs of a page's items that map to no character (NUL or U+FFFD), from 0 to 1: a broken
 * ToUnicode map when high. Whitespace is not counted; a page without glyphs gives 0.
 */
export function unmappedShare(items: readonly PositionedText[]): number {
  let glyphs = 0;
  let unmapped = 0;
  for (const item of items)
    for (const ch of item.str) {
      if (/\s/.test(ch)) continue;
      glyphs += 1;
      if (ch === '\u0000' || ch === '\ufffd') unmapped += 1;
    }
  return glyphs === 0 ? 0 : unmapped / glyphs;
}
