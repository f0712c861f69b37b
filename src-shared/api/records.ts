/**
 * Records management (issue 31, parts 1–4; ISO 15489 / MoReq): files that documents belong to, retention
 * schedules per codification, dispositions (proposed, approved by a second person, carried out: a
 * destruction with its certificate, or a transfer as a BagIt package) and legal holds. Schemas and
 * endpoints, shared by the server and the client (rules: src-server/modules/records, docs/records.md).
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import { namedRefSchema } from './directory';
import { endpoint, fileAnswer } from './endpoint';
import { dateOnlyField, decimalParam, idParamsSchema, int4, multilineText, refIdField, text } from './fields';

/** What happens to a file when its retention runs out. */
export const RETENTION_ACTIONS = ['destroy', 'transfer', 'permanent'] as const;
export type RetentionAction = (typeof RETENTION_ACTIONS)[number];

/** The actions a disposition carries out (a permanent file is never disposed of). */
export const DISPOSITION_ACTIONS = ['destroy', 'transfer'] as const;
export type DispositionAction = (typeof DISPOSITION_ACTIONS)[number];

/**
 * A disposition's life as stored: proposed, approved by a second person, then done; or cancelled before it
 * is done. While its background job carries it out it stays `approved` in the database (the file stays
 * under way: not reopened, no document moved out) and the API says `executing` (DISPOSITION_VIEW_STATES).
 */
export const DISPOSITION_STATES = ['proposed', 'approved', 'done', 'cancelled'] as const;
export type DispositionState = (typeof DISPOSITION_STATES)[number];

/**
 * A disposition's life as the API tells it: the stored states, and `executing` from the moment carrying it
 * out is asked until its job has finished (or, for a destruction, from the first document destroyed until
 * it is done, even while its job is stopped).
 */
export const DISPOSITION_VIEW_STATES = ['proposed', 'approved', 'executing', 'done', 'cancelled'] as const;
export type DispositionViewState = (typeof DISPOSITION_VIEW_STATES)[number];

/**
 * What the job carrying out a disposition is doing: waiting for a worker; a destruction's documents being
 * deleted, its certificate being made, the stored files no record names any more being removed; a
 * transfer's package being built, then stored.
 */
export const DISPOSITION_PHASES = [
  'queued',
  'destroying',
  'certificate',
  'removing',
  'packing',
  'storing',
] as const;
export type DispositionPhase = (typeof DISPOSITION_PHASES)[number];

/** Where a file stands: open (takes documents), closed, destroyed or transferred. */
export const FILE_STATES = ['open', 'closed', 'destroyed', 'transferred'] as const;
export type FileState = (typeof FILE_STATES)[number];

const retentionYears = int4(0, 200);

// ---------------------------------------------------------------- files

export const recordFileSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  titleAr: z.string(),
  titleEn: z.string(),
  department: namedRefSchema.nullable(),
  openedOn: z.string(),
  closedOn: z.string().nullable(),
  state: z.enum(FILE_STATES),
  /** The file's own retention, over its codifications' schedules (both null: none of its own). */
  retentionYears: z.number().int().nullable(),
  retentionAction: z.enum(RETENTION_ACTIONS).nullable(),
  retentionReference: z.string().nullable(),
  /** The retention that applies (the file's own, else the longest of its documents' schedules); null: none. */
  retention: z
    .object({
      years: z.number().int(),
      action: z.enum(RETENTION_ACTIONS),
      legalReference: z.string(),
      /** The day its disposition is due (closed on + years); null while the file is open or kept for good. */
      dueOn: z.string().nullable(),
    })
    .nullable(),
  documents: z.number().int(),
  /** Legal holds in force on the file or any of its documents. */
  holds: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RecordFile = z.infer<typeof recordFileSchema>;

const fileFields = {
  code: text(1, 50),
  titleAr: text(1, 300),
  titleEn: text(1, 300),
  departmentId: refIdField.nullable(),
  openedOn: dateOnlyField,
  retentionYears: retentionYears.nullable(),
  retentionAction: z.enum(RETENTION_ACTIONS).nullable(),
  retentionReference: text(1, 500).nullable(),
};

