/**
 * How numbers, sizes and dates read, in one place for every screen. English uses Western digits; Arabic
 * uses Western digits by default and Arabic-Indic digits (٠١٢٣) when the user chooses them in their
 * settings — the same choice everywhere: counts, sizes, dates, the Hijri calendar. Dates keep the
 * specification's default format, mm/dd/yy (section 9). Units are written in the interface language.
 */
import dayjs from 'dayjs';
import { i18n } from './i18n';

/** The specification's default date format. */
export const DATE_FORMAT = 'MM/DD/YY';
export const DATE_TIME_FORMAT = 'MM/DD/YY HH:mm';

export type DigitStyle = 'latn' | 'arab';
const DIGITS_KEY = 'sijill.digits';

/** The digits Arabic screens use (the user's choice; Western by default). */
export function digitStyle(): DigitStyle {
  try {
    return localStorage.getItem(DIGITS_KEY) === 'arab' ? 'arab' : 'latn';
  } catch {
    return 'latn';
  }
}

/** Keeps the user's choice of digits and redraws the screens in it. */
export function setDigitStyle(style: DigitStyle): void {
  try {
    localStorage.setItem(DIGITS_KEY, style);
  } catch {
    // storage unavailable: the choice lasts until the window closes
  }
  // Every screen reading text through i18n re-renders on a language change event.
  void i18n.changeLanguage(i18n.language);
}

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';

/** Writes the digits of `text` in the style of `language` (Arabic: the user's choice; else Western). */
export function localizeDigits(text: string, language: string = i18n.language): string {
  if (language === 'ar' && digitStyle() === 'arab')
    return text.replace(/[0-9]/g, (d) => ARABIC_INDIC[Number(d)]!);
  return text
    .replace(/[٠-٩]/g, (d) => String(ARABIC_INDIC.indexOf(d)))
    .replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x06f0));
}

/**
 * A count or number, with the language's grouping: 10,000; in Arabic with Arabic-Indic digits, Arabic
 * separators too (١٠٬٠٠٠ and ١٫٥, not ١٠,٠٠٠).
 */
export function formatNumber(value: number, language: string = i18n.language, fractionDigits = 0): string {
  const locale = language !== 'ar' ? 'en-US' : digitStyle() === 'arab' ? 'ar-u-nu-arab' : 'ar-u-nu-latn';
  const text = new Intl.NumberFormat(locale, {
    maximumFractionDigits: fractionDigits,
  }).format(value);
  return localizeDigits(text, language);
}

/** The size units, smallest first; their words are in locales (common.json `units`). */
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** A human file size: 12 KB, 3.4 MB / 12 كيلوبايت (units and digits of the interface language). */
export function formatSize(bytes: number, language: string = i18n.language): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const name = i18n.t(`units.${UNITS[unit]}`, { ns: 'common', lng: language });
  return `${formatNumber(value, language, unit === 0 ? 0 : 1)} ${name}`;
}

/** An ISO date or timestamp as mm/dd/yy; empty for none. */
export function formatDate(value: string | null | undefined, language: string = i18n.language): string {
  return value ? localizeDigits(dayjs(value).format(DATE_FORMAT), language) : '';
}

/** An ISO timestamp as mm/dd/yy HH:mm; empty for none. */
export function formatDateTime(value: string | null | undefined, language: string = i18n.language): string {
  return value ? localizeDigits(dayjs(value).format(DATE_TIME_FORMAT), language) : '';
}
