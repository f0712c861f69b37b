/**
 * The rules of the Employee Centre. Jobs: unique names per language, activate/deactivate. Departments:
 * a tree without cycles whose children share their parent's type; deactivating a department with active
 * children needs `cascade` (the whole subtree goes), activating under an inactive parent is refused;
 * departments are never deleted. Employees belong to an active internal department and an active job;
 * a user account is created in the same transaction or an existing one linked (users.employee_id kept in
 * step); deactivating an employee deactivates the linked account and ends its sessions. Secretary
 * offices: one per internal department, the secretary an active employee. Every change is audited in
 * its transaction.
 */
import type { Readable } from 'node:stream';
import { and as sqlAndAll, eq as sqlEq, sql, type SQL } from 'drizzle-orm';
import { departments as departmentsTable, employees as employeesTable } from '../../db/schema';
import type {
  AttachmentParams,
  ConfigureDepartmentRequest,
  CreateDepartmentRequest,
  CreateEmployeeRequest,
  CreateJobRequest,
  CreateSecretaryOfficeRequest,
  Department,
  DepartmentOption,
  DepartmentTree,
  DepartmentTreeNode,
  DirectoryListQuery,
  Employee,
  EmployeeAttachment,
  EmployeeDashboard,
  EmployeeListItem,
  EmployeeOption,
  EmployeeType,
  Job,
  JobOption,
  NewEmployeeUser,
  SecretaryOffice,
  UpdateDepartmentRequest,
  UpdateEmployeeRequest,
  UpdateJobRequest,
  UpdateSecretaryOfficeRequest,
} from '../../../src-shared/api/directory';
import { PHOTO_MAX_SIDE } from '../../../src-shared/api/directory';
import { normalizeArabic } from '../../../src-shared/arabic';
import type { Locale } from '../../../src-shared/locale';
import { recordAudit, type AuditAction } from '../../audit';
import type { ServerContext } from '../../context';
import { constraintOf, isUniqueViolation } from '../../db/errors';
import { listClauses } from '../../db/list';
import type { AuthContext } from '../../http/access';
import { HttpProblem, type FieldMessage } from '../../http/problem';
import { nestsDeeperThan, tooDeep } from '../../http/json-depth';
import { assertImage, assertSize } from '../../storage/validate';
import type { ReceivedFile } from '../../http/upload';
import { cleanFileName } from '../../http/upload';
import { insertAccount, type RequestMeta } from '../auth/service';
import { assertMayGrantRole, assertMayManageUser } from '../admin/privilege';
import { accountOf, deactivateAccount, renameAccount, roleExists } from '../admin/service';
import * as q from './queries';
import type { ListPage } from '../../../src-shared/api/envelope';

type Tx = q.Tx;

const notFound = () => new HttpProblem('notFound');
const iso = (d: Date) => d.toISOString();

/** A 422 naming the rule (detail `directory.<key>`) and, optionally, the field it concerns. */
function rule(key: string, field?: string, fieldKey?: string): HttpProblem {
  return new HttpProblem('unprocessable', {
    detailKey: `directory.${key}`,
    code: `directory.${key}`,
    ...(field ? { fields: { [field]: [{ key: fieldKey ?? `directory.${key}` }] } } : {}),
  });
}

/** A 400 on one field. */
function badField(field: string, key = 'validation.choice'): HttpProblem {
  return new HttpProblem('badRequest', { fields: { [field]: [{ key }] } });
}

/** Unique violations → 409 with the field the index guards; anything else is rethrown. */
function conflictOf(error: unknown): never {
  if (isUniqueViolation(error)) {
    const c = constraintOf(error) ?? '';
    const map: [string, string][] = [
      ['jobs_name_ar', 'nameAr'],
      ['jobs_name_en', 'nameEn'],
      ['users_username', 'user.username'],
      ['users_email', 'user.email'],
      ['employees_user', 'userId'],
      ['secretary_offices_department', 'departmentId'],
    ];
    const field = map.find(([prefix]) => c.startsWith(prefix))?.[1];
    const fields: Record<string, FieldMessage[]> | undefined = field
      ? { [field]: [{ key: 'validation.duplicate' }] }
      : undefined;
    throw new HttpProblem('conflict', { detailKey: 'admin.duplicate', ...(fields ? { fields } : {}) });
  }
  throw error;
}

function audit(
  db: Tx,
  caller: AuthContext,
  meta: RequestMeta,
  action: AuditAction,
  targetType: string,
  targetId: number,
  details: Record<string, unknown> = {},
) {
  return recordAudit(db, {
    action,
    actorId: caller.userId,
    actorUsername: caller.username,
    targetType,
    targetId,
    details,
    ip: meta.ip,
  });
}

/** The `q` of a list, normalised like the `search_text` columns, as a LIKE pattern (or undefined). */
function searchPattern(text: string | undefined): string | undefined {
  const n = text ? normalizeArabic(text) : '';
  return n ? q.containsPattern(n) : undefined;
}

