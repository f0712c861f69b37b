/**
 * Born-digital Arabic with ligatures and without space glyphs, read as the server reads attachments
 * (extractPdfText: pdf.js in the OCR child, src-shared/pdf-ligatures.ts, src-shared/text-layout.ts) and
 * as the viewer's find reads a page, from PDFs Chromium prints here in fonts whose glyphs join letters:
 * Noto Kufi Arabic draws lam-alef as one glyph mapped to «لا», KacstOne lam-meem «لم», Noto Naskh Arabic
 * «لله», Noto Sans Arabic lam-ya «لى»; pdf.js reverses those letters with the rest of the line, so before
 * the fix السلام read السالم, لمجلس ملجلس and تعالى تعاىل (pdftotext reads them so too). A line in
 * presentation forms (as pdf.js's own ArabicCIDTrueType.pdf holds it: `اﳋﻄﻮط`) was expanded by pdf.js's
 * normalisation before it was reversed (اخلطوط). Lines set word by word with no space glyph (a flex row
 * with a 0.15 em gap) and with narrow spaces (negative word spacing) must keep their spaces, and
 * neighbouring words must not be joined.
 *
 * Needs Debian's Chromium and the fonts of fonts-noto-core and fonts-kacst-one; skipped (saying so)
 * without Chromium, failing (naming the package) without a font.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { normalizeArabic } from '../../src-shared/arabic';
import { indexText, queryTerms, wordsOf } from '../../src-shared/search';
import { closeOcr, extractPdfText } from '../../src-server/modules/search/extract';
import { loadPdfJs } from '../../src-server/pdfjs';
import { headlessFinder } from './support/page-finder';
import { canMakePdfs, makeHtmlPdf } from '../support/pdf-makers';

/** A guard against a hang (Chromium and pdf.js on two shared cores), never a speed limit. */
const SLOW = 10 * 60_000;

/** Fonts whose ligature glyphs map to several letters, with the Debian package that brings each. */
const FONTS = [
  { family: 'Noto Kufi Arabic', debian: 'fonts-noto-core' },
  { family: 'KacstOne', debian: 'fonts-kacst-one' },
  { family: 'Noto Naskh Arabic', debian: 'fonts-noto-core' },
  { family: 'Noto Sans Arabic', debian: 'fonts-noto-core' },
];

/** Lines of a letter, set as paragraphs. */
const PARAGRAPHS = [
  'السلام عليكم ورحمة الله وبركاته',
  'الاجتماع المقبل لمجلس الإدارة للاطلاع على الملاحظات اللازمة',
  'نشكركم على التعاون المثمر والحمد لله تعالى',
  'لأن الإجراء لإتمام المعاملة رقم 125 لعام 2024 في قسم IT',
];
/** A line set word by word, each word a box of its own 0.15 em from the next: no space glyph at all. */
const WORD_BY_WORD = 'تمت الموافقة على طلب الإجازة السنوية للموظف';
/** A line with its spaces narrowed by 0.12 em, to 0.15–0.25 em (Noto Naskh Arabic: 0.17 em). */
const NARROW_SPACES = 'يرجى الاطلاع والتوجيه بما ترونه مناسبا';

const page = (family: string) => `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8">
<style>body { font-family: '${family}'; font-size: 20px; margin: 0; } p, div { margin: 0 0 0.6em; }
.words { display: flex; gap: 0.15em; } .narrow { word-spacing: -0.12em; }</style></head><body>
${PARAGRAPHS.map((line) => `<p>${line}</p>`).join('\n')}
<div class="words">${WORD_BY_WORD.split(' ')
  .map((word) => `<span>${word}</span>`)
  .join('')}</div>
<p class="narrow">${NARROW_SPACES}</p>
</body></html>`;

const EXPECTED = [...PARAGRAPHS, WORD_BY_WORD, NARROW_SPACES];

