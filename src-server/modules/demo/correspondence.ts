/**
 * Demo correspondence for `seed-demo`: the settings lists in Arabic and English, then a working archive
 * office — about two months of incoming letters from the demo's external entities, registered by the
 * archive clerk, distributed to departments whose managers have demo accounts, tasked to their employees
 * and moved along, so the boxes show completed, open and overdue work.
 *
 * Everything a document goes through runs through the correspondence service (numbers from the real
 * registration path, timeline events appended by the same code the API uses), as the demo users
 * themselves, all in one transaction: a failure leaves no half-seeded archive behind. Runs once: when
 * settings exist the lists are left alone; when any document exists no letters are added.
 *
 * The demo accounts are made to fit the office: the `clerk` user is linked to an archive clerk of the
 * Central Archive (an archive office, archive type `inOut`), the `manager` user to the manager of the
 * General Directorate of Financial Affairs (each only when both are still unlinked), and the demo users
 * get security clearances (none yet) so they see the confidential letters they handle. The `manager`
 * signs the demo letters and memos: he is granted signing authority for the ministry.
 */
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { CreateDocumentRequest, TaskState } from '../../../src-shared/api/correspondence';
import type { ServerContext } from '../../context';
import {
  correspondenceSettings,
  departments,
  documents,
  employees,
  jobs,
  roles,
  userClearances,
  users,
} from '../../db/schema';
import type { AuthContext } from '../../http/access';
import type { Tx } from '../auth/queries';
import { authContextOf } from '../auth/service';
import { linkUser } from '../directory/queries';
import { rowsOf } from '../../db/rows';
import { entityOf, insertGrant } from '../correspondence/approval-queries';
import * as approvals from '../correspondence/approvals';
import * as corr from '../correspondence/service';

const MEDIUMS: [string, string][] = [
  ['بريد', 'Mail'],
  ['يد', 'By hand'],
  ['بريد إلكتروني', 'Email'],
  ['فاكس', 'Fax'],
];
const PRIORITIES: [string, string, number][] = [
  ['عادي', 'Normal', 1],
  ['عاجل', 'Urgent', 2],
  ['عاجل جداً', 'Very urgent', 3],
];
const SECURITY_LEVELS: [string, string, number][] = [
  ['عام', 'Public', 1],
  ['سري', 'Confidential', 2],
  ['سري للغاية', 'Top secret', 3],
];
const CODIFICATIONS: [string, string, string, 'in' | 'out' | 'memo' | 'internal'][] = [
  ['وارد عام', 'General incoming', 'IN', 'in'],
  ['صادر عام', 'General outgoing', 'OUT', 'out'],
  ['مذكرة داخلية', 'Internal memo', 'MEMO', 'memo'],
  ['داخلي', 'Internal', 'INT', 'internal'],
];
/** Main distribution: departments of the demo directory (by English name). */
const MAIN_DISTRIBUTION = [
  "Minister's Office",
  'Deputy Ministry',
  'General Directorate of Administrative Affairs',
  'General Directorate of Financial Affairs',
  'Information Technology Department',
  'Legal Department',
];

/** Receiving departments (by English name); A–D have managers with demo accounts. */
const DEPARTMENTS = {
  A: 'The Ministry',
  B: "Minister's Office",
  C: 'Corporate Communication',
  D: 'General Directorate of Financial Affairs',
  H: 'Human Resources Department',
  I: 'Information Technology Department',
  L: 'Legal Department',
  U: 'Internal Audit Department',
} as const;
type Dept = keyof typeof DEPARTMENTS;

/**
 * The letters, oldest first: subject, sender (an external entity, by English name), the department it is
 * addressed to and distributed to for action, the one informed (for knowledge), and marks: `u` urgent,
 * `v` very urgent, `s` confidential, `t` top secret.
 */
