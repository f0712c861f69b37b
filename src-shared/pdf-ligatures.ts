/**
 * Puts back in order the characters of ligature glyphs in a page's text items. A font may draw several
 * letters with one glyph (lam-alef لا, lam-meem لم, lam-ya لى, the word الله) and map that glyph to all of
 * them in its ToUnicode table, in reading order. Producers draw Arabic glyph by glyph from left to right
 * (visual order), and pdf.js turns each text chunk back into reading order by reversing its characters
 * (its bidi step), which reverses the letters of such a glyph too: `السلام` comes out as `السالم`,
 * `تعالى` as `تعاىل`. Every PDF reader that reverses characters has this fault (poppler's pdftotext
 * too); what fixes it is to reverse glyphs, not characters, which needs to know where the glyphs part.
 * The text items do not say; the page's operator list does (each `showText` carries its glyphs with their
 * Unicode text, in the order of the content stream, the order pdf.js builds the items in).
 *
 * `restoreLigatures` aligns the items with those glyphs and, in each item that pdf.js reversed, turns
 * each glyph of several right-to-left characters back round. The result has the same characters in each
 * item, only their order inside a ligature changed, so offsets into the items (the PDF viewer's find and
 * text layer) stay within the same item. Read the items with `disableNormalization: true`: pdf.js's
 * normalisation expands presentation-form ligatures (`ﳋ` → `لخ`) before reversing them, the same fault
 * with no glyph to see it by (src-shared/text-layout.ts folds presentation forms after ordering instead).
 *
 * Used where the server reads an attachment's text (src-server/modules/search/ocr-child.ts) and where the
 * viewer finds words in a page (src-renderer/components/pdf/find.ts).
 */

/** Strong right-to-left letters (as text-layout.ts counts them), presentation forms included. */
const RTL_LETTER =
  /[\u0590-\u05ff\u0608\u060b\u060d\u061b-\u064a\u066d-\u066f\u0671-\u06d5\u06e5\u06e6\u06ee\u06ef\u06fa-\u07ff\u0860-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
/** Characters the alignment does not count: whitespace (pdf.js adds and drops spaces) and format marks. */
const UNCOUNTED = /[\s\p{Cf}]/u;

/**
 * pdf.js's `OPS.showText`, for code that has the operator list but not the library at hand (the viewer's
 * find); tests/unit/pdf-ligatures.test.ts checks it against the library.
 */
export const PDFJS_SHOW_TEXT = 44;

/** The part of an operator list this module reads (pdf.js `PDFPageProxy.getOperatorList()`). */
export interface OperatorListLike {
  fnArray: ArrayLike<number>;
  argsArray: ArrayLike<unknown>;
}

/**
 * The Unicode text of every glyph a page draws, in content-stream order: the glyphs of the operator
 * list's `showText` operations (`showText` is pdf.js's `OPS.showText`; spacing numbers are skipped).
 */
export function glyphTexts(operatorList: OperatorListLike, showText: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < operatorList.fnArray.length; i += 1) {
    if (operatorList.fnArray[i] !== showText) continue;
    const glyphs = (operatorList.argsArray[i] as unknown[] | undefined)?.[0];
    if (!Array.isArray(glyphs)) continue;
    for (const glyph of glyphs) {
      const unicode = (glyph as { unicode?: unknown } | null)?.unicode;
      if (typeof unicode === 'string') out.push(unicode);
    }
  }
  return out;
}

/**
 * Whether the items may hold a reversed ligature: some item has two or more characters, a right-to-left
 * letter among them. Pages without (Latin text, scans) need not have their operator list read.
 */
export function mayHoldLigatures(items: readonly { str: string }[]): boolean {
  return items.some((item) => item.str.length > 1 && RTL_LETTER.test(item.str));
}

/** A glyph drawing several characters, right-to-left letters among them. */
const isLigature = (glyph: string) => [...glyph].length > 1 && RTL_LETTER.test(glyph);

/**
 * Arabic letters that join only the letter before them (alef, dal, thal, ra, zain, waw, ta marbuta and
 * their kin): inside a cursive ligature one can only be the last letter.
 */
const RIGHT_JOINING =
  /[\u0622-\u0625\u0627\u0629\u062f-\u0632\u0648\u0671-\u0673\u0675-\u0677\u0688-\u0699\u06c0\u06c3-\u06cb\u06cd\u06cf\u06d2\u06d3\u06d5]/;
/** Harakat and other marks: they sit on a letter and do not part a ligature. */
const MARK = /\p{M}/u;

/**
 * Whether a ligature glyph's text is in reading order: no letter but the last is one that never joins the
 * next (a glyph mapped to «ال» draws lam-alef with its letters written as they are seen), or it is the
 * word الله, whose alef is a ligature of its own in every font that has one.
 */
function inReadingOrder(glyph: string): boolean {
  if (/\u0644\u0644\u0647/.test(glyph)) return true;
  const letters = [...glyph].filter((ch) => !MARK.test(ch));
  return letters.slice(0, -1).every((ch) => !RIGHT_JOINING.test(ch));
}

/**
 * A glyph whose letters pdf.js reverses wrongly: a ligature mapped in reading order. A producer that
 * maps one in visual order (`ال` for lam-alef) has it come out right from pdf.js's reversal.
 */
const turnsBack = (glyph: string) => isLigature(glyph) && inReadingOrder(glyph);

