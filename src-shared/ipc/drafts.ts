/** The contract's drafts area: drafts composed on this desk and sent when the server is there (issue 14). */
import { z } from 'zod';
import { DIRECTIONS, createDocumentRequestSchema } from '../api/correspondence';
import { channel } from './common';

/**
 * Local drafts (issue 14): the fields of a draft form as the server's create request takes them, every
 * one optional while it is being written (the server checks what it requires when it is sent).
 */
export const localDraftFieldsSchema = createDocumentRequestSchema
  .omit({ direction: true, register: true })
  .partial()
  .strict();
export type LocalDraftFields = z.infer<typeof localDraftFieldsSchema>;

export const LOCAL_DRAFT_STATES = ['pending', 'synced', 'conflict', 'failed'] as const;
const draftIdSchema = z.string().uuid();

/** One local draft as lists show it. */
export const localDraftSummarySchema = z.object({
  id: z.string(),
  direction: z.enum(DIRECTIONS),
  subject: z.string(),
  /** pending (waits to be sent), synced (the server has it), conflict (changed on both sides), failed. */
  state: z.enum(LOCAL_DRAFT_STATES),
  /** Changed on this desk since it was last sent. */
  dirty: z.boolean(),
  serverId: z.number().int().nullable(),
  serverVersion: z.number().int().nullable(),
  files: z.number().int(),
  /** Why it could not be sent (the server's words), when failed. */
  error: z.string().nullable(),
  /** False when its content cannot be opened (sealed with a key this desk no longer has). */
  readable: z.boolean(),
  updatedAt: z.string(),
});
export type LocalDraftSummary = z.infer<typeof localDraftSummarySchema>;

export const localDraftCountsSchema = z.object({
  waiting: z.number().int(),
  conflicts: z.number().int(),
  failed: z.number().int(),
});
export type LocalDraftCounts = z.infer<typeof localDraftCountsSchema>;

export const localDraftListSchema = z.object({
  drafts: z.array(localDraftSummarySchema),
  counts: localDraftCountsSchema,
});
export type LocalDraftList = z.infer<typeof localDraftListSchema>;

/** One local draft whole: its fields, its files, and in a conflict the server's version beside it. */
export const localDraftDetailSchema = localDraftSummarySchema.extend({
  fields: z.record(z.string(), z.unknown()),
  fileList: z.array(
    z.object({ id: z.string(), name: z.string(), size: z.number().int(), sha256: z.string() }),
  ),
  /** The document as the server has it now (a conflict), for the clerk to compare and choose. */
  theirs: z.record(z.string(), z.unknown()).nullable(),
});
export type LocalDraftDetail = z.infer<typeof localDraftDetailSchema>;

export const draftsChannels = {
  /** The signed-in user's local drafts on this desk (for the server in use), in the order they are sent. */
  'drafts:list': channel(z.undefined(), localDraftListSchema),
  'drafts:get': channel(z.object({ id: draftIdSchema }).strict(), localDraftDetailSchema),
  /**
   * Keeps a draft form's fields on this desk (a new draft without `id`). `serverId`/`serverVersion` name
   * the server draft being edited, the version the clerk started from (a change made elsewhere since is
   * a conflict, never overwritten).
   */
  'drafts:save': channel(
    z
      .object({
        id: draftIdSchema.optional(),
        direction: z.enum(DIRECTIONS),
        fields: localDraftFieldsSchema,
        serverId: z.number().int().positive().optional(),
        serverVersion: z.number().int().positive().optional(),
        /** The form gave up sending it itself (the server away): background sending may take it again. */
        release: z.boolean().optional(),
      })
      .strict(),
    localDraftSummarySchema,
  ),
  /**
   * The open form sends the draft itself now: background sending leaves it alone, and the answer names
   * the server draft it already became (to update rather than create a second).
   */
  'drafts:claim': channel(
    z.object({ id: draftIdSchema }).strict(),
    z.object({ serverId: z.number().int().nullable(), serverVersion: z.number().int().nullable() }),
  ),
  /** The form sent the draft itself (fields and files): the local copy is the server's now. */
  'drafts:settled': channel(
    z
      .object({
        id: draftIdSchema,
        serverId: z.number().int().positive(),
        serverVersion: z.number().int().positive(),
      })
      .strict(),
    localDraftSummarySchema,
  ),
  'drafts:remove-file': channel(
    z.object({ id: draftIdSchema, fileId: draftIdSchema }).strict(),
    localDraftDetailSchema,
  ),
  /** Deletes a local draft and its files from this desk (the server's copy, if any, stays). */
  'drafts:delete': channel(z.object({ id: draftIdSchema }).strict(), localDraftListSchema),
  /** Sends what waits now (the server must be reachable). */
  'drafts:sync': channel(z.undefined(), localDraftListSchema),
  /** A conflict settled: keep this desk's version (sent over the server's) or the server's. */
  'drafts:resolve': channel(
    z.object({ id: draftIdSchema, keep: z.enum(['mine', 'theirs']) }).strict(),
    localDraftListSchema,
  ),
} as const;

export const draftsEvents = {
  /** Local drafts changed (saved, sent, in conflict): the counts the menu and the lists show. */
  'drafts:changed': localDraftCountsSchema,
} as const;
