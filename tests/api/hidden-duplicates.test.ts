/**
 * A content hash never reveals a document the caller may not see (issue 23, item 5). A secret letter holds
 * a file; a clerk of the same archive office without the clearance sends the same bytes every way a hash
 * is compared — intake one file a request and in a batch, to a new draft and to a numbered letter they may
 * see, the attachments route's "also in", the holders route, and the search job that copies the text of a
 * file already read — and is answered as if the file were new: never a 409, never the letter's number or
 * id. Someone who may see the letter still hears of it (409 naming it, listed as a holder, text copied).
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src-server/context';
import type { JobContext } from '../../src-server/jobs/queue';
import { READER_VERSION } from '../../src-server/modules/search/extract';
import { readAttachment } from '../../src-server/modules/search/jobs';
import { createLocalFileStore } from '../../src-server/storage/files';
import { call, startHarness, type Harness } from './support/harness';
import {
  ALL_CORRESPONDENCE,
  actor,
  letter,
  organisation,
  registeredLetter,
  type Actor,
  type Org,
} from './support/correspondence';
import { makeRole } from './support/harness';
import { minimalPdf, multipart } from './support/files';

let h: Harness;
let org: Org;
/** A clerk of the same archive office as org.clerk, without the secret clearance. */
let stranger: Actor;
/** The secret letter, and the file it holds. */
let secret: { id: number; docNumber: string; attachmentId: number };
let bytes: Buffer;
let sha256: string;

let seq = 0;
const newKey = () => `hidden-dup:${Date.now()}:${++seq}`;

function intake(token: string, file: Buffer, opts: { number?: string; key?: string } = {}) {
  const m = multipart(file, 'scan.pdf', 'application/pdf');
  const query = opts.number ? `?number=${encodeURIComponent(opts.number)}` : '';
  return h.app.inject({
    method: 'POST',
    url: `/correspondence/intake${query}`,
    headers: {
      authorization: `Bearer ${token}`,
      'accept-language': 'en',
      'idempotency-key': opts.key ?? newKey(),
      ...m.headers,
    },
    payload: m.payload,
  });
}

