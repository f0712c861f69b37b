/**
 * The endpoints of the correspondence core (docs/api.md, "Correspondence"): the boxes (one endpoint per
 * box, each on its page), documents, and under a document its circuit, register, related documents,
 * attachments, distribution, tasks, follow and timeline; intake from a scanning station; signing
 * authority and circuit templates (on the departments page); the user's calendar. Their shapes are in
 * correspondence.ts.
 *
 * Reads of one document are `authenticated`: whether the caller may see it is the visibility
 * predicate's answer (404 when not), whatever page they came from. Actions on a document are
 * `authenticated` too, with `permission: 'by-direction'`: the page and permission they need follow the
 * document's direction (src-server/modules/correspondence/common.ts `requireOnDirection`), which only
 * the service knows once it has read the document.
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import {
  BOXES,
  INTAKE_BATCH_MAX_FILES,
  additionParamsSchema,
  approvalRequestSchema,
  approverOptionSchema,
  approverQuerySchema,
  attachmentParamsSchema,
  attachmentSchema,
  attachmentTextSchema,
  boxCountsSchema,
  boxItemSchema,
  boxQuerySchema,
  calendarEventSchema,
  calendarQuerySchema,
  circuitProposalSchema,
  circuitTemplateParamsSchema,
  circuitTemplateRequestSchema,
  circuitTemplateSchema,
  createDocumentRequestSchema,
  createTaskRequestSchema,
  dispatchRequestSchema,
  distributeRequestSchema,
  distributionSchema,
  documentSchema,
  followRequestSchema,
  followSchema,
  grantSigningRequestSchema,
  holdersQuerySchema,
  idParamsSchema,
  intakeBatchResultSchema,
  intakeQuerySchema,
  intakeResultSchema,
  lookupQuerySchema,
  relateRequestSchema,
  relatedDocumentSchema,
  relatedParamsSchema,
  replyCloseRequestSchema,
  replyDueRequestSchema,
  signatoriesSchema,
  stickerQuerySchema,
  signingAuthorityParamsSchema,
  signingAuthoritySchema,
  signingGrantParamsSchema,
  submitRequestSchema,
  taskParamsSchema,
  taskSchema,
  taskStateRequestSchema,
  timelineEntrySchema,
  updateDocumentRequestSchema,
  uploadedAttachmentSchema,
  type Box,
  type Document,
} from './correspondence';
import { endpoint, fileAnswer, type Message } from './endpoint';
import { READ_TOKEN_HEADER, readTokenField } from './reads';
import { pageOf } from './envelope';

const tags = ['correspondence'];
const authenticated = 'authenticated';
const departments = {
  view: { page: PAGES.departments, permission: 'view' },
  edit: { page: PAGES.departments, permission: 'edit' },
} as const;

/** The page each box belongs to (its `view` permission opens the box). */
export const BOX_PAGES: Record<Box, string> = {
  incoming: PAGES.incoming,
  'follow-ups': PAGES.followUps,
  'incoming-tasks': PAGES.incomingTasks,
  'inbox-drafts': PAGES.inboxDrafts,
  outgoing: PAGES.outgoing,
  'outbox-drafts': PAGES.outboxDrafts,
  'awaiting-approval': PAGES.outboxAwaitingApproval,
  'requiring-approval': PAGES.outboxRequiringApproval,
  'requiring-changes': PAGES.outboxAwaitingApproval,
  'approved-memos': PAGES.approvedMemos,
  'memo-drafts': PAGES.memoDrafts,
  'memos-awaiting-approval': PAGES.memosAwaitingApproval,
  'memos-requiring-approval': PAGES.memosRequiringApproval,
  'memos-requiring-changes': PAGES.memosAwaitingApproval,
};

/** The list of one box, on the box's page. */
function boxEndpoint<const B extends Box>(box: B) {
  return endpoint({
    method: 'GET',
    path: `/correspondence/boxes/${box}` as const,
    query: boxQuerySchema,
    response: pageOf(boxItemSchema),
    access: { page: BOX_PAGES[box], permission: 'view' },
    tags,
    summary: `The ${box} box`,
  });
}

