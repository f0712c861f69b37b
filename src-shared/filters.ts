/**
 * The table filter model of the specification (section 9): match modes and the and/or operators, as
 * sent in `?filters=<json>` on every list (API.md).
 */
import { z } from 'zod';

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
  value: z.union([z.string().max(500), z.number(), z.boolean(), z.null()]),
  matchMode: z.enum(MATCH_MODES),
});
export const fieldFilterSchema = z.object({
  operator: z.enum(['and', 'or']).default('and'),
  constraints: z.array(filterConstraintSchema).min(1).max(10),
});
export const filtersSchema = z.record(z.string().max(64), fieldFilterSchema);
export type Filters = z.infer<typeof filtersSchema>;

/** The common list query of API.md. */
export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  sort: z
    .string()
    .regex(/^-?[A-Za-z][A-Za-z0-9_]*$/)
    .max(64)
    .optional(),
  q: z.string().max(200).optional(),
  filters: z.string().max(4000).optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;