/** POST /records/files. A file's own retention is both years and action, or neither. */
export const createFileSchema = z
  .object({
    ...fileFields,
    departmentId: fileFields.departmentId.optional(),
    openedOn: fileFields.openedOn.optional(),
    retentionYears: fileFields.retentionYears.optional(),
    retentionAction: fileFields.retentionAction.optional(),
    retentionReference: fileFields.retentionReference.optional(),
  })
  .strict();
export type CreateFileRequest = z.input<typeof createFileSchema>;

/** PUT /records/files/{id}: any of the fields. */
export const updateFileSchema = z
  .object({
    code: fileFields.code.optional(),
    titleAr: fileFields.titleAr.optional(),
    titleEn: fileFields.titleEn.optional(),
    departmentId: fileFields.departmentId.optional(),
    openedOn: fileFields.openedOn.optional(),
    retentionYears: fileFields.retentionYears.optional(),
    retentionAction: fileFields.retentionAction.optional(),
    retentionReference: fileFields.retentionReference.optional(),
  })
  .strict();
export type UpdateFileRequest = z.input<typeof updateFileSchema>;

export const fileListQuerySchema = z
  .object({
    q: z.string().max(100).optional(),
    state: z.enum(FILE_STATES).optional(),
    departmentId: decimalParam(1).optional(),
  })
  .strict();

/**
 * One document of a file as the Files screen lists it (what a disposition's record keeps of it, for the
 * same records managers).
 */
export const fileDocumentSchema = z.object({
  id: z.number().int(),
  docNumber: z.string().nullable(),
  subject: z.string(),
  direction: z.string(),
  documentDate: z.string().nullable(),
  registeredAt: z.string().nullable(),
});
export type FileDocument = z.infer<typeof fileDocumentSchema>;

/** POST /records/files/{id}/close: closed on a day (default: the organisation's today). */
export const closeFileSchema = z.object({ closedOn: dateOnlyField.optional() }).strict();

/** POST /records/files/{id}/documents: a document moved into the file. */
export const moveDocumentSchema = z.object({ documentId: refIdField }).strict();

// ---------------------------------------------------------------- schedules

export const retentionScheduleSchema = z.object({
  id: z.number().int(),
  codification: namedRefSchema.extend({ prefix: z.string().nullable() }),
  years: z.number().int(),
  action: z.enum(RETENTION_ACTIONS),
  legalReference: z.string(),
  updatedAt: z.string(),
});
export type RetentionSchedule = z.infer<typeof retentionScheduleSchema>;

/** PUT /records/schedules/{codificationId}: the codification's schedule, made or replaced. */
export const scheduleRequestSchema = z
  .object({
    years: retentionYears,
    action: z.enum(RETENTION_ACTIONS),
    legalReference: text(1, 500),
  })
  .strict();
export type ScheduleRequest = z.input<typeof scheduleRequestSchema>;
export const codificationParamsSchema = z.object({ codificationId: decimalParam(1) }).strict();

// ---------------------------------------------------------------- disposition

/** One document of a disposed file, as the minimal record keeps it. */
export const disposedDocumentSchema = z.object({
  docNumber: z.string().nullable(),
  subject: z.string(),
  direction: z.string(),
  documentDate: z.string().nullable(),
  registeredAt: z.string().nullable(),
  files: z.array(z.object({ fileName: z.string(), sha256: z.string(), size: z.number().int() })),
});
export type DisposedDocument = z.infer<typeof disposedDocumentSchema>;

/**
 * The background job carrying out a disposition (POST …/execute queues it), while it is not done: queued,
 * running (its phase and how far), or failed — stopped by a legal hold placed before it began, or out of
 * attempts; `error` says why in the caller's language, and carrying the disposition out again continues
 * where it stopped.
 */
