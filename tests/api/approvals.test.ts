/**
 * Approval circuits of outgoing letters and memos (issue 12): the proposed circuit, a three-step circuit
 * with a parallel opinion step, rejection, a change request followed by an edit (approvals void, the
 * circuit restarts) and by a resubmission without changes (it resumes), racing approvers and stale
 * screens (409, never a double step), people outside the circuit (403 / 404), numbering at the
 * signatory's approval under concurrency, dispatch, memos reaching their recipients, the author's and the
 * approvers' boxes and counts, and the page of the document's direction enforced on every action.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { minimalPdf, multipart } from './support/files';
import { call, makeRole, startHarness, type Harness } from './support/harness';
import { actor, department, OUTBOX_AND_MEMOS, type Actor } from './support/correspondence';

let h: Harness;

const INBOX_ONLY = {
  [PAGES.incoming]: ['view', 'edit', 'delete', 'distribute', 'export'],
  [PAGES.inboxDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.inboxAdd]: ['view', 'add'],
} as const;

interface World {
  entity: number;
  sector: number;
  unit: number;
  archive: number;
  other: number;
  receiver: number;
  receiver2: number;
  author: Actor;
  unitManager: Actor;
  peer: Actor;
  sectorManager: Actor;
  minister: Actor;
  clerk: Actor;
  outsider: Actor;
  inboxClerk: Actor;
  otherManager: Actor;
  otherMember: Actor;
  codOut: number;
  codMemo: number;
  medium: number;
  normal: number;
}
let w: World;

const get = (who: Actor, url: string) => call(h, { method: 'GET', url, token: who.token });
const post = (who: Actor, url: string, body?: unknown) =>
  call(h, { method: 'POST', url, token: who.token, ...(body !== undefined ? { body } : {}) });
const put = (who: Actor, url: string, body: unknown) =>
  call(h, { method: 'PUT', url, token: who.token, body });
const doc = (id: number) => `/correspondence/documents/${id}`;

beforeAll(async () => {
  h = await startHarness();
  const role = await makeRole(h, { ...OUTBOX_AND_MEMOS, ...INBOX_ONLY } as unknown as Record<
    string,
    ('view' | 'add')[]
  >);
  const inboxRole = await makeRole(h, INBOX_ONLY as unknown as Record<string, ('view' | 'add')[]>);
  const admin = await actor(h, 'admin', null);
  const archive = await department(h, 'الأرشيف', { archive: true });
  const entity = await department(h, 'الوزارة', { archiveOfficeId: archive });
  await h.query(`update departments set is_entity = true where id = ${entity}`);
  const sector = await department(h, 'قطاع المالية', { archiveOfficeId: archive });
  const unit = await department(h, 'الحسابات', { archiveOfficeId: archive });
  const other = await department(h, 'الموارد البشرية', { archiveOfficeId: archive });
  await h.query(`update departments set parent_id = ${entity} where id in (${sector}, ${other})`);
  await h.query(`update departments set parent_id = ${sector} where id = ${unit}`);
  const receiver = await department(h, 'وزارة الخارجية', { type: 'external' });
  const receiver2 = await department(h, 'ديوان المحاسبة', { type: 'external' });
  const author = await actor(h, role, unit);
  const unitManager = await actor(h, role, unit);
  const peer = await actor(h, role, unit);
  const sectorManager = await actor(h, role, sector);
  const minister = await actor(h, role, entity);
  const clerk = await actor(h, role, archive);
  const outsider = await actor(h, role, other);
  const inboxClerk = await actor(h, inboxRole, unit);
  const otherManager = await actor(h, role, other);
  const otherMember = await actor(h, role, other);
  await h.query(`update departments set manager_employee_id = ${unitManager.employeeId} where id = ${unit}`);
  await h.query(
    `update departments set manager_employee_id = ${sectorManager.employeeId} where id = ${sector}`,
  );
  await h.query(`update departments set manager_employee_id = ${minister.employeeId} where id = ${entity}`);
  await h.query(
    `update departments set manager_employee_id = ${otherManager.employeeId} where id = ${other}`,
  );
  const make = async (list: string, body: Record<string, unknown>) => {
    const res = await call(h, {
      method: 'POST',
      url: `/correspondence/settings/${list}`,
      token: admin.token,
      body,
    });
    if (res.status !== 201) throw new Error(`${list}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.data.id as number;
  };
  const codOut = await make('codifications', {
    nameAr: 'صادر',
    nameEn: 'Outgoing',
    prefix: 'OUTX',
    direction: 'out',
  });
  const codMemo = await make('codifications', {
    nameAr: 'مذكرة',
    nameEn: 'Memo',
    prefix: 'MEMX',
    direction: 'memo',
  });
  const medium = await make('mediums', { nameAr: 'بريد', nameEn: 'Post' });
  const normal = await make('security-levels', { nameAr: 'عادي', nameEn: 'Normal', level: 1 });
  w = {
    entity,
    sector,
    unit,
    archive,
    other,
    receiver,
    receiver2,
    author,
    unitManager,
    peer,
    sectorManager,
    minister,
    clerk,
    outsider,
    inboxClerk,
    otherManager,
    otherMember,
    codOut,
    codMemo,
    medium,
    normal,
  };
});
afterAll(async () => {
  await h?.close();
});

/** A complete outgoing draft by the author; answers its id. */
async function outgoingDraft(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await post(w.author, '/correspondence/documents', {
    direction: 'out',
    subject: 'الرد على طلب الميزانية',
    codificationId: w.codOut,
    documentDate: '2026-11-01',
    recipientIds: [w.receiver, w.receiver2],
    securityLevelId: w.normal,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data.id as number;
}

/** Attaches a small PDF to a document as `who`; answers the status. */
async function attach(who: Actor, id: number, name: string): Promise<number> {
  const file = multipart(minimalPdf(name), name, 'application/pdf');
  const res = await h.app.inject({
    method: 'POST',
    url: `${doc(id)}/attachments`,
    headers: { ...file.headers, authorization: `Bearer ${who.token}` },
    payload: file.payload,
  });
  return res.statusCode;
}

const version = async (id: number) => (await get(w.author, doc(id))).json.data.version as number;
const decide = async (who: Actor, id: number, action: string, comment?: string, v?: number) =>
  post(who, `${doc(id)}/approval`, {
    action,
    ...(comment ? { comment } : {}),
    version: v ?? (await version(id)),
  });
const boxIds = async (who: Actor, box: string) =>
  ((await get(who, `/correspondence/boxes/${box}`)).json.data.items as { documentId: number }[]).map(
    (i) => i.documentId,
  );

describe('the proposed circuit', () => {
  it('is the managers up the author’s tree, ending with the entity’s manager as signatory', async () => {
    const id = await outgoingDraft();
    const res = await get(w.author, `${doc(id)}/circuit/proposal`);
    expect(res.status).toBe(200);
    expect(res.json.data.source).toBe('managers');
    expect(
      res.json.data.steps.map((s: { kind: string; members: { userId: number }[] }) => [
        s.kind,
        s.members.map((m) => m.userId),
      ]),
    ).toEqual([
      ['opinion', [w.unitManager.userId]],
      ['opinion', [w.sectorManager.userId]],
      ['sign', [w.minister.userId]],
    ]);
  });

  it('is a department’s saved template when there is one', async () => {
    const admin = await actor(h, 'admin', null);
    const url = `/correspondence/circuit-templates/${w.other}/out`;
    const saved = await put(admin, url, {
      steps: [{ userIds: [w.otherManager.userId] }, { userIds: [w.minister.userId] }],
    });
    expect(saved.status).toBe(200);
    const drafted = await post(w.otherMember, '/correspondence/documents', {
      direction: 'out',
      subject: 'x',
      codificationId: w.codOut,
      recipientIds: [w.receiver],
    });
    const res = await get(w.otherMember, `${doc(drafted.json.data.id)}/circuit/proposal`);
    expect(res.json.data.source).toBe('template');
    expect(res.json.data.steps.map((s: { members: { userId: number }[] }) => s.members[0]!.userId)).toEqual([
      w.otherManager.userId,
      w.minister.userId,
    ]);
    // Only those who configure departments save templates.
    expect((await put(w.author, url, { steps: [{ userIds: [w.minister.userId] }] })).status).toBe(403);
  });
});

describe('a three-step circuit with a parallel opinion step', () => {
  it('moves step by step; only whose turn it is may act; the signatory numbers it; the clerk dispatches', async () => {
    const id = await outgoingDraft();
    // Drafts have no number and are seen by their author only.
    expect((await get(w.unitManager, doc(id))).status).toBe(404);
    const steps = [
      { userIds: [w.unitManager.userId, w.peer.userId] },
      { userIds: [w.sectorManager.userId] },
      { userIds: [w.minister.userId] },
    ];
    const submitted = await post(w.author, `${doc(id)}/submit`, { steps, version: await version(id) });
    expect(submitted.status, JSON.stringify(submitted.json)).toBe(200);
    expect(submitted.json.data).toMatchObject({ state: 'approving', docNumber: null });
    expect(submitted.json.data.approval).toMatchObject({ status: 'approving', currentStep: 1 });
    expect(await boxIds(w.author, 'awaiting-approval')).toContain(id);
    expect(await boxIds(w.unitManager, 'requiring-approval')).toContain(id);
    expect(await boxIds(w.peer, 'requiring-approval')).toContain(id);
    expect(await boxIds(w.sectorManager, 'requiring-approval')).not.toContain(id);
    expect((await get(w.unitManager, '/correspondence/boxes/counts')).json.data.outboxRequiringApproval).toBe(
      1,
    );

    // Someone later in the circuit sees it but may not act yet: 403. Someone outside it: 404.
    expect((await get(w.sectorManager, doc(id))).status).toBe(200);
    expect((await decide(w.sectorManager, id, 'approve')).status).toBe(403);
    expect((await decide(w.outsider, id, 'approve', undefined, 1)).status).toBe(404);
    // The author cannot change it while it is in its circuit.
    expect((await put(w.author, doc(id), { subject: 'تعديل' })).status).toBe(422);

    // The parallel step waits for both.
    expect((await decide(w.unitManager, id, 'approve')).status).toBe(200);
    expect((await get(w.author, doc(id))).json.data.approval.currentStep).toBe(1);
    expect((await decide(w.unitManager, id, 'approve')).status).toBe(409); // answered already
    const peer = await decide(w.peer, id, 'approve');
    expect(peer.json.data.approval.currentStep).toBe(2);
    expect(await boxIds(w.sectorManager, 'requiring-approval')).toContain(id);
    expect(await boxIds(w.unitManager, 'requiring-approval')).not.toContain(id);

    expect((await decide(w.sectorManager, id, 'approve')).status).toBe(200);
    const signed = await decide(w.minister, id, 'approve');
    expect(signed.status).toBe(200);
    expect(signed.json.data).toMatchObject({
      state: 'approved',
      approval: { status: 'approved', currentStep: null },
    });
    expect(signed.json.data.docNumber).toMatch(/^OUTX-\d{4}-\d{6}$/);

    // The archive office of the author's entity holds it and dispatches it.
    const clerkView = await get(w.clerk, doc(id));
    expect(clerkView.status).toBe(200);
    expect(clerkView.json.data.abilities.dispatch).toBe(true);
    const awaiting = await get(w.clerk, '/correspondence/boxes/outgoing?view=notCompleted');
    expect(awaiting.json.data.items.map((i: { documentId: number }) => i.documentId)).toContain(id);
    expect(
      (await post(w.author, `${doc(id)}/dispatch`, { mediumId: w.medium, dispatchDate: '2026-11-03' }))
        .status,
    ).toBe(422);
    const sent = await post(w.clerk, `${doc(id)}/dispatch`, {
      mediumId: w.medium,
      dispatchDate: '2026-11-03',
      delivered: true,
    });
    expect(sent.status).toBe(200);
    expect(sent.json.data.dispatch).toMatchObject({ date: '2026-11-03', delivered: true });
    const after = await get(w.clerk, '/correspondence/boxes/outgoing?view=notCompleted');
    expect(after.json.data.items.map((i: { documentId: number }) => i.documentId)).not.toContain(id);

    // The timeline says who approved which version.
    const events = (await get(w.author, `${doc(id)}/timeline`)).json.data as {
      event: string;
      details: { version?: number };
    }[];
    expect(events.filter((e) => e.event === 'approved').map((e) => e.details.version)).toEqual([1, 1, 1, 1]);
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['submitted', 'numbered', 'dispatched']),
    );
  });
});

