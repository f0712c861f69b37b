/**
 * Demo organisation for `seed-demo`: a ministry-style tree of internal departments (three levels),
 * external entities, jobs, about 200 employees with Arabic and English names generated deterministically
 * from name lists, department managers, secretary offices and a few employees with user accounts. Runs
 * once: when any department exists it leaves the directory alone and says so.
 */
import { and, count, eq, ne } from 'drizzle-orm';
import type { ServerContext } from '../../context';
import { departments, employees, jobs, secretaryOffices, users } from '../../db/schema';
import { insertUser } from '../auth/queries';
import type { Tx } from './../auth/queries';

type Node = { ar: string; en: string; archive?: boolean; children?: Node[] };

const INTERNAL: Node = {
  ar: 'الوزارة',
  en: 'The Ministry',
  children: [
    {
      ar: 'مكتب الوزير',
      en: "Minister's Office",
      children: [{ ar: 'إدارة الاتصال المؤسسي', en: 'Corporate Communication' }],
    },
    {
      ar: 'الوكالة',
      en: 'Deputy Ministry',
      children: [
        { ar: 'الإدارة العامة للتخطيط', en: 'General Directorate of Planning' },
        { ar: 'إدارة المشاريع', en: 'Projects Department' },
      ],
    },
    {
      ar: 'الإدارة العامة للشؤون الإدارية',
      en: 'General Directorate of Administrative Affairs',
      children: [
        { ar: 'إدارة الموارد البشرية', en: 'Human Resources Department' },
        { ar: 'إدارة الخدمات العامة', en: 'General Services Department' },
        { ar: 'إدارة المشتريات', en: 'Procurement Department' },
        { ar: 'الأرشيف المركزي', en: 'Central Archive', archive: true },
        { ar: 'إدارة الاتصالات الإدارية', en: 'Administrative Communications', archive: true },
      ],
    },
    {
      ar: 'الإدارة العامة للشؤون المالية',
      en: 'General Directorate of Financial Affairs',
      children: [
        { ar: 'إدارة الشؤون المالية', en: 'Finance Department' },
        { ar: 'إدارة الميزانية', en: 'Budget Department' },
      ],
    },
    {
      ar: 'إدارة تقنية المعلومات',
      en: 'Information Technology Department',
      children: [
        { ar: 'قسم البنية التحتية', en: 'Infrastructure Section' },
        { ar: 'قسم التطبيقات', en: 'Applications Section' },
      ],
    },
    { ar: 'الإدارة القانونية', en: 'Legal Department' },
    { ar: 'إدارة المراجعة الداخلية', en: 'Internal Audit Department' },
  ],
};

const EXTERNAL: [string, string][] = [
  ['وزارة المالية', 'Ministry of Finance'],
  ['وزارة الصحة', 'Ministry of Health'],
  ['وزارة التعليم', 'Ministry of Education'],
  ['وزارة الداخلية', 'Ministry of Interior'],
  ['وزارة العدل', 'Ministry of Justice'],
  ['وزارة الموارد البشرية', 'Ministry of Human Resources'],
  ['ديوان المحاسبة', 'General Audit Bureau'],
  ['هيئة مكافحة الفساد', 'Anti-Corruption Authority'],
  ['الهيئة العامة للإحصاء', 'General Authority for Statistics'],
  ['مجلس الوزراء', 'Council of Ministers'],
  ['أمانة المنطقة', 'Regional Municipality'],
  ['البنك المركزي', 'Central Bank'],
  ['هيئة الحكومة الرقمية', 'Digital Government Authority'],
  ['المؤسسة العامة للتأمينات الاجتماعية', 'General Organization for Social Insurance'],
  ['جامعة الملك سعود', 'King Saud University'],
];

const JOBS: [string, string, boolean][] = [
  ['مدير عام', 'Director General', true],
  ['مدير إدارة', 'Department Manager', true],
  ['رئيس قسم', 'Section Head', true],
  ['أخصائي', 'Specialist', false],
  ['محلل نظم', 'Systems Analyst', false],
  ['محاسب', 'Accountant', false],
  ['مستشار قانوني', 'Legal Counsel', false],
  ['كاتب أرشيف', 'Archive Clerk', false],
  ['سكرتير', 'Secretary', false],
  ['منسق إداري', 'Administrative Coordinator', false],
];

