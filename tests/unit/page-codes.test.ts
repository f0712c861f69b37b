/**
 * Reading the codes on scanned pages (issue 26): readPageCodes reads every page of a PDF in the codes
 * child (codesService, its own process at a mild priority), and a generated batch of 30 scanned pages —
 * separator sheets, stand-in stickers on letters turned by each quarter turn and skewed −5…+5°, speckled and
 * blurred, plain letters — is cut into exactly the documents it was made of.
 */
import { fork, type Serializable } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ChildRequestError,
  codesService,
  ocrChildEntry,
  ocrService,
  readPageCodes,
  setOcrLauncher,
  utilityProcessOcrLauncher,
  type UtilityProcessFork,
  type UtilityProcessLike,
} from '../../src-server/modules/search/ocr-process';
import { CODES_CHILD_NICE } from '../../src-server/modules/search/ocr-protocol';
import { coverSheetPdf, separatorSheetPdf, stickerPdf } from '../../src-server/modules/labels';
import { closeOcr } from '../../src-server/modules/search/extract';
import { cutBatch, markOfPage, type BatchPart } from '../../src-shared/paper-codes';
import {
  makeLetterPage,
  makeSeparatorSheet,
  makeStandInSticker,
  placeSticker,
  scanPage,
  seededRandom,
  wrapScans,
} from '../support/scan-makers';

const ROTATIONS = [0, 90, 180, 270] as const;
const SKEWS = [-5, -2.5, 0, 2.5, 5];
const numberOf = (i: number) => `IN-2026-${String(101 + i).padStart(6, '0')}`;

/**
 * The batch, page by page: `sep`, `plain`, or the index of a sticker variant (20 of them: every rotation
 * with every skew, both sticker sizes, anywhere on the page).
 */
const LAYOUT: ('sep' | 'plain' | number)[] = [
  'sep',
  0,
  'plain',
  1,
  2,
  'plain',
  'plain',
  'sep',
  'plain',
  'plain',
  3,
  4,
  5,
  'sep',
  'sep',
  6,
  'plain',
  7,
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
  16,
  17,
  18,
  19,
];
/** What the batch must be cut into. */
const EXPECTED: BatchPart[] = [
  { pages: [2, 3], number: numberOf(0), by: 'sticker' },
  { pages: [4], number: numberOf(1), by: 'sticker' },
  { pages: [5, 6, 7], number: numberOf(2), by: 'sticker' },
  { pages: [9, 10] },
  { pages: [11], number: numberOf(3), by: 'sticker' },
  { pages: [12], number: numberOf(4), by: 'sticker' },
  { pages: [13], number: numberOf(5), by: 'sticker' },
  { pages: [16, 17], number: numberOf(6), by: 'sticker' },
  ...Array.from({ length: 13 }, (_, k) => ({
    pages: [18 + k],
    number: numberOf(7 + k),
    by: 'sticker' as const,
  })),
];

let dir: string;
let batch: string;
/** A one-page file: a separator sheet as printed. */
let separatorFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(os.tmpdir(), 'sijill-codes-'));
  const separator = await makeSeparatorSheet();
  separatorFile = join(dir, 'separator.pdf');
  writeFileSync(separatorFile, separator);
  const random = seededRandom(26);
  const scans = [];
  for (const [index, kind] of LAYOUT.entries()) {
    const seed = 1000 + index;
    const letter = await makeLetterPage(seed);
    const noise = { noise: 0.02 + random() * 0.03, blur: 0.5 + random() * 0.5, seed };
    if (kind === 'sep') scans.push(await scanPage(separator, { ...noise, skew: random() * 4 - 2 }));
    else if (kind === 'plain') scans.push(await scanPage(letter, { ...noise, skew: random() * 4 - 2 }));
    else {
      const size = (kind + Math.floor(kind / 4)) % 2 === 0 ? '50x25' : '70x35';
      const sticker = await makeStandInSticker(numberOf(kind), size);
      const page = await placeSticker(letter, sticker, { x: 5 + random() * 130, y: 5 + random() * 250 });
      scans.push(
        await scanPage(page, { ...noise, rotate: ROTATIONS[kind % 4], skew: SKEWS[Math.floor(kind / 4)] }),
      );
    }
  }
  batch = join(dir, 'batch.pdf');
  writeFileSync(batch, await wrapScans(scans));
}, 180_000);

afterAll(async () => {
  await closeOcr();
  rmSync(dir, { recursive: true, force: true });
});