describe('returns to the author', () => {
  it('a rejection needs a comment, ends the circuit and comes back to the author', async () => {
    const id = await outgoingDraft();
    await post(w.author, `${doc(id)}/submit`, { version: await version(id) });
    expect((await decide(w.unitManager, id, 'reject')).status).toBe(400);
    const rejected = await decide(w.unitManager, id, 'reject', 'لا حاجة لهذا الخطاب');
    expect(rejected.status).toBe(200);
    expect(rejected.json.data).toMatchObject({ state: 'rejected', approval: { status: 'rejected' } });
    expect(await boxIds(w.author, 'requiring-changes')).toContain(id);
    expect(await boxIds(w.sectorManager, 'requiring-approval')).not.toContain(id);
    expect((await decide(w.sectorManager, id, 'approve')).status).toBe(409);
  });

  it('changes requested, then an edit: the approvals of the old version are void and the circuit restarts', async () => {
    const id = await outgoingDraft();
    await post(w.author, `${doc(id)}/submit`, { version: await version(id) });
    await decide(w.unitManager, id, 'approve');
    expect((await decide(w.sectorManager, id, 'requestChanges')).status).toBe(400);
    const back = await decide(w.sectorManager, id, 'requestChanges', 'أضف رقم الخطاب الوارد');
    expect(back.json.data.state).toBe('changesRequested');
    expect(await boxIds(w.author, 'requiring-changes')).toContain(id);
    expect(
      (await get(w.author, '/correspondence/boxes/counts')).json.data.outboxRequiringChanges,
    ).toBeGreaterThan(0);
    // The author edits (the version rises) and attaches the letter: both are changes.
    expect((await put(w.author, doc(id), { subject: 'الرد على طلب الميزانية رقم ٤٥' })).status).toBe(200);
    expect(await attach(w.author, id, 'letter.pdf')).toBe(201);
    const v = await version(id);
    expect(v).toBe(3);
    const again = await post(w.author, `${doc(id)}/submit`, { version: v });
    expect(again.json.data.approval.currentStep).toBe(1);
    const first = again.json.data.approval.steps[0].members[0];
    expect(first).toMatchObject({ userId: w.unitManager.userId, pending: true, decision: null });
    const events = (await get(w.author, `${doc(id)}/timeline`)).json.data as { event: string }[];
    expect(events.map((e) => e.event)).toContain('circuitRestarted');
    // The unit manager answers on the new version.
    const ok = await decide(w.unitManager, id, 'approve', undefined, v);
    expect(ok.json.data.approval.steps[0].members[0]).toMatchObject({
      decision: 'approved',
      decidedVersion: 3,
    });
  });

  it('changes requested, resubmitted without changes: the circuit resumes at the step that asked', async () => {
    const id = await outgoingDraft();
    await post(w.author, `${doc(id)}/submit`, { version: await version(id) });
    await decide(w.unitManager, id, 'approve');
    await decide(w.sectorManager, id, 'requestChanges', 'راجع الصياغة');
    const again = await post(w.author, `${doc(id)}/submit`, { version: await version(id) });
    expect(again.status).toBe(200);
    expect(again.json.data.approval.currentStep).toBe(2);
    expect(again.json.data.approval.steps[0].members[0]).toMatchObject({
      decision: 'approved',
      pending: false,
    });
    expect(await boxIds(w.sectorManager, 'requiring-approval')).toContain(id);
    expect(await boxIds(w.unitManager, 'requiring-approval')).not.toContain(id);
  });

  it('a stale screen is 409: the version an approver saw must be the current one', async () => {
    const id = await outgoingDraft();
    await post(w.author, `${doc(id)}/submit`, { version: await version(id) });
    expect((await decide(w.unitManager, id, 'approve', undefined, 99)).status).toBe(409);
    expect((await post(w.author, `${doc(id)}/submit`, { version: 1 })).status).toBe(409); // already submitted
  });
});

