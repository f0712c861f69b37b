/**
 * Who sees a filed document distributed to a department (issue 23, item 1): a registered incoming letter
 * or an approved memo reaches, for action and for knowledge alike, the department's manager, its
 * secretary and every active employee whose own department it is — not those of its sub-departments, not
 * other departments, not anyone above their clearance. For each of the four cases, every one of those
 * people is asked the box (incoming letters, approved memos), the document, search and the box's count,
 * and the four answers must agree. Seeing is not acting: a member tasks and distributes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { call, makeRole, startHarness, type Harness } from './support/harness';
import { actor, department, type Actor } from './support/correspondence';
import { settleSearch } from './support/search';

let h: Harness;

const ALL: Record<string, ('view' | 'add' | 'edit' | 'delete' | 'distribute' | 'approve' | 'export')[]> = {
  [PAGES.incoming]: ['view', 'edit', 'delete', 'distribute', 'export'],
  [PAGES.followUps]: ['view', 'edit', 'export'],
  [PAGES.incomingTasks]: ['view', 'edit'],
  [PAGES.inboxDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.inboxAdd]: ['view', 'add'],
  [PAGES.approvedMemos]: ['view', 'distribute', 'export'],
  [PAGES.memoDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.memoAdd]: ['view', 'add'],
  [PAGES.memosAwaitingApproval]: ['view'],
  [PAGES.memosRequiringApproval]: ['view', 'approve'],
  [PAGES.search]: ['view'],
};

interface World {
  deptA: number;
  deptB: number;
  sender: number;
  codIn: number;
  codMemo: number;
  secret: number;
  clerk: Actor;
  minister: Actor;
  author: Actor;
  managerB: Actor;
  managerA: Actor;
  secretaryA: Actor;
  memberA: Actor;
  /** An employee of department A without clearance for the (secret) documents. */
  uncleared: Actor;
  /** An employee of a sub-department of A. */
  subMember: Actor;
  /** An employee of another department. */
  outsider: Actor;
}
let w: World;

const get = (who: Actor, url: string) => call(h, { method: 'GET', url, token: who.token });
const post = (who: Actor, url: string, body: unknown = {}) =>
  call(h, { method: 'POST', url, token: who.token, body });
const doc = (id: number) => `/correspondence/documents/${id}`;

