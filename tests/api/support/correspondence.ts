/**
 * Fixtures of the correspondence tests: an organisation written straight into the database (an archive
 * office, two receiving departments with managers, a secretary and members, an external sender), the
 * settings lists, and users linked to those employees with the pages a clerk, a manager and an employee use.
 */
import { PAGES } from '../../../src-shared/pages';
import { call, makeRole, makeUser, signIn, type Harness } from './harness';

let seq = 0;
async function one<T = Record<string, unknown>>(h: Harness, text: string): Promise<T> {
  const [row] = await h.query<T>(text);
  return row!;
}
const esc = (s: string) => s.replace(/'/g, "''");

/** Creates a department; answers its id. */
export async function department(
  h: Harness,
  name: string,
  opts: { type?: 'internal' | 'external'; archive?: boolean; archiveOfficeId?: number } = {},
): Promise<number> {
  seq += 1;
  const row = await one<{ id: number }>(
    h,
    `insert into departments (name_ar, name_en, type, archive_type, archive_office_id)
     values ('${esc(name)} ${seq}', '${esc(name)} ${seq}', '${opts.type ?? 'internal'}',
       '${opts.archive ? 'inOut' : 'none'}', ${opts.archiveOfficeId ?? 'null'}) returning id`,
  );
  return Number(row.id);
}

const jobs = new WeakMap<Harness, number>();
/** Creates an employee in a department; answers its id. */
export async function employee(h: Harness, departmentId: number): Promise<number> {
  seq += 1;
  let jobId = jobs.get(h);
  if (jobId === undefined) {
    const job = await one<{ id: number }>(
      h,
      `insert into jobs (name_ar, name_en) values ('موظف ${seq}', 'Clerk ${seq}') returning id`,
    );
    jobId = Number(job.id);
    jobs.set(h, jobId);
  }
  const row = await one<{ id: number }>(
    h,
    `insert into employees (first_name_ar, last_name_ar, first_name_en, last_name_en, department_id, job_id)
     values ('موظف', '${seq}', 'Employee', '${seq}', ${departmentId}, ${jobId}) returning id`,
  );
  return Number(row.id);
}

/** All the correspondence pages a role may need, with every permission they offer. */
export const ALL_CORRESPONDENCE = {
  '/correspondence/inbox/incoming': ['view', 'edit', 'delete', 'distribute', 'export'],
  '/correspondence/inbox/follow-ups': ['view', 'edit', 'export'],
  '/correspondence/inbox/incoming-tasks': ['view', 'edit'],
  '/correspondence/inbox/draft': ['view', 'add', 'edit', 'delete'],
  '/correspondence/inbox/add': ['view', 'add'],
} as const;

/** The outbox and memo pages an author, approver or archive clerk of outgoing mail may need. */
export const OUTBOX_AND_MEMOS = {
  [PAGES.outgoing]: ['view', 'edit', 'delete', 'distribute', 'export'],
  [PAGES.outboxDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.outboxAdd]: ['view', 'add'],
  [PAGES.outboxAwaitingApproval]: ['view'],
  [PAGES.outboxRequiringApproval]: ['view', 'approve'],
  [PAGES.approvedMemos]: ['view', 'distribute', 'export'],
  [PAGES.memoDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.memoAdd]: ['view', 'add'],
  [PAGES.memosAwaitingApproval]: ['view'],
  [PAGES.memosRequiringApproval]: ['view', 'approve'],
  [PAGES.incomingTasks]: ['view', 'edit'],
} as const;

export interface Actor {
  userId: number;
  employeeId: number | null;
  token: string;
}

/** A signed-in user linked to a new employee of `departmentId` (or to none). */
export async function actor(
  h: Harness,
  roleId: number | 'admin',
  departmentId: number | null,
): Promise<Actor> {
  const user = await makeUser(h, roleId);
  let employeeId: number | null = null;
  if (departmentId !== null) {
    employeeId = await employee(h, departmentId);
    await h.query(`update employees set user_id = ${user.id} where id = ${employeeId}`);
    await h.query(`update users set employee_id = ${employeeId} where id = ${user.id}`);
  }
  return { userId: user.id, employeeId, token: await signIn(h, user) };
}

export interface Org {
  admin: Actor;
  archive: number;
  deptA: number;
  deptB: number;
  sender: number;
  clerk: Actor;
  managerA: Actor;
  secretaryA: Actor;
  memberA: Actor;
  managerB: Actor;
  memberB: Actor;
  outsider: Actor;
  codIn: number;
  levels: { normal: number; secret: number };
  priority: number;
  medium: number;
}

/** Builds the organisation and the settings lists through the API where it has one. */
export async function organisation(h: Harness): Promise<Org> {
  const role = await makeRole(h, ALL_CORRESPONDENCE as unknown as Record<string, ('view' | 'add')[]>);
  const admin = await actor(h, 'admin', null);
  const archive = await department(h, 'الأرشيف', { archive: true });
  const deptA = await department(h, 'الشؤون المالية', { archiveOfficeId: archive });
  const deptB = await department(h, 'الموارد البشرية', { archiveOfficeId: archive });
  const other = await department(h, 'إدارة أخرى');
  const sender = await department(h, 'وزارة الخارجية', { type: 'external' });
  const clerk = await actor(h, role, archive);
  const managerA = await actor(h, role, deptA);
  const secretaryA = await actor(h, role, deptA);
  const memberA = await actor(h, role, deptA);
  const managerB = await actor(h, role, deptB);
  const memberB = await actor(h, role, deptB);
  const outsider = await actor(h, role, other);
  await h.query(`update departments set manager_employee_id = ${managerA.employeeId} where id = ${deptA}`);
  await h.query(`update departments set manager_employee_id = ${managerB.employeeId} where id = ${deptB}`);
  await h.query(
    `insert into secretary_offices (department_id, secretary_employee_id) values (${deptA}, ${secretaryA.employeeId})`,
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
  seq += 1;
  const codIn = await make('codifications', {
    nameAr: `وارد ${seq}`,
    nameEn: `Incoming ${seq}`,
    prefix: `IN${seq}`,
    direction: 'in',
  });
  const normal = await make('security-levels', { nameAr: `عادي ${seq}`, nameEn: `Normal ${seq}`, level: 1 });
  const secret = await make('security-levels', { nameAr: `سري ${seq}`, nameEn: `Secret ${seq}`, level: 3 });
  const priority = await make('priorities', { nameAr: `عاجل ${seq}`, nameEn: `Urgent ${seq}`, level: 2 });
  const medium = await make('mediums', { nameAr: `بريد ${seq}`, nameEn: `Post ${seq}` });
  return {
    admin,
    archive,
    deptA,
    deptB,
    sender,
    clerk,
    managerA,
    secretaryA,
    memberA,
    managerB,
    memberB,
    outsider,
    codIn,
    levels: { normal, secret },
    priority,
    medium,
  };
}

/** A complete incoming letter body for `org`. */
export function letter(org: Org, extra: Record<string, unknown> = {}) {
  return {
    direction: 'in',
    subject: 'طلب اعتماد الميزانية السنوية',
    senderDepartmentId: org.sender,
    recipientDepartmentId: org.deptA,
    documentDate: '2026-01-15',
    codificationId: org.codIn,
    securityLevelId: org.levels.normal,
    priorityId: org.priority,
    mediumId: org.medium,
    ...extra,
  };
}

/** Registers an incoming letter by the archive clerk; answers its id and registration number. */
export async function registeredLetter(h: Harness, org: Org): Promise<{ id: number; docNumber: string }> {
  const res = await call(h, {
    method: 'POST',
    url: '/correspondence/documents',
    token: org.clerk.token,
    body: { ...letter(org), register: true },
  });
  if (res.status !== 201) throw new Error(`registering a letter: ${res.status} ${JSON.stringify(res.json)}`);
  const { id, docNumber } = res.json.data as { id: number; docNumber: string };
  return { id, docNumber };
}
