/**
 * Uploads are streamed to a temporary file in the store and checked from disk: a file over the limit
 * is refused while streaming (413 with the limit in the message), a non-PDF on its first kilobyte (415),
 * an encrypted or broken PDF when pdf.js cannot open it (415), active content megabytes into the file
 * (422); every refusal leaves nothing behind, neither a temporary file nor a row; a large PDF is stored
 * whole under its hash and read back byte for byte. The client learns the limit from /health.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Of } from '../../src-server/storage/files';
import { call, countRows, startHarness, type Harness } from './support/harness';
import { employee, letter, organisation, type Org } from './support/correspondence';
import { encryptedPdf, largePdf, minimalPdf, multipart, ownerLockedPdf, pdfWith } from './support/files';

const LIMIT = 12 * 1024 * 1024;
let h: Harness;
let org: Org;
let docId: number;

beforeAll(async () => {
  h = await startHarness({ UPLOAD_MAX_BYTES: String(LIMIT) });
  org = await organisation(h);
  const res = await call(h, {
    method: 'POST',
    url: '/correspondence/documents',
    token: org.clerk.token,
    body: letter(org),
  });
  docId = res.json.data.id;
});
afterAll(async () => h?.close());

const tempFiles = () => {
  const dir = join(h.filesDir, '.incoming');
  return existsSync(dir) ? readdirSync(dir) : [];
};

const upload = (
  bytes: Buffer,
  url = `/correspondence/documents/${docId}/attachments`,
  token = org.clerk.token,
) => {
  const m = multipart(bytes, 'scan.pdf', 'application/pdf');
  return h.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...m.headers },
    payload: m.payload,
  });
};

describe('streamed uploads', () => {
  it('/health tells clients the size limit', async () => {
    const res = await call(h, { method: 'GET', url: '/health' });
    expect(res.json.data.uploadMaxBytes).toBe(LIMIT);
  });

  it('stores a large PDF whole and reads it back byte for byte', async () => {
    const bytes = largePdf(10);
    const res = await upload(bytes);
    expect(res.statusCode).toBe(201);
    const { id, size } = res.json().data as { id: number; size: number };
    expect(size).toBe(bytes.length);
    const back = await h.app.inject({
      method: 'GET',
      url: `/correspondence/documents/${docId}/attachments/${id}/content`,
      headers: { authorization: `Bearer ${org.clerk.token}` },
    });
    expect(sha256Of(back.rawPayload)).toBe(sha256Of(bytes));
    expect(tempFiles()).toEqual([]);
  });

  const refusals: [string, () => Buffer, number, RegExp][] = [
    ['over the limit', () => largePdf(13), 413, /less than 12 MB/],
    [
      'not a PDF (by its bytes)',
      () => Buffer.concat([Buffer.from('MZ'), randomBytes(2 << 20)]),
      415,
      /valid PDF/,
    ],
    // Locked by a password: said so, with what to do — not "not a valid PDF".
    ['an encrypted PDF', encryptedPdf, 415, /protected by a password.*print it to a new PDF/],
    ['a broken PDF', () => minimalPdf('cut').subarray(0, 120), 415, /valid PDF/],
    [
      'a PDF whose script sits 10 MB in',
      () => largePdf(10, { catalog: '/OpenAction 6 0 R', tail: ['<< /S /JavaScript /JS (x) >>'] }),
      422,
      /active content/,
    ],
  ];
  for (const [what, make, status, message] of refusals) {
    it(`refuses ${what} (${status}), leaving no file and no row`, async () => {
      const before = await countRows(h, 'document_attachments');
      const res = await upload(make());
      expect(res.statusCode).toBe(status);
      expect(res.json().detail).toMatch(message);
      expect(await countRows(h, 'document_attachments')).toBe(before);
      expect(tempFiles()).toEqual([]);
    });
  }

  it('says in each language that a PDF is locked by a password and how to unlock it; one that only restricts printing is taken', async () => {
    for (const [language, words] of [
      ['ar', /محميّ بكلمة مرور.*اطبعه إلى ملف PDF جديد/],
      ['en', /protected by a password.*print it to a new PDF/],
    ] as const) {
      const m = multipart(encryptedPdf(), 'locked.pdf', 'application/pdf');
      const res = await h.app.inject({
        method: 'POST',
        url: `/correspondence/documents/${docId}/attachments`,
        headers: { authorization: `Bearer ${org.clerk.token}`, 'accept-language': language, ...m.headers },
        payload: m.payload,
      });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ code: 'upload.encrypted', detail: expect.stringMatching(words) });
    }
    expect((await upload(ownerLockedPdf())).statusCode).toBe(201);
  });

  it('reads nothing for a document the caller may not file on', async () => {
    const res = await upload(
      minimalPdf('nope'),
      `/correspondence/documents/${docId}/attachments`,
      org.outsider.token,
    );
    expect([403, 404]).toContain(res.statusCode);
    expect(tempFiles()).toEqual([]);
  });

  it('employee attachments take the same streamed path and checks', async () => {
    const employeeId = await employee(h, org.deptA);
    const url = `/ec/employees/${employeeId}/attachments`;
    const locked = await upload(encryptedPdf(), url, org.admin.token);
    expect(locked.statusCode).toBe(415);
    expect(locked.json()).toMatchObject({ code: 'upload.encrypted' });
    expect((await upload(largePdf(13), url, org.admin.token)).statusCode).toBe(413);
    const ok = await upload(pdfWith({ note: 'contract' }), url, org.admin.token);
    expect(ok.statusCode).toBe(201);
    expect(tempFiles()).toEqual([]);
  });
});
