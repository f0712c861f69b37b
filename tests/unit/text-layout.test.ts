/**
 * Where the layout of a page's text items (src-shared/text-layout.ts) puts spaces, on items placed as
 * real producers place them: words drawn without space glyphs, fonts whose spaces are narrow (pdf.js's own
 * ArabicCIDTrueType.pdf: 0.15 em, its space glyphs given as items of a fraction of a point), glyphs of
 * one word drawn as items of their own, letter spacing, ligatures drawn from parts with a space item of
 * no width between them, items pdf.js gives no width; and the characters pdf.js's normalisation would
 * have folded, folded after ordering.
 */
import { describe, expect, it } from 'vitest';
import { layoutPageText, type PositionedText } from '../../src-shared/text-layout';

/** Font size of every item here, in points. */
const SIZE = 36;

/** An item as pdf.js gives it: text, baseline start x, advance width (points), font size SIZE. */
const item = (str: string, x: number, width: number, y = 700): PositionedText => ({
  str,
  transform: [SIZE, 0, 0, SIZE, x, y],
  width,
});

/** Words of one line from the left, each `gap` ems after the last (and a space item in it, if given). */
function wordsFromLeft(words: string[], gap: number, spaceItem?: number): PositionedText[] {
  const out: PositionedText[] = [];
  let x = 100;
  for (const [i, word] of words.entries()) {
    if (i > 0) {
      if (spaceItem !== undefined) out.push(item(' ', x, spaceItem));
      x += gap * SIZE;
    }
    const width = word.length * 0.5 * SIZE;
    out.push(item(word, x, width));
    x += width;
  }
  return out;
}

describe('spaces between items', () => {
  it('keeps the spaces of a font whose space glyph pdf.js gives as an item of almost no width', () => {
    // ArabicCIDTrueType.pdf's third line: words 0.148 em apart, each space an item 0.15 pt wide.
    const items = wordsFromLeft(['العربية', 'الخطوط', 'انواع'], 0.148, 0.15);
    expect(layoutPageText(items)).toBe('انواع الخطوط العربية');
  });

  it('reads a gap of 0.15 em between words drawn with no space glyph as a space, in both directions', () => {
    expect(layoutPageText(wordsFromLeft(['العربية', 'الخطوط', 'انواع'], 0.15))).toBe('انواع الخطوط العربية');
    expect(layoutPageText(wordsFromLeft(['Annual', 'leave', 'request'], 0.15))).toBe('Annual leave request');
  });

  it('joins the glyphs of one word drawn as items of their own, touching, kerned or letter-spaced', () => {
    // الموافقة drawn glyph by glyph from the left, presentation forms, gaps of 0, -0.02 and 0.1 em.
    const glyphs = ['ﺔ', 'ﻘ', 'ﻓ', 'ﺍ', 'ﻮ', 'ﻤ', 'ﻟ', 'ﺍ'];
    for (const gap of [0, -0.02, 0.1]) {
      let x = 100;
      const items = glyphs.map((g) => {
        const it = item(g, x, 0.4 * SIZE);
        x += (0.4 + gap) * SIZE;
        return it;
      });
      expect(layoutPageText(items), `gap ${gap} em`).toBe('الموافقة');
    }
  });

  it('does not part a word at a space item of no width where its glyphs touch', () => {
    // pdf.js gives a space item of no width where glyphs of one word jump (Chromium's justified Noto
    // Naskh Arabic, at its lam-alef): the glyphs on either side touch.
    const items = [
      item('ع', 100, 9),
      item('ﺎ', 109, 3.8),
      item('ﻤ', 112.8, 6.2),
      item('ﺘ', 119, 5.4),
      item('ﺟ', 124.4, 9.5),
      item(' ', 133.9, 0),
      item('ﻻ', 133.9, 11.3),
      item('ا', 145.2, 3.6),
    ];
    expect(layoutPageText(items)).toBe('الاجتماع');
  });

  it('measures no gap after an item pdf.js gave no width', () => {
    // Two halves of one word, the first with no width: its own advance is not a space.
    expect(layoutPageText([item('arch', 100, 0), item('ive', 100 + 2 * SIZE, 1.5 * SIZE)])).toBe('archive');
  });
});

describe('characters folded after ordering', () => {
  it('folds Latin ligatures and Arabic presentation forms', () => {
    expect(layoutPageText([item('ﬁle', 100, 40), item('oﬃce', 150, 50)])).toBe('file office');
    expect(layoutPageText([item('ﳋ', 100, 20), item('ا', 120, 5)])).toBe('الخ');
  });

  it('reads the word الله drawn as an alef and the ligature glyph U+FDF2 once', () => {
    // Drawn from the left: the ligature, then the alef at the right.
    expect(layoutPageText([item('ﷲ', 100, 20), item('ا', 120, 5)])).toBe('الله');
    expect(layoutPageText([item('ﷲ', 100, 20), item('ا', 120, 5), item('و', 125, 6)])).toBe('والله');
    expect(layoutPageText([item('ﷲ', 100, 20)])).toBe('الله');
  });
});
