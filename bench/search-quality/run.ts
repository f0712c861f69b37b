/**
 * Search quality (issue 25): `npx tsx bench/search-quality/run.ts` generates the forms clerks write of the
 * benchmark's vocabulary (bench/search/vocabulary.ts), family by family — attached pronouns, ف and سـ,
 * prepositions and the article, hamza seats, other keyboards, presentation forms pasted from a PDF,
 * English spellings, plurals, hyphens and compounds written as two words, numbers — and measures, with the rule the database applies
 * (every query group meets a lexeme of the text):
 * - recall: the share of (form written, word typed) pairs found, both ways (the text has the form and the
 *   query the word, and the reverse);
 * - precision: of everything a word typed finds among all generated forms of all words, the share that are
 *   forms of that word.
 * It prints one JSON object, for lexicon 1 (light10, before) and the current lexicon.
 */
import { normalizeArabic } from '../../src-shared/arabic';
import * as current from '../../src-shared/search';
import { ARABIC_STEMS, ENGLISH } from '../search/vocabulary';
import * as lexicon1 from './lexicon-1';

interface Lexicon {
  indexText(text: string): string;
  queryTerms(query: string): string[][];
}

/**
 * A word and the forms of it a family writes. A pair is tried both ways (the form written and the word
 * typed, and the reverse) unless `oneWay`: a full registration number typed does not find a text holding
 * only its serial, nor should it.
 */
interface Family {
  name: string;
  pairs: { word: string; form: string; oneWay?: boolean }[];
}

