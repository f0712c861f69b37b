/**
 * Search terms: how text becomes the lexemes the server indexes and how a query becomes the lexemes it
 * looks for. One function for both sides, so a word is found as it was written and as it was typed.
 *
 * - Every word is normalised (src-shared/arabic.ts `normalizeArabic`: alef and hamza forms, ta marbuta,
 *   alef maqsura, diacritics, tatweel, Arabic-Indic and Persian digits).
 * - Arabic words are stemmed lightly, after Larkey's light10 (the stemmer that did best for Arabic
 *   retrieval in the TREC evaluations): a leading و, the article and its prefixed forms (ال، وال، بال، كال،
 *   فال، لل), then the suffixes ها، ان، ات، ون، ين، يه، ه، ي. A stem keeps at least two letters.
 * - Where light stemming must guess, a word has more than one stem ("variants") and the index keeps them
 *   all: a leading و may be a conjunction or the word's own first letter (وزارة), a leading ب، ل or ك may be
 *   a preposition (بمذكرة) or not (بلدية). A query word matches a document when any of its variants does.
 * - Latin words are stemmed with the Porter stemmer (letters → letter, running → run); numbers are kept
 *   as they are (leading zeros too: 000123).
 * - A few very common words (في، من، على، the, of …) are not indexed and not required of a match.
 *
 * We do not use PostgreSQL's `arabic` configuration (its Snowball stemmer, present in PostgreSQL 15 and
 * PGlite alike): it stems inconsistently across prefixes — وزارة → زار but للوزارة → وزار, سيارات → يارا
 * but السيارة → سيار — so a query for a word misses the same word with a preposition, and it leaves
 * والمذكرة unstemmed. The database stores our lexemes with the `simple` configuration instead.
 */
import { stemmer } from 'stemmer';
import { normalizeArabic } from './arabic';

/** A word of text: letters, marks (tashkeel), digits and tatweel, as written. */
const WORD = /[\p{L}\p{M}\p{N}\u0640]+/gu;
const ARABIC_LETTER = /[\u0621-\u064A\u066E-\u06D3\u06FA-\u06FF]/;
const LATIN = /^[a-z]+$/;

/** Words too common to search by (normalised spelling). */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // Arabic
  'في',
  'من',
  'الي',
  'عن',
  'مع',
  'او',
  'ثم',
  'ان',
  'الذي',
  'التي',
  'هذا',
  'هذه',
  'ذلك',
  'تلك',
  'قد',
  'لا',
  'ما',
  'و',
  'يا',
  // English
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
  'was',
  'with',
]);

const ARTICLES = ['وال', 'بال', 'كال', 'فال', 'لل', 'ال'] as const;
const SUFFIXES = ['ها', 'ان', 'ات', 'ون', 'ين', 'يه', 'ه', 'ي'] as const;
/** The longest word we index (longer runs are not words: encoded data, a line of dashes). */
export const MAX_WORD_LENGTH = 60;

/** light10 on a normalised Arabic word; `waw` says whether a leading و is taken for a conjunction. */
function light10(word: string, waw: boolean): string {
  let w = word;
  if (waw && w.startsWith('و') && w.length > 3) w = w.slice(1);
  for (const article of ARTICLES) {
    if (w.startsWith(article) && w.length - article.length >= 2) {
      w = w.slice(article.length);
      break;
    }
  }
  for (const suffix of SUFFIXES) {
    if (w.length - suffix.length >= 2 && w.endsWith(suffix)) w = w.slice(0, -suffix.length);
  }
  return w;
}

/** The stems of one normalised Arabic word (one or more, most likely first). */
export function arabicStems(word: string): string[] {
  const stems = new Set<string>([light10(word, true)]);
  if (word.startsWith('و')) stems.add(light10(word, false));
  const bare = word.startsWith('و') && word.length > 3 ? word.slice(1) : word;
  // A one-letter preposition before a word without the article: بمذكرة، لمدير، كتابع…
  if (/^[بلك]/.test(bare) && !/^(بال|كال|لل)/.test(bare) && bare.length >= 5)
    stems.add(light10(bare.slice(1), false));
  return [...stems].filter((s) => s.length > 0);
}

