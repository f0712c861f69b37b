/**
 * Attachments are served the way a viewer reads them (src-server/http/send-file.ts): a byte range is
 * answered 206 with exactly those bytes, a range outside the file 416, an unchanged copy 304 by its ETag,
 * and the whole file 200 with `Accept-Ranges`. For correspondence and employee attachments alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeOf } from '../../src-server/http/send-file';
import { minimalPdf, multipart } from './support/files';
import { call, startHarness, type Harness } from './support/harness';
import { letter, organisation, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
let url: string;
let bytes: Buffer;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
  const doc = await call(h, {
    method: 'POST',
    url: '/correspondence/documents',
    token: org.clerk.token,
    body: letter(org),
  });
  bytes = minimalPdf('a letter with bytes enough to cut in pieces');
  const file = multipart(bytes, 'letter.pdf', 'application/pdf');
  const up = await h.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${doc.json.data.id}/attachments`,
    headers: { ...file.headers, authorization: `Bearer ${org.clerk.token}` },
    payload: file.payload,
  });
  expect(up.statusCode).toBe(201);
  url = `/correspondence/documents/${doc.json.data.id}/attachments/${up.json().data.id}/content`;
});
afterAll(async () => {
  await h?.close();
});

const get = (headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${org.clerk.token}`, ...headers } });

describe('attachment content', () => {
  it('answers the whole file with its ETag and Accept-Ranges', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers a byte range with exactly those bytes, and the file’s tail', async () => {
    const res = await get({ range: 'bytes=5-14' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 5-14/${bytes.length}`);
    expect(res.rawPayload.equals(bytes.subarray(5, 15))).toBe(true);
    const tail = await get({ range: 'bytes=-7' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 7))).toBe(true);
    const open = await get({ range: `bytes=${bytes.length - 3}-` });
    expect(open.rawPayload.equals(bytes.subarray(bytes.length - 3))).toBe(true);
  });

  it('answers 416 for a range outside the file, 304 for the copy the client has', async () => {
    const outside = await get({ range: `bytes=${bytes.length}-${bytes.length + 10}` });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
    const etag = (await get()).headers.etag as string;
    expect((await get({ 'if-none-match': etag })).statusCode).toBe(304);
    // A range against another version of the file (If-Range) gets the whole current file.
    const stale = await get({ range: 'bytes=0-3', 'if-range': '"0000"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(bytes.length);
  });

  it('still needs a caller who may see the document', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${org.outsider.token}`, range: 'bytes=0-3' },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('rangeOf', () => {
  it.each([
    [undefined, 100, null],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=50-5000', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=9-3', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-1,5-6', 100, null],
    ['items=0-1', 100, null],
  ] as const)('%s of %d bytes', (header, size, expected) => {
    expect(rangeOf(header, size)).toEqual(expected);
  });
});
