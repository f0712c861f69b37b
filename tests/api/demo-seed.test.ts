/**
 * The demo seed (`seed-demo`) on a fresh database: the correspondence settings lists, letters registered
 * through the real numbering (consecutive per codification and year), a consistent timeline, the clerk's
 * incoming box holding what the clerk registered, receiving managers seeing what was distributed to their
 * departments, and a second run that creates nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRegistrationNumber } from '../../src-shared/numbering';
import { PAGES, SECTIONS } from '../../src-shared/pages';
import type { ServerContext } from '../../src-server/context';
import { JobQueue } from '../../src-server/jobs/queue';
import { systemClock } from '../../src-server/clock';
import { seedDemo } from '../../src-server/modules/demo/seed';
import { createPasswordHasher } from '../../src-server/security/passwords';
import { createLocalFileStore } from '../../src-server/storage/files';
import { call, signIn, startHarness, type Harness } from './support/harness';

const PASSWORD = 'demo-password-1';
let h: Harness;
let ctx: ServerContext;
let first: string[];

const n = async (text: string) => Number((await h.query<{ n: number }>(text))[0]!.n);
async function tokenOf(username: string) {
  // The demo users have not been offered two-factor enrolment yet: skip the offer, sign in plainly.
  await h.query(`update users set two_factor_skipped_at = now() where username = '${username}'`);
  return signIn(h, { username, password: PASSWORD });
}
async function box(token: string, name: string, extra = '') {
  const res = await call(h, {
    method: 'GET',
    url: `/correspondence/boxes/${name}?pageSize=200${extra}`,
    token,
  });
  expect(res.status).toBe(200);
  return res.json.data as { items: Record<string, any>[]; total: number }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

beforeAll(async () => {
  h = await startHarness();
  ctx = {
    db: h.database.db,
    config: h.config,
    passwords: createPasswordHasher({ memoryKib: 256, timeCost: 1 }),
    files: createLocalFileStore(h.filesDir),
    jobs: new JobQueue(h.database.db),
    clock: systemClock,
    listen: h.database.listen,
  };
  first = await seedDemo(ctx, PASSWORD);
});
afterAll(async () => {
  await h?.close();
});

describe('seed-demo correspondence', () => {
  it('creates the settings lists in Arabic and English', async () => {
    const lists = await h.query<{ list: string; n: number; levels: string | null; prefixes: string | null }>(
      `select list, count(*)::int as n, string_agg(level::text, ',' order by level) as levels,
         string_agg(prefix || ':' || direction, ',' order by prefix) as prefixes
       from correspondence_settings group by list order by list`,
    );
    const by = Object.fromEntries(lists.map((l) => [l.list, l]));
    expect(by.mediums?.n).toBe(4);
    expect(by.priorities?.levels).toBe('1,2,3');
    expect(by['security-levels']?.levels).toBe('1,2,3');
    expect(by.codifications?.prefixes).toBe('IN:in,INT:internal,MEMO:memo,OUT:out');
    expect(by['main-distribution']?.n).toBeGreaterThanOrEqual(3);
    expect(
      await n(`select count(*)::int as n from correspondence_settings
               where list <> 'main-distribution' and (name_ar is null or name_en is null)`),
    ).toBe(0);
    expect(first.some((c) => c.startsWith('correspondence settings ('))).toBe(true);
  });

  it('registers letters with distinct consecutive numbers per codification and year, leaves drafts', async () => {
    const docs = await h.query<{
      codification_id: number;
      year: number;
      sequence: number;
      doc_number: string;
      prefix: string;
    }>(
      `select d.codification_id, d.year, d.sequence, d.doc_number, c.prefix
       from documents d join correspondence_settings c on c.id = d.codification_id
       where d.state = 'registered' order by d.codification_id, d.year, d.sequence`,
    );
    expect(docs.length).toBeGreaterThanOrEqual(25);
    const groups = new Map<string, typeof docs>();
    for (const d of docs)
      groups.set(`${d.codification_id}/${d.year}`, [
        ...(groups.get(`${d.codification_id}/${d.year}`) ?? []),
        d,
      ]);
    for (const group of groups.values()) {
      expect(group.map((d) => Number(d.sequence))).toEqual(group.map((_, i) => i + 1));
      for (const d of group)
        expect(d.doc_number).toBe(formatRegistrationNumber(d.prefix, Number(d.year), Number(d.sequence)));
      // The counter continues after the last number handed out.
      expect(
        await n(`select next as n from document_counters
                 where codification_id = ${group[0]!.codification_id} and year = ${group[0]!.year}`),
      ).toBe(group.length + 1);
    }
    expect(new Set(docs.map((d) => d.doc_number)).size).toBe(docs.length);
    expect(await n(`select count(*)::int as n from documents where state = 'draft'`)).toBeGreaterThanOrEqual(
      2,
    );
    // Received dates spread over about two months.
    const [span] = await h.query<{ days: number }>(
      `select (max(received_date) - min(received_date))::int as days from documents`,
    );
    expect(Number(span!.days)).toBeGreaterThanOrEqual(45);
  });

  it('records every step in the timeline, as the service does', async () => {
    const missing = (event: string, from: string, where: string, match: string) =>
      n(`select count(*)::int as n from ${from} where ${where}
           and not exists (select 1 from document_events e where e.event = '${event}' and ${match})`);
    expect(await missing('created', 'documents d', 'true', 'e.document_id = d.id')).toBe(0);
    expect(await missing('registered', 'documents d', `d.state = 'registered'`, 'e.document_id = d.id')).toBe(
      0,
    );
    const byDetail = (key: string, column: string) => `(e.details->>'${key}')::int = ${column}`;
    expect(await missing('distributed', 'distributions x', 'true', byDetail('distributionId', 'x.id'))).toBe(
      0,
    );
    expect(await missing('taskAssigned', 'tasks t', 'true', byDetail('taskId', 't.id'))).toBe(0);
    expect(
      await missing('taskCompleted', 'tasks t', `t.state = 'completed'`, byDetail('taskId', 't.id')),
    ).toBe(0);
    // An action item completes once, with its last task.
    expect(
      await n(`select count(*)::int as n from (select 1 from document_events where event = 'completed'
               group by document_id, details->>'departmentId' having count(*) > 1) twice`),
    ).toBe(0);
    // A mix: completed and open tasks, some overdue; completed and open action items.
    const states = await h.query<{ state: string }>(`select distinct state from tasks order by state`);
    expect(states.map((s) => s.state)).toEqual(['completed', 'inProgress', 'new']);
    expect(
      await n(`select count(*)::int as n from tasks where state <> 'completed' and task_date < current_date`),
    ).toBeGreaterThan(0);
    expect(
      await n(`select count(*)::int as n from documents where completed_at is not null`),
    ).toBeGreaterThan(0);
    expect(
      await n(`select count(*)::int as n from documents where state = 'registered' and completed_at is null`),
    ).toBeGreaterThan(0);
  });

  it('the archive clerk registered them and sees them in the incoming box, and the drafts', async () => {
    const [clerk] = await h.query<{ id: number; archive_type: string }>(
      `select u.id, dep.archive_type from users u join employees e on e.id = u.employee_id
       join departments dep on dep.id = e.department_id where u.username = 'clerk'`,
    );
    expect(clerk?.archive_type).toBe('inOut');
    expect(
      await n(
        `select count(*)::int as n from documents where state = 'registered' and registered_by <> ${clerk!.id}`,
      ),
    ).toBe(0);
    const token = await tokenOf('clerk');
    const registered = await n(`select count(*)::int as n from documents where state = 'registered'`);
    const incoming = await box(token, 'incoming');
    expect(incoming.total).toBe(registered);
    expect(incoming.items.every((i) => /^IN-\d{4}-\d+$/.test(i.docNumber))).toBe(true);
    expect(incoming.items.some((i) => i.completed)).toBe(true);
    expect(incoming.items.some((i) => !i.completed)).toBe(true);
    const drafts = await box(token, 'inbox-drafts');
    expect(drafts.total).toBe(
      await n(`select count(*)::int as n from documents where state = 'draft' and direction = 'in'`),
    );
    expect((await box(token, 'follow-ups')).total).toBeGreaterThan(0);
  });

  it('the receiving manager with a demo account sees what was distributed to their department', async () => {
    const managers = await h.query<{ username: string; department_id: number }>(
      `select u.username, dep.id as department_id from departments dep
       join users u on u.employee_id = dep.manager_employee_id
       where exists (select 1 from distributions x where x.department_id = dep.id) order by dep.id`,
    );
    expect(managers.length).toBeGreaterThanOrEqual(1);
    expect(managers.map((m) => m.username)).toContain('manager');
    for (const m of managers) {
      const token = await tokenOf(m.username);
      const incoming = await box(token, 'incoming');
      const expected = await h.query<{ id: number }>(
        `select x.id from distributions x where x.department_id = ${m.department_id} and x.direction = 'in'
           and x.security_rank <= (select s.level from user_clearances c
             join correspondence_settings s on s.id = c.security_level_id
             join users u on u.id = c.user_id where u.username = '${m.username}')`,
      );
      expect(expected.length).toBeGreaterThan(0);
      const seen = incoming.items
        .filter((i) => i.distribution?.department.id === Number(m.department_id))
        .map((i) => Number(i.distribution.id))
        .sort((a, b) => a - b);
      expect(seen).toEqual(expected.map((x) => Number(x.id)).sort((a, b) => a - b));
    }
    // Memos reach departments as approved memos, not as incoming mail.
    expect(await n(`select count(*)::int as n from distributions where direction = 'memo'`)).toBeGreaterThan(
      0,
    );
    // The manager of Financial Affairs has action items to follow, some overdue.
    const followUps = await box(await tokenOf('manager'), 'follow-ups');
    expect(followUps.items.some((i) => i.followReason === 'action' && i.overdue)).toBe(true);
  });

  it('lets a newcomer walk every flow with the accounts the README lists', async () => {
    // The administrator opens the administration screens.
    const admin = await tokenOf('admin');
    expect((await call(h, { method: 'GET', url: '/auth/users', token: admin })).status).toBe(200);
    // employee1–employee3 work in the manager's department, with the plain employee role.
    const staff = await h.query<{ username: string; department: string; role: string; is_manager: boolean }>(
      `select u.username, d.name_en as department, r.name_en as role, j.is_manager
       from users u join employees e on e.id = u.employee_id join departments d on d.id = e.department_id
       join jobs j on j.id = e.job_id join roles r on r.id = u.role_id
       where u.username like 'employee%' order by u.username`,
    );
    expect(staff.map((s) => s.username)).toEqual([
      'employee1',
      'employee2',
      'employee3',
      'employee4',
      'employee5',
    ]);
    expect(staff.every((s) => s.role === 'Employee' && !s.is_manager)).toBe(true);
    const [manager] = await h.query<{ department: string }>(
      `select d.name_en as department from users u join employees e on e.id = u.employee_id
       join departments d on d.id = e.department_id where u.username = 'manager'`,
    );
    expect(staff.slice(0, 3).every((s) => s.department === manager!.department)).toBe(true);
    // The plain employee sees the tasks the manager gave them and opens the letter of each; they register
    // nothing, but read what reached their department: its incoming letters, for action (tasked or not)
    // and for knowledge, and the memo addressed to it.
    const employee = await tokenOf('employee1');
    const tree = await call(h, { method: 'GET', url: '/auth/user-pages-tree', token: employee });
    const paths = JSON.stringify(tree.json.data.pages);
    expect(paths).toContain('/correspondence/inbox/incoming-tasks');
    expect(paths).toContain('/correspondence/inbox/incoming"');
    expect(paths).not.toContain('/correspondence/inbox/add');
    const [finance] = await h.query<{ id: number }>(
      `select e.department_id as id from users u join employees e on e.id = u.employee_id
       where u.username = 'employee1'`,
    );
    const reached = await h.query<{ document_id: number; direction: string }>(
      `select document_id, direction from distributions where department_id = ${finance!.id}`,
    );
    const seen = async (name: string) =>
      (await box(employee, name, '&fromDate=2000-01-01')).items.map((i) => Number(i.documentId));
    const letters = reached.filter((r) => r.direction === 'in').map((r) => Number(r.document_id));
    const memos = reached.filter((r) => r.direction === 'memo').map((r) => Number(r.document_id));
    expect(letters.length).toBeGreaterThan(0);
    expect(memos.length).toBeGreaterThan(0);
    expect((await seen('incoming')).sort()).toEqual([...new Set(letters)].sort());
    expect(await seen('approved-memos')).toEqual(expect.arrayContaining(memos));
    expect(paths).not.toContain('/auth/users');
    const tasks = await box(employee, 'incoming-tasks', '&fromDate=2000-01-01');
    expect(tasks.items.length).toBeGreaterThan(0);
    for (const item of tasks.items.slice(0, 5)) {
      const doc = await call(h, {
        method: 'GET',
        url: `/correspondence/documents/${item.documentId}`,
        token: employee,
      });
      expect(doc.status).toBe(200);
    }
  });

  it('holds outgoing letters and memos in every state, with something for the manager to approve', async () => {
    const states = await h.query<{ direction: string; state: string; n: number }>(
      `select direction, state, count(*)::int as n from documents where direction <> 'in'
       group by direction, state order by direction, state`,
    );
    const of = (direction: string, state: string) =>
      Number(states.find((r) => r.direction === direction && r.state === state)?.n ?? 0);
    expect(Object.fromEntries(states.map((r) => [`${r.direction} ${r.state}`, Number(r.n)]))).toEqual({
      'memo approved': 2,
      'memo approving': 2,
      'memo changesRequested': 1,
      'memo draft': 2,
      'out approved': 4,
      'out approving': 4,
      'out changesRequested': 1,
      'out draft': 2,
      'out rejected': 1,
    });
    // Their signatory, the manager, holds signing authority for the ministry: the administrator granted it.
    const [grant] = await h.query<{ entity: string; by: string }>(
      `select d.name_en as entity, a.username as by from signing_authorities g join users u on u.id = g.user_id
       join departments d on d.id = g.department_id join users a on a.id = g.granted_by
       where u.username = 'manager' and g.revoked_at is null`,
    );
    expect(grant).toEqual({ entity: 'The Ministry', by: 'admin' });
    expect(
      await n(`select count(*)::int as n from approval_members m join users u on u.id = m.user_id
               where m.kind = 'sign' and u.username <> 'manager'`),
    ).toBe(0);
    // Drafts have no number and no circuit; every submitted document has one.
    expect(
      await n(`select count(*)::int as n from documents where direction <> 'in' and state = 'draft'
               and (doc_number is not null or exists (select 1 from approval_members m where m.document_id = documents.id))`),
    ).toBe(0);
    expect(
      await n(`select count(*)::int as n from documents d where direction <> 'in' and state <> 'draft'
               and not exists (select 1 from approval_members m where m.document_id = d.id)`),
    ).toBe(0);
    // Approving letters at the first step and further on, one in a parallel opinion step of two people.
    expect(
      await n(`select count(*)::int as n from documents where direction = 'out' and state = 'approving'
               and current_step = 1`),
    ).toBeGreaterThan(0);
    expect(
      await n(`select count(*)::int as n from documents where direction = 'out' and state = 'approving'
               and current_step > 1`),
    ).toBeGreaterThan(0);
    expect(
      await n(`select count(*)::int as n from (select 1 from approval_members m
                 join documents d on d.id = m.document_id and d.state = 'approving' and d.current_step = m.position
               where m.direction = 'out' group by m.document_id, m.position having count(*) = 2) parallel`),
    ).toBe(1);
    // What was returned or rejected says why, in Arabic.
    const answers = await h.query<{ direction: string; decision: string; comment: string | null }>(
      `select m.direction, m.decision, m.comment from approval_members m
       where m.decision in ('rejected', 'changesRequested') order by m.direction, m.decision`,
    );
    expect(answers.map((a) => `${a.direction} ${a.decision}`)).toEqual([
      'memo changesRequested',
      'out changesRequested',
      'out rejected',
    ]);
    expect(answers.every((a) => /[\u0600-\u06FF]/.test(a.comment ?? ''))).toBe(true);
    // Replies: outgoing letters linked to the incoming letters they answer, one of them approved.
    const replies = await h.query<{ state: string }>(
      `select o.state from document_relations r join documents o on o.id = r.document_id and o.direction = 'out'
       join documents i on i.id = r.related_id and i.direction = 'in' order by o.state`,
    );
    expect(replies.map((r) => r.state)).toEqual(['approved', 'approving']);
    // Dispatched letters, delivered and not.
    expect(
      (
        await h.query<{ delivered: boolean }>(
          `select delivered from documents where direction = 'out' and dispatched_at is not null order by delivered`,
        )
      ).map((r) => r.delivered),
    ).toEqual([false, true]);
    // Approved memos carry their numbers too.
    expect(
      await n(`select count(*)::int as n from documents where direction = 'memo' and state = 'approved'
               and doc_number like 'MEMO-%'`),
    ).toBe(of('memo', 'approved'));
    // Approved letters carry their numbers; some are dispatched, some await dispatch.
    expect(
      await n(`select count(*)::int as n from documents where direction = 'out' and state = 'approved'
               and doc_number like 'OUT-%'`),
    ).toBe(of('out', 'approved'));
    expect(
      await n(`select count(*)::int as n from documents where dispatched_at is not null`),
    ).toBeGreaterThan(0);
    expect(
      await n(`select count(*)::int as n from documents where direction = 'out' and state = 'approved'
               and dispatched_at is null`),
    ).toBeGreaterThan(0);
    // A newcomer signing in as the manager finds letters and a memo to approve, and the counts say so.
    const manager = await tokenOf('manager');
    const waiting = (direction: string) =>
      n(`select count(*)::int as n from approval_members m join users u on u.id = m.user_id
         where u.username = 'manager' and m.pending and m.direction = '${direction}'`);
    const letters = await box(manager, 'requiring-approval');
    expect(letters.total).toBeGreaterThanOrEqual(3);
    expect(letters.total).toBe(await waiting('out'));
    const memos = await box(manager, 'memos-requiring-approval');
    expect(memos.total).toBeGreaterThanOrEqual(2);
    expect(memos.total).toBe(await waiting('memo'));
    const counts = await call(h, { method: 'GET', url: '/correspondence/boxes/counts', token: manager });
    expect(counts.json.data.outboxRequiringApproval).toBeGreaterThanOrEqual(2);
    // An employee finds what came back to them, and the one waiting on their opinion.
    const employee2 = await tokenOf('employee2');
    expect((await box(employee2, 'requiring-changes')).total).toBeGreaterThanOrEqual(1);
    const employee3 = await tokenOf('employee3');
    expect((await box(employee3, 'requiring-approval')).total).toBeGreaterThanOrEqual(1);
    // The clerk holds the approved letters for dispatch; the memo reached Financial Affairs as a task.
    const clerk = await tokenOf('clerk');
    expect((await box(clerk, 'outgoing', '&view=notCompleted')).total).toBeGreaterThan(0);
    expect(
      await n(`select count(*)::int as n from tasks t join documents d on d.id = t.document_id
               where d.direction = 'memo'`),
    ).toBe(1);
  });

  it('lands a clerk, a manager and an employee on their own box, not on the employees directory', async () => {
    const firstPage = async (username: string) => {
      const tree = await call(h, {
        method: 'GET',
        url: '/auth/user-pages-tree',
        token: await tokenOf(username),
      });
      const sections = tree.json.data.pages as { path: string; children: { path: string }[] }[];
      return sections.find((s) => s.children.length > 0)?.children[0]?.path;
    };
    expect(await firstPage('clerk')).toBe(PAGES.incoming);
    expect(await firstPage('manager')).toBe(PAGES.incoming);
    // An employee's incoming box holds what reached their department (for action or knowledge); their
    // tasks come next in the menu.
    expect(await firstPage('employee1')).toBe(PAGES.incoming);
    // The directory is still in the menu, after the mail.
    const admin = await call(h, {
      method: 'GET',
      url: '/auth/user-pages-tree',
      token: await tokenOf('admin'),
    });
    expect((admin.json.data.pages as { path: string }[]).map((s) => s.path)).toEqual([
      SECTIONS.inbox,
      SECTIONS.outbox,
      SECTIONS.memos,
      SECTIONS.search,
      SECTIONS.dashboards,
      SECTIONS.ec,
      SECTIONS.records,
      SECTIONS.settings,
      SECTIONS.auth,
      SECTIONS.user,
    ]);
  });

  it('shows the clerk the archive dashboard and the manager theirs (issue 30)', async () => {
    const status = async (username: string, path: string) =>
      (await call(h, { method: 'GET', url: path, token: await tokenOf(username) })).status;
    expect(await status('clerk', '/dashboards/archive')).toBe(200);
    expect(await status('clerk', '/dashboards/manager')).toBe(403);
    expect(await status('manager', '/dashboards/manager')).toBe(200);
    expect(await status('admin', '/dashboards/organisation')).toBe(200);
  });

  it('a second run creates nothing', async () => {
    const tables = [
      'correspondence_settings',
      'documents',
      'document_events',
      'document_counters',
      'distributions',
      'tasks',
      'document_follows',
      'approval_members',
      'document_recipients',
      'user_clearances',
      'users',
      'employees',
      'departments',
      'roles',
    ];
    const counts = async () => Promise.all(tables.map((t) => n(`select count(*)::int as n from ${t}`)));
    const before = await counts();
    const second = await seedDemo(ctx, PASSWORD);
    expect(await counts()).toEqual(before);
    expect(second.every((c) => c.includes('already present'))).toBe(true);
  });
});
