/**
 * The rules of administration: users (create, edit, activate/deactivate, reset or set a password — each
 * of the last three ends the user's sessions), roles and their page-permission matrix, sections and pages,
 * and reading the audit log. Guards keep the server administrable: nobody deactivates themselves, the
 * last active administrator keeps the administrator role, and that role always holds everything.
 */
import type {
  AdminListQuery,
  AdminSection,
  AuditEntry,
  CreatePageRequest,
  CreateRoleRequest,
  CreateUserRequest,
  Role,
  RolePermissions,
  SetRolePermissionsRequest,
  UpdatePageRequest,
  UpdateRoleRequest,
  UpdateUserRequest,
  User,
  RoleOption,
} from '../../../src-shared/api/admin';
import { isPermission } from '../../../src-shared/permissions';
import type { Locale } from '../../../src-shared/locale';
import { recordAudit, type AuditAction } from '../../audit';
import type { ServerContext } from '../../context';
import { constraintOf, isUniqueViolation } from '../../db/errors';
import { listClauses } from '../../db/list';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import { translate, hasText } from '../../i18n';
import { generatePassword } from '../../security/passwords';
import type { Tx } from '../auth/queries';
import { endSessionsOf, insertAccount, replacePassword, type RequestMeta } from '../auth/service';
import * as q from './queries';
import { clearanceIn, setClearanceIn } from '../settings/service';
import {
  assertMayGrantMatrix,
  assertMayGrantRole,
  assertMayManageRole,
  assertMayManageUser,
  assertMayRestructurePages,
  assertNotOwnClearance,
  assertNotOwnRoleChange,
  describeGrants,
  grantsOf,
} from './privilege';
import type { ListPage } from '../../../src-shared/api/envelope';

const notFound = () => new HttpProblem('notFound');

/** Turns a unique violation into a 409 naming the field; rethrows anything else. */
function conflictOf(error: unknown): never {
  if (isUniqueViolation(error)) {
    const c = constraintOf(error) ?? '';
    const field = c.includes('email')
      ? 'email'
      : c.includes('username')
        ? 'username'
        : c.includes('path')
          ? 'path'
          : undefined;
    throw new HttpProblem('conflict', {
      detailKey: 'admin.duplicate',
      ...(field ? { fields: { [field]: [{ key: 'validation.duplicate' }] } } : {}),
    });
  }
  throw error;
}

