/**
 * Who may see a correspondence document — the one SQL predicate every list, get, timeline, attachment
 * download and search applies (docs/architecture.md). A caller sees a document when its security rank is at
 * most their clearance and they are:
 * - an administrator (the built-in role: everything, whatever the clearance);
 * - its creator (drafts are seen by their creator only);
 * - once submitted to an approval circuit (outgoing, memos): every person of the circuit, the signatory
 *   included, whatever step they are at;
 * - once filed (registered incoming, approved outgoing and memos): a clerk of the archive office holding it
 *   (documents.archive_department_id is the caller's department); everyone of a department it was
 *   distributed to, for action or for knowledge — its manager, its secretary, and every active employee
 *   whose own department it is (not those of its sub-departments); an employee tasked on it.
 * - the delegate of someone, while a delegation is in force (issue 28, `Scope.delegators`): what that
 *   person's circuits (approvals) or tasks (tasks) would show them.
 * Seeing is not acting: tasking, completing and distributing further keep their own rules (the
 * department's lead, the archive office, the tasked employee: common.ts `leads`/`holds`, distribution.ts).
 * Clearance: the level of the user's security level in user_clearances, or else the lowest active
 * security level (a document without a security level has rank 0, open to all who otherwise see it).
 * A document outside the predicate answers 404, never 403.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../auth/queries';
import { delegatorsOf, isSystemUser, scopeRowOf, type Delegator } from './visibility-queries';

export type { Delegator } from './visibility-queries';

/** What the predicate needs to know about the caller, read once per request. */
export interface Scope {
  userId: number;
  isAdmin: boolean;
  employeeId: number | null;
  /** The caller's own department (as an employee). */
  departmentId: number | null;
  /** Departments the caller manages (departments.manager_employee_id) or is secretary of. */
  leadDepartmentIds: number[];
  /** The caller's department when it is an archive office (archive type `inOut`). */
  archiveDepartmentId: number | null;
  /** The highest security rank the caller may see. */
  clearance: number;
  /**
   * Whose approvals or tasks the caller holds today as their delegate (delegations in force; empty when
   * the scope was read without a day, as search reads it).
   */
  delegators: Delegator[];
}

/** The users whose circuits the caller acts in: themselves and their delegators for approvals. */
export const circuitUsers = (scope: Scope): number[] => [
  scope.userId,
  ...scope.delegators.filter((g) => g.approvals).map((g) => g.userId),
];

/** The employees whose tasks the caller holds: their own and their delegators' for tasks. */
export const taskEmployees = (scope: Scope): number[] => [
  ...(scope.employeeId === null ? [] : [scope.employeeId]),
  ...scope.delegators.flatMap((g) => (g.tasks && g.employeeId !== null ? [g.employeeId] : [])),
];

/** `in (…)` of integer literals bound as parameters (portable across node-postgres and PGlite). */
export function inList(ids: readonly number[]): SQL {
  return sql`(${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

/**
 * Reads the caller's scope: employee, department, led departments, archive office, clearance, and — given
 * the organisation's `today` — the delegations they hold.
 */
export async function scopeOf(
  db: Tx,
  caller: { userId: number; isSystem: boolean },
  today?: string,
): Promise<Scope> {
  const [row, delegators] = await Promise.all([
    scopeRowOf(db, caller.userId),
    today === undefined ? Promise.resolve([]) : delegatorsOf(db, caller.userId, today),
  ]);
  const departmentId = row?.department_id ?? null;
  return {
    userId: caller.userId,
    isAdmin: caller.isSystem,
    employeeId: row?.employee_id ?? null,
    departmentId,
    leadDepartmentIds: [...new Set([...(row?.managed ?? []), ...(row?.secretaried ?? [])])],
    archiveDepartmentId: row?.archive_type === 'inOut' ? departmentId : null,
    clearance: row?.clearance ?? 0,
    delegators,
  };
}

/** The scope of a user named by id outside a request (a background job telling them): their role says admin. */
export async function scopeOfUser(db: Tx, userId: number, today?: string): Promise<Scope> {
  return scopeOf(db, { userId, isSystem: await isSystemUser(db, userId) }, today);
}

/**
 * The departments whose distributions the caller receives: those they lead (manager, secretary) and their
 * own department as an employee, for action and for knowledge alike. The predicate, its candidates and
 * the boxes' receiving arms all read this one list, so they cannot disagree.
 */
export function receivingDepartments(scope: Scope): number[] {
  const own = scope.departmentId;
  return own === null || scope.leadDepartmentIds.includes(own)
    ? scope.leadDepartmentIds
    : [...scope.leadDepartmentIds, own];
}

/**
 * The visibility predicate over a `documents` row aliased `alias` (default `d`). Every read of a
 * document goes through it.
 */
export function visibleTo(scope: Scope, alias = 'd'): SQL {
  if (scope.isAdmin) return sql`true`;
  const d = sql.raw(alias);
  const registered: SQL[] = [];
  if (scope.archiveDepartmentId !== null)
    registered.push(sql`${d}.archive_department_id = ${scope.archiveDepartmentId}`);
  const receiving = receivingDepartments(scope);
  if (receiving.length)
    registered.push(sql`exists (select 1 from distributions vl where vl.document_id = ${d}.id
      and vl.department_id in ${inList(receiving)})`);
  const tasked = taskEmployees(scope);
  if (tasked.length)
    registered.push(sql`exists (select 1 from tasks vt where vt.document_id = ${d}.id
      and vt.employee_id in ${inList(tasked)})`);
  const others = registered.length
    ? sql` or (${d}.state in ('registered', 'approved') and (${sql.join(registered, sql` or `)}))`
    : sql``;
  const circuit = sql` or (${d}.state <> 'draft' and exists (select 1 from approval_members va
      where va.user_id in ${inList(circuitUsers(scope))} and va.document_id = ${d}.id))`;
  return sql`(${d}.security_rank <= ${scope.clearance} and (${d}.created_by = ${scope.userId}${others}${circuit}))`;
}

/**
 * Whether the caller sees a large share of all documents (an administrator, an archive office's clerk):
 * a search then starts from the index; otherwise from `visibleCandidates`, which is small.
 */
export function seesBroadly(scope: Scope): boolean {
  return scope.isAdmin || scope.archiveDepartmentId !== null;
}

/**
 * The ids of every document `visibleTo` could admit for a caller who does not see broadly: one indexed
 * lookup per arm of the predicate (created, distributed to a receiving department, tasked, in a circuit).
 * A superset to start from — `visibleTo` still decides. `created` narrows the documents the caller created
 * (a clerk creates most of their office's mail: a caller counting apart from it leaves it out there);
 * `received` the distributions to their departments (over `distributions`: a period of their copy of the
 * document's registered_at, which is set before any distribution and never changes).
 */
export function visibleCandidates(scope: Scope, created: SQL = sql`true`, received: SQL = sql`true`): SQL {
  const arms: SQL[] = [sql`select id from documents where created_by = ${scope.userId} and ${created}`];
  const receiving = receivingDepartments(scope);
  if (receiving.length)
    arms.push(
      sql`select document_id from distributions where department_id in ${inList(receiving)} and ${received}`,
    );
  const tasked = taskEmployees(scope);
  if (tasked.length) arms.push(sql`select document_id from tasks where employee_id in ${inList(tasked)}`);
  arms.push(sql`select document_id from approval_members where user_id in ${inList(circuitUsers(scope))}`);
  return sql.join(arms, sql` union `);
}
