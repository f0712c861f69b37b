/**
 * HTTP routes of the correspondence core, from their endpoints (src-shared/api/correspondence-endpoints.ts;
 * docs/api.md, "Correspondence"): documents, boxes (one route per box, each on its page), and under a
 * document: register, distribution, tasks, follow, timeline, attachments, related; intake; signing
 * authority and circuit templates; plus the calendar's events. Actions on a document declare
 * `authenticated`: the page and permission they need follow the document's direction (common.ts
 * `pagesFor`), which only the service knows once it has read the document; it answers 404 for a document
 * the caller may not see, then 403. Rules live in the services.
 */
import {
  BOXES,
  INTAKE_BATCH_MAX_FILES,
  createDocumentHeadersSchema,
  intakeBatchManifestSchema,
  intakeHeadersSchema,
  updateDocumentHeadersSchema,
  versionOfTag,
} from '../../../src-shared/api/correspondence';
import { boxEndpoints, correspondenceEndpoints as E } from '../../../src-shared/api/correspondence-endpoints';
import type { FastifyReply } from 'fastify';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { HttpProblem, fieldsOfZodError, renderProblem } from '../../http/problem';
import { route } from '../../http/route';
import { clientGoneSignal } from '../../http/client-gone';
import { contentDisposition, sendStoredFile } from '../../http/send-file';
import { pdfReceiver, receivePdfBatch, uploadOptions } from '../../http/upload';
import { metaOf } from '../auth/service';
import * as approvals from './approvals';
import * as due from './due';
import * as paper from './paper';
import { intake, intakeFiles } from './intake';
import * as corr from './service';
import * as signing from './signing';
import * as reads from '../reads/service';
import { READ_TOKEN_HEADER, readTokenField } from '../../../src-shared/api/reads';

