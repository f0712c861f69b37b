/**
 * Field building blocks shared by the request schemas of every API area. Messages are i18n keys under
 * `validation.` so the server answers them in the caller's language (problem.ts maps them).
 */
import { z } from 'zod';

/** C0/C1 control characters (newlines included): never valid in a single-line field. */
const CONTROL = /\p{Cc}/u;

/** A single-line text of `min`..`max` characters, without control characters. */
export function text(min: number, max: number) {
  return z
    .string()
    .min(min)
    .max(max)
    .refine((v) => !CONTROL.test(v), { message: 'validation.controlCharacters' });
}

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

/** Database ids are positive integers; path params arrive as strings. */
export const idField = z.coerce.number().int().min(1).max(2_147_483_647);
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
