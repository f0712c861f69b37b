/**
 * One way numbers, sizes and dates read, per language and the user's choice of digits: no mix of
 * Arabic-Indic digits with Latin units, the specification's mm/dd/yy everywhere.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../src-renderer/lib/i18n';
import {
  formatDate,
  formatDateTime,
  formatNumber,
  formatSize,
  localizeDigits,
  setDigitStyle,
} from '../../src-renderer/lib/format';
import { formatHijri } from '../../src-renderer/features/calendar/hijri';

beforeAll(async () => {
  await initI18n('ar');
});
beforeEach(() => localStorage.clear());

describe('formatting', () => {
  it('English: Western digits and English units', () => {
    expect(formatNumber(1234, 'en')).toBe('1,234');
    expect(formatSize(2048, 'en')).toBe('2 KB');
    expect(formatSize(3.5 * 1024 * 1024, 'en')).toBe('3.5 MB');
    expect(formatDate('2026-11-24', 'en')).toBe('11/24/26');
    expect(localizeDigits('١٢٣', 'en')).toBe('123');
  });

  it('Arabic by default: Western digits with Arabic units, mm/dd/yy', () => {
    // The units in words, as Arabic offices write them: not the abbreviations ك.ب and م.ب.
    expect(formatSize(2048, 'ar')).toBe('2 كيلوبايت');
    expect(formatSize(3.5 * 1024 * 1024, 'ar')).toBe('3.5 ميغابايت');
    expect(formatSize(12, 'ar')).toBe('12 بايت');
    expect(formatDate('2026-11-24', 'ar')).toBe('11/24/26');
    expect(formatDateTime('2026-11-24T08:05:00', 'ar')).toBe('11/24/26 08:05');
    expect(formatNumber(7, 'ar')).toBe('7');
    // The Hijri date follows the same choice: no Arabic-Indic digit left.
    expect(formatHijri(new Date('2026-11-24T12:00:00Z'), 'full')).not.toMatch(/[٠-٩]/);
  });

  it('Arabic with Arabic-Indic digits chosen: every number, size and date in them', () => {
    setDigitStyle('arab');
    expect(formatNumber(1446, 'ar')).not.toMatch(/[0-9]/);
    expect(formatSize(2048, 'ar')).toBe('٢ كيلوبايت');
    expect(formatDate('2026-11-24', 'ar')).toBe('١١/٢٤/٢٦');
    expect(formatHijri(new Date('2026-11-24T12:00:00Z'), 'full')).not.toMatch(/[0-9]/);
    // English screens stay Western whatever the Arabic choice.
    expect(formatDate('2026-11-24', 'en')).toBe('11/24/26');
    setDigitStyle('latn');
    expect(formatDate('2026-11-24', 'ar')).toBe('11/24/26');
  });
});
