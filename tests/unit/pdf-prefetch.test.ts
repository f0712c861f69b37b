/**
 * The viewer's first reads (components/pdf/prefetch.ts) against a real HTTP server that answers byte
 * ranges as the file source does: the click starts the two reads of a file's ends once, the viewer takes
 * exactly those (no second pair), a later opening reads afresh, and a small file or a source without
 * ranges answers null (the viewer then falls back to a plain URL). In Node's own fetch (the module
 * touches no DOM; happy-dom's fetch does not stand in for Chromium's here).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PDF_CHUNK, prefetchPdf, takePdfEnds } from '../../src-renderer/components/pdf/prefetch';

const big = Buffer.alloc(6 * PDF_CHUNK + 1234);
for (let i = 0; i < big.length; i++) big[i] = (i * 7 + (i >> 9)) & 0xff;
const small = Buffer.alloc(3 * PDF_CHUNK, 1);

let server: Server;
let base: string;
let requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.url} ${req.headers.range ?? ''}`);
    const file = req.url === '/small.pdf' ? small : big;
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (req.url === '/no-ranges.pdf' || !range) {
      res.writeHead(200, { 'content-length': file.length });
      res.end(file);
      return;
    }
    const [start, end] = range[1]
      ? [Number(range[1]), Math.min(Number(range[2] || file.length - 1), file.length - 1)]
      : [Math.max(0, file.length - Number(range[2])), file.length - 1];
    res.writeHead(206, {
      'content-range': `bytes ${start}-${end}/${file.length}`,
      'content-length': end - start + 1,
    });
    res.end(file.subarray(start, end + 1));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));
beforeEach(() => {
  requests = [];
});

// A guard against a hang, not a speed limit: on a loaded machine (CI's lanes side by side) a read can
// take longer than vitest's default 5 s.
describe('the viewer prefetch', { timeout: 60_000 }, () => {
  it('reads a file’s ends once from the click, and the viewer takes exactly those', async () => {
    const source = { url: `${base}/a.pdf` };
    prefetchPdf(source);
    prefetchPdf(source); // a later render of the open dialog reads nothing more
    const ends = await takePdfEnds(source);
    expect(requests).toHaveLength(2);
    expect(ends).not.toBeNull();
    expect(ends!.length).toBe(big.length);
    expect(Buffer.from(ends!.head)).toEqual(big.subarray(0, 2 * PDF_CHUNK));
    expect(ends!.tailStart).toBe(big.length - 2 * PDF_CHUNK);
    expect(Buffer.from(ends!.tail)).toEqual(big.subarray(big.length - 2 * PDF_CHUNK));
    // The next opening reads afresh (what was read is not kept past its viewer).
    await takePdfEnds(source);
    expect(requests).toHaveLength(4);
  });

  it('without a prefetch the viewer reads the ends itself', async () => {
    const ends = await takePdfEnds({ url: `${base}/b.pdf`, httpHeaders: { 'x-test': '1' } });
    expect(ends?.length).toBe(big.length);
    expect(requests.sort()).toEqual([
      `/b.pdf bytes=-${2 * PDF_CHUNK}`,
      `/b.pdf bytes=0-${2 * PDF_CHUNK - 1}`,
    ]);
  });

  it('a small file, or a source that answers no ranges, gives null (a plain URL then)', async () => {
    expect(await takePdfEnds({ url: `${base}/small.pdf` })).toBeNull();
    expect(await takePdfEnds({ url: `${base}/no-ranges.pdf` })).toBeNull();
  });
});
