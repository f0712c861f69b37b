/**
 * The rules of the settings lists (mediums, priorities, security levels, codifications, main
 * distribution): one generic service, the differences between lists declared as data
 * (SETTINGS_LIST_FIELDS). Names are unique per list, prefixes across codifications, a department appears
 * once in main distribution. A codification's prefix and direction are fixed once documents use it.
 */
import {
  SETTINGS_LIST_FIELDS,
  type Clearance,
  type SettingCreate,
  type SettingItem,
  type SettingOption,
  type SettingsList,
  type SettingsListQuery,
  type SettingUpdate,
} from '../../../src-shared/api/correspondence';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { constraintOf, isUniqueViolation } from '../../db/errors';
import { listClauses } from '../../db/list';
import { HttpProblem } from '../../http/problem';
import type * as authq from '../auth/queries';
import * as q from './queries';
import { assertMayManageUser, assertNotOwnClearance } from '../admin/privilege';
import type { ListPage } from '../../../src-shared/api/envelope';

/** Turns a unique violation into a 409 naming the field. */
function conflictOf(error: unknown): never {
  if (isUniqueViolation(error)) {
    const c = constraintOf(error) ?? '';
    const field = c.includes('name_ar')
      ? 'nameAr'
      : c.includes('name_en')
        ? 'nameEn'
        : c.includes('prefix')
          ? 'prefix'
          : c.includes('department')
            ? 'departmentId'
            : undefined;
    throw new HttpProblem('conflict', {
      detailKey: 'correspondence.duplicate',
      ...(field ? { fields: { [field]: [{ key: 'validation.duplicate' }] } } : {}),
    });
  }
  throw error;
}

