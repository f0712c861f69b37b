/** Bilingual names (API.md: `nameAr`, `nameEn`) shown in the interface language. */

/** The name in the interface language, falling back to the other when it is empty. */
export function localName(
  item: { nameAr: string; nameEn: string } | null | undefined,
  language: string,
): string {
  if (!item) return '';
  return language === 'en' ? item.nameEn || item.nameAr : item.nameAr || item.nameEn;
}

/** The other language's name, to show beside the local one (with its own `lang` and `dir`). */
export function otherName(item: { nameAr: string; nameEn: string } | null | undefined, language: string) {
  if (!item) return { text: '', lang: 'en', dir: 'ltr' as const };
  return language === 'en'
    ? { text: item.nameAr, lang: 'ar', dir: 'rtl' as const }
    : { text: item.nameEn, lang: 'en', dir: 'ltr' as const };
}

/** Names as one line in the interface language: "a، b" in Arabic, "a, b" in English. */
export function nameList(names: readonly string[], language: string): string {
  return names.join(language === 'ar' ? '، ' : ', ');
}
