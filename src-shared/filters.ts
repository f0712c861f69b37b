/**
 * The table filter model of the specification (section 9): match modes and the and/or operators, as
 * sent in `?filters=<json>` on every list (docs/api.md).
 */
import { z } from 'zod';
import { decimalParam, text } from './api/fields';

export const MATCH_MODES = [
  'startsWith',
  'contains',
  'notContains',
  'endsWith',
  'equals',
  'notEquals',
  'lt',
  'lte',
  'gt',
  'gte',
  'dateIs',
  'dateIsNot',
  'dateBefore',
  'dateAfter',
] as const;
export type MatchMode = (typeof MATCH_MODES)[number];

export const filterConstraintSchema = z.object({
  value: z.union([text(0, 500), z.number(), z.boolean(), z.null()]),
  matchMode: z.enum(MATCH_MODES),
});
export const fieldFilterSchema = z.object({
  operator: z.enum(['and', 'or']).default('and'),
  constraints: z.array(filterConstraintSchema).min(1).max(10),
});
export const filtersSchema = z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/), fieldFilterSchema);
export type Filters = z.infer<typeof filtersSchema>;

/** The common list query of docs/api.md. */
export const listQuerySchema = z.object({
  page: decimalParam(1).default(1),
  pageSize: decimalParam(1, 200).default(20),
  sort: z
    .string()
    .regex(/^-?[A-Za-z][A-Za-z0-9_]*$/)
    .max(64)
    .optional(),
  q: text(0, 200).optional(),
  filters: text(0, 4000).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;
