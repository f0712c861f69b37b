/** The interface languages of Sijill. Arabic is the default and the fallback, laid out right to left. */
export const LOCALES = ['ar', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'ar';

/** The text direction of a locale. */
export function directionOf(locale: Locale): 'rtl' | 'ltr' {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

/** Picks a supported locale from an `Accept-Language` header or a stored value, else the default. */
export function pickLocale(value: string | null | undefined): Locale {
  if (!value) return DEFAULT_LOCALE;
  for (const part of value.split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase().slice(0, 2);
    if (tag === 'ar' || tag === 'en') return tag;
  }
  return DEFAULT_LOCALE;
}
