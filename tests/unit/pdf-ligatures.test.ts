/**
 * Ligature glyphs put back in order (src-shared/pdf-ligatures.ts) on text items as pdf.js gives them for a
 * line drawn glyph by glyph from left to right: each chunk's characters reversed, a glyph of several
 * letters with them. The glyph lists are what the page's operator list holds, in drawing order.
 */
import { describe, expect, it } from 'vitest';
import {
  glyphTexts,
  mayHoldLigatures,
  PDFJS_SHOW_TEXT,
  restoreLigatures,
} from '../../src-shared/pdf-ligatures';
import { loadPdfJs } from '../../src-server/pdfjs';

/** What pdf.js makes of glyphs drawn left to right in one right-to-left chunk: their text, reversed. */
const asPdfJsReads = (glyphs: string[]) => [...glyphs.join('')].reverse().join('');

/** السلام drawn left to right: meem, the lam-alef glyph (mapped to «لا»), seen, lam, alef. */
const SALAM = ['م', 'لا', 'س', 'ل', 'ا'];
/** الكتاب drawn left to right: no ligature; its article reads «ال» as a reversed lam-alef would. */
const KITAB = ['ب', 'ا', 'ت', 'ك', 'ل', 'ا'];
/** تعالى drawn left to right: the lam-ya glyph (mapped to «لى»), alef, ain, ta. */
const TAALA = ['لى', 'ا', 'ع', 'ت'];

const item = (str: string) => ({ str, transform: [12, 0, 0, 12, 0, 700], width: 10 });

describe('restoreLigatures', () => {
  it('turns a ligature glyph back in an item pdf.js reversed, and leaves the same letters drawn apart', () => {
    const items = [item(asPdfJsReads(SALAM)), item(asPdfJsReads(KITAB)), item(asPdfJsReads(TAALA))];
    expect(items.map((i) => i.str)).toEqual(['السالم', 'الكتاب', 'تعاىل']);
    const restored = restoreLigatures(items, [...SALAM, ...KITAB, ...TAALA]);
    expect(restored.map((i) => i.str)).toEqual(['السلام', 'الكتاب', 'تعالى']);
    // Only the order inside an item changes: positions and widths are the items' own.
    expect(restored[0]!.transform).toBe(items[0]!.transform);
  });

  it('reads a chunk of several words, with the spaces pdf.js put between them', () => {
    // «السلام عليكم» drawn left to right as one chunk: the second word first.
    const glyphs = ['م', 'ك', 'ي', 'ل', 'ع', ' ', ...SALAM];
    const [restored] = restoreLigatures([item(asPdfJsReads(glyphs))], glyphs);
    expect(restored!.str).toBe('السلام عليكم');
  });

  it('finds its place again past glyphs that made no item, and leaves items it cannot match', () => {
    // A glyph pdf.js left out of the text (drawn outside the page) and an item from no glyph it was told of.
    const glyphs = ['x', 'y', ...SALAM, ...TAALA];
    const items = [item(asPdfJsReads(SALAM)), item('غريب'), item(asPdfJsReads(TAALA))];
    expect(restoreLigatures(items, glyphs).map((i) => i.str)).toEqual(['السلام', 'غريب', 'تعالى']);
  });

  it('turns a ligature back in an item that mixes Arabic with a number or a Latin word', () => {
    // pdf.js keeps a number's digits and a Latin word's letters in their order inside a reversed chunk.
    const glyphs = ['1', '2', ' ', ...SALAM];
    expect(restoreLigatures([item('السالم 12')], glyphs)[0]!.str).toBe('السلام 12');
    const latin = ['I', 'T', ' ', ...TAALA, ' ', ...SALAM];
    expect(restoreLigatures([item('السالم تعاىل IT')], latin)[0]!.str).toBe('السلام تعالى IT');
  });

  it('leaves an item whose right-to-left letters are not the glyphs backwards', () => {
    // Two Arabic runs in a chunk pdf.js read as left-to-right: each reversed on its own, not the whole.
    const glyphs = [...SALAM, ' ', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', ' ', ...TAALA];
    const str = `السالم ${'abcdefghij'} تعاىل`;
    expect(restoreLigatures([item(str)], glyphs)[0]!.str).toBe(str);
  });

  it('leaves a ligature its producer mapped in visual order, which pdf.js reversal reads right', () => {
    // The lam-alef glyph mapped to «ال» (alef never joins the letter after it, so this is visual order).
    const glyphs = ['م', 'ال', 'س', 'ل', 'ا'];
    expect(restoreLigatures([item(asPdfJsReads(glyphs))], glyphs)[0]!.str).toBe('السلام');
    // The word الله as one glyph is in reading order, though it starts with an alef.
    const allah = ['الله', ' ', 'د', 'م', 'ح', 'ل', 'ا'];
    expect(restoreLigatures([item(asPdfJsReads(allah))], allah)[0]!.str).toBe('الحمد الله');
  });

  it('does nothing on a page without ligature glyphs', () => {
    const items = [item(asPdfJsReads(KITAB))];
    expect(restoreLigatures(items, KITAB)).toEqual(items);
  });

  it('reads only pages whose items may hold one', () => {
    expect(mayHoldLigatures([item('The letter'), item('1')])).toBe(false);
    expect(mayHoldLigatures([item('ﻢ'), item('ا')])).toBe(false);
    expect(mayHoldLigatures([item('ال')])).toBe(true);
  });
});

describe('glyphTexts', () => {
  it("reads the glyphs' text from an operator list's showText operations, in order", async () => {
    const { lib } = await loadPdfJs();
    expect(PDFJS_SHOW_TEXT).toBe(lib.OPS.showText);
    const list = {
      fnArray: [lib.OPS.beginText, lib.OPS.showText, lib.OPS.moveText, lib.OPS.showText],
      argsArray: [
        null,
        [[{ unicode: 'م' }, -120, { unicode: 'لا' }]],
        [0, -12],
        [[{ unicode: 'س' }, { unicode: '' }, null]],
      ],
    };
    expect(glyphTexts(list, lib.OPS.showText)).toEqual(['م', 'لا', 'س', '']);
  });
});
