/** Arabic search normalisation (src-shared/arabic.ts): the rules the SQL `search_text` columns mirror. */
import { describe, expect, it } from 'vitest';
import { arabicIncludes, normalizeArabic } from '../../src-shared/arabic';

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
});