/** A batch of files, each with its own key (and the number of a document to file it on, if given). */
function batch(token: string, files: { bytes: Buffer; number?: string }[]) {
  const boundary = `----hidden${randomBytes(6).toString('hex')}`;
  const manifest = {
    files: files.map((f) => ({ key: newKey(), ...(f.number ? { number: f.number } : {}) })),
  };
  const chunks: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="manifest"\r\n\r\n${JSON.stringify(manifest)}\r\n`,
    ),
  ];
  for (const [i, f] of files.entries())
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b${i}.pdf"\r\n` +
          'Content-Type: application/pdf\r\n\r\n',
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return h.app.inject({
    method: 'POST',
    url: '/correspondence/intake/batch',
    headers: {
      authorization: `Bearer ${token}`,
      'accept-language': 'en',
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: Buffer.concat(chunks),
  });
}

/** What a refusal or a result says, as text: where the secret letter's number or id could show. */
const said = (res: { body: string }) => res.body;
const revealsSecret = (text: string) =>
  text.includes(secret.docNumber) || new RegExp(`#${secret.id}\\b|"id":${secret.id}\\b`).test(text);

async function attachTo(token: string, documentId: number, file: Buffer) {
  const m = multipart(file, 'copy.pdf', 'application/pdf');
  return h.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${documentId}/attachments`,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...m.headers },
    payload: m.payload,
  });
}

const holders = (token: string, except?: number) =>
  call(h, {
    method: 'GET',
    url: `/correspondence/documents/holders?sha256=${sha256}${except ? `&except=${except}` : ''}`,
    token,
  });

beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
  const role = await makeRole(h, ALL_CORRESPONDENCE as unknown as Record<string, ('view' | 'add')[]>);
  stranger = await actor(h, role, org.archive);
  // org.clerk may see secret letters; the stranger, of the same archive office, sees normal ones only.
  await h.query(
    `insert into user_clearances (user_id, security_level_id) values (${org.clerk.userId}, ${org.levels.secret})`,
  );
  const made = await call(h, {
    method: 'POST',
    url: '/correspondence/documents',
    token: org.clerk.token,
    body: { ...letter(org, { subject: 'خطاب سري', securityLevelId: org.levels.secret }), register: true },
  });
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  bytes = minimalPdf(`secret ${randomBytes(8).toString('hex')}`);
  sha256 = createHash('sha256').update(bytes).digest('hex');
  const attached = await attachTo(org.clerk.token, made.json.data.id, bytes);
  expect(attached.statusCode, attached.body).toBe(201);
  secret = {
    id: made.json.data.id,
    docNumber: made.json.data.docNumber,
    attachmentId: attached.json().data.id,
  };
  // The stranger may not see it: 404, as for a document that does not exist.
  const look = await call(h, {
    method: 'GET',
    url: `/correspondence/documents/${secret.id}`,
    token: stranger.token,
  });
  expect(look.status).toBe(404);
});
afterAll(async () => {
  await h?.close();
});

describe('a file a hidden document holds', () => {
  it('intake, one file: a new incoming draft of the stranger’s, never a 409; then a duplicate of their own', async () => {
    const res = await intake(stranger.token, bytes);
    expect(res.statusCode, said(res)).toBe(201);
    expect(revealsSecret(said(res))).toBe(false);
    const draft = res.json().data as { documentId: number; attachmentId: number };
    expect(draft.documentId).not.toBe(secret.id);
    // Stored once by content: the draft's file is the same bytes.
    const [row] = await h.query<{ sha256: string; created_by: number }>(
      `select a.sha256, d.created_by from document_attachments a join documents d on d.id = a.document_id
        where a.id = ${draft.attachmentId}`,
    );
    expect(row).toEqual({ sha256, created_by: stranger.userId });
    // Sent again: now a document they see holds it, and the 409 names that one only.
    const again = await intake(stranger.token, bytes);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toContain(`#${draft.documentId}`);
    expect(revealsSecret(said(again))).toBe(false);
    // Their own draft is all the holders route tells them of.
    const listed = await holders(stranger.token);
    expect(listed.json.data.map((d: { id: number }) => d.id)).toEqual([draft.documentId]);
    expect((await holders(stranger.token, draft.documentId)).json.data).toEqual([]);
  });

  it('intake in a batch: made, not refused; a numbered letter they see takes it as an attachment', async () => {
    const fresh = [1, 2].map((n) => minimalPdf(`secret ${n + 1} ${randomBytes(8).toString('hex')}`));
    // A second secret letter holds both files.
    const second = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: { ...letter(org, { subject: 'خطاب سري ٢', securityLevelId: org.levels.secret }), register: true },
    });
    for (const file of fresh)
      expect((await attachTo(org.clerk.token, second.json.data.id, file)).statusCode).toBe(201);
    const open = await registeredLetter(h, org); // normal: the stranger sees it and may file on it
    const res = await batch(stranger.token, [
      { bytes: fresh[0]! },
      { bytes: fresh[1]!, number: open.docNumber },
    ]);
    expect(res.statusCode, said(res)).toBe(200);
    expect(said(res).includes(second.json.data.docNumber)).toBe(false);
    expect(said(res).includes(`#${second.json.data.id}`)).toBe(false);
    const results = res.json().data.results as { status: number; result?: { documentId: number } }[];
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(results[0]!.result!.documentId).not.toBe(second.json.data.id);
    expect(results[1]!.result!.documentId).toBe(open.id);
    // The letter they filed it on now holds it: the next one names that letter, and only that one.
    const again = await intake(stranger.token, fresh[1]!, { number: open.docNumber });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toContain(open.docNumber);
    expect(said(again).includes(second.json.data.docNumber)).toBe(false);
  });

  it('the attachments route says "also in" only of documents they see', async () => {
    const other = minimalPdf(`secret three ${randomBytes(8).toString('hex')}`);
    const hidden = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: { ...letter(org, { securityLevelId: org.levels.secret }), register: true },
    });
    expect((await attachTo(org.clerk.token, hidden.json.data.id, other)).statusCode).toBe(201);
    const draft = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: stranger.token,
      body: letter(org),
    });
    const res = await attachTo(stranger.token, draft.json.data.id, other);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.alsoIn).toEqual([]);
    expect(said(res).includes(String(hidden.json.data.docNumber))).toBe(false);
    // The clerk, who sees the secret letter, is told of it.
    const seen = await attachTo(
      org.clerk.token,
      (
        await call(h, {
          method: 'POST',
          url: '/correspondence/documents',
          token: org.clerk.token,
          body: letter(org),
        })
      ).json.data.id,
      other,
    );
    expect(seen.json().data.alsoIn.map((d: { id: number }) => d.id)).toContain(hidden.json.data.id);
  });

  it('search copies a file’s text only from a document its uploader sees; otherwise it reads it', async () => {
    // As if the secret letter's file had been read already.
    await h.query(`update document_attachments set text_status = 'done', text_pages = 1, text_pages_done = 1
                    where id = ${secret.attachmentId}`);
    await h.query(`insert into attachment_pages (attachment_id, page, method, text, lexemes, reader)
                    values (${secret.attachmentId}, 1, 'text', 'secret words', ''::tsvector, ${READER_VERSION})
                   on conflict do nothing`);
    const ctx = { db: h.database.db, files: createLocalFileStore(h.filesDir) } as unknown as ServerContext;
    /** Runs the read job with its signal already aborted: a copy finishes, a reading stops at once. */
    const read = async (attachmentId: number) => {
      const job: JobContext = {
        id: 0,
        attempt: 1,
        payload: { attachmentId },
        signal: AbortSignal.abort(new Error('not reading in this test')),
        progress: async () => undefined,
        giveWay: async () => undefined,
      };
      const outcome = await readAttachment(ctx, job).then(
        () => 'finished',
        () => 'stopped',
      );
      const [row] = await h.query<{ text_status: string }>(
        `select text_status from document_attachments where id = ${attachmentId}`,
      );
      const pages = await h.query<{ text: string }>(
        `select text from attachment_pages where attachment_id = ${attachmentId}`,
      );
      return { outcome, status: row!.text_status, pages: pages.map((p) => p.text) };
    };
    // The stranger's draft of the same bytes: read anew, nothing copied.
    const strangers = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: stranger.token,
      body: letter(org),
    });
    const theirs = (await attachTo(stranger.token, strangers.json.data.id, bytes)).json().data as {
      id: number;
    };
    expect(await read(theirs!.id)).toEqual({ outcome: 'stopped', status: 'pending', pages: [] });
    // The clerk's copy: the secret letter is theirs to see, so its text is copied.
    const draft = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: letter(org),
    });
    const mine = await attachTo(org.clerk.token, draft.json.data.id, bytes);
    expect(await read(mine.json().data.id)).toEqual({
      outcome: 'finished',
      status: 'done',
      pages: ['secret words'],
    });
  });
});

describe('a file a document the caller sees holds', () => {
  it('is still a duplicate, named, one file or in a batch; and a listed holder', async () => {
    const one = await intake(org.clerk.token, bytes);
    expect(one.statusCode).toBe(409);
    expect(one.json()).toMatchObject({ code: 'intake.duplicate' });
    expect(one.json().detail).toContain(secret.docNumber);
    const res = await batch(org.clerk.token, [{ bytes }]);
    const [result] = res.json().data.results as { status: number; problem: { detail: string } }[];
    expect(result!.status).toBe(409);
    expect(result!.problem.detail).toContain(secret.docNumber);
    expect((await holders(org.clerk.token)).json.data.map((d: { id: number }) => d.id)).toContain(secret.id);
  });
});
