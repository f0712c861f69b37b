/**
 * Every count and name a directory or administration screen shows, checked against data seeded here:
 * employees per job (the jobs page counted one each), children and employees per department, the names of
 * a department's parent, archive office and manager, users per role. The family: correlated subqueries
 * whose outer column drizzle wrote unqualified, so PostgreSQL read it as the subquery's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { department, employee } from './support/correspondence';

let h: Harness;
let token: string;
let jobA: number;
let jobB: number;
let parent: number;
let archive: number;
let manager: number;
beforeAll(async () => {
  h = await startHarness();
  token = await signIn(h, await makeUser(h, 'admin'));
  archive = await department(h, 'الأرشيف المركزي', { archive: true });
  parent = await department(h, 'الإدارة العامة', { archiveOfficeId: archive });
  const childA = await department(h, 'قسم أ');
  const childB = await department(h, 'قسم ب');
  await h.query(`update departments set parent_id = ${parent} where id in (${childA}, ${childB})`);
  // Employees: 3 in the parent, 1 in child A; the helper gives them all its one job, moved below.
  const ids = [
    await employee(h, parent),
    await employee(h, parent),
    await employee(h, parent),
    await employee(h, childA),
  ];
  manager = ids[0]!;
  await h.query(`update departments set manager_employee_id = ${manager} where id = ${parent}`);
  const [a] = await h.query<{ id: number }>(
    `insert into jobs (name_ar, name_en) values ('محاسب', 'Accountant') returning id`,
  );
  const [b] = await h.query<{ id: number }>(
    `insert into jobs (name_ar, name_en) values ('سائق', 'Driver') returning id`,
  );
  jobA = Number(a!.id);
  jobB = Number(b!.id);
  await h.query(`update employees set job_id = ${jobA} where id in (${ids[0]}, ${ids[1]}, ${ids[2]})`);
  await h.query(`update employees set job_id = ${jobB} where id = ${ids[3]}`);
});
afterAll(async () => {
  await h?.close();
});

describe('counts and names on the screens match the data', () => {
  it('jobs: employees per job, in the list and the detail', async () => {
    const list = await call(h, { method: 'GET', url: '/ec/jobs?pageSize=200', token });
    const count = (id: number) => list.json.data.items.find((j: { id: number }) => j.id === id).employeeCount;
    expect(count(jobA)).toBe(3);
    expect(count(jobB)).toBe(1);
    expect((await call(h, { method: 'GET', url: `/ec/jobs/${jobA}`, token })).json.data.employeeCount).toBe(
      3,
    );
  });

  it('departments: children, employees, parent, archive office and manager', async () => {
    const one = (await call(h, { method: 'GET', url: `/ec/departments/${parent}`, token })).json.data;
    expect(one.childCount).toBe(2);
    expect(one.employeeCount).toBe(3);
    expect(one.archiveOffice?.id).toBe(archive);
    expect(one.archiveOffice?.nameAr).toMatch(/^الأرشيف المركزي/);
    expect(one.manager?.id).toBe(manager);
    const list = await call(h, { method: 'GET', url: '/ec/departments?pageSize=200', token });
    const row = list.json.data.items.find((d: { id: number }) => d.id === parent);
    expect(row.childCount).toBe(2);
    expect(row.employeeCount).toBe(3);
    const child = list.json.data.items.find(
      (d: { parentId: number | null; employeeCount: number }) =>
        d.parentId === parent && d.employeeCount === 1,
    );
    expect(child?.parent?.nameAr).toMatch(/^الإدارة العامة/);
  });

  it('roles: users per role', async () => {
    const role = await makeRole(h);
    await makeUser(h, role);
    await makeUser(h, role);
    const list = await call(h, { method: 'GET', url: '/auth/roles?pageSize=200', token });
    expect(list.json.data.items.find((r: { id: number }) => r.id === role).userCount).toBe(2);
  });

  it("pickers list people and departments in the order of the reader's language", async () => {
    const dep = await department(h, 'إدارة الترتيب');
    await h.query(`insert into employees (first_name_ar, last_name_ar, first_name_en, last_name_en, department_id, job_id)
      values ('أحمد', 'الأول', 'Zaid', 'First', ${dep}, ${jobA}), ('يوسف', 'الثاني', 'Adam', 'Second', ${dep}, ${jobA})`);
    const names = async (lang: 'ar' | 'en') => {
      const res = await call(h, {
        method: 'GET',
        url: `/ec/employees/options?departmentId=${dep}`,
        token,
        lang,
      });
      return res.json.data.map((e: { nameEn: string }) => e.nameEn);
    };
    expect(await names('ar')).toEqual(['Zaid First', 'Adam Second']);
    expect(await names('en')).toEqual(['Adam Second', 'Zaid First']);
    const jobs = async (lang: 'ar' | 'en') =>
      (await call(h, { method: 'GET', url: '/ec/jobs/options', token, lang })).json.data.map(
        (j: { nameEn: string }) => j.nameEn,
      );
    expect((await jobs('en')).filter((n: string) => ['Accountant', 'Driver'].includes(n))).toEqual([
      'Accountant',
      'Driver',
    ]);
    expect((await jobs('ar')).filter((n: string) => ['Accountant', 'Driver'].includes(n))).toEqual([
      'Driver',
      'Accountant',
    ]);
  });
});
