/**
 * Intake in batches (POST /correspondence/intake/batch: a scanning station with a backlog sends what is
 * queued in one request): each file is handled as the single route handles one — made, replayed from its
 * key, or refused — and a refused file never refuses the others; a malformed request makes nothing; two
 * racing batches make each content once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { call, countRows, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { organisation, registeredLetter, type Org } from './support/correspondence';
import { encryptedPdf, largePdf, minimalPdf, pdfWith } from './support/files';

const LIMIT = 64 * 1024;
let h: Harness;
let org: Org;
beforeAll(async () => {
  h = await startHarness({ UPLOAD_MAX_BYTES: String(LIMIT) });
  org = await organisation(h);
});
afterAll(async () => h?.close());

let seq = 0;
const newKey = () => `batch-test:${Date.now()}:${++seq}`;

type Part =
  | { kind: 'manifest'; value: string; contentType?: string }
  | { kind: 'file'; bytes: Buffer; name: string; field?: string }
  | { kind: 'field'; name: string; value: string };

/** A multipart body of parts, in order (the manifest's JSON as text unless given). */
function body(parts: Part[], opts: { truncate?: number } = {}) {
  const boundary = `----sijill${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if (p.kind === 'file')
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.field ?? 'file'}"; filename="${p.name}"\r\n` +
            'Content-Type: application/pdf\r\n\r\n',
        ),
        p.bytes,
        Buffer.from('\r\n'),
      );
    else {
      const name = p.kind === 'manifest' ? 'manifest' : p.name;
      const type = p.kind === 'manifest' && p.contentType ? `Content-Type: ${p.contentType}\r\n` : '';
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n${type}\r\n`),
        Buffer.from(p.value),
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  let payload = Buffer.concat(chunks);
  if (opts.truncate) payload = payload.subarray(0, payload.length - opts.truncate);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

interface Item {
  key?: string;
  number?: string;
  bytes: Buffer;
  name?: string;
}

/** A well-formed batch of `items` (a key made for each unless given). */
function batchOf(items: Item[]) {
  const keyed = items.map((it) => ({ ...it, key: it.key ?? newKey() }));
  const manifest = {
    files: keyed.map((it) => ({ key: it.key, ...(it.number ? { number: it.number } : {}) })),
  };
  return {
    keys: keyed.map((it) => it.key),
    parts: [
      { kind: 'manifest', value: JSON.stringify(manifest) } as Part,
      ...keyed.map((it, i): Part => ({
        kind: 'file',
        bytes: it.bytes,
        name: it.name ?? `scan ${i + 1}.pdf`,
      })),
    ],
  };
}

function post(parts: Part[], opts: { token?: string; lang?: 'ar' | 'en'; truncate?: number } = {}) {
  const b = body(parts, opts);
  return h.app.inject({
    method: 'POST',
    url: '/correspondence/intake/batch',
    headers: {
      authorization: `Bearer ${opts.token ?? org.clerk.token}`,
      'accept-language': opts.lang ?? 'en',
      ...b.headers,
    },
    payload: b.payload,
  });
}

interface Result {
  key: string;
  status: number;
  result?: {
    documentId: number;
    attachmentId: number | null;
    docNumber: string | null;
    subject: string;
    replayed: boolean;
  };
  problem?: { status: number; detail: string; code?: string };
}
const resultsOf = (res: { json(): { data: { results: Result[] } } }) => res.json().data.results;

const rowCounts = async () => ({
  documents: await countRows(h, 'documents'),
  attachments: await countRows(h, 'document_attachments'),
  receipts: await countRows(h, 'intake_receipts'),
  events: await countRows(h, 'document_events'),
});

describe('intake in batches', () => {
  it('makes a draft of each file, in order, with its file and timeline; the same batch again replays it', async () => {
    const before = await rowCounts();
    const names = ['وارد 1.pdf', 'scan 0002.pdf', 'مذكرة ٣.pdf'];
    const files = names.map((name) => ({ name, bytes: minimalPdf(`${name} ${newKey()}`) }));
    const batch = batchOf(files);
    const first = await post(batch.parts);
    expect(first.statusCode).toBe(200);
    expect(first.json().returnMessage).toBe('Files received: 3 of 3');
    const made = resultsOf(first);
    expect(made.map((r) => [r.key, r.status])).toEqual(batch.keys.map((k) => [k, 201]));
    expect(made.map((r) => r.result!.subject)).toEqual(['وارد 1', 'scan 0002', 'مذكرة ٣']);
    expect(new Set(made.map((r) => r.result!.documentId)).size).toBe(3);

    for (const [i, r] of made.entries()) {
      const doc = await call(h, {
        method: 'GET',
        url: `/correspondence/documents/${r.result!.documentId}`,
        token: org.clerk.token,
      });
      expect(doc.json.data).toMatchObject({ direction: 'in', state: 'draft', subject: r.result!.subject });
      const attachments = await h.query<{ id: number; file_name: string; size: number }>(
        `select id::int as id, file_name, size::int as size from document_attachments where document_id = ${r.result!.documentId}`,
      );
      expect(attachments).toEqual([
        { id: r.result!.attachmentId, file_name: names[i], size: files[i]!.bytes.length },
      ]);
      const timeline = await call(h, {
        method: 'GET',
        url: `/correspondence/documents/${r.result!.documentId}/timeline`,
        token: org.clerk.token,
      });
      expect(
        (timeline.json.data as { event: string; details: object }[]).map((e) => [e.event, e.details]),
      ).toEqual([
        ['created', { direction: 'in', intake: names[i] }],
        [
          'attachmentAdded',
          { attachmentId: r.result!.attachmentId, fileName: names[i], size: files[i]!.bytes.length },
        ],
      ]);
    }
    // The drafts were made in the batch's order.
    const ids = made.map((r) => r.result!.documentId);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(await rowCounts()).toEqual({
      documents: before.documents + 3,
      attachments: before.attachments + 3,
      receipts: before.receipts + 3,
      events: before.events + 6,
    });

    // The same batch again (a station that lost the answer): every file replayed, nothing made.
    const again = await post(batchOf(files.map((f, i) => ({ ...f, key: batch.keys[i] }))).parts);
    expect(resultsOf(again)).toEqual(
      made.map((r) => ({ ...r, status: 200, result: { ...r.result, replayed: true } })),
    );
    // Half known, half new: the known replayed, the new one made.
    const fresh = { name: 'late.pdf', bytes: minimalPdf(`late ${newKey()}`) };
    const mixed = await post(batchOf([{ ...files[0]!, key: batch.keys[0] }, fresh]).parts);
    expect(resultsOf(mixed).map((r) => [r.status, r.result?.replayed])).toEqual([
      [200, true],
      [201, false],
    ]);
    expect((await rowCounts()).documents).toBe(before.documents + 4);
  });

  it('a key sent with another file is refused for that file alone (422); one first sent alone replays', async () => {
    const files = [0, 1, 2].map((n) => ({
      name: `keyed ${n}.pdf`,
      bytes: minimalPdf(`keyed ${n} ${newKey()}`),
    }));
    const batch = batchOf(files);
    expect(resultsOf(await post(batch.parts)).map((r) => r.status)).toEqual([201, 201, 201]);
    const before = await rowCounts();
    const swapped = minimalPdf(`swapped ${newKey()}`);
    const fresh = { name: 'fresh.pdf', bytes: minimalPdf(`fresh ${newKey()}`) };
    const res = await post(
      batchOf([
        { ...files[0]!, key: batch.keys[0] }, // the same file: replayed
        { ...files[1]!, bytes: swapped, key: batch.keys[1] }, // another file under its key
        { ...files[2]!, name: 'renamed.pdf', key: batch.keys[2] }, // another name under its key
        fresh,
      ]).parts,
      { lang: 'ar' },
    );
    expect(res.statusCode).toBe(200);
    const results = resultsOf(res);
    expect(results.map((r) => [r.status, r.problem?.code ?? null])).toEqual([
      [200, null],
      [422, 'idempotency.keyReused'],
      [422, 'idempotency.keyReused'],
      [201, null],
    ]);
    expect(results[1]!.problem!.detail).toContain('استُخدم مفتاح عدم التكرار');
    expect(await rowCounts()).toEqual({
      documents: before.documents + 1,
      attachments: before.attachments + 1,
      receipts: before.receipts + 1,
      events: before.events + 2,
    });

    // A file sent alone (POST /correspondence/intake), then retried in a batch: one operation, replayed.
    const alone = { name: 'alone.pdf', bytes: minimalPdf(`alone ${newKey()}`), key: newKey() };
    const b = body([{ kind: 'file', bytes: alone.bytes, name: alone.name }]);
    const single = await h.app.inject({
      method: 'POST',
      url: '/correspondence/intake',
      headers: {
        authorization: `Bearer ${org.clerk.token}`,
        'idempotency-key': alone.key,
        ...b.headers,
      },
      payload: b.payload,
    });
    expect(single.statusCode, single.body).toBe(201);
    const retried = resultsOf(await post(batchOf([alone]).parts));
    expect(retried.map((r) => [r.status, r.result?.documentId])).toEqual([
      [200, single.json().data.documentId],
    ]);
  });

  it('refuses a file for its own reason and makes the others', async () => {
    const { id: numberedId, docNumber } = await registeredLetter(h, org);
    const archived = minimalPdf(`archived ${newKey()}`);
    const held = resultsOf(await post(batchOf([{ bytes: archived }]).parts))[0]!.result!;
    const twin = minimalPdf(`twin ${newKey()}`);
    const before = await rowCounts();
    const items: Item[] = [
      { bytes: minimalPdf(`good one ${newKey()}`), name: 'good 1.pdf' },
      { bytes: Buffer.from('plain text, not a PDF at all '.repeat(80)), name: 'note.pdf' },
      { bytes: encryptedPdf(), name: 'locked.pdf' },
      {
        bytes: pdfWith({
          catalog: '/OpenAction 5 0 R',
          objects: ['<< /S /JavaScript /JS (app.alert(1)) >>'],
        }),
        name: 'script.pdf',
      },
      { bytes: largePdf(0.1), name: 'huge.pdf' },
      { bytes: archived, name: 'again.pdf' },
      { bytes: twin, name: 'twin a.pdf' },
      { bytes: twin, name: 'twin b.pdf' },
      { bytes: minimalPdf(`annex ${newKey()}`), name: `${docNumber} annex.pdf`, number: docNumber },
      { bytes: minimalPdf(`nowhere ${newKey()}`), name: 'IN-1999-000001.pdf', number: 'IN-1999-000001' },
      { bytes: minimalPdf(`good two ${newKey()}`), name: 'good 2.pdf' },
    ];
    const res = await post(batchOf(items).parts);
    expect(res.statusCode, res.body).toBe(200);
    const results = resultsOf(res);
    expect(results.map((r) => r.status)).toEqual([201, 415, 415, 422, 413, 409, 201, 409, 201, 404, 201]);
    for (const r of results) if (r.problem) expect(r.problem.status).toBe(r.status);
    expect(results[1]!.problem!.detail).toMatch(/valid PDF/);
    expect(results[3]!.problem!.code).toBe('upload.activeContent');
    expect(results[4]!.problem!.detail).toContain('64');
    expect(results[5]!.problem!.detail).toContain(`#${held.documentId}`);
    expect(results[7]!.problem!.detail).toContain(`#${results[6]!.result!.documentId}`);
    expect(results[8]!.result).toMatchObject({ documentId: numberedId, docNumber, replayed: false });
    expect(results[9]!.problem!.detail).toContain('IN-1999-000001');
    expect(res.json().returnMessage).toBe('Files received: 4 of 11');
    const after = await rowCounts();
    expect(after.documents).toBe(before.documents + 3);
    expect(after.attachments).toBe(before.attachments + 4);
    expect(after.receipts).toBe(before.receipts + 4);

    // In Arabic, the refusals say why in Arabic.
    const ar = resultsOf(await post(batchOf([{ bytes: archived }]).parts, { lang: 'ar' }));
    expect(ar[0]!.problem!.detail).toContain('موجود في الأرشيف');
  });

  it('asks access before a byte is read: a reader is refused file by file, and makes nothing', async () => {
    const reader = await signIn(h, await makeUser(h, await makeRole(h, { [PAGES.incoming]: ['view'] })));
    const { docNumber } = await registeredLetter(h, org);
    const before = await rowCounts();
    const res = await post(
      batchOf([
        { bytes: minimalPdf(`r1 ${newKey()}`) },
        { bytes: minimalPdf(`r2 ${newKey()}`), number: docNumber },
        { bytes: minimalPdf(`r3 ${newKey()}`) },
      ]).parts,
      { token: reader },
    );
    expect(res.statusCode).toBe(200);
    const statuses = resultsOf(res).map((r) => r.status);
    expect(statuses[0]).toBe(403);
    expect(statuses[2]).toBe(403);
    expect([403, 404]).toContain(statuses[1]);
    expect(await rowCounts()).toEqual(before);
    expect(
      (await post(batchOf([{ bytes: minimalPdf('x') }]).parts, { token: 'not-a-token' })).statusCode,
    ).toBe(401);
  });

  it('a malformed batch is a 400 that makes nothing, however it is malformed', async () => {
    const ok = () => ({ bytes: minimalPdf(`bad batch ${newKey()}`) });
    const manifestOf = (files: unknown) => ({ kind: 'manifest', value: JSON.stringify({ files }) }) as Part;
    const file = (): Part => ({ kind: 'file', bytes: ok().bytes, name: 'a.pdf' });
    const key = () => ({ key: newKey() });
    const two = batchOf([ok(), ok()]);
    const sameKey = newKey();
    const cases: [string, Part[], { truncate?: number }?][] = [
      ['no manifest', [file()]],
      ['an empty body', []],
      ['a manifest that is not JSON', [{ kind: 'manifest', value: '{files:' }, file()]],
      [
        'a manifest that is not JSON, sent as JSON',
        [{ kind: 'manifest', value: '{files:', contentType: 'application/json' }, file()],
      ],
      ['no files in the manifest', [manifestOf([]), file()]],
      ['a bad key', [manifestOf([{ key: 'short' }]), file()]],
      ['an unknown field', [manifestOf([{ ...key(), path: '/etc/passwd' }]), file()]],
      ['one key twice', [manifestOf([{ key: sameKey }, { key: sameKey }]), file(), file()]],
      ['too many files', [manifestOf(Array.from({ length: 65 }, key)), file()]],
      ['fewer files than announced', [manifestOf([key(), key()]), file()]],
      ['more files than announced', [manifestOf([key()]), file(), file()]],
      ['a field where a file should be', [manifestOf([key()]), { kind: 'field', name: 'file', value: 'x' }]],
      [
        'a file under another name',
        [manifestOf([key()]), { kind: 'file', bytes: ok().bytes, name: 'a.pdf', field: 'scan' }],
      ],
      ['a second field', [two.parts[0]!, { kind: 'field', name: 'note', value: 'x' }, ...two.parts.slice(1)]],
      ['the body cut short', two.parts, { truncate: 400 }],
    ];
    const before = await rowCounts();
    for (const [label, parts, opts] of cases) {
      const res = await post(parts, opts);
      expect.soft(res.statusCode, label).toBe(400);
      expect.soft(res.headers['content-type'], label).toMatch(/problem\+json/);
    }
    const notMultipart = await h.app.inject({
      method: 'POST',
      url: '/correspondence/intake/batch',
      headers: { authorization: `Bearer ${org.clerk.token}`, 'content-type': 'application/json' },
      payload: '{"files":[]}',
    });
    expect(notMultipart.statusCode).toBe(400);
    expect(await rowCounts()).toEqual(before);
    // The manifest's field errors are named.
    const bad = await post([manifestOf([{ key: 'short' }]), file()]);
    expect(Object.keys(bad.json().errors)).toEqual(['manifest.files.0.key']);
  });

  it('two racing batches: the same keys make each file once; the same contents under other keys, once', async () => {
    const before = await countRows(h, 'documents');
    const files = [0, 1, 2, 3].map((i) => ({ bytes: minimalPdf(`race ${i} ${newKey()}`) }));
    const batch = batchOf(files);
    const retries = await Promise.all([post(batch.parts), post(batch.parts), post(batch.parts)]);
    const byFile = files.map((_, i) => retries.map((r) => resultsOf(r)[i]!));
    for (const answers of byFile) {
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 201]);
      expect(new Set(answers.map((a) => a.result!.documentId)).size).toBe(1);
    }
    const others = [4, 5, 6].map((i) => ({ bytes: minimalPdf(`race ${i} ${newKey()}`) }));
    const racing = await Promise.all([
      post(batchOf(others).parts),
      post(batchOf([...others].reverse()).parts),
    ]);
    const statuses = racing.flatMap((r) => resultsOf(r).map((x) => x.status)).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409]);
    expect(await countRows(h, 'documents')).toBe(before + 7);
  });
});
