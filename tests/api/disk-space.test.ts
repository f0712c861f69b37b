/**
 * Low disk space is seen before it breaks anything: below MIN_FREE_DISK_MB free on the disk of the data
 * folder or the file store, every upload is refused with 507 and `upload.diskFull` (a localised sentence
 * naming the free space) before a byte is stored, while reads and other writes go on. The threshold is set
 * beyond any real disk, so this machine's disk is "nearly full"; with 0 (off) the same upload is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, startHarness, type Harness } from './support/harness';
import { organisation, registeredLetter, type Org } from './support/correspondence';
import { minimalPdf, multipart } from './support/files';

function intake(harness: Harness, org: Org, lang: 'ar' | 'en') {
  const m = multipart(minimalPdf(`scan ${Math.random()}`), 'scan 0001.pdf', 'application/pdf');
  return harness.app.inject({
    method: 'POST',
    url: '/correspondence/intake',
    headers: {
      authorization: `Bearer ${org.clerk.token}`,
      'accept-language': lang,
      'idempotency-key': `disk-space:${Date.now()}:${Math.random()}`,
      ...m.headers,
    },
    payload: m.payload,
  });
}

function attach(harness: Harness, org: Org, documentId: number) {
  const m = multipart(minimalPdf('attachment'), 'letter.pdf', 'application/pdf');
  return harness.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${documentId}/attachments`,
    headers: { authorization: `Bearer ${org.clerk.token}`, 'accept-language': 'en', ...m.headers },
    payload: m.payload,
  });
}

describe('a disk nearly full', () => {
  let h: Harness;
  let org: Org;
  let letter: { id: number };
  beforeAll(async () => {
    // 10 TB: more than this machine's disk has free, whatever it is.
    h = await startHarness({ MIN_FREE_DISK_MB: '10000000' });
    org = await organisation(h);
    letter = await registeredLetter(h, org);
  });
  afterAll(async () => h?.close());

  it('refuses uploads with upload.diskFull (507) while reads still work', async () => {
    const attachments = await countRows(h, 'document_attachments');
    const documents = await countRows(h, 'documents');

    const en = await intake(h, org, 'en');
    expect(en.statusCode).toBe(507);
    expect(en.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = en.json();
    expect(problem).toMatchObject({
      status: 507,
      code: 'upload.diskFull',
      title: 'Disk nearly full',
      params: { minFreeMb: 10000000 },
    });
    expect(problem.detail).toContain('nearly full');
    expect(problem.detail).toContain('10000000 MB');
    // The free space found is reported as a whole number of MB (the disk's own figure, not compared here).
    expect(Number.isInteger(problem.params.freeMb)).toBe(true);

    const ar = await intake(h, org, 'ar');
    expect(ar.statusCode).toBe(507);
    expect(ar.json()).toMatchObject({ code: 'upload.diskFull', title: 'القرص يوشك أن يمتلئ' });

    const attached = await attach(h, org, letter.id);
    expect(attached.statusCode).toBe(507);
    expect(attached.json().code).toBe('upload.diskFull');
    // Nothing was taken in.
    expect(await countRows(h, 'document_attachments')).toBe(attachments);
    expect(await countRows(h, 'documents')).toBe(documents);

    // Reads, and writes that are not uploads, go on.
    const box = await call(h, {
      method: 'GET',
      url: '/correspondence/boxes/incoming',
      token: org.clerk.token,
    });
    expect(box.status).toBe(200);
    const doc = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${letter.id}`,
      token: org.clerk.token,
    });
    expect(doc.status).toBe(200);
  });
});

describe('the disk check off', () => {
  let h: Harness;
  let org: Org;
  let letter: { id: number };
  beforeAll(async () => {
    h = await startHarness({ MIN_FREE_DISK_MB: '0' });
    org = await organisation(h);
    letter = await registeredLetter(h, org);
  });
  afterAll(async () => h?.close());

  it('takes uploads again with the check off (0)', async () => {
    const taken = await intake(h, org, 'en');
    expect(taken.statusCode, taken.body).toBe(201);
    expect((await attach(h, org, letter.id)).statusCode).toBe(201);
  });
});