export const correspondenceModule: AppModule = {
  name: 'correspondence',
  // Its paths start with /correspondence, and the calendar's with /user.
  prefix: '',
  routes: (app, ctx) => {
    // ------------------------------------------------------------ boxes
    for (const box of BOXES) {
      route(app, boxEndpoints[box], async (request) =>
        corr.listBox(ctx, callerOf(request), box, request.query),
      );
    }
    route(app, E.boxCounts, async (request) => approvals.boxCounts(ctx, callerOf(request)));

    // ------------------------------------------------------------ approval circuits
    route(app, E.circuitProposal, async (request) =>
      approvals.circuitProposal(ctx, callerOf(request), request.params.id),
    );
    route(app, E.signatories, async (request) =>
      approvals.documentSignatories(ctx, callerOf(request), request.params.id),
    );
    route(app, E.signingAuthority, async (request) =>
      signing.signingAuthority(ctx, request.params.departmentId),
    );
    route(app, E.grantSigningAuthority, async (request) =>
      signing.grantSigningAuthority(
        ctx,
        callerOf(request),
        request.params.departmentId,
        request.body.userId,
        metaOf(request),
      ),
    );
    route(app, E.revokeSigningAuthority, async (request) =>
      signing.revokeSigningAuthority(
        ctx,
        callerOf(request),
        request.params.departmentId,
        request.params.userId,
        metaOf(request),
      ),
    );
    route(app, E.approvers, async (request) => approvals.approverOptions(ctx, request.query.q));
    route(app, E.submit, async (request) =>
      approvals.submitDocument(ctx, callerOf(request), request.params.id, request.body),
    );
    route(app, E.decide, async (request) =>
      approvals.decideDocument(ctx, callerOf(request), request.params.id, request.body),
    );
    route(app, E.dispatch, async (request) =>
      approvals.dispatchDocument(ctx, callerOf(request), request.params.id, request.body),
    );
    route(app, E.replyDue, async (request) => {
      await due.changeReplyDue(ctx, callerOf(request), request.params.id, request.body, metaOf(request).ip);
      return corr.getDocument(ctx, callerOf(request), request.params.id);
    });
    route(app, E.replyClose, async (request) => {
      await due.closeReply(ctx, callerOf(request), request.params.id, request.body, metaOf(request).ip);
      return corr.getDocument(ctx, callerOf(request), request.params.id);
    });
    route(app, E.circuitTemplate, async (request) =>
      approvals.getTemplate(ctx, request.params.departmentId, request.params.direction),
    );
    route(app, E.saveCircuitTemplate, async (request) =>
      approvals.saveTemplate(
        ctx,
        callerOf(request),
        request.params.departmentId,
        request.params.direction,
        request.body,
      ),
    );

    // ------------------------------------------------------------ documents
    route(
      app,
      E.createDocument,
      async (request, reply) => {
        const { document, replayed } = await corr.createOrReplayDocument(
          ctx,
          callerOf(request),
          request.body,
          createDocumentHeadersSchema.parse(request.headers)['idempotency-key'],
        );
        reply.status(replayed ? 200 : 201);
        return document;
      },
      { schema: { headers: createDocumentHeadersSchema } },
    );
    route(app, E.lookup, async (request) => corr.lookupDocuments(ctx, callerOf(request), request.query.q));
    route(app, E.holders, async (request) =>
      corr.contentHolders(ctx, callerOf(request), request.query.sha256, request.query.except),
    );
    route(app, E.getDocument, async (request, reply) => {
      const doc = await corr.getDocument(ctx, callerOf(request), request.params.id);
      // Who read what (modules/reads): once per opening (its `read` token).
      await reads.recordOpened(ctx, callerOf(request), doc.id, request.query.read, metaOf(request));
      reply.header('etag', `"${doc.version}"`);
      return doc;
    });
    route(
      app,
      E.updateDocument,
      async (request, reply) => {
        const tag = updateDocumentHeadersSchema.parse(request.headers)['if-match'];
        const doc = await corr.updateDocument(
          ctx,
          callerOf(request),
          request.params.id,
          request.body,
          tag === undefined ? undefined : versionOfTag(tag),
        );
        reply.header('etag', `"${doc.version}"`);
        return doc;
      },
      { schema: { headers: updateDocumentHeadersSchema } },
    );
    route(app, E.deleteDraft, async (request) => {
      await corr.deleteDraft(ctx, callerOf(request), request.params.id);
      return null;
    });
    route(app, E.register, async (request) =>
      corr.registerDocument(ctx, callerOf(request), request.params.id),
    );

    // ------------------------------------------------------------ related
    route(app, E.related, async (request) => corr.listRelated(ctx, callerOf(request), request.params.id));
    route(app, E.relate, async (request) =>
      corr.addRelated(ctx, callerOf(request), request.params.id, request.body.documentIds),
    );
    route(app, E.unrelate, async (request) => {
      await corr.removeRelated(ctx, callerOf(request), request.params.id, request.params.relatedId);
      return null;
    });

    // ------------------------------------------------------------ attachments
    route(app, E.attachments, async (request) =>
      corr.listAttachments(ctx, callerOf(request), request.params.id),
    );
    route(app, E.addAttachment, async (request) => {
      const pdf = pdfReceiver(request, ctx);
      return corr.addAttachment(ctx, callerOf(request), request.params.id, pdf.receive).finally(pdf.discard);
    });
    route(app, E.addAddition, async (request) => {
      const pdf = pdfReceiver(request, ctx);
      return corr
        .addAttachment(ctx, callerOf(request), request.params.id, pdf.receive, request.params.kind)
        .finally(pdf.discard);
    });
    route(
      app,
      E.intake,
      async (request, reply) => {
        const pdf = pdfReceiver(request, ctx);
        const result = await intake(
          ctx,
          callerOf(request),
          {
            key: intakeHeadersSchema.parse(request.headers)['idempotency-key'],
            number: request.query.number,
          },
          pdf,
          clientGoneSignal(reply),
        ).finally(pdf.discard);
        reply.status(result.replayed ? 200 : 201);
        return result;
      },
      { schema: { headers: intakeHeadersSchema } },
    );
    route(app, E.intakeBatch, async (request, reply) => {
      const gone = clientGoneSignal(reply);
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
        gone,
      );
      const results = outcomes.map((outcome, i) => ({
        key: manifest.files[i]!.key,
        status: outcome.status,
        ...('problem' in outcome
          ? { problem: renderProblem(outcome.problem, request.locale) }
          : { result: outcome.result }),
      }));
      return { results };
    });
    // ------------------------------------------------------------ paper: stickers, cover and separator sheets
    /** A PDF made for printing: shown inline, never cached (every print of a sticker is recorded). */
    const sendPdf = (reply: FastifyReply, fileName: string, bytes: Uint8Array) =>
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition('inline', fileName))
        .header('cache-control', 'no-store')
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    route(app, E.sticker, async (request, reply) => {
      const bytes = await paper.documentSticker(
        ctx,
        callerOf(request),
        request.params.id,
        request.query,
        metaOf(request).ip,
      );
      return sendPdf(reply, `sticker-${request.params.id}.pdf`, bytes);
    });
    route(app, E.coverSheet, async (request, reply) => {
      const bytes = await paper.documentCoverSheet(
        ctx,
        callerOf(request),
        request.params.id,
        metaOf(request).ip,
      );
      return sendPdf(reply, `cover-sheet-${request.params.id}.pdf`, bytes);
    });
    route(app, E.separatorSheet, async (_request, reply) =>
      sendPdf(reply, 'separator-sheet.pdf', await paper.separatorSheet()),
    );

    route(app, E.attachmentContent, async (request, reply) => {
      const { attachment, open } = await corr.openAttachment(
        ctx,
        callerOf(request),
        request.params.id,
        request.params.attachmentId,
      );
      // One view, one record, however many ranges the viewer reads (modules/reads/service.ts).
      const token = readTokenField.safeParse(request.headers[READ_TOKEN_HEADER]);
      await reads.recordView(
        ctx,
        callerOf(request),
        attachment,
        { token: token.success ? token.data : undefined, range: request.headers.range },
        metaOf(request),
      );
      return sendStoredFile(request, reply, { ...attachment, disposition: 'inline' }, open);
    });
    route(app, E.attachmentText, async (request) =>
      corr.attachmentText(ctx, callerOf(request), request.params.id, request.params.attachmentId),
    );
    route(app, E.removeAttachment, async (request) => {
      await corr.removeAttachment(ctx, callerOf(request), request.params.id, request.params.attachmentId);
      return null;
    });

    // ------------------------------------------------------------ distribution
    route(app, E.distribution, async (request) =>
      corr.listDistribution(ctx, callerOf(request), request.params.id),
    );
    route(app, E.distribute, async (request) =>
      corr.distribute(ctx, callerOf(request), request.params.id, request.body),
    );

    // ------------------------------------------------------------ tasks
    route(app, E.tasks, async (request) => corr.listTasks(ctx, callerOf(request), request.params.id));
    route(app, E.task, async (request) =>
      corr.getTask(ctx, callerOf(request), request.params.id, request.params.taskId),
    );
    route(app, E.assignTask, async (request) =>
      corr.assignTask(ctx, callerOf(request), request.params.id, request.body),
    );
    route(app, E.moveTask, async (request) =>
      corr.moveTask(
        ctx,
        callerOf(request),
        request.params.id,
        request.params.taskId,
        request.body.state,
        request.body.note ?? null,
      ),
    );

    // ------------------------------------------------------------ follow and timeline
    route(app, E.follow, async (request) =>
      corr.followDocument(ctx, callerOf(request), request.params.id, request.body),
    );
    route(app, E.unfollow, async (request) => {
      await corr.unfollowDocument(ctx, callerOf(request), request.params.id);
      return null;
    });
    route(app, E.timeline, async (request) => corr.timeline(ctx, callerOf(request), request.params.id));

    // ------------------------------------------------------------ calendar
    route(app, E.calendarEvents, async (request) =>
      corr.calendarEvents(ctx, callerOf(request), request.query),
    );
  },
};
