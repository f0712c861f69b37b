/**
 * Records management through the API (issue 31 parts 1–4, docs/records.md): a retention schedule, a file
 * closed and past its date on the server's clock (moved, never slept on), a proposal, the proposer's own
 * approval refused and a second person's taken, the destruction: the stored bytes gone from disk, search no
 * longer finding the documents, the certificate listing every destroyed file's SHA-256 (read back with
 * pdftotext). Legal holds refuse every step and the deletion of what they cover. A transfer package read
 * back as RFC 8493 describes, every checksum verified, and its metadata.xml valid against the published
 * XSD (xmllint --schema).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovableClock } from '../../src-server/clock';
import { PAGES } from '../../src-shared/pages';
import { minimalPdf, multipart } from './support/files';
import { call, makeRole, type Harness, startHarness } from './support/harness';
import { actor, letter, organisation, type Actor, type Org } from './support/correspondence';
import { SEARCH_TEST_TIMEOUT_MS, settleSearch } from './support/search';

let h: Harness;
let org: Org;
let rm1: Actor;
let rm2: Actor;
const clock = new MovableClock('2026-03-01T09:00:00Z');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const storedPath = (hash: string) => join(h.filesDir, hash.slice(0, 2), hash.slice(2, 4), hash);

const req = (who: Actor, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  call(h, { method, url, token: who.token, ...(body !== undefined ? { body } : {}) });

async function upload(who: Actor, documentId: number, bytes: Buffer, name = 'letter.pdf') {
  const body = multipart(bytes, name, 'application/pdf');
  const res = await h.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${documentId}/attachments`,
    headers: { ...body.headers, authorization: `Bearer ${who.token}` },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function registered(extra: Record<string, unknown>) {
  const res = await req(org.clerk, 'POST', '/correspondence/documents', {
    ...letter(org, extra),
    register: true,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data as {
    id: number;
    docNumber: string;
    file: { code: string } | null;
    grouping: string | null;
  };
}

async function openFile(code: string, extra: Record<string, unknown> = {}) {
  const res = await req(rm1, 'POST', '/records/files', {
    code,
    titleAr: `ملف ${code}`,
    titleEn: `File ${code}`,
    openedOn: '2026-01-01',
    ...extra,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data.id as number;
}

/**
 * Carries a disposition out as the screen does: the request answers 202 with the disposition executing and
 * its job; the test waits for the job (the harness's worker), then reads the disposition again.
 */
async function carryOut(who: Actor, id: number) {
  const res = await req(who, 'POST', `/records/dispositions/${id}/execute`);
  expect(res.status, JSON.stringify(res.json)).toBe(202);
  expect(res.json.data.state).toBe('executing');
  expect(res.json.data.job).toMatchObject({ id: expect.any(Number) });
  expect(['queued', 'running']).toContain(res.json.data.job.state);
  await h.jobs.drain({ timeoutMs: 120_000 });
  const after = await req(who, 'GET', `/records/dispositions/${id}`);
  expect(after.status).toBe(200);
  return after;
}

