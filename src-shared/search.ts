/**
 * Search terms: how text becomes the lexemes the server indexes and how a query becomes the lexemes it
 * looks for. One function for both sides, so a word is found as it was written and as it was typed.
 *
 * - Every word is normalised (src-shared/arabic.ts `normalizeArabic`: alef and hamza forms, ta marbuta,
 *   alef maqsura, diacritics, tatweel, Arabic-Indic and Persian digits) after Unicode's compatibility
 *   folding (NFKC: presentation forms and other pasted glyphs).
 * - Arabic words: the letters of other keyboards and hamza however seated are folded, and the word is
 *   stemmed lightly, with the guesses light stemming must make kept as variants (lexicon/arabic.ts). The
 *   index keeps every variant; a query word matches a document when any of its variants does.
 * - Latin words: British spellings and irregular plurals folded (lexicon/english.ts), then the Porter
 *   stemmer (letters → letter), but for a few words it would cut to another word's stem (news, business).
 *   A hyphenated word is also its joined form (e-mail, email), and two words of a known compound standing
 *   together are the compound too (follow up, followup: lexicon/english.ts).
 * - Numbers: with and without leading zeros (000123, 123), thousands separators dropped (12,345,
 *   1.250.000), hyphens too (011-4567890), and apart from an Arabic word written against them (1445هـ).
 * - A few very common words (في، من، the, of …) are not indexed nor required of a match, unless written as
 *   an acronym (IT, US) or a query holds nothing else.
 *
 * Not PostgreSQL's `arabic` configuration, which stems a word differently after a preposition: our
 * lexemes are stored with the `simple` one (docs/decisions.md).
 */
import { stemmer } from 'stemmer';
import { normalizeArabic } from './arabic';
import { arabicStems, foldArabicWord, seatedSpelling } from './lexicon/arabic';
import { compoundOf, englishForm, ownStem } from './lexicon/english';

export { arabicStems } from './lexicon/arabic';

/**
 * A word of text: letters, marks (tashkeel), digits and tatweel, as written; with its hyphenated parts
 * (e-mail, IN-2026-000123), or a number with its thousands separators (12,345).
 */
const WORD =
  /\p{N}{1,3}(?:[,\u066C]\p{N}{3})+(?![\p{N}\p{L}])|\p{N}{1,3}(?:\.\p{N}{3}){2,}(?![\p{N}\p{L}]|\.\p{N})|[\p{L}\p{M}\p{N}\u0640]+(?:[-\u2010\u2011][\p{L}\p{M}\p{N}\u0640]+)*/gu;
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
  // conjunctions ending as a noun with the tanween alef does (كلما is not كلم + ا)
  'كلما',
  'عندما',
  'بينما',
  'حينما',
  'ربما',
  'طالما',
  'انما',
  'مهما',
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

/**
 * The version of the rules below. Each index entry says which made it; raising this number remakes the
 * older entries in the background at the next start (search jobs, `search.relex`), the old ones
 * answering meanwhile. 1: light10; 2: the lexicon of issue 25 (pronouns, ف and سـ, hamza, other
 * keyboards, English spellings, numbers); 3: English compounds written as two words (follow up); 4: the
 * probe of issue 25 (the tanween alef, the tens, ة before the dual ending, final hamza spellings and مائة,
 * a word's own ال after the article, words whose first ف or س or last ان، ون، ين is their own, a number
 * written against an Arabic word, English words Porter would join to another's stem).
 */
export const LEXICON_VERSION = 4;

/** The longest word we index (longer runs are not words: encoded data, a line of dashes). */
export const MAX_WORD_LENGTH = 60;

/** A run of capitals, as an acronym is written (IT, US, WHO): searched by even when a common word. */
const ACRONYM = /^[A-Z]{2,}$/;
/** A number written with thousands separators (12,345 or ١٢٬٣٤٥, or 1.250.000: two dots at least). */
const GROUPED_NUMBER = /^\p{N}{1,3}(?:(?:[,\u066C]\p{N}{3})+|(?:\.\p{N}{3}){2,})$/u;
const DIGITS = /^[0-9]+$/;
/** The parts of a word joined by hyphens (e-mail, follow-up, IN-2026-000123). */
const HYPHEN = /[-\u2010\u2011]/;

