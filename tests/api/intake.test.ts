/**
 * Intake (the scanning station's upload): a PDF becomes an incoming draft, or an attachment of the
 * document its name numbers; a retry with the same Idempotency-Key answers the first result and
 * registers nothing; the same content twice is refused naming the document; racing retries and racing
 * duplicates make exactly one document; access is checked before a byte is read.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { call, countRows, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { letter, organisation, registeredLetter, type Org } from './support/correspondence';
import { minimalPdf, multipart } from './support/files';

let h: Harness;
let org: Org;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
});
afterAll(async () => h?.close());

let seq = 0;
const newKey = () => `station-test:${Date.now()}:${++seq}`;

function send(bytes: Buffer, opts: { key?: string; number?: string; token?: string; name?: string } = {}) {
  const m = multipart(bytes, opts.name ?? 'scan 0001.pdf', 'application/pdf');
  const headers: Record<string, string> = {
    authorization: `Bearer ${opts.token ?? org.clerk.token}`,
    'accept-language': 'en',
    ...m.headers,
  };
  if (opts.key !== undefined) headers['idempotency-key'] = opts.key;
  const query = opts.number !== undefined ? `?number=${encodeURIComponent(opts.number)}` : '';
  return h.app.inject({ method: 'POST', url: `/correspondence/intake${query}`, headers, payload: m.payload });
}

describe('intake', () => {
  it('makes an incoming draft named after the file, and a retry answers the same draft', async () => {
    const key = newKey();
    const bytes = minimalPdf(`first ${key}`);
    const first = await send(bytes, { key, name: 'وارد 0001.pdf' });
    expect(first.statusCode).toBe(201);
    const made = first.json().data;
    expect(made).toMatchObject({ subject: 'وارد 0001', docNumber: null, replayed: false });
    const doc = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${made.documentId}`,
      token: org.clerk.token,
    });
    expect(doc.json.data).toMatchObject({ direction: 'in', state: 'draft' });
    // Its file, and its timeline in the order things happened.
    const attachments = await h.query<{ id: number; file_name: string; size: number }>(
      `select id::int as id, file_name, size::int as size from document_attachments where document_id = ${made.documentId}`,
    );
    expect(attachments).toEqual([{ id: made.attachmentId, file_name: 'وارد 0001.pdf', size: bytes.length }]);
    const timeline = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${made.documentId}/timeline`,
      token: org.clerk.token,
    });
    expect(timeline.status).toBe(200);
    expect(
      (timeline.json.data as { event: string; details: Record<string, unknown> }[]).map((e) => [
        e.event,
        e.details,
      ]),
    ).toEqual([
      ['created', { direction: 'in', intake: 'وارد 0001.pdf' }],
      ['attachmentAdded', { attachmentId: made.attachmentId, fileName: 'وارد 0001.pdf', size: bytes.length }],
    ]);

    const documents = await countRows(h, 'documents');
    const again = await send(bytes, { key, name: 'وارد 0001.pdf' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ ...made, replayed: true });
    expect(await countRows(h, 'documents')).toBe(documents);
  });

  it('refuses the key sent with another file, name or number (422 saying so), keeping nothing', async () => {
    const key = newKey();
    const bytes = minimalPdf(`keyed ${key}`);
    const first = await send(bytes, { key, name: 'مسح 7.pdf' });
    expect(first.statusCode).toBe(201);
    const { id: numbered, docNumber } = await registeredLetter(h, org);
    const documents = await countRows(h, 'documents');
    const attachments = await countRows(h, 'document_attachments');
    const other = minimalPdf(`another file ${key}`);
    const otherSha = createHash('sha256').update(other).digest('hex');
    for (const [what, retry] of [
      ['another file', send(other, { key, name: 'مسح 7.pdf' })],
      ['another name', send(bytes, { key, name: 'مسح 8.pdf' })],
      ['a number', send(bytes, { key, name: 'مسح 7.pdf', number: docNumber })],
    ] as const) {
      const res = await retry;
      expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'idempotency.keyReused',
        detail: expect.stringContaining('Idempotency-Key was already used for a different request'),
      });
    }
    expect(await countRows(h, 'documents')).toBe(documents);
    expect(await countRows(h, 'document_attachments')).toBe(attachments);
    expect(
      existsSync(join(h.filesDir, otherSha.slice(0, 2), otherSha.slice(2, 4), otherSha)),
      'the refused file was stored',
    ).toBe(false);
    const files = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${numbered}/attachments`,
      token: org.clerk.token,
    });
    expect(files.json.data).toEqual([]);
    // The request the key came with still replays.
    const again = await send(bytes, { key, name: 'مسح 7.pdf' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ ...first.json().data, replayed: true });
  });

  it('a receipt recorded before hashes were (none) replays whatever file comes with its key', async () => {
    const key = newKey();
    const first = await send(minimalPdf(`old ${key}`), { key });
    await h.query(`update intake_receipts set request_hash = null where key = '${key}'`);
    const again = await send(minimalPdf(`new ${key}`), { key, name: 'other.pdf' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ ...first.json().data, replayed: true });
  });

  it('refuses the same content under another key, naming the document', async () => {
    const bytes = minimalPdf(`dup ${newKey()}`);
    const first = await send(bytes, { key: newKey() });
    expect(first.statusCode).toBe(201);
    const second = await send(bytes, { key: newKey() });
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('intake.duplicate');
    expect(second.json().detail).toContain(`#${first.json().data.documentId}`);
  });

  it('racing retries of one upload make one draft; racing duplicates make one draft', async () => {
    const before = await countRows(h, 'documents');
    const key = newKey();
    const bytes = minimalPdf(`race ${key}`);
    const retries = await Promise.all([send(bytes, { key }), send(bytes, { key }), send(bytes, { key })]);
    expect(retries.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(retries.map((r) => r.json().data.documentId)).size).toBe(1);

    const other = minimalPdf(`race two ${key}`);
    const racing = await Promise.all([send(other, { key: newKey() }), send(other, { key: newKey() })]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await countRows(h, 'documents')).toBe(before + 2);
  });

  it('attaches to the document its name numbers; an unknown number is a 404 saying so', async () => {
    const { id, docNumber } = await registeredLetter(h, org);
    const res = await send(minimalPdf(`annex ${docNumber}`), { key: newKey(), number: docNumber });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ documentId: id, docNumber });
    const files = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${id}/attachments`,
      token: org.clerk.token,
    });
    expect(files.json.data).toHaveLength(1);

    const unknown = await send(minimalPdf('nowhere'), { key: newKey(), number: 'IN-1999-000001' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toContain('IN-1999-000001');
  });

  it('needs a key, refuses what is not a PDF, and lets only those who may create incoming drafts in', async () => {
    const documents = await countRows(h, 'documents');
    expect((await send(minimalPdf('no key'))).statusCode).toBe(400);
    expect((await send(minimalPdf('bad key'), { key: 'short' })).statusCode).toBe(400);
    const notPdf = await send(Buffer.from('just text, not a PDF at all'), { key: newKey() });
    expect(notPdf.statusCode).toBe(415);
    expect(notPdf.json().detail).toMatch(/valid PDF/);
    const reader = await signIn(h, await makeUser(h, await makeRole(h, { [PAGES.incoming]: ['view'] })));
    expect((await send(minimalPdf('reader'), { key: newKey(), token: reader })).statusCode).toBe(403);
    expect(await countRows(h, 'documents')).toBe(documents);
  });

  it('an upload of a file stored elsewhere says which documents already hold it', async () => {
    const bytes = minimalPdf(`shared ${newKey()}`);
    const first = await send(bytes, { key: newKey() });
    const holder = first.json().data.documentId as number;
    const draft = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: letter(org),
    });
    const m = multipart(bytes, 'copy.pdf', 'application/pdf');
    const res = await h.app.inject({
      method: 'POST',
      url: `/correspondence/documents/${draft.json.data.id}/attachments`,
      headers: { authorization: `Bearer ${org.clerk.token}`, ...m.headers },
      payload: m.payload,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.alsoIn.map((d: { id: number }) => d.id)).toEqual([holder]);
  });

  it('names, by content hash, the documents the caller may see that already hold a file', async () => {
    const bytes = minimalPdf(`holders ${newKey()}`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const holders = (query: string, token = org.clerk.token) =>
      call(h, { method: 'GET', url: `/correspondence/documents/holders?${query}`, token });

    expect((await holders(`sha256=${sha256}`)).json.data).toEqual([]);
    const first = await send(bytes, { key: newKey(), name: 'held.pdf' });
    const holder = first.json().data.documentId as number;
    const found = await holders(`sha256=${sha256}`);
    expect(found.status).toBe(200);
    expect(found.json.data).toEqual([
      expect.objectContaining({ id: holder, direction: 'in', subject: 'held' }),
    ]);
    // The document being edited is left out; someone who may not see the draft hears of nothing.
    expect((await holders(`sha256=${sha256}&except=${holder}`)).json.data).toEqual([]);
    const reader = await signIn(h, await makeUser(h, await makeRole(h, { [PAGES.incoming]: ['view'] })));
    expect((await holders(`sha256=${sha256}`, reader)).json.data).toEqual([]);
    // Only a lower-case hexadecimal SHA-256; only a signed-in caller.
    for (const bad of [sha256.toUpperCase(), sha256.slice(1), `${sha256}0`, 'x'.repeat(64)])
      expect((await holders(`sha256=${bad}`)).status).toBe(400);
    expect((await holders(`sha256=${sha256}&except=0`)).status).toBe(400);
    const anonymous = await h.app.inject({
      method: 'GET',
      url: `/correspondence/documents/holders?sha256=${sha256}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