/** Each box's endpoint, by box. */
export const boxEndpoints = Object.fromEntries(BOXES.map((box) => [box, boxEndpoint(box)])) as {
  [B in Box]: ReturnType<typeof boxEndpoint<B>>;
};

/** "Registered as …" for a document that got its number, else "draft saved". */
const registeredOrSaved = ({ data }: { data: Document }): Message => ({
  key:
    data.state === 'registered' ? 'correspondence.messages.registered' : 'correspondence.messages.draftSaved',
  params: { docNumber: data.docNumber },
});

export const correspondenceEndpoints = {
  // ------------------------------------------------------------ boxes
  boxCounts: endpoint({
    method: 'GET',
    path: '/correspondence/boxes/counts',
    response: boxCountsSchema,
    access: authenticated,
    tags,
    summary: "The menu's counts: what requires the caller's approval and changes",
  }),

  // ------------------------------------------------------------ approval circuits
  circuitProposal: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/circuit/proposal',
    params: idParamsSchema,
    response: circuitProposalSchema,
    access: authenticated,
    tags,
    summary: 'The circuit proposed for an outgoing letter or memo (template, or managers up the tree)',
  }),
  signatories: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/signatories',
    params: idParamsSchema,
    response: signatoriesSchema,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary:
      "Who may sign an outgoing letter or memo: the holders of signing authority for its entity (the author's draft permissions)",
  }),
  signingAuthority: endpoint({
    method: 'GET',
    path: '/correspondence/signing-authority/:departmentId',
    params: signingAuthorityParamsSchema,
    response: signingAuthoritySchema,
    access: departments.view,
    tags,
    summary:
      'The entity of a department (itself when it is one), who holds signing authority for it now, and its grants',
  }),
  grantSigningAuthority: endpoint({
    method: 'POST',
    path: '/correspondence/signing-authority/:departmentId',
    params: signingAuthorityParamsSchema,
    body: grantSigningRequestSchema,
    response: signingAuthoritySchema,
    access: departments.edit,
    tags,
    summary: 'Grant an account signing authority for an entity (audited)',
    message: 'correspondence.messages.signingGranted',
  }),
  revokeSigningAuthority: endpoint({
    method: 'DELETE',
    path: '/correspondence/signing-authority/:departmentId/:userId',
    params: signingGrantParamsSchema,
    response: signingAuthoritySchema,
    access: departments.edit,
    tags,
    summary: "Revoke an account's signing authority for an entity (the grant is kept, revoked; audited)",
    message: 'correspondence.messages.signingRevoked',
  }),
  approvers: endpoint({
    method: 'GET',
    path: '/correspondence/approvers',
    query: approverQuerySchema,
    response: z.array(approverOptionSchema),
    access: authenticated,
    tags,
    summary: 'People who may be put in a circuit (active accounts)',
  }),
  submit: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/submit',
    params: idParamsSchema,
    body: submitRequestSchema,
    response: documentSchema,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: 'Submit (or resubmit) an outgoing letter or memo into its approval circuit',
    message: 'correspondence.messages.submitted',
  }),
  decide: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/approval',
    params: idParamsSchema,
    body: approvalRequestSchema,
    response: documentSchema,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: 'Approve, reject or request changes (the person whose turn it is)',
    message: ({ body, data }) => ({
      key: {
        approve:
          data.state === 'approved'
            ? 'correspondence.messages.approvedNumbered'
            : 'correspondence.messages.approved',
        reject: 'correspondence.messages.rejected',
        requestChanges: 'correspondence.messages.changesRequested',
      }[body.action],
      params: { docNumber: data.docNumber },
    }),
  }),
  dispatch: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/dispatch',
    params: idParamsSchema,
    body: dispatchRequestSchema,
    response: documentSchema,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: 'Record the dispatch of an approved outgoing letter (its archive office)',
    message: 'correspondence.messages.dispatched',
  }),
  circuitTemplate: endpoint({
    method: 'GET',
    path: '/correspondence/circuit-templates/:departmentId/:direction',
    params: circuitTemplateParamsSchema,
    response: circuitTemplateSchema,
    access: departments.view,
    tags,
    summary: "A department's saved approval circuit",
  }),
  saveCircuitTemplate: endpoint({
    method: 'PUT',
    path: '/correspondence/circuit-templates/:departmentId/:direction',
    params: circuitTemplateParamsSchema,
    body: circuitTemplateRequestSchema,
    response: circuitTemplateSchema,
    access: departments.edit,
    tags,
    summary: "Save a department's approval circuit (proposed to its authors)",
    message: 'correspondence.messages.templateSaved',
  }),

  // ------------------------------------------------------------ documents
  createDocument: endpoint({
    method: 'POST',
    path: '/correspondence/documents',
    body: createDocumentRequestSchema,
    response: documentSchema,
    // 201 made, 200 a retry replayed (Idempotency-Key).
    status: [200, 201],
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: "Create a draft (add on the direction's add page); register: true registers it too",
    description:
      'Header Idempotency-Key (optional, per user): a retry with a key already used and the same ' +
      'body answers the document it made (200) instead of creating another (201); the key with ' +
      'another body is refused (422 idempotency.keyReused)',
    message: registeredOrSaved,
  }),
  lookup: endpoint({
    method: 'GET',
    path: '/correspondence/documents/lookup',
    query: lookupQuerySchema,
    response: z.array(relatedDocumentSchema),
    access: authenticated,
    tags,
    summary: 'Documents the caller may see, to link as related (number, sender number, subject)',
  }),
  holders: endpoint({
    method: 'GET',
    path: '/correspondence/documents/holders',
    query: holdersQuerySchema,
    response: z.array(relatedDocumentSchema),
    access: authenticated,
    tags,
    summary:
      'Documents the caller may see that already hold a file of this content (by SHA-256), to link instead of attaching it again',
  }),
  getDocument: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id',
    params: idParamsSchema,
    /** `read`: the token of this opening of the document (its first GET with it is recorded, once). */
    query: z.object({ read: readTokenField.optional() }).strict(),
    response: documentSchema,
    access: authenticated,
    tags,
    summary:
      'One document (header ETag: its version, for If-Match on an edit); recorded as opened once per `read` token',
  }),
  updateDocument: endpoint({
    method: 'PUT',
    path: '/correspondence/documents/:id',
    params: idParamsSchema,
    body: updateDocumentRequestSchema,
    response: documentSchema,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: 'Edit a draft',
    description:
      'Header If-Match (optional): the version edited (`7`, `"7"` or `W/"7"`); when the document has ' +
      'another, 409 document.versionConflict (params.version: the current one) and nothing is written. ' +
      'The answer carries the new version as its ETag',
    message: 'correspondence.messages.draftSaved',
  }),
  deleteDraft: endpoint({
    method: 'DELETE',
    path: '/correspondence/documents/:id',
    params: idParamsSchema,
    response: z.null(),
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: 'Delete a draft',
    message: 'correspondence.messages.deleted',
  }),
  register: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/register',
    params: idParamsSchema,
    response: documentSchema,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary:
      "Register a draft: the archive office gives it the next number (add on the direction's add page)",
    message: ({ data }) => ({
      key: 'correspondence.messages.registered',
      params: { docNumber: data.docNumber },
    }),
  }),

  // ------------------------------------------------------------ related
  related: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/related',
    params: idParamsSchema,
    response: z.array(relatedDocumentSchema),
    access: authenticated,
    tags,
    summary: 'Related documents',
  }),
  relate: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/related',
    params: idParamsSchema,
    body: relateRequestSchema,
    response: z.array(relatedDocumentSchema),
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: 'Link documents (both directions)',
    message: 'correspondence.messages.related',
  }),
  unrelate: endpoint({
    method: 'DELETE',
    path: '/correspondence/documents/:id/related/:relatedId',
    params: relatedParamsSchema,
    response: z.null(),
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: 'Unlink a document',
    message: 'correspondence.messages.unrelated',
  }),

  // ------------------------------------------------------------ attachments
  attachments: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/attachments',
    params: idParamsSchema,
    response: z.array(attachmentSchema),
    access: authenticated,
    tags,
    summary: 'Attachments',
  }),
  addAttachment: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/attachments',
    params: idParamsSchema,
    multipart: { file: 'file' },
    response: uploadedAttachmentSchema,
    status: 201,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary:
      'Attach a PDF to the document\'s content (multipart/form-data, field "file"; PDF by content, size ' +
      'limit): while it is with its author, or a registered letter by its archive office. An approved ' +
      'document takes files only as additions (…/additions/{kind})',
    message: 'correspondence.messages.attachmentAdded',
  }),
  addAddition: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/additions/:kind',
    params: additionParamsSchema,
    multipart: { file: 'file' },
    response: uploadedAttachmentSchema,
    status: 201,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary:
      'Add a PDF to an approved outgoing letter or memo after its approval (multipart field "file"): ' +
      'a scan of the signed copy, a delivery receipt or another later paper. It is kept apart from ' +
      'the approved content, which it never changes (its archive office)',
    message: 'correspondence.messages.additionAdded',
  }),
  intake: endpoint({
    method: 'POST',
    path: '/correspondence/intake',
    query: intakeQuerySchema,
    multipart: { file: 'file' },
    response: intakeResultSchema,
    // 201 made, 200 a retry replayed (Idempotency-Key).
    status: [200, 201],
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary:
      'A scanned PDF in (multipart field "file"): a new incoming draft, or an attachment of the document ' +
      '`number` names. Header Idempotency-Key (per user): a retry with the same file (content, name, ' +
      'number) answers the first result (200, replayed); with another file, 422 idempotency.keyReused',
  }),
  intakeBatch: endpoint({
    method: 'POST',
    path: '/correspondence/intake/batch',
    multipart: { manifest: 'json', file: 'files' },
    response: intakeBatchResultSchema,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary:
      'Several scanned PDFs in one request, each as POST /correspondence/intake takes one. Multipart: ' +
      'a field "manifest" (JSON {"files":[{"key","number"?}]}: per file its Idempotency-Key and the ' +
      `number its name carries; at most ${INTAKE_BATCH_MAX_FILES}), then one part "file" per entry, in ` +
      'that order. Answers each file in order: its status (201 made, 200 a retry replayed, 4xx refused) ' +
      'with its result or problem; a refused file never refuses the others',
    // "Files received: {{made}} of {{count}}": made are the files answered 201 or 200.
    message: ({ data }) => ({
      key: 'intake.received',
      params: {
        made: data.results.filter((r) => r.status === 200 || r.status === 201).length,
        count: data.results.length,
      },
    }),
  }),
  sticker: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/sticker',
    params: idParamsSchema,
    query: stickerQuerySchema,
    response: fileAnswer,
    bytes: 'application/pdf',
    access: authenticated,
    tags,
    summary:
      "A registered document's registration sticker (application/pdf): its number in Western and " +
      'Arabic-Indic digits, a QR code and a Code 128 of the number, the date in Hijri and Gregorian, the ' +
      "entity's names and the direction, on a 50×25 or 70×35 mm label or one label of an A4 sheet of 24. " +
      'Every print is recorded on the timeline (reprints counted) and in the audit log; 409 ' +
      'paper.notNumbered for a document without a number',
  }),
  coverSheet: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/cover-sheet',
    params: idParamsSchema,
    response: fileAnswer,
    bytes: 'application/pdf',
    access: authenticated,
    tags,
    summary:
      "A registered document's cover sheet (A4, application/pdf), to put on top of its paper when it is " +
      'scanned: the station files the pages after it on the document. Recorded as the sticker is',
  }),
  separatorSheet: endpoint({
    method: 'GET',
    path: '/correspondence/separator-sheet',
    response: fileAnswer,
    bytes: 'application/pdf',
    access: authenticated,
    tags,
    summary:
      'The separator sheet (A4, application/pdf): put between documents of one scanned batch, the station ' +
      'cuts the batch there and drops the sheet',
  }),
  attachmentContent: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/attachments/:attachmentId/content',
    params: attachmentParamsSchema,
    response: fileAnswer,
    bytes: 'application/pdf',
    access: authenticated,
    tags,
    summary: "An attachment's bytes (application/pdf), a view of it recorded once",
    description: `Ranges as a viewer reads them. A view is recorded once: every request carrying the same \`${READ_TOKEN_HEADER}\` header (the viewer's token for one opening) makes one record; a request without it is recorded when it starts a reading (no Range, or a Range from byte 0).`,
  }),
  attachmentText: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/attachments/:attachmentId/text',
    params: attachmentParamsSchema,
    response: attachmentTextSchema,
    access: authenticated,
    tags,
    summary: "An attachment's text as the server read it for search (per page: text layer or OCR)",
  }),
  removeAttachment: endpoint({
    method: 'DELETE',
    path: '/correspondence/documents/:id/attachments/:attachmentId',
    params: attachmentParamsSchema,
    response: z.null(),
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: 'Remove an attachment of a document while it is with its author',
    message: 'correspondence.messages.deleted',
  }),

  // ------------------------------------------------------------ distribution
  distribution: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/distribution',
    params: idParamsSchema,
    response: z.array(distributionSchema),
    access: authenticated,
    tags,
    summary: 'Distributions',
  }),
  distribute: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/distribution',
    params: idParamsSchema,
    body: distributeRequestSchema,
    response: z.array(distributionSchema),
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: 'Distribute to departments for action (Main) or knowledge',
    message: 'correspondence.messages.distributed',
  }),

  // ------------------------------------------------------------ tasks
  tasks: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/tasks',
    params: idParamsSchema,
    response: z.array(taskSchema),
    access: authenticated,
    tags,
    summary: 'Tasks',
  }),
  task: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/tasks/:taskId',
    params: taskParamsSchema,
    response: taskSchema,
    access: authenticated,
    tags,
    summary: 'One task',
  }),
  assignTask: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/tasks',
    params: idParamsSchema,
    body: createTaskRequestSchema,
    response: taskSchema,
    status: 201,
    access: authenticated,
    permission: 'by-direction',
    tags,
    summary: "Task an employee (the receiving department's manager or secretary)",
    message: 'correspondence.messages.taskAssigned',
  }),
  moveTask: endpoint({
    method: 'PUT',
    path: '/correspondence/documents/:id/tasks/:taskId/state',
    params: taskParamsSchema,
    body: taskStateRequestSchema,
    response: taskSchema,
    access: { page: PAGES.incomingTasks, permission: 'edit' },
    tags,
    summary: 'Move a task: new → inProgress → completed',
    message: 'correspondence.messages.taskUpdated',
  }),

  // ------------------------------------------------------------ follow and timeline
  follow: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/follow',
    params: idParamsSchema,
    body: followRequestSchema,
    response: followSchema,
    access: authenticated,
    tags,
    summary: 'Follow a document',
    message: 'correspondence.messages.followed',
  }),
  unfollow: endpoint({
    method: 'DELETE',
    path: '/correspondence/documents/:id/follow',
    params: idParamsSchema,
    response: z.null(),
    access: authenticated,
    tags,
    summary: 'Stop following a document',
    message: 'correspondence.messages.unfollowed',
  }),

  // ------------------------------------------------------------ reply due (issue 28)
  replyDue: endpoint({
    method: 'PUT',
    path: '/correspondence/documents/:id/reply-due',
    params: idParamsSchema,
    body: replyDueRequestSchema,
    response: documentSchema,
    access: authenticated,
    tags,
    summary:
      "Change an incoming letter's reply due date, or say none is needed (its archive office, or a manager it went to for action)",
    message: 'due.messages.replyDueChanged',
  }),
  replyClose: endpoint({
    method: 'POST',
    path: '/correspondence/documents/:id/reply-close',
    params: idParamsSchema,
    body: replyCloseRequestSchema,
    response: documentSchema,
    access: authenticated,
    tags,
    summary:
      "Close an incoming letter's reply without a dispatched letter, with a note (who may change its date)",
    message: 'due.messages.replyClosed',
  }),
  timeline: endpoint({
    method: 'GET',
    path: '/correspondence/documents/:id/timeline',
    params: idParamsSchema,
    response: z.array(timelineEntrySchema),
    access: authenticated,
    tags,
    summary: 'Everything that happened to the document',
  }),

  // ------------------------------------------------------------ calendar
  calendarEvents: endpoint({
    method: 'GET',
    path: '/user/calendar/events',
    query: calendarQuerySchema,
    response: z.array(calendarEventSchema),
    access: authenticated,
    tags: ['calendar'],
    summary: "The caller's tasks and follow-up dates between two dates",
  }),
};
