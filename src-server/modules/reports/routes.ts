/**
 * HTTP routes of the reports (issue 30), from their endpoints (src-shared/api/reports.ts): a report's table,
 * and its exports (queued as jobs, followed, downloaded by their requester). Rules live in service.ts and
 * exports.ts; the access hook enforces 'view' and 'export' on the reports page.
 */
import { reportsEndpoints as E } from '../../../src-shared/api/reports';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import { sendStoredFile } from '../../http/send-file';
import * as exports from './exports';
import * as service from './service';

export const reportsModule: AppModule = {
  name: 'reports',
  prefix: '/reports',
  routes(app, ctx) {
    route(app, E.createExport, async (request) => exports.createExport(ctx, callerOf(request), request.body));
    route(app, E.listExports, async (request) => exports.listExports(ctx, callerOf(request), request.locale));
    route(app, E.getExport, async (request) =>
      exports.getExport(ctx, callerOf(request), request.params.id, request.locale),
    );
    route(app, E.exportFile, async (request, reply) => {
      const file = await exports.exportFile(ctx, callerOf(request), request.params.id);
      return sendStoredFile(
        request,
        reply,
        { ...file, contentType: file.type, disposition: 'attachment' },
        (range) => ctx.files.open(file.sha256, range),
      );
    });
    route(app, E.report, async (request) =>
      service.viewReport(ctx, callerOf(request), request.params.report, request.query, request.locale),
    );
  },
};
