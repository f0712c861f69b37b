/**
 * Who read what and the stored files' integrity (issue 31 parts 5–6; src-server/modules/reads): a
 * document opened, an attachment viewed (however many ranges), downloaded and printed make one record
 * each; the lists per document and per user, refused without the audit page's permission; a download of
 * a document above the lowest security level carries the reader's name and the time (read back with
 * pdftotext) while the stored file keeps its SHA-256; the integrity check reports a changed byte and a
 * missing file once, and nothing on a clean store; the lists name a document's number and subject only to
 * a caller who may see it, and the findings say when the check's last pass ended and when it runs next.
 */
import { createHash, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import type { ServerContext } from '../../src-server/context';
import { createLocalFileStore } from '../../src-server/storage/files';
import {
  checkIntegrityBatch,
  queueIntegrityCheck,
  runIntegrityPass,
} from '../../src-server/modules/reads/integrity';
import { watermarkTime } from '../../src-server/modules/reads/service';
import { multipart } from './support/files';
import { call, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { letter, organisation, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
let ctx: ServerContext;
let auditor: string;
/** A registered secret letter and a normal one, each with an A4 attachment. */
const secret = { id: 0, attachmentId: 0, sha256: '' };
const normal = { id: 0, attachmentId: 0, sha256: '' };

async function a4Pdf(text: string, pages = 2): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++)
    pdf.addPage([595, 842]).drawText(`${text} page ${i + 1}`, { x: 60, y: 700, font });
  return Buffer.from(await pdf.save());
}

async function letterWithFile(levelId: number, text: string, into: typeof secret) {
  const doc = await call(h, {
    method: 'POST',
    url: '/correspondence/documents',
    token: org.clerk.token,
    body: { ...letter(org, { securityLevelId: levelId }), register: true },
  });
  expect(doc.status).toBe(201);
  const file = multipart(await a4Pdf(text), `${text}.pdf`, 'application/pdf');
  const up = await h.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${doc.json.data.id}/attachments`,
    headers: { ...file.headers, authorization: `Bearer ${org.clerk.token}` },
    payload: file.payload,
  });
  expect(up.statusCode).toBe(201);
  into.id = doc.json.data.id;
  into.attachmentId = up.json().data.id;
  into.sha256 = up.json().data.sha256;
}

beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
  ctx = { db: h.database.db, config: h.config, files: createLocalFileStore(h.filesDir) } as ServerContext;
  // The clerk may see secret letters.
  await h.query(
    `insert into user_clearances (user_id, security_level_id) values (${org.clerk.userId}, ${org.levels.secret})`,
  );
  await letterWithFile(org.levels.secret, 'secret letter', secret);
  await letterWithFile(org.levels.normal, 'normal letter', normal);
  const role = await makeRole(h, { [PAGES.audit]: ['view'] });
  auditor = await signIn(h, await makeUser(h, role));
});
afterAll(async () => {
  await h?.close();
});

const content = (d: typeof secret) =>
  `/correspondence/documents/${d.id}/attachments/${d.attachmentId}/content`;
const get = (url: string, headers: Record<string, string> = {}, token = org.clerk.token) =>
  h.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, ...headers } });

async function reads(documentId: number, action: string, userId = org.clerk.userId) {
  const rows = await h.query<{ n: number }>(
    `select count(*)::int as n from audit_log where action = '${action}' and target_type = 'document'
        and target_id = '${documentId}' and actor_id = ${userId}`,
  );
  return Number(rows[0]!.n);
}

describe('one record per act of reading', () => {
  it('a view read in several ranges with its token is one record; another view is another', async () => {
    const before = await reads(normal.id, 'documents.attachmentViewed');
    const view = { 'x-sijill-read': randomUUID() };
    const pieces = await Promise.all([
      get(content(normal), { ...view, range: 'bytes=0-99' }),
      get(content(normal), { ...view, range: 'bytes=-100' }),
    ]);
    pieces.push(await get(content(normal), { ...view, range: 'bytes=100-199' }));
    pieces.push(await get(content(normal), { ...view, range: 'bytes=0-49' }));
    expect(pieces.map((p) => p.statusCode)).toEqual([206, 206, 206, 206]);
    expect(await reads(normal.id, 'documents.attachmentViewed')).toBe(before + 1);
    await get(content(normal), { 'x-sijill-read': randomUUID(), range: 'bytes=0-99' });
    expect(await reads(normal.id, 'documents.attachmentViewed')).toBe(before + 2);
  });

  it('without a token: the start of a reading is recorded, later pieces are not', async () => {
    const before = await reads(normal.id, 'documents.attachmentViewed');
    await get(content(normal), { range: 'bytes=100-199' });
    await get(content(normal), { range: 'bytes=-50' });
    expect(await reads(normal.id, 'documents.attachmentViewed')).toBe(before);
    await get(content(normal));
    expect(await reads(normal.id, 'documents.attachmentViewed')).toBe(before + 1);
    const [row] = await h.query<{ ip: string | null; details: Record<string, unknown> }>(
      `select ip, details from audit_log where action = 'documents.attachmentViewed' order by id desc limit 1`,
    );
    expect(row!.ip).toBeTruthy();
    expect(row!.details).toMatchObject({ attachmentId: normal.attachmentId, fileName: 'normal letter.pdf' });
  });

  it('a document opened with its token is recorded once, however often the screen fetches it', async () => {
    const before = await reads(normal.id, 'documents.opened');
    const token = randomUUID();
    for (let i = 0; i < 3; i++)
      expect((await get(`/correspondence/documents/${normal.id}?read=${token}`)).statusCode).toBe(200);
    expect(await reads(normal.id, 'documents.opened')).toBe(before + 1);
    await get(`/correspondence/documents/${normal.id}?read=${randomUUID()}`);
    expect(await reads(normal.id, 'documents.opened')).toBe(before + 2);
    // Someone who may not see the document is answered 404 and nothing is recorded.
    await get(`/correspondence/documents/${normal.id}?read=${randomUUID()}`, {}, org.outsider.token);
    expect(await reads(normal.id, 'documents.opened', org.outsider.userId)).toBe(0);
  });

  it('each download and each print is one record', async () => {
    const base = `/correspondence/documents/${normal.id}/attachments/${normal.attachmentId}`;
    const downloads = await reads(normal.id, 'documents.attachmentDownloaded');
    const prints = await reads(normal.id, 'documents.attachmentPrinted');
    expect((await get(`${base}/download`)).statusCode).toBe(200);
    expect((await get(`${base}/download`)).statusCode).toBe(200);
    expect((await get(`${base}/print`)).statusCode).toBe(200);
    expect(await reads(normal.id, 'documents.attachmentDownloaded')).toBe(downloads + 2);
    expect(await reads(normal.id, 'documents.attachmentPrinted')).toBe(prints + 1);
  });
});

describe('the lists of reads', () => {
  it('per document and per user, for holders of the audit page', async () => {
    const byDoc = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${normal.id}/reads`,
      token: auditor,
    });
    expect(byDoc.status).toBe(200);
    const actions = new Set(byDoc.json.data.items.map((r: { action: string }) => r.action));
    expect(actions).toEqual(
      new Set([
        'documents.opened',
        'documents.attachmentViewed',
        'documents.attachmentDownloaded',
        'documents.attachmentPrinted',
      ]),
    );
    expect(byDoc.json.data.total).toBe(byDoc.json.data.items.length);
    expect(byDoc.json.data.items[0].userId).toBe(org.clerk.userId);
    const byUser = await call(h, {
      method: 'GET',
      url: `/auth/users/${org.clerk.userId}/reads?pageSize=2`,
      token: auditor,
    });
    expect(byUser.status).toBe(200);
    expect(byUser.json.data.items).toHaveLength(2);
    expect(byUser.json.data.total).toBeGreaterThan(2);
  });

  it("name the document's number and subject only to a caller who may see it", async () => {
    // The administrator sees every document: each read names its number and subject.
    const asAdmin = await call(h, {
      method: 'GET',
      url: `/auth/users/${org.clerk.userId}/reads?pageSize=200`,
      token: org.admin.token,
    });
    expect(asAdmin.status).toBe(200);
    const [number] = await h.query<{ doc_number: string }>(
      `select doc_number from documents where id = ${normal.id}`,
    );
    const ofNormal = asAdmin.json.data.items.filter(
      (r: { documentId: number }) => r.documentId === normal.id,
    );
    expect(ofNormal.length).toBeGreaterThan(0);
    for (const r of ofNormal)
      expect(r.document).toMatchObject({
        id: normal.id,
        docNumber: number!.doc_number,
        direction: 'in',
        state: 'registered',
      });
    expect(ofNormal[0].document.subject).toEqual(expect.any(String));
    // The auditor may read the audit but sees none of these letters: the reads stay bare ids.
    const asAuditor = await call(h, {
      method: 'GET',
      url: `/auth/users/${org.clerk.userId}/reads?pageSize=200`,
      token: auditor,
    });
    expect(asAuditor.json.data.items.length).toBe(asAdmin.json.data.items.length);
    for (const r of asAuditor.json.data.items) expect(r.document).toBeNull();
    const byDoc = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${normal.id}/reads`,
      token: auditor,
    });
    expect(byDoc.json.data.items.length).toBeGreaterThan(0);
    for (const r of byDoc.json.data.items) expect(r.document).toBeNull();
  });

  it('are refused without the permission', async () => {
    for (const url of [
      `/correspondence/documents/${normal.id}/reads`,
      `/auth/users/${org.clerk.userId}/reads`,
    ])
      expect((await call(h, { method: 'GET', url, token: org.clerk.token })).status).toBe(403);
  });
});

describe('the watermark', () => {
  it('a download of a secret letter names its reader and the time on every page; the stored file is unchanged', async () => {
    const url = `/correspondence/documents/${secret.id}/attachments/${secret.attachmentId}/download`;
    const before = watermarkTime(new Date(), h.config.ORG_TIME_ZONE);
    const res = await get(url);
    const after = watermarkTime(new Date(), h.config.ORG_TIME_ZONE);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-sijill-watermarked']).toBe('1');
    const [user] = await h.query<{ name_en: string; username: string }>(
      `select name_en, username from users where id = ${org.clerk.userId}`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'sijill-watermark-'));
    try {
      writeFileSync(join(dir, 'copy.pdf'), res.rawPayload);
      const text = execFileSync('pdftotext', ['-layout', join(dir, 'copy.pdf'), '-'], { encoding: 'utf8' });
      const pages = text.split('\f').filter((p) => p.trim());
      expect(pages).toHaveLength(2);
      for (const page of pages) {
        expect(page).toContain(user!.name_en);
        expect(page).toContain(`(${user!.username})`);
        // The time of the copy, to the minute, as the organisation tells it.
        expect(page.includes(before) || page.includes(after)).toBe(true);
        expect(page).toContain('secret letter');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const stored = readFileSync(
      join(h.filesDir, secret.sha256.slice(0, 2), secret.sha256.slice(2, 4), secret.sha256),
    );
    expect(createHash('sha256').update(stored).digest('hex')).toBe(secret.sha256);
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).not.toBe(secret.sha256);
    const [row] = await h.query<{ details: Record<string, unknown> }>(
      `select details from audit_log where action = 'documents.attachmentDownloaded' order by id desc limit 1`,
    );
    expect(row!.details.watermarked).toBe(true);
  });

  it('a letter of the lowest level is sent as stored', async () => {
    const res = await get(
      `/correspondence/documents/${normal.id}/attachments/${normal.attachmentId}/download`,
    );
    expect(res.headers['x-sijill-watermarked']).toBe('0');
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(normal.sha256);
  });
});

describe('the integrity check', () => {
  const pathOf = (sha: string) => join(h.filesDir, sha.slice(0, 2), sha.slice(2, 4), sha);

  it('reports nothing on a clean store', async () => {
    const pass = await runIntegrityPass(ctx);
    expect(pass.checked).toBe(2);
    expect(pass.reported).toEqual([]);
    // No job has run a pass: the list says none is on record, and none is waiting.
    const list = await call(h, { method: 'GET', url: '/auth/integrity', token: auditor });
    expect(list.json.data).toMatchObject({ items: [], total: 0, open: 0, lastPassAt: null, nextRunAt: null });
  });

  it('tells when the last pass ended and when the next runs, from the jobs of the check', async () => {
    await queueIntegrityCheck({ ...ctx, jobs: h.jobs });
    const queued = await call(h, { method: 'GET', url: '/auth/integrity', token: auditor });
    expect(queued.json.data.lastPassAt).toBeNull();
    expect(queued.json.data.nextRunAt).toEqual(expect.any(String));
    const started = Date.now();
    h.jobs.start();
    try {
      await h.jobs.drain({ timeoutMs: 120_000 });
    } finally {
      await h.jobs.stop();
    }
    const after = await call(h, { method: 'GET', url: '/auth/integrity', token: auditor });
    expect(after.json.data.total).toBe(0);
    expect(Date.parse(after.json.data.lastPassAt)).toBeGreaterThanOrEqual(started - 1000);
    // The next pass waits the interval (24 hours by default) after the last ended.
    const wait = Date.parse(after.json.data.nextRunAt) - Date.parse(after.json.data.lastPassAt);
    expect(Math.round(wait / 3600_000)).toBe(h.config.INTEGRITY_CHECK_INTERVAL_HOURS);
  });

  it('resumes from where it got to: a batch at a time in SHA-256 order', async () => {
    const first = await checkIntegrityBatch(ctx, null, 1);
    expect(first.checked).toBe(1);
    expect(first.next).toBe([secret.sha256, normal.sha256].sort()[0]);
    const second = await checkIntegrityBatch(ctx, first.next, 1);
    expect(second.next).toBe([secret.sha256, normal.sha256].sort()[1]);
    expect((await checkIntegrityBatch(ctx, second.next, 1)).checked).toBe(0);
  });

  it('reports a changed byte once: a finding, an audit entry, the administrators told', async () => {
    const path = pathOf(secret.sha256);
    const bytes = readFileSync(path);
    bytes[100] = bytes[100]! ^ 0xff;
    writeFileSync(path, bytes);
    const pass = await runIntegrityPass(ctx);
    expect(pass.reported).toEqual([{ sha256: secret.sha256, problem: 'changed' }]);
    expect((await runIntegrityPass(ctx)).reported).toEqual([]);
    const audit = await h.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'files.integrityFailed' and target_id = '${secret.sha256}'`,
    );
    expect(Number(audit[0]!.n)).toBe(1);
    const told = await h.query<{ user_id: number }>(
      `select user_id from notifications where kind = 'integrityFailed'`,
    );
    expect(told.map((r) => r.user_id)).toContain(org.admin.userId);
    expect(told.map((r) => r.user_id)).not.toContain(org.clerk.userId);
    const list = await call(h, { method: 'GET', url: '/auth/integrity', token: auditor });
    expect(list.status).toBe(200);
    expect(list.json.data).toMatchObject({ total: 1, open: 1 });
    expect(list.json.data.items).toMatchObject([
      {
        sha256: secret.sha256,
        problem: 'changed',
        store: 'local',
        resolvedAt: null,
        documentIds: [secret.id],
        // The auditor sees no letter: the documents holding the file stay bare ids.
        documents: [],
      },
    ]);
    const asAdmin = await call(h, { method: 'GET', url: '/auth/integrity', token: org.admin.token });
    expect(asAdmin.json.data.items[0].documents).toMatchObject([
      { id: secret.id, direction: 'in', state: 'registered', subject: expect.any(String) },
    ]);
    expect((await call(h, { method: 'GET', url: '/auth/integrity', token: org.clerk.token })).status).toBe(
      403,
    );
  });

  it('reports a missing file, and closes a finding once the file is whole again', async () => {
    const path = pathOf(secret.sha256);
    const bytes = readFileSync(path);
    bytes[100] = bytes[100]! ^ 0xff;
    writeFileSync(path, bytes);
    unlinkSync(pathOf(normal.sha256));
    const pass = await runIntegrityPass(ctx);
    expect(pass.reported).toEqual([{ sha256: normal.sha256, problem: 'missing' }]);
    const open = await h.query<{ sha256: string; resolved: boolean }>(
      `select sha256, resolved_at is not null as resolved from integrity_failures order by id`,
    );
    expect(open).toEqual([
      { sha256: secret.sha256, resolved: true },
      { sha256: normal.sha256, resolved: false },
    ]);
    const list = await call(h, { method: 'GET', url: '/auth/integrity', token: auditor });
    expect(list.json.data).toMatchObject({ total: 2, open: 1 });
    expect(list.json.data.items).toMatchObject([
      { sha256: normal.sha256, problem: 'missing', resolvedAt: null },
      { sha256: secret.sha256, problem: 'changed', resolvedAt: expect.any(String) },
    ]);
  });
});