/** Normalises the string values of the `name`-like filters (they compare with `search_text`). */
function normaliseFilters(filters: string | undefined, fields: string[]): string | undefined {
  if (!filters) return filters;
  if (nestsDeeperThan(filters)) throw tooDeep('filters');
  try {
    const parsed = JSON.parse(filters) as Record<string, { constraints?: { value?: unknown }[] }>;
    for (const field of fields) {
      for (const c of parsed?.[field]?.constraints ?? []) {
        if (typeof c.value === 'string') c.value = normalizeArabic(c.value);
      }
    }
    return JSON.stringify(parsed);
  } catch {
    return filters; // listClauses answers the 400
  }
}

// ---------------------------------------------------------------- jobs

function jobOut(row: q.JobRow): Job {
  return { ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}

/** GET /ec/jobs. */
export async function listJobs(ctx: ServerContext, query: DirectoryListQuery): Promise<ListPage<Job>> {
  const clauses = listClauses(query, q.JOB_FIELDS, q.JOB_SEARCH, 'nameAr');
  const { rows, total } = await q.listJobs(ctx.db, clauses);
  return { items: rows.map(jobOut), total, page: query.page, pageSize: query.pageSize };
}

/** GET /ec/jobs/{id}. */
export async function getJob(ctx: ServerContext, id: number): Promise<Job> {
  const row = await q.getJob(ctx.db, id);
  if (!row) throw notFound();
  return jobOut(row);
}

/** GET /ec/jobs/options: active jobs. */
export async function jobOptions(ctx: ServerContext, locale: Locale = 'ar'): Promise<JobOption[]> {
  return q.jobOptions(ctx.db, locale);
}

/** POST /ec/jobs. */
export async function createJob(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreateJobRequest,
  meta: RequestMeta,
): Promise<Job> {
  const id = await ctx.db
    .transaction(async (tx) => {
      const id = await q.insertJob(tx, input);
      await audit(tx, caller, meta, 'jobs.create', 'job', id, { nameEn: input.nameEn });
      return id;
    })
    .catch(conflictOf);
  return getJob(ctx, id);
}

/** PUT /ec/jobs/{id}. */
export async function updateJob(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: UpdateJobRequest,
  meta: RequestMeta,
): Promise<Job> {
  await ctx.db
    .transaction(async (tx) => {
      if (!(await q.getJob(tx, id))) throw notFound();
      await q.updateJob(tx, id, input);
      await audit(tx, caller, meta, 'jobs.update', 'job', id, { fields: Object.keys(input) });
    })
    .catch(conflictOf);
  return getJob(ctx, id);
}

/** PUT /ec/jobs/{id}/active. Employees keep an inactive job; it leaves the pickers. */
export async function setJobActive(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  active: boolean,
  meta: RequestMeta,
): Promise<Job> {
  await ctx.db.transaction(async (tx) => {
    if (!(await q.getJob(tx, id))) throw notFound();
    await q.updateJob(tx, id, { active });
    await audit(tx, caller, meta, active ? 'jobs.activate' : 'jobs.deactivate', 'job', id);
  });
  return getJob(ctx, id);
}

// ---------------------------------------------------------------- departments

const ref = (id: number | null, nameAr: string | null, nameEn: string | null) =>
  id === null || nameAr === null || nameEn === null ? null : { id, nameAr, nameEn };

function departmentOut(row: q.DepartmentRow): Department {
  return {
    id: row.id,
    nameAr: row.nameAr,
    nameEn: row.nameEn,
    parentId: row.parentId,
    parent: ref(row.parentId, row.parentNameAr, row.parentNameEn),
    type: row.type === 'external' ? 'external' : 'internal',
    isEntity: row.isEntity,
    archiveType: row.archiveType === 'inOut' ? 'inOut' : 'none',
    email: row.email,
    archiveOfficeId: row.archiveOfficeId,
    archiveOffice: ref(row.archiveOfficeId, row.archiveNameAr, row.archiveNameEn),
    managerEmployeeId: row.managerEmployeeId,
    manager: ref(row.managerEmployeeId, row.managerNameAr, row.managerNameEn),
    secretaryOffice:
      row.officeId !== null && row.secretaryId !== null
        ? {
            id: row.officeId,
            active: row.officeActive ?? false,
            secretary: {
              id: row.secretaryId,
              nameAr: row.secretaryNameAr ?? '',
              nameEn: row.secretaryNameEn ?? '',
            },
          }
        : null,
    active: row.active,
    childCount: row.childCount,
    employeeCount: row.employeeCount,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** GET /ec/departments (flat list with the common list query; `q` searches both languages, normalised). */
export async function listDepartments(
  ctx: ServerContext,
  query: DirectoryListQuery,
): Promise<ListPage<Department>> {
  const pattern = searchPattern(query.q);
  const clauses = listClauses({ ...query, q: undefined }, q.DEPARTMENT_FIELDS, [], 'nameAr');
  const where = pattern
    ? clauses.where
      ? sqlAnd(clauses.where, likeSearch('departments', pattern))
      : likeSearch('departments', pattern)
    : clauses.where;
  const { rows, total } = await q.listDepartments(ctx.db, { ...clauses, where });
  return { items: rows.map(departmentOut), total, page: query.page, pageSize: query.pageSize };
}

/** GET /ec/departments/{id}. */
export async function getDepartment(ctx: ServerContext, id: number): Promise<Department> {
  const row = await q.getDepartment(ctx.db, id);
  if (!row) throw notFound();
  return departmentOut(row);
}

/**
 * GET /ec/departments/tree. Built in memory from one query (hundreds of rows): with `q`, the matching
 * departments and their ancestors; with `active`, inactive departments and everything under them drop.
 */
export async function departmentTree(
  ctx: ServerContext,
  query: { type?: 'internal' | 'external' | undefined; q?: string | undefined; active?: boolean | undefined },
): Promise<DepartmentTree> {
  const rows = await q.treeRows(ctx.db, query.type ? eqType(query.type) : undefined);
  const needle = query.q ? normalizeArabic(query.q) : '';
  const nodes = new Map<number, DepartmentTreeNode & { searchText: string }>();
  for (const r of rows) {
    nodes.set(r.id, {
      id: r.id,
      nameAr: r.nameAr,
      nameEn: r.nameEn,
      parentId: r.parentId,
      type: r.type === 'external' ? 'external' : 'internal',
      isEntity: r.isEntity,
      archiveType: r.archiveType === 'inOut' ? 'inOut' : 'none',
      archiveOfficeId: r.archiveOfficeId,
      managerEmployeeId: r.managerEmployeeId,
      active: r.active,
      matched: needle ? r.searchText.includes(needle) : true,
      children: [],
      searchText: r.searchText,
    });
  }
  // Which nodes to keep: every node, or the matches and their ancestors.
  let keep: Set<number>;
  if (needle) {
    keep = new Set();
    for (const node of nodes.values()) {
      if (!node.matched) continue;
      let cur: typeof node | undefined = node;
      for (let guard = 0; cur && guard < 1000 && !keep.has(cur.id); guard++) {
        keep.add(cur.id);
        cur = cur.parentId === null ? undefined : nodes.get(cur.parentId);
      }
    }
  } else keep = new Set(nodes.keys());
  const roots: DepartmentTreeNode[] = [];
  for (const node of nodes.values()) {
    if (!keep.has(node.id)) continue;
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent && keep.has(parent.id)) parent.children.push(node);
    else if (!parent || node.parentId === null) roots.push(node);
    else roots.push(node); // parent filtered out by type: show the node at the top
  }
  const strip = (list: DepartmentTreeNode[]): DepartmentTreeNode[] =>
    list
      .filter((n) => !query.active || n.active)
      .map(({ searchText: _s, ...n }: DepartmentTreeNode & { searchText?: string }) => ({
        ...n,
        children: strip(n.children),
      }));
  return { roots: strip(roots) };
}

/** GET /ec/departments/options: picker rows. */
export async function departmentOptions(
  ctx: ServerContext,
  query: {
    q?: string | undefined;
    type?: 'internal' | 'external' | undefined;
    includeInactive?: boolean | undefined;
    limit: number;
  },
  locale: Locale = 'ar',
): Promise<DepartmentOption[]> {
  const rows = await q.departmentOptions(ctx.db, {
    order: locale,
    ...(searchPattern(query.q) ? { pattern: searchPattern(query.q)! } : {}),
    ...(query.type ? { type: query.type } : {}),
    includeInactive: query.includeInactive ?? false,
    limit: query.limit,
  });
  return rows.map((r) => ({ ...r, type: r.type === 'external' ? 'external' : 'internal' }));
}

/** The parent rules: it exists, is active and of the same type; moving under oneself or a descendant is a cycle. */
async function checkParent(tx: Tx, parentId: number, type: string, selfId?: number) {
  const parent = await q.getDepartment(tx, parentId);
  if (!parent) throw badField('parentId');
  if (selfId !== undefined) {
    if (parentId === selfId || (await q.ancestorIds(tx, parentId)).includes(selfId))
      throw rule('departmentCycle', 'parentId');
  }
  if (!parent.active) throw rule('parentInactive', 'parentId');
  if (parent.type !== type) throw rule('parentTypeMismatch', 'parentId');
}

/** The archive office must be an active internal department that has one (archive type in and out). */
async function checkArchiveOffice(
  tx: Tx,
  archiveOfficeId: number,
  selfId?: number,
  selfArchiveType?: string,
) {
  if (selfId !== undefined && archiveOfficeId === selfId) {
    if (selfArchiveType !== 'inOut') throw rule('notArchiveOffice', 'archiveOfficeId');
    return;
  }
  const office = await q.getDepartment(tx, archiveOfficeId);
  if (!office) throw badField('archiveOfficeId');
  if (office.type !== 'internal' || office.archiveType !== 'inOut' || !office.active)
    throw rule('notArchiveOffice', 'archiveOfficeId');
}

/** POST /ec/departments. */
export async function createDepartment(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreateDepartmentRequest,
  meta: RequestMeta,
): Promise<Department> {
  const id = await ctx.db.transaction(async (tx) => {
    if (input.parentId !== null) await checkParent(tx, input.parentId, input.type);
    if (input.archiveOfficeId !== null) await checkArchiveOffice(tx, input.archiveOfficeId);
    const id = await q.insertDepartment(tx, input);
    await audit(tx, caller, meta, 'departments.create', 'department', id, {
      nameEn: input.nameEn,
      parentId: input.parentId,
    });
    return id;
  });
  return getDepartment(ctx, id);
}

/** PUT /ec/departments/{id}: edit and move (no cycles; a type change only for a department without children or members). */
export async function updateDepartment(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: UpdateDepartmentRequest,
  meta: RequestMeta,
): Promise<Department> {
  await ctx.db.transaction(async (tx) => {
    const current = await q.getDepartment(tx, id);
    if (!current) throw notFound();
    const type = input.type ?? current.type;
    if (input.type !== undefined && input.type !== current.type) {
      if (current.childCount > 0) throw rule('typeChangeWithChildren', 'type');
      if (current.employeeCount > 0) throw rule('typeChangeWithMembers', 'type');
    }
    const parentId = input.parentId === undefined ? current.parentId : input.parentId;
    if (parentId !== null && (parentId !== current.parentId || type !== current.type))
      await checkParent(tx, parentId, type, id);
    if (input.archiveType === 'none' && current.archiveOfficeId === id)
      await q.updateDepartment(tx, id, { archiveOfficeId: null });
    await q.updateDepartment(tx, id, input);
    await audit(tx, caller, meta, 'departments.update', 'department', id, {
      fields: Object.keys(input),
      ...(input.parentId !== undefined && input.parentId !== current.parentId
        ? { movedFrom: current.parentId, movedTo: input.parentId }
        : {}),
    });
  });
  return getDepartment(ctx, id);
}

/**
 * PUT /ec/departments/{id}/active. Deactivating with active children: 422 unless `cascade`, which
 * deactivates the whole subtree. Activating under an inactive parent: 422. Members stay.
 */
export async function setDepartmentActive(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  active: boolean,
  cascade: boolean,
  meta: RequestMeta,
): Promise<Department> {
  await ctx.db.transaction(async (tx) => {
    const current = await q.getDepartment(tx, id);
    if (!current) throw notFound();
    let affected = [id];
    if (active) {
      if (current.parentId !== null) {
        const parent = await q.getDepartment(tx, current.parentId);
        if (parent && !parent.active) throw rule('parentInactive');
      }
    } else if ((await q.countActiveChildren(tx, id)) > 0) {
      if (!cascade) throw rule('activeChildren');
      affected = [id, ...(await q.descendantIds(tx, id))];
    }
    await q.setDepartmentsActive(tx, affected, active);
    await audit(
      tx,
      caller,
      meta,
      active ? 'departments.activate' : 'departments.deactivate',
      'department',
      id,
      {
        ...(affected.length > 1 ? { cascade: affected.slice(1) } : {}),
      },
    );
  });
  return getDepartment(ctx, id);
}

/** An active employee (422 on `field` otherwise). */
async function requireActiveEmployee(tx: Tx, employeeId: number, field: string) {
  const e = await q.employeeCore(tx, employeeId);
  if (!e) throw badField(field);
  if (!e.active) throw rule('employeeInactive', field);
  return e;
}

/** PUT /ec/departments/{id}/configure: archive office, manager and secretary office. */
export async function configureDepartment(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: ConfigureDepartmentRequest,
  meta: RequestMeta,
): Promise<Department> {
  await ctx.db
    .transaction(async (tx) => {
      const current = await q.getDepartment(tx, id);
      if (!current) throw notFound();
      const internalOnly = input.managerEmployeeId || input.secretaryEmployeeId;
      if (internalOnly && current.type !== 'internal') throw rule('externalHasNoStaff');
      if (input.archiveOfficeId) await checkArchiveOffice(tx, input.archiveOfficeId, id, current.archiveType);
      if (input.managerEmployeeId)
        await requireActiveEmployee(tx, input.managerEmployeeId, 'managerEmployeeId');
      const patch: { archiveOfficeId?: number | null; managerEmployeeId?: number | null } = {};
      if (input.archiveOfficeId !== undefined) patch.archiveOfficeId = input.archiveOfficeId;
      if (input.managerEmployeeId !== undefined) patch.managerEmployeeId = input.managerEmployeeId;
      if (Object.keys(patch).length) await q.updateDepartment(tx, id, patch);
      if (input.secretaryEmployeeId !== undefined) {
        const officeId = await q.officeOfDepartment(tx, id);
        if (input.secretaryEmployeeId === null) {
          if (officeId !== null) await q.updateOffice(tx, officeId, { active: false });
        } else {
          await requireActiveEmployee(tx, input.secretaryEmployeeId, 'secretaryEmployeeId');
          if (officeId === null)
            await q.insertOffice(tx, {
              departmentId: id,
              secretaryEmployeeId: input.secretaryEmployeeId,
              active: true,
            });
          else
            await q.updateOffice(tx, officeId, {
              secretaryEmployeeId: input.secretaryEmployeeId,
              active: true,
            });
        }
      }
      await audit(tx, caller, meta, 'departments.configure', 'department', id, { ...input });
    })
    .catch(conflictOf);
  return getDepartment(ctx, id);
}

// ---------------------------------------------------------------- employees

function listItemOut(r: q.EmployeeListRow): EmployeeListItem {
  return {
    id: r.id,
    firstNameAr: r.firstNameAr,
    lastNameAr: r.lastNameAr,
    firstNameEn: r.firstNameEn,
    lastNameEn: r.lastNameEn,
    nameAr: `${r.firstNameAr} ${r.lastNameAr}`,
    nameEn: `${r.firstNameEn} ${r.lastNameEn}`,
    phoneNumber: r.phoneNumber,
    hireDate: r.hireDate,
    employeeType: r.employeeType as EmployeeType,
    department: { id: r.departmentId, nameAr: r.departmentNameAr, nameEn: r.departmentNameEn },
    job: { id: r.jobId, nameAr: r.jobNameAr, nameEn: r.jobNameEn, isManager: r.jobIsManager },
    userId: r.userId,
    hasPhoto: r.photoSha256 !== null,
    active: r.active,
  };
}

/** GET /ec/employees: filters with match modes; `q` and the `name` filter search both scripts, normalised. */
export async function listEmployees(
  ctx: ServerContext,
  query: DirectoryListQuery,
): Promise<ListPage<EmployeeListItem>> {
  const pattern = searchPattern(query.q);
  const clauses = listClauses(
    { ...query, q: undefined, filters: normaliseFilters(query.filters, ['name']) },
    q.EMPLOYEE_FIELDS,
    [],
    'id',
  );
  const where = pattern
    ? clauses.where
      ? sqlAnd(clauses.where, likeSearch('employees', pattern))
      : likeSearch('employees', pattern)
    : clauses.where;
  const { rows, total } = await q.listEmployees(ctx.db, { ...clauses, where });
  return { items: rows.map(listItemOut), total, page: query.page, pageSize: query.pageSize };
}

/** GET /ec/employees/{id}. */
export async function getEmployee(ctx: ServerContext, id: number): Promise<Employee> {
  const r = await q.getEmployee(ctx.db, id);
  if (!r) throw notFound();
  return {
    ...listItemOut(r),
    dateOfBirth: r.dateOfBirth,
    user:
      r.userId !== null && r.username !== null && r.roleId !== null
        ? {
            id: r.userId,
            username: r.username,
            email: r.email ?? '',
            role: { id: r.roleId, nameAr: r.roleNameAr ?? '', nameEn: r.roleNameEn ?? '' },
            active: r.userActive ?? false,
          }
        : null,
    attachmentCount: r.attachmentCount,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/** GET /ec/employees/options. */
export async function employeeOptions(
  ctx: ServerContext,
  query: { q?: string | undefined; departmentId?: number | undefined; limit: number },
  locale: Locale = 'ar',
): Promise<EmployeeOption[]> {
  const pattern = searchPattern(query.q);
  return q.employeeOptions(ctx.db, {
    order: locale,
    ...(pattern ? { pattern } : {}),
    ...(query.departmentId ? { departmentId: query.departmentId } : {}),
    limit: query.limit,
  });
}

/** GET /ec/employees/dashboard. */
export async function dashboard(ctx: ServerContext): Promise<EmployeeDashboard> {
  const counts = await q.dashboardCounts(ctx.db);
  const hires = await q.recentHires(ctx.db, 10);
  return {
    ...counts,
    byType: counts.byType.map((t) => ({ employeeType: t.employeeType as EmployeeType, count: t.count })),
    recentHires: hires.map(listItemOut),
  };
}

/** Employees work in an active internal department. */
async function checkDepartmentForEmployee(tx: Tx, departmentId: number) {
  const d = await q.getDepartment(tx, departmentId);
  if (!d) throw badField('departmentId');
  if (d.type !== 'internal' || !d.active) throw rule('departmentNotAssignable', 'departmentId');
}

/** And hold an active job. */
async function checkJob(tx: Tx, jobId: number) {
  const j = await q.getJob(tx, jobId);
  if (!j) throw badField('jobId');
  if (!j.active) throw rule('jobInactive', 'jobId');
}

/** Creates the employee's user account (names from the employee) and links it. */
async function createLinkedUser(
  tx: Tx,
  caller: AuthContext,
  employeeId: number,
  user: NewEmployeeUser,
  passwordHash: string,
  names: { nameAr: string; nameEn: string },
) {
  if (!(await roleExists(tx, user.roleId))) throw badField('user.roleId');
  await assertMayGrantRole(tx, caller, user.roleId);
  const userId = await insertAccount(tx, {
    username: user.username,
    email: user.email,
    passwordHash,
    nameAr: names.nameAr,
    nameEn: names.nameEn,
    roleId: user.roleId,
    locale: 'ar',
    active: true,
  });
  await q.linkUser(tx, employeeId, userId);
  return userId;
}

/** Links an existing account that no other employee holds. */
async function linkExistingUser(tx: Tx, caller: AuthContext, employeeId: number, userId: number) {
  const target = await accountOf(tx, userId);
  if (!target) throw badField('userId');
  // A linked account follows the employee's names and deactivation: linking is acting on it.
  await assertMayManageUser(tx, caller, target);
  const holder = await q.employeeOfUser(tx, userId);
  if (holder !== null && holder !== employeeId)
    throw new HttpProblem('conflict', {
      detailKey: 'directory.userLinked',
      fields: { userId: [{ key: 'directory.userLinked' }] },
    });
  await q.linkUser(tx, employeeId, userId);
}

/** POST /ec/employees (with an optional new or existing account, all in one transaction). */
export async function createEmployee(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreateEmployeeRequest,
  meta: RequestMeta,
): Promise<Employee> {
  const passwordHash = input.user ? await ctx.passwords.hash(input.user.password) : null;
  const id = await ctx.db
    .transaction(async (tx) => {
      await checkDepartmentForEmployee(tx, input.departmentId);
      await checkJob(tx, input.jobId);
      const { user, userId, ...values } = input;
      const id = await q.insertEmployee(tx, values);
      let linkedUser: number | null = null;
      if (user && passwordHash) {
        linkedUser = await createLinkedUser(tx, caller, id, user, passwordHash, {
          nameAr: `${input.firstNameAr} ${input.lastNameAr}`,
          nameEn: `${input.firstNameEn} ${input.lastNameEn}`,
        });
        await audit(tx, caller, meta, 'users.create', 'user', linkedUser, {
          username: user.username,
          roleId: user.roleId,
          employeeId: id,
        });
      } else if (userId !== undefined) {
        await linkExistingUser(tx, caller, id, userId);
        linkedUser = userId;
      }
      await audit(tx, caller, meta, 'employees.create', 'employee', id, {
        nameEn: `${input.firstNameEn} ${input.lastNameEn}`,
        departmentId: input.departmentId,
        userId: linkedUser,
      });
      return id;
    })
    .catch(conflictOf);
  return getEmployee(ctx, id);
}

/** PUT /ec/employees/{id}. Name changes follow to the linked account's display names. */
export async function updateEmployee(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: UpdateEmployeeRequest,
  meta: RequestMeta,
): Promise<Employee> {
  const passwordHash = input.user ? await ctx.passwords.hash(input.user.password) : null;
  await ctx.db
    .transaction(async (tx) => {
      const current = await q.getEmployee(tx, id);
      if (!current) throw notFound();
      const { user, userId, ...values } = input;
      if (values.departmentId !== undefined && values.departmentId !== current.departmentId)
        await checkDepartmentForEmployee(tx, values.departmentId);
      if (values.jobId !== undefined && values.jobId !== current.jobId) await checkJob(tx, values.jobId);
      await q.updateEmployee(tx, id, values);
      const names = {
        nameAr: `${values.firstNameAr ?? current.firstNameAr} ${values.lastNameAr ?? current.lastNameAr}`,
        nameEn: `${values.firstNameEn ?? current.firstNameEn} ${values.lastNameEn ?? current.lastNameEn}`,
      };
      if (user && passwordHash) {
        if (current.userId !== null) throw rule('employeeHasUser', 'user');
        const newId = await createLinkedUser(tx, caller, id, user, passwordHash, names);
        await audit(tx, caller, meta, 'users.create', 'user', newId, {
          username: user.username,
          roleId: user.roleId,
          employeeId: id,
        });
      } else if (userId !== undefined && userId !== current.userId) {
        if (userId === null) await q.linkUser(tx, id, null);
        else await linkExistingUser(tx, caller, id, userId);
      }
      const linked = userId === undefined ? current.userId : userId;
      if (
        linked !== null &&
        !user &&
        (values.firstNameAr || values.lastNameAr || values.firstNameEn || values.lastNameEn)
      )
        await renameAccount(tx, linked, names);
      await audit(tx, caller, meta, 'employees.update', 'employee', id, {
        fields: Object.keys(input).filter((k) => k !== 'user'),
        ...(user ? { createdUser: user.username } : {}),
      });
    })
    .catch(conflictOf);
  return getEmployee(ctx, id);
}

/**
 * PUT /ec/employees/{id}/active. Deactivating also deactivates the linked account and ends its
 * sessions (someone who left must not sign in); nobody deactivates their own employee record, and the
 * last active administrator's stays. Activating does not reactivate the account (an administrator
 * decides that on the users screen).
 */
export async function setEmployeeActive(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  active: boolean,
  meta: RequestMeta,
): Promise<Employee> {
  await ctx.db.transaction(async (tx) => {
    const current = await q.employeeCore(tx, id);
    if (!current) throw notFound();
    if (!active) {
      if (current.userId !== null && current.userId === caller.userId) throw rule('cannotDeactivateSelf');
      if (current.userId !== null) {
        const u = await accountOf(tx, current.userId);
        if (u) await assertMayManageUser(tx, caller, u);
        if (u?.active) {
          // The last active administrator's record stays active (422), as on the users screen.
          await deactivateAccount(tx, u.id);
          await audit(tx, caller, meta, 'users.deactivate', 'user', u.id, { byEmployee: id });
        }
      }
    }
    await q.updateEmployee(tx, id, { active });
    await audit(tx, caller, meta, active ? 'employees.activate' : 'employees.deactivate', 'employee', id);
  });
  return getEmployee(ctx, id);
}

/** PUT /ec/employees/{id}/photo: an image by content, resized to ≤ PHOTO_MAX_SIDE and stored as WebP. */
export async function setPhoto(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  bytes: Buffer,
  meta: RequestMeta,
): Promise<Employee> {
  if (!(await q.employeeCore(ctx.db, id))) throw notFound();
  assertSize(bytes, ctx.config.UPLOAD_MAX_BYTES);
  const image = await assertImage(bytes, PHOTO_MAX_SIDE);
  const stored = await ctx.files.put(image.bytes);
  await ctx.db.transaction(async (tx) => {
    await q.updateEmployee(tx, id, { photoSha256: stored.sha256 });
    await audit(tx, caller, meta, 'employees.photo', 'employee', id, {
      sha256: stored.sha256,
      width: image.width,
      height: image.height,
    });
  });
  return getEmployee(ctx, id);
}

/** DELETE /ec/employees/{id}/photo. */
export async function removePhoto(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  meta: RequestMeta,
): Promise<Employee> {
  await ctx.db.transaction(async (tx) => {
    if (!(await q.employeeCore(tx, id))) throw notFound();
    await q.updateEmployee(tx, id, { photoSha256: null });
    await audit(tx, caller, meta, 'employees.photo', 'employee', id, { removed: true });
  });
  return getEmployee(ctx, id);
}

/** GET /ec/employees/{id}/photo: the stored WebP bytes (404 without a photo). */
export async function getPhoto(ctx: ServerContext, id: number): Promise<{ bytes: Buffer; mime: string }> {
  const e = await q.employeeCore(ctx.db, id);
  if (!e?.photoSha256) throw notFound();
  return { bytes: await ctx.files.get(e.photoSha256), mime: 'image/webp' };
}

function attachmentOut(r: q.AttachmentRow): EmployeeAttachment {
  return {
    id: r.id,
    employeeId: r.employeeId,
    fileName: r.fileName,
    size: r.size,
    mime: r.mime,
    sha256: r.sha256,
    uploadedBy:
      r.uploadedById !== null && r.uploadedByUsername !== null
        ? { id: r.uploadedById, username: r.uploadedByUsername }
        : null,
    uploadedAt: iso(r.uploadedAt),
  };
}

/** GET /ec/employees/{id}/attachments. */
export async function listAttachments(ctx: ServerContext, id: number): Promise<EmployeeAttachment[]> {
  if (!(await q.employeeCore(ctx.db, id))) throw notFound();
  return (await q.listAttachments(ctx.db, id)).map(attachmentOut);
}

/** POST /ec/employees/{id}/attachments: a PDF by content (415 otherwise), stored by hash. */
export async function addAttachment(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  receive: () => Promise<ReceivedFile>,
  meta: RequestMeta,
): Promise<EmployeeAttachment> {
  if (!(await q.employeeCore(ctx.db, id))) throw notFound();
  const file = await receive();
  const stored = { sha256: file.sha256, size: file.size };
  await file.store(ctx.files);
  const fileName = cleanFileName(file.fileName, `attachment-${stored.sha256.slice(0, 8)}.pdf`);
  const attachmentId = await ctx.db.transaction(async (tx) => {
    const attachmentId = await q.insertAttachment(tx, {
      employeeId: id,
      sha256: stored.sha256,
      fileName,
      size: stored.size,
      mime: 'application/pdf',
      uploadedBy: caller.userId,
    });
    await audit(tx, caller, meta, 'employees.attachmentAdded', 'employee', id, {
      attachmentId,
      fileName,
      size: stored.size,
      sha256: stored.sha256,
    });
    return attachmentId;
  });
  const row = await q.getAttachment(ctx.db, id, attachmentId);
  return attachmentOut(row!);
}

/** GET /ec/employees/{id}/attachments/{attachmentId}: the row and a stream of its bytes. */
export async function openAttachment(
  ctx: ServerContext,
  params: AttachmentParams,
): Promise<{ attachment: EmployeeAttachment; open: (range?: { start: number; end: number }) => Readable }> {
  const row = await q.getAttachment(ctx.db, params.id, params.attachmentId);
  if (!row || !(await ctx.files.has(row.sha256))) throw notFound();
  return {
    attachment: attachmentOut(row),
    open: (range?: { start: number; end: number }) => ctx.files.open(row.sha256, range),
  };
}

/** DELETE /ec/employees/{id}/attachments/{attachmentId}. The bytes stay (another row may share them). */
export async function deleteAttachment(
  ctx: ServerContext,
  caller: AuthContext,
  params: AttachmentParams,
  meta: RequestMeta,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const removed = await q.deleteAttachment(tx, params.id, params.attachmentId);
    if (!removed) throw notFound();
    await audit(tx, caller, meta, 'employees.attachmentDeleted', 'employee', params.id, {
      attachmentId: removed.id,
      fileName: removed.fileName,
    });
  });
}

// ---------------------------------------------------------------- secretary offices

function officeOut(r: q.OfficeRow): SecretaryOffice {
  return {
    id: r.id,
    departmentId: r.departmentId,
    department: { id: r.departmentId, nameAr: r.departmentNameAr, nameEn: r.departmentNameEn },
    secretaryEmployeeId: r.secretaryEmployeeId,
    secretary: { id: r.secretaryEmployeeId, nameAr: r.secretaryNameAr, nameEn: r.secretaryNameEn },
    active: r.active,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

/** GET /ec/secretary-offices (`q` searches department and secretary names, normalised). */
export async function listOffices(
  ctx: ServerContext,
  query: DirectoryListQuery,
): Promise<ListPage<SecretaryOffice>> {
  const normalisedQ = query.q ? normalizeArabic(query.q) : undefined;
  const clauses = listClauses(
    { ...query, q: normalisedQ, filters: normaliseFilters(query.filters, ['department', 'secretary']) },
    q.OFFICE_FIELDS,
    q.OFFICE_SEARCH,
    'id',
  );
  const { rows, total } = await q.listOffices(ctx.db, clauses);
  return { items: rows.map(officeOut), total, page: query.page, pageSize: query.pageSize };
}

/** GET /ec/secretary-offices/{id}. */
export async function getOffice(ctx: ServerContext, id: number): Promise<SecretaryOffice> {
  const row = await q.getOffice(ctx.db, id);
  if (!row) throw notFound();
  return officeOut(row);
}

async function checkOfficeDepartment(tx: Tx, departmentId: number) {
  const d = await q.getDepartment(tx, departmentId);
  if (!d) throw badField('departmentId');
  if (d.type !== 'internal') throw rule('externalHasNoStaff', 'departmentId');
}

/** POST /ec/secretary-offices. */
export async function createOffice(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreateSecretaryOfficeRequest,
  meta: RequestMeta,
): Promise<SecretaryOffice> {
  const id = await ctx.db
    .transaction(async (tx) => {
      await checkOfficeDepartment(tx, input.departmentId);
      await requireActiveEmployee(tx, input.secretaryEmployeeId, 'secretaryEmployeeId');
      const id = await q.insertOffice(tx, input);
      await audit(tx, caller, meta, 'secretaryOffices.create', 'secretaryOffice', id, { ...input });
      return id;
    })
    .catch(conflictOf);
  return getOffice(ctx, id);
}

/** PUT /ec/secretary-offices/{id}. */
export async function updateOffice(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: UpdateSecretaryOfficeRequest,
  meta: RequestMeta,
): Promise<SecretaryOffice> {
  await ctx.db
    .transaction(async (tx) => {
      const current = await q.getOffice(tx, id);
      if (!current) throw notFound();
      if (input.departmentId !== undefined && input.departmentId !== current.departmentId)
        await checkOfficeDepartment(tx, input.departmentId);
      if (
        input.secretaryEmployeeId !== undefined &&
        input.secretaryEmployeeId !== current.secretaryEmployeeId
      )
        await requireActiveEmployee(tx, input.secretaryEmployeeId, 'secretaryEmployeeId');
      await q.updateOffice(tx, id, input);
      await audit(tx, caller, meta, 'secretaryOffices.update', 'secretaryOffice', id, { ...input });
    })
    .catch(conflictOf);
  return getOffice(ctx, id);
}

/** PUT /ec/secretary-offices/{id}/active: activating needs an active secretary. */
export async function setOfficeActive(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  active: boolean,
  meta: RequestMeta,
): Promise<SecretaryOffice> {
  await ctx.db.transaction(async (tx) => {
    const current = await q.getOffice(tx, id);
    if (!current) throw notFound();
    if (active) await requireActiveEmployee(tx, current.secretaryEmployeeId, 'secretaryEmployeeId');
    await q.updateOffice(tx, id, { active });
    await audit(
      tx,
      caller,
      meta,
      active ? 'secretaryOffices.activate' : 'secretaryOffices.deactivate',
      'secretaryOffice',
      id,
    );
  });
  return getOffice(ctx, id);
}

// ---------------------------------------------------------------- small SQL helpers

function sqlAnd(a: SQL, b: SQL): SQL {
  return sqlAndAll(a, b)!;
}
function likeSearch(table: 'departments' | 'employees', pattern: string): SQL {
  const column = table === 'departments' ? departmentsTable.searchText : employeesTable.searchText;
  return sql`${column} like ${pattern}`;
}
function eqType(type: string): SQL {
  return sqlEq(departmentsTable.type, type);
}
