/**
 * Delegation (issue 28) through the API: a delegate approves on behalf of a manager (the member's row is
 * decided, the timeline and the audit name both), signs on behalf of the signatory with their authority,
 * and moves the delegator's tasks; refused before the start, after the end, outside the scope and at once
 * when ended early; the rules on making one (not to oneself, no onward delegation, no overlap, clearance);
 * the boxes show the delegator's items marked; a circuit stalled on a deactivated approver is listed and
 * its approver replaced.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../../src-server/clock';
import { PAGES } from '../../src-shared/pages';
import { call, makeRole, startHarness, type Harness } from './support/harness';
import {
  actor,
  department,
  letter,
  organisation,
  OUTBOX_AND_MEMOS,
  type Actor,
} from './support/correspondence';

let h: Harness;
let admin: Actor;
let author: Actor;
let minister: Actor;
let codOut: number;
let receiver: number;
let normal: number;
let secret: number;
let unit: number;
let role: number;

const get = (who: Actor, url: string) => call(h, { method: 'GET', url, token: who.token });
const post = (who: Actor, url: string, body?: unknown) =>
  call(h, { method: 'POST', url, token: who.token, ...(body !== undefined ? { body } : {}) });
const doc = (id: number) => `/correspondence/documents/${id}`;

let today = '';
const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  h = await startHarness();
  today = dayIn(h.config.ORG_TIME_ZONE, new Date());
  role = await makeRole(h, {
    ...OUTBOX_AND_MEMOS,
    [PAGES.incomingTasks]: ['view', 'edit'],
  } as unknown as Record<string, ('view' | 'add')[]>);
  admin = await actor(h, 'admin', null);
  const archive = await department(h, 'الأرشيف', { archive: true });
  const entity = await department(h, 'الوزارة', { archiveOfficeId: archive });
  await h.query(`update departments set is_entity = true where id = ${entity}`);
  unit = await department(h, 'الحسابات', { archiveOfficeId: archive });
  await h.query(`update departments set parent_id = ${entity} where id = ${unit}`);
  receiver = await department(h, 'وزارة الخارجية', { type: 'external' });
  author = await actor(h, role, unit);
  minister = await actor(h, role, entity);
  await h.query(`update departments set manager_employee_id = ${minister.employeeId} where id = ${entity}`);
  const make = async (list: string, body: Record<string, unknown>) => {
    const res = await post(admin, `/correspondence/settings/${list}`, body);
    if (res.status !== 201) throw new Error(`${list}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.data.id as number;
  };
  codOut = await make('codifications', {
    nameAr: 'صادر',
    nameEn: 'Outgoing',
    prefix: 'DLG',
    direction: 'out',
  });
  normal = await make('security-levels', { nameAr: 'عادي', nameEn: 'Normal', level: 1 });
  secret = await make('security-levels', { nameAr: 'سري', nameEn: 'Secret', level: 3 });
});
afterAll(async () => {
  await h?.close();
});

/** A letter by the author in its circuit: `approver` gives an opinion, then the minister signs. */
async function letterFor(approver: Actor): Promise<number> {
  const made = await post(author, '/correspondence/documents', {
    direction: 'out',
    subject: 'خطاب للتفويض',
    codificationId: codOut,
    recipientIds: [receiver],
    securityLevelId: normal,
  });
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  const id = made.json.data.id as number;
  const version = (await get(author, doc(id))).json.data.version as number;
  const sent = await post(author, `${doc(id)}/submit`, {
    version,
    steps: [{ userIds: [approver.userId] }, { userIds: [minister.userId] }],
  });
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  return id;
}

const version = async (id: number) => (await get(author, doc(id))).json.data.version as number;
const approve = async (who: Actor, id: number) =>
  post(who, `${doc(id)}/approval`, { action: 'approve', version: await version(id) });
const requiring = async (who: Actor) =>
  (await get(who, '/correspondence/boxes/requiring-approval')).json.data.items as {
    documentId: number;
    onBehalfOf: { id: number; nameEn: string } | null;
  }[];