const FIRST: [string, string][] = [
  ['محمد', 'Mohammed'],
  ['أحمد', 'Ahmed'],
  ['عبدالله', 'Abdullah'],
  ['خالد', 'Khalid'],
  ['سعد', 'Saad'],
  ['فهد', 'Fahad'],
  ['عمر', 'Omar'],
  ['يوسف', 'Yousef'],
  ['إبراهيم', 'Ibrahim'],
  ['سلطان', 'Sultan'],
  ['نورة', 'Noura'],
  ['سارة', 'Sara'],
  ['فاطمة', 'Fatimah'],
  ['ريم', 'Reem'],
  ['هند', 'Hind'],
  ['مريم', 'Maryam'],
  ['لمى', 'Lama'],
  ['منى', 'Mona'],
  ['عائشة', 'Aisha'],
  ['جواهر', 'Jawaher'],
];
const LAST: [string, string][] = [
  ['العتيبي', 'Alotaibi'],
  ['القحطاني', 'Alqahtani'],
  ['الشهري', 'Alshehri'],
  ['الغامدي', 'Alghamdi'],
  ['الزهراني', 'Alzahrani'],
  ['الحربي', 'Alharbi'],
  ['الدوسري', 'Aldosari'],
  ['المطيري', 'Almutairi'],
  ['السبيعي', 'Alsubaie'],
  ['العنزي', 'Alanazi'],
  ['الشمري', 'Alshammari'],
  ['المالكي', 'Almalki'],
];
const TYPES = ['permanent', 'permanent', 'permanent', 'contract', 'temporary', 'secondment'];

/** The department of the demo manager, where employee1–employee3 work. */
export const DEMO_STAFF_DEPARTMENT = 'General Directorate of Financial Affairs';

