/**
 * Lexicon 1 (light10 as it was before issue 25, from src-shared/search.ts at 5d03f01), kept only so that
 * bench/search-quality prints the figures before and after. Not used by the product.
 */
import { stemmer } from 'stemmer';
import { normalizeArabic } from '../../src-shared/arabic';

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