export const dispositionJobSchema = z.object({
  id: z.number().int(),
  state: z.enum(['queued', 'running', 'failed']),
  phase: z.enum(DISPOSITION_PHASES),
  /** Documents (or stored files, while removing) handled in this phase, of `total`. */
  done: z.number().int(),
  total: z.number().int(),
  /** The whole job's progress, 0–100. */
  percent: z.number(),
  error: z.string().nullable(),
});
export type DispositionJob = z.infer<typeof dispositionJobSchema>;

/** GET /records/dispositions/{id}/progress: where a disposition stands, without its record (followed every second). */
export const dispositionProgressSchema = z.object({
  id: z.number().int(),
  state: z.enum(DISPOSITION_VIEW_STATES),
  job: dispositionJobSchema.nullable(),
});
export type DispositionProgress = z.infer<typeof dispositionProgressSchema>;

export const dispositionSchema = z.object({
  id: z.number().int(),
  file: z.object({ id: z.number().int(), code: z.string(), titleAr: z.string(), titleEn: z.string() }),
  action: z.enum(DISPOSITION_ACTIONS),
  state: z.enum(DISPOSITION_VIEW_STATES),
  legalReference: z.string(),
  note: z.string().nullable(),
  proposedBy: namedRefSchema.nullable(),
  proposedAt: z.string(),
  approvedBy: namedRefSchema.nullable(),
  approvedAt: z.string().nullable(),
  /** Who asked for it to be carried out (from the moment they asked). */
  executedBy: namedRefSchema.nullable(),
  /** When it was carried out (a destruction: when its last document was deleted). */
  executedAt: z.string().nullable(),
  /**
   * The documents as they were when it was carried out (destruction: all that is left of them; while the
   * destruction runs, those deleted so far).
   */
  record: z.array(disposedDocumentSchema),
  /** SHA-256 of the certificate (destruction) or the package (transfer), once made. */
  outputSha256: z.string().nullable(),
  /** Its job, while approved or executing and one was queued; null otherwise. */
  job: dispositionJobSchema.nullable(),
});
export type Disposition = z.infer<typeof dispositionSchema>;

/** A file whose retention has run out (closed on + years <= today), with what stops it if anything. */
export const dueFileSchema = recordFileSchema.extend({
  /** Its disposition under way, when there is one. */
  disposition: z.object({ id: z.number().int(), state: z.enum(DISPOSITION_VIEW_STATES) }).nullable(),
});
export type DueFile = z.infer<typeof dueFileSchema>;

export const proposeSchema = z
  .object({ fileId: refIdField, note: z.string().trim().pipe(multilineText(1000)).nullable().optional() })
  .strict();
export type ProposeRequest = z.input<typeof proposeSchema>;

// ---------------------------------------------------------------- holds

export const legalHoldSchema = z.object({
  id: z.number().int(),
  documentId: z.number().int().nullable(),
  fileId: z.number().int().nullable(),
  /** The document's number or the file's code. */
  target: z.string(),
  reason: z.string(),
  placedBy: namedRefSchema.nullable(),
  placedAt: z.string(),
  liftedBy: namedRefSchema.nullable(),
  liftedAt: z.string().nullable(),
});
export type LegalHold = z.infer<typeof legalHoldSchema>;

/** POST /records/holds: on a document or on a file (one of the two). */
export const placeHoldSchema = z
  .object({
    documentId: refIdField.optional(),
    fileId: refIdField.optional(),
    reason: z.string().trim().pipe(multilineText(1000, 1)),
  })
  .strict()
  .refine((v) => (v.documentId === undefined) !== (v.fileId === undefined), {
    message: 'records.holdTarget',
    path: ['documentId'],
  });
export type PlaceHoldRequest = z.input<typeof placeHoldSchema>;
export const holdListQuerySchema = z.object({ active: z.enum(['true', 'false']).optional() }).strict();

// ---------------------------------------------------------------- endpoints

const files = PAGES.recordFiles;
const schedules = PAGES.retentionSchedules;
const disposition = PAGES.disposition;
const holds = PAGES.legalHolds;
const tags = ['records'] as const;

