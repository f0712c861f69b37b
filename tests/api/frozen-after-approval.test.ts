/**
 * Frozen after approval (issue 23, item 4): an approved letter or memo is what was approved. Every route
 * that changes a document's content or attachments, through the API: attaching (refused, 422, localised —
 * and nothing received is kept), the additions after approval (a signed copy, a delivery receipt: kept
 * apart, in the timeline, version, approvals and number untouched; only its archive office; never on a
 * draft), removing an attachment (content or addition: refused), editing and deleting (refused), links
 * (a later one is an addition, one it was approved with stays, from either end; a document in its circuit
 * takes none), intake by number, single and batch (the scan becomes the signed copy instead of being
 * refused). A registered incoming letter keeps its rules: its scans are its content, added after
 * registration, never removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { call, countRows, makeRole, startHarness, type Harness } from './support/harness';
import {
  ALL_CORRESPONDENCE,
  actor,
  department,
  registeredLetter,
  type Actor,
  type Org,
} from './support/correspondence';
import { minimalPdf, multipart } from './support/files';

let h: Harness;

interface World {
  author: Actor;
  minister: Actor;
  clerk: Actor;
  admin: Actor;
  archive: number;
  ministry: number;
  hr: number;
  receiver: number;
  codOut: number;
  codMemo: number;
  org: Org;
}
let w: World;

const ROLE = {
  ...ALL_CORRESPONDENCE,
  [PAGES.outgoing]: ['view', 'edit', 'delete', 'distribute', 'export'],
  [PAGES.outboxDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.outboxAdd]: ['view', 'add'],
  [PAGES.outboxAwaitingApproval]: ['view'],
  [PAGES.outboxRequiringApproval]: ['view', 'approve'],
  [PAGES.approvedMemos]: ['view', 'distribute'],
  [PAGES.memoDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.memoAdd]: ['view', 'add'],
  [PAGES.memosAwaitingApproval]: ['view'],
  [PAGES.memosRequiringApproval]: ['view', 'approve'],
} as const;

const get = (who: Actor, url: string) => call(h, { method: 'GET', url, token: who.token });
const post = (who: Actor, url: string, body?: unknown, lang?: 'ar' | 'en') =>
  call(h, {
    method: 'POST',
    url,
    token: who.token,
    ...(body !== undefined ? { body } : {}),
    ...(lang ? { lang } : {}),
  });
const del = (who: Actor, url: string, lang?: 'ar' | 'en') =>
  call(h, { method: 'DELETE', url, token: who.token, ...(lang ? { lang } : {}) });
const doc = (id: number) => `/correspondence/documents/${id}`;

let seq = 0;
/** Sends a PDF (its content unique) to `url` as `who`. */
async function upload(
  who: Actor,
  url: string,
  opts: { lang?: 'ar' | 'en'; key?: string; name?: string } = {},
) {
  seq += 1;
  const file = multipart(
    minimalPdf(`frozen ${seq} ${Date.now()}`),
    opts.name ?? `scan ${seq}.pdf`,
    'application/pdf',
  );
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers: {
      ...file.headers,
      authorization: `Bearer ${who.token}`,
      'accept-language': opts.lang ?? 'en',
      ...(opts.key ? { 'idempotency-key': opts.key } : {}),
    },
    payload: file.payload,
  });
  return { status: res.statusCode, json: res.json() };
}

