/**
 * Find in the PDF viewer (src-renderer/components/pdf/find.ts) over a letter Chromium printed, read by
 * pdf.js as the viewer reads it: every word of the letter, typed as written, without its diacritics, and
 * with its hamza, ta marbuta and alef maqsura typed the other way, is found as many times as the letter
 * holds it, and each match covers the glyphs of that word and nothing else — though Chromium stores
 * Arabic glyph by glyph from left to right, in presentation forms, with letters of neighbouring words
 * joined in one text item. Needs Debian's Chromium; skipped (saying so) without it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { normalizeArabic } from '../../src-shared/arabic';
import { headlessFinder } from './support/page-finder';
import { loadPdfJs } from '../../src-server/pdfjs';
import { canMakePdfs, makeBornDigitalPdf } from '../support/pdf-makers';

const LETTER = [
  'أعلنت الإدارة العامة للشؤون المالية عن مسؤولية المستشفى',
  'مُحَمَّدٌ يُدِيرُ الاجتماعَ في القاعة الكبرى لا سيما',
  'تمت إحالة الكتاب رقم 125 إلى قسم IT بتاريخ 2024/05/01 للإجراء',
  'The archive keeps incoming and outgoing mail',
];

/** The word typed the other way: no diacritics, أإآ → ا, ة → ه, ى → ي, ؤ → ئ. */
const typedOtherwise = (word: string) =>
  word
    .replace(/[\u064b-\u065f]/g, '')
    .replace(/[أإآ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي')
    .replace(/ؤ/g, 'ئ');

/** A text's letters, whatever their form, order and marks. */
const letters = (text: string) =>
  [
    ...text
      .normalize('NFKC')
      .replace(/[\s\p{Cc}\p{Mn}]/gu, '')
      .toLowerCase(),
  ]
    .sort()
    .join('');

const occurrences = (text: string, word: string) => text.split(word).length - 1;

if (!canMakePdfs())
  console.warn('pdf-find.test.ts: skipped, no Chromium at /usr/bin/chromium (CHROMIUM_PATH)');

describe.skipIf(!canMakePdfs())('find in the viewer', { timeout: 180_000 }, () => {
  let dir: string;
  let doc: PDFDocumentProxy;
  let strings: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sijill-find-'));
    const pdf = await makeBornDigitalPdf(LETTER, dir, { name: 'letter' });
    const { lib, root } = await loadPdfJs();
    doc = (await lib.getDocument({
      url: pathToFileURL(pdf).href,
      standardFontDataUrl: `${root}/standard_fonts/`,
      verbosity: 0,
    }).promise) as unknown as PDFDocumentProxy;
    // The text layer's strings joined, as pdf.js's highlighter counts offsets into them.
    const content = await (await doc.getPage(1)).getTextContent({ disableNormalization: true });
    strings = content.items.map((item) => ('str' in item ? item.str : '')).join('');
  }, 180_000);

  afterAll(async () => {
    await doc?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A finder over the document, as the viewer makes it (the highlighter's side is not needed here). */
  const finder = () => headlessFinder(doc);

  const words = [...new Set(LETTER.join(' ').split(/\s+/))];
  const written = normalizeArabic(LETTER.join(' '));

  it('finds every word of the letter, typed as written and typed otherwise, on the glyphs it was drawn with', async () => {
    const { f, counts, redrawn } = finder();
    for (const word of words)
      for (const query of new Set([word, typedOtherwise(word)])) {
        await f.find(query);
        const expected = occurrences(written, normalizeArabic(word));
        expect(counts.at(-1), query).toEqual({ current: 1, total: expected });
        const matches = f.matchesOn(0);
        expect(matches, query).toHaveLength(expected);
        for (const fragments of matches) {
          const covered = fragments
            .map((k) =>
              strings.slice(f.pageMatches[0]![k]!, f.pageMatches[0]![k]! + f.pageMatchesLength[0]![k]!),
            )
            .join('');
          // A word inside a longer one (في in القاعة…) covers its own letters only.
          expect(letters(normalizeArabic(covered)), `${query}: ${covered}`).toBe(
            letters(normalizeArabic(word)),
          );
        }
        // The highlighter walks the fragments in order, never back.
        const starts = f.pageMatches[0]!;
        for (let k = 1; k < starts.length; k += 1)
          expect(starts[k]!).toBeGreaterThanOrEqual(starts[k - 1]! + f.pageMatchesLength[0]![k - 1]!);
        expect(redrawn).toContain(0);
      }
  });

  it('steps through matches in reading order, wraps, and forgets a search that is cleared', async () => {
    const { f, counts } = finder();
    await f.find('ال');
    const total = occurrences(written, 'ال');
    expect(counts.at(-1)).toEqual({ current: 1, total });
    for (let k = 2; k <= total; k += 1) {
      f.step();
      expect(counts.at(-1)).toEqual({ current: k, total });
    }
    f.step();
    expect(counts.at(-1)).toEqual({ current: 1, total });
    f.step(true);
    expect(counts.at(-1)).toEqual({ current: total, total });
    // Reading order: the first match is in the first word that holds ال (الإدارة), not the leftmost glyphs.
    f.step();
    const first = f.matchesOn(0)[0]!.map((k) => f.pageMatches[0]![k]!);
    expect(first).toContain(f.pageMatches[0]![f.selected.matchIdx]);
    await f.find('');
    expect(counts.at(-1)).toBeNull();
    expect(f.highlightMatches).toBe(false);
  });
});
