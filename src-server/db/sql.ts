/**
 * SQL helpers shared by the query modules.
 */
import { getTableName, sql, type Column, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A column of the outer query, always qualified with its table: `"jobs"."id"`. Inside a correlated
 * subquery drizzle writes a column of a one-table select unqualified (`"id"`), which PostgreSQL then reads
 * as the subquery's own column — `(select count(*) from employees e where e.job_id = "id")` counts rows
 * whose job is their own id. Use this for every outer column a subquery refers to.
 */
export function outer(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table as PgTable))}.${sql.identifier(column.name)}`;
}