/** The lexemes (variants) of one word as written, or none when it is not searched by. */
export function wordLexemes(raw: string): string[] {
  const word = normalizeArabic(raw);
  if (!word || word.length > MAX_WORD_LENGTH || STOP_WORDS.has(word)) return [];
  if (ARABIC_LETTER.test(word)) return arabicStems(word);
  if (LATIN.test(word)) return [stemmer(word)];
  return [word];
}

/** The words of a text with where each stands (UTF-16 offsets into the text as written). */
export function wordsOf(text: string): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(WORD)) out.push({ word: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * The text the database indexes for `text`: every lexeme of every word, separated by spaces, in the order
 * of the words (fed to `to_tsvector('simple', …)`).
 */
export function indexText(text: string | null | undefined): string {
  if (!text) return '';
  const out: string[] = [];
  for (const { word } of wordsOf(text)) out.push(...wordLexemes(word));
  return out.join(' ');
}

/** A query as groups of lexemes: every group must match (AND), any lexeme of a group may (OR). */
export type QueryTerms = string[][];

/** The terms of what a person typed (at most `maxWords` words; the rest is ignored). */
export function queryTerms(query: string, maxWords = 12): QueryTerms {
  const groups: QueryTerms = [];
  const seen = new Set<string>();
  for (const { word } of wordsOf(query)) {
    const lexemes = wordLexemes(word);
    if (!lexemes.length) continue;
    const key = lexemes.join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    groups.push(lexemes);
    if (groups.length >= maxWords) break;
  }
  return groups;
}

/**
 * The `to_tsquery('simple', …)` text of the terms: `('a' | 'b') & 'c'`. Lexemes hold only letters and
 * digits (words are runs of \p{L}\p{N}), so quoting them is enough; the text is still bound as a parameter.
 */
export function tsQueryText(terms: QueryTerms): string {
  const quote = (lexeme: string) => `'${lexeme.replace(/'/g, "''")}'`;
  return terms
    .map((group) => (group.length === 1 ? quote(group[0]!) : `(${group.map(quote).join(' | ')})`))
    .join(' & ');
}

/** Where the terms occur in `text`: [start, end) ranges of the words as written, in order. */
export function matchRanges(text: string, terms: QueryTerms): [number, number][] {
  const wanted = new Set(terms.flat());
  if (!wanted.size) return [];
  const ranges: [number, number][] = [];
  for (const { word, start, end } of wordsOf(text)) {
    if (wordLexemes(word).some((l) => wanted.has(l))) ranges.push([start, end]);
  }
  return ranges;
}

/** A passage of text around its first match, with the matches in it (offsets into `text` of the passage). */
export interface Snippet {
  text: string;
  highlights: [number, number][];
  /** The passage starts after the beginning of the text / ends before its end. */
  before: boolean;
  after: boolean;
}

/**
 * The passage of `text` that shows the matches best: about `width` characters around the first match,
 * cut at word boundaries, or the start of the text when nothing matches.
 */
export function snippet(text: string, terms: QueryTerms, width = 220): Snippet {
  const clean = text.replace(/\s+/g, ' ').trim();
  const ranges = matchRanges(clean, terms);
  const first = ranges[0];
  let start = 0;
  if (first && clean.length > width) {
    start = Math.max(0, first[0] - Math.floor(width / 3));
    if (start > 0) {
      const space = clean.indexOf(' ', start);
      start = space >= 0 && space < first[0] ? space + 1 : start;
    }
  }
  let end = Math.min(clean.length, start + width);
  if (end < clean.length) {
    const space = clean.lastIndexOf(' ', end);
    if (space > (first ? first[1] : start)) end = space;
  }
  return {
    text: clean.slice(start, end),
    highlights: ranges.filter(([s, e]) => s >= start && e <= end).map(([s, e]) => [s - start, e - start]),
    before: start > 0,
    after: end < clean.length,
  };
}
