/**
 * SQL of administration: users, roles, the role page-permission matrix, sections and pages, the audit log.
 */
import { and, count, eq, ne, sql, type SQL } from 'drizzle-orm';
import {
  auditLog,
  correspondenceSettings,
  pages,
  rolePagePermissions,
  roles,
  userClearances,
  users,
} from '../../db/schema';
import type { ListFields } from '../../db/list';
import { outer } from '../../db/sql';
import type { Tx } from '../auth/queries';

/** One list page: the rows and the total count matching the filters. */
export interface ListClauses {
  where: SQL | undefined;
  order: SQL;
  offset: number;
  limit: number;
}

// ---------------------------------------------------------------- users

export const USER_FIELDS: ListFields = {
  id: { column: users.id, kind: 'number' },
  username: { column: users.username, kind: 'text' },
  email: { column: users.email, kind: 'text' },
  nameAr: { column: users.nameAr, kind: 'text' },
  nameEn: { column: users.nameEn, kind: 'text' },
  active: { column: users.active, kind: 'boolean' },
  roleId: { column: users.roleId, kind: 'number' },
  createdAt: { column: users.createdAt, kind: 'date' },
};
export const USER_SEARCH = [users.username, users.email, users.nameAr, users.nameEn];

const userColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  nameAr: users.nameAr,
  nameEn: users.nameEn,
  active: users.active,
  locale: users.locale,
  totpEnabled: users.totpEnabled,
  employeeId: users.employeeId,
  lastSignInAt: users.lastSignInAt,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  roleId: roles.id,
  roleNameAr: roles.nameAr,
  roleNameEn: roles.nameEn,
  roleIsSystem: roles.isSystem,
  clearanceId: correspondenceSettings.id,
  clearanceNameAr: correspondenceSettings.nameAr,
  clearanceNameEn: correspondenceSettings.nameEn,
  clearanceLevel: correspondenceSettings.level,
};
export type UserRow = Awaited<ReturnType<typeof getUser>> & object;

