/**
 * Due dates (issue 28, items 1 and 5): an incoming letter's reply due date proposed at registration from
 * its priority (working days, the deadline settings and holidays), given or refused in the form, changed
 * by the archive clerk or the manager it went to for action (and by nobody else), done by the dispatch of
 * a related outgoing letter or closed with a note; an approval step due when it is activated; every box
 * row's due date and the dueState filter, with the server's clock moved rather than slept.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MovableClock } from '../../src-server/clock';
import { PAGES } from '../../src-shared/pages';
import { call, makeRole, startHarness, type Harness } from './support/harness';
import { actor, department, OUTBOX_AND_MEMOS, type Actor } from './support/correspondence';

let h: Harness;
// Sunday 29 November 2026, a working day (the weekend is Friday–Saturday).
const clock = new MovableClock('2026-11-29T08:00:00Z');

const INBOX = {
  [PAGES.incoming]: ['view', 'edit', 'delete', 'distribute', 'export'],
  [PAGES.inboxDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.inboxAdd]: ['view', 'add'],
  [PAGES.incomingTasks]: ['view', 'edit'],
} as const;

interface World {
  unit: number;
  sender: number;
  receiver: number;
  clerk: Actor;
  author: Actor;
  unitManager: Actor;
  member: Actor;
  minister: Actor;
  outsider: Actor;
  codIn: number;
  codOut: number;
  urgent: number;
  normalPriority: number;
  medium: number;
  level: number;
}
let w: World;

const get = (who: Actor, url: string) => call(h, { method: 'GET', url, token: who.token });
const post = (who: Actor, url: string, body?: unknown) =>
  call(h, { method: 'POST', url, token: who.token, ...(body !== undefined ? { body } : {}) });
const put = (who: Actor, url: string, body: unknown) =>
  call(h, { method: 'PUT', url, token: who.token, body });
const doc = (id: number) => `/correspondence/documents/${id}`;

beforeAll(async () => {
  h = await startHarness({ ORG_TIME_ZONE: 'UTC' }, { clock });
  const role = await makeRole(h, { ...OUTBOX_AND_MEMOS, ...INBOX } as unknown as Record<
    string,
    ('view' | 'add')[]
  >);
  const admin = await actor(h, 'admin', null);
  const archive = await department(h, 'الأرشيف', { archive: true });
  const entity = await department(h, 'الوزارة', { archiveOfficeId: archive });
  await h.query(`update departments set is_entity = true where id = ${entity}`);
  const unit = await department(h, 'الحسابات', { archiveOfficeId: archive });
  const other = await department(h, 'إدارة أخرى', { archiveOfficeId: archive });
  await h.query(`update departments set parent_id = ${entity} where id in (${unit}, ${other})`);
  const sender = await department(h, 'وزارة الخارجية', { type: 'external' });
  const receiver = await department(h, 'ديوان المحاسبة', { type: 'external' });
  const clerk = await actor(h, role, archive);
  const author = await actor(h, role, unit);
  const unitManager = await actor(h, role, unit);
  const member = await actor(h, role, unit);
  const minister = await actor(h, role, entity);
  const outsider = await actor(h, role, other);
  await h.query(`update departments set manager_employee_id = ${unitManager.employeeId} where id = ${unit}`);
  await h.query(`update departments set manager_employee_id = ${minister.employeeId} where id = ${entity}`);
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
  const codIn = await make('codifications', { nameAr: 'وارد', nameEn: 'In', prefix: 'DIN', direction: 'in' });
  const codOut = await make('codifications', {
    nameAr: 'صادر',
    nameEn: 'Out',
    prefix: 'DOUT',
    direction: 'out',
  });
  const urgent = await make('priorities', { nameAr: 'عاجل', nameEn: 'Urgent', level: 3 });
  const normalPriority = await make('priorities', { nameAr: 'عادي', nameEn: 'Normal', level: 1 });
  const medium = await make('mediums', { nameAr: 'بريد', nameEn: 'Post' });
  const level = await make('security-levels', { nameAr: 'عادي', nameEn: 'Normal', level: 1 });
  // The deadline settings: an urgent letter is answered in 3 working days, others in the default 10; an
  // approver has 2; "due soon" is the 2 working days of the reminder. Tuesday 1 December is a holiday.
  const deadlines = JSON.stringify({
    replyDays: { [urgent]: 3 },
    remindDaysBefore: 2,
    approvalDaysPerStep: 2,
  });
  await h.query(`insert into organisation_settings (id) values (1) on conflict do nothing`);
  await h.query(`update organisation_settings set deadlines = '${deadlines}'::jsonb where id = 1`);
  await h.query(`insert into holidays (name_ar, name_en, calendar, starts_on, ends_on)
    values ('عطلة', 'Holiday', 'gregorian', '2026-12-01', '2026-12-01')`);
  w = {
    unit,
    sender,
    receiver,
    clerk,
    author,
    unitManager,
    member,
    minister,
    outsider,
    codIn,
    codOut,
    urgent,
    normalPriority,
    medium,
    level,
  };
});
afterAll(async () => {
  await h?.close();
});

/** Registers an incoming letter by the clerk (addressed to the unit); answers the document. */
async function incoming(extra: Record<string, unknown> = {}) {
  const res = await post(w.clerk, '/correspondence/documents', {
    direction: 'in',
    subject: 'طلب بيانات الميزانية',
    senderDepartmentId: w.sender,
    recipientDepartmentId: w.unit,
    documentDate: '2026-11-20',
    codificationId: w.codIn,
    securityLevelId: w.level,
    priorityId: w.urgent,
    register: true,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data as { id: number; reply: { dueOn: string | null; state: string } | null };
}

const distribute = (id: number) =>
  post(w.clerk, `${doc(id)}/distribution`, { items: [{ departmentId: w.unit, type: 'forAction' }] });

interface Row {
  documentId: number;
  dueDate: string | null;
  dueState: string;
  overdue: boolean;
  overdueDays: number | null;
}
const box = async (who: Actor, name: string, dueState?: string | string[]) => {
  const states = dueState === undefined ? [] : Array.isArray(dueState) ? dueState : [dueState];
  const filters = states.length
    ? `&filters=${encodeURIComponent(
        JSON.stringify({
          dueState: { operator: 'or', constraints: states.map((value) => ({ value, matchMode: 'equals' })) },
        }),
      )}`
    : '';
  const res = await get(who, `/correspondence/boxes/${name}?pageSize=200${filters}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data.items as Row[];
};

describe('the reply due date of an incoming letter', () => {
  it('is proposed at registration from its priority, or as the clerk gives it, or none', async () => {
    const proposed = await incoming();
    expect(proposed.reply).toMatchObject({ dueOn: PROPOSED_URGENT, state: 'onTime' });
    const normal = await incoming({ priorityId: w.normalPriority });
    expect(normal.reply).toMatchObject({ dueOn: PROPOSED_NORMAL, state: 'onTime' });
    const given = await incoming({ replyDueOn: '2026-12-20' });
    expect(given.reply).toMatchObject({ dueOn: '2026-12-20', state: 'onTime' });
    const none = await incoming({ replyDueOn: null });
    expect(none.reply).toMatchObject({ dueOn: null, state: 'none' });
    // A draft keeps the date it was given for its registration.
    const draft = await post(w.clerk, '/correspondence/documents', {
      direction: 'in',
      subject: 'مسودة',
      senderDepartmentId: w.sender,
      recipientDepartmentId: w.unit,
      documentDate: '2026-11-20',
      codificationId: w.codIn,
      priorityId: w.normalPriority,
      replyDueOn: '2026-12-24',
    });
    expect(draft.status).toBe(201);
    expect(draft.json.data.reply).toBeNull();
    const registered = await post(w.clerk, `${doc(draft.json.data.id)}/register`);
    expect(registered.json.data.reply).toMatchObject({ dueOn: '2026-12-24' });
    // Outgoing letters are not answered.
    const out = await post(w.author, '/correspondence/documents', {
      direction: 'out',
      subject: 'x',
      codificationId: w.codOut,
      replyDueOn: '2026-12-24',
    });
    expect(out.status).toBe(400);
  });

  it('is changed by the clerk or the manager it went to for action, refused to anyone else', async () => {
    const letter = await incoming();
    const url = `${doc(letter.id)}/reply-due`;
    const changed = await put(w.clerk, url, { replyDueOn: '2026-12-10' });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(changed.json.data.reply).toMatchObject({ dueOn: '2026-12-10', mayEdit: true });
    // Someone who cannot see it: 404; a manager it has not reached for action: nothing yet.
    expect((await put(w.outsider, url, { replyDueOn: '2026-12-11' })).status).toBe(404);
    expect((await distribute(letter.id)).status).toBe(200);
    // A member of the department sees it but may not change it.
    const memberView = await get(w.member, doc(letter.id));
    expect(memberView.status).toBe(200);
    expect(memberView.json.data.reply.mayEdit).toBe(false);
    expect((await put(w.member, url, { replyDueOn: '2026-12-11' })).status).toBe(403);
    const byManager = await put(w.unitManager, url, { replyDueOn: '2026-12-11' });
    expect(byManager.status).toBe(200);
    expect(byManager.json.data.reply.dueOn).toBe('2026-12-11');
    // None needed.
    const none = await put(w.unitManager, url, { replyDueOn: null });
    expect(none.json.data.reply).toMatchObject({ dueOn: null, state: 'none' });
    const events = (await get(w.clerk, `${doc(letter.id)}/timeline`)).json.data as {
      event: string;
      details: { from?: string | null; to?: string | null };
    }[];
    expect(events.filter((e) => e.event === 'replyDueChanged').map((e) => e.details.to)).toEqual([
      '2026-12-10',
      '2026-12-11',
      null,
    ]);
    const audit = await h.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'documents.replyDueChanged' and target_id = '${letter.id}'`,
    );
    expect(audit[0]!.n).toBe(3);
  });

  it('is closed with a note; then it no longer changes', async () => {
    const letter = await incoming();
    const url = `${doc(letter.id)}/reply-close`;
    expect((await post(w.clerk, url, { note: '  ' })).status).toBe(400);
    const closed = await post(w.clerk, url, { note: 'أجيب هاتفياً' });
    expect(closed.status, JSON.stringify(closed.json)).toBe(200);
    expect(closed.json.data.reply).toMatchObject({
      state: 'done',
      note: 'أجيب هاتفياً',
      doneBy: { id: w.clerk.userId },
      replyDocument: null,
      mayEdit: false,
    });
    expect((await post(w.clerk, url, { note: 'مرة أخرى' })).status).toBe(422);
    const late = await put(w.clerk, `${doc(letter.id)}/reply-due`, { replyDueOn: '2026-12-30' });
    expect(late.status).toBe(422);
    expect(late.json.code).toBe('due.alreadyDone');
    // Nothing to close on a letter that needs no reply.
    const none = await incoming({ replyDueOn: null });
    expect((await post(w.clerk, `${doc(none.id)}/reply-close`, { note: 'x' })).json.code).toBe(
      'due.noReplyDue',
    );
  });

  it('is done when an outgoing letter related to it is dispatched; its approval step was due', async () => {
    const letter = await incoming();
    const draft = await post(w.author, '/correspondence/documents', {
      direction: 'out',
      subject: 'الرد على طلب بيانات الميزانية',
      codificationId: w.codOut,
      documentDate: '2026-11-29',
      recipientIds: [w.receiver],
      securityLevelId: w.level,
    });
    expect(draft.status, JSON.stringify(draft.json)).toBe(201);
    const outId = draft.json.data.id as number;
    const submitted = await post(w.author, `${doc(outId)}/submit`, {
      steps: [{ userIds: [w.minister.userId] }],
      version: draft.json.data.version,
    });
    expect(submitted.status, JSON.stringify(submitted.json)).toBe(200);
    // Activated on Sunday 29 November: due two working days later.
    const [member] = await h.query<{ due_on: string }>(
      `select to_char(due_on, 'YYYY-MM-DD') as due_on from approval_members where document_id = ${outId}`,
    );
    expect(member!.due_on).toBe(PROPOSED_APPROVAL);
    const pending = (await box(w.minister, 'requiring-approval')).find((r) => r.documentId === outId);
    expect(pending).toMatchObject({ dueDate: PROPOSED_APPROVAL, dueState: 'dueSoon' });
    const waiting = (await box(w.author, 'awaiting-approval')).find((r) => r.documentId === outId);
    expect(waiting).toMatchObject({ dueDate: PROPOSED_APPROVAL });

    const approved = await post(w.minister, `${doc(outId)}/approval`, {
      action: 'approve',
      version: submitted.json.data.version,
    });
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    // The clerk links the reply to the letter it answers, then dispatches it.
    expect((await post(w.clerk, `${doc(letter.id)}/related`, { documentIds: [outId] })).status).toBe(200);
    expect((await get(w.clerk, doc(letter.id))).json.data.reply.state).not.toBe('done');
    const sent = await post(w.clerk, `${doc(outId)}/dispatch`, {
      mediumId: w.medium,
      dispatchDate: '2026-11-29',
    });
    expect(sent.status, JSON.stringify(sent.json)).toBe(200);
    const view = await get(w.clerk, doc(letter.id));
    expect(view.json.data.reply).toMatchObject({
      state: 'done',
      doneBy: { id: w.clerk.userId },
      replyDocument: { id: outId, docNumber: approved.json.data.docNumber },
    });
    const events = (await get(w.clerk, `${doc(letter.id)}/timeline`)).json.data as {
      event: string;
      details: { documentId?: number };
    }[];
    expect(events.find((e) => e.event === 'replyDone')?.details.documentId).toBe(outId);
  });
});

