/**
 * Keyset positions of big lists: the opaque `after` / `next` cursor of docs/api.md ("Lists"). A position is a
 * row of the list's order — its sort value (as text in a fixed form the list checks before casting it
 * back; a timestamp keeps its microseconds), its id and the kind of row it is (the tie-break between a
 * union's arms) — with its
 * ordinal (how many rows up to and including it), so a page number can be reached from any known position
 * by reading only the rows between them. The cursor carries a fingerprint of the query it was made for; a
 * cursor of another query is not used. It is a shortcut, not a grant: the page's rows still pass every
 * predicate of the list, so a forged cursor can only misplace the caller's own rows.
 */
import { createHash } from 'node:crypto';
import { nestsDeeperThan } from '../../src-shared/json-depth';
import { ListInputError } from './errors';

/** A row's place in a list's order. */
export interface Position {
  /** The sort column's value as text (null: the column is null for this row). */
  value: string | null;
  rowId: number;
  /** The arm the row comes from (one lower-case letter). */
  kind: string;
  /** 1-based: the rows of the list up to and including this one. */
  ordinal: number;
}

const VERSION = 1;

/** A short digest of what a cursor belongs to (the list, its sort, filters, range, caller). */
export function fingerprintOf(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

/** The cursor of `position` in the list with `fingerprint`. */
export function encodeCursor(fingerprint: string, position: Position): string {
  const { value, rowId, kind, ordinal } = position;
  return Buffer.from(JSON.stringify([VERSION, fingerprint, value, rowId, kind, ordinal]), 'utf8').toString(
    'base64url',
  );
}

const badCursor = () => new ListInputError('after');

/**
 * The position a cursor marks, or null when it was made for another query (the page is then read from
 * the top). A string that is no cursor at all is a client's mistake: 400.
 */
export function decodeCursor(cursor: string, fingerprint: string): Position | null {
  let parsed: unknown;
  try {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    // Too deep is no cursor either: the same 400 as any other text that is not one.
    if (nestsDeeperThan(text)) throw badCursor();
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 6) throw badCursor();
  const [version, print, value, rowId, kind, ordinal] = parsed as unknown[];
  if (
    version !== VERSION ||
    typeof print !== 'string' ||
    !(value === null || typeof value === 'string') ||
    !Number.isSafeInteger(rowId) ||
    typeof kind !== 'string' ||
    !/^[a-z]$/.test(kind) ||
    !Number.isSafeInteger(ordinal) ||
    (ordinal as number) < 1
  )
    throw badCursor();
  if (print !== fingerprint) return null;
  return { value, rowId: rowId as number, kind, ordinal: ordinal as number };
}