export async function listUsers(db: Tx, c: ListClauses) {
  const rows = await db
    .select({ ...userColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(userClearances, eq(userClearances.userId, users.id))
    .leftJoin(correspondenceSettings, eq(correspondenceSettings.id, userClearances.securityLevelId))
    .where(c.where)
    .orderBy(c.order, users.id)
    .limit(c.limit)
    .offset(c.offset);
  const total = rows[0]?.total ?? (c.offset > 0 ? await countUsersWhere(db, c.where) : 0);
  return { rows, total };
}

async function countUsersWhere(db: Tx, where: SQL | undefined) {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(where);
  return row?.n ?? 0;
}

export async function getUser(db: Tx, id: number) {
  const [row] = await db
    .select(userColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(userClearances, eq(userClearances.userId, users.id))
    .leftJoin(correspondenceSettings, eq(correspondenceSettings.id, userClearances.securityLevelId))
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}

/** The active security levels, lowest first (what a user may be cleared for). */
export async function clearanceOptions(db: Tx) {
  const rows = await db
    .select({
      id: correspondenceSettings.id,
      nameAr: correspondenceSettings.nameAr,
      nameEn: correspondenceSettings.nameEn,
      level: correspondenceSettings.level,
    })
    .from(correspondenceSettings)
    .where(and(eq(correspondenceSettings.list, 'security-levels'), eq(correspondenceSettings.active, true)))
    .orderBy(correspondenceSettings.level, correspondenceSettings.id);
  return rows.map((r) => ({ id: r.id, nameAr: r.nameAr ?? '', nameEn: r.nameEn ?? '', level: r.level ?? 0 }));
}

export async function updateUser(
  db: Tx,
  id: number,
  patch: Partial<{
    username: string;
    email: string;
    nameAr: string;
    nameEn: string;
    roleId: number;
    locale: string;
    active: boolean;
  }>,
) {
  await db
    .update(users)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(users.id, id));
}

/** Active users holding the administrator role, other than `exceptUserId`. */
export async function countOtherActiveAdmins(db: Tx, exceptUserId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(roles.isSystem, true), eq(users.active, true), ne(users.id, exceptUserId)));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------- roles

export const ROLE_FIELDS: ListFields = {
  id: { column: roles.id, kind: 'number' },
  nameAr: { column: roles.nameAr, kind: 'text' },
  nameEn: { column: roles.nameEn, kind: 'text' },
  active: { column: roles.active, kind: 'boolean' },
  requireTwoFactor: { column: roles.requireTwoFactor, kind: 'boolean' },
  createdAt: { column: roles.createdAt, kind: 'date' },
};
export const ROLE_SEARCH = [roles.nameAr, roles.nameEn];

const roleColumns = {
  id: roles.id,
  nameAr: roles.nameAr,
  nameEn: roles.nameEn,
  active: roles.active,
  requireTwoFactor: roles.requireTwoFactor,
  isSystem: roles.isSystem,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
  // Written out: inside a subquery drizzle may drop the table qualifier of ${roles.id}.
  userCount: sql<number>`(select count(*) from users u where u.role_id = ${outer(roles.id)})`.mapWith(Number),
};

export async function listRoles(db: Tx, c: ListClauses) {
  const rows = await db
    .select({ ...roleColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(roles)
    .where(c.where)
    .orderBy(c.order, roles.id)
    .limit(c.limit)
    .offset(c.offset);
  let total = rows[0]?.total ?? 0;
  if (!rows.length && c.offset > 0) {
    const [row] = await db.select({ n: count() }).from(roles).where(c.where);
    total = row?.n ?? 0;
  }
  return { rows, total };
}

/** Every role, briefly, ordered by English name (an office has a handful). */
export async function listRoleOptions(db: Tx) {
  return db
    .select({ id: roles.id, nameAr: roles.nameAr, nameEn: roles.nameEn, active: roles.active })
    .from(roles)
    .orderBy(roles.nameEn, roles.id);
}

export async function getRole(db: Tx, id: number) {
  const [row] = await db.select(roleColumns).from(roles).where(eq(roles.id, id)).limit(1);
  return row ?? null;
}

export async function insertRole(
  db: Tx,
  values: { nameAr: string; nameEn: string; requireTwoFactor: boolean; active: boolean },
): Promise<number> {
  const [row] = await db.insert(roles).values(values).returning({ id: roles.id });
  return row!.id;
}

export async function updateRole(
  db: Tx,
  id: number,
  patch: Partial<{ nameAr: string; nameEn: string; requireTwoFactor: boolean; active: boolean }>,
) {
  await db
    .update(roles)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(roles.id, id));
}

export async function rolePermissions(db: Tx, roleId: number) {
  return db
    .select({ pageId: rolePagePermissions.pageId, permissions: rolePagePermissions.permissions })
    .from(rolePagePermissions)
    .where(eq(rolePagePermissions.roleId, roleId))
    .orderBy(rolePagePermissions.pageId);
}

export async function replaceRolePermissions(
  db: Tx,
  roleId: number,
  entries: { pageId: number; permissions: string[] }[],
) {
  await db.delete(rolePagePermissions).where(eq(rolePagePermissions.roleId, roleId));
  const rows = entries.filter((e) => e.permissions.length > 0).map((e) => ({ roleId, ...e }));
  if (rows.length) await db.insert(rolePagePermissions).values(rows);
}

// ---------------------------------------------------------------- pages

export async function allPages(db: Tx) {
  return db
    .select({
      id: pages.id,
      parentId: pages.parentId,
      nameAr: pages.nameAr,
      nameEn: pages.nameEn,
      path: pages.path,
      icon: pages.icon,
      order: pages.order,
      availablePermissions: pages.availablePermissions,
    })
    .from(pages)
    .orderBy(pages.order, pages.id);
}

export async function getPage(db: Tx, id: number) {
  const [row] = await db.select().from(pages).where(eq(pages.id, id)).limit(1);
  return row ?? null;
}

export async function insertPage(
  db: Tx,
  values: {
    parentId: number | null;
    nameAr: string;
    nameEn: string;
    path: string;
    icon: string;
    order: number;
    availablePermissions: string[];
  },
): Promise<number> {
  const [row] = await db.insert(pages).values(values).returning({ id: pages.id });
  return row!.id;
}

export async function updatePage(
  db: Tx,
  id: number,
  patch: Partial<{
    nameAr: string;
    nameEn: string;
    path: string;
    icon: string;
    order: number;
    availablePermissions: string[];
  }>,
) {
  await db
    .update(pages)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(pages.id, id));
}

// ---------------------------------------------------------------- audit

export const AUDIT_FIELDS: ListFields = {
  id: { column: auditLog.id, kind: 'number' },
  at: { column: auditLog.at, kind: 'date' },
  action: { column: auditLog.action, kind: 'text' },
  actorId: { column: auditLog.actorId, kind: 'number' },
  actorUsername: { column: auditLog.actorUsername, kind: 'text' },
  targetType: { column: auditLog.targetType, kind: 'text' },
  targetId: { column: auditLog.targetId, kind: 'text' },
  ip: { column: auditLog.ip, kind: 'text' },
};
export const AUDIT_SEARCH = [auditLog.action, auditLog.actorUsername, auditLog.targetId, auditLog.ip];

export async function listAudit(db: Tx, c: ListClauses) {
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actorId: auditLog.actorId,
      actorUsername: auditLog.actorUsername,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      details: auditLog.details,
      ip: auditLog.ip,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(auditLog)
    .where(c.where)
    .orderBy(c.order, auditLog.id)
    .limit(c.limit)
    .offset(c.offset);
  let total = rows[0]?.total ?? 0;
  if (!rows.length && c.offset > 0) {
    const [row] = await db.select({ n: count() }).from(auditLog).where(c.where);
    total = row?.n ?? 0;
  }
  return { rows, total };
}