const delegate = (who: Actor, to: Actor, scope: string, startsOn = today, endsOn = addDays(today, 5)) =>
  post(who, '/delegations', { delegateId: to.userId, scope, startsOn, endsOn });

describe('acting on behalf', () => {
  it('a delegate approves for the manager: the member’s row is decided, timeline and audit name both', async () => {
    const manager = await actor(h, role, unit);
    const deputy = await actor(h, role, unit);
    const id = await letterFor(manager);
    expect((await get(deputy, doc(id))).status).toBe(404);

    const made = await delegate(manager, deputy, 'approvals');
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    expect(made.json.data).toMatchObject({ state: 'inForce', scope: 'approvals' });
    const [told] = await h.query<{ kind: string }>(
      `select kind from notifications where user_id = ${deputy.userId} and kind = 'delegated'`,
    );
    expect(told?.kind).toBe('delegated');
    const [created] = await h.query<{ actor_id: number; details: { delegateId: number } }>(
      `select actor_id, details from audit_log where action = 'delegations.create' and target_id = '${made.json.data.id}'`,
    );
    expect(created).toMatchObject({ actor_id: manager.userId, details: { delegateId: deputy.userId } });

    // The deputy's box shows the manager's item, marked; the document opens, the turn is theirs on behalf.
    const row = (await requiring(deputy)).find((i) => i.documentId === id);
    expect(row?.onBehalfOf?.id).toBe(manager.userId);
    expect((await requiring(manager)).find((i) => i.documentId === id)?.onBehalfOf).toBeNull();
    expect((await get(deputy, '/correspondence/boxes/counts')).json.data.outboxRequiringApproval).toBe(1);
    const seen = await get(deputy, doc(id));
    expect(seen.status).toBe(200);
    expect(seen.json.data.abilities).toMatchObject({
      decide: true,
      decideOnBehalfOf: { id: manager.userId },
    });

    const res = await approve(deputy, id);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.data.approval.currentStep).toBe(2);
    const members = res.json.data.approval.steps[0].members as { userId: number; decision: string }[];
    expect(members).toEqual([expect.objectContaining({ userId: manager.userId, decision: 'approved' })]);
    // The manager can no longer answer: it was answered for them.
    expect((await approve(manager, id)).status).toBe(409);

    const timeline = (await get(author, `${doc(id)}/timeline`)).json.data as {
      event: string;
      actor: { id: number } | null;
      details: { onBehalfOf?: { id: number } };
    }[];
    const entry = timeline.find((e) => e.event === 'approved');
    expect(entry?.actor?.id).toBe(deputy.userId);
    expect(entry?.details.onBehalfOf?.id).toBe(manager.userId);
    const [audit] = await h.query<{ actor_id: number; details: { onBehalfOf: number } }>(
      `select actor_id, details from audit_log where action = 'delegations.actedOnBehalf' and target_id = '${id}'`,
    );
    expect(audit).toMatchObject({ actor_id: deputy.userId, details: { onBehalfOf: manager.userId } });

    // Ended early: refused at once, and the box no longer shows the manager's items.
    const next = await letterFor(manager);
    expect((await requiring(deputy)).some((i) => i.documentId === next)).toBe(true);
    const ended = await post(manager, `/delegations/${made.json.data.id}/end`);
    expect(ended.status).toBe(200);
    expect(ended.json.data.state).toBe('over');
    expect([403, 404]).toContain((await approve(deputy, next)).status);
    expect((await requiring(deputy)).some((i) => i.documentId === next)).toBe(false);
    expect((await post(manager, `/delegations/${made.json.data.id}/end`)).status).toBe(409);
    expect(
      (
        await h.query(
          `select 1 from audit_log where action = 'delegations.end' and target_id = '${made.json.data.id}'`,
        )
      ).length,
    ).toBe(1);
  });

  it('is refused before its start date and after its end date', async () => {
    const manager = await actor(h, role, unit);
    const deputy = await actor(h, role, unit);
    const id = await letterFor(manager);
    const made = await delegate(manager, deputy, 'both', addDays(today, 1), addDays(today, 3));
    expect(made.status).toBe(201);
    expect(made.json.data.state).toBe('upcoming');
    expect([403, 404]).toContain((await approve(deputy, id)).status);
    expect((await requiring(deputy)).some((i) => i.documentId === id)).toBe(false);
    // Moved into the past: over.
    await h.query(
      `update delegations set starts_on = '${addDays(today, -5)}', ends_on = '${addDays(today, -1)}' where id = ${made.json.data.id}`,
    );
    expect([403, 404]).toContain((await approve(deputy, id)).status);
    // On its days it works.
    await h.query(`update delegations set ends_on = '${today}' where id = ${made.json.data.id}`);
    expect((await approve(deputy, id)).status).toBe(200);
  });

  it('is refused outside its scope: a tasks-only delegate cannot approve', async () => {
    const manager = await actor(h, role, unit);
    const deputy = await actor(h, role, unit);
    const id = await letterFor(manager);
    expect((await delegate(manager, deputy, 'tasks')).status).toBe(201);
    expect([403, 404]).toContain((await approve(deputy, id)).status);
    expect((await requiring(deputy)).some((i) => i.documentId === id)).toBe(false);
  });

  it('signs on behalf of the signatory, with the signatory’s authority', async () => {
    const manager = await actor(h, role, unit);
    const deputy = await actor(h, role, unit); // holds no signing authority of their own
    const id = await letterFor(manager);
    expect((await approve(manager, id)).status).toBe(200);
    const made = await delegate(minister, deputy, 'approvals');
    expect(made.status).toBe(201);
    const res = await approve(deputy, id);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.data.state).toBe('approved');
    expect(res.json.data.docNumber).toMatch(/DLG/);
    expect((await post(minister, `/delegations/${made.json.data.id}/end`)).status).toBe(200);
  });
});