const LETTERS: [string, string, Dept, Dept | null, string][] = [
  ['طلب اعتماد ميزانية المشاريع للربع القادم', 'Ministry of Finance', 'D', 'A', 'u'],
  ['دعوة لحضور اجتماع اللجنة الوزارية المشتركة', 'Council of Ministers', 'B', 'A', 'v'],
  ['تعميم بشأن ترشيد الإنفاق في الجهات الحكومية', 'Ministry of Finance', 'D', 'B', ''],
  ['طلب تزويدنا بالبيانات الإحصائية السنوية', 'General Authority for Statistics', 'C', 'D', ''],
  ['إفادة بشأن ملاحظات ديوان المحاسبة على الحسابات الختامية', 'General Audit Bureau', 'D', 'U', 's'],
  ['تعميم بشأن مواعيد الدوام الرسمي خلال شهر رمضان', 'Ministry of Human Resources', 'A', 'C', ''],
  ['طلب ترشيح ممثل للمشاركة في ورشة عمل التحول الرقمي', 'Digital Government Authority', 'C', 'B', ''],
  ['دعوة لحضور حفل تخريج الدفعة الجديدة من برنامج القيادات', 'King Saud University', 'B', null, ''],
  ['طلب الإفادة عن تنفيذ توصيات هيئة مكافحة الفساد', 'Anti-Corruption Authority', 'A', 'L', 'us'],
  ['تعميم بشأن تحديث ضوابط الأمن السيبراني', 'Digital Government Authority', 'A', 'I', 'u'],
  [
    'طلب تسوية مستحقات التأمينات الاجتماعية للموظفين',
    'General Organization for Social Insurance',
    'D',
    'H',
    '',
  ],
  ['طلب تحديث بيانات الموظفين في نظام الموارد البشرية', 'Ministry of Human Resources', 'A', 'H', ''],
  ['إشعار بتحويل الدفعة الثانية من الاعتمادات المالية', 'Central Bank', 'D', 'A', ''],
  ['طلب تقرير عن الإنجازات الربعية للوزارة', 'Council of Ministers', 'B', 'A', 'u'],
  ['دعوة للمشاركة في المعرض الوطني للابتكار الحكومي', 'Digital Government Authority', 'C', null, ''],
  ['طلب إصدار تصاريح لأعمال الصيانة في المبنى الرئيسي', 'Regional Municipality', 'A', null, ''],
  ['تعميم بشأن الإجازة الرسمية لليوم الوطني', 'Ministry of Human Resources', 'A', 'C', ''],
  ['طلب تزويدنا بنسخ العقود المبرمة خلال العام المالي', 'General Audit Bureau', 'D', 'L', 's'],
  ['طلب التنسيق لزيارة وفد وزارة الصحة', 'Ministry of Health', 'B', 'C', ''],
  ['طلب اعتماد خطة التدريب السنوية للموظفين', 'Ministry of Education', 'A', 'H', ''],
  ['إفادة بشأن الدعوى المقامة ضد الوزارة', 'Ministry of Justice', 'A', null, 'vt'],
  ['طلب رأي قانوني في مشروع اللائحة التنظيمية', 'Council of Ministers', 'B', 'L', 's'],
  ['تعميم بشأن تطبيق نظام المنافسات والمشتريات الحكومية', 'Ministry of Finance', 'D', 'B', ''],
  ['طلب معلومات عن الموظفين المعارين إلى جهات أخرى', 'Ministry of Interior', 'A', 'H', 's'],
  ['دعوة لحضور اجتماع تنسيقي بشأن الربط الإلكتروني', 'Digital Government Authority', 'C', 'I', 'u'],
  ['طلب الإفادة عن المشاريع المتعثرة وأسباب تأخرها', 'Council of Ministers', 'B', 'A', 'vs'],
  ['طلب تعزيز بند المكافآت في الميزانية', 'Ministry of Finance', 'D', null, ''],
  ['طلب إعداد محتوى إعلامي عن برامج الوزارة', 'Council of Ministers', 'C', 'B', ''],
  ['طلب المشاركة في الاستبيان الوطني للرضا الوظيفي', 'General Authority for Statistics', 'C', 'H', ''],
  ['تعميم بشأن اعتماد الهوية البصرية الموحدة للجهات الحكومية', 'Digital Government Authority', 'C', 'B', ''],
  ['طلب صرف مستحقات المقاول عن المرحلة الأولى', 'Regional Municipality', 'D', 'U', 'u'],
  ['خطاب شكر وتقدير على التعاون في الفعالية الوطنية', 'King Saud University', 'B', 'C', ''],
  ['طلب ترشيح موظفين لبرنامج الابتعاث الداخلي', 'Ministry of Education', 'A', 'H', ''],
  ['تعميم بشأن حماية البيانات الشخصية', 'Ministry of Interior', 'A', 'I', 's'],
];
/** The most recent letters stay drafts of the clerk; the ones before them await distribution. */
const DRAFTS = 3;
const UNDISTRIBUTED = 4;
/** The window the letters were received in (days before today). */
const WINDOW_DAYS = 60;