/** An English word's regular inflections. */
function inflections(word: string): string[] {
  const plural = /(s|x|ch|sh)$/.test(word)
    ? `${word}es`
    : /[^aeiou]y$/.test(word)
      ? `${word.slice(0, -1)}ies`
      : `${word}s`;
  const stem = word.replace(/e$/, '');
  const past = /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ied` : `${stem}ed`;
  return [plural, `${stem}ing`, past];
}

const arabic = [...new Set(ARABIC_STEMS)].filter((w) => !/[ٍ]/.test(w));
const english = [...new Set(ENGLISH)];

/** ة becomes ت before an attached pronoun. */
const before = (w: string) => w.replace(/ة$/, 'ت').replace(/ى$/, 'ا');
const PRONOUNS = ['كم', 'هم', 'هن', 'نا', 'كما', 'هما', 'ها', 'ه'];
const VERBS = ['يفيد', 'نرفع', 'يتم', 'تقوم', 'نأمل', 'يرجى', 'نحيط', 'يسر', 'نشكر', 'يعتمد', 'تصدر', 'نرسل'];

/** Isolated presentation form of each Arabic letter (the reverse of NFKC, for text pasted from a PDF). */
const PRESENTATION = new Map<string, string>();
for (let code = 0xfe80; code <= 0xfefc; code++) {
  const ch = String.fromCharCode(code);
  const letter = ch.normalize('NFKC');
  if (letter.length === 1 && !PRESENTATION.has(letter)) PRESENTATION.set(letter, ch);
}

const HAMZA_SEATS: [RegExp, string][] = [
  [/ؤ/g, 'ئ'],
  [/ؤ/g, 'ء'],
  [/ؤ/g, 'و'],
  [/ئ/g, 'ء'],
  [/ئ/g, 'ي'],
  [/أ/g, 'ا'],
  [/إ/g, 'ا'],
];

const OTHER_KEYBOARDS: [RegExp, string][] = [
  [/ه/g, 'ھ'],
  [/ة/g, 'ۃ'],
  [/ة/g, 'ە'],
  [/ك/g, 'ڪ'],
  [/ي/g, 'ی'],
  [/ى/g, 'ی'],
];

const BRITISH: [string, string][] = [
  ['organization', 'organisation'],
  ['color', 'colour'],
  ['center', 'centre'],
  ['program', 'programme'],
  ['license', 'licence'],
  ['defense', 'defence'],
  ['catalog', 'catalogue'],
  ['traveled', 'travelled'],
  ['canceled', 'cancelled'],
  ['labor', 'labour'],
  ['behavior', 'behaviour'],
  ['analyze', 'analyse'],
  ['authorize', 'authorise'],
  ['recognize', 'recognise'],
  ['prioritize', 'prioritise'],
  ['meter', 'metre'],
  ['judgment', 'judgement'],
  ['enrollment', 'enrolment'],
  ['favor', 'favour'],
  ['honor', 'honour'],
];
const IRREGULAR: [string, string][] = [
  ['child', 'children'],
  ['man', 'men'],
  ['woman', 'women'],
  ['analysis', 'analyses'],
  ['criterion', 'criteria'],
  ['crisis', 'crises'],
  ['index', 'indices'],
  ['appendix', 'appendices'],
  ['thesis', 'theses'],
  ['life', 'lives'],
  ['half', 'halves'],
  ['memorandum', 'memoranda'],
];
const HYPHENS: [string, string][] = [
  ['email', 'e-mail'],
  ['followup', 'follow-up'],
  ['cooperation', 'co-operation'],
  ['online', 'on-line'],
  ['e-mail', 'email'],
  ['follow-up', 'followup'],
  ['coordination', 'co-ordination'],
  ['reorganization', 're-organization'],
  // Compounds written as two words (lexicon 3).
  ['followup', 'follow up'],
  ['follow up', 'follow-up'],
  ['login', 'log in'],
  ['log in', 'login'],
  ['workshop', 'work shop'],
  ['weekend', 'week end'],
  ['website', 'web site'],
  ['setup', 'set up'],
  ['handover', 'hand over'],
  ['deadline', 'dead line'],
];

function families(): Family[] {
  const out: Family[] = [];
  out.push({
    name: 'attached pronouns',
    pairs: arabic.flatMap((word) => PRONOUNS.map((p) => ({ word, form: `${before(word)}${p}` }))),
  });
  out.push({
    name: 'prepositions, article, conjunctions',
    pairs: arabic.flatMap((word) =>
      ['و', 'ف', 'ب', 'ل', 'ك', 'ال', 'وال', 'بال', 'فال', 'لل', 'وب', 'فب'].map((p) => ({
        word,
        form: p === 'لل' ? `لل${word}` : `${p}${word}`,
      })),
    ),
  });
  out.push({
    name: 'ف and the future سـ before a verb',
    pairs: VERBS.flatMap((word) => ['ف', 'س', 'وس', 'فس', 'و'].map((p) => ({ word, form: `${p}${word}` }))),
  });
  out.push({
    name: 'plural and dual endings',
    pairs: arabic.flatMap((word) => {
      const bare = word.replace(/ة$/, '');
      return [`${bare}ات`, `${bare}ان`, `${bare}ين`, `${bare}ون`, `${bare}ي`, `${bare}ية`].map((form) => ({
        word,
        form,
      }));
    }),
  });
  out.push({
    name: 'hamza seats',
    pairs: arabic
      .filter((w) => /[أإؤئ]/.test(w))
      .flatMap((word) =>
        HAMZA_SEATS.filter(([from]) => from.test(word)).map(([from, to]) => ({
          word,
          form: word.replace(from, to),
        })),
      ),
  });
  out.push({
    name: 'other keyboards',
    pairs: arabic.flatMap((word) =>
      OTHER_KEYBOARDS.filter(([from]) => from.test(word)).map(([from, to]) => ({
        word,
        form: word.replace(from, to),
      })),
    ),
  });
  out.push({
    name: 'presentation forms (pasted from a PDF)',
    pairs: arabic.map((word) => ({
      word,
      form: [...word].map((c) => PRESENTATION.get(c) ?? c).join(''),
    })),
  });
  out.push({
    name: 'English spellings, plurals, hyphens, compounds',
    pairs: [...BRITISH, ...IRREGULAR, ...HYPHENS].map(([word, form]) => ({ word, form })),
  });
  out.push({
    name: 'English inflections',
    pairs: english
      .filter((word) => !/(ing|s)$/.test(word))
      .flatMap((word) => inflections(word).map((form) => ({ word, form }))),
  });
  const numbers = Array.from({ length: 40 }, (_, i) => String((i * 7919 + 123) % 100000));
  out.push({
    name: 'numbers',
    pairs: numbers.flatMap((n) => [
      { word: n, form: n.padStart(6, '0') },
      { word: n.padStart(6, '0'), form: n },
      { word: n, form: `IN-2026-${n.padStart(6, '0')}`, oneWay: true },
      { word: `2026-${n}`, form: `IN-2026-${n.padStart(6, '0')}`, oneWay: true },
      { word: `${n}/2026`, form: `IN-2026-${n.padStart(6, '0')}`, oneWay: true },
      { word: n, form: [...n].map((d) => String.fromCharCode(0x0660 + Number(d))).join('') },
      ...(Number(n) >= 1000
        ? [
            { word: n, form: Number(n).toLocaleString('en-US') },
            { word: n, form: Number(n).toLocaleString('ar-EG') },
          ]
        : []),
    ]),
  });
  return out;
}

const finds = (
  lex: Lexicon,
  text: string,
  query: string,
  index = new Set(lex.indexText(text).split(' ')),
) => {
  const terms = lex.queryTerms(query);
  return terms.length > 0 && terms.every((g) => g.some((l) => index.has(l)));
};

function measure(lex: Lexicon, all: Family[]) {
  const byFamily: Record<string, { pairs: number; recall: number }> = {};
  for (const f of all) {
    let found = 0;
    const missed: string[] = [];
    let tries = 0;
    for (const { word, form, oneWay } of f.pairs) {
      const a = finds(lex, form, word);
      const b = oneWay ? a : finds(lex, word, form);
      found += Number(a) + Number(b);
      tries += 2;
      if (!(a && b))
        missed.push(`${word} ~ ${form}${a ? ' (form→word only)' : b ? ' (word→form only)' : ''}`);
    }
    if (process.env.BENCH_MISSES && lex === (current as Lexicon))
      process.stderr.write(`${f.name}: ${missed.slice(0, 40).join(' | ')}\n`);
    byFamily[f.name] = { pairs: f.pairs.length, recall: round(found / tries) };
  }
  // Precision: each word typed, against every generated form of every word (indexed once).
  const forms = [...new Map(all.flatMap((f) => f.pairs).map((p) => [p.form, p.word])).entries()];
  const indexed = forms.map(([form, word]) => ({ word, index: new Set(lex.indexText(form).split(' ')) }));
  // One word however hyphenated or split (e-mail, email, e mail), one number however many leading zeros.
  const plain = (w: string) => normalizeArabic(w).replace(/[-\s]/g, '');
  const sameWord = (a: string, b: string) =>
    plain(a) === plain(b) || (/^\d+$/.test(a) && /^\d+$/.test(b) && Number(a) === Number(b));
  let right = 0;
  let wrong = 0;
  const wrongs: string[] = [];
  const words = [...new Set(all.flatMap((f) => f.pairs.map((p) => p.word)))];
  for (const word of words) {
    const terms = lex.queryTerms(word);
    if (!terms.length) continue;
    for (const { word: of, index } of indexed) {
      if (!terms.every((g) => g.some((l) => index.has(l)))) continue;
      if (sameWord(of, word)) right += 1;
      else {
        wrong += 1;
        if (process.env.BENCH_MISSES && lex === (current as Lexicon) && wrongs.length < 100_000)
          wrongs.push(`${word} → ${of}`);
      }
    }
  }
  if (wrongs.length) process.stderr.write(`found wrongly: ${wrongs.join(' | ')}\n`);
  const pairs = all.reduce((n, f) => n + f.pairs.length, 0);
  const recall = all.reduce((n, f) => n + byFamily[f.name]!.recall * f.pairs.length, 0) / pairs;
  return { recall: round(recall), precision: round(right / (right + wrong)), byFamily };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

const all = families();
console.log(
  JSON.stringify(
    {
      words: new Set(all.flatMap((f) => f.pairs.map((p) => p.word))).size,
      pairs: all.reduce((n, f) => n + f.pairs.length, 0),
      lexicon1: measure(lexicon1, all),
      current: { version: current.LEXICON_VERSION, ...measure(current, all) },
    },
    null,
    2,
  ),
);
