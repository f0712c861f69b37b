/**
 * A user's own display settings as plain values (no schema here: the renderer's first paint reads them
 * without loading zod; src-shared/api/auth.ts validates them): how dates read and the digits of Arabic
 * screens.
 */

/**
 * How a user's dates read: the specification's mm/dd/yy (the default), or a four-digit year that no
 * reader can mistake, day first or in ISO order. Values are dayjs formats.
 */
export const DATE_FORMATS = ['MM/DD/YY', 'DD/MM/YYYY', 'YYYY-MM-DD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const DEFAULT_DATE_FORMAT: DateFormat = 'MM/DD/YY';

/** The digits of Arabic screens: Western (the default) or Arabic-Indic. */
export const DIGIT_STYLES = ['latn', 'arab'] as const;
export type DigitStyle = (typeof DIGIT_STYLES)[number];

/** A user's preferences as the profile carries them (src-shared/api/auth.ts preferencesSchema). */
export interface DisplayPreferences {
  dateFormat?: DateFormat | undefined;
  digits?: DigitStyle | undefined;
  homePage?: string | null | undefined;
}