describe('due dates in the boxes', () => {
  it('show each row’s due date and state, and filter on it as the days pass', async () => {
    clock.set('2026-11-29T08:00:00Z');
    const later = await incoming({ replyDueOn: '2026-12-20' });
    const soon = await incoming({ replyDueOn: '2026-11-30' });
    const none = await incoming({ replyDueOn: null });
    const done = await incoming({ replyDueOn: '2026-11-30' });
    await post(w.clerk, `${doc(done.id)}/reply-close`, { note: 'تم' });
    const ours = (rows: Row[]) => {
      const ids = [later.id, soon.id, none.id, done.id];
      return rows.filter((r) => ids.includes(r.documentId));
    };
    const stateOf = async (who: Actor, boxName: string) =>
      Object.fromEntries(ours(await box(who, boxName)).map((r) => [r.documentId, r.dueState]));
    expect(await stateOf(w.clerk, 'incoming')).toEqual({
      [later.id]: 'onTime',
      [soon.id]: 'dueSoon',
      [none.id]: 'none',
      [done.id]: 'done',
    });
    const ids = async (who: Actor, name: string, s: string | string[]) =>
      ours(await box(who, name, s))
        .map((r) => r.documentId)
        .sort((a, b) => a - b);
    expect(await ids(w.clerk, 'incoming', 'dueSoon')).toEqual([soon.id]);
    expect(await ids(w.clerk, 'incoming', 'overdue')).toEqual([]);
    expect(await ids(w.clerk, 'incoming', 'none')).toEqual([none.id]);
    expect(await ids(w.clerk, 'incoming', 'done')).toEqual([done.id]);

    // Wednesday 2 December: the letter due on Monday is one working day late (Tuesday was a holiday);
    // on Thursday two.
    clock.set('2026-12-02T08:00:00Z');
    const row = ours(await box(w.clerk, 'incoming')).find((r) => r.documentId === soon.id);
    expect(row).toMatchObject({ dueState: 'overdue', overdue: true, overdueDays: 1, dueDate: '2026-11-30' });
    clock.set('2026-12-03T08:00:00Z');
    const later2 = ours(await box(w.clerk, 'incoming')).find((r) => r.documentId === soon.id);
    expect(later2).toMatchObject({ overdueDays: 2 });
    expect((await get(w.clerk, doc(soon.id))).json.data.reply).toMatchObject({
      state: 'overdue',
      overdueDays: 2,
    });
    clock.set('2026-12-02T08:00:00Z');
    expect(await ids(w.clerk, 'incoming', 'overdue')).toEqual([soon.id]);
    expect(await ids(w.clerk, 'incoming', ['overdue', 'onTime'])).toEqual([later.id, soon.id]);
    expect(await ids(w.clerk, 'incoming', 'dueSoon')).toEqual([]);

    // The department's rows (distributions) carry the letter's due date too.
    await distribute(soon.id);
    const received = (await box(w.member, 'incoming', 'overdue')).map((r) => r.documentId);
    expect(received).toContain(soon.id);
    const all = (await box(w.member, 'incoming')).find((r) => r.documentId === soon.id);
    expect(all).toMatchObject({ dueDate: '2026-11-30', dueState: 'overdue' });

    // A bad state is refused, as any bad filter.
    const bad = await get(
      w.clerk,
      `/correspondence/boxes/incoming?filters=${encodeURIComponent(
        JSON.stringify({ dueState: { constraints: [{ value: 'late', matchMode: 'equals' }] } }),
      )}`,
    );
    expect(bad.status).toBe(400);
    clock.set('2026-11-29T08:00:00Z');
  });
});

// From Sunday 29 November 2026, Friday–Saturday weekends and the holiday of Tuesday 1 December: urgent,
// 3 working days (30 Nov, 2 and 3 Dec); the default 10 (… 13 and 14 Dec); an approval step, 2 (30 Nov,
// 2 Dec).
const PROPOSED_URGENT = '2026-12-03';
const PROPOSED_NORMAL = '2026-12-14';
const PROPOSED_APPROVAL = '2026-12-02';