describe('races', () => {
  it('the same approver twice at once: one answer, one 409; two approvers of one step at once: one step forward', async () => {
    const id = await outgoingDraft();
    await post(w.author, `${doc(id)}/submit`, {
      steps: [{ userIds: [w.unitManager.userId, w.peer.userId] }, { userIds: [w.minister.userId] }],
      version: await version(id),
    });
    const twice = await Promise.all([
      decide(w.unitManager, id, 'approve', undefined, 1),
      decide(w.unitManager, id, 'approve', undefined, 1),
    ]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
    const id2 = await outgoingDraft();
    await post(w.author, `${doc(id2)}/submit`, {
      steps: [
        { userIds: [w.unitManager.userId, w.peer.userId] },
        { userIds: [w.sectorManager.userId] },
        { userIds: [w.minister.userId] },
      ],
      version: 1,
    });
    const both = await Promise.all([
      decide(w.unitManager, id2, 'approve', undefined, 1),
      decide(w.peer, id2, 'approve', undefined, 1),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const now = (await get(w.author, doc(id2))).json.data;
    expect(now.approval.currentStep).toBe(2);
    expect(now.approval.steps[1].members[0].pending).toBe(true);
    expect(now.approval.steps[2].members[0].pending).toBe(false);
  });

  it('twenty signatures at once take twenty distinct consecutive numbers', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const id = await outgoingDraft();
      await post(w.author, `${doc(id)}/submit`, { steps: [{ userIds: [w.minister.userId] }], version: 1 });
      ids.push(id);
    }
    const signed = await Promise.all(ids.map((id) => decide(w.minister, id, 'approve', undefined, 1)));
    expect(signed.map((r) => r.status)).toEqual(ids.map(() => 200));
    const seqs = signed.map((r) => r.json.data.sequence as number).sort((a, b) => a - b);
    expect(new Set(seqs).size).toBe(20);
    expect(seqs.at(-1)! - seqs[0]!).toBe(19);
  });
});

describe('memos', () => {
  it('an approved memo is numbered and reaches its recipient departments, which task it', async () => {
    const created = await post(w.author, '/correspondence/documents', {
      direction: 'memo',
      subject: 'تعميم بشأن ساعات العمل',
      codificationId: w.codMemo,
      recipientIds: [w.other],
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id as number;
    // A memo goes to internal departments only.
    expect((await put(w.author, doc(id), { recipientIds: [w.receiver] })).status).toBe(400);
    await post(w.author, `${doc(id)}/submit`, { steps: [{ userIds: [w.minister.userId] }], version: 1 });
    expect(await boxIds(w.minister, 'memos-requiring-approval')).toContain(id);
    expect(await boxIds(w.minister, 'requiring-approval')).not.toContain(id);
    const approved = await decide(w.minister, id, 'approve', undefined, 1);
    expect(approved.json.data.docNumber).toMatch(/^MEMX-/);
    expect(await boxIds(w.otherManager, 'approved-memos')).toContain(id);
    expect(await boxIds(w.otherManager, 'incoming')).not.toContain(id);
    const view = (await get(w.otherManager, doc(id))).json.data;
    expect(view.abilities.assignTasks).toBe(true);
    const task = await post(w.otherManager, `${doc(id)}/tasks`, {
      distributionId: view.abilities.assignTasksFor[0],
      employeeId: w.otherMember.employeeId,
    });
    expect(task.status).toBe(201);
    expect(await boxIds(w.otherMember, 'incoming-tasks')).toContain(id);
  });
});

describe('the page of the document’s direction', () => {
  it('an outbox clerk edits, attaches to and deletes their own outgoing draft; inbox rights reach no outgoing document', async () => {
    const id = await outgoingDraft();
    expect((await put(w.author, doc(id), { summary: 'ملخص' })).status).toBe(200);
    expect(await attach(w.author, id, 'x.pdf')).toBe(201);
    expect((await call(h, { method: 'DELETE', url: doc(id), token: w.author.token })).status).toBe(200);
    // Inbox rights create no outgoing letter, and an outgoing draft is never registered past its circuit.
    const refused = await post(w.inboxClerk, '/correspondence/documents', { direction: 'out', subject: 'x' });
    expect(refused.status).toBe(403);
    const id2 = await outgoingDraft();
    const register = await post(w.author, `${doc(id2)}/register`);
    expect(register.status).toBe(422);
    expect(register.json.code).toBe('correspondence.circuitRequired');
  });
});

describe('box rows of outgoing letters', () => {
  it('name their addressees in the author’s order', async () => {
    const id = await outgoingDraft({ recipientIds: [w.receiver2, w.receiver] });
    const rows = (await get(w.author, '/correspondence/boxes/outbox-drafts?pageSize=200')).json.data
      .items as {
      documentId: number;
      addressees: { id: number }[];
    }[];
    expect(rows.find((r) => r.documentId === id)!.addressees.map((a) => a.id)).toEqual([
      w.receiver2,
      w.receiver,
    ]);
  });
});