/** pdf.js's own ArabicCIDTrueType.pdf's line as its content holds it: presentation forms, one a ligature. */
const PRESENTATION_FORMS = 'اﻧﻮاع اﳋﻄﻮط اﻟﻌﺮﺑﻴﺔ';
const PRESENTATION_FORMS_READ = 'انواع الخطوط العربية';

/** Whether fontconfig has the family itself (not a fallback for it). */
function hasFont(family: string): boolean {
  try {
    return execFileSync('fc-list', [`:family=${family}`, 'family'], { encoding: 'utf8' }).trim().length > 0;
  } catch {
    return false;
  }
}

/**
 * Whether every word of `query`, as search reads it, is among the lexemes the index holds for `text` (a
 * common word that search does not look for, such as في, counts as found).
 */
function found(text: string, query: string): boolean {
  const lexemes = new Set(indexText(text).split(' '));
  return queryTerms(query).every((group) => group.some((lexeme) => lexemes.has(lexeme)));
}

const wordList = (text: string) => wordsOf(normalizeArabic(text)).map((w) => w.word);

if (!canMakePdfs())
  console.warn('extract-ligatures.test.ts: skipped, no Chromium at /usr/bin/chromium (CHROMIUM_PATH)');

describe.skipIf(!canMakePdfs())('born-digital Arabic with ligatures', { timeout: SLOW }, () => {
  let dir: string;
  const pdfs = new Map<string, string>();
  let forms: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sijill-ligatures-'));
    for (const { family, debian } of FONTS)
      if (!hasFont(family)) throw new Error(`font ${family} is missing: apt-get install ${debian}`);
    for (const { family } of FONTS)
      pdfs.set(family, await makeHtmlPdf(page(family), dir, family.replace(/\s+/g, '-')));
    forms = await makeHtmlPdf(
      `<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><style>
body { font-family: 'Noto Naskh Arabic'; font-size: 36px; margin: 0; }</style></head><body>
<p>${PRESENTATION_FORMS}</p></body></html>`,
      dir,
      'presentation-forms',
    );
  }, SLOW);

  afterAll(async () => {
    await closeOcr();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const { family } of FONTS)
    it(`reads every line of a letter in ${family} as written, and finds each of its words`, async () => {
      const pages = await extractPdfText(pdfs.get(family)!, { ocr: false });
      expect(pages).toHaveLength(1);
      expect(pages[0]!.method).toBe('text');
      const text = pages[0]!.text;
      // Line by line, as search compares them (KacstOne draws Latin digits as Arabic-Indic ones).
      expect(text.split('\n').map(normalizeArabic)).toEqual(EXPECTED.map(normalizeArabic));
      // Every word is found as typed, and no two neighbours are read as one word.
      for (const line of EXPECTED)
        for (const word of line.split(' ')) expect(found(text, word), `«${word}» in ${family}`).toBe(true);
      expect(wordList(text)).toEqual(EXPECTED.flatMap(wordList));
    });

  it('reads a presentation-form ligature in its order, not expanded and reversed', async () => {
    const pages = await extractPdfText(forms, { ocr: false });
    expect(pages[0]!.text).toBe(PRESENTATION_FORMS_READ);
    expect(found(pages[0]!.text, 'الخطوط')).toBe(true);
  });

  it("finds the ligatures' words in the viewer too", async () => {
    const { lib, root } = await loadPdfJs();
    for (const { family } of FONTS) {
      const doc = (await lib.getDocument({
        url: pathToFileURL(pdfs.get(family)!).href,
        standardFontDataUrl: `${root}/standard_fonts/`,
        cMapUrl: `${root}/cmaps/`,
        wasmUrl: `${root}/wasm/`,
        verbosity: 0,
      }).promise) as unknown as PDFDocumentProxy;
      const { f: finder, counts } = headlessFinder(doc);
      for (const word of ['السلام', 'لمجلس', 'للاطلاع', 'تعالى', 'الإجازة', 'الاطلاع']) {
        await finder.find(word);
        expect(counts.at(-1), `«${word}» in ${family}`).toEqual({ current: 1, total: 1 });
      }
      finder.setDocument(null);
      await doc.destroy();
    }
  });
});
