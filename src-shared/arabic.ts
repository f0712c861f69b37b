/**
 * Arabic search normalisation: people type names without tashkeel, with or without hamza, and with ه
 * for ة, and PDF producers (Chromium's print among them) write Arabic as presentation forms (`ﻢ` for a
 * final meem), so search compares normalised text on both sides — the server's index and queries, and the
 * PDF viewer's find over a page's text layer (`normalizeArabicMapped`, which also says where each
 * normalised character came from). The server's generated `search_text` columns apply the same rules in
 * SQL (src-server/db/schema.ts, `normalisedSql`) except the folding of presentation forms, which only text
 * pasted from a PDF carries; keep them in step otherwise.
 */

/** Tashkeel (harakat, tanwin, shadda, sukun, superscript alef, Quranic marks) and tatweel. */
export const ARABIC_STRIPPED = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g;

/**
 * Letter unifications: the alef forms to bare alef, hamza on waw and on ya to the hamza alone (مسؤول and
 * مسئول are one word), alef maqsura (and the Persian ya) to ya, ta marbuta to ha, the Persian kaf to kaf, and Arabic-Indic and Persian digits to
 * ASCII digits. `ARABIC_UNIFY_FROM` and `ARABIC_UNIFY_TO` are the same table as two strings of equal length,
 * for SQL's `translate` (src-server/db/schema.ts).
 */
export const ARABIC_UNIFY_FROM = 'أإآٱؤئىیةک٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹';
export const ARABIC_UNIFY_TO = 'ااااءءييهك01234567890123456789';

export const ARABIC_UNIFY: Readonly<Record<string, string>> = Object.fromEntries(
  [...ARABIC_UNIFY_FROM].map((c, i) => [c, ARABIC_UNIFY_TO[i]!]),
);

const UNIFY_PATTERN = new RegExp(`[${ARABIC_UNIFY_FROM}]`, 'g');

/** Arabic presentation forms A and B: glyph-shaped code points that stand for ordinary letters. */
const PRESENTATION_FORM = /[\ufb50-\ufdff\ufe70-\ufeff]/g;
const folded = new Map<string, string>();

/**
 * The letters one presentation form shows, by its compatibility decomposition (NFKC): `ﻢ` → `م`, `ﻻ` →
 * `لا`, `ﺃ` → `أ`. The isolated harakat forms (U+FE70–FE7F) decompose to a space and the mark: the space is
 * dropped so the mark stays on its letter. Any other character is answered as it is.
 */
export function foldPresentationForm(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch.length !== 1 || code < 0xfb50 || (code > 0xfdff && code < 0xfe70)) return ch;
  let out = folded.get(ch);
  if (out === undefined) {
    out = ch.normalize('NFKC').replace(/^ (?=\p{M})/u, '');
    folded.set(ch, out);
  }
  return out;
}

/** Maps the Arabic presentation forms of `text` to the letters they show (`foldPresentationForm`). */
export function foldPresentationForms(text: string): string {
  return text.replace(PRESENTATION_FORM, foldPresentationForm);
}

/**
 * Normalises text for search: folds presentation forms to letters, strips tashkeel and tatweel, unifies
 * أإآٱ→ا, ؤئ→ء, ى→ي, ة→ه and the Arabic-Indic and Persian digits, lower-cases Latin letters and collapses
 * whitespace. Idempotent.
 */
