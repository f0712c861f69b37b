/**
 * Field building blocks shared by the request schemas of every API area. Messages are i18n keys under
 * `validation.` so the server answers them in the caller's language (problem.ts maps them).
 */
import { z } from 'zod';

/** C0/C1 control characters (newlines included): never valid in a single-line field. */
const CONTROL = /\p{Cc}/u;
/** Control characters a multi-line text may not carry: every C0/C1 control but tab, LF and CR. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** A UTF-16 surrogate without its pair: not a character, and PostgreSQL refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string is text PostgreSQL can store: no NUL, no lone surrogate. */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** The largest value of the database's integer columns (int4). */
export const INT4_MAX = 2_147_483_647;
export const INT4_MIN = -2_147_483_648;

/** A single-line text of `min`..`max` characters, without control characters or lone surrogates. */
export function text(min: number, max: number) {
  return z
    .string()
    .min(min)
    .max(max)
    .refine((v) => !CONTROL.test(v), { message: 'validation.controlCharacters' })
    .refine((v) => !LONE_SURROGATE.test(v), { message: 'validation.invalid' });
}

/** Multi-line free text (summary, notes): up to `max` characters; newlines and tabs allowed, other controls not. */
export function multilineText(max: number, min = 0) {
  return z
    .string()
    .min(min)
    .max(max)
    .refine((v) => !CONTROL_MULTILINE.test(v), { message: 'validation.controlCharacters' })
    .refine((v) => !LONE_SURROGATE.test(v), { message: 'validation.invalid' });
}

/** An integer a database integer column can hold, within `min`..`max`. */
export function int4(min = INT4_MIN, max = INT4_MAX) {
  return z.number().int().min(Math.max(min, INT4_MIN)).max(Math.min(max, INT4_MAX));
}

/** A positive database id in a JSON body. */
export const refIdField = int4(1);

/** Only canonical decimal numbers are numbers in a path or a query: no sign, exponent, hex, spaces or leading zero. */
const CANONICAL_DECIMAL = /^(0|[1-9][0-9]{0,9})$/;

/** A whole number written in a path or query string, within `min`..`max` (canonical decimal only). */
export function decimalParam(min: number, max: number = INT4_MAX) {
  return z
    .string()
    .regex(CANONICAL_DECIMAL, { message: 'validation.number' })
    .transform(Number)
    .pipe(int4(min, max));
}

/** A calendar date `YYYY-MM-DD` that exists and PostgreSQL can store (years 0001–9999; 2026-02-30 is refused). */
export const dateOnlyField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'validation.date' })
  .refine((v) => isRealDate(v), { message: 'validation.date' });

/** Whether `YYYY-MM-DD` (or the date part of an ISO instant) names a day of years 1..9999. */
export function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1 || mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(2000, mo, 0)).getUTCDate(); // month length in a leap year
  if (d > days) return false;
  return mo !== 2 || d < 29 || (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0));
}

/** An ISO 8601 instant (`2026-01-15T10:00:00Z`, offset allowed) of years 0001–9999. */
export const instantField = z.iso
  .datetime({ offset: true, message: 'validation.date' })
  .refine((v) => isRealDate(v), { message: 'validation.date' });

/** A bilingual display name (nameAr / nameEn): 1..200 characters. */
export const nameField = text(1, 200);

/** Sign-in name: letters (any script), digits, dot, dash, underscore; 3..64. */
export const usernameField = z
  .string()
  .min(3)
  .max(64)
  .regex(/^[\p{L}\p{N}._-]+$/u, { message: 'validation.username' });

export const emailField = z.email().max(254);

/** Minimum password length (specification section 9) and a sane maximum. */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const passwordField = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);

/** Database ids are positive integers; path params arrive as strings, canonical decimals only (`0x10`, `1e1`, ` 1` are not ids). */
export const idField = decimalParam(1);
export const idParamsSchema = z.object({ id: idField }).strict();
export type IdParams = z.infer<typeof idParamsSchema>;

/** `{ active }`: the body of every activate/deactivate call. */
export const setActiveSchema = z.object({ active: z.boolean() }).strict();
export type SetActive = z.infer<typeof setActiveSchema>;

/** Page icon: an antd icon component name, e.g. `InboxOutlined`. */
export const iconField = z
  .string()
  .max(64)
  .regex(/^[A-Z][A-Za-z0-9]*$/, { message: 'validation.invalid' });

/** A page or section path: `/a/b-c`. */
export const pagePathField = z
  .string()
  .min(2)
  .max(200)
  .regex(/^(\/[a-z0-9][a-z0-9-]*)+$/, { message: 'validation.path' });

/**
 * An `Idempotency-Key` request header (keys are per user): 8 to 100 letters, digits or `. _ : -`. Intake
 * needs one; creating a document takes one. The one rule for both routes, validated by their schemas.
 */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{8,100}$/;
export const idempotencyKeyHeader = z
  .string()
  .regex(IDEMPOTENCY_KEY, { message: 'validation.idempotencyKey' });
