/**
 * Row types derived from the schema: the modules read with SQL (so instants come back as ISO text on both
 * drivers), and their rows are the table's columns under their SQL names. `RowOf<typeof t.$inferSelect>`
 * gives those rows — snake_case keys, timestamps as text, enum columns as the shared enums' unions —
 * so a column added, renamed or narrowed in schema.ts reaches every reader's type.
 *
 * `rowsOf` is the one way to run raw SQL and read its rows. Integers arrive as numbers on both drivers
 * (int8 too, open.ts); numeric and instants arrive as text.
 */
import type { SQL } from 'drizzle-orm';
import type { Db } from './open';

/**
 * Runs SQL and answers its rows, typed as the caller says they are: the row type names the SQL's columns
 * (no driver checks that; the API tests run every query on both).
 */
export async function rowsOf<T = Record<string, unknown>>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  const { rows } = await db.execute(query);
  return rows as T[];
}

/** `camelCase` → `snake_case`. */
export type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;

/** A table row as our SQL answers it. */
export type RowOf<T> = {
  [K in keyof T as Snake<K & string>]: T[K] extends Date
    ? string
    : T[K] extends Date | null
      ? string | null
      : T[K];
};
