/**
 * Who may hand out or touch which power. The rule real systems use, enforced by the server on every path
 * that grants a role or acts on an account (the users screen, the employee centre's account creation, the
 * roles matrix, the pages screen):
 *
 * - nobody changes their own role or security clearance, and nobody edits the role they hold;
 * - a user may grant only a role whose page permissions are a subset of their own;
 * - a user may act on another account (role, password, activation, name, e-mail) or on a role (name,
 *   two-factor requirement, activation, matrix) only when its permissions are a subset of their own —
 *   so only a holder of every permission (the administrator role) touches an administrator;
 * - a new role matrix may hold only what the caller holds;
 * - changing where a page points (its path or parent) or what it offers moves power between roles, so it
 *   is for holders of every permission only.
 * Refusals are 403 with a sentence saying which rule; the grants compared are read in the transaction.
 */
import { eq } from 'drizzle-orm';
import { isPermission, type Permission } from '../../../src-shared/permissions';
import { pages, rolePagePermissions, roles } from '../../db/schema';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import type { Tx } from '../auth/queries';

/** A role's grants: page id → permissions. */
export type Grants = Map<number, Set<Permission>>;

const refused = (rule: string) =>
  new HttpProblem('forbidden', { detailKey: `admin.privilege.${rule}`, code: `admin.privilege.${rule}` });

/** Every permission every page offers: what the administrator role holds. */
async function everything(db: Tx): Promise<Grants> {
  const rows = await db.select({ id: pages.id, available: pages.availablePermissions }).from(pages);
  return new Map(rows.map((r) => [r.id, new Set(r.available.filter(isPermission))]));
}

/** The grants of a role (all of them for the administrator role; none for an unknown role). */
export async function grantsOf(db: Tx, roleId: number): Promise<Grants> {
  const [role] = await db
    .select({ isSystem: roles.isSystem })
    .from(roles)
    .where(eq(roles.id, roleId))
    .limit(1);
  if (!role) return new Map();
  if (role.isSystem) return everything(db);
  const rows = await db
    .select({ pageId: rolePagePermissions.pageId, permissions: rolePagePermissions.permissions })
    .from(rolePagePermissions)
    .where(eq(rolePagePermissions.roleId, roleId));
  return new Map(rows.map((r) => [r.pageId, new Set(r.permissions.filter(isPermission))]));
}

/** Whether every grant of `inner` is also in `outer`. */
export function covers(outer: Grants, inner: Grants): boolean {
  for (const [pageId, perms] of inner) {
    if (perms.size === 0) continue;
    const held = outer.get(pageId);
    if (!held) return false;
    for (const p of perms) if (!held.has(p)) return false;
  }
  return true;
}

/** The caller may grant `roleId` (to a new or an existing account). */
export async function assertMayGrantRole(db: Tx, caller: AuthContext, roleId: number): Promise<void> {
  if (caller.isSystem) return;
  if (!covers(await grantsOf(db, caller.roleId), await grantsOf(db, roleId)))
    throw refused('roleExceedsYours');
}

/** The caller may act on the account of `target` (another user's role, password, activation, identity). */
export async function assertMayManageUser(
  db: Tx,
  caller: AuthContext,
  target: { id: number; roleId: number },
): Promise<void> {
  if (caller.isSystem || target.id === caller.userId) return;
  if (!covers(await grantsOf(db, caller.roleId), await grantsOf(db, target.roleId)))
    throw refused('userOutranksYou');
}

/** Nobody changes their own role. */
export function assertNotOwnRoleChange(caller: AuthContext, targetUserId: number): void {
  if (targetUserId === caller.userId) throw refused('ownRole');
}

/** Nobody raises (or otherwise changes) their own security clearance, but a holder of every permission. */
export function assertNotOwnClearance(caller: AuthContext, targetUserId: number): void {
  if (targetUserId === caller.userId && !caller.isSystem) throw refused('ownClearance');
}

/** The caller may edit `roleId` (its name, activation or matrix): not their own, and not above them. */
export async function assertMayManageRole(db: Tx, caller: AuthContext, roleId: number): Promise<void> {
  if (caller.isSystem) return;
  if (roleId === caller.roleId) throw refused('ownRole');
  if (!covers(await grantsOf(db, caller.roleId), await grantsOf(db, roleId)))
    throw refused('roleExceedsYours');
}

/** A new matrix may hold only what the caller holds. */
export async function assertMayGrantMatrix(
  db: Tx,
  caller: AuthContext,
  entries: { pageId: number; permissions: Permission[] }[],
): Promise<void> {
  if (caller.isSystem) return;
  const wanted: Grants = new Map(entries.map((e) => [e.pageId, new Set(e.permissions)]));
  if (!covers(await grantsOf(db, caller.roleId), wanted)) throw refused('roleExceedsYours');
}

/** Only a holder of every permission moves a page or changes what it offers. */
export function assertMayRestructurePages(caller: AuthContext): void {
  if (!caller.isSystem) throw refused('pagesStructure');
}

/** The grants as `path:permission` strings, for the audit trail of a matrix change. */
export async function describeGrants(db: Tx, grants: Grants): Promise<string[]> {
  const paths = new Map(
    (await db.select({ id: pages.id, path: pages.path }).from(pages)).map((p) => [p.id, p.path]),
  );
  return [...grants]
    .flatMap(([pageId, perms]) => [...perms].map((p) => `${paths.get(pageId) ?? pageId}:${p}`))
    .sort();
}