beforeAll(async () => {
  h = await startHarness();
  const role = await makeRole(h, ROLE as unknown as Record<string, ('view' | 'add')[]>);
  const admin = await actor(h, 'admin', null);
  const archive = await department(h, 'الأرشيف', { archive: true });
  const ministry = await department(h, 'الوزارة', { archiveOfficeId: archive });
  const hr = await department(h, 'الموارد البشرية', { archiveOfficeId: archive });
  await h.query(`update departments set is_entity = true where id = ${ministry}`);
  await h.query(`update departments set parent_id = ${ministry} where id in (${hr}, ${archive})`);
  const receiver = await department(h, 'ديوان المحاسبة', { type: 'external' });
  const author = await actor(h, role, hr);
  const minister = await actor(h, role, ministry);
  const clerk = await actor(h, role, archive);
  await h.query(`update departments set manager_employee_id = ${minister.employeeId} where id = ${ministry}`);
  const setting = async (list: string, body: Record<string, unknown>) => {
    const res = await post(admin, `/correspondence/settings/${list}`, body);
    if (res.status !== 201) throw new Error(`${list}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.data.id as number;
  };
  const codOut = await setting('codifications', {
    nameAr: 'صادر',
    nameEn: 'Out',
    prefix: 'FZO',
    direction: 'out',
  });
  const codMemo = await setting('codifications', {
    nameAr: 'مذكرة',
    nameEn: 'Memo',
    prefix: 'FZM',
    direction: 'memo',
  });
  const codIn = await setting('codifications', {
    nameAr: 'وارد',
    nameEn: 'In',
    prefix: 'FZI',
    direction: 'in',
  });
  const normal = await setting('security-levels', { nameAr: 'عادي', nameEn: 'Normal', level: 1 });
  const priority = await setting('priorities', { nameAr: 'عاجل', nameEn: 'Urgent', level: 2 });
  const medium = await setting('mediums', { nameAr: 'بريد', nameEn: 'Post' });
  // Enough of an organisation for `registeredLetter`: the clerk registers for HR.
  const org = {
    admin,
    archive,
    deptA: hr,
    deptB: ministry,
    sender: receiver,
    clerk,
    codIn,
    levels: { normal, secret: normal },
    priority,
    medium,
  } as unknown as Org;
  w = { author, minister, clerk, admin, archive, ministry, hr, receiver, codOut, codMemo, org };
});
afterAll(async () => {
  await h?.close();
});

/** An outgoing letter (or memo) with one attachment and a link, approved and numbered by the minister. */
async function approved(direction: 'out' | 'memo' = 'out', relatedIds: number[] = []) {
  const made = await post(w.author, '/correspondence/documents', {
    direction,
    subject: direction === 'out' ? 'خطاب معتمد' : 'مذكرة معتمدة',
    codificationId: direction === 'out' ? w.codOut : w.codMemo,
    recipientIds: [direction === 'out' ? w.receiver : w.hr],
    relatedIds,
  });
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  const id = made.json.data.id as number;
  expect((await upload(w.author, `${doc(id)}/attachments`, { name: 'letter.pdf' })).status).toBe(201);
  const v = (await get(w.author, doc(id))).json.data.version as number;
  expect(
    (await post(w.author, `${doc(id)}/submit`, { steps: [{ userIds: [w.minister.userId] }], version: v }))
      .status,
  ).toBe(200);
  const signed = await post(w.minister, `${doc(id)}/approval`, { action: 'approve', version: v });
  expect(signed.status, JSON.stringify(signed.json)).toBe(200);
  return { id, docNumber: signed.json.data.docNumber as string, version: v };
}

/** What must not change once approved: the version, number, approvals and the content's attachments. */
async function approvedState(id: number) {
  const [d] = await h.query(
    `select version, doc_number, state, approved_at::text as approved_at from documents where id = ${id}`,
  );
  const members = await h.query(
    `select user_id, decision, decided_version, decided_at::text as decided_at from approval_members where document_id = ${id} order by id`,
  );
  const content = await h.query(
    `select id, sha256 from document_attachments where document_id = ${id} and kind = 'content' order by id`,
  );
  return { d, members, content };
}

describe('an approved document’s content', () => {
  it('takes no attachment as content, by any route that attaches, and keeps nothing of a refused one', async () => {
    for (const direction of ['out', 'memo'] as const) {
      const { id } = await approved(direction);
      const before = await approvedState(id);
      const files = await countRows(h, 'document_attachments');
      const events = await countRows(h, 'document_events');
      const who = direction === 'out' ? w.clerk : w.admin;
      const en = await upload(who, `${doc(id)}/attachments`);
      expect(en.status, JSON.stringify(en.json)).toBe(422);
      expect(en.json.code).toBe('correspondence.approvedFrozen');
      expect(en.json.detail).toContain('approved');
      const ar = await upload(who, `${doc(id)}/attachments`, { lang: 'ar' });
      expect(ar.json.detail).toContain('معتمدة');
      expect(await countRows(h, 'document_attachments')).toBe(files);
      expect(await countRows(h, 'document_events')).toBe(events);
      expect(await approvedState(id)).toEqual(before);
    }
  });

  it('is neither edited nor deleted, and its attachments are not removed', async () => {
    const { id } = await approved();
    const addition = await upload(w.clerk, `${doc(id)}/additions/deliveryReceipt`);
    expect(addition.status).toBe(201);
    const before = await approvedState(id);
    const edit = await call(h, {
      method: 'PUT',
      url: doc(id),
      token: w.author.token,
      lang: 'en',
      body: { subject: 'x' },
    });
    expect(edit.status).toBe(422);
    expect(edit.json.code).toBe('correspondence.approvedFrozen');
    expect((await del(w.author, doc(id))).json.code).toBe('correspondence.approvedFrozen');
    const [content] = before.content as { id: number }[];
    for (const who of [w.clerk, w.author, w.admin]) {
      const gone = await del(who, `${doc(id)}/attachments/${content!.id}`, 'en');
      expect(gone.status).toBe(422);
      expect(gone.json.code).toBe('correspondence.approvedFrozen');
      const kept = await del(who, `${doc(id)}/attachments/${addition.json.data.id}`, 'ar');
      expect(kept.status).toBe(422);
      expect(kept.json.code).toBe('correspondence.additionKept');
      expect(kept.json.detail).toContain('بعد الاعتماد');
    }
    expect(await approvedState(id)).toEqual(before);
    expect((await get(w.clerk, doc(id))).json.data.attachments).toHaveLength(2);
  });
});

describe('additions after approval', () => {
  it('keep the approved version: apart, with their kind, in the timeline; by its archive office only', async () => {
    const { id, docNumber, version } = await approved();
    const before = await approvedState(id);
    const view = (await get(w.clerk, doc(id))).json.data;
    expect(view.abilities.addAfterApproval).toBe(true);
    expect((await get(w.author, doc(id))).json.data.abilities.addAfterApproval).toBe(false);

    const signed = await upload(w.clerk, `${doc(id)}/additions/signedCopy`, { name: 'النسخة الموقعة.pdf' });
    expect(signed.status, JSON.stringify(signed.json)).toBe(201);
    expect(signed.json.data).toMatchObject({ kind: 'signedCopy', fileName: 'النسخة الموقعة.pdf' });
    expect(signed.json.returnMessage).toBe('Added after approval');
    const receipt = await upload(w.clerk, `${doc(id)}/additions/deliveryReceipt`);
    expect(receipt.json.data.kind).toBe('deliveryReceipt');

    const after = (await get(w.clerk, doc(id))).json.data;
    expect(after).toMatchObject({ version, docNumber, state: 'approved' });
    expect(after.attachments.map((a: { kind: string }) => a.kind)).toEqual([
      'content',
      'signedCopy',
      'deliveryReceipt',
    ]);
    expect(await approvedState(id)).toEqual(before);
    const events = (await get(w.clerk, `${doc(id)}/timeline`)).json.data as {
      event: string;
      details: Record<string, unknown>;
    }[];
    expect(events.filter((e) => e.event === 'addedAfterApproval').map((e) => e.details.kind)).toEqual([
      'signedCopy',
      'deliveryReceipt',
    ]);
    expect(events.at(-1)!.details).toMatchObject({
      attachmentId: receipt.json.data.id,
      kind: 'deliveryReceipt',
    });

    // Not by the author (not its archive office); not a kind that is not one; not on what is not approved.
    const author = await upload(w.author, `${doc(id)}/additions/signedCopy`);
    expect(author.status).toBe(422);
    expect(author.json.code).toBe('correspondence.notArchiveOffice');
    expect((await upload(w.clerk, `${doc(id)}/additions/content`)).status).toBe(400);
    const draft = await post(w.author, '/correspondence/documents', {
      direction: 'out',
      subject: 'مسودة',
      codificationId: w.codOut,
      recipientIds: [w.receiver],
    });
    const early = await upload(w.author, `${doc(draft.json.data.id)}/additions/signedCopy`);
    expect(early.status).toBe(422);
    expect(early.json.code).toBe('correspondence.additionBeforeApproval');
    const letter = await registeredLetter(h, w.org);
    const incoming = await upload(w.clerk, `${doc(letter.id)}/additions/deliveryReceipt`);
    expect(incoming.status).toBe(422);
    expect(incoming.json.code).toBe('correspondence.additionBeforeApproval');
  });

  it('reach an approved memo too (its archive office: here the administrator)', async () => {
    const { id, version } = await approved('memo');
    const res = await upload(w.admin, `${doc(id)}/additions/other`);
    expect(res.status).toBe(201);
    expect((await get(w.admin, doc(id))).json.data.version).toBe(version);
  });
});

describe('intake by number', () => {
  it('files a scan of an approved letter or memo as its signed copy, single and batch; the approved version stays', async () => {
    const letter = await approved();
    const memo = await approved('memo');
    const before = [await approvedState(letter.id), await approvedState(memo.id)];
    const single = await upload(w.clerk, `/correspondence/intake?number=${letter.docNumber}`, {
      key: `k-${Date.now()}`,
    });
    expect(single.status, JSON.stringify(single.json)).toBe(201);
    expect(single.json.data).toMatchObject({ documentId: letter.id, docNumber: letter.docNumber });

    const boundary = `----frozen${Date.now()}`;
    const manifest = {
      files: [letter, memo].map((d, i) => ({ key: `batch-${i}-${Date.now()}`, number: d.docNumber })),
    };
    const chunks: Buffer[] = [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="manifest"\r\n\r\n${JSON.stringify(manifest)}\r\n`,
      ),
    ];
    for (const [i, d] of [letter, memo].entries())
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${d.docNumber}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        minimalPdf(`batch file ${i} ${Date.now()}`),
        Buffer.from('\r\n'),
      );
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const batch = await h.app.inject({
      method: 'POST',
      url: '/correspondence/intake/batch',
      headers: {
        authorization: `Bearer ${w.admin.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat(chunks),
    });
    expect(batch.statusCode).toBe(200);
    expect(batch.json().data.results.map((r: { status: number }) => r.status)).toEqual([201, 201]);

    const kinds = async (id: number) =>
      (
        await h.query<{ kind: string }>(
          `select kind from document_attachments where document_id = ${id} order by id`,
        )
      ).map((r) => r.kind);
    expect(await kinds(letter.id)).toEqual(['content', 'signedCopy', 'signedCopy']);
    expect(await kinds(memo.id)).toEqual(['content', 'signedCopy']);
    expect([await approvedState(letter.id), await approvedState(memo.id)]).toEqual(before);
    const events = (await get(w.clerk, `${doc(letter.id)}/timeline`)).json.data as { event: string }[];
    expect(events.filter((e) => e.event === 'addedAfterApproval')).toHaveLength(2);
    expect(events.filter((e) => e.event === 'attachmentAdded')).toHaveLength(1);
  });

  it('files a scan of a registered incoming letter as its content, as before; its attachments stay', async () => {
    const letter = await registeredLetter(h, w.org);
    const res = await upload(w.clerk, `/correspondence/intake?number=${letter.docNumber}`, {
      key: `in-${Date.now()}`,
    });
    expect(res.status).toBe(201);
    const direct = await upload(w.clerk, `${doc(letter.id)}/attachments`);
    expect(direct.status).toBe(201);
    const files = (await get(w.clerk, doc(letter.id))).json.data.attachments as {
      id: number;
      kind: string;
    }[];
    expect(files.map((f) => f.kind)).toEqual(['content', 'content']);
    const gone = await del(w.clerk, `${doc(letter.id)}/attachments/${files[0]!.id}`, 'en');
    expect(gone.status).toBe(422);
    expect(gone.json.code).toBe('correspondence.notDraft');
    const events = (await get(w.clerk, `${doc(letter.id)}/timeline`)).json.data as { event: string }[];
    expect(events.filter((e) => e.event === 'attachmentAdded')).toHaveLength(2);
  });
});

describe('links', () => {
  it('a link it was approved with stays, from either end; a later one is an addition, and may go again', async () => {
    const incoming = await registeredLetter(h, w.org);
    // Distributed to the author's department for knowledge, so its author sees it and replies to it.
    const given = await post(w.clerk, `${doc(incoming.id)}/distribution`, {
      items: [{ departmentId: w.hr, type: 'forKnowledge' }],
    });
    expect(given.status, JSON.stringify(given.json)).toBe(200);
    const { id } = await approved('out', [incoming.id]);
    for (const [who, from, to] of [
      [w.clerk, id, incoming.id],
      [w.clerk, incoming.id, id],
    ] as const) {
      const res = await del(who, `${doc(from)}/related/${to}`, 'en');
      expect(res.status, `${from} → ${to}`).toBe(422);
      expect(res.json.code).toBe('correspondence.approvedFrozen');
    }
    // A later document (an incoming reply) linked from its own side: the approved letter takes it as an addition.
    const reply = await registeredLetter(h, w.org);
    const linked = await post(w.clerk, `${doc(reply.id)}/related`, { documentIds: [id] });
    expect(linked.status, JSON.stringify(linked.json)).toBe(200);
    const events = (await get(w.clerk, `${doc(id)}/timeline`)).json.data as {
      event: string;
      details: Record<string, unknown>;
    }[];
    expect(events.filter((e) => e.event === 'related').at(-1)!.details).toEqual({
      documentId: reply.id,
      afterApproval: true,
    });
    expect((await get(w.clerk, doc(id))).json.data.version).toBe((await approvedState(id)).d!.version);
    expect((await del(w.clerk, `${doc(id)}/related/${reply.id}`)).status).toBe(200);
  });

  it('a document in its circuit takes no link from the other end either', async () => {
    const made = await post(w.author, '/correspondence/documents', {
      direction: 'out',
      subject: 'في مسار الاعتماد',
      codificationId: w.codOut,
      recipientIds: [w.receiver],
    });
    const id = made.json.data.id as number;
    await post(w.author, `${doc(id)}/submit`, { steps: [{ userIds: [w.minister.userId] }], version: 1 });
    const incoming = await registeredLetter(h, w.org);
    const res = await post(w.admin, `${doc(incoming.id)}/related`, { documentIds: [id] }, 'en');
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('correspondence.inCircuit');
    expect(await h.query(`select 1 from document_relations where document_id = ${id}`)).toEqual([]);
  });
});
