/**
 * The SQL of delegations (issue 28): reading and writing them, the checks their rules need (clearance,
 * overlaps, chains), and the stalled circuits. The delegations in force for a user on a day, which the
 * caller's scope carries, are read by correspondence/visibility-queries.ts.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DelegationScope } from '../../../src-shared/api/notifications-kinds';
import { rowsOf } from '../../db/rows';
import { iso } from '../../db/sql';
import type { Tx } from '../auth/queries';

/** A user's clearance: the level of their security level, else the lowest active level (visibility-queries.ts). */
const clearanceOf = (userId: SQL) => sql`coalesce((select s.level from user_clearances c
      join correspondence_settings s on s.id = c.security_level_id where c.user_id = ${userId}),
    (select min(s.level) from correspondence_settings s where s.list = 'security-levels' and s.active), 0)::int`;

/** The scopes that overlap `scope`: `both` overlaps every scope, each of the others itself and `both`. */
export const overlapping = (scope: DelegationScope): DelegationScope[] =>
  scope === 'both' ? ['approvals', 'tasks', 'both'] : [scope, 'both'];

const scopesIn = (scopes: readonly DelegationScope[]) =>
  sql`(${sql.join(
    scopes.map((s) => sql`${s}`),
    sql`, `,
  )})`;

export interface DelegationRow {
  id: number;
  scope: DelegationScope;
  starts_on: string;
  ends_on: string;
  reason: string | null;
  created_at: string;
  ended_at: string | null;
  delegator_id: number;
  delegator_ar: string;
  delegator_en: string;
  delegator_dep_id: number | null;
  delegator_dep_ar: string | null;
  delegator_dep_en: string | null;
  delegate_id: number;
  delegate_ar: string;
  delegate_en: string;
  delegate_dep_id: number | null;
  delegate_dep_ar: string | null;
  delegate_dep_en: string | null;
  created_by: number | null;
  created_by_ar: string | null;
  created_by_en: string | null;
  ended_by: number | null;
  ended_by_ar: string | null;
  ended_by_en: string | null;
}

/** Delegations with their people, newest first. */
export async function delegationsWhere(db: Tx, where: SQL): Promise<DelegationRow[]> {
  return rowsOf<DelegationRow>(
    db,
    sql`select g.id, g.scope, to_char(g.starts_on, 'YYYY-MM-DD') as starts_on,
          to_char(g.ends_on, 'YYYY-MM-DD') as ends_on, g.reason, ${iso('g.created_at')} as created_at,
          ${iso('g.ended_at')} as ended_at,
          a.id as delegator_id, a.name_ar as delegator_ar, a.name_en as delegator_en,
          ad.id as delegator_dep_id, ad.name_ar as delegator_dep_ar, ad.name_en as delegator_dep_en,
          b.id as delegate_id, b.name_ar as delegate_ar, b.name_en as delegate_en,
          bd.id as delegate_dep_id, bd.name_ar as delegate_dep_ar, bd.name_en as delegate_dep_en,
          c.id as created_by, c.name_ar as created_by_ar, c.name_en as created_by_en,
          x.id as ended_by, x.name_ar as ended_by_ar, x.name_en as ended_by_en
        from delegations g
        join users a on a.id = g.delegator_id
        left join employees ae on ae.id = a.employee_id left join departments ad on ad.id = ae.department_id
        join users b on b.id = g.delegate_id
        left join employees be on be.id = b.employee_id left join departments bd on bd.id = be.department_id
        left join users c on c.id = g.created_by
        left join users x on x.id = g.ended_by
        where ${where}
        order by g.starts_on desc, g.id desc
        limit 500`,
  );
}

/** The condition of a delegation's state on `today` (YYYY-MM-DD). */
export function stateIs(state: 'upcoming' | 'inForce' | 'over', today: string): SQL {
  switch (state) {
    case 'upcoming':
      return sql`(g.ended_at is null and g.starts_on > ${today}::date)`;
    case 'inForce':
      return sql`(g.ended_at is null and g.starts_on <= ${today}::date and g.ends_on >= ${today}::date)`;
    case 'over':
      return sql`(g.ended_at is not null or g.ends_on < ${today}::date)`;
  }
}

export const scopeIs = (scope: DelegationScope) => sql`g.scope = ${scope}`;

/** A user as the rules need them: active, and their clearance. */
export async function personOf(
  db: Tx,
  userId: number,
): Promise<{ id: number; active: boolean; clearance: number; name_ar: string; name_en: string } | undefined> {
  const [row] = await rowsOf<{
    id: number;
    active: boolean;
    clearance: number;
    name_ar: string;
    name_en: string;
  }>(
    db,
    sql`select u.id, u.active, ${clearanceOf(sql`u.id`)} as clearance, u.name_ar, u.name_en
        from users u where u.id = ${userId}`,
  );
  return row;
}

