/**
 * The faces the OCR child draws its Arabic-Indic digit templates from (src-server/modules/search/
 * digit-fonts.ts): the shipped Naskh faces on any machine, the system's document fonts beside them, each
 * face once, and a family left out by OCR_DIGIT_FONTS_EXCEPT (how the OCR digits benchmark measures a face
 * the templates never saw).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { digitTemplateFonts } from '../../src-server/modules/search/digit-fonts';

afterEach(() => {
  delete process.env.OCR_DIGIT_FONTS_EXCEPT;
});

describe('digit template faces', () => {
  it('has the shipped Naskh faces, every face once, each drawing the Arabic-Indic digits', async () => {
    const fonts = await digitTemplateFonts([]);
    const names = fonts.map((f) => f.font.postscriptName);
    expect(names).toEqual(expect.arrayContaining(['NotoNaskhArabic-Regular', 'NotoNaskhArabic-Bold']));
    expect(new Set(names).size).toBe(names.length);
    for (const { font } of fonts)
      for (const digit of '٠١٢٣٤٥٦٧٨٩') expect(font.hasGlyphForCodePoint(digit.codePointAt(0)!)).toBe(true);
  });

  it('leaves out the faces already drawn and the families named in OCR_DIGIT_FONTS_EXCEPT', async () => {
    const skipped = await digitTemplateFonts(['NotoNaskhArabic-Bold']);
    expect(skipped.map((f) => f.font.postscriptName)).not.toContain('NotoNaskhArabic-Bold');
    process.env.OCR_DIGIT_FONTS_EXCEPT = '^noto naskh arabic$';
    const held = await digitTemplateFonts([]);
    expect(held.map((f) => f.family)).not.toContain('Noto Naskh Arabic');
  });
});
