/**
 * SQL helpers shared by the query modules.
 */
import { getTableName, sql, type Column, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** An instant as ISO 8601 UTC text (`column` is SQL text of ours, never input). */
export const iso = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
/** A date as `YYYY-MM-DD` text. */
export const day = (column: string) => sql.raw(`to_char(${column}, 'YYYY-MM-DD')`);

/**
 * A column of the outer query, always qualified with its table: `"jobs"."id"`. Inside a correlated
 * subquery drizzle writes a column of a one-table select unqualified (`"id"`), which PostgreSQL then reads
 * as the subquery's own column — `(select count(*) from employees e where e.job_id = "id")` counts rows
 * whose job is their own id. Use this for every outer column a subquery refers to.
 */
export function outer(column: Column): SQL {
  return sql`${sql.identifier(getTableName(column.table as PgTable))}.${sql.identifier(column.name)}`;
}