describe('tasks on behalf', () => {
  it('the delegate sees the delegator’s task marked in their box, starts and completes it', async () => {
    const org = await organisation(h);
    const created = await post(org.clerk, '/correspondence/documents', { ...letter(org), register: true });
    const id = created.json.data.id as number;
    const dist = await post(org.clerk, `${doc(id)}/distribution`, {
      items: [{ departmentId: org.deptA, type: 'forAction' }],
    });
    const task = await post(org.managerA, `${doc(id)}/tasks`, {
      distributionId: dist.json.data[0].id,
      employeeId: org.memberA.employeeId,
    });
    expect(task.status, JSON.stringify(task.json)).toBe(201);
    const taskId = task.json.data.id as number;
    const deputy = org.outsider;
    const move = (state: string) =>
      call(h, {
        method: 'PUT',
        url: `${doc(id)}/tasks/${taskId}/state`,
        token: deputy.token,
        body: { state },
      });
    expect([403, 404, 422]).toContain((await move('inProgress')).status);

    expect((await delegate(org.memberA, deputy, 'tasks')).status).toBe(201);
    const box = (await get(deputy, '/correspondence/boxes/incoming-tasks')).json.data.items as {
      documentId: number;
      onBehalfOf: { id: number } | null;
    }[];
    expect(box.find((i) => i.documentId === id)?.onBehalfOf?.id).toBe(org.memberA.userId);
    const started = await move('inProgress');
    expect(started.status, JSON.stringify(started.json)).toBe(200);
    expect((await move('completed')).status).toBe(200);
    const timeline = (await get(org.clerk, `${doc(id)}/timeline`)).json.data as {
      event: string;
      actor: { id: number } | null;
      details: { onBehalfOf?: { id: number } };
    }[];
    const entry = timeline.find((e) => e.event === 'taskStarted');
    expect(entry?.actor?.id).toBe(deputy.userId);
    expect(entry?.details.onBehalfOf?.id).toBe(org.memberA.userId);
  });
});

