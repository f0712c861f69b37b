/**
 * The codes Sijill prints on paper, and how a scanned batch is cut by them (issue 26).
 *
 * - A registration sticker carries a QR code `SIJILL:DOC:<number>` and a Code 128 of the number alone (so
 *   any reader shows the number a clerk would type).
 * - A cover sheet (put on top of a registered document's paper when it is scanned later) carries
 *   `SIJILL:COVER:<number>` in a QR code and in a Code 128.
 * - A separator sheet ("new document") carries `SIJILL:SEP` in a QR code and in a Code 128.
 *
 * Codes that are none of these (a barcode printed by the sender of a letter) are ignored; so is a Code 128
 * holding something that is not a registration number. Pure, so the station, the server and the tests read
 * codes the same way.
 */
import { parseRegistrationNumber } from './numbering';

const PREFIX = 'SIJILL:';

/**
 * The sizes a registration sticker is printed in: a label printer's 50×25 mm or 70×35 mm label, or one
 * label of an A4 sheet of 24 (3 × 8 labels of 70 × 37 mm) at a position from 1, counted left to right
 * and top to bottom as the sheets' makers number them (a sheet partly used is used up, not wasted).
 */
export const LABEL_SIZES = ['50x25', '70x35', 'a4-24'] as const;
export type LabelSize = (typeof LABEL_SIZES)[number];
/** Labels on an A4 sheet (`a4-24`). */
export const A4_SHEET_LABELS = 24;

/** The QR text of a registration sticker. */
export const stickerPayload = (number: string) => `${PREFIX}DOC:${number}`;
/** The QR and Code 128 text of a cover sheet. */
export const coverPayload = (number: string) => `${PREFIX}COVER:${number}`;
/** The QR and Code 128 text of a separator sheet. */
export const SEPARATOR_PAYLOAD = `${PREFIX}SEP`;

/** What one page is, by the codes read on it. */
export type PageMark =
  | { kind: 'separator' }
  | { kind: 'cover'; number: string }
  | { kind: 'sticker'; number: string }
  | { kind: 'none' };

/** One code read on a page: its symbology (`QRCode`, `Code128`, …) and its text. */
export interface ReadCode {
  format: string;
  text: string;
}

/** What a single code says, or null when it is not one of ours. */
export function markOfCode(code: ReadCode): PageMark | null {
  const text = code.text.trim();
  if (text === SEPARATOR_PAYLOAD) return { kind: 'separator' };
  const tagged = /^SIJILL:(DOC|COVER):(.+)$/.exec(text);
  if (tagged) {
    const number = tagged[2]!.trim();
    if (!parseRegistrationNumber(number)) return null;
    return { kind: tagged[1] === 'COVER' ? 'cover' : 'sticker', number };
  }
  // A sticker's Code 128 holds the bare number; any other symbology with a bare number is not ours.
  if (code.format === 'Code128' && parseRegistrationNumber(text)) return { kind: 'sticker', number: text };
  return null;
}

/**
 * What a page is, from all the codes read on it. A separator wins (a sheet that says "new document" is
 * dropped whatever else is on it); then a cover sheet; then a sticker. A page whose codes name two
 * different documents is `conflict`: the batch cannot be cut with certainty and is refused.
 */
export function markOfPage(codes: readonly ReadCode[]): PageMark | { kind: 'conflict'; numbers: string[] } {
  const marks = codes.map(markOfCode).filter((m): m is PageMark => m !== null);
  if (marks.some((m) => m.kind === 'separator')) return { kind: 'separator' };
  const numbered = marks.filter((m): m is Extract<PageMark, { number: string }> => 'number' in m);
  const numbers = [...new Set(numbered.map((m) => m.number))];
  if (numbers.length > 1) return { kind: 'conflict', numbers };
  return numbered.find((m) => m.kind === 'cover') ?? numbered[0] ?? { kind: 'none' };
}

/** One document cut out of a batch: its pages (from 1, in the batch's order) and the number it is filed on. */
export interface BatchPart {
  pages: number[];
  /** The registration number of the document this part is filed on; absent: a new incoming draft. */
  number?: string;
  /** What named the document: a cover sheet before the part, or a sticker on its first page. */
  by?: 'cover' | 'sticker';
}

/**
 * Cuts a batch into documents by its pages' marks (one per page, in order):
 * - a separator sheet ends the part before it and is dropped;
 * - a cover sheet ends the part before it, is dropped, and names the part after it;
 * - a sticker on a page ends the part before it (unless that part is already named by the same number,
 *   e.g. a cover sheet followed by the stickered letter) and names the part it starts;
 * - pages without a code go on the part they are in.
 * Parts without pages (two separators in a row, a separator at the end) are not made; a cover sheet with
 * no page after it is a part of its own — the cover page itself — so a document's paper is never lost
 * silently. Returns the parts in batch order; `conflicts` lists pages whose codes name two documents.
 */
export function cutBatch(marks: readonly (PageMark | { kind: 'conflict'; numbers: string[] })[]): {
  parts: BatchPart[];
  conflicts: number[];
} {
  const parts: BatchPart[] = [];
  const conflicts: number[] = [];
  let current: BatchPart | null = null;
  /** A cover sheet read, waiting for the first page of its part. */
  let pendingCover: { number: string; page: number } | null = null;
  const close = () => {
    if (current && current.pages.length > 0) parts.push(current);
    current = null;
  };
  marks.forEach((mark, index) => {
    const page = index + 1;
    switch (mark.kind) {
      case 'conflict':
        conflicts.push(page);
        return;
      case 'separator':
        if (pendingCover)
          parts.push({ pages: [pendingCover.page], number: pendingCover.number, by: 'cover' });
        pendingCover = null;
        close();
        return;
      case 'cover':
        if (pendingCover)
          parts.push({ pages: [pendingCover.page], number: pendingCover.number, by: 'cover' });
        close();
        pendingCover = { number: mark.number, page };
        return;
      case 'sticker': {
        if (pendingCover) {
          const sameDocument = pendingCover.number === mark.number;
          if (!sameDocument)
            parts.push({ pages: [pendingCover.page], number: pendingCover.number, by: 'cover' });
          current = sameDocument
            ? { pages: [page], number: mark.number, by: 'cover' }
            : { pages: [page], number: mark.number, by: 'sticker' };
          pendingCover = null;
          return;
        }
        const open = current as BatchPart | null;
        if (open && open.number === mark.number) {
          open.pages.push(page);
          return;
        }
        close();
        current = { pages: [page], number: mark.number, by: 'sticker' };
        return;
      }
      case 'none':
        if (pendingCover) {
          current = { pages: [page], number: pendingCover.number, by: 'cover' };
          pendingCover = null;
          return;
        }
        if (current) (current as BatchPart).pages.push(page);
        else current = { pages: [page] };
        return;
    }
  });
  if (pendingCover) {
    const cover = pendingCover as { number: string; page: number };
    parts.push({ pages: [cover.page], number: cover.number, by: 'cover' });
  }
  close();
  return { parts, conflicts };
}

/** Pages as runs of consecutive numbers, in order: [3, 4, 5, 8] → [[3, 5], [8, 8]]. */
export function pageRuns(pages: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const page of pages) {
    const last = runs.at(-1);
    if (last && page === last[1] + 1) last[1] = page;
    else runs.push([page, page]);
  }
  return runs;
}
