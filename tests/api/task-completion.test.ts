/**
 * Completing a task carries an optional result shown in the timeline; whoever assigned it (or leads the
 * department) can reopen it, which takes the department's completion back; others cannot; a task changed
 * meanwhile is 409, never a double step.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startHarness, type Harness } from './support/harness';
import { letter, organisation, type Org, type Actor } from './support/correspondence';

let h: Harness;
let org: Org;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
});
afterAll(async () => {
  await h?.close();
});

async function taskedLetter() {
  const created = await call(h, {
    method: 'POST',
    url: '/correspondence/documents',
    token: org.clerk.token,
    body: { ...letter(org), register: true },
  });
  const id = created.json.data.id as number;
  const dist = await call(h, {
    method: 'POST',
    url: `/correspondence/documents/${id}/distribution`,
    token: org.clerk.token,
    body: { items: [{ departmentId: org.deptA, type: 'forAction' }] },
  });
  const task = await call(h, {
    method: 'POST',
    url: `/correspondence/documents/${id}/tasks`,
    token: org.managerA.token,
    body: { distributionId: dist.json.data[0].id, employeeId: org.memberA.employeeId },
  });
  expect(task.status, JSON.stringify(task.json)).toBe(201);
  return { id, taskId: task.json.data.id as number };
}

const move = (a: Actor, id: number, taskId: number, body: Record<string, unknown>) =>
  call(h, {
    method: 'PUT',
    url: `/correspondence/documents/${id}/tasks/${taskId}/state`,
    token: a.token,
    body,
    lang: 'en',
  });
const completedItem = async (id: number) =>
  (
    await h.query<{ done: boolean }>(
      `select completed_at is not null as done from distributions where document_id = ${id}`,
    )
  )[0]!.done;

describe('completing and reopening a task', () => {
  it('completes with a result note the timeline shows, and the department item completes', async () => {
    const { id, taskId } = await taskedLetter();
    const done = await move(org.memberA, id, taskId, { state: 'completed', note: 'أُعدّ الرد\nوأُرسل' });
    expect(done.status).toBe(200);
    expect(await completedItem(id)).toBe(true);
    const timeline = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${id}/timeline`,
      token: org.clerk.token,
    });
    const entry = timeline.json.data.find((e: { event: string }) => e.event === 'taskCompleted');
    expect(entry.details.notes).toBe('أُعدّ الرد\nوأُرسل');
  });

  it('a second click on a completed task is a 409, not a second completion', async () => {
    const { id, taskId } = await taskedLetter();
    const [a, b] = await Promise.all([
      move(org.memberA, id, taskId, { state: 'completed' }),
      move(org.memberA, id, taskId, { state: 'completed' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, expect.any(Number)]);
    expect([409, 422]).toContain(Math.max(a.status, b.status));
    const events = await h.query(
      `select id from document_events where document_id = ${id} and event = 'taskCompleted'`,
    );
    expect(events.length).toBe(1);
  });

  it('the assigner reopens with a reason; the item is open again; the tasker and others cannot', async () => {
    const { id, taskId } = await taskedLetter();
    await move(org.memberA, id, taskId, { state: 'completed' });
    // The tasker cannot reopen their own completed task; a manager of another department cannot see it.
    const self = await move(org.memberA, id, taskId, { state: 'inProgress' });
    expect(self.status).toBe(403);
    expect(self.json.detail).toMatch(/reopened by whoever assigned it/);
    expect((await move(org.managerB, id, taskId, { state: 'inProgress' })).status).toBe(404);
    const reopened = await move(org.managerA, id, taskId, { state: 'inProgress', note: 'ينقصه المرفق' });
    expect(reopened.status).toBe(200);
    expect(reopened.json.data.state).toBe('inProgress');
    expect(reopened.json.data.completedAt).toBeNull();
    expect(await completedItem(id)).toBe(false);
    const timeline = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${id}/timeline`,
      token: org.clerk.token,
    });
    const entry = timeline.json.data.find((e: { event: string }) => e.event === 'taskReopened');
    expect(entry.details.notes).toBe('ينقصه المرفق');
    // Completed again, the item completes again.
    expect((await move(org.memberA, id, taskId, { state: 'completed' })).status).toBe(200);
    expect(await completedItem(id)).toBe(true);
  });
});
