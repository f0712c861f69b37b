/**
 * One way numbers, sizes and dates read, per language and the user's choices of digits and date format:
 * no mix of Arabic-Indic digits with Latin units, the specification's mm/dd/yy by default and each
 * four-digit-year format when chosen.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../src-renderer/lib/i18n';
import {
  applyPreferences,
  DATE_FORMAT,
  formatDate,
  formatDateTime,
  formatNumber,
  formatSize,
  localizeDigits,
  setDigitStyle,
} from '../../src-renderer/lib/format';
import type { DateFormat } from '../../src-shared/preferences';
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

  it("every date reads in the user's chosen format, in each language and digits, and back to mm/dd/yy", () => {
    const cases: [DateFormat, string, string, string][] = [
      ['MM/DD/YY', '11/04/26', '11/04/26 08:05', '١١/٠٤/٢٦'],
      ['DD/MM/YYYY', '04/11/2026', '04/11/2026 08:05', '٠٤/١١/٢٠٢٦'],
      // Arabic-Indic digits across `-` held in left-to-right order (they would read 04-11-2026).
      ['YYYY-MM-DD', '2026-11-04', '2026-11-04 08:05', '٢٠٢٦\u200E-\u200E١١\u200E-\u200E٠٤'],
    ];
    for (const [dateFormat, date, dateTime, arabicIndic] of cases) {
      applyPreferences({ dateFormat });
      expect(DATE_FORMAT).toBe(dateFormat); // what the date pickers are given
      for (const language of ['en', 'ar']) {
        expect(formatDate('2026-11-04', language)).toBe(date);
        expect(formatDateTime('2026-11-04T08:05:00', language)).toBe(dateTime);
      }
      applyPreferences({ dateFormat, digits: 'arab' });
      expect(formatDate('2026-11-04', 'ar')).toBe(arabicIndic);
      expect(formatDate('2026-11-04', 'en')).toBe(date);
    }
    // Signed out (no preferences): the specification's default and Western digits.
    applyPreferences(null);
    expect(DATE_FORMAT).toBe('MM/DD/YY');
    expect(formatDate('2026-11-04', 'ar')).toBe('11/04/26');
  });

  it("the digits of the user's account hold on any desk; without them, this desk's choice", () => {
    localStorage.setItem('sijill.digits', 'arab');
    applyPreferences({ digits: 'latn' });
    expect(formatNumber(1446, 'ar')).toBe('1,446');
    applyPreferences({});
    expect(formatNumber(1446, 'ar')).toMatch(/^[٠-٩٬]+$/);
    applyPreferences(null);
  });
});
