/**
 * How numbers, sizes and dates read, in one place for every screen. English uses Western digits; Arabic
 * uses Western digits by default and Arabic-Indic digits (٠١٢٣) when the user chooses them in their
 * settings — the same choice everywhere: counts, sizes, dates, the Hijri calendar. Dates read in the
 * user's date format: the specification's mm/dd/yy by default (section 9), or one with a four-digit year
 * (dd/mm/yyyy, yyyy-mm-dd) — in the tables, the details, the timeline, the calendar and the date pickers.
 * Both choices are the user's preferences, kept with their account (`applyPreferences`, called when the
 * profile is known). Units are written in the interface language.
 */
import dayjs from 'dayjs';
import {
  DEFAULT_DATE_FORMAT,
  type DateFormat,
  type DigitStyle,
  type DisplayPreferences,
} from '../../src-shared/preferences';
import { i18n } from './i18n';

export type { DigitStyle };

/**
 * The user's date format, for formatting and for the date pickers (`format={DATE_FORMAT}`). A live
 * binding: `applyPreferences` reassigns it and redraws the screens, which read it again.
 */
export let DATE_FORMAT: DateFormat = DEFAULT_DATE_FORMAT;
/** The same with the time of day. */
export let DATE_TIME_FORMAT = `${DATE_FORMAT} HH:mm`;

const DIGITS_KEY = 'sijill.digits';
/** The digits of the signed-in user's preferences (null: none chosen, this desk's choice holds). */
let chosenDigits: DigitStyle | null = null;

/** The digits Arabic screens use (the user's choice; Western by default). */
export function digitStyle(): DigitStyle {
  if (chosenDigits) return chosenDigits;
  try {
    return localStorage.getItem(DIGITS_KEY) === 'arab' ? 'arab' : 'latn';
  } catch {
    return 'latn';
  }
}

/** Redraws every screen (those reading text through i18n re-render on a language change event). */
const redraw = () => void i18n.changeLanguage(i18n.language);

/** Keeps the user's choice of digits (on this desk too: before sign-in) and redraws the screens in it. */
export function setDigitStyle(style: DigitStyle): void {
  try {
    localStorage.setItem(DIGITS_KEY, style);
  } catch {
    // storage unavailable: the choice lasts until the window closes
  }
  chosenDigits = style;
  redraw();
}

/**
 * Applies a user's preferences (their date format and digits; null: signed out, the defaults) and
 * redraws the screens when something changed.
 */
export function applyPreferences(preferences: DisplayPreferences | null): void {
  const format = preferences?.dateFormat ?? DEFAULT_DATE_FORMAT;
  const digits = preferences?.digits ?? null;
  if (format === DATE_FORMAT && digits === chosenDigits) return;
  DATE_FORMAT = format;
  DATE_TIME_FORMAT = `${format} HH:mm`;
  chosenDigits = digits;
  redraw();
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

/**
 * A formatted date in the digits of `language`. Arabic-Indic digits joined by `-` (yyyy-mm-dd) would be
 * laid out right to left — the bidirectional algorithm joins Arabic numbers across `/` and `:`, not
 * across `-` — and read 24-11-2026 on screen: each `-` between them is held between left-to-right marks.
 */
export function localizeDate(text: string, language: string = i18n.language): string {
  return localizeDigits(text, language).replace(/(?<=[٠-٩])-(?=[٠-٩])/g, '\u200E-\u200E');
}

/** An ISO date or timestamp in the user's date format (or `format`); empty for none. */
export function formatDate(
  value: string | Date | null | undefined,
  language: string = i18n.language,
  format: DateFormat = DATE_FORMAT,
): string {
  return value ? localizeDate(dayjs(value).format(format), language) : '';
}

/** An ISO timestamp in the user's date format with the time (HH:mm); empty for none. */
export function formatDateTime(value: string | null | undefined, language: string = i18n.language): string {
  return value ? localizeDate(dayjs(value).format(DATE_TIME_FORMAT), language) : '';
}
