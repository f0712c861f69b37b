import { describe, expect, it } from 'vitest';
import {
  SEPARATOR_PAYLOAD,
  coverPayload,
  cutBatch,
  markOfCode,
  markOfPage,
  stickerPayload,
  type PageMark,
} from '../../src-shared/paper-codes';

const N1 = 'IN-2026-000123';
const N2 = 'OUT-2026-000007';
const sep: PageMark = { kind: 'separator' };
const none: PageMark = { kind: 'none' };
const cover = (number: string): PageMark => ({ kind: 'cover', number });
const sticker = (number: string): PageMark => ({ kind: 'sticker', number });

describe('markOfCode', () => {
  it('reads our payloads and ignores everything else', () => {
    expect(markOfCode({ format: 'QRCode', text: SEPARATOR_PAYLOAD })).toEqual(sep);
    expect(markOfCode({ format: 'QRCode', text: stickerPayload(N1) })).toEqual(sticker(N1));
    expect(markOfCode({ format: 'Code128', text: coverPayload(N2) })).toEqual(cover(N2));
    // A sticker's Code 128 is the bare number.
    expect(markOfCode({ format: 'Code128', text: N1 })).toEqual(sticker(N1));
    // A bare number in a QR code, a sender's barcode, a payload with no valid number: not ours.
    expect(markOfCode({ format: 'QRCode', text: N1 })).toBeNull();
    expect(markOfCode({ format: 'Code128', text: '4006381333931' })).toBeNull();
    expect(markOfCode({ format: 'QRCode', text: 'SIJILL:DOC:nothing' })).toBeNull();
    expect(markOfCode({ format: 'QRCode', text: 'https://example.com/SIJILL:SEP' })).toBeNull();
  });
});

describe('markOfPage', () => {
  it('a separator wins, then a cover, then a sticker; two documents on one page are a conflict', () => {
    expect(
      markOfPage([
        { format: 'QRCode', text: stickerPayload(N1) },
        { format: 'QRCode', text: SEPARATOR_PAYLOAD },
      ]),
    ).toEqual(sep);
    expect(
      markOfPage([
        { format: 'Code128', text: N1 },
        { format: 'QRCode', text: coverPayload(N1) },
      ]),
    ).toEqual(cover(N1));
    expect(
      markOfPage([
        { format: 'QRCode', text: stickerPayload(N1) },
        { format: 'Code128', text: N1 },
      ]),
    ).toEqual(sticker(N1));
    expect(
      markOfPage([
        { format: 'QRCode', text: stickerPayload(N1) },
        { format: 'Code128', text: N2 },
      ]),
    ).toEqual({ kind: 'conflict', numbers: [N1, N2] });
    expect(markOfPage([])).toEqual(none);
  });
});

describe('cutBatch', () => {
  it('a batch without codes is one part, every page in order', () => {
    expect(cutBatch([none, none, none])).toEqual({ parts: [{ pages: [1, 2, 3] }], conflicts: [] });
  });

  it('splits at separators, drops them, and makes no empty parts', () => {
    expect(cutBatch([sep, none, none, sep, sep, none, sep])).toEqual({
      parts: [{ pages: [2, 3] }, { pages: [6] }],
      conflicts: [],
    });
  });

  it('a cover sheet names the pages after it and is dropped; a stickered first page after it of the same document stays in', () => {
    expect(cutBatch([none, cover(N1), none, none, cover(N2), sticker(N2), none])).toEqual({
      parts: [
        { pages: [1] },
        { pages: [3, 4], number: N1, by: 'cover' },
        { pages: [6, 7], number: N2, by: 'cover' },
      ],
      conflicts: [],
    });
  });

  it('a sticker starts a part named by it; the same sticker again stays in that part', () => {
    expect(cutBatch([sticker(N1), none, sticker(N1), sticker(N2), none, sep, none])).toEqual({
      parts: [
        { pages: [1, 2, 3], number: N1, by: 'sticker' },
        { pages: [4, 5], number: N2, by: 'sticker' },
        { pages: [7] },
      ],
      conflicts: [],
    });
  });

  it('a cover sheet followed by another document is kept as a part of its own, never lost', () => {
    expect(cutBatch([cover(N1), sticker(N2), sep, cover(N2)])).toEqual({
      parts: [
        { pages: [1], number: N1, by: 'cover' },
        { pages: [2], number: N2, by: 'sticker' },
        { pages: [4], number: N2, by: 'cover' },
      ],
      conflicts: [],
    });
  });

  it('reports pages whose codes name two documents', () => {
    expect(cutBatch([none, { kind: 'conflict', numbers: [N1, N2] }, none]).conflicts).toEqual([2]);
  });

  it('every page not a sheet of ours ends up in exactly one part, in order', () => {
    const kinds = [none, sep, sticker(N1), none, cover(N2), none, sticker(N2), sep, none, cover(N1)];
    const { parts } = cutBatch(kinds);
    const kept = parts.flatMap((p) => p.pages);
    const expected = kinds
      .map((k, i) => ({ k, page: i + 1 }))
      .filter(({ k, page }) => k.kind !== 'separator' && !(k.kind === 'cover' && page !== 10))
      .map(({ page }) => page);
    expect(kept).toEqual(expected);
  });
});
