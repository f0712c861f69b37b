/**
 * The fonts labels are printed in: Noto Sans Arabic for Arabic, Noto Sans for Latin script and digits,
 * regular and bold, read from their npm packages (found the way the OCR child finds its language data, so
 * the server bundle and the packaged app find them in node_modules) once, and parsed by fontkit once. The
 * OCR child draws its templates of digits from them too (search/arabic-digits.ts).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type FontKey = 'arabic' | 'arabic-bold' | 'latin' | 'latin-bold';

const FILES: Record<FontKey, { pkg: string; file: string }> = {
  arabic: { pkg: '@expo-google-fonts/noto-sans-arabic', file: '400Regular/NotoSansArabic_400Regular.ttf' },
  'arabic-bold': { pkg: '@expo-google-fonts/noto-sans-arabic', file: '700Bold/NotoSansArabic_700Bold.ttf' },
  latin: { pkg: '@expo-google-fonts/noto-sans', file: '400Regular/NotoSans_400Regular.ttf' },
  'latin-bold': { pkg: '@expo-google-fonts/noto-sans', file: '700Bold/NotoSans_700Bold.ttf' },
};

/** The part of a fontkit glyph this module reads. */
export interface ShapedGlyph {
  id: number;
  codePoints: number[];
  advanceWidth: number;
  path: { commands: { command: string; args: number[] }[] };
}

/** The part of a fontkit font this module reads. */
export interface ShapingFont {
  unitsPerEm: number;
  ascent: number;
  descent: number;
  capHeight: number;
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
  postscriptName: string | null;
  hasGlyphForCodePoint(codePoint: number): boolean;
  getGlyph(id: number, codePoints?: number[]): ShapedGlyph;
  layout(
    text: string,
    features?: string[],
    script?: string,
    language?: string,
    direction?: 'ltr' | 'rtl',
  ): {
    glyphs: ShapedGlyph[];
    positions: { xAdvance: number; xOffset: number; yOffset: number }[];
  };
  createSubset(): {
    includeGlyph(glyph: number): number;
    encodeStream(): {
      on(event: 'data', listener: (data: Uint8Array) => void): unknown;
      on(event: 'end', listener: () => void): unknown;
      on(event: 'error', listener: (error: unknown) => void): unknown;
    };
  };
}

export interface LoadedFont {
  key: FontKey;
  bytes: Uint8Array;
  font: ShapingFont;
}

const resolveFromHere = createRequire(import.meta.url).resolve;

/**
 * A font file of an npm font package, found through the module resolver (so the server bundle and the
 * packaged app find it in node_modules), or null when the package is not installed.
 */
export function packagedFontFile(pkg: string, file: string): string | null {
  try {
    return join(dirname(resolveFromHere(`${pkg}/package.json`)), file);
  } catch {
    return null;
  }
}

let loading: Promise<Record<FontKey, LoadedFont>> | undefined;

/**
 * fontkit keeps one glyph object per glyph id, with the characters of the first text that produced it.
 * Noto Sans Arabic draws several letters on one skeleton (ب ت ث ن ي share a dotless body, the dots are
 * marks), so that first answer is wrong for the others. Each glyph handed out here is a view of the
 * cached one with the characters of this very use, which the text layer (ToUnicode) needs.
 */
function withOwnCodePoints(font: ShapingFont): ShapingFont {
  const cached = font.getGlyph.bind(font);
  font.getGlyph = (id, codePoints = []) =>
    Object.create(cached(id, codePoints), { codePoints: { value: [...codePoints] } }) as ShapedGlyph;
  return font;
}

/** The four fonts, read and parsed on first use and kept for the life of the process. */
export function loadFonts(): Promise<Record<FontKey, LoadedFont>> {
  loading ??= (async () => {
    // fontkit is loaded with the first label or letter, not with the server (docs/decisions.md, "The
    // embedded server's memory").
    const { default: fontkit } = await import('@pdf-lib/fontkit');
    const entries = await Promise.all(
      (Object.keys(FILES) as FontKey[]).map(async (key) => {
        const { pkg, file } = FILES[key];
        const path = packagedFontFile(pkg, file);
        if (!path) throw new Error(`The font package ${pkg} is not installed: labels cannot be printed`);
        const bytes = new Uint8Array(await readFile(path));
        const font = withOwnCodePoints(fontkit.create(bytes) as unknown as ShapingFont);
        return [key, { key, bytes, font }] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<FontKey, LoadedFont>;
  })();
  // A failed load (a missing package) is not kept: the next request tries again.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
