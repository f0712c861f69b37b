/**
 * The SQL behind the caller's scope (visibility.ts): what the visibility predicate needs to know about a
 * user, read in one query. The predicate itself is SQL fragments, and stays in visibility.ts.
 */
import { sql } from 'drizzle-orm';
import type { DelegationScope } from '../../../src-shared/api/notifications-kinds';
import { rowsOf } from '../../db/rows';
import type { Tx } from '../auth/queries';

/** A user's row of the scope. */
export type ScopeRow = {
  employee_id: number | null;
  department_id: number | null;
  archive_type: string | null;
  managed: number[];
  secretaried: number[];
  clearance: number;
};

/** A user's scope row: employee, department, led departments, archive type, clearance (none: no user). */
export async function scopeRowOf(db: Tx, userId: number): Promise<ScopeRow | undefined> {
  const [row] = await rowsOf<ScopeRow>(
    db,
    sql`
    select e.id as employee_id, e.department_id, dep.archive_type,
      coalesce((select array_agg(m.id) from departments m
                 where m.manager_employee_id = e.id and m.active), '{}') as managed,
      coalesce((select array_agg(so.department_id) from secretary_offices so
                 where so.secretary_employee_id = e.id and so.active), '{}') as secretaried,
      coalesce((select s.level from user_clearances c
                  join correspondence_settings s on s.id = c.security_level_id
                 where c.user_id = u.id),
               (select min(s.level) from correspondence_settings s
                 where s.list = 'security-levels' and s.active), 0)::int as clearance
    from users u
    left join employees e on e.id = u.employee_id and e.active
    left join departments dep on dep.id = e.department_id
    where u.id = ${userId}`,
  );
  return row;
}

/** A delegator whose items the caller holds today, and what they hold. */
export interface Delegator {
  userId: number;
  employeeId: number | null;
  nameAr: string;
  nameEn: string;
  approvals: boolean;
  tasks: boolean;
}

/**
 * The delegations in force on `today` given to `userId`, one entry per delegator (their scopes merged).
 * A delegation's delegator who is the caller themselves cannot happen (a check of the table).
 */
export async function delegatorsOf(db: Tx, userId: number, today: string): Promise<Delegator[]> {
  const rows = await rowsOf<{
    user_id: number;
    employee_id: number | null;
    name_ar: string;
    name_en: string;
    scope: DelegationScope;
  }>(
    db,
    sql`select u.id as user_id, u.employee_id, u.name_ar, u.name_en, g.scope
        from delegations g join users u on u.id = g.delegator_id
        where g.delegate_id = ${userId} and g.ended_at is null
          and g.starts_on <= ${today}::date and g.ends_on >= ${today}::date
        order by u.id`,
  );
  const byId = new Map<number, Delegator>();
  for (const r of rows) {
    const d = byId.get(r.user_id) ?? {
      userId: r.user_id,
      employeeId: r.employee_id,
      nameAr: r.name_ar,
      nameEn: r.name_en,
      approvals: false,
      tasks: false,
    };
    if (r.scope !== 'tasks') d.approvals = true;
    if (r.scope !== 'approvals') d.tasks = true;
    byId.set(r.user_id, d);
  }
  return [...byId.values()];
}

/** Whether a user's role is the built-in administrator's. */
export async function isSystemUser(db: Tx, userId: number): Promise<boolean> {
  const [row] = await rowsOf<{ s: boolean }>(
    db,
    sql`select r.is_system as s from users u join roles r on r.id = u.role_id where u.id = ${userId}`,
  );
  return row?.s ?? false;
}
