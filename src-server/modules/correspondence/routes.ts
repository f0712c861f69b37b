/**
 * HTTP routes of the correspondence core. Actions on a document declare `authenticated`: the page and
 * permission they need follow the document's direction (common.ts `pagesFor`), which only the service knows
 * once it has read the document; it answers 404 for a document the caller may not see, then 403.
 * (docs/api.md, "Correspondence"): documents, boxes (one route per box,
 * each on its page), and under a document: register, distribution, tasks, follow, timeline, attachments,
 * related; plus the calendar's events. Reads of one document are `authenticated`: whether the caller may
 * see it is the visibility predicate's answer (404 when not), whatever page they came from.
 */
import { z } from 'zod';
import { envelopeOf, pageOf } from '../../../src-shared/api/envelope';
import {
  BOXES,
  approvalRequestSchema,
  approverOptionSchema,
  approverQuerySchema,
  boxCountsSchema,
  circuitProposalSchema,
  circuitTemplateParamsSchema,
  circuitTemplateRequestSchema,
  circuitTemplateSchema,
  dispatchRequestSchema,
  grantSigningRequestSchema,
  signatoriesSchema,
  signingAuthorityParamsSchema,
  signingAuthoritySchema,
  signingGrantParamsSchema,
  submitRequestSchema,
  additionParamsSchema,
  attachmentParamsSchema,
  attachmentSchema,
  attachmentTextSchema,
  uploadedAttachmentSchema,
  intakeQuerySchema,
  intakeBatchManifestSchema,
  intakeBatchResultSchema,
  INTAKE_BATCH_MAX_FILES,
  intakeResultSchema,
  intakeHeadersSchema,
  boxItemSchema,
  boxQuerySchema,
  calendarEventSchema,
  calendarQuerySchema,
  createDocumentHeadersSchema,
  createDocumentRequestSchema,
  createTaskRequestSchema,
  distributeRequestSchema,
  distributionSchema,
  documentSchema,
  followRequestSchema,
  followSchema,
  idParamsSchema,
  lookupQuerySchema,
  holdersQuerySchema,
  relateRequestSchema,
  relatedDocumentSchema,
  relatedParamsSchema,
  taskParamsSchema,
  taskSchema,
  taskStateRequestSchema,
  timelineEntrySchema,
  updateDocumentHeadersSchema,
  updateDocumentRequestSchema,
  versionOfTag,
  type Box,
} from '../../../src-shared/api/correspondence';
import type { Permission } from '../../../src-shared/permissions';
import type { App, AppModule } from '../../app-type';
import type { ServerContext } from '../../context';
import { callerOf } from '../../http/access';
import { envelope } from '../../http/envelope';
import { HttpProblem, fieldsOfZodError, renderProblem } from '../../http/problem';
import { sendStoredFile } from '../../http/send-file';
import { multipartSchema, pdfReceiver, receivePdfBatch, uploadOptions } from '../../http/upload';
import { metaOf } from '../auth/service';
import * as approvals from './approvals';
import { intake, intakeFiles } from './intake';
import * as corr from './service';
import * as signing from './signing';
import { PAGES } from '../../../src-shared/pages';

const security = [{ bearer: [] }];
const on = (page: string, permission: Permission) => ({ access: { page, permission } });
const authenticated = { access: 'authenticated' as const };

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

