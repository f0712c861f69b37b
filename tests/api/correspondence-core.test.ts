/**
 * The correspondence core end to end through the API: settings lists, drafts and registration with
 * numbers, distribution for action and knowledge, tasks and their allowed and refused transitions,
 * completion, follow-ups, the timeline, attachments by content, the visibility matrix (404, never 403)
 * and bad input in Arabic and English.
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
afterAll(async () => {
  await h?.close();
});

const get = (a: Actor, url: string) => call(h, { method: 'GET', url, token: a.token });
const post = (a: Actor, url: string, body: unknown = {}, lang?: 'ar' | 'en') =>
  call(h, { method: 'POST', url, token: a.token, body, ...(lang ? { lang } : {}) });
const put = (a: Actor, url: string, body: unknown) => call(h, { method: 'PUT', url, token: a.token, body });

/** A minimal valid PDF (one empty page). */
function pdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function upload(a: Actor, documentId: number, bytes: Buffer, name = 'letter.pdf') {
  const boundary = 'sijillboundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.app.inject({
    method: 'POST',
    url: `/correspondence/documents/${documentId}/attachments`,
    headers: {
      authorization: `Bearer ${a.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  return { status: res.statusCode, json: res.json() };
}

/** Registers a letter as the clerk and distributes it: A for action, B for knowledge. */
async function registeredAndDistributed(extra: Record<string, unknown> = {}) {
  const created = await post(org.clerk, '/correspondence/documents', {
    ...letter(org, extra),
    register: true,
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const id = created.json.data.id as number;
  const dist = await post(org.clerk, `/correspondence/documents/${id}/distribution`, {
    items: [
      { departmentId: org.deptA, type: 'forAction', notes: 'للإجراء اللازم' },
      { departmentId: org.deptB, type: 'forKnowledge' },
    ],
  });
  expect(dist.status, JSON.stringify(dist.json)).toBe(200);
  const actionId = dist.json.data.find((d: { type: string }) => d.type === 'forAction').id as number;
  return { id, docNumber: created.json.data.docNumber as string, actionId };
}

describe('settings lists', () => {
  it('lists, edits and deactivates items; names are unique per list; options are for everyone signed in', async () => {
    const list = await get(org.admin, '/correspondence/settings/codifications');
    expect(list.status).toBe(200);
    expect(list.json.data.items.some((i: { id: number }) => i.id === org.codIn)).toBe(true);
    const item = list.json.data.items.find((i: { id: number }) => i.id === org.codIn);
    const dup = await post(org.admin, '/correspondence/settings/codifications', {
      nameAr: item.nameAr,
      nameEn: 'Other',
      prefix: 'ZZ',
      direction: 'in',
    });
    expect(dup.status).toBe(409);
    expect(dup.json.errors.nameAr).toBeDefined();
    const m = await post(org.admin, '/correspondence/settings/mediums', { nameAr: 'فاكس', nameEn: 'Fax' });
    expect(m.status).toBe(201);
    const off = await put(org.admin, `/correspondence/settings/mediums/${m.json.data.id}/active`, {
      active: false,
    });
    expect(off.json.data.active).toBe(false);
    const options = await get(org.memberA, '/correspondence/settings/mediums/options');
    expect(options.status).toBe(200);
    expect(options.json.data.map((o: { id: number }) => o.id)).not.toContain(m.json.data.id);
    // A field the list does not use is refused.
    const bad = await post(org.admin, '/correspondence/settings/mediums', {
      nameAr: 'س',
      nameEn: 'S',
      level: 3,
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.level).toBeDefined();
    const md = await post(org.admin, '/correspondence/settings/main-distribution', {
      departmentId: org.deptA,
    });
    expect(md.status).toBe(201);
    expect(md.json.data.department.id).toBe(org.deptA);
    expect(md.json.data.nameAr).toMatch(/الشؤون المالية/);
    expect((await get(org.memberA, '/correspondence/settings/mediums')).status).toBe(403);
  });
});

describe('drafts and registration', () => {
  it('a draft has no number; the archive office registers it with the next number; the timeline records both', async () => {
    const draft = await post(org.clerk, '/correspondence/documents', letter(org));
    expect(draft.status).toBe(201);
    expect(draft.json.data).toMatchObject({ state: 'draft', docNumber: null, sequence: null });
    const id = draft.json.data.id;
    const drafts = await get(org.clerk, '/correspondence/boxes/inbox-drafts');
    expect(drafts.json.data.items.map((i: { documentId: number }) => i.documentId)).toContain(id);
    const edited = await put(org.clerk, `/correspondence/documents/${id}`, { summary: 'ملخص' });
    expect(edited.json.data.summary).toBe('ملخص');
    // A manager is not the archive office.
    expect((await post(org.managerA, `/correspondence/documents/${id}/register`)).status).toBe(404);
    const reg = await post(org.clerk, `/correspondence/documents/${id}/register`, undefined, 'en');
    expect(reg.status).toBe(200);
    const year = new Date().getUTCFullYear();
    expect(reg.json.data.docNumber).toMatch(new RegExp(`^IN\\d+-${year}-\\d{6}$`));
    expect(reg.json.returnMessage).toContain(reg.json.data.docNumber);
    expect((await post(org.clerk, `/correspondence/documents/${id}/register`)).status).toBe(422);
    expect((await put(org.clerk, `/correspondence/documents/${id}`, { summary: 'x' })).status).toBe(422);
    const events = await get(org.clerk, `/correspondence/documents/${id}/timeline`);
    expect(events.json.data.map((e: { event: string }) => e.event)).toEqual([
      'created',
      'updated',
      'registered',
    ]);
  });

  it('registration of an incomplete draft answers 422 with the missing fields', async () => {
    const draft = await post(org.clerk, '/correspondence/documents', { direction: 'in', subject: 'ناقص' });
    const res = await post(
      org.clerk,
      `/correspondence/documents/${draft.json.data.id}/register`,
      undefined,
      'en',
    );
    expect(res.status).toBe(422);
    expect(res.json.errors).toMatchObject({
      codificationId: ['This field is required'],
      senderDepartmentId: ['This field is required'],
    });
  });

  it('numbers are consecutive per codification and year, and a draft can be deleted', async () => {
    const a = await post(org.clerk, '/correspondence/documents', { ...letter(org), register: true });
    const b = await post(org.clerk, '/correspondence/documents', { ...letter(org), register: true });
    expect(b.json.data.sequence).toBe(a.json.data.sequence + 1);
    const d = await post(org.clerk, '/correspondence/documents', letter(org));
    expect(
      (
        await call(h, {
          method: 'DELETE',
          url: `/correspondence/documents/${d.json.data.id}`,
          token: org.clerk.token,
        })
      ).status,
    ).toBe(200);
    expect((await get(org.clerk, `/correspondence/documents/${d.json.data.id}`)).status).toBe(404);
  });
});

describe('distribution, tasks and completion', () => {
  it('runs the whole circuit: distribute, task, start, complete; completion and the timeline follow', async () => {
    const { id, actionId } = await registeredAndDistributed();
    const incomingA = await get(org.managerA, '/correspondence/boxes/incoming');
    const rowA = incomingA.json.data.items.find((i: { documentId: number }) => i.documentId === id);
    expect(rowA.distribution).toMatchObject({ type: 'forAction', completed: false });
    const incomingB = await get(org.memberB, '/correspondence/boxes/incoming');
    expect(
      incomingB.json.data.items.find((i: { documentId: number }) => i.documentId === id).distribution.type,
    ).toBe('forKnowledge');
    // Distributing again to the same department is a conflict.
    const again = await post(org.clerk, `/correspondence/documents/${id}/distribution`, {
      items: [{ departmentId: org.deptA, type: 'forKnowledge' }],
    });
    expect(again.status).toBe(409);
    // Follow-ups of the manager: the open action item.
    const fu = await get(org.managerA, '/correspondence/boxes/follow-ups');
    expect(fu.json.data.items.find((i: { documentId: number }) => i.documentId === id).followReason).toBe(
      'action',
    );
    // Only the manager or secretary of A tasks, and only employees of A.
    const byMember = await post(org.memberA, `/correspondence/documents/${id}/tasks`, {
      distributionId: actionId,
      employeeId: org.memberA.employeeId,
    });
    // A member sees the action item (their department's) but tasks nobody: that is the lead's.
    expect(byMember.status).toBe(422);
    expect(byMember.json.code).toBe('correspondence.notDepartmentLead');
    const wrongEmployee = await post(org.managerA, `/correspondence/documents/${id}/tasks`, {
      distributionId: actionId,
      employeeId: org.memberB.employeeId,
    });
    expect(wrongEmployee.status).toBe(400);
    const task = await post(org.secretaryA, `/correspondence/documents/${id}/tasks`, {
      distributionId: actionId,
      employeeId: org.memberA.employeeId,
      taskDate: '2020-01-01',
      notes: 'يرجى الدراسة',
    });
    expect(task.status, JSON.stringify(task.json)).toBe(201);
    expect(task.json.data).toMatchObject({ state: 'new', overdue: true });
    // Each says what it may do, by the rules the actions enforce.
    const abilities = async (who: typeof org.clerk) =>
      (await get(who, `/correspondence/documents/${id}`)).json.data.abilities;
    expect(await abilities(org.clerk)).toMatchObject({
      distribute: true,
      assignTasks: false,
      assignTasksFor: [],
    });
    expect(await abilities(org.managerA)).toMatchObject({
      distribute: false,
      assignTasks: true,
      assignTasksFor: [actionId],
    });
    expect(await abilities(org.secretaryA)).toMatchObject({
      distribute: false,
      assignTasks: true,
      assignTasksFor: [actionId],
    });
    expect(await abilities(org.memberA)).toMatchObject({
      distribute: false,
      assignTasks: false,
      assignTasksFor: [],
    });
    const taskUrl = `/correspondence/documents/${id}/tasks/${task.json.data.id}`;
    // The tasker sees the document and the task.
    expect((await get(org.memberA, `/correspondence/documents/${id}`)).status).toBe(200);
    const tasksBox = await get(org.memberA, '/correspondence/boxes/incoming-tasks');
    expect(
      tasksBox.json.data.items.find((i: { documentId: number }) => i.documentId === id).task,
    ).toMatchObject({
      state: 'new',
      tasker: { id: org.memberA.employeeId },
    });
    // Someone else's task: refused.
    expect((await put(org.managerB, `${taskUrl}/state`, { state: 'inProgress' })).status).toBe(422);
    expect((await put(org.outsider, `${taskUrl}/state`, { state: 'inProgress' })).status).toBe(404);
    expect((await put(org.memberA, `${taskUrl}/state`, { state: 'new' })).status).toBe(422);
    expect((await put(org.memberA, `${taskUrl}/state`, { state: 'inProgress' })).json.data.state).toBe(
      'inProgress',
    );
    expect((await put(org.memberA, `${taskUrl}/state`, { state: 'new' })).status).toBe(422);
    expect((await put(org.memberA, `${taskUrl}/state`, { state: 'inProgress' })).status).toBe(422);
    const done = await put(org.memberA, `${taskUrl}/state`, { state: 'completed' });
    expect(done.json.data.state).toBe('completed');
    // Reopening a completed task is for whoever assigned it (tests/api/task-completion.test.ts), not the tasker.
    expect((await put(org.memberA, `${taskUrl}/state`, { state: 'inProgress' })).status).toBe(403);
    expect((await put(org.memberA, `${taskUrl}/state`, { state: 'completed' })).status).toBe(422);
    // The clerk sees it completed.
    const doc = await get(org.clerk, `/correspondence/documents/${id}`);
    expect(doc.json.data).toMatchObject({ distributed: true, completed: true });
    const completed = await get(org.clerk, '/correspondence/boxes/incoming?view=completed');
    expect(completed.json.data.items.map((i: { documentId: number }) => i.documentId)).toContain(id);
    const open = await get(org.clerk, '/correspondence/boxes/incoming?view=notCompleted');
    expect(open.json.data.items.map((i: { documentId: number }) => i.documentId)).not.toContain(id);
    const events = (await get(org.clerk, `/correspondence/documents/${id}/timeline`)).json.data.map(
      (e: { event: string }) => e.event,
    );
    expect(events).toEqual([
      'created',
      'registered',
      'distributed',
      'distributed',
      'taskAssigned',
      'taskStarted',
      'taskCompleted',
      'completed',
    ]);
  });

  it('new → completed directly is allowed; a second action task reopens the item', async () => {
    const { id, actionId } = await registeredAndDistributed();
    const t1 = await post(org.managerA, `/correspondence/documents/${id}/tasks`, {
      distributionId: actionId,
      employeeId: org.memberA.employeeId,
    });
    await put(org.memberA, `/correspondence/documents/${id}/tasks/${t1.json.data.id}/state`, {
      state: 'completed',
    });
    expect((await get(org.clerk, `/correspondence/documents/${id}`)).json.data.completed).toBe(true);
    await post(org.managerA, `/correspondence/documents/${id}/tasks`, {
      distributionId: actionId,
      employeeId: org.secretaryA.employeeId,
    });
    expect((await get(org.clerk, `/correspondence/documents/${id}`)).json.data.completed).toBe(false);
  });

  it('follow and unfollow; the calendar shows tasks and follow-up dates', async () => {
    const { id, actionId } = await registeredAndDistributed();
    const f = await post(org.memberB, `/correspondence/documents/${id}/follow`, { dueDate: '2020-02-02' });
    expect(f.status).toBe(200);
    const fu = await get(org.memberB, '/correspondence/boxes/follow-ups');
    expect(fu.json.data.items.find((i: { documentId: number }) => i.documentId === id)).toMatchObject({
      followReason: 'followed',
      overdue: true,
      dueDate: '2020-02-02',
    });
    const cal = await get(org.memberB, '/user/calendar/events?from=2020-02-01&to=2020-02-28');
    expect(cal.json.data.map((e: { key: string }) => e.key)).toContain(`follow:${id}`);
    await post(org.managerA, `/correspondence/documents/${id}/tasks`, {
      distributionId: actionId,
      employeeId: org.memberA.employeeId,
      taskDate: '2030-03-03',
    });
    const cal2 = await get(org.memberA, '/user/calendar/events?from=2030-03-01&to=2030-03-31');
    expect(cal2.json.data[0]).toMatchObject({ kind: 'task', date: '2030-03-03', documentId: id });
    // The manager who leads the department follows that task on the same day; others do not see it.
    const led = await get(org.managerA, '/user/calendar/events?from=2030-03-01&to=2030-03-31');
    expect(led.json.data).toEqual([
      expect.objectContaining({ kind: 'followUp', date: '2030-03-03', documentId: id, taskState: 'new' }),
    ]);
    expect(led.json.data[0].key).toMatch(/^assigned:\d+$/);
    const other = await get(org.managerB, '/user/calendar/events?from=2030-03-01&to=2030-03-31');
    expect(other.json.data).toEqual([]);
    expect(
      (
        await call(h, {
          method: 'DELETE',
          url: `/correspondence/documents/${id}/follow`,
          token: org.memberB.token,
        })
      ).status,
    ).toBe(200);
  });
});

describe('visibility', () => {
  it('creator, receiving managers, secretary and members (action and knowledge) see it; others get 404', async () => {
    const { id } = await registeredAndDistributed();
    const url = `/correspondence/documents/${id}`;
    for (const a of [org.clerk, org.managerA, org.secretaryA, org.managerB, org.memberB, org.admin])
      expect((await get(a, url)).status).toBe(200);
    // A member of the action department sees it untasked (tests/api/department-visibility.test.ts).
    for (const path of [url, `${url}/timeline`, `${url}/attachments`, `${url}/distribution`])
      expect((await get(org.memberA, path)).status, path).toBe(200);
    expect((await get(org.outsider, url)).status).toBe(404);
    expect((await post(org.outsider, `${url}/follow`)).status).toBe(404);
    const box = await get(org.outsider, '/correspondence/boxes/incoming');
    expect(box.json.data.items.map((i: { documentId: number }) => i.documentId)).not.toContain(id);
  });

  it('a document above the clearance is 404 even to its receiving manager, until the clearance is raised', async () => {
    const clerkClearance = `/correspondence/settings/security-levels/clearance/${org.clerk.userId}`;
    expect((await put(org.admin, clerkClearance, { securityLevelId: org.levels.secret })).status).toBe(200);
    const { id } = await registeredAndDistributed({ securityLevelId: org.levels.secret });
    expect((await get(org.managerA, `/correspondence/documents/${id}`)).status).toBe(404);
    await put(org.admin, clerkClearance, { securityLevelId: null });
    expect((await get(org.clerk, `/correspondence/documents/${id}`)).status).toBe(404);
    await put(org.admin, clerkClearance, { securityLevelId: org.levels.secret });
    const box = await get(org.managerA, '/correspondence/boxes/incoming');
    expect(box.json.data.items.map((i: { documentId: number }) => i.documentId)).not.toContain(id);
    const set = await put(
      org.admin,
      `/correspondence/settings/security-levels/clearance/${org.managerA.userId}`,
      {
        securityLevelId: org.levels.secret,
      },
    );
    expect(set.status).toBe(200);
    expect((await get(org.managerA, `/correspondence/documents/${id}`)).status).toBe(200);
    expect((await get(org.admin, `/correspondence/documents/${id}`)).status).toBe(200);
  });

  it('drafts are seen by their creator only', async () => {
    const d = await post(org.clerk, '/correspondence/documents', letter(org));
    expect((await get(org.managerA, `/correspondence/documents/${d.json.data.id}`)).status).toBe(404);
  });
});

describe('boxes', () => {
  it('pages, sorts, filters by match mode, searches Arabic subjects with normalisation, and ranges dates', async () => {
    await registeredAndDistributed({ subject: 'تقرير الإدارة المالية للربع الأول' });
    const url = (qs: string) => `/correspondence/boxes/incoming?${qs}`;
    const all = await get(org.managerA, url('pageSize=2&sort=-boxDate'));
    expect(all.status).toBe(200);
    expect(all.json.data.items).toHaveLength(2);
    expect(all.json.data.total).toBeGreaterThan(2);
    // Without hamza and with ه for ة: still found.
    const filters = JSON.stringify({
      subject: { operator: 'and', constraints: [{ value: 'الاداره الماليه', matchMode: 'contains' }] },
    });
    const found = await get(org.managerA, url(`filters=${encodeURIComponent(filters)}`));
    expect(found.json.data.items.map((i: { subject: string }) => i.subject)).toEqual([
      'تقرير الإدارة المالية للربع الأول',
    ]);
    const q = await get(org.managerA, url(`q=${encodeURIComponent('للربع الأول')}`));
    expect(q.json.data.total).toBe(1);
    const old = await get(org.managerA, url('fromDate=2001-01-01&toDate=2001-12-31'));
    expect(old.json.data.total).toBe(0);
    expect((await get(org.managerA, url('sort=-nope'))).status).toBe(400);
    expect((await get(org.managerA, url('fromDate=2026-02-30'))).status).toBe(400);
    const empty = await get(org.admin, '/correspondence/boxes/awaiting-approval');
    expect(empty.json.data).toMatchObject({ items: [], total: 0 });
  });
});

describe('attachments', () => {
  it('accepts a PDF by content, refuses anything else (415) whatever its name, streams it back to viewers only', async () => {
    const d = await post(org.clerk, '/correspondence/documents', letter(org));
    const id = d.json.data.id;
    const bytes = pdf();
    const ok = await upload(org.clerk, id, bytes, 'خطاب.pdf');
    expect(ok.status, JSON.stringify(ok.json)).toBe(201);
    expect(ok.json.data).toMatchObject({
      fileName: 'خطاب.pdf',
      size: bytes.length,
      contentType: 'application/pdf',
    });
    const fake = await upload(org.clerk, id, Buffer.from('not a pdf at all'), 'fake.pdf');
    expect(fake.status).toBe(415);
    expect(fake.json.detail).toBe('الرجاء اختيار ملف PDF صالح');
    await post(org.clerk, `/correspondence/documents/${id}/register`);
    const content = await h.app.inject({
      method: 'GET',
      url: `/correspondence/documents/${id}/attachments/${ok.json.data.id}/content`,
      headers: { authorization: `Bearer ${org.clerk.token}` },
    });
    expect(content.statusCode).toBe(200);
    expect(content.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(content.rawPayload, bytes)).toBe(0);
    const other = await get(
      org.outsider,
      `/correspondence/documents/${id}/attachments/${ok.json.data.id}/content`,
    );
    expect(other.status).toBe(404);
    const timeline = await get(org.clerk, `/correspondence/documents/${id}/timeline`);
    expect(timeline.json.data.map((e: { event: string }) => e.event)).toContain('attachmentAdded');
  });

  it('refuses a file above the size limit with 413', async () => {
    const big = await startHarness({ UPLOAD_MAX_BYTES: '2048' });
    try {
      const o = await organisation(big);
      const d = await call(big, {
        method: 'POST',
        url: '/correspondence/documents',
        token: o.clerk.token,
        body: letter(o),
      });
      const boundary = 'b';
      const res = await big.app.inject({
        method: 'POST',
        url: `/correspondence/documents/${d.json.data.id}/attachments`,
        headers: {
          authorization: `Bearer ${o.clerk.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\n`,
          ),
          Buffer.alloc(4096, 32),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
      expect(res.statusCode).toBe(413);
    } finally {
      await big.close();
    }
  });
});

describe('related documents', () => {
  it('links both ways and unlinks', async () => {
    const a = await post(org.clerk, '/correspondence/documents', letter(org));
    const b = await post(org.clerk, '/correspondence/documents', {
      ...letter(org),
      relatedIds: [a.json.data.id],
    });
    expect(b.json.data.related.map((r: { id: number }) => r.id)).toEqual([a.json.data.id]);
    const back = await get(org.clerk, `/correspondence/documents/${a.json.data.id}/related`);
    expect(back.json.data.map((r: { id: number }) => r.id)).toEqual([b.json.data.id]);
    const hidden = await post(org.outsider, '/correspondence/documents', letter(org, { subject: 'خاص' }));
    const refused = await post(org.clerk, `/correspondence/documents/${a.json.data.id}/related`, {
      documentIds: [hidden.json.data.id],
    });
    expect(refused.status).toBe(400);
  });
});

describe('bad input', () => {
  it('answers 400 with field messages in Arabic and English and changes nothing', async () => {
    const before = await countRows(h, 'documents');
    const body = { direction: 'sideways', subject: '', documentDate: '2026-13-01', unknown: 1 };
    const ar = await post(org.clerk, '/correspondence/documents', body, 'ar');
    const en = await post(org.clerk, '/correspondence/documents', body, 'en');
    expect(ar.status).toBe(400);
    expect(en.json.errors).toMatchObject({
      subject: ['This field is required'],
      documentDate: ['Please enter a valid date'],
      unknown: ['This field is not allowed'],
    });
    expect(ar.json.errors.subject).toEqual(['هذا الحقل مطلوب']);
    const wrongRef = await post(
      org.clerk,
      '/correspondence/documents',
      letter(org, { priorityId: org.medium }),
      'en',
    );
    expect(wrongRef.status).toBe(400);
    expect(wrongRef.json.errors.priorityId).toEqual(['Please choose one of the allowed values']);
    expect(await countRows(h, 'documents')).toBe(before);
  });
});
