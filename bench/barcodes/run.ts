/**
 * Reading codes on scanned pages (issue 26): `npx tsx bench/barcodes/run.ts` (or `npm run bench --
 * barcodes`) generates scanned pages with tests/support/scan-makers.ts (200 dpi grey, speckle noise,
 * mild blur, stand-in stickers and separator sheets) and reads them with readPageCodes — the codes child
 * at its mild priority, as intake will — and measures:
 * - speed: pages per second over a 300-page noisy batch (a separator sheet, then letters of one to four
 *   pages with a sticker on the first; most pages carry no code, so they go through every retry), target
 *   > 1 page/s (60 pages a minute); with the mean render and decode time of a page, for pages read at
 *   the first try and for pages that went through the retries;
 * - robustness: the share of stickers found over N generated variants — the four quarter turns × skews
 *   from −5° to +5° × three noise levels × both sticker sizes, each at a random place on a letter and
 *   with its own blur — target 100%; with the share found at the first try, and the variants missed.
 * - responsiveness: the same 300-page batch POSTed to /correspondence/intake of the API server run as
 *   `npm run server` runs it (its own process, PGlite), while this process asks for the incoming box one
 *   request after another; the box's p99 during the batch against its p99 idle (target: within 2×), and
 *   what the batch came out as.
 * Prints one JSON object. BENCH_PAGES (300), BENCH_SKEWS (comma-separated degrees: -5,-3,-1,0,1,3,5),
 * BENCH_NOISE (0.01,0.03,0.05), BENCH_IDLE_S (15): how long the idle box is measured.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAsBlob } from 'node:fs';
import { Agent, FormData, fetch as undiciFetch } from 'undici';
import { percentile } from '../harness';
import { firstAdmin, startServerProcess } from '../station/support';
import { closeOcr } from '../../src-server/modules/search/extract';
import { readPageCodes } from '../../src-server/modules/search/ocr-process';
import { cutBatch, markOfPage } from '../../src-shared/paper-codes';
import {
  makeLetterPage,
  makeSeparatorSheet,
  makeStandInSticker,
  placeSticker,
  scanPage,
  seededRandom,
  wrapScans,
} from '../../tests/support/scan-makers';

const PAGES = Number(process.env.BENCH_PAGES ?? 300);
const SKEWS = (process.env.BENCH_SKEWS ?? '-5,-3,-1,0,1,3,5').split(',').map(Number);
const NOISE = (process.env.BENCH_NOISE ?? '0.01,0.03,0.05').split(',').map(Number);
const ROTATIONS = [0, 90, 180, 270] as const;
const SIZES = ['50x25', '70x35'] as const;
/** Distinct pages scanned for the batch; the batch repeats them (each copy its own image in the PDF). */
const POOL = 60;

const numberOf = (i: number) => `IN-2026-${String(1 + i).padStart(6, '0')}`;
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

