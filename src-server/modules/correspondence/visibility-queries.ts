/**
 * The SQL behind the caller's scope (visibility.ts): what the visibility predicate needs to know about a
 * user, read in one query. The predicate itself is SQL fragments, and stays in visibility.ts.
 */
import { sql } from 'drizzle-orm';
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