/** The lexemes of one word as written, without its parts (see wordLexemes). */
function simpleLexemes(raw: string, keepCommon: boolean): string[] {
  const written = GROUPED_NUMBER.test(raw) ? raw.replace(/[,.\u066C]/g, '') : raw;
  const word = normalizeArabic(written.normalize('NFKC'));
  if (!word || word.length > MAX_WORD_LENGTH) return [];
  if (STOP_WORDS.has(word) && !keepCommon && !ACRONYM.test(written.normalize('NFKC'))) return [];
  if (ARABIC_LETTER.test(word)) {
    const stems = new Set(arabicStems(foldArabicWord(word)));
    // Typed without its hamza, a seated hamza often keeps its seat: both spellings are the word's.
    const seated = seatedSpelling(written);
    if (seated)
      for (const s of arabicStems(foldArabicWord(normalizeArabic(seated.normalize('NFKC'))))) stems.add(s);
    return [...stems].filter((s) => !STOP_WORDS.has(s));
  }
  if (LATIN.test(word)) {
    const form = englishForm(word);
    return [ownStem(form) ?? stemmer(form)];
  }
  // A number is found with or without its leading zeros (000123 and 123).
  if (DIGITS.test(word)) {
    const bare = word.replace(/^0+(?=\d)/, '');
    return bare === word ? [word] : [word, bare];
  }
  return [word];
}

/** Where digits and Arabic letters meet in a word (1445هـ, 500ريال, رقم78). */
const DIGITS_LETTERS = /(?<=\p{N})(?=\P{N})|(?<=\P{N})(?=\p{N})/u;

/**
 * A word without hyphens as the words it holds: a number written against an Arabic word (the year in
 * 1445هـ, an amount in 500ريال, رقم78) is two words, as it is read; any other word is itself.
 */
function spaced(raw: string): string[] {
  return /\p{N}/u.test(raw) && ARABIC_LETTER.test(raw) ? raw.split(DIGITS_LETTERS) : [raw];
}

/** The lexemes of a word without hyphens (simpleLexemes of each word it holds, see spaced). */
function partLexemes(raw: string, keepCommon: boolean): string[] {
  return spaced(raw).flatMap((w) => simpleLexemes(w, keepCommon));
}

/**
 * The lexemes (variants) of one word as written, or none when it is not searched by (a common word, unless
 * written as an acronym or `keepCommon`). A hyphenated word has its parts' lexemes and, when it is all
 * letters or all digits, the joined word's (e-mail is found by email, follow-up by followup, 011-4567890 by
 * 0114567890). A number written against an Arabic word has the lexemes of both (see spaced).
 */
export function wordLexemes(raw: string, keepCommon = false): readonly string[] {
  const cache = LEXEMES_OF[keepCommon ? 1 : 0]!;
  let lexemes = cache.get(raw);
  if (!lexemes) {
    if (cache.size >= LEXEMES_KEPT) cache.clear();
    lexemes = lexemesOfWord(raw, keepCommon);
    cache.set(raw, lexemes);
  }
  return lexemes;
}

/**
 * wordLexemes' answers by word as written (without and with keepCommon): texts repeat their words, and
 * a page of search hits marks the same words in twenty documents — working each out again was most of a
 * search's time in the server, after its SQL (bench/search). Emptied when it holds LEXEMES_KEPT words.
 */
const LEXEMES_OF = [new Map<string, readonly string[]>(), new Map<string, readonly string[]>()];
const LEXEMES_KEPT = 50_000;

/** wordLexemes, worked out. */
function lexemesOfWord(raw: string, keepCommon: boolean): string[] {
  if (!HYPHEN.test(raw)) return partLexemes(raw, keepCommon);
  const parts = raw.split(HYPHEN).filter(Boolean);
  const out = new Set(parts.flatMap((p) => partLexemes(p, keepCommon)));
  if (parts.every((p) => !/\p{N}/u.test(p))) for (const l of simpleLexemes(parts.join(''), true)) out.add(l);
  // A number of digits only is also found typed without its hyphens (011-4567890, 0114567890).
  if (parts.every((p) => DIGITS.test(normalizeArabic(p))))
    for (const l of simpleLexemes(parts.join(''), true)) out.add(l);
  return [...out];
}

