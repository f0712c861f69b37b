/**
 * Row types derived from the schema: the modules read with SQL (so instants come back as ISO text on both
 * drivers), and their rows are the table's columns under their SQL names. `RowOf<typeof t.$inferSelect>`
 * gives those rows — snake_case keys, timestamps as text, enum columns as the shared enums' unions —
 * so a column added, renamed or narrowed in schema.ts reaches every reader's type.
 */

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