/** The characters alignment counts, sorted: equal for an item and the glyphs it was built from. */
const countedKey = (text: string) =>
  [...text]
    .filter((ch) => !UNCOUNTED.test(ch))
    .sort()
    .join('');

/** How far ahead of where it stands the alignment looks for an item's glyphs (glyphs pdf.js skipped). */
const LOOKAHEAD = 64;

/**
 * The glyphs (indexes into `keys`) an item was built from, starting at or after `from`: the shortest run
 * whose counted characters are the item's. Null when none starts within LOOKAHEAD glyphs.
 */
function runFor(key: string, keys: readonly string[], from: number): [number, number] | null {
  const size = key.length;
  for (let start = from; start < keys.length && start <= from + LOOKAHEAD; start += 1) {
    if (keys[start]!.length === 0) continue;
    let length = 0;
    let end = start;
    while (end < keys.length && length < size) {
      length += keys[end]!.length;
      end += 1;
    }
    if (length !== size) continue;
    if (countedKey(keys.slice(start, end).join('')) === key) return [start, end];
  }
  return null;
}

/** What pdf.js reverses in a right-to-left chunk: right-to-left letters and the marks on them. */
const isRightToLeft = (ch: string) => RTL_LETTER.test(ch) || MARK.test(ch);

/**
 * `str` with its ligatures turned back. pdf.js's reordering reverses the right-to-left letters of a chunk
 * (a Latin word or a number inside keeps its own order), so read backwards they are the glyphs' letters
 * in drawing order: the n-th from the end of `str` is the n-th the glyphs drew. Each ligature's letters,
 * found so, are written back in its own order. Answers `str` unchanged when its right-to-left letters are
 * not the glyphs' backwards (a left-to-right chunk holding several right-to-left runs, a stray glyph).
 */
function unreverse(str: string, glyphs: readonly string[]): string {
  const drawn: { ch: string; glyph: number }[] = [];
  glyphs.forEach((glyph, g) => {
    for (const ch of glyph) if (isRightToLeft(ch)) drawn.push({ ch, glyph: g });
  });
  const chars = [...str];
  const at: number[] = [];
  chars.forEach((ch, i) => {
    if (isRightToLeft(ch)) at.push(i);
  });
  const n = at.length;
  if (drawn.length !== n) return str;
  for (let k = 0; k < n; k += 1) if (chars[at[n - 1 - k]!] !== drawn[k]!.ch) return str;
  const out = [...chars];
  for (let k = 0; k < n;) {
    const g = drawn[k]!.glyph;
    let end = k;
    while (end < n && drawn[end]!.glyph === g) end += 1;
    if (end - k > 1 && turnsBack(glyphs[g]!)) {
      // The glyph's letters stand at at[n - end] … at[n - 1 - k] in str, backwards: put them in order.
      for (let j = 0; j < end - k; j += 1) out[at[n - end + j]!] = drawn[k + j]!.ch;
    }
    k = end;
  }
  return out.join('');
}

/**
 * The items with the letters of each ligature glyph back in reading order (see the top of this file).
 * `glyphs` is `glyphTexts` of the page's operator list. Items that cannot be matched to glyphs are left as
 * they are.
 */
export function restoreLigatures<T extends { str: string }>(
  items: readonly T[],
  glyphs: readonly string[],
): T[] {
  if (!glyphs.some(turnsBack)) return [...items];
  const keys = glyphs.map((glyph) => [...glyph].filter((ch) => !UNCOUNTED.test(ch)).join(''));
  let next = 0;
  return items.map((item) => {
    const key = countedKey(item.str);
    if (key.length === 0) return item;
    const run = runFor(key, keys, next);
    if (!run) return item;
    next = run[1];
    const own = glyphs.slice(run[0], run[1]);
    if (!own.some(turnsBack)) return item;
    const str = unreverse(item.str, own);
    return str === item.str ? item : { ...item, str };
  });
}

/** pdf.js's `AnnotationMode.DISABLE`: the page's own content, as the viewer draws it (no form fields). */
const PDFJS_ANNOTATIONS_DISABLED = 0;

/** The part of a pdf.js page (`PDFPageProxy`) `pageTextItems` reads. */
export interface TextPageLike {
  getTextContent(options: { disableNormalization: boolean }): Promise<{ items: readonly unknown[] }>;
  getOperatorList(options: { annotationMode: number }): Promise<OperatorListLike>;
}

/**
 * A page's text items as the text layer holds them (unnormalised: pdf.js would expand presentation-form
 * ligatures before reversing them), with the letters of ligature glyphs put back in order from the page's
 * glyphs when it may hold any. The server's extraction (ocr-child.ts) and the viewer's find (find.ts) both
 * read a page so; each item keeps its characters, so offsets into the text layer stay within their item.
 */
export async function pageTextItems<T extends { str: string }>(
  page: TextPageLike,
  isText: (item: unknown) => item is T,
): Promise<T[]> {
  const { items } = await page.getTextContent({ disableNormalization: true });
  const read = items.filter(isText);
  if (!mayHoldLigatures(read)) return read;
  const operators = await page.getOperatorList({ annotationMode: PDFJS_ANNOTATIONS_DISABLED });
  return restoreLigatures(read, glyphTexts(operators, PDFJS_SHOW_TEXT));
}