export function normalizeArabic(text: string): string {
  return foldPresentationForms(text)
    .normalize('NFC')
    .replace(ARABIC_STRIPPED, '')
    .replace(UNIFY_PATTERN, (c) => ARABIC_UNIFY[c] ?? c)
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Normalised text with where each of its UTF-16 units came from: unit `i` of `text` stands for
 * `source.slice(from[i], to[i])` (a stripped mark is in no unit; a folded ligature's letters all point at
 * it). Units are in the order of the source, so a match `text.slice(a, b)` covers `source.slice(from[a],
 * to[b - 1])`.
 */
export interface MappedText {
  text: string;
  from: Int32Array;
  to: Int32Array;
}

/** Text on its way through normalisation: its UTF-16 units and, for each, the source range it stands for. */
interface Mapped {
  s: string;
  from: Int32Array;
  to: Int32Array;
}

/** Per BMP code unit: 1 when stripped, 2 when whitespace (the `\s` of the regular expressions above). */
let unitKinds: Uint8Array | undefined;
function kinds(): Uint8Array {
  if (!unitKinds) {
    unitKinds = new Uint8Array(0x10000);
    const stripped = new RegExp(ARABIC_STRIPPED.source);
    for (let c = 0; c < 0x10000; c += 1) {
      const ch = String.fromCharCode(c);
      if (stripped.test(ch)) unitKinds[c] = 1;
      else if (/\s/.test(ch)) unitKinds[c] = 2;
    }
  }
  return unitKinds;
}

/** Builds a Mapped from parts, each part's units all standing for one source range. */
class MappedBuilder {
  private parts: string[] = [];
  private from: number[] = [];
  private to: number[] = [];
  push(text: string, from: number, to: number): void {
    this.parts.push(text);
    for (let k = 0; k < text.length; k += 1) {
      this.from.push(from);
      this.to.push(to);
    }
  }
  done(): Mapped {
    return { s: this.parts.join(''), from: Int32Array.from(this.from), to: Int32Array.from(this.to) };
  }
}

/** The whole of `s` standing for the whole source (a step that could not keep characters apart). */
const coarse = (s: string, length: number): Mapped => ({
  s,
  from: new Int32Array(s.length),
  to: new Int32Array(s.length).fill(length),
});

/**
 * `normalizeArabic` that keeps track of where each character came from (for the PDF viewer's find, which
 * must highlight what it matched). Its `text` is always `normalizeArabic(source)`, and it takes the same
 * steps; where one does not keep characters apart (canonical composition across several marks, a
 * lower-casing that depends on context or changes length), the characters it produced point at the
 * whole span they came from.
 */
export function normalizeArabicMapped(source: string): MappedText {
  const expected = normalizeArabic(source);
  const n = source.length;
  // Presentation forms folded; every unit of a code point stands for the whole of it.
  let cur: Mapped;
  {
    const out = new MappedBuilder();
    let at = 0;
    for (const ch of source) {
      out.push(foldPresentationForm(ch), at, at + ch.length);
      at += ch.length;
    }
    cur = out.done();
  }
  // Canonical composition, one letter and its marks at a time (alef + hamza above → أ).
  const nfc = cur.s.normalize('NFC');
  if (nfc !== cur.s) {
    const out = new MappedBuilder();
    const clusters = cur.s.match(/\P{M}\p{M}*|\p{M}+/gsu) ?? [];
    let at = 0;
    for (const cluster of clusters) {
      const composed = cluster.normalize('NFC');
      if (composed === cluster)
        for (let k = 0; k < cluster.length; k += 1) out.push(cluster[k]!, cur.from[at + k]!, cur.to[at + k]!);
      else out.push(composed, cur.from[at]!, cur.to[at + cluster.length - 1]!);
      at += cluster.length;
    }
    cur = out.done();
    if (cur.s !== nfc) cur = coarse(nfc, n);
  }
  // Tashkeel and tatweel stripped, letters and digits unified.
  const kind = kinds();
  {
    const out = new MappedBuilder();
    for (let i = 0; i < cur.s.length; i += 1) {
      const c = cur.s[i]!;
      if (kind[c.charCodeAt(0)] !== 1) out.push(ARABIC_UNIFY[c] ?? c, cur.from[i]!, cur.to[i]!);
    }
    cur = out.done();
  }
  // Lower-cased: in place when no character changes length (the final sigma depends on its neighbours,
  // so the whole text is lower-cased at once), one code point at a time otherwise.
  const lower = cur.s.toLowerCase();
  if (lower.length === cur.s.length) cur = { ...cur, s: lower };
  else {
    const out = new MappedBuilder();
    let i = 0;
    for (const ch of cur.s) {
      out.push(ch.toLowerCase(), cur.from[i]!, cur.to[i + ch.length - 1]!);
      i += ch.length;
    }
    cur = out.done();
    if (cur.s !== lower) cur = coarse(lower, n);
  }
  // Whitespace runs to one space, none at either end.
  const out = new MappedBuilder();
  let run = -1; // the first unit of a whitespace run after some text
  let started = false;
  for (let i = 0; i < cur.s.length; i += 1) {
    if (kind[cur.s.charCodeAt(i)] === 2) {
      if (started && run < 0) run = i;
      continue;
    }
    if (run >= 0) out.push(' ', cur.from[run]!, cur.to[i - 1]!);
    run = -1;
    started = true;
    out.push(cur.s[i]!, cur.from[i]!, cur.to[i]!);
  }
  const result = out.done();
  // Not expected (the steps are those of normalizeArabic), but the text is always normalizeArabic's.
  const final = result.s === expected ? result : coarse(expected, n);
  return { text: final.s, from: final.from, to: final.to };
}

/** Whether `haystack` contains `needle` once both are normalised (for client-side filtering). */
export function arabicIncludes(haystack: string, needle: string): boolean {
  return normalizeArabic(haystack).includes(normalizeArabic(needle));
}