function itemOut(row: q.SettingRow): SettingItem {
  return {
    id: row.id,
    list: row.list as SettingsList,
    nameAr: row.nameAr,
    nameEn: row.nameEn,
    level: row.level,
    prefix: row.prefix,
    direction: row.direction as SettingItem['direction'],
    department:
      row.departmentId !== null
        ? { id: row.departmentId, nameAr: row.departmentNameAr ?? '', nameEn: row.departmentNameEn ?? '' }
        : null,
    order: row.order,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Only the fields the list declares reach the table (the request schemas are strict as well). */
function valuesOf(list: SettingsList, input: SettingUpdate): q.SettingValues {
  const f = SETTINGS_LIST_FIELDS[list];
  const out: q.SettingValues = {};
  if (f.names && input.nameAr !== undefined) out.nameAr = input.nameAr;
  if (f.names && input.nameEn !== undefined) out.nameEn = input.nameEn;
  if (f.level && input.level !== undefined) out.level = input.level;
  if (f.prefix && input.prefix !== undefined) out.prefix = input.prefix;
  if (f.direction && input.direction !== undefined) out.direction = input.direction;
  if (f.department && input.departmentId !== undefined) out.departmentId = input.departmentId;
  if (input.order !== undefined) out.order = input.order;
  if (input.active !== undefined) out.active = input.active;
  return out;
}

async function requireDepartment(db: authq.Tx, id: number | undefined) {
  if (id !== undefined && !(await q.departmentIsActive(db, id)))
    throw new HttpProblem('badRequest', { fields: { departmentId: [{ key: 'validation.choice' }] } });
}

/** GET /correspondence/settings/{list}. */
export async function listItems(
  ctx: ServerContext,
  list: SettingsList,
  query: SettingsListQuery,
): Promise<ListPage<SettingItem>> {
  const clauses = listClauses(query, q.SETTING_FIELDS, q.SETTING_SEARCH, 'order');
  const { rows, total } = await q.listSettings(ctx.db, list, clauses);
  return { items: rows.map(itemOut), total, page: query.page, pageSize: query.pageSize };
}

/** GET /correspondence/settings/{list}/options: active items for pickers. */
export async function options(ctx: ServerContext, list: SettingsList): Promise<SettingOption[]> {
  return (await q.settingOptions(ctx.db, list)).map((row) => {
    const { id, nameAr, nameEn, level, prefix, direction, department, order } = itemOut(row);
    return { id, nameAr, nameEn, level, prefix, direction, department, order };
  });
}

/** GET /correspondence/settings/{list}/{id}. */
export async function getItem(ctx: ServerContext, list: SettingsList, id: number): Promise<SettingItem> {
  const row = await q.getSetting(ctx.db, list, id);
  if (!row) throw new HttpProblem('notFound');
  return itemOut(row);
}

/** POST /correspondence/settings/{list}. */
export async function createItem(
  ctx: ServerContext,
  list: SettingsList,
  input: SettingCreate,
): Promise<SettingItem> {
  const id = await ctx.db
    .transaction(async (tx) => {
      await requireDepartment(tx, input.departmentId);
      return q.insertSetting(tx, list, valuesOf(list, input));
    })
    .catch(conflictOf);
  return getItem(ctx, list, id);
}

/** PUT /correspondence/settings/{list}/{id} (and …/active with only `active`). */
export async function updateItem(
  ctx: ServerContext,
  list: SettingsList,
  id: number,
  input: SettingUpdate,
): Promise<SettingItem> {
  await ctx.db
    .transaction(async (tx) => {
      const current = await q.getSetting(tx, list, id);
      if (!current) throw new HttpProblem('notFound');
      await requireDepartment(tx, input.departmentId);
      const values = valuesOf(list, input);
      // Numbers already handed out carry the prefix: changing it (or the direction) would break them.
      if (
        list === 'codifications' &&
        ((values.prefix !== undefined && values.prefix !== current.prefix) ||
          (values.direction !== undefined && values.direction !== current.direction)) &&
        (await q.codificationInUse(tx, id))
      ) {
        throw new HttpProblem('unprocessable', {
          detailKey: 'correspondence.codificationInUse',
          code: 'correspondence.codificationInUse',
        });
      }
      await q.updateSetting(tx, id, values);
    })
    .catch(conflictOf);
  return getItem(ctx, list, id);
}

/** GET /correspondence/settings/security-levels/clearance/{userId}. */
export async function getClearance(ctx: ServerContext, userId: number): Promise<Clearance> {
  if (!(await q.userExists(ctx.db, userId))) throw new HttpProblem('notFound');
  const level = await q.getClearance(ctx.db, userId);
  return {
    userId,
    securityLevel: level
      ? { id: level.id, nameAr: level.nameAr ?? '', nameEn: level.nameEn ?? '', level: level.level ?? 0 }
      : null,
  };
}

/** PUT /correspondence/settings/security-levels/clearance/{userId}. */
export async function setClearance(
  ctx: ServerContext,
  caller: AuthContext,
  userId: number,
  securityLevelId: number | null,
  meta: { ip: string | null },
): Promise<Clearance> {
  await ctx.db.transaction(async (tx) => {
    const target = await q.userRoleOf(tx, userId);
    if (!target) throw new HttpProblem('notFound');
    // The same rules as the users screen: not one's own, and not someone holding more than oneself.
    assertNotOwnClearance(caller, userId);
    await assertMayManageUser(tx, caller, target);
    if (securityLevelId !== null && !(await q.getSetting(tx, 'security-levels', securityLevelId)))
      throw new HttpProblem('badRequest', { fields: { securityLevelId: [{ key: 'validation.choice' }] } });
    const before = await q.getClearance(tx, userId);
    await q.setClearance(tx, userId, securityLevelId);
    await recordAudit(tx, {
      action: 'users.clearance',
      actorId: caller.userId,
      actorUsername: caller.username,
      targetType: 'user',
      targetId: userId,
      details: { from: before?.id ?? null, to: securityLevelId },
      ip: meta.ip,
    });
  });
  return getClearance(ctx, userId);
}

/** A user's clearance, read in the caller's transaction (the users screen sets it with the user). */
export function clearanceIn(tx: authq.Tx, userId: number) {
  return q.getClearance(tx, userId);
}

/** Sets a user's clearance (null: none) in the caller's transaction; the caller checks and audits. */
export function setClearanceIn(tx: authq.Tx, userId: number, securityLevelId: number | null) {
  return q.setClearance(tx, userId, securityLevelId);
}
