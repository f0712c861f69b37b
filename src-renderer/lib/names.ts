/** Bilingual names (API.md: `nameAr`, `nameEn`) shown in the interface language. */

/** The name in the interface language, falling back to the other when it is empty. */
export function localName(
  item: { nameAr: string; nameEn: string } | null | undefined,
  language: string,
): string {
  if (!item) return '';
  return language === 'en' ? item.nameEn || item.nameAr : item.nameAr || item.nameEn;
}
