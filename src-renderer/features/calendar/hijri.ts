/**
 * The Hijri (Umm al-Qura) date shown beside the Gregorian one in Arabic, through the platform's Intl
 * calendar support (issue 6, item 9: no library).
 */
import { localizeDigits } from '../../lib/format';

/** The Intl locale of the Umm al-Qura calendar in Arabic. */
export const HIJRI_LOCALE = 'ar-SA-u-ca-islamic-umalqura';

const FORMATS = {
  /** e.g. ١ رمضان ١٤٤٦ هـ */
  full: { day: 'numeric', month: 'long', year: 'numeric' },
  /** e.g. ١ */
  day: { day: 'numeric' },
  /** e.g. رمضان ١٤٤٦ هـ */
  monthYear: { month: 'long', year: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type HijriStyle = keyof typeof FORMATS;

const cache = new Map<HijriStyle, Intl.DateTimeFormat>();

/** A date in the Hijri calendar, in Arabic, in one of the styles above. */
export function formatHijri(date: Date, style: HijriStyle = 'full'): string {
  let format = cache.get(style);
  if (!format) {
    format = new Intl.DateTimeFormat(HIJRI_LOCALE, FORMATS[style]);
    cache.set(style, format);
  }
  // In the digits the user chose for Arabic, like every other date of the screen.
  return localizeDigits(format.format(date), 'ar');
}

/**
 * The Hijri month(s) a Gregorian span covers, e.g. "شعبان – رمضان ١٤٤٦ هـ" for a month view: a
 * Gregorian month almost always straddles two Hijri months.
 */
export function hijriSpan(from: Date, to: Date): string {
  const first = formatHijri(from, 'monthYear');
  const last = formatHijri(to, 'monthYear');
  return first === last ? first : `${first} – ${last}`;
}
