/**
 * Arabic search normalisation: people type names without tashkeel, with or without hamza, and with ه
 * for ة, so search compares normalised text on both sides. The server's generated `search_text`
 * columns apply the same rules in SQL (src-server/db/schema.ts, `normalisedSql`); keep them in step.
 */

/** Tashkeel (harakat, tanwin, shadda, sukun, superscript alef, Quranic marks) and tatweel. */
export const ARABIC_STRIPPED = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g;

/**
 * Letter unifications: the alef forms to bare alef, hamza on waw and on ya to the hamza alone (مسؤول and
 * مسئول are one word), alef maqsura (and the Persian ya) to ya, ta marbuta to ha, the Persian kaf to kaf, and Arabic-Indic and Persian digits to
 * ASCII digits. `ARABIC_UNIFY_FROM` and `ARABIC_UNIFY_TO` are the same table as two strings of equal length,
 * for SQL's `translate` (src-server/db/schema.ts).
 */
export const ARABIC_UNIFY_FROM = 'أإآٱؤئىیةک٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹';
export const ARABIC_UNIFY_TO = 'ااااءءييهك01234567890123456789';

export const ARABIC_UNIFY: Readonly<Record<string, string>> = Object.fromEntries(
  [...ARABIC_UNIFY_FROM].map((c, i) => [c, ARABIC_UNIFY_TO[i]!]),
);

const UNIFY_PATTERN = new RegExp(`[${ARABIC_UNIFY_FROM}]`, 'g');

/**
 * Normalises text for search: strips tashkeel and tatweel, unifies أإآٱ→ا, ؤئ→ء, ى→ي, ة→ه and the
 * Arabic-Indic and Persian digits, lower-cases Latin letters and collapses whitespace. Idempotent.
 */
export function normalizeArabic(text: string): string {
  return text
    .normalize('NFC')
    .replace(ARABIC_STRIPPED, '')
    .replace(UNIFY_PATTERN, (c) => ARABIC_UNIFY[c] ?? c)
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether `haystack` contains `needle` once both are normalised (for client-side filtering). */
export function arabicIncludes(haystack: string, needle: string): boolean {
  return normalizeArabic(haystack).includes(normalizeArabic(needle));
}
