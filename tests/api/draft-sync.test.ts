/**
 * Offline draft sync: a document created with an Idempotency-Key is created once — a retry answers it
 * (200, same id), racing retries make one, another user's same key is theirs, a deleted document frees
 * its key — and an edit with If-Match applies only to the version it names (409
 * document.versionConflict otherwise, nothing written). Malformed headers are 400 with a field message;
 * both headers are in the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, startHarness, type Harness } from './support/harness';
import { letter, organisation, type Actor, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
});
afterAll(async () => h?.close());

let seq = 0;
const newKey = () => `draft-sync:${Date.now()}:${++seq}`;

const create = (a: Actor, key?: string, extra: Record<string, unknown> = {}) =>
  call(h, {
    method: 'POST',
    url: '/correspondence/documents',
    token: a.token,
    lang: 'en',
    body: letter(org, extra),
    ...(key !== undefined ? { headers: { 'idempotency-key': key } } : {}),
  });

const edit = (a: Actor, id: number, body: unknown, ifMatch?: string, lang: 'ar' | 'en' = 'en') =>
  call(h, {
    method: 'PUT',
    url: `/correspondence/documents/${id}`,
    token: a.token,
    lang,
    body,
    ...(ifMatch !== undefined ? { headers: { 'if-match': ifMatch } } : {}),
  });

const receipts = () => countRows(h, 'document_receipts');

describe('creating a document with an Idempotency-Key', () => {
  it('answers a retry with the document the first request made (200), creating nothing', async () => {
    const key = newKey();
    const first = await create(org.clerk, key, { subject: 'مسودة دون اتصال' });
    expect(first.status).toBe(201);
    const made = first.json.data;
    const documents = await countRows(h, 'documents');
    const events = await countRows(h, 'document_events');

    // The same body, its fields in another order: the same request.
    const body = letter(org, { subject: 'مسودة دون اتصال' });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: reordered,
      headers: { 'idempotency-key': key },
    });
    expect(again.status).toBe(200);
    expect(again.json.data.id).toBe(made.id);
    expect(again.json.data.subject).toBe('مسودة دون اتصال');
    expect(again.json.returnMessage).toBeTruthy();
    expect(await countRows(h, 'documents')).toBe(documents);
    expect(await countRows(h, 'document_events')).toBe(events);
  });

  it('refuses the key sent with another body (422 saying so), making and changing nothing', async () => {
    const key = newKey();
    const first = await create(org.clerk, key, { subject: 'مسودة أولى' });
    expect(first.status).toBe(201);
    const documents = await countRows(h, 'documents');
    const events = await countRows(h, 'document_events');
    for (const extra of [{ subject: 'مسودة أخرى' }, { summary: 'a field more' }, { register: true }]) {
      const other = await create(org.clerk, key, { subject: 'مسودة أولى', ...extra });
      expect(other.status, JSON.stringify(other.json)).toBe(422);
      expect(other.json.code).toBe('idempotency.keyReused');
      expect(other.json.detail).toContain('Idempotency-Key was already used for a different request');
    }
    const ar = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      lang: 'ar',
      body: letter(org, { subject: 'مسودة ثالثة' }),
      headers: { 'idempotency-key': key },
    });
    expect(ar.status).toBe(422);
    expect(ar.json.detail).toContain('استُخدم مفتاح عدم التكرار');
    expect(await countRows(h, 'documents')).toBe(documents);
    expect(await countRows(h, 'document_events')).toBe(events);
    // The first document is as it was made, and its own retry still replays it.
    const same = await create(org.clerk, key, { subject: 'مسودة أولى' });
    expect(same.status).toBe(200);
    expect(same.json.data).toMatchObject({ id: first.json.data.id, subject: 'مسودة أولى' });
  });

  it('a receipt recorded before hashes were (none) replays whatever the body, as it did', async () => {
    const key = newKey();
    const first = await create(org.clerk, key, { subject: 'مسودة قديمة' });
    await h.query(`update document_receipts set request_hash = null where key = '${key}'`);
    const again = await create(org.clerk, key, { subject: 'مسودة أخرى' });
    expect(again.status).toBe(200);
    expect(again.json.data).toMatchObject({ id: first.json.data.id, subject: 'مسودة قديمة' });
  });

  it('makes exactly one document from five racing requests with one key', async () => {
    const key = newKey();
    const documents = await countRows(h, 'documents');
    const racing = await Promise.all(Array.from({ length: 5 }, () => create(org.clerk, key)));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(racing.map((r) => r.json.data.id)).size).toBe(1);
    expect(await countRows(h, 'documents')).toBe(documents + 1);
  });

  it("keeps keys per user: another user's same key makes their own document", async () => {
    const key = newKey();
    const mine = await create(org.clerk, key);
    const theirs = await create(org.memberA, key);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.json.data.id).not.toBe(mine.json.data.id);
    expect(theirs.json.data.createdBy.id).toBe(org.memberA.userId);
    // Each retry answers its own user's document.
    expect((await create(org.memberA, key)).json.data.id).toBe(theirs.json.data.id);
    expect((await create(org.clerk, key)).json.data.id).toBe(mine.json.data.id);
  });

  it('frees the key when its document is deleted: a retry then creates a new one', async () => {
    const key = newKey();
    const first = await create(org.clerk, key);
    const id = first.json.data.id as number;
    const deleted = await call(h, {
      method: 'DELETE',
      url: `/correspondence/documents/${id}`,
      token: org.clerk.token,
    });
    expect(deleted.status).toBe(200);
    const again = await create(org.clerk, key);
    expect(again.status).toBe(201);
    expect(again.json.data.id).not.toBe(id);
  });

  it('refuses a malformed key (400, naming the header) and creates nothing', async () => {
    const documents = await countRows(h, 'documents');
    const before = await receipts();
    for (const bad of ['short', 'x'.repeat(101), 'has space in it', 'semi;colon1', 'كلمة-عربية-طويلة']) {
      const res = await call(h, {
        method: 'POST',
        url: '/correspondence/documents',
        token: org.clerk.token,
        lang: 'en',
        body: letter(org),
        headers: { 'idempotency-key': Buffer.from(bad).toString('latin1') },
      });
      expect(res.status, bad).toBe(400);
      expect(res.json.errors['idempotency-key']).toEqual(['Use 8 to 100 letters, digits or . _ : -']);
    }
    expect(await countRows(h, 'documents')).toBe(documents);
    expect(await receipts()).toBe(before);
  });

  it('without a key behaves as before: 201 every time, no receipt', async () => {
    const before = await receipts();
    const a = await create(org.clerk);
    const b = await create(org.clerk);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.json.data.id).not.toBe(b.json.data.id);
    expect(await receipts()).toBe(before);
  });

  it('records nothing for a refused create, so the key stays free', async () => {
    const key = newKey();
    const refused = await create(org.clerk, key, { codificationId: 999_999 });
    expect(refused.status).toBe(400);
    const ok = await create(org.clerk, key);
    expect(ok.status).toBe(201);
  });
});

describe('editing a document with If-Match', () => {
  const draft = async () => (await create(org.clerk, newKey())).json.data as { id: number; version: number };

  it('answers the version as ETag on reading and on editing', async () => {
    const doc = await draft();
    const read = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${doc.id}`,
      token: org.clerk.token,
    });
    expect(read.headers.etag).toBe(`"${doc.version}"`);
    const edited = await edit(org.clerk, doc.id, { subject: 'تعديل' });
    expect(edited.headers.etag).toBe(`"${doc.version + 1}"`);
  });

  it('applies an edit to the version it names: 7, "7" and W/"7"', async () => {
    const doc = await draft();
    let version = doc.version;
    for (const tag of [(v: number) => `${v}`, (v: number) => `"${v}"`, (v: number) => `W/"${v}"`]) {
      const res = await edit(org.clerk, doc.id, { subject: `نسخة ${version}` }, tag(version));
      expect(res.status).toBe(200);
      expect(res.json.data.version).toBe(version + 1);
      expect(res.json.data.subject).toBe(`نسخة ${version}`);
      version += 1;
    }
  });

  it('refuses a stale version with 409 document.versionConflict and writes nothing', async () => {
    const doc = await draft();
    expect((await edit(org.clerk, doc.id, { subject: 'الأولى' }, `"${doc.version}"`)).status).toBe(200);
    const events = await countRows(h, 'document_events');
    for (const lang of ['en', 'ar'] as const) {
      const stale = await edit(
        org.clerk,
        doc.id,
        { subject: 'قديمة', summary: 'ملخص' },
        `"${doc.version}"`,
        lang,
      );
      expect(stale.status).toBe(409);
      expect(stale.json.code).toBe('document.versionConflict');
      expect(stale.json.params).toEqual({ version: doc.version + 1 });
      // The current version is for the client (params); the words name no internal version number.
      expect(stale.json.detail).not.toMatch(/\d/);
      expect(stale.json.detail).toMatch(lang === 'ar' ? /المعاملة/ : /document was changed/);
    }
    const now = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${doc.id}`,
      token: org.clerk.token,
    });
    expect(now.json.data).toMatchObject({ subject: 'الأولى', summary: null, version: doc.version + 1 });
    expect(await countRows(h, 'document_events')).toBe(events);
  });

  it('refuses a malformed If-Match with 400 naming the header, writing nothing', async () => {
    const doc = await draft();
    for (const bad of ['*', 'W/7', '"7', 'seven', '-1', '1.5', '"1", "2"', '12345678901', 'w/"1"', '']) {
      const res = await edit(org.clerk, doc.id, { subject: 'لا' }, bad);
      expect(res.status, bad).toBe(400);
      expect(res.json.errors['if-match'], bad).toHaveLength(1);
    }
    const now = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${doc.id}`,
      token: org.clerk.token,
    });
    expect(now.json.data.version).toBe(doc.version);
  });

  it('without If-Match edits whatever the version, as before', async () => {
    const doc = await draft();
    await edit(org.clerk, doc.id, { subject: 'أولى' });
    const res = await edit(org.clerk, doc.id, { subject: 'ثانية' });
    expect(res.status).toBe(200);
    expect(res.json.data.version).toBe(doc.version + 2);
  });

  it("answers another user's edit as before (404), whatever the version", async () => {
    const doc = await draft();
    expect((await edit(org.memberA, doc.id, { subject: 'x' }, `"${doc.version + 5}"`)).status).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('names both headers', async () => {
    const doc = (await h.app.inject({ url: '/docs/json' })).json();
    const headers = (op: { parameters?: { in: string; name: string }[] }) =>
      (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headers(doc.paths['/correspondence/documents'].post)).toEqual(['idempotency-key']);
    expect(headers(doc.paths['/correspondence/documents/{id}'].put)).toEqual(['if-match']);
    expect(headers(doc.paths['/correspondence/intake'].post)).toEqual(['idempotency-key']);
  });
});
