/**
 * Request and response schemas of the correspondence core (docs/api.md, "Correspondence"): the settings lists,
 * documents (drafts, registration, numbers), boxes, distribution, tasks, follow-ups, the timeline,
 * attachments, related documents and the user's calendar. The server validates with these; the screens
 * type their calls with them. Dates are `YYYY-MM-DD`, instants ISO 8601 strings.
 */
import { z } from 'zod';
import { A4_SHEET_LABELS, LABEL_SIZES } from '../paper-codes';
import { listQuerySchema } from '../filters';
import { problemSchema } from './envelope';
import {
  dateOnlyField,
  decimalParam,
  idempotencyKeyHeader,
  instantField,
  int4,
  multilineText,
  nameField,
  refIdField,
  text,
} from './fields';

export { idParamsSchema, setActiveSchema, type IdParams, type SetActive } from './fields';

// ---------------------------------------------------------------- building blocks

export { dateOnlyField, refIdField } from './fields';

/** Another record as a document shows it: id and both names. */
export const namedRefSchema = z.object({ id: z.number().int(), nameAr: z.string(), nameEn: z.string() });
export type NamedRef = z.infer<typeof namedRefSchema>;

/** A person as the timeline and tasks show them (a user or an employee): id and both names. */
export const personRefSchema = namedRefSchema;
export type PersonRef = NamedRef;

/** Multi-line free text (summary, notes): up to `max` characters, newlines allowed. */
export const longText = (max: number) => multilineText(max);

// ---------------------------------------------------------------- settings lists

/** The five settings lists, by their path segment under /correspondence/settings/. */
export const SETTINGS_LISTS = [
  'mediums',
  'priorities',
  'security-levels',
  'codifications',
  'main-distribution',
] as const;
export type SettingsList = (typeof SETTINGS_LISTS)[number];

