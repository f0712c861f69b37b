/**
 * Arabic search normalisation (src-shared/arabic.ts): the rules the SQL `search_text` columns mirror, the
 * folding of presentation forms (what Chromium's PDFs hold), and the mapped twin the PDF viewer's find
 * uses to highlight what it matched — always the same text as `normalizeArabic`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ARABIC_STRIPPED,
  ARABIC_UNIFY,
  ARABIC_UNIFY_FROM,
  arabicIncludes,
  foldPresentationForms,
  normalizeArabic,
  normalizeArabicMapped,
} from '../../src-shared/arabic';

/** normalizeArabic as it was before presentation forms were folded: text without them must not change. */
function previousNormalizeArabic(text: string): string {
  return text
    .normalize('NFC')
    .replace(ARABIC_STRIPPED, '')
    .replace(new RegExp(`[${ARABIC_UNIFY_FROM}]`, 'g'), (c) => ARABIC_UNIFY[c] ?? c)
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const PRESENTATION = /[\ufb50-\ufdff\ufe70-\ufeff]/;

/** Characters that exercise every step: Arabic letters, hamza forms, marks (combining and spacing forms),
 * presentation forms and ligatures, digits, Latin with combining accents, Greek sigma, dotted capital I,
 * Hangul jamo, astral letters and many kinds of whitespace. */
const ALPHABET = [
  ...'ابتثجحخدذرزسشصضطظعغفقكلمنهوي',
  ...'أإآٱؤئءىیةک٠١٩۰۹',
  ...'\u064b\u064e\u064f\u0650\u0651\u0652\u0653\u0654\u0655\u0670\u0640',
  ...'ﻢﻣﺎﻟﻹﻷﻻﻼﺃﺆﺋﺔﻰﻴﻳﷲﷺﱞﹰﹶﹷ\ufeff\ufdfa\ufbfc',
  ...'aZzIİΣσςΟ\u0301\u1100\u1161\u11a8',
  '\u{10400}',
  '\u{1d400}',
  ...' \t\n\u00a0\u2003\u200b',
];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 40 }).map((cs) => cs.join(''));

describe('normalizeArabic', () => {
  it('unifies alef forms, alef maqsura and ta marbuta', () => {
    expect(normalizeArabic('إدارة')).toBe('اداره');
    expect(normalizeArabic('أحمد آل إبراهيم')).toBe('احمد ال ابراهيم');
    expect(normalizeArabic('مستشفى')).toBe('مستشفي');
    expect(normalizeArabic('ٱلرحمن')).toBe('الرحمن');
  });
  it('strips tashkeel and tatweel', () => {
    expect(normalizeArabic('مُحَمَّدٌ')).toBe('محمد');
    expect(normalizeArabic('إدارةُ الشؤونِ')).toBe('اداره الشءون');
    expect(normalizeArabic('الإدارـــة')).toBe('الاداره');
  });
  it('lower-cases Latin, collapses whitespace and is idempotent', () => {
    const once = normalizeArabic('  General   Directorate  ');
    expect(once).toBe('general directorate');
    expect(normalizeArabic(once)).toBe(once);
    expect(normalizeArabic(normalizeArabic('إدارةُ'))).toBe(normalizeArabic('إدارةُ'));
  });
  it('finds إدارة when typed as اداره', () => {
    expect(arabicIncludes('الإدارة العامة للشؤون الإدارية', 'اداره')).toBe(true);
    expect(arabicIncludes('Human Resources', 'RESOURCES')).toBe(true);
    expect(arabicIncludes('وزارة المالية', 'الصحه')).toBe(false);
  });
  it('folds presentation forms to the letters they show, then unifies them like letters', () => {
    // What a Chromium PDF's text layer holds for الإدارة، مسؤولية، المستشفى (glyph by glyph, in logical order).
    expect(normalizeArabic('ﺍﻹﺩﺍﺭﺓ')).toBe(normalizeArabic('الإدارة'));
    expect(normalizeArabic('ﻣﺴﺆﻭﻟﻴﺔ')).toBe(normalizeArabic('مسئولية'));
    expect(normalizeArabic('ﺍﻟﻤﺴﺘﺸﻔﻰ')).toBe('المستشفي');
    // Lam-alef ligatures are two letters; isolated harakat are marks (stripped), not spaces.
    expect(normalizeArabic('ﻻ ﺳﻴﻤﺎ')).toBe('لا سيما');
    expect(normalizeArabic('ﻣﹸﺤﹶﻤﹼﺪ')).toBe('محمد');
    expect(foldPresentationForms('ﷲ')).toBe('الله');
  });
  it('is idempotent on any text', () => {
    fc.assert(fc.property(text, (s) => normalizeArabic(normalizeArabic(s)) === normalizeArabic(s)));
  });
  it('changes nothing for text without presentation forms (what the index already holds)', () => {
    fc.assert(
      fc.property(
        text.filter((s) => !PRESENTATION.test(s)),
        (s) => normalizeArabic(s) === previousNormalizeArabic(s),
      ),
      { numRuns: 2000 },
    );
  });
});

describe('normalizeArabicMapped', () => {
  it('is normalizeArabic, with where each character came from', () => {
    fc.assert(
      fc.property(text, (s) => {
        const { text: out, from, to } = normalizeArabicMapped(s);
        expect(out).toBe(normalizeArabic(s));
        expect(from.length).toBe(out.length);
        for (let i = 0; i < out.length; i += 1) {
          expect(from[i]).toBeGreaterThanOrEqual(i > 0 ? from[i - 1]! : 0);
          expect(to[i]).toBeGreaterThan(from[i]!);
          expect(to[i]).toBeLessThanOrEqual(s.length);
          // What a letter stands for normalises to text that holds it (the final sigma is lower-cased by
          // its context).
          const sigma = (t: string) => t.replace(/ς/g, 'σ');
          if (out[i] !== ' ')
            expect(sigma(normalizeArabic(s.slice(from[i], to[i])))).toContain(sigma(out[i]!));
        }
      }),
      { numRuns: 2000 },
    );
  });
  it('maps a match back onto the letters as written', () => {
    const source = '  في الإدارةِ  العامّة ﻟﻠﻤﺴﺘﺸﻔﻰ ';
    const mapped = normalizeArabicMapped(source);
    const span = (query: string) => {
      const at = mapped.text.indexOf(normalizeArabic(query));
      return source.slice(mapped.from[at], mapped.to[at + normalizeArabic(query).length - 1]);
    };
    expect(span('اداره')).toBe('إدارة');
    expect(span('الإدارة العامة')).toBe('الإدارةِ  العامّة');
    expect(span('مستشفى')).toBe('ﻤﺴﺘﺸﻔﻰ');
  });
});