const DEMO_USERS = ['clerk', 'manager', 'employee1', 'employee2', 'employee3', 'employee4', 'employee5'];
/** Clearances by username (security level): the clerk, the director general and the minister's office see all. */
const CLEARANCE: Record<string, number> = { clerk: 3, employee1: 3, employee3: 3 };

/** `YYYY-MM-DD` of `days` days from today (negative: before). */
function dayFrom(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Loads the settings lists and the demo letters; answers what it created. */
export async function seedDemoCorrespondence(ctx: ServerContext): Promise<string[]> {
  const created: string[] = [];
  await ctx.db.transaction(async (tx) => {
    const settings = await seedSettings(tx);
    created.push(...(settings.length ? settings : ['correspondence settings already present (left as is)']));
    // The service opens its own transactions: inside this one they become savepoints.
    const letters = await seedLetters({ ...ctx, db: tx }, tx);
    created.push(...letters);
    created.push(...(await seedCircuits({ ...ctx, db: tx }, tx)));
  });
  return created;
}

async function seedSettings(tx: Tx): Promise<string[]> {
  const [existing] = await tx.select({ n: count() }).from(correspondenceSettings);
  if ((existing?.n ?? 0) > 0) return [];
  const rows: (typeof correspondenceSettings.$inferInsert)[] = [
    ...MEDIUMS.map(([nameAr, nameEn], order) => ({ list: 'mediums', nameAr, nameEn, order })),
    ...PRIORITIES.map(([nameAr, nameEn, level], order) => ({
      list: 'priorities',
      nameAr,
      nameEn,
      level,
      order,
    })),
    ...SECURITY_LEVELS.map(([nameAr, nameEn, level], order) => ({
      list: 'security-levels',
      nameAr,
      nameEn,
      level,
      order,
    })),
    ...CODIFICATIONS.map(([nameAr, nameEn, prefix, direction], order) => ({
      list: 'codifications',
      nameAr,
      nameEn,
      prefix,
      direction,
      order,
    })),
  ];
  const main = await tx
    .select({ id: departments.id, nameEn: departments.nameEn })
    .from(departments)
    .where(and(eq(departments.type, 'internal'), inArray(departments.nameEn, MAIN_DISTRIBUTION)));
  const mainIds = MAIN_DISTRIBUTION.map((n) => main.find((d) => d.nameEn === n)?.id).filter(
    (id): id is number => id !== undefined,
  );
  rows.push(...mainIds.map((departmentId, order) => ({ list: 'main-distribution', departmentId, order })));
  await tx.insert(correspondenceSettings).values(rows);
  return [
    `correspondence settings (${MEDIUMS.length} mediums, ${PRIORITIES.length} priorities, ` +
      `${SECURITY_LEVELS.length} security levels, ${CODIFICATIONS.length} codifications, ` +
      `${mainIds.length} main distribution departments)`,
  ];
}

/** The caller as the access hook would build it, for a demo user (null when there is no such user). */
async function callerFor(tx: Tx, username: string): Promise<AuthContext | null> {
  const [u] = await tx
    .select({
      userId: users.id,
      username: users.username,
      email: users.email,
      nameAr: users.nameAr,
      nameEn: users.nameEn,
      employeeId: users.employeeId,
      locale: users.locale,
      totpEnabled: users.totpEnabled,
      roleId: roles.id,
      roleAr: roles.nameAr,
      roleEn: roles.nameEn,
      isSystem: roles.isSystem,
      roleActive: roles.active,
      requireTwoFactor: roles.requireTwoFactor,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.username, username), eq(users.active, true)));
  if (!u) return null;
  return authContextOf({ ...u, sessionId: 0, accessVersion: null });
}

/** Links a user without an employee to an employee without a user; answers whether it did. */
async function link(tx: Tx, username: string, employeeId: number | undefined): Promise<boolean> {
  if (employeeId === undefined) return false;
  const [u] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.username, username), isNull(users.employeeId)));
  const [e] = await tx
    .select({ id: employees.id })
    .from(employees)
    .where(and(eq(employees.id, employeeId), isNull(employees.userId), eq(employees.active, true)));
  if (!u || !e) return false;
  await linkUser(tx, employeeId, u.id);
  return true;
}