describe('the rules of making one', () => {
  it('not to oneself, not onward, not overlapping, not to someone who cannot see, not ending in the past', async () => {
    const manager = await actor(h, role, unit);
    const deputy = await actor(h, role, unit);
    const third = await actor(h, role, unit);
    const self = await delegate(manager, manager, 'both');
    expect(self.status).toBe(422);
    expect(self.json.code).toBe('delegation.self');
    expect(
      (await delegate(manager, deputy, 'approvals', addDays(today, -3), addDays(today, -1))).json.code,
    ).toBe('delegation.endInPast');
    expect(
      (await delegate(manager, deputy, 'approvals', addDays(today, 3), addDays(today, 1))).json.code,
    ).toBe('delegation.range');
    expect((await delegate(manager, deputy, 'approvals')).status).toBe(201);
    // Onward: the deputy cannot hand the same on for overlapping dates (a tasks delegation is theirs to give).
    const onward = await delegate(deputy, third, 'both', addDays(today, 2), addDays(today, 8));
    expect(onward.status).toBe(422);
    expect(onward.json.code).toBe('delegation.onward');
    expect((await delegate(deputy, third, 'tasks')).status).toBe(201);
    // Overlap: one delegation per delegator and scope over overlapping dates.
    const again = await delegate(manager, third, 'both', addDays(today, 4), addDays(today, 9));
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('delegation.overlap');
    // Clearance: a delegate must see what the delegator sees.
    const boss = await actor(h, role, unit);
    await h.query(
      `insert into user_clearances (user_id, security_level_id) values (${boss.userId}, ${secret})`,
    );
    const low = await delegate(boss, third, 'approvals');
    expect(low.status).toBe(422);
    expect(low.json.code).toBe('delegation.delegateCannotSee');
    // Inactive delegate.
    await h.query(`update users set active = false where id = ${third.userId}`);
    expect((await delegate(boss, third, 'approvals')).json.code).toBe('delegation.delegateInactive');

    const mine = await get(manager, '/delegations/mine');
    expect(mine.json.data.given).toHaveLength(1);
    expect((await get(deputy, '/delegations/mine')).json.data.received).toHaveLength(1);
    // The administration's list and its filters; a plain user has no access to it.
    expect((await get(manager, '/delegations')).status).toBe(403);
    const listed = await get(admin, `/delegations?userId=${manager.userId}&state=inForce`);
    expect(listed.json.data).toHaveLength(1);
    const away = await actor(h, role, unit);
    const forOther = await post(admin, '/delegations/for', {
      delegatorId: away.userId,
      delegateId: manager.userId,
      scope: 'tasks',
      startsOn: today,
      endsOn: addDays(today, 2),
    });
    expect(forOther.status, JSON.stringify(forOther.json)).toBe(201);
    expect(forOther.json.data.createdBy.id).toBe(admin.userId);
  });
});

describe('stalled circuits', () => {
  it('lists a circuit waiting on a deactivated approver and replaces them', async () => {
    const manager = await actor(h, role, unit);
    const substitute = await actor(h, role, unit);
    const id = await letterFor(manager);
    await h.query(`update users set active = false where id = ${manager.userId}`);
    const listed = await get(admin, '/delegations/stalled-circuits');
    expect(listed.status).toBe(200);
    const row = (listed.json.data as { documentId: number; memberId: number; step: number }[]).find(
      (r) => r.documentId === id,
    );
    expect(row).toMatchObject({ step: 1, approver: { id: manager.userId } });
    expect((await get(author, '/delegations/stalled-circuits')).status).toBe(403);

    const res = await post(admin, `/delegations/stalled-circuits/${row!.memberId}/replace`, {
      userId: substitute.userId,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect((await requiring(substitute)).some((i) => i.documentId === id)).toBe(true);
    expect(
      ((await get(admin, '/delegations/stalled-circuits')).json.data as { documentId: number }[]).some(
        (r) => r.documentId === id,
      ),
    ).toBe(false);
    const timeline = (await get(author, `${doc(id)}/timeline`)).json.data as { event: string }[];
    expect(timeline.some((e) => e.event === 'approverReplaced')).toBe(true);
    expect(
      (
        await h.query(
          `select 1 from audit_log where action = 'circuits.approverReplaced' and target_id = '${id}'`,
        )
      ).length,
    ).toBe(1);
    // Again: it is no longer stalled.
    const again = await post(admin, `/delegations/stalled-circuits/${row!.memberId}/replace`, {
      userId: substitute.userId,
    });
    expect(again.status).toBe(409);
    expect((await approve(substitute, id)).status).toBe(200);
  });
});