/** Codification directions: incoming, outgoing, internal, memo. */
export const DIRECTIONS = ['in', 'out', 'internal', 'memo'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * What each list holds beyond the common fields, declared as data (the generic list-and-form block of
 * docs/style.md reads this to build its columns and form fields):
 * - `names`: the item has its own nameAr/nameEn (main distribution shows its department's names);
 * - `level`: an ordering rank (priorities, security levels; higher is more urgent / more secret);
 * - `prefix` and `direction`: a codification's number prefix and the documents it numbers;
 * - `department`: the item is a department (main distribution).
 */
export const SETTINGS_LIST_FIELDS: Record<
  SettingsList,
  { names: boolean; level: boolean; prefix: boolean; direction: boolean; department: boolean }
> = {
  mediums: { names: true, level: false, prefix: false, direction: false, department: false },
  priorities: { names: true, level: true, prefix: false, direction: false, department: false },
  'security-levels': { names: true, level: true, prefix: false, direction: false, department: false },
  codifications: { names: true, level: false, prefix: true, direction: true, department: false },
  'main-distribution': { names: false, level: false, prefix: false, direction: false, department: true },
};

/** One item of any settings list (fields a list does not use are null). */
export const settingItemSchema = z.object({
  id: z.number().int(),
  list: z.enum(SETTINGS_LISTS),
  /** For main distribution: the department's names. */
  nameAr: z.string(),
  nameEn: z.string(),
  level: z.number().int().nullable(),
  prefix: z.string().nullable(),
  direction: z.enum(DIRECTIONS).nullable(),
  department: namedRefSchema.nullable(),
  /** Display order within the list (main distribution: the order departments are offered in). */
  order: z.number().int(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SettingItem = z.infer<typeof settingItemSchema>;

/** A picker option of a settings list (GET /correspondence/settings/{list}/options: active items only). */
export const settingOptionSchema = settingItemSchema.pick({
  id: true,
  nameAr: true,
  nameEn: true,
  level: true,
  prefix: true,
  direction: true,
  department: true,
  order: true,
});
export type SettingOption = z.infer<typeof settingOptionSchema>;

/** A codification prefix: capital letters and digits, 1..10, e.g. `IN`, `OUT`, `M2`. */
export const prefixField = z
  .string()
  .min(1)
  .max(10)
  .regex(/^[A-Z][A-Z0-9]*$/, { message: 'validation.invalid' });

const orderField = int4(0, 1_000_000);
const levelField = int4(0, 1000);

/**
 * The create body of each list (strict: a field the list does not use is refused). Keys are the list
 * names; POST /correspondence/settings/{list} validates with the entry of its list.
 */
export const settingCreateSchemas = {
  mediums: z
    .object({
      nameAr: nameField,
      nameEn: nameField,
      order: orderField.default(0),
      active: z.boolean().default(true),
    })
    .strict(),
  priorities: z
    .object({
      nameAr: nameField,
      nameEn: nameField,
      level: levelField,
      order: orderField.default(0),
      active: z.boolean().default(true),
    })
    .strict(),
  'security-levels': z
    .object({
      nameAr: nameField,
      nameEn: nameField,
      level: levelField,
      order: orderField.default(0),
      active: z.boolean().default(true),
    })
    .strict(),
  codifications: z
    .object({
      nameAr: nameField,
      nameEn: nameField,
      prefix: prefixField,
      direction: z.enum(DIRECTIONS),
      order: orderField.default(0),
      active: z.boolean().default(true),
    })
    .strict(),
  'main-distribution': z
    .object({ departmentId: refIdField, order: orderField.default(0), active: z.boolean().default(true) })
    .strict(),
} as const satisfies Record<SettingsList, z.ZodType>;

/** The edit body of each list: the same fields, each optional (PUT /correspondence/settings/{list}/{id}). */
export const settingUpdateSchemas = {
  mediums: settingCreateSchemas.mediums.partial().strict(),
  priorities: settingCreateSchemas.priorities.partial().strict(),
  'security-levels': settingCreateSchemas['security-levels'].partial().strict(),
  codifications: settingCreateSchemas.codifications.partial().strict(),
  'main-distribution': settingCreateSchemas['main-distribution'].partial().strict(),
} as const satisfies Record<SettingsList, z.ZodType>;

/** Any list's create body, as the server's service receives it after validation. */
export type SettingCreate = {
  nameAr?: string;
  nameEn?: string;
  level?: number;
  prefix?: string;
  direction?: Direction;
  departmentId?: number;
  order?: number;
  active?: boolean;
};
export type SettingUpdate = Partial<SettingCreate>;

/** GET /correspondence/settings/{list}: the common list query. */
export const settingsListQuerySchema = listQuerySchema.strict();
export type SettingsListQuery = z.infer<typeof settingsListQuerySchema>;
/** Sortable and filterable fields of a settings list. */
export const SETTINGS_LIST_QUERY_FIELDS = [
  'id',
  'nameAr',
  'nameEn',
  'level',
  'prefix',
  'direction',
  'order',
  'active',
  'createdAt',
] as const;

/**
 * PUT /correspondence/settings/security-levels/clearance/{userId}: a user's clearance (the highest security
 * level they may see). Null gives back the default: the lowest active level.
 */
export const setClearanceRequestSchema = z.object({ securityLevelId: refIdField.nullable() }).strict();
export type SetClearanceRequest = z.infer<typeof setClearanceRequestSchema>;
export const clearanceSchema = z.object({
  userId: z.number().int(),
  securityLevel: namedRefSchema.extend({ level: z.number().int() }).nullable(),
});
export type Clearance = z.infer<typeof clearanceSchema>;

// ---------------------------------------------------------------- documents

/**
 * Document states. Incoming: draft → registered (numbered by the archive office). Outgoing and memos pass
 * an approval circuit: draft (the specification's "new") → approving → approved (numbered when the
 * signatory approves); an approver may send it back to its author as changesRequested (edited and
 * resubmitted) or end it as rejected (the author may revise it into a new submission).
 */
export const DOCUMENT_STATES = [
  'draft',
  'registered',
  'approving',
  'changesRequested',
  'rejected',
  'approved',
] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

/** States in which a document is a numbered record (registered incoming, approved outgoing and memos). */
export const FILED_STATES = ['registered', 'approved'] as const satisfies readonly DocumentState[];
/** States in which the author may edit a document of a circuit. */
export const AUTHOR_STATES = [
  'draft',
  'changesRequested',
  'rejected',
] as const satisfies readonly DocumentState[];

/** The outgoing status of specification section 4 (new, approving, approved), with the two returns. */
export const APPROVAL_STATUSES = ['new', 'approving', 'approved', 'changesRequested', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** Kinds of circuit step: people giving their opinion (in parallel), and the signatory (the last step). */
export const APPROVAL_STEP_KINDS = ['opinion', 'sign'] as const;
export type ApprovalStepKind = (typeof APPROVAL_STEP_KINDS)[number];

/** What an approver answers when it is their turn. */
export const APPROVAL_DECISIONS = ['approved', 'rejected', 'changesRequested'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];
export const APPROVAL_ACTIONS = ['approve', 'reject', 'requestChanges'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** Distribution types: for action (shown as Main / للإجراء) or for knowledge (Knowledge / للعلم). */
export const DISTRIBUTION_TYPES = ['forAction', 'forKnowledge'] as const;
export type DistributionType = (typeof DISTRIBUTION_TYPES)[number];

/** Task states and the transitions the server allows: new → inProgress → completed (and new → completed). */
export const TASK_STATES = ['new', 'inProgress', 'completed'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const TASK_TRANSITIONS: Record<TaskState, readonly TaskState[]> = {
  new: ['inProgress', 'completed'],
  inProgress: ['completed'],
  completed: [],
};

/** The states of reading an attachment's text (src-server/modules/search). */
export const TEXT_STATUSES = ['pending', 'reading', 'done', 'failed'] as const;
export type TextStatus = (typeof TEXT_STATUSES)[number];
/** How a page's text was found: its text layer, OCR of its image, or nothing on it. */
export const PAGE_TEXT_METHODS = ['text', 'ocr', 'empty'] as const;

/**
 * What an attachment is to its document: part of its content (what its author wrote and its approvers
 * approved; for an incoming letter, the scans of the paper received), or something added after an outgoing
 * letter or memo was approved — a scan of the signed paper copy, a delivery receipt, another later
 * paper — which never changes the approved version (src-server/modules/correspondence/content.ts).
 */
export const ATTACHMENT_KINDS = ['content', 'signedCopy', 'deliveryReceipt', 'other'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];
/** The kinds of an addition after approval (everything but `content`). */
export const ADDITION_KINDS = ['signedCopy', 'deliveryReceipt', 'other'] as const;
export type AdditionKind = (typeof ADDITION_KINDS)[number];

/** An attachment's metadata. Content is PDF (checked by its bytes), stored content-addressed. */
export const attachmentSchema = z.object({
  id: z.number().int(),
  documentId: z.number().int(),
  fileName: z.string(),
  contentType: z.string(),
  /** Size in bytes. */
  size: z.number().int(),
  /** SHA-256 (hex) of the content. */
  sha256: z.string(),
  uploadedBy: personRefSchema.nullable(),
  createdAt: z.string(),
  /** Part of the document's content, or added after its approval (and which kind of addition). */
  kind: z.enum(ATTACHMENT_KINDS),
  /** Reading its text for search: pending, reading (with pages read of pages), done or failed. */
  text: z.object({
    status: z.enum(TEXT_STATUSES),
    pagesDone: z.number().int().nullable(),
    pages: z.number().int().nullable(),
  }),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** GET …/attachments/{id}/text: the text the server read from each page, and how. */
export const attachmentTextSchema = z.object({
  status: z.enum(TEXT_STATUSES),
  pages: z.array(z.object({ page: z.number().int(), method: z.enum(PAGE_TEXT_METHODS), text: z.string() })),
});
export type AttachmentText = z.infer<typeof attachmentTextSchema>;

/** A related document as the other document lists it (links go both ways). */
export const relatedDocumentSchema = z.object({
  id: z.number().int(),
  direction: z.enum(DIRECTIONS),
  state: z.enum(DOCUMENT_STATES),
  docNumber: z.string().nullable(),
  subject: z.string(),
  documentDate: z.string().nullable(),
});
export type RelatedDocument = z.infer<typeof relatedDocumentSchema>;

/**
 * An uploaded attachment as the upload answers it: with the other documents (the caller may see) that
 * already hold the same file by content, so the clerk can relate them instead of keeping a second copy.
 */
export const uploadedAttachmentSchema = attachmentSchema.extend({
  alsoIn: z.array(relatedDocumentSchema),
});
export type UploadedAttachment = z.infer<typeof uploadedAttachmentSchema>;

/**
 * POST /correspondence/intake (a scanning station): one PDF in, as a new incoming draft or, when
 * `number` names a document, as an attachment of it. `Idempotency-Key` (header, per user) makes a retry
 * answer what the first upload made (`replayed`) instead of registering the file twice; the key sent
 * with another file (content, name or number) is refused, 422 `idempotency.keyReused`.
 */
export const intakeHeadersSchema = z.looseObject({ 'idempotency-key': idempotencyKeyHeader });
export const intakeQuerySchema = z.object({ number: z.string().max(40).optional() }).strict();
/** One document cut out of a scanned batch by its codes: what it became, and the batch's pages it holds. */
export const intakePartSchema = z.object({
  documentId: z.number().int(),
  attachmentId: z.number().int().nullable(),
  docNumber: z.string().nullable(),
  subject: z.string(),
  /** The batch's pages in this part, from 1, in order (separator and cover sheets are in none). */
  pages: z.array(z.number().int()),
});
export type IntakePart = z.infer<typeof intakePartSchema>;
export const intakeResultSchema = z.object({
  documentId: z.number().int(),
  attachmentId: z.number().int().nullable(),
  docNumber: z.string().nullable(),
  subject: z.string(),
  /** True when this answers a retry of an upload already received. */
  replayed: z.boolean(),
  /**
   * A batch cut by the codes on its pages (separator and cover sheets, registration stickers:
   * src-shared/paper-codes.ts): every document it made, in batch order; the fields above are the first's.
   * Absent: the file was taken whole.
   */
  parts: z.array(intakePartSchema).optional(),
});
export type IntakeResult = z.infer<typeof intakeResultSchema>;

/** Files one intake batch may carry (a scanner's batch is sent in several when larger). */
export const INTAKE_BATCH_MAX_FILES = 64;

/**
 * POST /correspondence/intake/batch (a scanning station with a backlog): several PDFs in one request,
 * each handled exactly as POST /correspondence/intake handles one. The request is multipart: first a
 * field `manifest` (this schema, JSON), then one part `file` per entry, in the same order. Each entry
 * carries its own idempotency key (what the single route takes as its header) and, when the file's
 * name carries one, the registration number it is filed under. Keys are unique within a batch.
 */
export const intakeBatchManifestSchema = z
  .object({
    files: z
      .array(
        z
          .object({
            key: idempotencyKeyHeader,
            number: z.string().max(40).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(INTAKE_BATCH_MAX_FILES),
  })
  .strict()
  .superRefine((manifest, issues) => {
    const seen = new Set<string>();
    manifest.files.forEach((file, i) => {
      if (seen.has(file.key))
        issues.addIssue({ code: 'custom', path: ['files', i, 'key'], message: 'validation.duplicate' });
      seen.add(file.key);
    });
  });
export type IntakeBatchManifest = z.infer<typeof intakeBatchManifestSchema>;

/**
 * What a batch made, file by file in the manifest's order: the status the single route would have
 * answered (201 made, 200 a retry replayed, 4xx refused) with its result, or the problem that refused it.
 * A refusal of one file never refuses the others.
 */
export const intakeBatchResultSchema = z.object({
  results: z.array(
    z.object({
      key: z.string(),
      status: z.number().int(),
      result: intakeResultSchema.optional(),
      problem: problemSchema.optional(),
    }),
  ),
});
export type IntakeBatchResult = z.infer<typeof intakeBatchResultSchema>;

/**
 * A correspondence document: every field of specification section 3.
 * - `docNumber`: the full registration reference given at registration, `<prefix>-<year>-<sequence>`
 *   (src-shared/numbering.ts) — the inbox number of an incoming letter, the outbox number of an outgoing
 *   one, the memo number of a memo. `sequence` is its number within codification and year. Null on drafts.
 * - `senderDocumentNumber`: the reference the sender wrote on the letter.
 * - `sender`: the sending department (usually external); `receiver`: the person or title addressed (text);
 *   `department`: the owning department (the registering office's); `recipientDepartment`: the
 *   department the letter is addressed to.
 * - `file`: the file the document belongs to (records management, docs/records.md); `grouping` is its code
 *   (the free-text field it replaced, kept for older clients).
 */
export const documentSchema = z.object({
  id: z.number().int(),
  direction: z.enum(DIRECTIONS),
  state: z.enum(DOCUMENT_STATES),
  docNumber: z.string().nullable(),
  sequence: z.number().int().nullable(),
  year: z.number().int().nullable(),
  senderDocumentNumber: z.string().nullable(),
  subject: z.string(),
  summary: z.string().nullable(),
  sender: namedRefSchema.nullable(),
  receiver: z.string().nullable(),
  receivedDate: z.string().nullable(),
  documentDate: z.string().nullable(),
  codification: namedRefSchema.extend({ prefix: z.string() }).nullable(),
  securityLevel: namedRefSchema.extend({ level: z.number().int() }).nullable(),
  priority: namedRefSchema.extend({ level: z.number().int() }).nullable(),
  department: namedRefSchema.nullable(),
  recipientDepartment: namedRefSchema.nullable(),
  medium: namedRefSchema.nullable(),
  file: z
    .object({
      id: z.number().int(),
      code: z.string(),
      titleAr: z.string(),
      titleEn: z.string(),
      /** Closed or disposed of: it takes no new documents. */
      closed: z.boolean(),
    })
    .nullable(),
  grouping: z.string().nullable(),
  /** Some distribution exists (distributed / not distributed). */
  distributed: z.boolean(),
  /** Every for-action distribution is completed (false while none exists). */
  completed: z.boolean(),
  /** The caller follows this document. */
  followed: z.boolean(),
  /**
   * Outgoing: the receivers (external entities); memo: the recipient departments; in the author's order.
   * Incoming: empty (its recipient is `recipientDepartment`).
   */
  recipients: z.array(namedRefSchema),
  /** Raised by every change of the fields or attachments; approvals are given to a version. */
  version: z.number().int(),
  /** Outgoing and memos: the approval circuit (null for incoming, and before a first submission). */
  approval: z.lazy(() => approvalSchema).nullable(),
  /** Outgoing, once approved: how the archive office dispatched it (null until dispatched). */
  dispatch: z.lazy(() => dispatchSchema).nullable(),
  related: z.array(relatedDocumentSchema),
  attachments: z.array(attachmentSchema),
  /** Incoming, once registered: the reply it needs and its state (null for other documents and drafts). */
  reply: z.lazy(() => replyDueSchema).nullable(),
  /** What the caller may do to it (the server enforces the same rules on each action). */
  abilities: z.object({
    /** Distribute to departments: the archive office holding it (or an administrator). */
    distribute: z.boolean(),
    /** Assign tasks: the manager or secretary of a department it is distributed to. */
    assignTasks: z.boolean(),
    /** The distributions (ids) the caller may assign tasks under: those of departments they lead. */
    assignTasksFor: z.array(z.number().int()),
    /** Edit the fields and attachments: the author, while it is a draft or back with them. */
    edit: z.boolean(),
    /** Submit to (or resubmit into) the approval circuit: the author of an outgoing letter or memo. */
    submit: z.boolean(),
    /** Approve, reject or request changes: it is the caller's turn in the circuit. */
    decide: z.boolean(),
    /** The turn is a delegator's, taken by the caller as their delegate (issue 28). */
    decideOnBehalfOf: namedRefSchema.nullable().optional(),
    /** Record the dispatch of an approved outgoing letter: its archive office. */
    dispatch: z.boolean(),
    /**
     * Add a file after approval (a scan of the signed copy, a delivery receipt) to an approved outgoing
     * letter or memo: its archive office.
     */
    addAfterApproval: z.boolean(),
  }),
  createdBy: personRefSchema.nullable(),
  registeredBy: personRefSchema.nullable(),
  createdAt: z.string(),
  registeredAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type Document = z.infer<typeof documentSchema>;

const documentFields = {
  senderDocumentNumber: text(1, 100).nullable(),
  subject: text(1, 500),
  summary: longText(10_000).nullable(),
  senderDepartmentId: refIdField.nullable(),
  receiver: text(1, 200).nullable(),
  recipientIds: z.array(refIdField).max(50),
  receivedDate: dateOnlyField.nullable(),
  documentDate: dateOnlyField.nullable(),
  codificationId: refIdField.nullable(),
  securityLevelId: refIdField.nullable(),
  priorityId: refIdField.nullable(),
  departmentId: refIdField.nullable(),
  recipientDepartmentId: refIdField.nullable(),
  mediumId: refIdField.nullable(),
  /** The file the document belongs to (an open one). */
  fileId: refIdField.nullable(),
  /** Older clients: the file by its code (the free-text grouping it replaced); `fileId` wins. */
  grouping: text(1, 200).nullable(),
};

/**
 * POST /correspondence/documents: a draft (no number). With `register: true` it is registered in the same
 * call (the add form's "register" button); registration needs codification, subject, document date and,
 * for incoming, sender and recipient department. `relatedIds` link other documents both ways.
 */
export const createDocumentRequestSchema = z
  .object({
    direction: z.enum(DIRECTIONS),
    subject: documentFields.subject,
    senderDocumentNumber: documentFields.senderDocumentNumber.optional(),
    summary: documentFields.summary.optional(),
    senderDepartmentId: documentFields.senderDepartmentId.optional(),
    receiver: documentFields.receiver.optional(),
    receivedDate: documentFields.receivedDate.optional(),
    documentDate: documentFields.documentDate.optional(),
    codificationId: documentFields.codificationId.optional(),
    securityLevelId: documentFields.securityLevelId.optional(),
    priorityId: documentFields.priorityId.optional(),
    departmentId: documentFields.departmentId.optional(),
    recipientDepartmentId: documentFields.recipientDepartmentId.optional(),
    mediumId: documentFields.mediumId.optional(),
    fileId: documentFields.fileId.optional(),
    grouping: documentFields.grouping.optional(),
    recipientIds: documentFields.recipientIds.optional(),
    relatedIds: z.array(refIdField).max(50).optional(),
    /**
     * Incoming: the date a reply is due by. Omitted: proposed at registration from the priority (working
     * days, the deadline settings); null: no reply needed.
     */
    replyDueOn: dateOnlyField.nullable().optional(),
    register: z.boolean().default(false),
  })
  .strict();
export type CreateDocumentRequest = z.infer<typeof createDocumentRequestSchema>;

/**
 * POST /correspondence/documents may carry an `Idempotency-Key` (per user; a client that sends again what
 * it is not sure arrived, such as offline drafts): a retry with the key and the same body answers the
 * document the first request made (200) instead of creating another; with another body it is refused,
 * 422 `idempotency.keyReused`. Other headers pass (the object is loose).
 */
export const createDocumentHeadersSchema = z.looseObject({
  'idempotency-key': idempotencyKeyHeader.optional(),
});

/**
 * PUT /correspondence/documents/{id}: the fields to change. A draft changes freely; a registered document
 * keeps its direction, codification and number (those fields answer 422).
 */
export const updateDocumentRequestSchema = z
  .object({
    subject: documentFields.subject.optional(),
    senderDocumentNumber: documentFields.senderDocumentNumber.optional(),
    summary: documentFields.summary.optional(),
    senderDepartmentId: documentFields.senderDepartmentId.optional(),
    receiver: documentFields.receiver.optional(),
    receivedDate: documentFields.receivedDate.optional(),
    documentDate: documentFields.documentDate.optional(),
    codificationId: documentFields.codificationId.optional(),
    securityLevelId: documentFields.securityLevelId.optional(),
    priorityId: documentFields.priorityId.optional(),
    departmentId: documentFields.departmentId.optional(),
    recipientDepartmentId: documentFields.recipientDepartmentId.optional(),
    mediumId: documentFields.mediumId.optional(),
    fileId: documentFields.fileId.optional(),
    grouping: documentFields.grouping.optional(),
    recipientIds: documentFields.recipientIds.optional(),
    /** Incoming draft: the reply's due date kept for its registration (null: none given yet). */
    replyDueOn: dateOnlyField.nullable().optional(),
  })
  .strict();
export type UpdateDocumentRequest = z.infer<typeof updateDocumentRequestSchema>;

/** An entity tag carrying a document's version: `7`, `"7"` or `W/"7"` (up to ten digits). */
export const VERSION_TAG = /^(?:([0-9]{1,10})|"([0-9]{1,10})"|W\/"([0-9]{1,10})")$/;

/** The version an `If-Match` header names (it matched VERSION_TAG). */
export function versionOfTag(tag: string): number {
  const m = VERSION_TAG.exec(tag);
  return Number(m?.[1] ?? m?.[2] ?? m?.[3] ?? NaN);
}

/**
 * PUT /correspondence/documents/{id} may carry `If-Match` with the version the client edited (the
 * Document's `version`, also its `ETag`): when the document has moved on, 409 `document.versionConflict`
 * and nothing is written.
 */
export const updateDocumentHeadersSchema = z.looseObject({
  'if-match': z.string().regex(VERSION_TAG, { message: 'validation.ifMatch' }).optional(),
});

/** POST /correspondence/documents/{id}/related: link documents (both directions). */
export const relateRequestSchema = z.object({ documentIds: z.array(refIdField).min(1).max(50) }).strict();
export type RelateRequest = z.infer<typeof relateRequestSchema>;
/**
 * GET /correspondence/documents/lookup?q=: documents the caller may see, of any direction, to link as
 * related (by number, sender's number or subject; newest first; at most 20). Drafts are the caller's own.
 */
/**
 * GET /correspondence/documents/{id}/sticker: the registration sticker's size (src-shared/paper-codes.ts)
 * and, on an A4 sheet of labels, the position of the label to print on (1–24, counted left to right, top
 * to bottom).
 */
export const stickerQuerySchema = z
  .object({
    size: z.enum(LABEL_SIZES).default('70x35'),
    position: z
      .string()
      .regex(/^\d{1,2}$/, { message: 'validation.integer' })
      .transform(Number)
      .pipe(z.number().int().min(1).max(A4_SHEET_LABELS))
      .optional(),
  })
  .strict();
export type StickerQuery = z.input<typeof stickerQuerySchema>;

export const lookupQuerySchema = z.object({ q: text(0, 100).optional() }).strict();
export type LookupQuery = z.infer<typeof lookupQuerySchema>;

/**
 * GET /correspondence/documents/holders?sha256=…[&except=id]: the documents the caller may see that
 * already hold a file of this content (its SHA-256, lower-case hex), so a form can offer to link the
 * document instead of attaching the same file again; `except` leaves out the document being edited.
 */
export const holdersQuerySchema = z
  .object({
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'A SHA-256 in lower-case hexadecimal'),
    except: decimalParam(1).optional(),
  })
  .strict();
export type HoldersQuery = z.infer<typeof holdersQuerySchema>;

/** DELETE /correspondence/documents/{id}/related/{relatedId}. */
export const relatedParamsSchema = z.object({ id: decimalParam(1), relatedId: decimalParam(1) }).strict();

// ---------------------------------------------------------------- boxes

/** The boxes of GET /correspondence/boxes/{box}. */
export const BOXES = [
  'incoming',
  'follow-ups',
  'incoming-tasks',
  'inbox-drafts',
  'outgoing',
  'outbox-drafts',
  'awaiting-approval',
  'requiring-approval',
  'requiring-changes',
  'approved-memos',
  'memo-drafts',
  'memos-awaiting-approval',
  'memos-requiring-approval',
  'memos-requiring-changes',
] as const;
export type Box = (typeof BOXES)[number];
export const boxParamsSchema = z.object({ box: z.enum(BOXES) }).strict();

/** Completed / not completed views of a box (incoming: the item for the caller's department). */
export const BOX_VIEWS = ['all', 'completed', 'notCompleted'] as const;
export type BoxView = (typeof BOX_VIEWS)[number];

/** Days the date range reaches back by default (specification section 9). */
export const DEFAULT_DATE_RANGE_DAYS = 30;

/** What a box's date (`boxDate`) is: the moment a row entered the box. */
export const BOX_DATE_KINDS = [
  'registered',
  'assigned',
  'created',
  'approved',
  'submitted',
  'waiting',
] as const;
export type BoxDateKind = (typeof BOX_DATE_KINDS)[number];

/**
 * The date each box sorts and ranges by, its `boxDate`: the date range filters on it and nothing else,
 * and the list shows it in a column named after it (the range's label names the same date). Registration
 * (incoming, follow-ups), the task's assignment (incoming-tasks), creation (drafts), approval and
 * numbering (outgoing, approved memos), the last submission (the author's circuit boxes), the moment the
 * caller's turn came (requiring approval).
 */
export const BOX_DATE: Readonly<Record<Box, BoxDateKind>> = {
  incoming: 'registered',
  'follow-ups': 'registered',
  'incoming-tasks': 'assigned',
  'inbox-drafts': 'created',
  outgoing: 'approved',
  'outbox-drafts': 'created',
  'awaiting-approval': 'submitted',
  'requiring-approval': 'waiting',
  'requiring-changes': 'submitted',
  'approved-memos': 'approved',
  'memo-drafts': 'created',
  'memos-awaiting-approval': 'submitted',
  'memos-requiring-approval': 'waiting',
  'memos-requiring-changes': 'submitted',
};

/**
 * Boxes of work still to do (follow-ups, the approval boxes): listed whatever their age unless the user
 * picks a range; every other box starts with the last DEFAULT_DATE_RANGE_DAYS days.
 */
export const OPEN_ENDED_BOXES: ReadonlySet<Box> = new Set<Box>([
  'follow-ups',
  'awaiting-approval',
  'requiring-approval',
  'requiring-changes',
  'memos-awaiting-approval',
  'memos-requiring-approval',
  'memos-requiring-changes',
]);

/**
 * The state of a due date on a given day: past and not done (`overdue`), due within the reminder's
 * working days (`dueSoon`, deadline settings `remindDaysBefore`), later (`onTime`), done (`done`), or no
 * due date (`none`). The boxes filter on it: `filters={"dueState":{"constraints":[{"value":"overdue",
 * "matchMode":"equals"}]}}` (several values with the `or` operator).
 */
export const DUE_STATES = ['overdue', 'dueSoon', 'onTime', 'done', 'none'] as const;
export type DueState = (typeof DUE_STATES)[number];

/**
 * GET /correspondence/boxes/{box}: the common list query plus the date range (`fromDate`, `toDate`,
 * inclusive, on the box's date, BOX_DATE; default the last 30 days, none for OPEN_ENDED_BOXES) and the
 * completed view. `q` searches subject (Arabic-normalised), numbers and sender document number.
 */
export const boxQuerySchema = listQuerySchema
  .extend({
    /**
     * A day (`YYYY-MM-DD`, from its start in UTC) or an instant (the start of the user's own day: the
     * renderer sends instants, so the range's days are the days the list shows).
     */
    fromDate: z.union([dateOnlyField, instantField]).optional(),
    /** A day (`YYYY-MM-DD`, through its end in UTC) or an instant (through it). */
    toDate: z.union([dateOnlyField, instantField]).optional(),
    view: z.enum(BOX_VIEWS).default('all'),
    /**
     * The `next` of an answer to the same query (any page of it): the server reads `page` from that
     * position rather than from the top. `page` still decides which rows answer; a cursor of another
     * query is ignored.
     */
    after: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/)
      .max(4000)
      .optional(),
  })
  .strict();
export type BoxQuery = z.infer<typeof boxQuerySchema>;

/** Sortable and filterable fields of the boxes (filters use the match modes of src-shared/filters). */
export const BOX_FIELDS = [
  'id',
  'docNumber',
  'sequence',
  'subject',
  'senderDocumentNumber',
  'documentDate',
  'receivedDate',
  'registeredAt',
  'createdAt',
  'boxDate',
  'priorityLevel',
  'securityLevel',
  'senderId',
  'codificationId',
  'distributionType',
  'completed',
  'taskState',
  'taskDate',
  'dueDate',
] as const;

/** One row of a box: the document's list columns plus what the box adds. */
export const boxItemSchema = z.object({
  /** Unique within the box (a document can appear once per receiving department or task). */
  key: z.string(),
  documentId: z.number().int(),
  direction: z.enum(DIRECTIONS),
  state: z.enum(DOCUMENT_STATES),
  docNumber: z.string().nullable(),
  subject: z.string(),
  senderDocumentNumber: z.string().nullable(),
  sender: namedRefSchema.nullable(),
  documentDate: z.string().nullable(),
  receivedDate: z.string().nullable(),
  priority: namedRefSchema.extend({ level: z.number().int() }).nullable(),
  securityLevel: namedRefSchema.extend({ level: z.number().int() }).nullable(),
  registeredAt: z.string().nullable(),
  createdAt: z.string(),
  /** The date the box sorts and ranges by (what it is: BOX_DATE). */
  boxDate: z.string(),
  /** Incoming: the receiving department of this row and how it received it (null: the archive office's row). */
  distribution: z
    .object({
      id: z.number().int(),
      department: namedRefSchema,
      type: z.enum(DISTRIBUTION_TYPES),
      completed: z.boolean(),
    })
    .nullable(),
  /**
   * Incoming, on the archive office's own row (no distribution of its own): the departments the letter was
   * distributed to and how, action first; empty when it was not distributed (or on any other row).
   */
  recipients: z.array(z.object({ department: namedRefSchema, type: z.enum(DISTRIBUTION_TYPES) })),
  /** Outgoing letters and memos: the receivers (external entities) or recipient departments. */
  addressees: z.array(namedRefSchema),
  /** Distributed / not distributed. */
  distributed: z.boolean(),
  completed: z.boolean(),
  /** Incoming-tasks: the task of this row and who holds it. */
  task: z
    .object({
      id: z.number().int(),
      state: z.enum(TASK_STATES),
      taskDate: z.string().nullable(),
      tasker: personRefSchema,
    })
    .nullable(),
  /**
   * When this row is due: an incoming letter's reply, an approval step's answer, a task, a follow-up date;
   * an outgoing letter or memo in its circuit: its pending step's. `overdue`: past and not done.
   */
  dueDate: z.string().nullable(),
  overdue: z.boolean(),
  /** The due date's state today (the organisation's day): DUE_STATES. */
  dueState: z.enum(DUE_STATES),
  /** Overdue: by how many working days (null otherwise). */
  overdueDays: z.number().int().nullable(),
  /** Follow-ups: why it is there (an action item of the caller's department, or chosen to follow). */
  followReason: z.enum(['action', 'followed']).nullable(),
  /** Approval and task boxes: the person whose item this is, when the caller holds it as their delegate. */
  onBehalfOf: namedRefSchema.nullable(),
});
export type BoxItem = z.infer<typeof boxItemSchema>;

// ---------------------------------------------------------------- distribution

/** One distribution: the document sent to a department for action or for knowledge. */
export const distributionSchema = z.object({
  id: z.number().int(),
  documentId: z.number().int(),
  department: namedRefSchema,
  type: z.enum(DISTRIBUTION_TYPES),
  notes: z.string().nullable(),
  /** For action: every action task of this department is completed (knowledge items are never "open"). */
  completed: z.boolean(),
  completedAt: z.string().nullable(),
  distributedBy: personRefSchema.nullable(),
  distributedAt: z.string(),
});
export type Distribution = z.infer<typeof distributionSchema>;

/**
 * POST /correspondence/documents/{id}/distribution: send a registered document to departments (from the
 * main distribution list or the picker). A department already holding it answers 409.
 */
export const distributeRequestSchema = z
  .object({
    items: z
      .array(
        z
          .object({
            departmentId: refIdField,
            type: z.enum(DISTRIBUTION_TYPES),
            notes: longText(2000).nullable().optional(),
          })
          .strict(),
      )
      .min(1)
      .max(100),
  })
  .strict();
export type DistributeRequest = z.infer<typeof distributeRequestSchema>;

// ---------------------------------------------------------------- tasks

/** A task: a receiving department's manager or secretary asks an employee (the tasker) to act. */
export const taskSchema = z.object({
  id: z.number().int(),
  documentId: z.number().int(),
  distributionId: z.number().int(),
  department: namedRefSchema,
  /** Mirrors the distribution: only action tasks complete a department's item. */
  type: z.enum(DISTRIBUTION_TYPES),
  tasker: personRefSchema,
  taskDate: z.string().nullable(),
  notes: z.string().nullable(),
  state: z.enum(TASK_STATES),
  assignedBy: personRefSchema.nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Task date passed and not completed. */
  overdue: z.boolean(),
  /** Document summary for the task detail screen. */
  document: z.object({ id: z.number().int(), docNumber: z.string().nullable(), subject: z.string() }),
});
export type Task = z.infer<typeof taskSchema>;

/** POST /correspondence/documents/{id}/tasks: task an employee from a distribution of the document. */
export const createTaskRequestSchema = z
  .object({
    distributionId: refIdField,
    employeeId: refIdField,
    taskDate: dateOnlyField.nullable().optional(),
    notes: longText(2000).nullable().optional(),
  })
  .strict();
export type CreateTaskRequest = z.infer<typeof createTaskRequestSchema>;

/**
 * PUT /correspondence/documents/{id}/tasks/{taskId}/state: move a task along (refused moves are 422, a
 * task changed meanwhile is 409). `note`: the result when completing, the reason when reopening (a
 * completed task goes back to in progress, by whoever assigned it or leads its department); both are
 * shown in the timeline.
 */
export const taskStateRequestSchema = z
  .object({ state: z.enum(TASK_STATES), note: longText(2000).nullable().optional() })
  .strict();
export type TaskStateRequest = z.infer<typeof taskStateRequestSchema>;
export const taskParamsSchema = z.object({ id: decimalParam(1), taskId: decimalParam(1) }).strict();

// ---------------------------------------------------------------- follow-ups

/** POST /correspondence/documents/{id}/follow: follow a document, optionally until a date. */
export const followRequestSchema = z
  .object({ dueDate: dateOnlyField.nullable().optional(), notes: longText(2000).nullable().optional() })
  .strict();
export type FollowRequest = z.infer<typeof followRequestSchema>;
export const followSchema = z.object({
  documentId: z.number().int(),
  dueDate: z.string().nullable(),
  notes: z.string().nullable(),
  createdAt: z.string(),
});
export type Follow = z.infer<typeof followSchema>;

// ---------------------------------------------------------------- reply due (issue 28)

/**
 * An incoming letter's reply: due by `dueOn` (null: no reply needed); done when an outgoing letter related
 * to it was dispatched (`replyDocument`) or when someone closed it with a note. `mayEdit`: the caller may
 * change the date or close it (the archive office holding it, or a manager of a department it went to for
 * action).
 */
export const replyDueSchema = z.object({
  dueOn: z.string().nullable(),
  state: z.enum(DUE_STATES),
  /** Overdue: by how many working days. */
  overdueDays: z.number().int().nullable(),
  doneAt: z.string().nullable(),
  doneBy: personRefSchema.nullable(),
  note: z.string().nullable(),
  replyDocument: z
    .object({ id: z.number().int(), docNumber: z.string().nullable(), subject: z.string() })
    .nullable(),
  mayEdit: z.boolean(),
});
export type ReplyDue = z.infer<typeof replyDueSchema>;

/** PUT /correspondence/documents/{id}/reply-due: another due date, or none (null: no reply needed). */
export const replyDueRequestSchema = z.object({ replyDueOn: dateOnlyField.nullable() }).strict();
export type ReplyDueRequest = z.infer<typeof replyDueRequestSchema>;

/** POST /correspondence/documents/{id}/reply-close: done without a dispatched reply, saying why. */
export const replyCloseRequestSchema = z
  .object({ note: longText(2000).refine((v) => v.trim() !== '', { message: 'validation.required' }) })
  .strict();
export type ReplyCloseRequest = z.infer<typeof replyCloseRequestSchema>;

// ---------------------------------------------------------------- timeline

/** What can happen to a document; the screens name each with `timeline.<event>` in their locales. */
export const TIMELINE_EVENTS = [
  'created',
  'updated',
  'registered',
  'attachmentAdded',
  'attachmentRemoved',
  'related',
  'unrelated',
  'distributed',
  'taskAssigned',
  'taskStarted',
  'taskCompleted',
  'taskReopened',
  'completed',
  'followed',
  'unfollowed',
  'submitted',
  'approved',
  'rejected',
  'changesRequested',
  'circuitRestarted',
  'numbered',
  'dispatched',
  'addedAfterApproval',
  'stickerPrinted',
  'coverSheetPrinted',
  'finalMade',
  'finalFailed',
  'finalCancelled',
  'emailSent',
  'emailFailed',
  'approverReplaced',
  'replyDueChanged',
  'replyDone',
  'replyClosed',
] as const;
export type TimelineEvent = (typeof TIMELINE_EVENTS)[number];

/** One timeline entry: who did what and when; `details` carries the event's specifics. */
export const timelineEntrySchema = z.object({
  id: z.number().int(),
  documentId: z.number().int(),
  event: z.enum(TIMELINE_EVENTS),
  actor: personRefSchema.nullable(),
  at: z.string(),
  /**
   * e.g. distributed: `{ departmentId, departmentNameAr, departmentNameEn, type, notes }`; task events:
   * `{ taskId, employeeId, employeeNameAr, employeeNameEn, taskDate }`; registered: `{ docNumber }`;
   * attachmentAdded: `{ attachmentId, fileName, size }`; addedAfterApproval: `{ attachmentId, fileName,
   * size, kind }`; related: `{ documentId, afterApproval? }`; completed: `{ departmentId, … }`.
   */
  details: z.record(z.string(), z.unknown()),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

// ---------------------------------------------------------------- calendar

/** GET /user/calendar/events?from&to: the caller's tasks and follow-up dates between two dates (≤ 366 days). */
export const calendarQuerySchema = z.object({ from: dateOnlyField, to: dateOnlyField }).strict();
export type CalendarQuery = z.infer<typeof calendarQuerySchema>;
export const calendarEventSchema = z.object({
  /**
   * `task:<id>` (the caller's own task), `follow:<documentId>` (a document the caller follows, by its
   * due date) or `assigned:<taskId>` (a task of a department the caller manages or is secretary of,
   * followed by its task date; kind `followUp`).
   */
  key: z.string(),
  kind: z.enum(['task', 'followUp']),
  date: z.string(),
  documentId: z.number().int(),
  docNumber: z.string().nullable(),
  subject: z.string(),
  taskId: z.number().int().nullable(),
  taskState: z.enum(TASK_STATES).nullable(),
  overdue: z.boolean(),
});
export type CalendarEvent = z.infer<typeof calendarEventSchema>;

// ---------------------------------------------------------------- attachments

/**
 * POST /correspondence/documents/{id}/attachments takes `multipart/form-data` with one file under `file`
 * (PDF by content, else 415; larger than the server's limit, 413). GET …/attachments lists them;
 * GET …/attachments/{attachmentId}/content streams the bytes; DELETE …/attachments/{attachmentId} removes
 * one from a draft.
 */
export const attachmentParamsSchema = z
  .object({ id: decimalParam(1), attachmentId: decimalParam(1) })
  .strict();
/** POST /correspondence/documents/{id}/additions/{kind}: a file added to an approved document. */
export const additionParamsSchema = z.object({ id: decimalParam(1), kind: z.enum(ADDITION_KINDS) }).strict();

// ---------------------------------------------------------------- approval circuits

/** One person of a circuit step and their answer in the current round. */
export const approvalMemberSchema = z.object({
  userId: z.number().int(),
  nameAr: z.string(),
  nameEn: z.string(),
  /** The department the person works in (when they are an employee). */
  department: namedRefSchema.nullable(),
  /** Their turn now. */
  pending: z.boolean(),
  decision: z.enum(APPROVAL_DECISIONS).nullable(),
  comment: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** The version of the document they answered on. */
  decidedVersion: z.number().int().nullable(),
  /**
   * The signatory (the last step) while the document is not yet approved: whether they hold signing
   * authority for its entity now (their approval is refused otherwise). Null for opinion steps and after
   * approval.
   */
  signingAuthority: z.boolean().nullable(),
});
export type ApprovalMember = z.infer<typeof approvalMemberSchema>;

export const approvalStepSchema = z.object({
  position: z.number().int(),
  kind: z.enum(APPROVAL_STEP_KINDS),
  members: z.array(approvalMemberSchema),
});
export type ApprovalStep = z.infer<typeof approvalStepSchema>;

/** The circuit of a document: its status (section 4), whose turn it is, and every step. */
export const approvalSchema = z.object({
  status: z.enum(APPROVAL_STATUSES),
  /** The step whose turn it is (null unless approving). */
  currentStep: z.number().int().nullable(),
  submittedAt: z.string().nullable(),
  approvedAt: z.string().nullable(),
  steps: z.array(approvalStepSchema),
});
export type Approval = z.infer<typeof approvalSchema>;

/** The circuit an author submits: steps in order, each one or more user ids; the last step is the signatory. */
export const circuitInputSchema = z
  .array(z.object({ userIds: z.array(refIdField).min(1).max(20) }).strict())
  .min(1)
  .max(20);
export type CircuitInput = z.infer<typeof circuitInputSchema>;

/**
 * POST /correspondence/documents/{id}/submit: send an outgoing letter or memo into its circuit. Without
 * `steps` the proposed circuit (or the one it already has, on a resubmission) is used. `version` is the
 * version the author saw (a stale screen is 409).
 */
export const submitRequestSchema = z
  .object({ steps: circuitInputSchema.optional(), version: int4(1) })
  .strict();
export type SubmitRequest = z.infer<typeof submitRequestSchema>;

/** A person offered as an approver: an active account, with the employee's department when there is one. */
export const approverOptionSchema = z.object({
  userId: z.number().int(),
  nameAr: z.string(),
  nameEn: z.string(),
  department: namedRefSchema.nullable(),
  /** Manager of a department (the default circuits are made of managers). */
  manager: z.boolean(),
});
export type ApproverOption = z.infer<typeof approverOptionSchema>;

/**
 * Who may sign for an entity (signing authority): its manager, and the accounts an administrator granted
 * it to (src-server/modules/correspondence/signing.ts).
 */
export const SIGNING_AUTHORITY_SOURCES = ['manager', 'granted'] as const;
export const signatoryOptionSchema = approverOptionSchema.extend({
  /** Why they hold it: the entity's manager, or a grant. */
  authority: z.enum(SIGNING_AUTHORITY_SOURCES),
});
export type SignatoryOption = z.infer<typeof signatoryOptionSchema>;

/**
 * GET /correspondence/documents/{id}/signatories: the entity a document speaks for (the nearest entity up
 * its sending department's tree) and the people who may be its signatory.
 */
export const signatoriesSchema = z.object({
  entity: namedRefSchema.nullable(),
  signatories: z.array(signatoryOptionSchema),
});
export type Signatories = z.infer<typeof signatoriesSchema>;

/** A grant of signing authority for an entity: to whom, by whom and when; revoked ones are kept. */
export const signingGrantSchema = z.object({
  id: z.number().int(),
  user: approverOptionSchema,
  grantedBy: personRefSchema.nullable(),
  grantedAt: z.string(),
  revokedBy: personRefSchema.nullable(),
  revokedAt: z.string().nullable(),
});
export type SigningGrant = z.infer<typeof signingGrantSchema>;

/**
 * GET /correspondence/signing-authority/{departmentId}: the entity of a department (itself when it is one)
 * with who holds signing authority for it now (`signatories`) and every grant, the revoked ones last.
 */
export const signingAuthoritySchema = signatoriesSchema.extend({
  grants: z.array(signingGrantSchema),
});
export type SigningAuthority = z.infer<typeof signingAuthoritySchema>;
export const signingAuthorityParamsSchema = z.object({ departmentId: decimalParam(1) }).strict();
export const signingGrantParamsSchema = z
  .object({ departmentId: decimalParam(1), userId: decimalParam(1) })
  .strict();
/** POST /correspondence/signing-authority/{departmentId}: grant it to an account. */
export const grantSigningRequestSchema = z.object({ userId: refIdField }).strict();
export type GrantSigningRequest = z.infer<typeof grantSigningRequestSchema>;

/** GET /correspondence/documents/{id}/circuit/proposal: the circuit proposed for a draft. */
export const circuitProposalSchema = z.object({
  steps: z.array(z.object({ kind: z.enum(APPROVAL_STEP_KINDS), members: z.array(approverOptionSchema) })),
  /** Where it came from: a saved template of the department, or the managers up the department tree. */
  source: z.enum(['template', 'managers', 'current']),
});
export type CircuitProposal = z.infer<typeof circuitProposalSchema>;

/** GET /correspondence/approvers?q=: people who may be added to a circuit. */
export const approverQuerySchema = z.object({ q: text(0, 100).optional() }).strict();

/**
 * POST /correspondence/documents/{id}/approval: the answer of the person whose turn it is. Rejecting and
 * requesting changes need a comment. `version` is the version they saw: a document changed meanwhile, or
 * a step already answered, is 409.
 */
export const approvalRequestSchema = z
  .object({
    action: z.enum(APPROVAL_ACTIONS),
    comment: longText(2000).nullable().optional(),
    version: int4(1),
  })
  .strict();
export type ApprovalRequest = z.infer<typeof approvalRequestSchema>;

/** PUT /correspondence/circuit-templates/{departmentId}/{direction}: a department's saved circuit. */
export const circuitTemplateSchema = z.object({
  departmentId: z.number().int(),
  direction: z.enum(DIRECTIONS),
  steps: z.array(z.object({ members: z.array(approverOptionSchema) })),
  updatedAt: z.string().nullable(),
});
export type CircuitTemplate = z.infer<typeof circuitTemplateSchema>;
export const circuitTemplateParamsSchema = z
  .object({ departmentId: decimalParam(1), direction: z.enum(['out', 'memo']) })
  .strict();
export const circuitTemplateRequestSchema = z.object({ steps: circuitInputSchema }).strict();
export type CircuitTemplateRequest = z.infer<typeof circuitTemplateRequestSchema>;

// ---------------------------------------------------------------- dispatch

export const dispatchSchema = z.object({
  medium: namedRefSchema.nullable(),
  date: z.string().nullable(),
  delivered: z.boolean(),
  dispatchedAt: z.string(),
  dispatchedBy: personRefSchema.nullable(),
});
export type Dispatch = z.infer<typeof dispatchSchema>;

/** POST /correspondence/documents/{id}/dispatch: the archive office records how an approved letter left. */
export const dispatchRequestSchema = z
  .object({ mediumId: refIdField, dispatchDate: dateOnlyField, delivered: z.boolean().default(false) })
  .strict();
export type DispatchRequest = z.infer<typeof dispatchRequestSchema>;

/** GET /correspondence/boxes/counts: the menu's badges (what waits for the caller's approval or changes). */
export const boxCountsSchema = z.object({
  outboxRequiringApproval: z.number().int(),
  outboxRequiringChanges: z.number().int(),
  memosRequiringApproval: z.number().int(),
  memosRequiringChanges: z.number().int(),
});
export type BoxCounts = z.infer<typeof boxCountsSchema>;