function audit(
  ctx: ServerContext,
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

// ---------------------------------------------------------------- users

function userOut(row: NonNullable<Awaited<ReturnType<typeof q.getUser>>>): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    nameAr: row.nameAr,
    nameEn: row.nameEn,
    role: { id: row.roleId, nameAr: row.roleNameAr, nameEn: row.roleNameEn },
    active: row.active,
    locale: row.locale === 'en' ? 'en' : 'ar',
    useTotp: row.totpEnabled,
    employeeId: row.employeeId,
    clearance:
      row.clearanceId === null
        ? null
        : {
            id: row.clearanceId,
            nameAr: row.clearanceNameAr ?? '',
            nameEn: row.clearanceNameEn ?? '',
            level: row.clearanceLevel ?? 0,
          },
    lastSignInAt: row.lastSignInAt ? row.lastSignInAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** GET /auth/users. */
export async function listUsers(ctx: ServerContext, query: AdminListQuery): Promise<ListPage<User>> {
  const clauses = listClauses(query, q.USER_FIELDS, q.USER_SEARCH, 'id');
  const { rows, total } = await q.listUsers(ctx.db, clauses);
  return { items: rows.map(userOut), total, page: query.page, pageSize: query.pageSize };
}

/** GET /auth/users/{id}. */
export async function getUser(ctx: ServerContext, id: number): Promise<User> {
  const row = await q.getUser(ctx.db, id);
  if (!row) throw notFound();
  return userOut(row);
}

async function requireRole(db: Tx, roleId: number) {
  const role = await q.getRole(db, roleId);
  if (!role) throw new HttpProblem('badRequest', { fields: { roleId: [{ key: 'validation.choice' }] } });
  return role;
}

/** POST /auth/users. */
export async function createUser(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreateUserRequest,
  meta: RequestMeta,
): Promise<User> {
  const passwordHash = await ctx.passwords.hash(input.password);
  const id = await ctx.db
    .transaction(async (tx) => {
      await requireRole(tx, input.roleId);
      await assertMayGrantRole(tx, caller, input.roleId);
      const id = await insertAccount(tx, {
        username: input.username,
        email: input.email,
        passwordHash,
        nameAr: input.nameAr,
        nameEn: input.nameEn,
        roleId: input.roleId,
        locale: input.locale,
        active: input.active,
      });
      await audit(ctx, tx, caller, meta, 'users.create', 'user', id, {
        username: input.username,
        roleId: input.roleId,
      });
      if (input.securityLevelId != null)
        await setClearanceOf(ctx, tx, caller, meta, id, input.securityLevelId);
      return id;
    })
    .catch(conflictOf);
  return getUser(ctx, id);
}

/** GET /auth/users/clearance-options. */
export async function clearanceOptions(ctx: ServerContext) {
  return q.clearanceOptions(ctx.db);
}

/**
 * Sets a user's security clearance (null: back to the lowest level) when it changes, audited with the
 * levels before and after. The level must be an active security level.
 */
export async function setClearanceOf(
  ctx: ServerContext,
  tx: Tx,
  caller: AuthContext,
  meta: RequestMeta,
  userId: number,
  securityLevelId: number | null,
) {
  assertNotOwnClearance(caller, userId);
  if (securityLevelId !== null && !(await q.clearanceOptions(tx)).some((o) => o.id === securityLevelId))
    throw new HttpProblem('badRequest', { fields: { securityLevelId: [{ key: 'validation.choice' }] } });
  const before = await clearanceIn(tx, userId);
  if ((before?.id ?? null) === securityLevelId) return;
  await setClearanceIn(tx, userId, securityLevelId);
  await audit(ctx, tx, caller, meta, 'users.clearance', 'user', userId, {
    from: before?.id ?? null,
    to: securityLevelId,
  });
}

/** The last active administrator keeps the administrator role and stays active. */
async function guardLastAdmin(db: Tx, userId: number) {
  const target = await q.getUser(db, userId);
  if (target?.roleIsSystem && target.active && (await q.countOtherActiveAdmins(db, userId)) === 0) {
    throw new HttpProblem('unprocessable', {
      detailKey: 'admin.lastAdministrator',
      code: 'admin.lastAdministrator',
    });
  }
}

/** PUT /auth/users/{id}. */
export async function updateUser(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: UpdateUserRequest,
  meta: RequestMeta,
): Promise<User> {
  await ctx.db
    .transaction(async (tx) => {
      const current = await q.getUser(tx, id);
      if (!current) throw notFound();
      await assertMayManageUser(tx, caller, current);
      const roleChange = input.roleId !== undefined && input.roleId !== current.roleId;
      if (roleChange) {
        assertNotOwnRoleChange(caller, id);
        const role = await requireRole(tx, input.roleId!);
        await assertMayGrantRole(tx, caller, role.id);
        if (!role.isSystem) await guardLastAdmin(tx, id);
      }
      const { securityLevelId, ...fields } = input;
      await q.updateUser(tx, id, fields);
      if (securityLevelId !== undefined) await setClearanceOf(ctx, tx, caller, meta, id, securityLevelId);
      await audit(ctx, tx, caller, meta, 'users.update', 'user', id, {
        fields: Object.keys(input),
        ...(roleChange ? { roleFrom: current.roleId, roleTo: input.roleId } : {}),
      });
    })
    .catch(conflictOf);
  return getUser(ctx, id);
}

/** PUT /auth/users/{id}/active. Deactivating ends the user's sessions. */
export async function setUserActive(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  active: boolean,
  meta: RequestMeta,
): Promise<User> {
  await ctx.db.transaction(async (tx) => {
    const current = await q.getUser(tx, id);
    if (!current) throw notFound();
    await assertMayManageUser(tx, caller, current);
    if (!active) {
      if (id === caller.userId)
        throw new HttpProblem('unprocessable', {
          detailKey: 'admin.cannotDeactivateSelf',
          code: 'admin.cannotDeactivateSelf',
        });
      await guardLastAdmin(tx, id);
      await endSessionsOf(tx, id);
    }
    await q.updateUser(tx, id, { active });
    await audit(ctx, tx, caller, meta, active ? 'users.activate' : 'users.deactivate', 'user', id);
  });
  return getUser(ctx, id);
}

/** POST /auth/users/{id}/reset-password: a generated temporary password, shown once; sessions end. */
export async function resetUserPassword(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  meta: RequestMeta,
): Promise<string> {
  const temporaryPassword = generatePassword();
  await setPassword(ctx, caller, id, temporaryPassword, meta, 'users.resetPassword');
  return temporaryPassword;
}

/** PUT /auth/users/{id}/password: an administrator sets the password; sessions end. */
export async function setUserPassword(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  password: string,
  meta: RequestMeta,
): Promise<void> {
  await setPassword(ctx, caller, id, password, meta, 'users.setPassword');
}

async function setPassword(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  password: string,
  meta: RequestMeta,
  action: AuditAction,
) {
  const passwordHash = await ctx.passwords.hash(password);
  await ctx.db.transaction(async (tx) => {
    const target = await q.getUser(tx, id);
    if (!target) throw notFound();
    await assertMayManageUser(tx, caller, target);
    await replacePassword(tx, id, passwordHash);
    await audit(ctx, tx, caller, meta, action, 'user', id);
  });
}

// ---------------------------------------------------------------- accounts, for the employee centre

/** An account as the privilege rules read it, in the caller's transaction (null when there is none). */
export function accountOf(tx: Tx, id: number) {
  return q.getUser(tx, id);
}

/** Whether a role exists (a new account must be given one). */
export async function roleExists(tx: Tx, id: number): Promise<boolean> {
  return (await q.getRole(tx, id)) !== null;
}

/** Gives an account new names (a linked account follows its employee's). */
export async function renameAccount(tx: Tx, id: number, names: { nameAr: string; nameEn: string }) {
  await q.updateUser(tx, id, names);
}

/**
 * Deactivates an account and ends its sessions (an employee who left must not sign in); the last active
 * administrator stays (422). The caller has checked it may manage the account, and audits.
 */
export async function deactivateAccount(tx: Tx, id: number): Promise<void> {
  await guardLastAdmin(tx, id);
  await q.updateUser(tx, id, { active: false });
  await endSessionsOf(tx, id);
}

// ---------------------------------------------------------------- roles

function roleOut(row: NonNullable<Awaited<ReturnType<typeof q.getRole>>>): Role {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** GET /auth/roles. */
export async function listRoles(ctx: ServerContext, query: AdminListQuery): Promise<ListPage<Role>> {
  const clauses = listClauses(query, q.ROLE_FIELDS, q.ROLE_SEARCH, 'id');
  const { rows, total } = await q.listRoles(ctx.db, clauses);
  return {
    items: rows.map(({ total: _t, ...r }) => roleOut(r)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** GET /auth/users/role-options: what the users screen's role pickers offer (needs only the users page). */
export async function roleOptions(ctx: ServerContext): Promise<RoleOption[]> {
  return q.listRoleOptions(ctx.db);
}

/** GET /auth/roles/{id}. */
export async function getRole(ctx: ServerContext, id: number): Promise<Role> {
  const row = await q.getRole(ctx.db, id);
  if (!row) throw notFound();
  return roleOut(row);
}

/** POST /auth/roles. */
export async function createRole(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreateRoleRequest,
  meta: RequestMeta,
): Promise<Role> {
  const id = await ctx.db.transaction(async (tx) => {
    const id = await q.insertRole(tx, input);
    await audit(ctx, tx, caller, meta, 'roles.create', 'role', id, { nameEn: input.nameEn });
    return id;
  });
  return getRole(ctx, id);
}

/** PUT /auth/roles/{id}. */
export async function updateRole(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: UpdateRoleRequest,
  meta: RequestMeta,
): Promise<Role> {
  await ctx.db.transaction(async (tx) => {
    if (!(await q.getRole(tx, id))) throw notFound();
    await assertMayManageRole(tx, caller, id);
    await q.updateRole(tx, id, input);
    await audit(ctx, tx, caller, meta, 'roles.update', 'role', id, { fields: Object.keys(input) });
  });
  return getRole(ctx, id);
}

const systemRoleFixed = () =>
  new HttpProblem('unprocessable', { detailKey: 'admin.systemRole', code: 'admin.systemRole' });

/** PUT /auth/roles/{id}/active. The administrator role cannot be deactivated. */
export async function setRoleActive(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  active: boolean,
  meta: RequestMeta,
): Promise<Role> {
  await ctx.db.transaction(async (tx) => {
    const role = await q.getRole(tx, id);
    if (!role) throw notFound();
    if (role.isSystem && !active) throw systemRoleFixed();
    await assertMayManageRole(tx, caller, id);
    await q.updateRole(tx, id, { active });
    await audit(ctx, tx, caller, meta, active ? 'roles.activate' : 'roles.deactivate', 'role', id);
  });
  return getRole(ctx, id);
}

/** GET /auth/roles/{id}/permissions: the matrix, with every section and page for the editor. */
export async function getRolePermissions(
  ctx: ServerContext,
  id: number,
): Promise<RolePermissions & { pages: AdminSection[] }> {
  const role = await q.getRole(ctx.db, id);
  if (!role) throw notFound();
  const tree = await pagesTree(ctx);
  if (role.isSystem) {
    const entries = tree
      .flatMap((s) => [s, ...s.children])
      .map((p) => ({ pageId: p.id, permissions: p.availablePermissions }));
    return { roleId: id, entries, pages: tree };
  }
  const rows = await q.rolePermissions(ctx.db, id);
  return {
    roleId: id,
    entries: rows.map((r) => ({ pageId: r.pageId, permissions: r.permissions.filter(isPermission) })),
    pages: tree,
  };
}

/** PUT /auth/roles/{id}/permissions: replaces the matrix; only permissions a page offers are accepted. */
export async function setRolePermissions(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: SetRolePermissionsRequest,
  meta: RequestMeta,
) {
  await ctx.db.transaction(async (tx) => {
    const role = await q.getRole(tx, id);
    if (!role) throw notFound();
    if (role.isSystem) throw systemRoleFixed();
    await assertMayManageRole(tx, caller, id);
    const all = new Map((await q.allPages(tx)).map((p) => [p.id, p]));
    const seen = new Set<number>();
    input.entries.forEach((e, i) => {
      const page = all.get(e.pageId);
      if (!page || seen.has(e.pageId))
        throw new HttpProblem('badRequest', {
          fields: { [`entries.${i}.pageId`]: [{ key: 'validation.choice' }] },
        });
      seen.add(e.pageId);
      if (e.permissions.some((p) => !page.availablePermissions.includes(p))) {
        throw new HttpProblem('badRequest', {
          fields: { [`entries.${i}.permissions`]: [{ key: 'validation.choice' }] },
        });
      }
    });
    await assertMayGrantMatrix(tx, caller, input.entries);
    const before = await describeGrants(tx, await grantsOf(tx, id));
    await q.replaceRolePermissions(
      tx,
      id,
      input.entries.map((e) => ({ pageId: e.pageId, permissions: [...new Set(e.permissions)] })),
    );
    const after = await describeGrants(tx, await grantsOf(tx, id));
    await audit(ctx, tx, caller, meta, 'roles.permissions', 'role', id, {
      pages: input.entries.length,
      granted: after.filter((g) => !before.includes(g)),
      revoked: before.filter((g) => !after.includes(g)),
    });
  });
  return getRolePermissions(ctx, id);
}

// ---------------------------------------------------------------- pages

/** GET /auth/pages: every section with its pages. */
export async function pagesTree(ctx: ServerContext): Promise<AdminSection[]> {
  const rows = (await q.allPages(ctx.db)).map((r) => ({
    ...r,
    availablePermissions: r.availablePermissions.filter(isPermission),
  }));
  return rows
    .filter((r) => r.parentId === null)
    .map((s) => ({ ...s, children: rows.filter((r) => r.parentId === s.id) }));
}

async function pageOut(ctx: ServerContext, id: number) {
  const row = await q.getPage(ctx.db, id);
  if (!row) throw notFound();
  return {
    id: row.id,
    parentId: row.parentId,
    nameAr: row.nameAr,
    nameEn: row.nameEn,
    path: row.path,
    icon: row.icon,
    order: row.order,
    availablePermissions: row.availablePermissions.filter(isPermission),
  };
}

/** POST /auth/pages: a section (no parent) or a page under a section. */
export async function createPage(
  ctx: ServerContext,
  caller: AuthContext,
  input: CreatePageRequest,
  meta: RequestMeta,
) {
  const id = await ctx.db
    .transaction(async (tx) => {
      assertMayRestructurePages(caller);
      if (input.parentId !== null) {
        const parent = await q.getPage(tx, input.parentId);
        if (!parent || parent.parentId !== null)
          throw new HttpProblem('badRequest', { fields: { parentId: [{ key: 'validation.choice' }] } });
      }
      const perms = [...new Set<string>(['view', ...input.availablePermissions])];
      const id = await q.insertPage(tx, { ...input, availablePermissions: perms });
      await audit(ctx, tx, caller, meta, 'pages.create', 'page', id, { path: input.path });
      return id;
    })
    .catch(conflictOf);
  return pageOut(ctx, id);
}

/** PUT /auth/pages/{id}. */
export async function updatePage(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: UpdatePageRequest,
  meta: RequestMeta,
) {
  await ctx.db
    .transaction(async (tx) => {
      const current = await q.getPage(tx, id);
      if (!current) throw notFound();
      const moves =
        (input.path !== undefined && input.path !== current.path) || input.availablePermissions !== undefined;
      if (moves) assertMayRestructurePages(caller);
      const patch = input.availablePermissions
        ? { ...input, availablePermissions: [...new Set<string>(['view', ...input.availablePermissions])] }
        : input;
      await q.updatePage(tx, id, patch);
      await audit(ctx, tx, caller, meta, 'pages.update', 'page', id, { fields: Object.keys(input) });
    })
    .catch(conflictOf);
  return pageOut(ctx, id);
}

// ---------------------------------------------------------------- audit

/** GET /auth/audit, newest first unless sorted otherwise; action names in the caller's language. */
export async function listAudit(
  ctx: ServerContext,
  query: AdminListQuery,
  locale: Locale,
): Promise<ListPage<AuditEntry>> {
  const clauses = listClauses(query, q.AUDIT_FIELDS, q.AUDIT_SEARCH, '-id');
  const { rows, total } = await q.listAudit(ctx.db, clauses);
  return {
    items: rows.map(({ total: _t, ...r }) => ({
      ...r,
      at: r.at.toISOString(),
      actionName: hasText(locale, `audit.${r.action}`) ? translate(locale, `audit.${r.action}`) : r.action,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