describe('readPageCodes', () => {
  it('reads every page of a scanned batch, which is cut into the documents it was made of', async () => {
    const { pages, timings } = await readPageCodes(batch);
    expect(pages).toHaveLength(LAYOUT.length);
    // Every sticker variant (four rotations × five skews, two sizes) gives its number.
    const stickers = LAYOUT.flatMap((kind, index) =>
      typeof kind === 'number' ? [{ kind, mark: markOfPage(pages[index]!) }] : [],
    );
    expect(stickers).toEqual(
      stickers.map(({ kind }) => ({ kind, mark: { kind: 'sticker', number: numberOf(kind) } })),
    );
    // A page without codes gives none.
    LAYOUT.forEach((kind, index) => {
      if (kind === 'plain') expect(pages[index], `page ${index + 1}`).toEqual([]);
      if (kind === 'sep')
        expect(markOfPage(pages[index]!), `page ${index + 1}`).toEqual({ kind: 'separator' });
    });
    expect(cutBatch(pages.map(markOfPage))).toEqual({ parts: EXPECTED, conflicts: [] });
    expect(timings).toHaveLength(LAYOUT.length);
  }, 180_000);

  it('reads the labels module’s stickers, cover and separator sheets, scanned turned and skewed', async () => {
    const document = {
      number: 'OUT-2026-000042',
      registeredAt: '2026-11-27T10:00:00Z',
      direction: 'out' as const,
      entity: { ar: 'وزارة الأشغال العامة', en: 'Ministry of Public Works' },
      subject: 'Annual maintenance plan',
    };
    const random = seededRandom(42);
    const scans = [];
    for (const size of ['50x25', '70x35'] as const)
      for (const [k, rotate] of ROTATIONS.entries()) {
        const sticker = await stickerPdf(document, { size });
        const page = await placeSticker(await makeLetterPage(500 + k), sticker, {
          x: 5 + random() * 130,
          y: 5 + random() * 250,
        });
        scans.push(await scanPage(page, { rotate, skew: k % 2 ? 5 : -5, noise: 0.03, blur: 0.7, seed: k }));
      }
    scans.push(
      await scanPage(await coverSheetPdf(document), { rotate: 180, skew: 2, noise: 0.03, blur: 0.7 }),
    );
    scans.push(await scanPage(await separatorSheetPdf(), { rotate: 90, skew: -3, noise: 0.03, blur: 0.7 }));
    const file = join(dir, 'labels.pdf');
    writeFileSync(file, await wrapScans(scans));
    const { pages } = await readPageCodes(file);
    expect(pages.map(markOfPage)).toEqual([
      ...Array.from({ length: 8 }, () => ({ kind: 'sticker', number: document.number })),
      { kind: 'cover', number: document.number },
      { kind: 'separator' },
    ]);
  }, 120_000);

  it('reads in its own child at a mild priority, apart from the OCR child', async () => {
    await readPageCodes(separatorFile);
    const pid = codesService.childPid;
    expect(pid).toBeTypeOf('number');
    expect(pid).not.toBe(ocrService.childPid);
    if (process.platform === 'linux') expect(os.getPriority(pid)).toBe(CODES_CHILD_NICE);
  }, 120_000);

  it('runs the codes child through a utility-process launcher, with its own name and priority', async () => {
    // Electron's utilityProcess.fork stand-in (as in extract.test.ts): child_process.fork with its shape.
    const started: { args: string[]; serviceName: string; pid?: number }[] = [];
    const forkUtility: UtilityProcessFork = (modulePath, args, options) => {
      const child = fork(modulePath, args, {
        execArgv: ocrChildEntry().execArgv,
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      started.push({ args, serviceName: options.serviceName, pid: child.pid });
      const utility = {
        get pid() {
          return child.pid;
        },
        stderr: child.stderr,
        postMessage: (message: unknown) => void child.send(message as Serializable),
        kill: () => child.kill('SIGKILL'),
        on(event: string, listener: (value?: unknown) => void) {
          if (event === 'exit') child.on('exit', (code) => listener(code ?? -1));
          else child.on(event, listener);
          return utility;
        },
      };
      return utility as UtilityProcessLike;
    };
    await closeOcr();
    setOcrLauncher(utilityProcessOcrLauncher(forkUtility));
    try {
      const { pages } = await readPageCodes(separatorFile);
      expect(pages.map(markOfPage)).toEqual([{ kind: 'separator' }]);
      expect(started).toEqual([
        { args: [`--nice=${CODES_CHILD_NICE}`], serviceName: 'Sijill codes', pid: codesService.childPid },
      ]);
      if (process.platform === 'linux') expect(os.getPriority(started[0]!.pid)).toBe(CODES_CHILD_NICE);
    } finally {
      await closeOcr();
      setOcrLauncher(null);
    }
  }, 60_000);

  it('fails a damaged or missing file with a clear kind', async () => {
    const damaged = join(dir, 'damaged.pdf');
    writeFileSync(damaged, 'this is not a PDF at all, only some text that pretends to be one');
    const failure = await readPageCodes(damaged).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChildRequestError);
    expect((failure as ChildRequestError).kind).toBe('invalid');
    const missing = await readPageCodes(join(dir, 'missing.pdf')).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ChildRequestError);
    expect((missing as ChildRequestError).kind).toBe('unreadable');
  }, 60_000);

  it('gives up when aborted', async () => {
    const controller = new AbortController();
    const reading = readPageCodes(batch, { signal: controller.signal });
    controller.abort(new Error('the upload was cancelled'));
    await expect(reading).rejects.toThrow('the upload was cancelled');
  }, 60_000);
});
