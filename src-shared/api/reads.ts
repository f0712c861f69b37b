/**
 * Who read what, and the stored files' integrity (issue 31 parts 5–6; docs/read-audit-and-integrity.md):
 * the acts of reading the audit records (a document opened, an attachment viewed, downloaded, printed),
 * the lists of them per document and per user, the download and print copies of an attachment, and the
 * integrity check's findings. Schemas and endpoints shared by the server and the client.
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import { DIRECTIONS, DOCUMENT_STATES } from './correspondence';
import { decimalParam } from './fields';
import { endpoint, fileAnswer } from './endpoint';
import { pageOf } from './envelope';

/** The audit actions that are acts of reading, in the order a reader meets them. */
export const READ_ACTIONS = [
  'documents.opened',
  'documents.attachmentViewed',
  'documents.attachmentDownloaded',
  'documents.attachmentPrinted',
] as const;
export type ReadAction = (typeof READ_ACTIONS)[number];

/**
 * The token of one act of reading, made by the client for each opening (a UUID): every request of that
 * act carries it — the document's GET as `?read=`, the viewer's range requests as the header below — and
 * only the first makes a record.
 */
export const readTokenField = z.uuid();
/** The header carrying an attachment view's token on the viewer's requests (the file source forwards it). */
export const READ_TOKEN_HEADER = 'x-sijill-read';

/**
 * A document a read or a finding names, as the caller may see it: its number and subject, and its direction
 * and state (which screen opens it). Only documents the caller sees are named so — the visibility predicate
 * every read of a document applies — the others stay a bare id.
 */
export const namedDocumentSchema = z.object({
  id: z.number().int(),
  docNumber: z.string().nullable(),
  subject: z.string(),
  direction: z.enum(DIRECTIONS),
  state: z.enum(DOCUMENT_STATES),
});
export type NamedDocument = z.infer<typeof namedDocumentSchema>;

/** One act of reading: who, what, when, from which address. */
export const readEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  action: z.enum(READ_ACTIONS),
  userId: z.number().int().nullable(),
  username: z.string().nullable(),
  documentId: z.number().int(),
  /** The document's number and subject; null when the caller may not see it (or it is gone: a draft removed). */
  document: namedDocumentSchema.nullable(),
  /** The attachment viewed, downloaded or printed (null: the document opened). */
  attachmentId: z.number().int().nullable(),
  fileName: z.string().nullable(),
  /** The copy carried the reader's watermark (downloads and prints above the lowest security level). */
  watermarked: z.boolean(),
  ip: z.string().nullable(),
});
export type ReadEntry = z.infer<typeof readEntrySchema>;

/** A page of reads, newest first. */
export const readsQuerySchema = z
  .object({ page: decimalParam(1).default(1), pageSize: decimalParam(1, 200).default(50) })
  .strict();
export type ReadsQuery = z.infer<typeof readsQuerySchema>;

const idParams = z.object({ id: decimalParam(1) }).strict();
const attachmentParams = z.object({ id: decimalParam(1), attachmentId: decimalParam(1) }).strict();

// ---------------------------------------------------------------- integrity

/** What the integrity check found wrong with a stored file: other bytes, or none at all. */
export const INTEGRITY_PROBLEMS = ['changed', 'missing'] as const;
export type IntegrityProblem = (typeof INTEGRITY_PROBLEMS)[number];

/** One stored file whose bytes are not those recorded. */
export const integrityFailureSchema = z.object({
  id: z.number().int(),
  sha256: z.string(),
  problem: z.enum(INTEGRITY_PROBLEMS),
  foundSha256: z.string().nullable(),
  store: z.string(),
  detectedAt: z.string(),
  resolvedAt: z.string().nullable(),
  /** The attachments stored under this content: the documents they belong to. */
  documentIds: z.array(z.number().int()),
  /** Those of them the caller may see, with their numbers and subjects. */
  documents: z.array(namedDocumentSchema),
});
export type IntegrityFailure = z.infer<typeof integrityFailureSchema>;

/**
 * A page of findings (open and resolved), how many are open over every page, and when the check last went
 * over every stored file and runs next.
 */
export const integrityPageSchema = pageOf(integrityFailureSchema).extend({
  /** Findings not resolved: files that were still changed or missing when last read. */
  open: z.number().int(),
  /**
   * When the last whole pass over the stored files ended (null: none on record — none yet, checks turned
   * off, or longer ago than finished jobs are kept).
   */
  lastPassAt: z.string().nullable(),
  /** When the check runs next (null: none waiting — a pass is running, or checks are turned off). */
  nextRunAt: z.string().nullable(),
});
export type IntegrityPage = z.infer<typeof integrityPageSchema>;

const audit = { page: PAGES.audit, permission: 'view' } as const;

export const readsEndpoints = {
  documentReads: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/reads',
    params: idParams,
    query: readsQuerySchema,
    response: pageOf(readEntrySchema),
    access: audit,
    tags: ['audit'],
    summary: 'Who read a document: opened, viewed, downloaded, printed (newest first)',
  }),
  userReads: endpoint({
    method: 'GET',
    path: '/auth/users/:id/reads',
    params: idParams,
    query: readsQuerySchema,
    response: pageOf(readEntrySchema),
    access: audit,
    tags: ['audit'],
    summary: 'What a user read (newest first)',
  }),
  downloadAttachment: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/attachments/:attachmentId/download',
    params: attachmentParams,
    response: fileAnswer,
    bytes: 'application/pdf',
    access: 'authenticated',
    tags: ['correspondence'],
    summary:
      "An attachment's copy to save, recorded (watermarked with the reader's name and the time above the lowest security level)",
  }),
  printAttachment: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/attachments/:attachmentId/print',
    params: attachmentParams,
    response: fileAnswer,
    bytes: 'application/pdf',
    access: 'authenticated',
    tags: ['correspondence'],
    summary:
      "An attachment's copy to print, recorded (watermarked with the reader's name and the time above the lowest security level)",
  }),
  integrityFailures: endpoint({
    method: 'GET',
    path: '/auth/integrity',
    query: readsQuerySchema,
    response: integrityPageSchema,
    access: audit,
    tags: ['audit'],
    summary:
      'Stored files whose bytes no longer match their SHA-256 (newest first), and when the check last passed over every file',
  }),
};