export const recordsEndpoints = {
  listFiles: endpoint({
    method: 'GET',
    path: '/records/files',
    query: fileListQuerySchema,
    response: z.array(recordFileSchema),
    access: { page: files, permission: 'view' },
    tags,
    summary: 'Files, newest first (a search on code and titles)',
  }),
  pickFiles: endpoint({
    method: 'GET',
    path: '/records/files/open',
    query: z.object({ q: z.string().max(100).optional() }).strict(),
    response: z.array(recordFileSchema.pick({ id: true, code: true, titleAr: true, titleEn: true })),
    access: 'authenticated',
    tags,
    summary: 'Open files a document may be filed in (the document form’s picker)',
  }),
  getFile: endpoint({
    method: 'GET',
    path: '/records/files/:id',
    params: idParamsSchema,
    response: recordFileSchema,
    access: { page: files, permission: 'view' },
    tags,
    summary: 'One file',
  }),
  fileDocuments: endpoint({
    method: 'GET',
    path: '/records/files/:id/documents',
    params: idParamsSchema,
    response: z.array(fileDocumentSchema),
    access: { page: files, permission: 'view' },
    tags,
    summary: 'The documents of a file, in registration order',
  }),
  createFile: endpoint({
    method: 'POST',
    path: '/records/files',
    body: createFileSchema,
    response: recordFileSchema,
    status: 201,
    access: { page: files, permission: 'add' },
    tags,
    summary: 'Open a file',
  }),
  updateFile: endpoint({
    method: 'PUT',
    path: '/records/files/:id',
    params: idParamsSchema,
    body: updateFileSchema,
    response: recordFileSchema,
    access: { page: files, permission: 'edit' },
    tags,
    summary: 'Change a file (its code, titles, department, retention)',
  }),
  closeFile: endpoint({
    method: 'POST',
    path: '/records/files/:id/close',
    params: idParamsSchema,
    body: closeFileSchema,
    response: recordFileSchema,
    message: 'records.closed',
    access: { page: files, permission: 'edit' },
    tags,
    summary: 'Close a file: it takes no new documents; its retention runs from this day',
  }),
  reopenFile: endpoint({
    method: 'POST',
    path: '/records/files/:id/reopen',
    params: idParamsSchema,
    response: recordFileSchema,
    message: 'records.fileReopened',
    access: { page: files, permission: 'edit' },
    tags,
    summary: 'Reopen a closed file (not one disposed of, nor one with a disposition under way)',
  }),
  moveDocument: endpoint({
    method: 'POST',
    path: '/records/files/:id/documents',
    params: idParamsSchema,
    body: moveDocumentSchema,
    response: recordFileSchema,
    message: 'records.documentMoved',
    access: { page: files, permission: 'edit' },
    tags,
    summary: 'Move a document into an open file',
  }),
  listSchedules: endpoint({
    method: 'GET',
    path: '/records/schedules',
    response: z.array(retentionScheduleSchema),
    access: { page: schedules, permission: 'view' },
    tags,
    summary: 'The retention schedules, one per codification',
  }),
  putSchedule: endpoint({
    method: 'PUT',
    path: '/records/schedules/:codificationId',
    params: codificationParamsSchema,
    body: scheduleRequestSchema,
    response: retentionScheduleSchema,
    access: { page: schedules, permission: 'edit' },
    tags,
    summary: 'Set a codification’s retention schedule',
  }),
  deleteSchedule: endpoint({
    method: 'DELETE',
    path: '/records/schedules/:codificationId',
    params: codificationParamsSchema,
    response: z.null(),
    message: 'records.scheduleRemoved',
    access: { page: schedules, permission: 'delete' },
    tags,
    summary: 'Remove a codification’s retention schedule',
  }),
  due: endpoint({
    method: 'GET',
    path: '/records/disposition/due',
    response: z.array(dueFileSchema),
    access: { page: disposition, permission: 'view' },
    tags,
    summary: 'Closed files whose retention has run out on the organisation’s today',
  }),
  listDispositions: endpoint({
    method: 'GET',
    path: '/records/dispositions',
    response: z.array(dispositionSchema),
    access: { page: disposition, permission: 'view' },
    tags,
    summary: 'Dispositions, newest first',
  }),
  getDisposition: endpoint({
    method: 'GET',
    path: '/records/dispositions/:id',
    params: idParamsSchema,
    response: dispositionSchema,
    access: { page: disposition, permission: 'view' },
    tags,
    summary: 'One disposition',
  }),
  dispositionProgress: endpoint({
    method: 'GET',
    path: '/records/dispositions/:id/progress',
    params: idParamsSchema,
    response: dispositionProgressSchema,
    access: { page: disposition, permission: 'view' },
    tags,
    summary: 'Where a disposition being carried out stands: its state and its job, without its record',
  }),
  propose: endpoint({
    method: 'POST',
    path: '/records/dispositions',
    body: proposeSchema,
    response: dispositionSchema,
    status: 201,
    message: 'records.proposed',
    access: { page: disposition, permission: 'add' },
    tags,
    summary: 'Propose the disposition of a file that is due',
  }),
  approve: endpoint({
    method: 'POST',
    path: '/records/dispositions/:id/approve',
    params: idParamsSchema,
    response: dispositionSchema,
    message: 'records.approved',
    access: { page: disposition, permission: 'approve' },
    tags,
    summary: 'Approve a proposed disposition (by someone other than its proposer)',
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/records/dispositions/:id/cancel',
    params: idParamsSchema,
    response: dispositionSchema,
    message: 'records.cancelled',
    access: { page: disposition, permission: 'add' },
    tags,
    summary: 'Cancel a disposition not yet carried out',
  }),
  execute: endpoint({
    method: 'POST',
    path: '/records/dispositions/:id/execute',
    params: idParamsSchema,
    response: dispositionSchema,
    status: 202,
    message: 'records.executing',
    access: { page: disposition, permission: 'edit' },
    tags,
    summary: 'Carry out an approved disposition: destroy the file, or transfer it as a BagIt package',
    description:
      'Checks the disposition (approved, no legal hold in force) and queues the background job that carries ' +
      'it out; answers 202 with the disposition `executing` and its `job`, to be followed with GET ' +
      '…/dispositions/{id} until `done`. Asked again while its job is queued or running, it answers the same ' +
      'job; after the job failed, a new one continues where it stopped.',
  }),
  certificate: endpoint({
    method: 'GET',
    path: '/records/dispositions/:id/certificate',
    params: idParamsSchema,
    response: fileAnswer,
    bytes: 'application/pdf',
    access: { page: disposition, permission: 'view' },
    tags,
    summary: 'The certificate of destruction (PDF, Arabic and English)',
  }),
  package: endpoint({
    method: 'GET',
    path: '/records/dispositions/:id/package',
    params: idParamsSchema,
    response: fileAnswer,
    bytes: 'application/gzip',
    access: { page: disposition, permission: 'view' },
    tags,
    summary: 'The transfer package: a BagIt bag (RFC 8493) as a .tar.gz',
  }),
  listHolds: endpoint({
    method: 'GET',
    path: '/records/holds',
    query: holdListQuerySchema,
    response: z.array(legalHoldSchema),
    access: { page: holds, permission: 'view' },
    tags,
    summary: 'Legal holds, newest first',
  }),
  placeHold: endpoint({
    method: 'POST',
    path: '/records/holds',
    body: placeHoldSchema,
    response: legalHoldSchema,
    status: 201,
    message: 'records.holdPlaced',
    access: { page: holds, permission: 'add' },
    tags,
    summary: 'Place a legal hold on a document or a file',
  }),
  liftHold: endpoint({
    method: 'POST',
    path: '/records/holds/:id/lift',
    params: idParamsSchema,
    response: legalHoldSchema,
    message: 'records.holdLifted',
    access: { page: holds, permission: 'delete' },
    tags,
    summary: 'Lift a legal hold',
  }),
} as const;