const dir = mkdtempSync(join(tmpdir(), 'sijill-bench-codes-'));
try {
  const random = seededRandom(2026);
  const separator = await makeSeparatorSheet();
  const noisy = (seed: number) => ({ noise: 0.02 + random() * 0.02, blur: 0.5 + random() * 0.4, seed });

  // ---------------------------------------------------------------------------------- speed: a batch
  // The pool: a separator, then letters of 1 to 4 pages, the first with a sticker (any turn, any skew).
  type Kind = { kind: 'separator' } | { kind: 'sticker'; number: string } | { kind: 'plain' };
  const pool: { kind: Kind; scan: Awaited<ReturnType<typeof scanPage>> }[] = [];
  let documents = 0;
  while (pool.length < POOL) {
    pool.push({
      kind: { kind: 'separator' },
      scan: await scanPage(separator, { ...noisy(pool.length), skew: random() * 4 - 2 }),
    });
    for (let d = 0; d < 3 && pool.length < POOL; d++) {
      const number = numberOf(documents++);
      const sticker = await makeStandInSticker(number, SIZES[documents % 2]);
      const letter = await makeLetterPage(pool.length);
      const first = await placeSticker(letter, sticker, { x: 5 + random() * 130, y: 5 + random() * 250 });
      pool.push({
        kind: { kind: 'sticker', number },
        scan: await scanPage(first, {
          ...noisy(pool.length),
          rotate: ROTATIONS[Math.floor(random() * 4)],
          skew: random() * 10 - 5,
        }),
      });
      const more = Math.floor(random() * 4);
      for (let p = 0; p < more && pool.length < POOL; p++)
        pool.push({
          kind: { kind: 'plain' },
          scan: await scanPage(await makeLetterPage(pool.length), {
            ...noisy(pool.length),
            skew: random() * 4 - 2,
          }),
        });
    }
  }
  const order = Array.from({ length: PAGES }, (_, i) => pool[i % POOL]!);
  const batch = join(dir, 'batch.pdf');
  writeFileSync(batch, await wrapScans(order.map((entry) => entry.scan)));

  const started = performance.now();
  const read = await readPageCodes(batch);
  const seconds = (performance.now() - started) / 1000;
  const wrong = order.flatMap((entry, i) => {
    const mark = markOfPage(read.pages[i]!);
    const expected = entry.kind.kind === 'plain' ? { kind: 'none' } : entry.kind;
    return JSON.stringify(mark) === JSON.stringify(expected) ? [] : [{ page: i + 1, expected, mark }];
  });
  const firstTry = read.timings.filter((t) => t.attempts === 1);
  const retried = read.timings.filter((t) => t.attempts > 1);
  const speed = {
    pages: PAGES,
    seconds: round(seconds),
    pagesPerSecond: round(PAGES / seconds, 2),
    pagesPerMinute: Math.round((PAGES / seconds) * 60),
    target: '> 1 page/s',
    pagesWrong: wrong.length,
    parts: cutBatch(read.pages.map(markOfPage)).parts.length,
    meanRenderMs: Math.round(mean(read.timings.map((t) => t.renderMs))),
    firstTry: { pages: firstTry.length, meanDecodeMs: Math.round(mean(firstTry.map((t) => t.decodeMs))) },
    retried: {
      pages: retried.length,
      meanDecodeMs: Math.round(mean(retried.map((t) => t.decodeMs))),
      meanAttempts: round(mean(retried.map((t) => t.attempts))),
    },
    ...(wrong.length ? { wrong: wrong.slice(0, 10) } : {}),
  };

  // --------------------------------------------------------------------------- robustness: variants
  const variants: {
    rotate: (typeof ROTATIONS)[number];
    skew: number;
    noise: number;
    size: (typeof SIZES)[number];
  }[] = [];
  for (const rotate of ROTATIONS)
    for (const skew of SKEWS)
      for (const noise of NOISE) for (const size of SIZES) variants.push({ rotate, skew, noise, size });
  const scans = [];
  for (const [i, variant] of variants.entries()) {
    const sticker = await makeStandInSticker(numberOf(i), variant.size);
    const page = await placeSticker(await makeLetterPage(10_000 + i), sticker, {
      x: 5 + random() * 130,
      y: 5 + random() * 250,
    });
    scans.push(
      await scanPage(page, {
        rotate: variant.rotate,
        skew: variant.skew,
        noise: variant.noise,
        blur: 0.5 + random() * 0.5,
        seed: i,
      }),
    );
  }
  const variantsFile = join(dir, 'variants.pdf');
  writeFileSync(variantsFile, await wrapScans(scans));
  const found = await readPageCodes(variantsFile);
  const missed = variants.filter((_, i) => {
    const mark = markOfPage(found.pages[i]!);
    return !(mark.kind === 'sticker' && mark.number === numberOf(i));
  });
  const robustness = {
    variants: variants.length,
    found: variants.length - missed.length,
    share: round(((variants.length - missed.length) / variants.length) * 100, 1),
    target: '100%',
    foundFirstTry: found.timings.filter((t, i) => t.attempts === 1 && found.pages[i]!.length > 0).length,
    // Which try found the rest: 2 another threshold, 3 turned +3°, 4 turned −3° (ocr-child.ts RETRIES).
    foundAtTry: Object.fromEntries(
      [2, 3, 4].map((n) => [
        n,
        found.timings.filter((t, i) => t.attempts === n && found.pages[i]!.length > 0).length,
      ]),
    ),
    bothCodesRead: found.pages.filter((codes) => new Set(codes.map((c) => c.format)).size === 2).length,
    ...(missed.length ? { missed: missed.slice(0, 20) } : {}),
  };
  // ------------------------------------------------------------------------ responsiveness: the API
  const responsiveness = await underBatch(batch);
  console.log(JSON.stringify({ speed, robustness, responsiveness }, null, 2));
} finally {
  await closeOcr();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The incoming box's latency, asked one request after another (a clerk's screen refreshing), idle and
 * while the server takes in the batch at `batchFile` (POST /correspondence/intake, as a station sends it).
 */
