/**
 * A 30-page scanned batch made from Sijill's own paper (issue 26): letters, the real registration stickers
 * of three documents stuck on some of them (both label sizes, anywhere on the page), their cover sheets and
 * separator sheets, each page scanned as a scanning station would (200 dpi grey, turned by quarter turns,
 * skewed a few degrees, speckled and blurred a little). Answers the PDF and the documents it must come out
 * as: each part's pages in the batch's order and the number it is filed on (null: a new incoming draft).
 */
import {
  coverSheetPdf,
  separatorSheetPdf,
  stickerPdf,
  type LabelDocument,
} from '../../src-server/modules/labels';
import { makeLetterPage, placeSticker, scanPage, wrapScans, type ScanOptions } from './scan-makers';

export interface ExpectedPart {
  pages: number[];
  number: string | null;
}

type Sheet =
  | { kind: 'letter' }
  | { kind: 'separator' }
  | { kind: 'cover'; doc: number }
  | { kind: 'sticker'; doc: number; size: '50x25' | '70x35'; at: { x: number; y: number } };

/** The batch, page by page: what is on the page and how it went through the scanner. */
const PAGES: [Sheet, ScanOptions][] = [
  [{ kind: 'letter' }, {}],
  [{ kind: 'letter' }, { skew: 1 }],
  [{ kind: 'separator' }, { skew: -2 }],
  [
    { kind: 'cover', doc: 0 },
    { rotate: 180, skew: 2 },
  ],
  [{ kind: 'letter' }, {}],
  [{ kind: 'letter' }, { rotate: 180 }],
  [{ kind: 'letter' }, {}],
  [
    { kind: 'sticker', doc: 1, size: '70x35', at: { x: 120, y: 15 } },
    { rotate: 90, skew: -3 },
  ],
  [{ kind: 'letter' }, { rotate: 90 }],
  [{ kind: 'letter' }, {}],
  [{ kind: 'separator' }, { rotate: 270, skew: 1 }],
  [{ kind: 'letter' }, {}],
  [{ kind: 'letter' }, { skew: -1 }],
  [{ kind: 'sticker', doc: 2, size: '50x25', at: { x: 15, y: 255 } }, { skew: 4 }],
  [{ kind: 'letter' }, {}],
  [{ kind: 'cover', doc: 0 }, { skew: -3 }],
  [{ kind: 'letter' }, {}],
  [{ kind: 'letter' }, {}],
  [{ kind: 'separator' }, { rotate: 180 }],
  [
    { kind: 'sticker', doc: 1, size: '50x25', at: { x: 80, y: 140 } },
    { rotate: 180, skew: -2 },
  ],
  [{ kind: 'letter' }, {}],
  [{ kind: 'letter' }, { skew: 2 }],
  [{ kind: 'separator' }, { skew: -4 }],
  [{ kind: 'letter' }, {}],
  [{ kind: 'letter' }, { rotate: 270 }],
  [{ kind: 'letter' }, {}],
  [{ kind: 'letter' }, {}],
  [
    { kind: 'cover', doc: 2 },
    { rotate: 90, skew: 3 },
  ],
  [{ kind: 'letter' }, {}],
  [{ kind: 'letter' }, { skew: -1 }],
];

/** What the batch must come out as, with documents 0, 1, 2 of the batch named by their numbers. */
function expectedParts(numbers: readonly string[]): ExpectedPart[] {
  return [
    { pages: [1, 2], number: null },
    { pages: [5, 6, 7], number: numbers[0]! },
    { pages: [8, 9, 10], number: numbers[1]! },
    { pages: [12, 13], number: null },
    { pages: [14, 15], number: numbers[2]! },
    { pages: [17, 18], number: numbers[0]! },
    { pages: [20, 21, 22], number: numbers[1]! },
    { pages: [24, 25, 26, 27], number: null },
    { pages: [29, 30], number: numbers[2]! },
  ];
}

/**
 * Makes the batch for three documents (their sticker facts); `seed` makes its letters and noise differ
 * from another batch's, so two batches never share a page's content.
 */
export async function scannedBatch(
  documents: readonly [LabelDocument, LabelDocument, LabelDocument],
  seed = 1,
): Promise<{ bytes: Uint8Array; expected: ExpectedPart[]; pages: number }> {
  const separator = await separatorSheetPdf();
  const covers = await Promise.all(documents.map((d) => coverSheetPdf(d)));
  const scans = [];
  for (const [index, [sheet, scan]] of PAGES.entries()) {
    const letter = () => makeLetterPage(seed * 1000 + index);
    let page: Uint8Array;
    if (sheet.kind === 'letter') page = await letter();
    else if (sheet.kind === 'separator') page = separator;
    else if (sheet.kind === 'cover') page = covers[sheet.doc]!;
    else
      page = await placeSticker(
        await letter(),
        await stickerPdf(documents[sheet.doc]!, { size: sheet.size }),
        sheet.at,
      );
    scans.push(await scanPage(page, { noise: 0.003, blur: 0.5, seed: seed * 1000 + index, ...scan }));
  }
  return {
    bytes: await wrapScans(scans),
    expected: expectedParts(documents.map((d) => d.number)),
    pages: PAGES.length,
  };
}

/** The sticker facts of three registered letters (numbers from the server), as a batch's documents. */
export function labelFacts(
  letters: readonly { docNumber: string }[],
): [LabelDocument, LabelDocument, LabelDocument] {
  const facts = letters.map((l): LabelDocument => ({
    number: l.docNumber,
    registeredAt: new Date().toISOString(),
    direction: 'in',
    entity: { ar: 'الأرشيف', en: 'Archive' },
  }));
  if (facts.length !== 3) throw new Error('a batch is made for three documents');
  return facts as [LabelDocument, LabelDocument, LabelDocument];
}
