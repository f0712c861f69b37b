/** SQL of the correspondence settings lists: one table, one list at a time (`list` column). */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { correspondenceSettings as s, departments, documents, userClearances, users } from '../../db/schema';
import type { ListFields } from '../../db/list';
import type { Tx } from '../auth/queries';
import type { ListClauses } from '../admin/queries';
import type { SettingsList } from '../../../src-shared/api/correspondence';

/** Names shown for an item: its own, or (main distribution) its department's. */
const nameAr = sql<string>`coalesce(${s.nameAr}, ${departments.nameAr}, '')`;
const nameEn = sql<string>`coalesce(${s.nameEn}, ${departments.nameEn}, '')`;

export const SETTING_FIELDS: ListFields = {
  id: { column: s.id, kind: 'number' },
  nameAr: { column: nameAr, kind: 'text' },
  nameEn: { column: nameEn, kind: 'text' },
  level: { column: s.level, kind: 'number' },
  prefix: { column: s.prefix, kind: 'text' },
  direction: { column: s.direction, kind: 'text' },
  order: { column: s.order, kind: 'number' },
  active: { column: s.active, kind: 'boolean' },
  createdAt: { column: s.createdAt, kind: 'date' },
};
export const SETTING_SEARCH = [nameAr, nameEn, s.prefix];

const columns = {
  id: s.id,
  list: s.list,
  nameAr,
  nameEn,
  level: s.level,
  prefix: s.prefix,
  direction: s.direction,
  departmentId: s.departmentId,
  departmentNameAr: departments.nameAr,
  departmentNameEn: departments.nameEn,
  order: s.order,
  active: s.active,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
};
export type SettingRow = Awaited<ReturnType<typeof getSetting>> & object;

/** One page of a list. */
export async function listSettings(db: Tx, list: SettingsList, c: ListClauses) {
  const where = and(eq(s.list, list), c.where);
  const rows = await db
    .select(columns)
    .from(s)
    .leftJoin(departments, eq(departments.id, s.departmentId))
    .where(where)
    .orderBy(c.order, s.id)
    .limit(c.limit)
    .offset(c.offset);
  const [n] = await db
    .select({ n: count() })
    .from(s)
    .leftJoin(departments, eq(departments.id, s.departmentId))
    .where(where);
  return { rows, total: n?.n ?? 0 };
}

/** Active items of a list in display order (pickers). */
export async function settingOptions(db: Tx, list: SettingsList) {
  return db
    .select(columns)
    .from(s)
    .leftJoin(departments, eq(departments.id, s.departmentId))
    .where(and(eq(s.list, list), eq(s.active, true)))
    .orderBy(asc(s.order), asc(s.id));
}

export async function getSetting(db: Tx, list: SettingsList, id: number) {
  const [row] = await db
    .select(columns)
    .from(s)
    .leftJoin(departments, eq(departments.id, s.departmentId))
    .where(and(eq(s.list, list), eq(s.id, id)))
    .limit(1);
  return row ?? null;
}

export type SettingValues = {
  nameAr?: string | null;
  nameEn?: string | null;
  level?: number | null;
  prefix?: string | null;
  direction?: string | null;
  departmentId?: number | null;
  order?: number;
  active?: boolean;
};

export async function insertSetting(db: Tx, list: SettingsList, values: SettingValues): Promise<number> {
  const [row] = await db
    .insert(s)
    .values({ list, ...values })
    .returning({ id: s.id });
  return row!.id;
}

export async function updateSetting(db: Tx, id: number, patch: SettingValues) {
  await db
    .update(s)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(s.id, id));
}

/** Whether a department exists and is active (main distribution only offers live departments). */
export async function departmentIsActive(db: Tx, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.id, id), eq(departments.active, true)))
    .limit(1);
  return !!row;
}

export async function getClearance(db: Tx, userId: number) {
  const [row] = await db
    .select({ id: s.id, nameAr: s.nameAr, nameEn: s.nameEn, level: s.level })
    .from(userClearances)
    .innerJoin(s, eq(s.id, userClearances.securityLevelId))
    .where(eq(userClearances.userId, userId))
    .limit(1);
  return row ?? null;
}

export async function setClearance(db: Tx, userId: number, securityLevelId: number | null) {
  if (securityLevelId === null) {
    await db.delete(userClearances).where(eq(userClearances.userId, userId));
    return;
  }
  await db
    .insert(userClearances)
    .values({ userId, securityLevelId })
    .onConflictDoUpdate({ target: userClearances.userId, set: { securityLevelId } });
}

/** Whether a user exists (clearances are set per user). */
export async function userExists(db: Tx, id: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
  return !!row;
}

/** A user and their role (clearances are set per user, by those who may manage that user). */
export async function userRoleOf(db: Tx, id: number): Promise<{ id: number; roleId: number } | null> {
  const [row] = await db
    .select({ id: users.id, roleId: users.roleId })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}

/** Whether any document uses a codification (its prefix then appears in numbers). */
export async function codificationInUse(db: Tx, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(eq(documents.codificationId, id))
    .limit(1);
  return !!row;
}
