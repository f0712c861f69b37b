/**
 * HTTP routes of records management, from their endpoints (src-shared/api/records.ts). Rules live in
 * service.ts (carrying a disposition out queues its job, disposition-job.ts); the certificate and the
 * package are sent as files.
 */
import type { FastifyReply } from 'fastify';
import { recordsEndpoints as e } from '../../../src-shared/api/records';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import { contentDisposition } from '../../http/send-file';
import * as records from './service';

const send = (reply: FastifyReply, type: string, fileName: string, bytes: Buffer) =>
  reply
    .header('content-type', type)
    .header('content-disposition', contentDisposition('attachment', fileName))
    .header('cache-control', 'no-store')
    .send(bytes);

export const recordsModule: AppModule = {
  name: 'records',
  prefix: '/records',
  routes: (app, ctx) => {
    const meta = (request: { ip?: string }) => ({ ip: request.ip ?? null });
    route(app, e.listFiles, async (request) => records.listFiles(ctx, request.query));
    route(app, e.pickFiles, async (request) => records.pickFiles(ctx, request.query.q));
    route(app, e.getFile, async (request) => records.getFile(ctx, request.params.id));
    route(app, e.fileDocuments, async (request) => records.fileDocuments(ctx, request.params.id));
    route(app, e.createFile, async (request) =>
      records.createFile(ctx, callerOf(request), request.body, meta(request)),
    );
    route(app, e.updateFile, async (request) =>
      records.updateFile(ctx, callerOf(request), request.params.id, request.body, meta(request)),
    );
    route(app, e.closeFile, async (request) =>
      records.closeFile(ctx, callerOf(request), request.params.id, request.body.closedOn, meta(request)),
    );
    route(app, e.reopenFile, async (request) =>
      records.reopenFile(ctx, callerOf(request), request.params.id, meta(request)),
    );
    route(app, e.moveDocument, async (request) =>
      records.moveDocument(ctx, callerOf(request), request.params.id, request.body.documentId, meta(request)),
    );
    route(app, e.listSchedules, async () => records.listSchedules(ctx));
    route(app, e.putSchedule, async (request) =>
      records.putSchedule(ctx, callerOf(request), request.params.codificationId, request.body, meta(request)),
    );
    route(app, e.deleteSchedule, async (request) =>
      records.deleteSchedule(ctx, callerOf(request), request.params.codificationId, meta(request)),
    );
    route(app, e.due, async () => records.dueFiles(ctx));
    route(app, e.listDispositions, async (request) => records.listDispositions(ctx, request.locale));
    route(app, e.getDisposition, async (request) =>
      records.getDisposition(ctx, request.params.id, request.locale),
    );
    route(app, e.dispositionProgress, async (request) =>
      records.dispositionProgress(ctx, request.params.id, request.locale),
    );
    route(app, e.propose, async (request) =>
      records.propose(ctx, callerOf(request), request.body, meta(request)),
    );
    route(app, e.approve, async (request) =>
      records.approve(ctx, callerOf(request), request.params.id, meta(request), request.locale),
    );
    route(app, e.cancel, async (request) =>
      records.cancel(ctx, callerOf(request), request.params.id, meta(request), request.locale),
    );
    route(app, e.execute, async (request) =>
      records.execute(ctx, callerOf(request), request.params.id, meta(request), request.locale),
    );
    route(app, e.certificate, async (request, reply) => {
      const { bytes, code } = await records.outputOf(ctx, request.params.id, 'destroy');
      return send(reply, 'application/pdf', `destruction-${code}.pdf`, bytes);
    });
    route(app, e.package, async (request, reply) => {
      const { bytes, code } = await records.outputOf(ctx, request.params.id, 'transfer');
      return send(reply, 'application/gzip', `${code}.tar.gz`, bytes);
    });
    route(app, e.listHolds, async (request) => records.listHolds(ctx, request.query.active));
    route(app, e.placeHold, async (request) =>
      records.placeHold(ctx, callerOf(request), request.body, meta(request)),
    );
    route(app, e.liftHold, async (request) =>
      records.liftHold(ctx, callerOf(request), request.params.id, meta(request)),
    );
  },
};