async function seedLetters(ctx: ServerContext, tx: Tx): Promise<string[]> {
  const [existing] = await tx.select({ n: count() }).from(documents);
  if ((existing?.n ?? 0) > 0) return ['correspondence documents already present (left as is)'];

  // What the letters need: the demo codification and lists, the directory's departments and senders.
  const settingRows = await tx
    .select({
      id: correspondenceSettings.id,
      list: correspondenceSettings.list,
      nameEn: correspondenceSettings.nameEn,
      prefix: correspondenceSettings.prefix,
      direction: correspondenceSettings.direction,
      level: correspondenceSettings.level,
    })
    .from(correspondenceSettings)
    .where(eq(correspondenceSettings.active, true));
  const setting = (list: string, nameEn: string) =>
    settingRows.find((s) => s.list === list && s.nameEn === nameEn)?.id;
  const codification = settingRows.find(
    (s) => s.list === 'codifications' && s.prefix === 'IN' && s.direction === 'in',
  )?.id;
  const deptRows = await tx
    .select({
      id: departments.id,
      nameEn: departments.nameEn,
      type: departments.type,
      archiveType: departments.archiveType,
      managerEmployeeId: departments.managerEmployeeId,
    })
    .from(departments)
    .where(eq(departments.active, true));
  const internal = (nameEn: string) => deptRows.find((d) => d.type === 'internal' && d.nameEn === nameEn);
  const external = (nameEn: string) => deptRows.find((d) => d.type === 'external' && d.nameEn === nameEn);
  const archive = internal('Central Archive');
  const missing = [
    ...(codification === undefined ? ['codification IN'] : []),
    ...(archive?.archiveType === 'inOut' ? [] : ['the Central Archive']),
    ...Object.values(DEPARTMENTS).filter((n) => !internal(n)),
    ...[...new Set(LETTERS.map((l) => l[1]))].filter((n) => !external(n)),
  ];
  if (missing.length) return [`no demo letters: the demo ${missing.join(', ')} not found`];

  const created: string[] = [];
  // The demo accounts in the office: the clerk in the Central Archive, the manager in Financial Affairs.
  const [archiveClerk] = await tx
    .select({ id: employees.id })
    .from(employees)
    .innerJoin(jobs, eq(jobs.id, employees.jobId))
    .where(
      and(
        eq(employees.departmentId, archive!.id),
        eq(jobs.nameEn, 'Archive Clerk'),
        isNull(employees.userId),
        eq(employees.active, true),
      ),
    )
    .orderBy(employees.id)
    .limit(1);
  if (await link(tx, 'clerk', archiveClerk?.id))
    created.push(`user clerk linked to employee ${archiveClerk!.id} (Central Archive)`);
  const finance = internal(DEPARTMENTS.D)!;
  if (await link(tx, 'manager', finance.managerEmployeeId ?? undefined))
    created.push(`user manager linked to employee ${finance.managerEmployeeId} (manager, ${DEPARTMENTS.D})`);

  // Clearances for the demo users who have none.
  const levelId = (level: number) =>
    settingRows.find((s) => s.list === 'security-levels' && s.level === level)?.id;
  const demoUsers = await tx
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, DEMO_USERS));
  const cleared = await tx.select({ userId: userClearances.userId }).from(userClearances);
  const clearances = demoUsers
    .filter((u) => !cleared.some((c) => c.userId === u.id))
    .map((u) => ({ userId: u.id, securityLevelId: levelId(CLEARANCE[u.username] ?? 2) }))
    .filter((c): c is { userId: number; securityLevelId: number } => c.securityLevelId !== undefined);
  if (clearances.length) {
    await tx.insert(userClearances).values(clearances);
    created.push(`security clearances for ${clearances.length} demo users`);
  }

  const clerk = await callerFor(tx, 'clerk');
  const clerkScope = clerk ? await corr.scope(ctx, clerk) : null;
  if (!clerk || clerkScope?.archiveDepartmentId !== archive!.id)
    return [...created, 'no demo letters: the clerk user is not an employee of the Central Archive'];

  // Each receiving department: its manager's account (who tasks) and the employees tasks go to (those
  // with an account first, so they find the tasks in their box).
  const leads = new Map<number, AuthContext | null>();
  const taskers = new Map<number, { id: number; username: string | null }[]>();
  for (const key of Object.keys(DEPARTMENTS) as Dept[]) {
    const dep = internal(DEPARTMENTS[key])!;
    const [manager] = dep.managerEmployeeId
      ? await tx
          .select({ username: users.username })
          .from(users)
          .where(and(eq(users.employeeId, dep.managerEmployeeId), eq(users.active, true)))
      : [];
    leads.set(dep.id, manager ? await callerFor(tx, manager.username) : null);
    const staff = await tx
      .select({ id: employees.id, username: users.username })
      .from(employees)
      .leftJoin(users, eq(users.employeeId, employees.id))
      .where(
        and(
          eq(employees.departmentId, dep.id),
          eq(employees.active, true),
          sql`${employees.id} is distinct from ${dep.managerEmployeeId}`,
        ),
      )
      .orderBy(sql`${users.id} is null`, employees.id)
      .limit(3);
    taskers.set(dep.id, staff);
  }

  const medium = [
    setting('mediums', 'Mail'),
    setting('mediums', 'Email'),
    setting('mediums', 'By hand'),
    setting('mediums', 'Mail'),
    setting('mediums', 'Fax'),
    null,
  ];
  const stats = {
    registered: 0,
    drafts: 0,
    distributed: 0,
    forAction: 0,
    forKnowledge: 0,
    tasks: 0,
    states: { new: 0, inProgress: 0, completed: 0 },
    follows: 0,
    numbers: [] as string[],
  };
  const registeredCount = LETTERS.length - DRAFTS;
  for (const [i, [subject, sender, action, knowledge, marks]] of LETTERS.entries()) {
    const received = -Math.round(WINDOW_DAYS - (i * (WINDOW_DAYS - 1)) / (LETTERS.length - 1));
    const draft = i >= registeredCount;
    const rank = marks.includes('t') ? 3 : marks.includes('s') ? 2 : 1;
    const priority = marks.includes('v') ? 'Very urgent' : marks.includes('u') ? 'Urgent' : 'Normal';
    const actionDept = internal(DEPARTMENTS[action])!.id;
    const input: CreateDocumentRequest = {
      direction: 'in',
      subject,
      senderDocumentNumber: `${4100 + i * 53}/1448`,
      senderDepartmentId: external(sender)!.id,
      recipientDepartmentId: actionDept,
      receivedDate: dayFrom(received),
      documentDate: dayFrom(received - ((i % 4) + 1)),
      codificationId: codification!,
      securityLevelId: levelId(rank) ?? null,
      priorityId: i % 5 === 4 && priority === 'Normal' ? null : (setting('priorities', priority) ?? null),
      mediumId: medium[i % medium.length] ?? null,
      // A reply due two weeks after receipt: the older letters overdue, the newest still to come.
      ...(draft ? {} : { replyDueOn: dayFrom(received + 14) }),
      register: !draft,
    };
    const doc = await corr.createDocument(ctx, clerk, input);
    if (draft) {
      stats.drafts += 1;
      continue;
    }
    stats.registered += 1;
    stats.numbers.push(doc.docNumber ?? '');
    if (i >= registeredCount - UNDISTRIBUTED) {
      // Awaiting distribution; the clerk keeps an eye on one of them.
      if (i === registeredCount - 1) {
        await corr.followDocument(ctx, clerk, doc.id, { dueDate: dayFrom(3), notes: 'متابعة التوزيع' });
        stats.follows += 1;
      }
      continue;
    }
    const items: { departmentId: number; type: 'forAction' | 'forKnowledge'; notes?: string }[] = [
      { departmentId: actionDept, type: 'forAction', notes: 'للاطلاع واتخاذ اللازم' },
    ];
    if (knowledge) items.push({ departmentId: internal(DEPARTMENTS[knowledge])!.id, type: 'forKnowledge' });
    const distributions = await corr.distribute(ctx, clerk, doc.id, { items });
    stats.distributed += 1;
    stats.forAction += 1;
    stats.forKnowledge += items.length - 1;
    // The clerk follows a few letters: due dates past (overdue while open) and to come.
    if (i % 7 === 3) {
      await corr.followDocument(ctx, clerk, doc.id, { dueDate: dayFrom(received + 14), notes: null });
      stats.follows += 1;
    }

    // Tasks: the receiving department's manager tasks one employee (two on some), due ten days after
    // receipt; every fourth action item waits untasked. Older tasks are done, newer ones in hand.
    const lead = leads.get(actionDept);
    const people = taskers.get(actionDept) ?? [];
    if (!lead || i % 4 === 3 || !people.length || rank > 2) continue;
    const distributionId = distributions.find((x) => x.type === 'forAction')!.id;
    const assigned = i % 6 === 0 && people.length > 1 ? people.slice(0, 2) : [people[i % people.length]!];
    const age = i / registeredCount;
    const state: TaskState = age < 0.4 ? 'completed' : age < 0.7 ? 'inProgress' : 'new';
    // All of the letter's tasks first, then their moves (the item completes once, with its last task).
    const tasks: { id: number; username: string | null }[] = [];
    for (const [k, person] of assigned.entries()) {
      // Due ten days after receipt (overdue unless done); some new ones are given three weeks.
      const due = received + (state === 'new' && i % 2 === 1 ? 21 : 10) + k * 5;
      const task = await corr.assignTask(ctx, lead, doc.id, {
        distributionId,
        employeeId: person.id,
        taskDate: dayFrom(due),
        notes: k === 0 ? 'يرجى دراسة الموضوع وإعداد الرد' : 'للمشاركة في إعداد الرد',
      });
      tasks.push({ id: task.id, username: person.username });
      stats.tasks += 1;
      stats.states[state] += 1;
    }
    for (const task of tasks) {
      // Moved by the tasker when they have an account, else by the manager (who may move them too);
      // some completed tasks went straight from new to completed.
      const mover = (task.username ? await callerFor(tx, task.username) : null) ?? lead;
      if (state === 'inProgress' || (state === 'completed' && i % 2 === 0))
        await corr.moveTask(ctx, mover, doc.id, task.id, 'inProgress');
      if (state === 'completed') await corr.moveTask(ctx, mover, doc.id, task.id, 'completed');
    }
  }
  const [overdue] = await rowsOf<{ n: number }>(
    tx,
    sql`select count(*)::int as n from tasks where state <> 'completed' and task_date < current_date`,
  );
  created.push(
    `${stats.registered + stats.drafts} incoming letters (${stats.registered} registered by clerk, ` +
      `${stats.numbers[0]} to ${stats.numbers.at(-1)}; ${stats.drafts} drafts of clerk)`,
    `${stats.distributed} letters distributed (${stats.forAction} for action, ${stats.forKnowledge} for knowledge)`,
    `${stats.tasks} tasks (${stats.states.completed} completed, ${stats.states.inProgress} in progress, ` +
      `${stats.states.new} new; ${overdue?.n ?? 0} overdue)`,
    `${stats.follows} follow-ups of clerk`,
  );
  return created;
}