const found = async (q: string) => {
  const res = await req(org.clerk, 'GET', `/search?${new URLSearchParams({ q })}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return (res.json.data.items as { documentId: number }[]).map((i) => i.documentId);
};

beforeAll(async () => {
  h = await startHarness({ JOBS_WORKER: '1' }, { clock });
  org = await organisation(h);
  await h.query(`insert into role_page_permissions (role_id, page_id, permissions)
    select u.role_id, p.id, '{view}' from users u, pages p
    where u.id = ${org.clerk.userId} and p.path = '${PAGES.search}'`);
  const role = await makeRole(h, {
    [PAGES.recordFiles]: ['view', 'add', 'edit'],
    [PAGES.retentionSchedules]: ['view', 'edit', 'delete'],
    [PAGES.disposition]: ['view', 'add', 'approve', 'edit'],
    [PAGES.legalHolds]: ['view', 'add', 'delete'],
  } as unknown as Record<string, ('view' | 'add')[]>);
  rm1 = await actor(h, role, null);
  rm2 = await actor(h, role, null);
}, SEARCH_TEST_TIMEOUT_MS);
afterAll(async () => {
  await h?.close();
});

describe('records management', () => {
  it('the records pages are enforced by the server', async () => {
    expect((await req(org.clerk, 'GET', '/records/files')).status).toBe(403);
    expect((await req(org.clerk, 'POST', '/records/holds', { fileId: 1, reason: 'x' })).status).toBe(403);
    expect((await req(rm1, 'GET', '/records/files')).status).toBe(200);
  });

  it(
    'destroys a closed file past its retention, with two people, a certificate and nothing left behind',
    async () => {
      const schedule = await req(org.admin, 'PUT', `/records/schedules/${org.codIn}`, {
        years: 5,
        action: 'destroy',
        legalReference: 'Decree 12/2020 art. 4',
      });
      expect(schedule.status, JSON.stringify(schedule.json)).toBe(200);
      const fileId = await openFile('FIN-2026-01');
      const doc = await registered({ subject: 'Quarzelbrook budget letter', fileId });
      expect(doc.file?.code).toBe('FIN-2026-01');
      expect(doc.grouping).toBe('FIN-2026-01');
      // Older clients name the file by its code in the grouping field.
      const byCode = await registered({ subject: 'Quarzelbrook second letter', grouping: 'fin-2026-01' });
      expect(byCode.file?.code).toBe('FIN-2026-01');
      // The files screen lists its documents (records managers only), in registration order.
      const listed = await req(rm1, 'GET', `/records/files/${fileId}/documents`);
      expect(listed.status, JSON.stringify(listed.json)).toBe(200);
      expect((listed.json.data as { id: number; subject: string }[]).map((d) => [d.id, d.subject])).toEqual([
        [doc.id, 'Quarzelbrook budget letter'],
        [byCode.id, 'Quarzelbrook second letter'],
      ]);
      expect((await req(org.clerk, 'GET', `/records/files/${fileId}/documents`)).status).toBe(403);
      expect((await req(rm1, 'GET', '/records/files/999999/documents')).status).toBe(404);
      const bytes = minimalPdf(`records ${Date.now()}`);
      await upload(org.clerk, doc.id, bytes);
      expect(existsSync(storedPath(sha(bytes)))).toBe(true);
      await settleSearch(h);
      expect(await found('Quarzelbrook')).toEqual(expect.arrayContaining([doc.id, byCode.id]));

      // Closed: it takes no new document, by registration or by a move.
      const closed = await req(rm1, 'POST', `/records/files/${fileId}/close`, { closedOn: '2026-02-01' });
      expect(closed.status, JSON.stringify(closed.json)).toBe(200);
      expect(closed.json.data.retention).toMatchObject({ years: 5, action: 'destroy', dueOn: '2031-02-01' });
      const refused = await req(org.clerk, 'POST', '/correspondence/documents', {
        ...letter(org, { fileId }),
        register: true,
      });
      expect(refused.status).toBe(422);
      expect(refused.json.code).toBe('records.fileClosed');
      const other = await registered({ subject: 'Elsewhere' });
      const move = await req(rm1, 'POST', `/records/files/${fileId}/documents`, { documentId: other.id });
      expect(move.status).toBe(422);
      expect(move.json.code).toBe('records.fileClosed');

      // Not due yet on the server's clock.
      expect((await req(rm1, 'GET', '/records/disposition/due')).json.data).toEqual([]);
      const early = await req(rm1, 'POST', '/records/dispositions', { fileId });
      expect(early.status).toBe(422);
      expect(early.json.code).toBe('records.notDue');
      clock.set('2031-02-01T09:00:00Z');
      const due = await req(rm1, 'GET', '/records/disposition/due');
      expect(due.json.data.map((f: { id: number }) => f.id)).toEqual([fileId]);

      // A hold on one of its documents stops the proposal.
      const hold = await req(rm1, 'POST', '/records/holds', {
        documentId: doc.id,
        reason: 'Court case 44/2031',
      });
      expect(hold.status, JSON.stringify(hold.json)).toBe(201);
      const held = await req(rm1, 'POST', '/records/dispositions', { fileId });
      expect(held.status).toBe(409);
      expect(held.json.code).toBe('records.underHold');
      expect((await req(rm2, 'POST', `/records/holds/${hold.json.data.id}/lift`)).status).toBe(200);

      const proposed = await req(rm1, 'POST', '/records/dispositions', { fileId, note: 'Past retention' });
      expect(proposed.status, JSON.stringify(proposed.json)).toBe(201);
      const id = proposed.json.data.id as number;
      expect(proposed.json.data).toMatchObject({
        action: 'destroy',
        state: 'proposed',
        legalReference: 'Decree 12/2020 art. 4',
      });
      const own = await req(rm1, 'POST', `/records/dispositions/${id}/approve`);
      expect(own.status).toBe(403);
      expect(own.json.code).toBe('records.ownProposal');
      // Not before approval.
      expect((await req(rm1, 'POST', `/records/dispositions/${id}/execute`)).json.code).toBe(
        'records.notApproved',
      );

      // A hold on the file stops the approval and the execution.
      const fileHold = await req(rm2, 'POST', '/records/holds', { fileId, reason: 'Audit' });
      expect((await req(rm2, 'POST', `/records/dispositions/${id}/approve`)).status).toBe(409);
      await req(rm2, 'POST', `/records/holds/${fileHold.json.data.id}/lift`);
      const approved = await req(rm2, 'POST', `/records/dispositions/${id}/approve`);
      expect(approved.status, JSON.stringify(approved.json)).toBe(200);
      expect(approved.json.data.approvedBy.id).toBe(rm2.userId);
      const fileHold2 = await req(rm2, 'POST', '/records/holds', { fileId, reason: 'Audit again' });
      const stopped = await req(rm1, 'POST', `/records/dispositions/${id}/execute`);
      expect(stopped.status).toBe(409);
      expect(stopped.json.code).toBe('records.underHold');
      await req(rm1, 'POST', `/records/holds/${fileHold2.json.data.id}/lift`);

      const done = await carryOut(rm1, id);
      expect(done.json.data).toMatchObject({ state: 'done', job: null, executedBy: { id: rm1.userId } });
      expect(done.json.data.record.map((d: { docNumber: string }) => d.docNumber).sort()).toEqual(
        [doc.docNumber, byCode.docNumber].sort(),
      );
      expect(
        done.json.data.record.flatMap((d: { files: { sha256: string }[] }) => d.files.map((f) => f.sha256)),
      ).toEqual([sha(bytes)]);
      // Gone: the bytes from the store, the documents from search and from the API.
      expect(existsSync(storedPath(sha(bytes)))).toBe(false);
      expect((await req(org.clerk, 'GET', `/correspondence/documents/${doc.id}`)).status).toBe(404);
      await settleSearch(h);
      expect(await found('Quarzelbrook')).toEqual([]);
      const file = await req(rm1, 'GET', `/records/files/${fileId}`);
      expect(file.json.data).toMatchObject({ state: 'destroyed', documents: 0 });

      // The certificate lists every destroyed file's hash, in both languages.
      const cert = await h.app.inject({
        method: 'GET',
        url: `/records/dispositions/${id}/certificate`,
        headers: { authorization: `Bearer ${rm1.token}` },
      });
      expect(cert.statusCode).toBe(200);
      expect(cert.headers['content-type']).toBe('application/pdf');
      const dir = mkdtempSync(join(tmpdir(), 'sijill-cert-'));
      try {
        writeFileSync(join(dir, 'c.pdf'), cert.rawPayload);
        const text = execFileSync('pdftotext', ['-layout', join(dir, 'c.pdf'), '-'], { encoding: 'utf8' });
        expect(text).toContain(sha(bytes));
        expect(text).toContain('Certificate of Destruction');
        expect(text).toContain(doc.docNumber);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }

      // Every step is audited.
      const actions = await h.query<{ action: string }>(
        `select action from audit_log where action like 'records.%' order by id`,
      );
      expect(actions.map((a) => a.action)).toEqual(
        expect.arrayContaining([
          'records.dispositionProposed',
          'records.dispositionApproved',
          'records.dispositionStarted',
          'records.dispositionExecuted',
          'records.holdPlaced',
          'records.holdLifted',
        ]),
      );
    },
    SEARCH_TEST_TIMEOUT_MS,
  );

  it('a legal hold refuses the deletion of a draft and of its attachment, by anyone, until lifted', async () => {
    const fileId = await openFile('HOLD-1');
    const draft = await req(org.clerk, 'POST', '/correspondence/documents', letter(org, { fileId }));
    expect(draft.status).toBe(201);
    const id = draft.json.data.id as number;
    await upload(org.clerk, id, minimalPdf(`held ${Date.now()}`));
    const [att] = (await req(org.clerk, 'GET', `/correspondence/documents/${id}/attachments`)).json.data;
    const hold = await req(rm1, 'POST', '/records/holds', { fileId, reason: 'Investigation' });
    for (const who of [org.clerk, org.admin]) {
      const gone = await req(who, 'DELETE', `/correspondence/documents/${id}/attachments/${att.id}`);
      expect(gone.status).toBe(409);
      expect(gone.json.code).toBe('records.underHold');
      const del = await req(who, 'DELETE', `/correspondence/documents/${id}`);
      expect(del.status).toBe(409);
    }
    expect((await req(rm1, 'POST', `/records/holds/${hold.json.data.id}/lift`)).status).toBe(200);
    expect((await req(rm1, 'POST', `/records/holds/${hold.json.data.id}/lift`)).json.code).toBe(
      'records.alreadyLifted',
    );
    expect((await req(org.clerk, 'DELETE', `/correspondence/documents/${id}`)).status).toBe(200);
  });

  it('transfers a file as a BagIt package that verifies and whose metadata the XSD validates', async () => {
    clock.set('2026-03-02T09:00:00Z');
    const fileId = await openFile('HR-2026-07', {
      retentionYears: 1,
      retentionAction: 'transfer',
      retentionReference: 'Archives Law art. 9',
    });
    const doc = await registered({ subject: 'نقل ملف الموارد البشرية & <أرشيف>', fileId });
    const a = minimalPdf(`transfer a ${Date.now()}`);
    const b = minimalPdf(`transfer b ${Date.now()}`);
    await upload(org.clerk, doc.id, a, 'خطاب.pdf');
    await upload(org.clerk, doc.id, b, 'annex 1.pdf');
    await req(rm1, 'POST', `/records/files/${fileId}/close`, {});
    clock.set('2027-03-02T09:00:00Z');
    const proposed = await req(rm2, 'POST', '/records/dispositions', { fileId });
    expect(proposed.status, JSON.stringify(proposed.json)).toBe(201);
    expect(proposed.json.data.action).toBe('transfer');
    const id = proposed.json.data.id as number;
    expect((await req(rm1, 'POST', `/records/dispositions/${id}/approve`)).status).toBe(200);
    const done = await carryOut(rm2, id);
    expect(done.json.data.state).toBe('done');
    expect((await req(rm1, 'GET', `/records/files/${fileId}`)).json.data.state).toBe('transferred');

    const pkg = await h.app.inject({
      method: 'GET',
      url: `/records/dispositions/${id}/package`,
      headers: { authorization: `Bearer ${rm1.token}` },
    });
    expect(pkg.statusCode).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'sijill-bag-read-'));
    try {
      writeFileSync(join(dir, 'p.tar.gz'), pkg.rawPayload);
      execFileSync('tar', ['-xzf', 'p.tar.gz'], { cwd: dir });
      const bag = join(dir, 'HR-2026-07');
      const read = (p: string) => readFileSync(join(bag, p));
      // RFC 8493 §2.1.1: the declaration, exactly.
      expect(read('bagit.txt').toString('utf8')).toBe(
        'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n',
      );
      const manifest = (p: string) =>
        read(p)
          .toString('utf8')
          .trim()
          .split('\n')
          .map((line) => {
            const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
            expect(m, line).not.toBeNull();
            return { hash: m![1]!, path: m![2]! };
          });
      const payload = manifest('manifest-sha256.txt');
      for (const { hash, path } of payload) {
        expect(path.startsWith('data/')).toBe(true);
        expect(sha(read(path))).toBe(hash);
      }
      const listed = new Set(payload.map((p) => p.path));
      const onDisk = execFileSync('find', ['data', '-type', 'f'], { cwd: bag, encoding: 'utf8' })
        .trim()
        .split('\n');
      expect(new Set(onDisk)).toEqual(listed);
      expect(payload.map((p) => p.hash)).toEqual(expect.arrayContaining([sha(a), sha(b)]));
      const tags = manifest('tagmanifest-sha256.txt');
      expect(tags.map((t) => t.path).sort()).toEqual(['bag-info.txt', 'bagit.txt', 'manifest-sha256.txt']);
      for (const { hash, path } of tags) expect(sha(read(path))).toBe(hash);
      const info = read('bag-info.txt').toString('utf8');
      const bytes = payload.reduce((n, p) => n + read(p.path).length, 0);
      expect(info).toContain(`Payload-Oxum: ${bytes}.${payload.length}`);
      expect(info).toContain('External-Identifier: HR-2026-07');
      const metadata = JSON.parse(read('data/metadata.json').toString('utf8'));
      expect(metadata.documents[0].subject).toBe('نقل ملف الموارد البشرية & <أرشيف>');
      // The XML against the published schema.
      const out = execFileSync(
        'xmllint',
        [
          '--noout',
          '--schema',
          join(process.cwd(), 'docs/schemas/sijill-file.xsd'),
          join(bag, 'data/metadata.xml'),
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      expect(out).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