/** Registers the correspondence routes. */
export function correspondenceRoutes(ctx: ServerContext) {
  return async (app: App) => {
    const docs = { tags: ['correspondence'], security };
    const base = '/correspondence/documents';

    // ------------------------------------------------------------ boxes
    for (const box of BOXES) {
      app.get(
        `/correspondence/boxes/${box}`,
        {
          config: on(BOX_PAGES[box], 'view'),
          schema: {
            ...docs,
            summary: `The ${box} box`,
            querystring: boxQuerySchema,
            response: { 200: envelopeOf(pageOf(boxItemSchema)) },
          },
        },
        async (request) => envelope(request, await corr.listBox(ctx, callerOf(request), box, request.query)),
      );
    }

    app.get(
      '/correspondence/boxes/counts',
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: "The menu's counts: what requires the caller's approval and changes",
          response: { 200: envelopeOf(boxCountsSchema) },
        },
      },
      async (request) => envelope(request, await approvals.boxCounts(ctx, callerOf(request))),
    );

    // ------------------------------------------------------------ approval circuits
    app.get(
      `${base}/:id/circuit/proposal`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'The circuit proposed for an outgoing letter or memo (template, or managers up the tree)',
          params: idParamsSchema,
          response: { 200: envelopeOf(circuitProposalSchema) },
        },
      },
      async (request) =>
        envelope(request, await approvals.circuitProposal(ctx, callerOf(request), request.params.id)),
    );
    app.get(
      `${base}/:id/signatories`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary:
            "Who may sign an outgoing letter or memo: the holders of signing authority for its entity (the author's draft permissions)",
          params: idParamsSchema,
          response: { 200: envelopeOf(signatoriesSchema) },
        },
      },
      async (request) =>
        envelope(request, await approvals.documentSignatories(ctx, callerOf(request), request.params.id)),
    );
    app.get(
      '/correspondence/signing-authority/:departmentId',
      {
        config: on(PAGES.departments, 'view'),
        schema: {
          ...docs,
          summary:
            'The entity of a department (itself when it is one), who holds signing authority for it now, and its grants',
          params: signingAuthorityParamsSchema,
          response: { 200: envelopeOf(signingAuthoritySchema) },
        },
      },
      async (request) => envelope(request, await signing.signingAuthority(ctx, request.params.departmentId)),
    );
    app.post(
      '/correspondence/signing-authority/:departmentId',
      {
        config: on(PAGES.departments, 'edit'),
        schema: {
          ...docs,
          summary: 'Grant an account signing authority for an entity (audited)',
          params: signingAuthorityParamsSchema,
          body: grantSigningRequestSchema,
          response: { 200: envelopeOf(signingAuthoritySchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await signing.grantSigningAuthority(
            ctx,
            callerOf(request),
            request.params.departmentId,
            request.body.userId,
            metaOf(request),
          ),
          'correspondence.messages.signingGranted',
        ),
    );
    app.delete(
      '/correspondence/signing-authority/:departmentId/:userId',
      {
        config: on(PAGES.departments, 'edit'),
        schema: {
          ...docs,
          summary:
            "Revoke an account's signing authority for an entity (the grant is kept, revoked; audited)",
          params: signingGrantParamsSchema,
          response: { 200: envelopeOf(signingAuthoritySchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await signing.revokeSigningAuthority(
            ctx,
            callerOf(request),
            request.params.departmentId,
            request.params.userId,
            metaOf(request),
          ),
          'correspondence.messages.signingRevoked',
        ),
    );
    app.get(
      '/correspondence/approvers',
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'People who may be put in a circuit (active accounts)',
          querystring: approverQuerySchema,
          response: { 200: envelopeOf(z.array(approverOptionSchema)) },
        },
      },
      async (request) => envelope(request, await approvals.approverOptions(ctx, request.query.q)),
    );
    app.post(
      `${base}/:id/submit`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Submit (or resubmit) an outgoing letter or memo into its approval circuit',
          params: idParamsSchema,
          body: submitRequestSchema,
          response: { 200: envelopeOf(documentSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await approvals.submitDocument(ctx, callerOf(request), request.params.id, request.body),
          'correspondence.messages.submitted',
        ),
    );
    app.post(
      `${base}/:id/approval`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Approve, reject or request changes (the person whose turn it is)',
          params: idParamsSchema,
          body: approvalRequestSchema,
          response: { 200: envelopeOf(documentSchema) },
        },
      },
      async (request) => {
        const doc = await approvals.decideDocument(ctx, callerOf(request), request.params.id, request.body);
        const key = {
          approve:
            doc.state === 'approved'
              ? 'correspondence.messages.approvedNumbered'
              : 'correspondence.messages.approved',
          reject: 'correspondence.messages.rejected',
          requestChanges: 'correspondence.messages.changesRequested',
        }[request.body.action];
        return envelope(request, doc, key, { docNumber: doc.docNumber });
      },
    );
    app.post(
      `${base}/:id/dispatch`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Record the dispatch of an approved outgoing letter (its archive office)',
          params: idParamsSchema,
          body: dispatchRequestSchema,
          response: { 200: envelopeOf(documentSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await approvals.dispatchDocument(ctx, callerOf(request), request.params.id, request.body),
          'correspondence.messages.dispatched',
        ),
    );
    app.get(
      '/correspondence/circuit-templates/:departmentId/:direction',
      {
        config: on(PAGES.departments, 'view'),
        schema: {
          ...docs,
          summary: "A department's saved approval circuit",
          params: circuitTemplateParamsSchema,
          response: { 200: envelopeOf(circuitTemplateSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await approvals.getTemplate(ctx, request.params.departmentId, request.params.direction),
        ),
    );
    app.put(
      '/correspondence/circuit-templates/:departmentId/:direction',
      {
        config: on(PAGES.departments, 'edit'),
        schema: {
          ...docs,
          summary: "Save a department's approval circuit (proposed to its authors)",
          params: circuitTemplateParamsSchema,
          body: circuitTemplateRequestSchema,
          response: { 200: envelopeOf(circuitTemplateSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await approvals.saveTemplate(
            ctx,
            callerOf(request),
            request.params.departmentId,
            request.params.direction,
            request.body,
          ),
          'correspondence.messages.templateSaved',
        ),
    );

    // ------------------------------------------------------------ documents
    app.post(
      base,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: "Create a draft (add on the direction's add page); register: true registers it too",
          description:
            'Header Idempotency-Key (optional, per user): a retry with a key already used and the same ' +
            'body answers the document it made (200) instead of creating another (201); the key with ' +
            'another body is refused (422 idempotency.keyReused)',
          headers: createDocumentHeadersSchema,
          body: createDocumentRequestSchema,
          response: { 200: envelopeOf(documentSchema), 201: envelopeOf(documentSchema) },
        },
      },
      async (request, reply) => {
        const { document: doc, replayed } = await corr.createOrReplayDocument(
          ctx,
          callerOf(request),
          request.body,
          request.headers['idempotency-key'],
        );
        return reply
          .status(replayed ? 200 : 201)
          .send(
            envelope(
              request,
              doc,
              doc.state === 'registered'
                ? 'correspondence.messages.registered'
                : 'correspondence.messages.draftSaved',
              { docNumber: doc.docNumber },
            ),
          );
      },
    );
    app.get(
      `${base}/lookup`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Documents the caller may see, to link as related (number, sender number, subject)',
          querystring: lookupQuerySchema,
          response: { 200: envelopeOf(z.array(relatedDocumentSchema)) },
        },
      },
      async (request) =>
        envelope(request, await corr.lookupDocuments(ctx, callerOf(request), request.query.q)),
    );
    app.get(
      `${base}/holders`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary:
            'Documents the caller may see that already hold a file of this content (by SHA-256), to link instead of attaching it again',
          querystring: holdersQuerySchema,
          response: { 200: envelopeOf(z.array(relatedDocumentSchema)) },
        },
      },
      async (request) =>
        envelope(
          request,
          await corr.contentHolders(ctx, callerOf(request), request.query.sha256, request.query.except),
        ),
    );
    app.get(
      `${base}/:id`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'One document (header ETag: its version, for If-Match on an edit)',
          params: idParamsSchema,
          response: { 200: envelopeOf(documentSchema) },
        },
      },
      async (request, reply) => {
        const doc = await corr.getDocument(ctx, callerOf(request), request.params.id);
        return reply.header('etag', `"${doc.version}"`).send(envelope(request, doc));
      },
    );
    app.put(
      `${base}/:id`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Edit a draft',
          description:
            'Header If-Match (optional): the version edited (`7`, `"7"` or `W/"7"`); when the document has ' +
            'another, 409 document.versionConflict (params.version: the current one) and nothing is written. ' +
            'The answer carries the new version as its ETag',
          params: idParamsSchema,
          headers: updateDocumentHeadersSchema,
          body: updateDocumentRequestSchema,
          response: { 200: envelopeOf(documentSchema) },
        },
      },
      async (request, reply) => {
        const tag = request.headers['if-match'];
        const doc = await corr.updateDocument(
          ctx,
          callerOf(request),
          request.params.id,
          request.body,
          tag === undefined ? undefined : versionOfTag(tag),
        );
        return reply
          .header('etag', `"${doc.version}"`)
          .send(envelope(request, doc, 'correspondence.messages.draftSaved'));
      },
    );
    app.delete(
      `${base}/:id`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Delete a draft',
          params: idParamsSchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => {
        await corr.deleteDraft(ctx, callerOf(request), request.params.id);
        return envelope(request, null, 'correspondence.messages.deleted');
      },
    );
    app.post(
      `${base}/:id/register`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary:
            "Register a draft: the archive office gives it the next number (add on the direction's add page)",
          params: idParamsSchema,
          response: { 200: envelopeOf(documentSchema) },
        },
      },
      async (request) => {
        const doc = await corr.registerDocument(ctx, callerOf(request), request.params.id);
        return envelope(request, doc, 'correspondence.messages.registered', { docNumber: doc.docNumber });
      },
    );

    // ------------------------------------------------------------ related
    app.get(
      `${base}/:id/related`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Related documents',
          params: idParamsSchema,
          response: { 200: envelopeOf(z.array(relatedDocumentSchema)) },
        },
      },
      async (request) => envelope(request, await corr.listRelated(ctx, callerOf(request), request.params.id)),
    );
    app.post(
      `${base}/:id/related`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Link documents (both directions)',
          params: idParamsSchema,
          body: relateRequestSchema,
          response: { 200: envelopeOf(z.array(relatedDocumentSchema)) },
        },
      },
      async (request) =>
        envelope(
          request,
          await corr.addRelated(ctx, callerOf(request), request.params.id, request.body.documentIds),
          'correspondence.messages.related',
        ),
    );
    app.delete(
      `${base}/:id/related/:relatedId`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Unlink a document',
          params: relatedParamsSchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => {
        await corr.removeRelated(ctx, callerOf(request), request.params.id, request.params.relatedId);
        return envelope(request, null, 'correspondence.messages.unrelated');
      },
    );

    // ------------------------------------------------------------ attachments
    app.get(
      `${base}/:id/attachments`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Attachments',
          params: idParamsSchema,
          response: { 200: envelopeOf(z.array(attachmentSchema)) },
        },
      },
      async (request) =>
        envelope(request, await corr.listAttachments(ctx, callerOf(request), request.params.id)),
    );
    app.post(
      `${base}/:id/attachments`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary:
            'Attach a PDF to the document\'s content (multipart/form-data, field "file"; PDF by content, size ' +
            'limit): while it is with its author, or a registered letter by its archive office. An approved ' +
            'document takes files only as additions (…/additions/{kind})',
          ...multipartSchema(),
          params: idParamsSchema,
          response: { 201: envelopeOf(uploadedAttachmentSchema) },
        },
      },
      async (request, reply) => {
        const pdf = pdfReceiver(request, ctx);
        const attachment = await corr
          .addAttachment(ctx, callerOf(request), request.params.id, pdf.receive)
          .finally(pdf.discard);
        return reply
          .status(201)
          .send(envelope(request, attachment, 'correspondence.messages.attachmentAdded'));
      },
    );
    app.post(
      `${base}/:id/additions/:kind`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary:
            'Add a PDF to an approved outgoing letter or memo after its approval (multipart field "file"): ' +
            'a scan of the signed copy, a delivery receipt or another later paper. It is kept apart from ' +
            'the approved content, which it never changes (its archive office)',
          ...multipartSchema(),
          params: additionParamsSchema,
          response: { 201: envelopeOf(uploadedAttachmentSchema) },
        },
      },
      async (request, reply) => {
        const pdf = pdfReceiver(request, ctx);
        const attachment = await corr
          .addAttachment(ctx, callerOf(request), request.params.id, pdf.receive, request.params.kind)
          .finally(pdf.discard);
        return reply.status(201).send(envelope(request, attachment, 'correspondence.messages.additionAdded'));
      },
    );
    app.post(
      '/correspondence/intake',
      {
        config: authenticated,
        schema: {
          ...docs,
          summary:
            'A scanned PDF in (multipart field "file"): a new incoming draft, or an attachment of the document ' +
            '`number` names. Header Idempotency-Key (per user): a retry with the same file (content, name, ' +
            'number) answers the first result (200, replayed); with another file, 422 idempotency.keyReused',
          ...multipartSchema(),
          headers: intakeHeadersSchema,
          querystring: intakeQuerySchema,
          response: { 200: envelopeOf(intakeResultSchema), 201: envelopeOf(intakeResultSchema) },
        },
      },
      async (request, reply) => {
        const pdf = pdfReceiver(request, ctx);
        const result = await intake(
          ctx,
          callerOf(request),
          { key: request.headers['idempotency-key'], number: request.query.number },
          pdf,
        ).finally(pdf.discard);
        return reply.status(result.replayed ? 200 : 201).send(envelope(request, result));
      },
    );
    app.post(
      '/correspondence/intake/batch',
      {
        config: authenticated,
        schema: {
          ...docs,
          summary:
            'Several scanned PDFs in one request, each as POST /correspondence/intake takes one. Multipart: ' +
            'a field "manifest" (JSON {"files":[{"key","number"?}]}: per file its Idempotency-Key and the ' +
            `number its name carries; at most ${INTAKE_BATCH_MAX_FILES}), then one part "file" per entry, in ` +
            'that order. Answers each file in order: its status (201 made, 200 a retry replayed, 4xx refused) ' +
            'with its result or problem; a refused file never refuses the others',
          ...multipartSchema({ manifest: 'json', file: 'files' }),
          response: { 200: envelopeOf(intakeBatchResultSchema) },
        },
      },
      async (request, reply) => {
        const { manifest, files } = await receivePdfBatch(
          request,
          { ...uploadOptions(ctx), maxFiles: INTAKE_BATCH_MAX_FILES },
          (value) => {
            const parsed = intakeBatchManifestSchema.safeParse(value);
            if (!parsed.success)
              throw new HttpProblem('badRequest', { fields: fieldsOfZodError(parsed.error, 'manifest') });
            return parsed.data;
          },
        );
        const outcomes = await intakeFiles(
          ctx,
          callerOf(request),
          manifest.files.map((entry, i) => ({ ...entry, ...files[i]! })),
        );
        const results = outcomes.map((outcome, i) => ({
          key: manifest.files[i]!.key,
          status: outcome.status,
          ...('problem' in outcome
            ? { problem: renderProblem(outcome.problem, request.locale) }
            : { result: outcome.result }),
        }));
        const made = outcomes.filter((o) => o.status === 200 || o.status === 201).length;
        return reply
          .status(200)
          .send(envelope(request, { results }, 'intake.received', { made, count: results.length }));
      },
    );
    app.get(
      `${base}/:id/attachments/:attachmentId/content`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: "An attachment's bytes (application/pdf)",
          params: attachmentParamsSchema,
        },
      },
      async (request, reply) => {
        const { attachment, open } = await corr.openAttachment(
          ctx,
          callerOf(request),
          request.params.id,
          request.params.attachmentId,
        );
        return sendStoredFile(request, reply, { ...attachment, disposition: 'inline' }, open);
      },
    );
    app.get(
      `${base}/:id/attachments/:attachmentId/text`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: "An attachment's text as the server read it for search (per page: text layer or OCR)",
          params: attachmentParamsSchema,
          response: { 200: envelopeOf(attachmentTextSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await corr.attachmentText(ctx, callerOf(request), request.params.id, request.params.attachmentId),
        ),
    );
    app.delete(
      `${base}/:id/attachments/:attachmentId`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Remove an attachment of a document while it is with its author',
          params: attachmentParamsSchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => {
        await corr.removeAttachment(ctx, callerOf(request), request.params.id, request.params.attachmentId);
        return envelope(request, null, 'correspondence.messages.deleted');
      },
    );

    // ------------------------------------------------------------ distribution
    app.get(
      `${base}/:id/distribution`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Distributions',
          params: idParamsSchema,
          response: { 200: envelopeOf(z.array(distributionSchema)) },
        },
      },
      async (request) =>
        envelope(request, await corr.listDistribution(ctx, callerOf(request), request.params.id)),
    );
    app.post(
      `${base}/:id/distribution`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Distribute to departments for action (Main) or knowledge',
          params: idParamsSchema,
          body: distributeRequestSchema,
          response: { 200: envelopeOf(z.array(distributionSchema)) },
        },
      },
      async (request) =>
        envelope(
          request,
          await corr.distribute(ctx, callerOf(request), request.params.id, request.body),
          'correspondence.messages.distributed',
        ),
    );

    // ------------------------------------------------------------ tasks
    app.get(
      `${base}/:id/tasks`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Tasks',
          params: idParamsSchema,
          response: { 200: envelopeOf(z.array(taskSchema)) },
        },
      },
      async (request) => envelope(request, await corr.listTasks(ctx, callerOf(request), request.params.id)),
    );
    app.get(
      `${base}/:id/tasks/:taskId`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'One task',
          params: taskParamsSchema,
          response: { 200: envelopeOf(taskSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await corr.getTask(ctx, callerOf(request), request.params.id, request.params.taskId),
        ),
    );
    app.post(
      `${base}/:id/tasks`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: "Task an employee (the receiving department's manager or secretary)",
          params: idParamsSchema,
          body: createTaskRequestSchema,
          response: { 201: envelopeOf(taskSchema) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            envelope(
              request,
              await corr.assignTask(ctx, callerOf(request), request.params.id, request.body),
              'correspondence.messages.taskAssigned',
            ),
          ),
    );
    app.put(
      `${base}/:id/tasks/:taskId/state`,
      {
        config: on(PAGES.incomingTasks, 'edit'),
        schema: {
          ...docs,
          summary: 'Move a task: new → inProgress → completed',
          params: taskParamsSchema,
          body: taskStateRequestSchema,
          response: { 200: envelopeOf(taskSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await corr.moveTask(
            ctx,
            callerOf(request),
            request.params.id,
            request.params.taskId,
            request.body.state,
            request.body.note ?? null,
          ),
          'correspondence.messages.taskUpdated',
        ),
    );

    // ------------------------------------------------------------ follow and timeline
    app.post(
      `${base}/:id/follow`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Follow a document',
          params: idParamsSchema,
          body: followRequestSchema,
          response: { 200: envelopeOf(followSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await corr.followDocument(ctx, callerOf(request), request.params.id, request.body),
          'correspondence.messages.followed',
        ),
    );
    app.delete(
      `${base}/:id/follow`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Stop following a document',
          params: idParamsSchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => {
        await corr.unfollowDocument(ctx, callerOf(request), request.params.id);
        return envelope(request, null, 'correspondence.messages.unfollowed');
      },
    );
    app.get(
      `${base}/:id/timeline`,
      {
        config: authenticated,
        schema: {
          ...docs,
          summary: 'Everything that happened to the document',
          params: idParamsSchema,
          response: { 200: envelopeOf(z.array(timelineEntrySchema)) },
        },
      },
      async (request) => envelope(request, await corr.timeline(ctx, callerOf(request), request.params.id)),
    );

    // ------------------------------------------------------------ calendar
    app.get(
      '/user/calendar/events',
      {
        config: authenticated,
        schema: {
          tags: ['calendar'],
          security,
          summary: "The caller's tasks and follow-up dates between two dates",
          querystring: calendarQuerySchema,
          response: { 200: envelopeOf(z.array(calendarEventSchema)) },
        },
      },
      async (request) => envelope(request, await corr.calendarEvents(ctx, callerOf(request), request.query)),
    );
  };
}

/** Not yet declared in src-shared/api: its routes carry their full paths (prefix ''). */
export const correspondenceModule: AppModule = {
  name: 'correspondence',
  prefix: '',
  routes: (app, ctx) => correspondenceRoutes(ctx)(app),
};