/** Locks a delegator's user row: their delegations are checked and made one at a time. */
export async function lockUser(db: Tx, userId: number): Promise<void> {
  await db.execute(sql`select id from users where id = ${userId} for update`);
}

/** A delegation not ended of `userId` on the given side, overlapping `[from, to]` and one of `scopes`. */
export async function overlappingOf(
  db: Tx,
  side: 'delegator_id' | 'delegate_id',
  userId: number,
  scopes: readonly DelegationScope[],
  from: string,
  to: string,
): Promise<number | null> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`select g.id from delegations g
        where g.${sql.raw(side)} = ${userId} and g.ended_at is null and g.scope in ${scopesIn(scopes)}
          and g.starts_on <= ${to}::date and g.ends_on >= ${from}::date
        limit 1`,
  );
  return row?.id ?? null;
}

export async function insertDelegation(
  db: Tx,
  v: {
    delegatorId: number;
    delegateId: number;
    scope: DelegationScope;
    startsOn: string;
    endsOn: string;
    reason: string | null;
    createdBy: number;
  },
): Promise<number> {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`insert into delegations (delegator_id, delegate_id, scope, starts_on, ends_on, reason, created_by)
        values (${v.delegatorId}, ${v.delegateId}, ${v.scope}, ${v.startsOn}::date, ${v.endsOn}::date,
                ${v.reason}, ${v.createdBy})
        returning id`,
  );
  return row!.id;
}

/** Ends a delegation at `at` (answers false when it was already ended: a second click, another desk). */
export async function endDelegation(db: Tx, id: number, by: number, at: Date): Promise<boolean> {
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`update delegations set ended_at = ${at.toISOString()}::timestamptz, ended_by = ${by}
        where id = ${id} and ended_at is null returning id`,
  );
  return rows.length > 0;
}

/** Active users matching a search (names, username), with their department. */
export async function candidates(db: Tx, q: string, limit = 30) {
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return rowsOf<{
    id: number;
    name_ar: string;
    name_en: string;
    dep_id: number | null;
    dep_ar: string | null;
    dep_en: string | null;
  }>(
    db,
    sql`select u.id, u.name_ar, u.name_en, dep.id as dep_id, dep.name_ar as dep_ar, dep.name_en as dep_en
        from users u left join employees e on e.id = u.employee_id and e.active
        left join departments dep on dep.id = e.department_id
        where u.active and (${q} = '' or u.name_ar ilike ${like} or u.name_en ilike ${like} or u.username ilike ${like})
        order by u.name_en, u.id limit ${limit}`,
  );
}

// ---------------------------------------------------------------- stalled circuits

export interface StalledRow {
  member_id: number;
  document_id: number;
  direction: string;
  doc_number: string | null;
  subject: string;
  position: number;
  kind: 'opinion' | 'sign';
  user_id: number;
  name_ar: string;
  name_en: string;
  dep_id: number | null;
  dep_ar: string | null;
  dep_en: string | null;
  since: string | null;
  deactivated_at: string | null;
}

/** The pending turns of running circuits held by inactive accounts (`memberId`: one of them). */
export async function stalled(db: Tx, memberId?: number, forUpdate = false): Promise<StalledRow[]> {
  return rowsOf<StalledRow>(
    db,
    sql`select m.id as member_id, m.document_id, d.direction, d.doc_number, d.subject, m.position, m.kind,
          u.id as user_id, u.name_ar, u.name_en, dep.id as dep_id, dep.name_ar as dep_ar, dep.name_en as dep_en,
          ${iso('m.activated_at')} as since,
          (select ${iso('max(a.at)')} from audit_log a
            where a.action = 'users.deactivate' and a.target_id = u.id::text) as deactivated_at
        from approval_members m
        join users u on u.id = m.user_id and not u.active
        join documents d on d.id = m.document_id and d.state = 'approving'
        left join employees e on e.id = u.employee_id
        left join departments dep on dep.id = e.department_id
        where m.pending ${memberId === undefined ? sql`` : sql`and m.id = ${memberId}`}
        order by m.activated_at nulls first, m.id
        ${forUpdate ? sql`for update of m` : sql``}`,
  );
}

/** Puts `userId` (and their employee) in a circuit row's place; the turn stays pending. */
export async function replaceMember(db: Tx, memberId: number, userId: number): Promise<void> {
  await db.execute(
    sql`update approval_members
           set user_id = ${userId}, employee_id = (select employee_id from users where id = ${userId})
         where id = ${memberId}`,
  );
}

/** Whether a user is already in a document's circuit. */
export async function inCircuit(db: Tx, documentId: number, userId: number): Promise<boolean> {
  const rows = await rowsOf<{ n: number }>(
    db,
    sql`select 1 as n from approval_members where document_id = ${documentId} and user_id = ${userId} limit 1`,
  );
  return rows.length > 0;
}