/**
 * The groups a query word asks for: a word's variants (any may match); a hyphenated word of letters its
 * joined form, however the text wrote it (email, e-mail); a hyphenated word with digits each of its parts,
 * in any order (a registration number as people type it: IN-2026-000123, 2026-123).
 */
function queryGroups(raw: string, keepCommon: boolean): string[][] {
  if (!HYPHEN.test(raw))
    return spaced(raw)
      .map((w) => simpleLexemes(w, keepCommon))
      .filter((g) => g.length > 0);
  const parts = raw.split(HYPHEN).filter(Boolean);
  if (parts.every((p) => !/\p{N}/u.test(p))) {
    const joined = simpleLexemes(parts.join(''), true);
    return joined.length ? [joined] : [];
  }
  return parts
    .flatMap(spaced)
    .map((p) => simpleLexemes(p, keepCommon))
    .filter((g) => g.length > 0);
}

/** A word of a text and where it stands (UTF-16 offsets into the text as written). */
export interface TextWord {
  word: string;
  start: number;
  end: number;
}

/** The words of a text with where each stands (UTF-16 offsets into the text as written). */
export function wordsOf(text: string): TextWord[] {
  const out: TextWord[] = [];
  for (const m of text.matchAll(WORD)) out.push({ word: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/** A word of text as the Latin word (lower case) it is, or null (Arabic, a number, a hyphenated word). */
function latinWord(raw: string): string | null {
  const word = normalizeArabic(raw.normalize('NFKC'));
  return LATIN.test(word) ? word : null;
}

/**
 * The compound (lexicon/english.ts `compoundOf`) two words of `text` make, when only white space stands
 * between them (not across a full stop or a comma), else null.
 */
function compoundAt(text: string, first: TextWord, second: TextWord | undefined): string | null {
  if (!second || !/^\s+$/.test(text.slice(first.end, second.start))) return null;
  const a = latinWord(first.word);
  const b = a && latinWord(second.word);
  return b ? compoundOf(a, b, stemmer) : null;
}

/** The lexemes of a compound two words make (see compoundAt). */
function compoundLexemes(joined: string): string[] {
  return simpleLexemes(joined, true);
}

/**
 * Every lexeme of a text, word after word: each word's (wordLexemes), and after two words of a known
 * compound standing together, the compound's (follow up is also followup).
 */
export function* textLexemes(text: string): Generator<string> {
  const words = wordsOf(text);
  for (const [i, w] of words.entries()) {
    yield* wordLexemes(w.word);
    const joined = compoundAt(text, w, words[i + 1]);
    if (joined) yield* compoundLexemes(joined);
  }
}

/**
 * The text the database indexes for `text`: every lexeme of every word, separated by spaces, in the order
 * of the words (fed to `to_tsvector('simple', …)`).
 */
export function indexText(text: string | null | undefined): string {
  if (!text) return '';
  return [...textLexemes(text)].join(' ');
}

/** A query as groups of lexemes: every group must match (AND), any lexeme of a group may (OR). */
export type QueryTerms = string[][];

/** The terms of what a person typed (at most `maxWords` words; the rest is ignored). */
export function queryTerms(query: string, maxWords = 12): QueryTerms {
  return queryParts(query, maxWords).terms;
}

/**
 * The terms of a query, each with the word it was typed as (`words[i]` for `terms[i]`), and its number
 * runs: the terms of a number typed in parts with no space between them (IN-2026-000123, 000123/2026), by
 * index. A run's parts are found anywhere, but marked only where they stand together (matchRanges), so a
 * registration number does not mark every year on the page.
 */
export function queryParts(
  query: string,
  maxWords = 12,
): { terms: QueryTerms; words: string[]; runs: number[][] } {
  const typed = wordsOf(query);
  const keepCommon = onlyEnglishCommon(typed.map((w) => w.word));
  const terms: QueryTerms = [];
  const words: string[] = [];
  const runs: number[][] = [];
  const seen = new Map<string, number>();
  let run: number[] = [];
  let runEnd = -1;
  const closeRun = () => {
    if (run.length >= 2 && run.some((i) => terms[i]!.some((l) => /\d/.test(l)))) runs.push(run);
    run = [];
  };
  for (let i = 0; i < typed.length; i++) {
    const { start } = typed[i]!;
    let { word, end } = typed[i]!;
    // Two words of a known compound ask for it, however the text wrote it (follow up, follow-up, followup).
    const joined = compoundAt(query, typed[i]!, typed[i + 1]);
    const groups = joined ? [compoundLexemes(joined)] : queryGroups(word, keepCommon);
    if (joined) {
      end = typed[++i]!.end;
      word = query.slice(start, end);
    }
    // A number typed against an Arabic word (500ريال) is two words, each marked wherever it stands.
    const apart = !joined && !HYPHEN.test(word) && spaced(word).length > 1;
    if (apart || runEnd < 0 || /\s/.test(query.slice(runEnd, start))) closeRun();
    runEnd = apart ? -1 : end;
    for (const lexemes of groups) {
      if (apart) closeRun();
      const key = lexemes.join('|');
      let index = seen.get(key);
      if (index === undefined) {
        if (terms.length >= maxWords) break;
        index = terms.length;
        seen.set(key, index);
        terms.push(lexemes);
        words.push(word);
      }
      if (!run.includes(index)) run.push(index);
    }
  }
  closeRun();
  return { terms, words, runs };
}

/**
 * The `to_tsquery` text of a query being typed, for suggestions: its complete words as a search has them,
 * and its last word, still being typed, as the beginning of a lexeme (`'مذك':*`): the word normalised and
 * folded, its article or conjunction left out, at least three letters (null when there is nothing to ask).
 */
export function prefixQueryText(query: string, weight = ''): string | null {
  const typed = wordsOf(query);
  const last = typed.at(-1);
  if (!last) return null;
  const complete = /\s$/.test(query);
  const terms = queryTerms(complete ? query : query.slice(0, last.start));
  // A weight (A: number, reference and subject) limits every lexeme to the fields of that weight.
  const weighted = (groups: QueryTerms) => tsQueryText(groups, weight);
  if (complete) return terms.length ? weighted(terms) : null;
  let begun = normalizeArabic(last.word.normalize('NFKC'));
  // Three letters at least; two after an article (الصح: the beginning of الصحة).
  let least = 3;
  if (ARABIC_LETTER.test(begun)) {
    const folded = foldArabicWord(begun);
    begun = folded.replace(/^(وال|بال|فال|كال|لل|ال)(?=..)/, '').replace(/^و(?=...)/, '');
    if (begun.length < folded.length - 1) least = 2;
  } else if (!/^[a-z0-9]+$/.test(begun)) return terms.length ? tsQueryText(terms) : null;
  if (begun.length < least) return terms.length ? tsQueryText(terms) : null;
  const prefix = `'${begun.replace(/'/g, "''")}':*${weight}`;
  return terms.length ? `${weighted(terms)} & ${prefix}` : prefix;
}

/** Quotation marks a phrase is typed between: "…", «…», “…”. */
const QUOTED = /"([^"]+)"|«([^»]+)»|“([^”]+)”/g;

/**
 * The phrases of a query, typed between quotation marks, normalised as the database's normalised columns
 * are (src-shared/arabic.ts `normalizeArabic`): a document must hold each as it is, word after word.
 */
export function queryPhrases(query: string): string[] {
  const out: string[] = [];
  for (const m of query.matchAll(QUOTED)) {
    const phrase = normalizeArabic(m[1] ?? m[2] ?? m[3] ?? '');
    if (wordsOf(phrase).length >= 1 && !out.includes(phrase)) out.push(phrase);
  }
  return out;
}

/** The query as one normalised phrase, quotation marks left out (a subject holding it ranks first). */
export function wholePhrase(query: string): string {
  return normalizeArabic(query.replace(/["«»“”]/g, ' '));
}

/** The `to_tsquery` text of any of the terms (OR), for documents with some of the words. */
export function anyTermQueryText(terms: QueryTerms): string {
  return tsQueryText([terms.flat()]);
}

/**
 * A query of common English words only ("IT", "who", "us": an acronym typed in lower case) is searched by
 * them all the same; they are indexed where written in capitals.
 */
function onlyEnglishCommon(words: readonly string[]): boolean {
  return (
    words.length > 0 &&
    words.every((w) => /^[a-z]+$/i.test(w) && STOP_WORDS.has(w.toLowerCase()) && !ACRONYM.test(w))
  );
}

/** The words of a query that are not searched by (too common), as typed, so the page can say so. */
export function ignoredWords(query: string): string[] {
  const typed = wordsOf(query);
  if (onlyEnglishCommon(typed.map((w) => w.word))) return [];
  const ignored: string[] = [];
  for (let i = 0; i < typed.length; i++) {
    if (compoundAt(query, typed[i]!, typed[i + 1]))
      i++; // searched by as one compound (log in)
    else if (queryGroups(typed[i]!.word, false).length === 0) ignored.push(typed[i]!.word);
  }
  return ignored;
}

/**
 * The `to_tsquery('simple', …)` text of the terms: `('a' | 'b') & 'c'`. Lexemes hold only letters and
 * digits (words are runs of \p{L}\p{N}), so quoting them is enough; the text is still bound as a parameter.
 */
export function tsQueryText(terms: QueryTerms, weight = ''): string {
  const quote = (lexeme: string) => `'${lexeme.replace(/'/g, "''")}'${weight ? `:${weight}` : ''}`;
  return terms
    .map((group) => (group.length === 1 ? quote(group[0]!) : `(${group.map(quote).join(' | ')})`))
    .join(' & ');
}

/**
 * Where the terms occur in `text`: [start, end) ranges of the words as written, in order. The terms of a
 * number run (queryParts) are marked only where at least two of them stand together in the text.
 */
export function matchRanges(
  text: string,
  terms: QueryTerms,
  runs: readonly (readonly number[])[] = [],
): [number, number][] {
  const wanted = new Set(terms.flat());
  if (!wanted.size) return [];
  const bound = new Map<string, readonly number[]>();
  for (const run of runs) for (const i of run) for (const l of terms[i] ?? []) bound.set(l, run);
  const words = wordsOf(text).map((w) => ({ ...w, lexemes: new Set(wordLexemes(w.word)) }));
  // The words of the text standing together (no space between them), as runs of indices.
  const together: number[] = [];
  let group = 0;
  for (let i = 0; i < words.length; i++) {
    if (i > 0 && /\s/.test(text.slice(words[i - 1]!.end, words[i]!.start))) group += 1;
    together.push(group);
  }
  // The lexemes of each group of words standing together, gathered once.
  const groupLexemes = new Map<number, Set<string>>();
  for (const [i, w] of words.entries()) {
    const set = groupLexemes.get(together[i]!) ?? new Set<string>();
    for (const l of w.lexemes) set.add(l);
    groupLexemes.set(together[i]!, set);
  }
  const ranges: [number, number][] = [];
  for (const [i, w] of words.entries()) {
    const hits = [...w.lexemes].filter((l) => wanted.has(l));
    if (!hits.length) continue;
    const free = hits.some((l) => !bound.has(l));
    const near = groupLexemes.get(together[i]!)!;
    const held = hits.some((l) => {
      const run = bound.get(l);
      return !!run && run.filter((t) => terms[t]!.some((x) => near.has(x))).length >= 2;
    });
    if (free || held) ranges.push([w.start, w.end]);
  }
  // Two words of a compound the query asks for (follow up, for followup): both are marked.
  for (let i = 0; i + 1 < words.length; i++) {
    const joined = compoundAt(text, words[i]!, words[i + 1]);
    if (!joined || !compoundLexemes(joined).some((l) => wanted.has(l))) continue;
    for (const w of [words[i]!, words[i + 1]!])
      if (!ranges.some(([s]) => s === w.start)) ranges.push([w.start, w.end]);
  }
  return ranges.sort((x, y) => x[0] - y[0]);
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
export function snippet(
  text: string,
  terms: QueryTerms,
  width = 220,
  runs: readonly (readonly number[])[] = [],
): Snippet {
  const clean = text.replace(/\s+/g, ' ').trim();
  return passage(clean, matchRanges(clean, terms, runs), width);
}

/** The snippet of `text` when the terms occur in it, else null: the text's words looked up once. */
export function snippetOfMatches(
  text: string,
  terms: QueryTerms,
  width = 220,
  runs: readonly (readonly number[])[] = [],
): Snippet | null {
  const clean = text.replace(/\s+/g, ' ').trim();
  const ranges = matchRanges(clean, terms, runs);
  return ranges.length ? passage(clean, ranges, width) : null;
}

/** The passage of `clean` (whitespace folded) around the first of `ranges`: see snippet. */
function passage(clean: string, ranges: [number, number][], width: number): Snippet {
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
