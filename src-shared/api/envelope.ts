/**
 * The REST envelope and problem-details shapes of docs/api.md, shared by the server (which produces them)
 * and the client (which reads them).
 */
import { z } from 'zod';

/** `{ data, returnMessage }`: every success answer. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ data, returnMessage: z.string().optional() });
}
export type Envelope<T> = { data: T; returnMessage?: string };

/** RFC 9457 problem details, with `errors` mapping a field to its localised messages. */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  code: z.string().optional(),
  /** With `code`: the values its detail names, for a client to act on (e.g. a conflict's current version). */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

/**
 * A paged list answer: `{ items, total, page, pageSize }`, and where the list offers them:
 * - `totalExact`: `false` when the list stopped counting, so `total` is a lower bound ("more than
 *   {total}"); absent or `true`, `total` is exact;
 * - `next`: an opaque cursor marking the end of this page, present when rows follow it. Sent back as
 *   `after` with the request of another page of the same query, it lets the server read that page from
 *   this position instead of counting rows from the top (docs/api.md, "Lists").
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    totalExact: z.boolean().optional(),
    page: z.number().int(),
    pageSize: z.number().int(),
    next: z.string().optional(),
  });
}

/** A page of a list, as `pageOf` checks it (the server's answer and the client's table read this one type). */
export type ListPage<T> = Omit<z.infer<ReturnType<typeof pageOf>>, 'items'> & { items: T[] };

export const healthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  /** The largest file the server accepts (clients check before sending and show it in messages). */
  uploadMaxBytes: z.number().int().positive(),
});
export type Health = z.infer<typeof healthSchema>;

/**
 * GET /ready, for a proxy or an orchestrator: whether this server can serve now — its database answers and
 * its file store takes a file. 200 when both are `ok`, 503 otherwise, with the same body.
 */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'unavailable']),
  database: z.enum(['ok', 'failed']),
  files: z.enum(['ok', 'failed']),
});
export type Readiness = z.infer<typeof readinessSchema>;