/** Loads the demo directory; answers what it created (empty when a directory already exists). */
export async function seedDemoDirectory(ctx: ServerContext, passwordHash: string, roleId: number | null) {
  const created: string[] = [];
  await ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(departments);
    if ((existing?.n ?? 0) > 0) return;
    const jobIds = new Map<string, number>();
    for (const [ar, en, isManager] of JOBS) {
      const [row] = await tx
        .insert(jobs)
        .values({ nameAr: ar, nameEn: en, isManager })
        .returning({ id: jobs.id });
      jobIds.set(en, row!.id);
    }
    const internal: { id: number; depth: number; archive: boolean }[] = [];
    const insertTree = async (node: Node, parentId: number | null, depth: number) => {
      const [row] = await tx
        .insert(departments)
        .values({
          nameAr: node.ar,
          nameEn: node.en,
          parentId,
          type: 'internal',
          isEntity: depth === 0,
          archiveType: node.archive ? 'inOut' : 'none',
        })
        .returning({ id: departments.id });
      internal.push({ id: row!.id, depth, archive: !!node.archive });
      for (const child of node.children ?? []) await insertTree(child, row!.id, depth + 1);
    };
    await insertTree(INTERNAL, null, 0);
    const archiveId = internal.find((d) => d.archive)!.id;
    await tx.update(departments).set({ archiveOfficeId: archiveId }).where(eq(departments.type, 'internal'));
    for (const [ar, en] of EXTERNAL)
      await tx.insert(departments).values({ nameAr: ar, nameEn: en, type: 'external', isEntity: true });
    created.push(
      `${internal.length} departments`,
      `${EXTERNAL.length} external entities`,
      `${JOBS.length} jobs`,
    );

    // Employees: a manager and a secretary per department, the rest spread deterministically.
    const total = 200;
    let n = 0;
    const person = (i: number) => {
      const f = FIRST[(i * 7) % FIRST.length]!;
      const l = LAST[(i * 5 + Math.floor(i / FIRST.length)) % LAST.length]!;
      return { f, l };
    };
    const add = async (departmentId: number, job: string, i: number) => {
      const { f, l } = person(i);
      const year = 2005 + (i % 20);
      const [row] = await tx
        .insert(employees)
        .values({
          firstNameAr: f[0],
          lastNameAr: l[0],
          firstNameEn: f[1],
          lastNameEn: l[1],
          phoneNumber: `+966 5${(i % 10).toString()} ${String(1000000 + i * 7919).slice(0, 7)}`,
          dateOfBirth: `${1965 + (i % 35)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
          hireDate: `${year}-${String(((i * 3) % 12) + 1).padStart(2, '0')}-${String(((i * 5) % 27) + 1).padStart(2, '0')}`,
          departmentId,
          jobId: jobIds.get(job)!,
          employeeType: TYPES[i % TYPES.length]!,
        })
        .returning({ id: employees.id });
      n += 1;
      return row!.id;
    };
    for (const d of internal) {
      const manager = await add(
        d.id,
        d.depth === 0 ? 'Director General' : d.depth === 1 ? 'Department Manager' : 'Section Head',
        n,
      );
      await tx.update(departments).set({ managerEmployeeId: manager }).where(eq(departments.id, d.id));
      if (d.depth <= 1) {
        const secretary = await add(d.id, 'Secretary', n);
        await tx.insert(secretaryOffices).values({ departmentId: d.id, secretaryEmployeeId: secretary });
      }
    }
    const staffJobs = [
      'Specialist',
      'Systems Analyst',
      'Accountant',
      'Legal Counsel',
      'Archive Clerk',
      'Administrative Coordinator',
    ];
    while (n < total) await add(internal[(n * 3) % internal.length]!.id, staffJobs[n % staffJobs.length]!, n);
    created.push(`${n} employees`);

    if (roleId !== null) {
      // employee1–employee3 work in Financial Affairs, under the demo manager, so the manager can task them
      // and they find their tasks; employee4–employee5 elsewhere. Staff only: no managers or secretaries.
      const staff = await tx
        .select({
          id: employees.id,
          departmentEn: departments.nameEn,
          job: jobs.nameEn,
          fa: employees.firstNameAr,
          la: employees.lastNameAr,
          fe: employees.firstNameEn,
          le: employees.lastNameEn,
        })
        .from(employees)
        .innerJoin(departments, eq(departments.id, employees.departmentId))
        .innerJoin(jobs, eq(jobs.id, employees.jobId))
        .where(and(eq(jobs.isManager, false), ne(jobs.nameEn, 'Secretary'), eq(departments.type, 'internal')))
        .orderBy(employees.id);
      const finance = staff.filter((e) => e.departmentEn === DEMO_STAFF_DEPARTMENT);
      // Archive clerks stay free: the demo clerk account is linked to one of them.
      const others = staff.filter(
        (e) => e.departmentEn !== DEMO_STAFF_DEPARTMENT && e.job !== 'Archive Clerk',
      );
      const sample = [...finance.slice(0, 3), ...others.slice(0, 2)];
      for (const [i, e] of sample.entries()) {
        const username = `employee${i + 1}`;
        const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.username, username));
        if (taken) continue;
        const userId = await linkNewUser(tx, e.id, {
          username,
          email: `${username}@example.com`,
          passwordHash,
          nameAr: `${e.fa} ${e.la}`,
          nameEn: `${e.fe} ${e.le}`,
          roleId,
        });
        created.push(`user ${username} (employee ${e.id} of ${e.departmentEn}, user ${userId})`);
      }
    }
  });
  return created;
}

async function linkNewUser(
  tx: Tx,
  employeeId: number,
  u: {
    username: string;
    email: string;
    passwordHash: string;
    nameAr: string;
    nameEn: string;
    roleId: number;
  },
) {
  const userId = await insertUser(tx, { ...u, locale: 'ar', active: true });
  await tx.update(users).set({ employeeId }).where(eq(users.id, userId));
  await tx.update(employees).set({ userId }).where(eq(employees.id, employeeId));
  return userId;
}
