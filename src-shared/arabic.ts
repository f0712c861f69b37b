/**
 * Arabic search normalisation: people type names without tashkeel, with or without hamza, and with ه
 * for ة, so search compares normalised text on both sides. The server's generated `search_text`
 * columns apply the same rules in SQL (src-server/db/schema.ts, `normalisedSql`); keep them in step.
 */

/** Tashkeel (harakat, tanwin, shadda, sukun, superscript alef, Quranic marks) and tatweel. */
export const ARABIC_STRIPPED = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g;

/** Letter unifications: the alef forms to bare alef, alef maqsura to ya, ta marbuta to ha. */
export const ARABIC_UNIFY: Readonly<Record<string, string>> = {
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ى: 'ي',
  ة: 'ه',
};

const UNIFY_PATTERN = /[أإآٱىة]/g;

/**
 * Normalises text for search: strips tashkeel and tatweel, unifies أإآٱ→ا, ى→ي, ة→ه, lower-cases Latin
 * letters and collapses whitespace. Idempotent.
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
