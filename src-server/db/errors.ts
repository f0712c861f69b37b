/**
 * Recognising database errors across drivers (node-postgres, PGlite, drizzle's wrapper), and the errors
 * db/ throws itself. db/ knows nothing of HTTP: http/db-problems.ts maps its errors to problems.
 */

/**
 * A list's input that db/ cannot use (list.ts, keyset.ts): a field (`sort`, `filters`, `filters.<name>`,
 * `after`) that is malformed, or JSON nested deeper than the bound (`tooDeep`). The caller's mistake: 400.
 */
export class ListInputError extends Error {
  constructor(
    readonly field: string,
    readonly reason: 'invalid' | 'tooDeep' = 'invalid',
  ) {
    super(`list input ${field}: ${reason}`);
    this.name = 'ListInputError';
  }
}

/** The SQLSTATE of an error or of its cause. */
export function sqlState(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique constraint was violated (23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** The name of the violated constraint or index, when the driver reports it. */
export function constraintOf(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i++) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
