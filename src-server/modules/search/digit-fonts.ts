/**
 * The fonts the OCR child draws its templates of Arabic-Indic digits from (arabic-digits.ts), beyond the
 * label fonts the server ships (Noto Sans Arabic, Noto Sans): Noto Naskh Arabic, shipped for this (a
 * Naskh face draws ٢ ٣ ٤ ٦ ٧ unlike a sans face, and most letters are typed in one), and the document
 * fonts of the machine the server runs on, found by name so that decorative faces stay out:
 *
 * - Windows (an embedded desk): the fonts letters are typed in there — Simplified Arabic, Traditional
 *   Arabic, Arabic Typesetting, Sakkal Majalla, Arial, Times New Roman, Tahoma, Segoe UI — in %WINDIR%\Fonts;
 * - Linux: fontconfig's Arabic fonts (`fc-list :lang=ar`) whose family is one of the same kind (Noto,
 *   Amiri, Scheherazade, Lateef, KacstOne, DejaVu Sans, and the Windows names when installed);
 * - macOS: Geeza Pro, Al Nile, Baghdad and the same Latin-script families.
 *
 * `OCR_DIGIT_FONTS_EXCEPT` (a regular expression over family names) leaves families out: the OCR digits
 * benchmark measures a font held out from the templates with it. Nothing here is required: a machine
 * without any of these fonts reads with the shipped ones.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packagedFontFile, type ShapingFont } from '../labels/fonts';

export interface DigitFont {
  family: string;
  font: ShapingFont;
}

/** Families whose digits are drawn as a document's are (not display or decorative faces). */
const DOCUMENT_FAMILIES =
  /^(noto (naskh|sans|kufi) arabic|amiri|scheherazade( new)?|lateef|kacstone|kacstbook|kacstoffice|kacstnaskh|dejavu sans|simplified arabic|traditional arabic|arabic typesetting|sakkal majalla|arial|times new roman|tahoma|segoe ui|geeza pro|al nile|baghdad)$/i;

/** Windows font files of those families (regular and bold). */
const WINDOWS_FILES = [
  'simpo.ttf',
  'simpbdo.ttf',
  'trado.ttf',
  'tradbdo.ttf',
  'arabtype.ttf',
  'majalla.ttf',
  'majallab.ttf',
  'arial.ttf',
  'arialbd.ttf',
  'times.ttf',
  'timesbd.ttf',
  'tahoma.ttf',
  'tahomabd.ttf',
  'segoeui.ttf',
];
const MAC_FOLDERS = ['/System/Library/Fonts', '/System/Library/Fonts/Supplemental', '/Library/Fonts'];
const MAC_FILES = /^(GeezaPro|Al Nile|Baghdad|Arial|Arial Bold|Times New Roman|Tahoma)\.tt[cf]$/i;

/** At most this many system fonts (each costs a few milliseconds of drawing, once per OCR child). */
const MOST = 24;

/** The system's document fonts with Arabic, as file paths (none when they cannot be listed). */
function systemFontFiles(): string[] {
  try {
    if (process.platform === 'win32') {
      const folder = join(process.env.WINDIR ?? 'C:\\Windows', 'Fonts');
      const present = new Set(readdirSync(folder).map((f) => f.toLowerCase()));
      return WINDOWS_FILES.filter((f) => present.has(f)).map((f) => join(folder, f));
    }
    if (process.platform === 'darwin')
      return MAC_FOLDERS.flatMap((folder) => {
        try {
          return readdirSync(folder)
            .filter((f) => MAC_FILES.test(f))
            .map((f) => join(folder, f));
        } catch {
          return [];
        }
      });
    const listed = spawnSync('fc-list', [':lang=ar', 'family', 'style', 'file'], {
      encoding: 'utf8',
      timeout: 5000,
    });
    if (listed.status !== 0) return [];
    return listed.stdout
      .split('\n')
      .map((line) => /^(.+?): ([^:,]+)[^:]*:style=(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .filter(
        ([, , family, style]) =>
          DOCUMENT_FAMILIES.test(family!.trim()) && !/slanted|italic|oblique/i.test(style!),
      )
      .map(([, file]) => file!)
      .sort();
  } catch {
    return [];
  }
}

/** The shipped Naskh faces (npm @expo-google-fonts/noto-naskh-arabic). */
const shippedFiles = () =>
  ['400Regular/NotoNaskhArabic_400Regular.ttf', '700Bold/NotoNaskhArabic_700Bold.ttf']
    .map((file) => packagedFontFile('@expo-google-fonts/noto-naskh-arabic', file))
    .filter((path): path is string => path !== null);

/** A font file's font (the first face of a collection). */
function opened(fontkit: { create(bytes: Uint8Array): unknown }, bytes: Uint8Array): ShapingFont | null {
  const made = fontkit.create(bytes) as ShapingFont & { fonts?: ShapingFont[]; familyName?: string };
  const font = made.fonts ? made.fonts[0] : made;
  return font ?? null;
}

/**
 * The template fonts beyond the label fonts: shipped Naskh, then the system's, each face once (by its
 * PostScript name; `skip` names the faces already drawn), those `OCR_DIGIT_FONTS_EXCEPT` names left out,
 * only fonts that draw the Arabic-Indic digits.
 */
export async function digitTemplateFonts(skip: Iterable<string>): Promise<DigitFont[]> {
  const except = process.env.OCR_DIGIT_FONTS_EXCEPT
    ? new RegExp(process.env.OCR_DIGIT_FONTS_EXCEPT, 'i')
    : null;
  const { default: fontkit } = await import('@pdf-lib/fontkit');
  const out: DigitFont[] = [];
  const seen = new Set<string>(skip);
  for (const file of [...shippedFiles(), ...systemFontFiles().slice(0, MOST)]) {
    try {
      const font = opened(fontkit, new Uint8Array(await readFile(file)));
      if (!font || !font.hasGlyphForCodePoint(0x0662)) continue;
      const family = (font as ShapingFont & { familyName?: string }).familyName ?? file;
      const key = font.postscriptName ?? file;
      if (seen.has(key) || (except && except.test(family))) continue;
      seen.add(key);
      out.push({ family, font });
    } catch {
      // A font fontkit cannot read is left out.
    }
  }
  return out;
}