/**
 * Outgoing letters and memos in every state, through the real circuit code as the demo users: drafts;
 * letters waiting for the `manager` now (alone — one a reply to an incoming letter — or after one
 * opinion) and one in a parallel opinion step of two employees where one has answered (the other's
 * turn); one sent back for changes and one rejected, with their comments; approved and numbered letters,
 * dispatched by the clerk (delivered or not) or awaiting dispatch, one a reply; memos drafted, approving
 * (waiting for the `manager`, alone or after an opinion), returned, and approved — distributed to the
 * departments they address, one of them tasked by its manager.
 */
async function seedCircuits(ctx: ServerContext, tx: Tx): Promise<string[]> {
  const [existing] = await rowsOf<{ n: number }>(
    tx,
    sql`select count(*)::int as n from documents where direction <> 'in'`,
  );
  if ((existing?.n ?? 0) > 0) return ['outgoing letters and memos already present (left as is)'];
  const people = {
    manager: await callerFor(tx, 'manager'),
    clerk: await callerFor(tx, 'clerk'),
    e1: await callerFor(tx, 'employee1'),
    e2: await callerFor(tx, 'employee2'),
    e3: await callerFor(tx, 'employee3'),
    e4: await callerFor(tx, 'employee4'),
  };
  if (Object.values(people).some((p) => p === null) || !people.manager!.profile)
    return ['no demo outgoing letters or memos: the demo users are missing'];
  const { manager, clerk, e1, e2, e3, e4 } = people as Record<keyof typeof people, AuthContext>;
  const cod = async (prefix: string) =>
    (
      await rowsOf<{ id: number }>(
        tx,
        sql`select id from correspondence_settings where list = 'codifications' and prefix = ${prefix} and active`,
      )
    )[0]?.id;
  const dept = async (nameEn: string, type: 'internal' | 'external') =>
    (
      await rowsOf<{ id: number }>(
        tx,
        sql`select id from departments where name_en = ${nameEn} and type = ${type} and active`,
      )
    )[0]?.id;
  const out = await cod('OUT');
  const memo = await cod('MEMO');
  const mail = (
    await rowsOf<{ id: number }>(
      tx,
      sql`select id from correspondence_settings where list = 'mediums' and name_en = 'Mail' and active`,
    )
  )[0]?.id;
  const finance = await dept('General Directorate of Financial Affairs', 'internal');
  const hr = await dept('Human Resources Department', 'internal');
  const it = await dept('Information Technology Department', 'internal');
  // One query at a time: a transaction's connection runs them in turn.
  const receivers: (number | undefined)[] = [];
  for (const n of [
    'Ministry of Finance',
    'General Audit Bureau',
    'Ministry of Health',
    'Council of Ministers',
  ])
    receivers.push(await dept(n, 'external'));
  if (!out || !memo || !finance || !hr || !it || receivers.some((r) => r === undefined))
    return ['no demo outgoing letters or memos: the demo settings or departments are missing'];
  // The incoming letters some outgoing ones answer (by subject; a reply links to its letter).
  const incoming = async (subject: string) =>
    (
      await rowsOf<{ id: number }>(
        tx,
        sql`select id from documents where direction = 'in' and state = 'registered' and subject = ${subject}
            order by id limit 1`,
      )
    )[0]?.id;
  const replyTo = async (subject: string): Promise<Partial<CreateDocumentRequest>> => {
    const id = await incoming(subject);
    return id === undefined ? {} : { relatedIds: [id] };
  };
  // The manager signs for the ministry: the administrator granted him its signing authority (the
  // ministry's own manager holds it by office; the demo letters go up to the directorate's manager).
  const entity = await entityOf(tx, finance);
  const admin = await callerFor(tx, 'admin');
  const granted =
    entity !== null &&
    (await insertGrant(tx, { entityId: entity.id, userId: manager.userId, by: admin?.userId ?? null }));
  const userOf = (a: AuthContext) => a.userId;
  const stats: Record<string, number> = {};
  const count = (k: string) => (stats[k] = (stats[k] ?? 0) + 1);

  /** Writes a document; then sends it through `steps` and plays the answers given. */
  const play = async (
    author: AuthContext,
    body: Omit<CreateDocumentRequest, 'register'>,
    steps: AuthContext[][] | null,
    answers: [AuthContext, 'approve' | 'reject' | 'requestChanges', string?][] = [],
    dispatch?: { delivered: boolean; daysAgo: number },
  ) => {
    const doc = await corr.createDocument(ctx, author, { ...body, register: false });
    if (!steps) return count(`${body.direction} draft`);
    await approvals.submitDocument(ctx, author, doc.id, {
      steps: steps.map((st) => ({ userIds: st.map(userOf) })),
      version: doc.version,
    });
    let last = doc;
    for (const [who, action, comment] of answers)
      last = await approvals.decideDocument(ctx, who, doc.id, {
        action,
        comment: comment ?? null,
        version: doc.version,
      });
    if (dispatch)
      await approvals.dispatchDocument(ctx, clerk, doc.id, {
        mediumId: mail!,
        dispatchDate: dayFrom(-dispatch.daysAgo),
        delivered: dispatch.delivered,
      });
    count(`${body.direction} ${last.state}${dispatch ? ' dispatched' : ''}`);
  };
  const letter = (subject: string, receiver: number, extra: Partial<CreateDocumentRequest> = {}) => ({
    direction: 'out' as const,
    subject,
    summary: `نفيدكم بشأن ${subject.replace(/^(الرد على|خطاب)\s*/, '')}، ونأمل الاطلاع والإفادة.`,
    codificationId: out,
    documentDate: dayFrom(-2),
    recipientIds: [receiver],
    mediumId: mail ?? null,
    ...extra,
  });
  const toMemo = (subject: string, recipients: number[]) => ({
    direction: 'memo' as const,
    subject,
    summary: `يُعمَّم ${subject} على الإدارات المعنية للعمل بموجبه.`,
    codificationId: memo,
    documentDate: dayFrom(-1),
    recipientIds: recipients,
  });
  const [mof, audit, health, council] = receivers as number[];

  // Outgoing letters.
  await play(e1, letter('مسودة خطاب بشأن تحديث بيانات الموردين', mof!), null);
  await play(e2, letter('مسودة رد على استفسار وزارة الصحة', health!), null);
  await play(
    e1,
    letter(
      'الرد على طلب اعتماد ميزانية المشاريع للربع القادم',
      mof!,
      await replyTo('طلب اعتماد ميزانية المشاريع للربع القادم'),
    ),
    [[manager]],
  );
  await play(e3, letter('إفادة بشأن ملاحظات ديوان المحاسبة', audit!), [[manager]]);
  await play(
    e1,
    letter('طلب تمديد مهلة تقديم الحسابات الختامية', audit!),
    [[e2], [manager]],
    [[e2, 'approve']],
  );
  await play(
    e1,
    letter('خطاب بشأن المشاركة في اللجنة الوزارية المشتركة', council!),
    [[e2, e3], [manager]],
    [[e2, 'approve']],
  );
  await play(
    e2,
    letter('تقرير الإنجازات الربعية للإدارة', council!),
    [[manager]],
    [[manager, 'requestChanges', 'يرجى إضافة نسب الإنجاز لكل مشروع وإرفاق الجدول الزمني المحدث']],
  );
  await play(
    e3,
    letter('طلب تعزيز بند المكافآت', mof!),
    [[manager]],
    [[manager, 'reject', 'سبق الرفع بهذا الطلب في الربع الماضي ولا حاجة لتكراره']],
  );
  await play(
    e1,
    letter('إفادة بتسوية مستحقات التأمينات الاجتماعية', mof!),
    [[e3], [manager]],
    [
      [e3, 'approve'],
      [manager, 'approve'],
    ],
    { delivered: true, daysAgo: 5 },
  );
  await play(
    e2,
    letter(
      'الرد على طلب البيانات الإحصائية السنوية',
      council!,
      await replyTo('طلب تزويدنا بالبيانات الإحصائية السنوية'),
    ),
    [[manager]],
    [[manager, 'approve']],
    {
      delivered: false,
      daysAgo: 1,
    },
  );
  await play(
    e1,
    letter('خطاب شكر على التعاون في الفعالية الوطنية', health!),
    [[manager]],
    [[manager, 'approve']],
  );
  await play(
    e3,
    letter('طلب نسخ العقود المبرمة خلال العام المالي', audit!),
    [[e2], [manager]],
    [
      [e2, 'approve'],
      [manager, 'approve'],
    ],
  );

  // Memos.
  await play(e1, toMemo('مسودة تعميم بشأن ترشيد استهلاك الطاقة', [hr!, it!]), null);
  await play(e3, toMemo('مسودة مذكرة بشأن جرد الأصول الثابتة', [finance, it!]), null);
  await play(e2, toMemo('تعميم بشأن مواعيد رفع طلبات الإجازات', [hr!]), [[manager]]);
  await play(
    e2,
    toMemo('مذكرة بشأن إغلاق الحسابات المالية للعام الحالي', [finance, hr!]),
    [[e3], [manager]],
    [[e3, 'approve', 'لا مانع، مع مراعاة مواعيد الإقفال المعتمدة من وزارة المالية']],
  );
  await play(
    e3,
    toMemo('تعميم بشأن تحديث كلمات المرور', [it!]),
    [[manager]],
    [[manager, 'requestChanges', 'يرجى توضيح موعد التطبيق والجهة المسؤولة عن المتابعة']],
  );
  await play(
    e1,
    toMemo('تعميم بشأن حضور ورشة التحول الرقمي', [hr!, it!]),
    [[manager]],
    [[manager, 'approve']],
  );
  await play(
    e4,
    toMemo('مذكرة بشأن تسوية عهد الموظفين قبل نهاية العام', [finance]),
    [[manager]],
    [[manager, 'approve']],
  );
  // The finance manager tasks an employee with the memo that reached the directorate.
  const [received] = await rowsOf<{ document_id: number; id: number }>(
    tx,
    sql`select x.document_id, x.id from distributions x where x.direction = 'memo' and x.department_id = ${finance}
        order by x.id desc limit 1`,
  );
  if (received && e1.profile.employee) {
    await corr.assignTask(ctx, manager, received.document_id, {
      distributionId: received.id,
      employeeId: e1.profile.employee.id,
      taskDate: dayFrom(7),
      notes: 'يرجى حصر العهد القائمة في الإدارة',
    });
    count('memo task');
  }
  const summary = Object.entries(stats)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  return [
    ...(granted ? [`signing authority for ${entity.name_en} granted to manager`] : []),
    `outgoing letters and memos through their approval circuits: ${summary}`,
  ];
}
