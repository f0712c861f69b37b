/**
 * SQL of the Employee Centre: jobs, departments (and the tree), employees, their attachments and the
 * secretary offices. Name search compares the normalised `search_text` columns (trigram-indexed) with
 * text normalised by src-shared/arabic.ts, so both sides follow the same rules.
 */
import { aliasedTable, and, asc, count, desc, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import {
  departments,
  employeeAttachments,
  employees,
  jobs,
  roles,
  secretaryOffices,
  users,
} from '../../db/schema';
import type { ListFields } from '../../db/list';
import { rowsOf } from '../../db/rows';
import { outer } from '../../db/sql';
import type { Tx } from '../auth/queries';
import type { ListClauses } from '../admin/queries';

export type { Tx };

/** `%text%` for LIKE on a normalised column (text already normalised, wildcards escaped). */
export function containsPattern(normalised: string): string {
  return `%${normalised.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// ---------------------------------------------------------------- jobs

export const JOB_FIELDS: ListFields = {
  id: { column: jobs.id, kind: 'number' },
  nameAr: { column: jobs.nameAr, kind: 'text' },
  nameEn: { column: jobs.nameEn, kind: 'text' },
  isManager: { column: jobs.isManager, kind: 'boolean' },
  active: { column: jobs.active, kind: 'boolean' },
  createdAt: { column: jobs.createdAt, kind: 'date' },
};
export const JOB_SEARCH = [jobs.nameAr, jobs.nameEn];

const jobColumns = {
  id: jobs.id,
  nameAr: jobs.nameAr,
  nameEn: jobs.nameEn,
  isManager: jobs.isManager,
  active: jobs.active,
  createdAt: jobs.createdAt,
  updatedAt: jobs.updatedAt,
  employeeCount: sql<number>`(select count(*) from employees e where e.job_id = ${outer(jobs.id)})`.mapWith(
    Number,
  ),
};
export type JobRow = Awaited<ReturnType<typeof getJob>> & object;

export async function listJobs(db: Tx, c: ListClauses) {
  const rows = await db
    .select({ ...jobColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(jobs)
    .where(c.where)
    .orderBy(c.order, jobs.id)
    .limit(c.limit)
    .offset(c.offset);
  const total =
    rows[0]?.total ??
    (c.offset > 0 ? ((await db.select({ n: count() }).from(jobs).where(c.where))[0]?.n ?? 0) : 0);
  return { rows, total };
}

export async function getJob(db: Tx, id: number) {
  const [row] = await db.select(jobColumns).from(jobs).where(eq(jobs.id, id)).limit(1);
  return row ?? null;
}

export async function insertJob(
  db: Tx,
  values: { nameAr: string; nameEn: string; isManager: boolean; active: boolean },
) {
  const [row] = await db.insert(jobs).values(values).returning({ id: jobs.id });
  return row!.id;
}

export async function updateJob(
  db: Tx,
  id: number,
  patch: Partial<{ nameAr: string; nameEn: string; isManager: boolean; active: boolean }>,
) {
  await db
    .update(jobs)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(jobs.id, id));
}

/** Pickers list names in the reader's language order: English readers find "Sara" under S. */
export type NameOrder = 'ar' | 'en';

export async function jobOptions(db: Tx, order: NameOrder = 'ar') {
  return db
    .select({ id: jobs.id, nameAr: jobs.nameAr, nameEn: jobs.nameEn, isManager: jobs.isManager })
    .from(jobs)
    .where(eq(jobs.active, true))
    .orderBy(asc(order === 'en' ? jobs.nameEn : jobs.nameAr), asc(jobs.id));
}

// ---------------------------------------------------------------- departments

export const DEPARTMENT_FIELDS: ListFields = {
  id: { column: departments.id, kind: 'number' },
  nameAr: { column: departments.nameAr, kind: 'text' },
  nameEn: { column: departments.nameEn, kind: 'text' },
  parentId: { column: departments.parentId, kind: 'number' },
  type: { column: departments.type, kind: 'text' },
  isEntity: { column: departments.isEntity, kind: 'boolean' },
  archiveType: { column: departments.archiveType, kind: 'text' },
  active: { column: departments.active, kind: 'boolean' },
  createdAt: { column: departments.createdAt, kind: 'date' },
};

/**
 * Names of the records a department points at, as scalar subqueries: a five-way join of aliases defeats
 * drizzle's type inference, and these run once per row of a 20-row page.
 */
const sub = <T>(query: SQL) => sql<T>`(${query})`;
const departmentColumns = {
  id: departments.id,
  nameAr: departments.nameAr,
  nameEn: departments.nameEn,
  parentId: departments.parentId,
  parentNameAr: sub<string | null>(
    sql`select p.name_ar from departments p where p.id = ${outer(departments.parentId)}`,
  ),
  parentNameEn: sub<string | null>(
    sql`select p.name_en from departments p where p.id = ${outer(departments.parentId)}`,
  ),
  type: departments.type,
  isEntity: departments.isEntity,
  archiveType: departments.archiveType,
  email: departments.email,
  archiveOfficeId: departments.archiveOfficeId,
  archiveNameAr: sub<string | null>(
    sql`select a.name_ar from departments a where a.id = ${outer(departments.archiveOfficeId)}`,
  ),
  archiveNameEn: sub<string | null>(
    sql`select a.name_en from departments a where a.id = ${outer(departments.archiveOfficeId)}`,
  ),
  managerEmployeeId: departments.managerEmployeeId,
  managerNameAr: sub<string | null>(
    sql`select m.first_name_ar || ' ' || m.last_name_ar from employees m where m.id = ${outer(departments.managerEmployeeId)}`,
  ),
  managerNameEn: sub<string | null>(
    sql`select m.first_name_en || ' ' || m.last_name_en from employees m where m.id = ${outer(departments.managerEmployeeId)}`,
  ),
  officeId: sub<number | null>(
    sql`select o.id from secretary_offices o where o.department_id = ${outer(departments.id)}`,
  ).mapWith((v) => (v === null ? null : Number(v))),
  officeActive: sub<boolean | null>(
    sql`select o.active from secretary_offices o where o.department_id = ${outer(departments.id)}`,
  ),
  secretaryId: sub<number | null>(
    sql`select o.secretary_employee_id from secretary_offices o where o.department_id = ${outer(departments.id)}`,
  ).mapWith((v) => (v === null ? null : Number(v))),
  secretaryNameAr: sub<string | null>(
    sql`select s.first_name_ar || ' ' || s.last_name_ar from secretary_offices o join employees s on s.id = o.secretary_employee_id where o.department_id = ${outer(departments.id)}`,
  ),
  secretaryNameEn: sub<string | null>(
    sql`select s.first_name_en || ' ' || s.last_name_en from secretary_offices o join employees s on s.id = o.secretary_employee_id where o.department_id = ${outer(departments.id)}`,
  ),
  active: departments.active,
  childCount: sub<number>(
    sql`select count(*) from departments c where c.parent_id = ${outer(departments.id)}`,
  ).mapWith(Number),
  employeeCount: sub<number>(
    sql`select count(*) from employees e where e.department_id = ${outer(departments.id)}`,
  ).mapWith(Number),
  createdAt: departments.createdAt,
  updatedAt: departments.updatedAt,
};
export type DepartmentRow = Awaited<ReturnType<typeof getDepartment>> & object;

const departmentListColumns = { ...departmentColumns, total: sql<number>`count(*) over ()`.mapWith(Number) };

export async function listDepartments(db: Tx, c: ListClauses) {
  const rows = await db
    .select(departmentListColumns)
    .from(departments)
    .where(c.where)
    .orderBy(c.order, departments.id)
    .limit(c.limit)
    .offset(c.offset);
  const total =
    rows[0]?.total ??
    (c.offset > 0 ? ((await db.select({ n: count() }).from(departments).where(c.where))[0]?.n ?? 0) : 0);
  return { rows, total };
}

export async function getDepartment(db: Tx, id: number) {
  const [row] = await db.select(departmentColumns).from(departments).where(eq(departments.id, id)).limit(1);
  return row ?? null;
}

/** The columns the tree needs, for every department (the tree is built in memory). */
export async function treeRows(db: Tx, where: SQL | undefined) {
  return db
    .select({
      id: departments.id,
      nameAr: departments.nameAr,
      nameEn: departments.nameEn,
      parentId: departments.parentId,
      type: departments.type,
      isEntity: departments.isEntity,
      archiveType: departments.archiveType,
      archiveOfficeId: departments.archiveOfficeId,
      managerEmployeeId: departments.managerEmployeeId,
      active: departments.active,
      searchText: departments.searchText,
    })
    .from(departments)
    .where(where)
    .orderBy(asc(departments.nameAr), asc(departments.id));
}

/** Light rows for the department picker. */
export async function departmentOptions(
  db: Tx,
  opts: { pattern?: string; type?: string; includeInactive: boolean; limit: number; order?: NameOrder },
) {
  const where: SQL[] = [];
  if (opts.pattern) where.push(sql`${departments.searchText} like ${opts.pattern}`);
  if (opts.type) where.push(eq(departments.type, opts.type));
  if (!opts.includeInactive) where.push(eq(departments.active, true));
  return db
    .select({
      id: departments.id,
      nameAr: departments.nameAr,
      nameEn: departments.nameEn,
      parentId: departments.parentId,
      type: departments.type,
      active: departments.active,
    })
    .from(departments)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(opts.order === 'en' ? departments.nameEn : departments.nameAr), asc(departments.id))
    .limit(opts.limit);
}

/** A department's ancestors' ids, nearest first (the walk stops at a root). */
export async function ancestorIds(db: Tx, id: number): Promise<number[]> {
  const result = await rowsOf<{ id: number }>(
    db,
    sql`
    with recursive up(id, parent_id, depth) as (
      select id, parent_id, 0 from ${departments} where id = ${id}
      union all
      select d.id, d.parent_id, up.depth + 1 from ${departments} d join up on d.id = up.parent_id where up.depth < 1000
    )
    select id from up where depth > 0 order by depth`,
  );
  return result.map((r) => r.id);
}

/** Every department under `id` (not itself). */
export async function descendantIds(db: Tx, id: number): Promise<number[]> {
  const result = await rowsOf<{ id: number }>(
    db,
    sql`
    with recursive down(id, depth) as (
      select id, 0 from ${departments} where parent_id = ${id}
      union all
      select d.id, down.depth + 1 from ${departments} d join down on d.parent_id = down.id where down.depth < 1000
    )
    select id from down`,
  );
  return result.map((r) => r.id);
}

export async function countActiveChildren(db: Tx, id: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(departments)
    .where(and(eq(departments.parentId, id), eq(departments.active, true)));
  return row?.n ?? 0;
}

export async function insertDepartment(
  db: Tx,
  values: {
    nameAr: string;
    nameEn: string;
    parentId: number | null;
    type: string;
    isEntity: boolean;
    archiveType: string;
    archiveOfficeId: number | null;
    email: string | null;
    active: boolean;
  },
) {
  const [row] = await db.insert(departments).values(values).returning({ id: departments.id });
  return row!.id;
}

export async function updateDepartment(
  db: Tx,
  id: number,
  patch: Partial<{
    nameAr: string;
    nameEn: string;
    parentId: number | null;
    type: string;
    isEntity: boolean;
    archiveType: string;
    archiveOfficeId: number | null;
    managerEmployeeId: number | null;
    email: string | null;
    active: boolean;
  }>,
) {
  await db
    .update(departments)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(departments.id, id));
}

export async function setDepartmentsActive(db: Tx, ids: number[], active: boolean) {
  if (!ids.length) return;
  await db
    .update(departments)
    .set({ active, updatedAt: sql`now()` })
    .where(inArray(departments.id, ids));
}

// ---------------------------------------------------------------- employees

const nameArSql = sql<string>`${employees.firstNameAr} || ' ' || ${employees.lastNameAr}`;
const nameEnSql = sql<string>`${employees.firstNameEn} || ' ' || ${employees.lastNameEn}`;

export const EMPLOYEE_FIELDS: ListFields = {
  id: { column: employees.id, kind: 'number' },
  name: { column: employees.searchText, kind: 'text' },
  firstNameAr: { column: employees.firstNameAr, kind: 'text' },
  lastNameAr: { column: employees.lastNameAr, kind: 'text' },
  firstNameEn: { column: employees.firstNameEn, kind: 'text' },
  lastNameEn: { column: employees.lastNameEn, kind: 'text' },
  phoneNumber: { column: employees.phoneNumber, kind: 'text' },
  departmentId: { column: employees.departmentId, kind: 'number' },
  jobId: { column: employees.jobId, kind: 'number' },
  employeeType: { column: employees.employeeType, kind: 'text' },
  hireDate: { column: employees.hireDate, kind: 'date' },
  dateOfBirth: { column: employees.dateOfBirth, kind: 'date' },
  hasUser: { column: sql`(${employees.userId} is not null)`, kind: 'boolean' },
  active: { column: employees.active, kind: 'boolean' },
  createdAt: { column: employees.createdAt, kind: 'date' },
};

const empDept = aliasedTable(departments, 'emp_dept');

const employeeListColumns = {
  id: employees.id,
  firstNameAr: employees.firstNameAr,
  lastNameAr: employees.lastNameAr,
  firstNameEn: employees.firstNameEn,
  lastNameEn: employees.lastNameEn,
  phoneNumber: employees.phoneNumber,
  hireDate: employees.hireDate,
  employeeType: employees.employeeType,
  departmentId: employees.departmentId,
  departmentNameAr: empDept.nameAr,
  departmentNameEn: empDept.nameEn,
  jobId: employees.jobId,
  jobNameAr: jobs.nameAr,
  jobNameEn: jobs.nameEn,
  jobIsManager: jobs.isManager,
  userId: employees.userId,
  photoSha256: employees.photoSha256,
  active: employees.active,
};
export type EmployeeListRow = Awaited<ReturnType<typeof listEmployees>>['rows'][number];

/**
 * One page and the total as two queries run together: `count(*) over ()` would make PostgreSQL build and
 * sort every matching joined row just to return twenty.
 */
export async function listEmployees(db: Tx, c: ListClauses) {
  const [rows, [counted]] = await Promise.all([
    db
      .select(employeeListColumns)
      .from(employees)
      .innerJoin(empDept, eq(empDept.id, employees.departmentId))
      .innerJoin(jobs, eq(jobs.id, employees.jobId))
      .where(c.where)
      .orderBy(c.order, employees.id)
      .limit(c.limit)
      .offset(c.offset),
    db.select({ n: count() }).from(employees).where(c.where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

export async function getEmployee(db: Tx, id: number) {
  const [row] = await db
    .select({
      ...employeeListColumns,
      dateOfBirth: employees.dateOfBirth,
      createdAt: employees.createdAt,
      updatedAt: employees.updatedAt,
      username: users.username,
      email: users.email,
      userActive: users.active,
      roleId: roles.id,
      roleNameAr: roles.nameAr,
      roleNameEn: roles.nameEn,
      attachmentCount:
        sql<number>`(select count(*) from ${employeeAttachments} a where a.employee_id = ${outer(employees.id)})`.mapWith(
          Number,
        ),
    })
    .from(employees)
    .innerJoin(empDept, eq(empDept.id, employees.departmentId))
    .innerJoin(jobs, eq(jobs.id, employees.jobId))
    .leftJoin(users, eq(users.id, employees.userId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(eq(employees.id, id))
    .limit(1);
  return row ?? null;
}

/** The bare employee row (rules and links). */
export async function employeeCore(db: Tx, id: number) {
  const [row] = await db
    .select({
      id: employees.id,
      active: employees.active,
      userId: employees.userId,
      departmentId: employees.departmentId,
      photoSha256: employees.photoSha256,
      nameAr: nameArSql,
      nameEn: nameEnSql,
    })
    .from(employees)
    .where(eq(employees.id, id))
    .limit(1);
  return row ?? null;
}

export type EmployeeValues = {
  firstNameAr: string;
  lastNameAr: string;
  firstNameEn: string;
  lastNameEn: string;
  phoneNumber: string | null;
  dateOfBirth: string | null;
  hireDate: string | null;
  departmentId: number;
  jobId: number;
  employeeType: string;
  active: boolean;
};

export async function insertEmployee(db: Tx, values: EmployeeValues) {
  const [row] = await db.insert(employees).values(values).returning({ id: employees.id });
  return row!.id;
}

export async function updateEmployee(
  db: Tx,
  id: number,
  patch: Partial<EmployeeValues & { userId: number | null; photoSha256: string | null }>,
) {
  await db
    .update(employees)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(employees.id, id));
}

/** Links employee ↔ user both ways (or unlinks with null), clearing any previous link on either side. */
export async function linkUser(db: Tx, employeeId: number, userId: number | null) {
  await db
    .update(users)
    .set({ employeeId: null, updatedAt: sql`now()` })
    .where(eq(users.employeeId, employeeId));
  if (userId !== null) {
    await db
      .update(employees)
      .set({ userId: null })
      .where(and(eq(employees.userId, userId), ne(employees.id, employeeId)));
    await db
      .update(users)
      .set({ employeeId, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
  }
  await db
    .update(employees)
    .set({ userId, updatedAt: sql`now()` })
    .where(eq(employees.id, employeeId));
}

/** The employee a user is linked to, if any. */
export async function employeeOfUser(db: Tx, userId: number) {
  const [row] = await db
    .select({ id: employees.id })
    .from(employees)
    .where(eq(employees.userId, userId))
    .limit(1);
  return row?.id ?? null;
}

export async function employeeOptions(
  db: Tx,
  opts: { pattern?: string; departmentId?: number; limit: number; order?: NameOrder },
) {
  const where: SQL[] = [eq(employees.active, true)];
  if (opts.pattern) where.push(sql`${employees.searchText} like ${opts.pattern}`);
  if (opts.departmentId) where.push(eq(employees.departmentId, opts.departmentId));
  return db
    .select({
      id: employees.id,
      nameAr: nameArSql,
      nameEn: nameEnSql,
      departmentId: employees.departmentId,
      jobId: employees.jobId,
    })
    .from(employees)
    .where(and(...where))
    .orderBy(
      ...(opts.order === 'en'
        ? [asc(employees.firstNameEn), asc(employees.lastNameEn)]
        : [asc(employees.firstNameAr), asc(employees.lastNameAr)]),
      asc(employees.id),
    )
    .limit(opts.limit);
}

// ---------------------------------------------------------------- dashboard

export async function dashboardCounts(db: Tx) {
  const [totals] = await db
    .select({
      employees: count(),
      active: sql<number>`count(*) filter (where ${employees.active})`.mapWith(Number),
      withUser: sql<number>`count(*) filter (where ${employees.userId} is not null)`.mapWith(Number),
    })
    .from(employees);
  const [deptCount] = await db
    .select({ n: count() })
    .from(departments)
    .where(and(eq(departments.active, true), eq(departments.type, 'internal')));
  const [jobCount] = await db.select({ n: count() }).from(jobs).where(eq(jobs.active, true));
  const byDepartment = await db
    .select({ id: departments.id, nameAr: departments.nameAr, nameEn: departments.nameEn, count: count() })
    .from(employees)
    .innerJoin(departments, eq(departments.id, employees.departmentId))
    .where(eq(employees.active, true))
    .groupBy(departments.id)
    .orderBy(desc(count()), asc(departments.id))
    .limit(20);
  const byJob = await db
    .select({ id: jobs.id, nameAr: jobs.nameAr, nameEn: jobs.nameEn, count: count() })
    .from(employees)
    .innerJoin(jobs, eq(jobs.id, employees.jobId))
    .where(eq(employees.active, true))
    .groupBy(jobs.id)
    .orderBy(desc(count()), asc(jobs.id));
  const byType = await db
    .select({ employeeType: employees.employeeType, count: count() })
    .from(employees)
    .where(eq(employees.active, true))
    .groupBy(employees.employeeType)
    .orderBy(desc(count()));
  return {
    totals: { ...totals!, departments: deptCount?.n ?? 0, jobs: jobCount?.n ?? 0 },
    byDepartment,
    byJob,
    byType,
  };
}

export async function recentHires(db: Tx, limit: number) {
  return db
    .select(employeeListColumns)
    .from(employees)
    .innerJoin(empDept, eq(empDept.id, employees.departmentId))
    .innerJoin(jobs, eq(jobs.id, employees.jobId))
    .where(and(eq(employees.active, true), isNotNull(employees.hireDate)))
    .orderBy(desc(employees.hireDate), desc(employees.id))
    .limit(limit);
}

// ---------------------------------------------------------------- attachments

const uploader = aliasedTable(users, 'uploader');

export async function listAttachments(db: Tx, employeeId: number) {
  return db
    .select({
      id: employeeAttachments.id,
      employeeId: employeeAttachments.employeeId,
      fileName: employeeAttachments.fileName,
      size: employeeAttachments.size,
      mime: employeeAttachments.mime,
      sha256: employeeAttachments.sha256,
      uploadedById: uploader.id,
      uploadedByUsername: uploader.username,
      uploadedAt: employeeAttachments.uploadedAt,
    })
    .from(employeeAttachments)
    .leftJoin(uploader, eq(uploader.id, employeeAttachments.uploadedBy))
    .where(eq(employeeAttachments.employeeId, employeeId))
    .orderBy(desc(employeeAttachments.uploadedAt), desc(employeeAttachments.id));
}
export type AttachmentRow = Awaited<ReturnType<typeof listAttachments>>[number];

export async function getAttachment(db: Tx, employeeId: number, id: number) {
  const rows = await listAttachments(db, employeeId);
  return rows.find((r) => r.id === id) ?? null;
}

export async function insertAttachment(
  db: Tx,
  values: {
    employeeId: number;
    sha256: string;
    fileName: string;
    size: number;
    mime: string;
    uploadedBy: number;
  },
) {
  const [row] = await db.insert(employeeAttachments).values(values).returning({ id: employeeAttachments.id });
  return row!.id;
}

export async function deleteAttachment(db: Tx, employeeId: number, id: number) {
  const rows = await db
    .delete(employeeAttachments)
    .where(and(eq(employeeAttachments.id, id), eq(employeeAttachments.employeeId, employeeId)))
    .returning({ id: employeeAttachments.id, fileName: employeeAttachments.fileName });
  return rows[0] ?? null;
}

// ---------------------------------------------------------------- secretary offices

const officeDept = aliasedTable(departments, 'office_dept');
const officeSecretary = aliasedTable(employees, 'office_secretary');

export const OFFICE_FIELDS: ListFields = {
  id: { column: secretaryOffices.id, kind: 'number' },
  departmentId: { column: secretaryOffices.departmentId, kind: 'number' },
  secretaryEmployeeId: { column: secretaryOffices.secretaryEmployeeId, kind: 'number' },
  department: { column: officeDept.searchText, kind: 'text' },
  secretary: { column: officeSecretary.searchText, kind: 'text' },
  active: { column: secretaryOffices.active, kind: 'boolean' },
  createdAt: { column: secretaryOffices.createdAt, kind: 'date' },
};
export const OFFICE_SEARCH = [officeDept.searchText, officeSecretary.searchText];

const officeColumns = {
  id: secretaryOffices.id,
  departmentId: secretaryOffices.departmentId,
  departmentNameAr: officeDept.nameAr,
  departmentNameEn: officeDept.nameEn,
  secretaryEmployeeId: secretaryOffices.secretaryEmployeeId,
  secretaryNameAr: sql<string>`${officeSecretary.firstNameAr} || ' ' || ${officeSecretary.lastNameAr}`,
  secretaryNameEn: sql<string>`${officeSecretary.firstNameEn} || ' ' || ${officeSecretary.lastNameEn}`,
  active: secretaryOffices.active,
  createdAt: secretaryOffices.createdAt,
  updatedAt: secretaryOffices.updatedAt,
};
export type OfficeRow = Awaited<ReturnType<typeof getOffice>> & object;

const officeListColumns = { ...officeColumns, total: sql<number>`count(*) over ()`.mapWith(Number) };

export async function listOffices(db: Tx, c: ListClauses) {
  const rows = await db
    .select(officeListColumns)
    .from(secretaryOffices)
    .innerJoin(officeDept, eq(officeDept.id, secretaryOffices.departmentId))
    .innerJoin(officeSecretary, eq(officeSecretary.id, secretaryOffices.secretaryEmployeeId))
    .where(c.where)
    .orderBy(c.order, secretaryOffices.id)
    .limit(c.limit)
    .offset(c.offset);
  const total =
    rows[0]?.total ??
    (c.offset > 0
      ? ((
          await db
            .select({ n: count() })
            .from(secretaryOffices)
            .innerJoin(officeDept, eq(officeDept.id, secretaryOffices.departmentId))
            .innerJoin(officeSecretary, eq(officeSecretary.id, secretaryOffices.secretaryEmployeeId))
            .where(c.where)
        )[0]?.n ?? 0)
      : 0);
  return { rows, total };
}

export async function getOffice(db: Tx, id: number) {
  const [row] = await db
    .select(officeColumns)
    .from(secretaryOffices)
    .innerJoin(officeDept, eq(officeDept.id, secretaryOffices.departmentId))
    .innerJoin(officeSecretary, eq(officeSecretary.id, secretaryOffices.secretaryEmployeeId))
    .where(eq(secretaryOffices.id, id))
    .limit(1);
  return row ?? null;
}

export async function officeOfDepartment(db: Tx, departmentId: number) {
  const [row] = await db
    .select({ id: secretaryOffices.id })
    .from(secretaryOffices)
    .where(eq(secretaryOffices.departmentId, departmentId))
    .limit(1);
  return row?.id ?? null;
}

export async function insertOffice(
  db: Tx,
  values: { departmentId: number; secretaryEmployeeId: number; active: boolean },
) {
  const [row] = await db.insert(secretaryOffices).values(values).returning({ id: secretaryOffices.id });
  return row!.id;
}

export async function updateOffice(
  db: Tx,
  id: number,
  patch: Partial<{ departmentId: number; secretaryEmployeeId: number; active: boolean }>,
) {
  await db
    .update(secretaryOffices)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(secretaryOffices.id, id));
}