beforeAll(async () => {
  h = await startHarness({ JOBS_WORKER: '1' });
  const role = await makeRole(h, ALL);
  const admin = await actor(h, 'admin', null);
  const archive = await department(h, 'الأرشيف', { archive: true });
  const entity = await department(h, 'الوزارة', { archiveOfficeId: archive });
  const deptA = await department(h, 'الموارد البشرية', { archiveOfficeId: archive });
  const subA = await department(h, 'قسم شؤون الموظفين', { archiveOfficeId: archive });
  const deptB = await department(h, 'الشؤون المالية', { archiveOfficeId: archive });
  const other = await department(h, 'الشؤون القانونية', { archiveOfficeId: archive });
  const sender = await department(h, 'وزارة الخارجية', { type: 'external' });
  await h.query(`update departments set is_entity = true where id = ${entity}`);
  await h.query(`update departments set parent_id = ${entity} where id in (${deptA}, ${deptB}, ${other})`);
  await h.query(`update departments set parent_id = ${deptA} where id = ${subA}`);
  const people = {
    clerk: await actor(h, role, archive),
    minister: await actor(h, role, entity),
    author: await actor(h, role, deptB),
    managerB: await actor(h, role, deptB),
    managerA: await actor(h, role, deptA),
    secretaryA: await actor(h, role, deptA),
    memberA: await actor(h, role, deptA),
    uncleared: await actor(h, role, deptA),
    subMember: await actor(h, role, subA),
    outsider: await actor(h, role, other),
  };
  await h.query(
    `update departments set manager_employee_id = ${people.minister.employeeId} where id = ${entity}`,
  );
  await h.query(
    `update departments set manager_employee_id = ${people.managerA.employeeId} where id = ${deptA}`,
  );
  await h.query(
    `update departments set manager_employee_id = ${people.managerB.employeeId} where id = ${deptB}`,
  );
  await h.query(
    `insert into secretary_offices (department_id, secretary_employee_id) values (${deptA}, ${people.secretaryA.employeeId})`,
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
  const codIn = await make('codifications', {
    nameAr: 'وارد',
    nameEn: 'Incoming',
    prefix: 'INV',
    direction: 'in',
  });
  const codMemo = await make('codifications', {
    nameAr: 'مذكرة',
    nameEn: 'Memo',
    prefix: 'MEV',
    direction: 'memo',
  });
  await make('security-levels', { nameAr: 'عادي', nameEn: 'Normal', level: 1 });
  const secret = await make('security-levels', { nameAr: 'سري', nameEn: 'Secret', level: 3 });
  // Everyone is cleared for secret documents but `uncleared` (who keeps the lowest level).
  for (const [name, a] of Object.entries(people))
    if (name !== 'uncleared')
      await h.query(
        `insert into user_clearances (user_id, security_level_id) values (${a.userId}, ${secret})`,
      );
  w = { deptA, deptB, sender, codIn, codMemo, secret, ...people };
});
afterAll(async () => {
  await h?.close();
});

type Kind = 'letter' | 'memo';
type Type = 'forAction' | 'forKnowledge';

/** A secret filed document that reached department A as `type`; answers its id. */
async function reachingA(kind: Kind, type: Type, subject: string): Promise<number> {
  if (kind === 'letter') {
    const created = await post(w.clerk, '/correspondence/documents', {
      direction: 'in',
      subject,
      senderDepartmentId: w.sender,
      recipientDepartmentId: w.deptA,
      documentDate: '2026-01-15',
      codificationId: w.codIn,
      securityLevelId: w.secret,
      register: true,
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.data.id as number;
    const dist = await post(w.clerk, `${doc(id)}/distribution`, { items: [{ departmentId: w.deptA, type }] });
    expect(dist.status, JSON.stringify(dist.json)).toBe(200);
    return id;
  }
  // A memo of department B, signed by the entity's manager: for action it is addressed to A (it reaches
  // its recipients for action when approved); for knowledge it is addressed to B, whose manager passes
  // it on to A for knowledge.
  const created = await post(w.author, '/correspondence/documents', {
    direction: 'memo',
    subject,
    codificationId: w.codMemo,
    securityLevelId: w.secret,
    recipientIds: [type === 'forAction' ? w.deptA : w.deptB],
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const id = created.json.data.id as number;
  const submitted = await post(w.author, `${doc(id)}/submit`, {
    steps: [{ userIds: [w.minister.userId] }],
    version: created.json.data.version,
  });
  expect(submitted.status, JSON.stringify(submitted.json)).toBe(200);
  const approved = await post(w.minister, `${doc(id)}/approval`, {
    action: 'approve',
    version: submitted.json.data.version,
  });
  expect(approved.status, JSON.stringify(approved.json)).toBe(200);
  if (type === 'forKnowledge') {
    const dist = await post(w.managerB, `${doc(id)}/distribution`, {
      items: [{ departmentId: w.deptA, type: 'forKnowledge' }],
    });
    expect(dist.status, JSON.stringify(dist.json)).toBe(200);
  }
  return id;
}

interface Seen {
  box: boolean;
  /** The box's row: which department received it, and how. */
  received: { department: number; type: string } | null;
  total: number;
  document: number;
  search: boolean;
}

/** What `who` is answered about document `id` by its box, the document, search and the box's count. */
async function seenBy(who: Actor, kind: Kind, id: number, subject: string): Promise<Seen> {
  const box = kind === 'letter' ? 'incoming' : 'approved-memos';
  const page = await get(who, `/correspondence/boxes/${box}?pageSize=50&q=${encodeURIComponent(subject)}`);
  expect(page.status, JSON.stringify(page.json)).toBe(200);
  const items = page.json.data.items as {
    documentId: number;
    distribution: { department: { id: number }; type: string } | null;
  }[];
  const row = items.find((i) => i.documentId === id && i.distribution?.department.id === w.deptA);
  const found = await get(who, `/search?q=${encodeURIComponent(subject)}`);
  expect(found.status, JSON.stringify(found.json)).toBe(200);
  return {
    box: items.some((i) => i.documentId === id),
    received: row?.distribution
      ? { department: row.distribution.department.id, type: row.distribution.type }
      : null,
    total: page.json.data.total as number,
    document: (await get(who, doc(id))).status,
    search: (found.json.data.items as { documentId: number }[]).some((i) => i.documentId === id),
  };
}

const SUBJECTS: Record<`${Kind}:${Type}`, string> = {
  'letter:forAction': 'طلب صيانة المستودعات الشمالية',
  'letter:forKnowledge': 'تعميم مواعيد الدوام الصيفي',
  'memo:forAction': 'مذكرة ترشيح المتدربين الجدد',
  'memo:forKnowledge': 'مذكرة تحديث الهيكل التنظيمي',
};

describe('a filed document distributed to a department', () => {
  for (const kind of ['letter', 'memo'] as const)
    for (const type of ['forAction', 'forKnowledge'] as const)
      it(`${kind}, ${type}: its manager, secretary and members see it everywhere; nobody else anywhere`, async () => {
        const subject = SUBJECTS[`${kind}:${type}`];
        const id = await reachingA(kind, type, subject);
        await settleSearch(h);
        const receivers = { managerA: w.managerA, secretaryA: w.secretaryA, memberA: w.memberA };
        const strangers = { subMember: w.subMember, outsider: w.outsider, uncleared: w.uncleared };
        for (const [name, who] of Object.entries(receivers))
          expect(await seenBy(who, kind, id, subject), name).toEqual({
            box: true,
            received: { department: w.deptA, type },
            total: 1,
            document: 200,
            search: true,
          });
        for (const [name, who] of Object.entries(strangers))
          expect(await seenBy(who, kind, id, subject), name).toEqual({
            box: false,
            received: null,
            total: 0,
            document: 404,
            search: false,
          });
        // The document's other readings follow the same rule.
        for (const path of ['timeline', 'attachments', 'distribution']) {
          expect((await get(w.memberA, `${doc(id)}/${path}`)).status, path).toBe(200);
          expect((await get(w.subMember, `${doc(id)}/${path}`)).status, path).toBe(404);
        }

        // Seeing is not acting: the member tasks nobody and distributes nothing; the lead still tasks.
        const view = (await get(w.memberA, doc(id))).json.data;
        expect(view.abilities).toMatchObject({ distribute: false, assignTasks: false, assignTasksFor: [] });
        const distributions = (await get(w.managerA, `${doc(id)}/distribution`)).json.data as {
          id: number;
          department: { id: number };
        }[];
        const toA = distributions.find((x) => x.department.id === w.deptA)!;
        const byMember = await post(w.memberA, `${doc(id)}/tasks`, {
          distributionId: toA.id,
          employeeId: w.memberA.employeeId,
        });
        expect(byMember.status).toBe(422);
        expect(byMember.json.code).toBe('correspondence.notDepartmentLead');
        const further = await post(w.memberA, `${doc(id)}/distribution`, {
          items: [{ departmentId: w.deptB, type: 'forKnowledge' }],
        });
        expect(further.status).toBe(422);
        expect((await get(w.managerA, doc(id))).json.data.abilities.assignTasksFor).toEqual([toA.id]);
      });

  it('an employee who leaves the department (deactivated) no longer sees what reached it', async () => {
    const subject = 'إشعار تجديد عقود النظافة';
    const id = await reachingA('letter', 'forAction', subject);
    await settleSearch(h);
    expect((await seenBy(w.memberA, 'letter', id, subject)).document).toBe(200);
    await h.query(`update employees set active = false where id = ${w.memberA.employeeId}`);
    try {
      expect(await seenBy(w.memberA, 'letter', id, subject)).toEqual({
        box: false,
        received: null,
        total: 0,
        document: 404,
        search: false,
      });
    } finally {
      await h.query(`update employees set active = true where id = ${w.memberA.employeeId}`);
    }
  });
});
