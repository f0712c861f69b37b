/**
 * Search terms (src-shared/search.ts): the normalisation and light stemming tables — a word is found as an
 * Arabic reader writes it, whatever the hamza, ta marbuta, alef maqsura, diacritics, tatweel, digits and
 * the common prefixes and suffixes; English is stemmed as English.
 */
import { describe, expect, it } from 'vitest';
import { normalizeArabic } from '../../src-shared/arabic';
import {
  indexText,
  matchRanges,
  queryTerms,
  snippet,
  snippetOfMatches,
  tsQueryText,
  wordLexemes,
} from '../../src-shared/search';

/** Whether a query finds a text by the same rule the database applies (every group meets a lexeme). */
function finds(text: string, query: string): boolean {
  const indexed = new Set(indexText(text).split(' '));
  const terms = queryTerms(query);
  return terms.length > 0 && terms.every((group) => group.some((l) => indexed.has(l)));
}

describe('normalisation', () => {
  it.each([
    ['إدارة', 'اداره'],
    ['أحمد', 'احمد'],
    ['آمال', 'امال'],
    ['ٱلرحمن', 'الرحمن'],
    ['مسؤول', 'مسءول'],
    ['مسئول', 'مسءول'],
    ['مستشفى', 'مستشفي'],
    ['مُحَمَّدٌ', 'محمد'],
    ['الإدارـــة', 'الاداره'],
    ['٢٠٢٦/١٥', '2026/15'],
    ['۱۴۰۵', '1405'],
    ['کتاب یک', 'كتاب يك'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeArabic(input)).toBe(expected);
  });
});

describe('light stemming', () => {
  it.each([
    ['بالمذكرات', 'مذكر'],
    ['مذكرة', 'مذكر'],
    ['المذكرات', 'مذكر'],
    ['والمذكرة', 'مذكر'],
    ['فالمذكرة', 'مذكر'],
    ['للمذكرة', 'مذكر'],
    ['كالمذكرة', 'مذكر'],
    ['المعلمون', 'معلم'],
    ['المعلمين', 'معلم'],
    ['كتابها', 'كتاب'],
    ['الموظفين', 'موظف'],
    ['سيارات', 'سيار'],
    ['السيارة', 'سيار'],
    ['الاجتماعات', 'اجتماع'],
    ['إجتماع', 'اجتماع'],
  ])('%s has the stem %s', (word, stem) => {
    expect(wordLexemes(word)).toContain(stem);
  });

  it('keeps a leading و or a one-letter preposition as a second guess', () => {
    expect(wordLexemes('وزارة')).toEqual(expect.arrayContaining(['زار', 'وزار']));
    expect(wordLexemes('للوزارة')).toContain('وزار');
    expect(wordLexemes('بمذكرة')).toContain('مذكر');
    expect(wordLexemes('البلدية')).toEqual(['بلد']);
  });

  it('stems English as English and keeps numbers', () => {
    expect(wordLexemes('Letters')).toEqual(['letter']);
    expect(wordLexemes('running')).toEqual(['run']);
    expect(wordLexemes('000123')).toEqual(['000123', '123']);
    expect(wordLexemes('the')).toEqual([]);
    expect(wordLexemes('في')).toEqual([]);
  });
});

describe('a query finds the text as written', () => {
  const subject = 'بشأن المذكرات الواردة من وزارة الصحة إلى المسؤولين في الإدارة العامة';
  it.each([
    'بالمذكرات',
    'مذكرة',
    'مذكره',
    'المذكره',
    'للوزارة',
    'وزارة الصحه',
    'مسئول',
    'الاداره',
    'الإِدَارَة',
    'ادارة العامة',
  ])('finds it by %s', (query) => {
    expect(finds(subject, query)).toBe(true);
  });
  it.each(['مالية', 'وزارة المالية', 'مستشفى'])('does not find it by %s', (query) => {
    expect(finds(subject, query)).toBe(false);
  });
  it('finds English by its stem and numbers in either digits', () => {
    expect(finds('Request for approved budgets of 2026', 'approving budget')).toBe(true);
    expect(finds('خطاب رقم ١٥٠ لسنة ٢٠٢٦', '150 2026')).toBe(true);
    expect(finds('Letter IN-2026-000123', 'IN-2026-000123')).toBe(true);
  });
});

describe('the database query and the marks', () => {
  it('builds an AND of OR groups, quoted', () => {
    expect(tsQueryText(queryTerms('وزارة الصحة'))).toBe("('زار' | 'وزار') & 'صح'");
    expect(tsQueryText(queryTerms("o'brien"))).toBe("'o' & 'brien'");
  });
  it('marks the words as written, diacritics and all', () => {
    const text = 'وصلت المُذَكِّرَةُ من الوزارة';
    const ranges = matchRanges(text, queryTerms('مذكرة وزارة'));
    expect(ranges.map(([s, e]) => text.slice(s, e))).toEqual(['المُذَكِّرَةُ', 'الوزارة']);
  });
  it('cuts a passage around the first match', () => {
    const long = `${'نص '.repeat(200)}المذكرة المطلوبة ${'كلام '.repeat(200)}`;
    const s = snippet(long, queryTerms('مذكرة'), 120);
    expect(s.before).toBe(true);
    expect(s.after).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(120);
    expect(s.highlights).toHaveLength(1);
    const [a, b] = s.highlights[0]!;
    expect(s.text.slice(a, b)).toBe('المذكرة');
  });
});

describe('words that name what every object has', () => {
  // A word typed is looked up in the lexicon's tables; a table that were a plain object would answer
  // constructor, toString or __proto__ with Object's own functions (GET /search?q=constructor: 500).
  const names = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];
  it.each(names.flatMap((n) => [n, n.toUpperCase(), `${n}s`]))('%s is a word like any other', (word) => {
    for (const l of wordLexemes(word, true)) expect(typeof l).toBe('string');
    for (const l of indexText(`a letter about ${word}`).split(' ')) expect(l).toMatch(/^[a-z0-9]+$/);
    const terms = queryTerms(word);
    for (const group of terms) for (const l of group) expect(typeof l).toBe('string');
    expect(terms.length).toBeGreaterThan(0);
    expect(finds(`the ${word} of the letter`, word)).toBe(true);
    expect(() => tsQueryText(terms)).not.toThrow();
  });
});

describe('words looked up once', () => {
  it('a passage of matches is the passage a snippet cuts, and none where nothing matches', () => {
    const text = 'تمت  إحالة المعاملة إلى\nإدارة المناقصات لدراسة العروض المقدمة في المناقصة العامة';
    const terms = queryTerms('المناقصه');
    expect(snippetOfMatches(text, terms)).toEqual(snippet(text, terms));
    expect(snippetOfMatches(text, terms)!.highlights.length).toBeGreaterThan(0);
    expect(snippetOfMatches(text, queryTerms('ميزانية'))).toBeNull();
    expect(snippetOfMatches(text, [])).toBeNull();
  });

  it('a word answers the same lexemes however many other words were looked up since', () => {
    const first = [...wordLexemes('والمناقصات')];
    const kept = [...wordLexemes('والمناقصات', true)];
    // More words than are kept: the answers are worked out again, the same.
    for (let i = 0; i < 60_000; i++) wordLexemes(`كلمة${i}`);
    expect(wordLexemes('والمناقصات')).toEqual(first);
    expect(wordLexemes('والمناقصات', true)).toEqual(kept);
    expect(first).toContain('مناقص');
  });
});
