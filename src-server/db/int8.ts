/**
 * int8 (bigint, bigserial, `count(*)`) as a JS number, for both drivers: open.ts sets node-postgres'
 * parsers with it, and PGlite's (in this thread or in its worker, pglite-worker.ts) use it as well.
 */

/** PostgreSQL's type OIDs of int8 and of an int8 array. */
export const INT8: number = 20;
export const INT8_ARRAY: number = 1016;

/**
 * An int8 as a JS number. Our int8 values are ids, counts, versions and byte sizes, far below 2^53; one
 * beyond Number.MAX_SAFE_INTEGER would come back rounded, so it is an error instead (docs/decisions.md,
 * "Integers from the database are numbers"). numeric is left as the drivers give it: text.
 */
export function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 ${text} is beyond what a JS number holds exactly`);
  return n;
}

/**
 * PGlite answers int8 as a number when it is safe and as a bigint beyond (which JSON cannot write); ours
 * makes that an error as on PostgreSQL. Its array parser calls the element's parser, so int8[] follows.
 */
export const pgliteParsers = { [INT8]: (text: string) => parseInt8(text) };