async function underBatch(batchFile: string) {
  const idleSeconds = Number(process.env.BENCH_IDLE_S ?? 15);
  const server = await startServerProcess(join(dir, 'server'), {
    UPLOAD_MAX_BYTES: String(1024 * 1024 * 1024),
  });
  try {
    const token = await firstAdmin(server.url);
    const box = async () => {
      const started = performance.now();
      const res = await fetch(`${server.url}/correspondence/boxes/incoming`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the incoming box answered ${res.status}`);
      return performance.now() - started;
    };
    const probe = async (until: () => boolean) => {
      const times: number[] = [];
      while (!until()) times.push(await box());
      return times.sort((a, b) => a - b);
    };
    for (let i = 0; i < 20; i++) await box(); // warm
    const idleEnd = performance.now() + idleSeconds * 1000;
    const idle = await probe(() => performance.now() > idleEnd);

    const form = new FormData();
    form.append('file', await openAsBlob(batchFile, { type: 'application/pdf' }), 'batch.pdf');
    let done = false;
    const started = performance.now();
    // undici's own fetch, waiting as long as the batch takes (Node's fetch gives up after 5 minutes).
    const sent = undiciFetch(`${server.url}/correspondence/intake`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': `bench-batch-${Date.now()}` },
      body: form,
      dispatcher: new Agent({ headersTimeout: 0, bodyTimeout: 0 }),
    })
      .then(async (res) => ({
        status: res.status,
        body: (await res.json()) as { data?: { parts?: unknown[] } },
      }))
      .finally(() => (done = true));
    const during = await probe(() => done);
    const answer = await sent;
    const seconds = (performance.now() - started) / 1000;
    const p99Idle = percentile(idle, 99);
    const p99During = percentile(during, 99);
    return {
      batch: {
        status: answer.status,
        parts: answer.body.data?.parts?.length ?? 0,
        seconds: round(seconds),
        // The stand-in stickers name numbers this fresh server has no documents for: intake reads every
        // page, then refuses the whole batch (404), as it must — the reading is what is measured.
        ...(answer.status === 404
          ? { note: 'refused after every page was read: no such documents here' }
          : {}),
      },
      pagesPerMinute: Math.round((PAGES / seconds) * 60),
      box: {
        idle: { requests: idle.length, p50Ms: round(percentile(idle, 50)), p99Ms: round(p99Idle) },
        during: { requests: during.length, p50Ms: round(percentile(during, 50)), p99Ms: round(p99During) },
        p99Ratio: round(p99During / p99Idle, 2),
        target: 'p99 during the batch within 2× of idle',
      },
    };
  } finally {
    await server.stop();
  }
}
