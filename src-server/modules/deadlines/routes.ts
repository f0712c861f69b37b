/**
 * Working week, holidays and deadline settings (issue 28) over HTTP, from their endpoints
 * (src-shared/api/deadlines.ts). Rules live in service.ts.
 */
import { deadlinesEndpoints as E } from '../../../src-shared/api/deadlines';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import { metaOf } from '../auth/service';
import * as service from './service';

export const deadlinesModule: AppModule = {
  name: 'deadlines',
  prefix: '/deadlines',
  routes(app, ctx) {
    route(app, E.settings, async () => service.getSettings(ctx));
    route(app, E.saveSettings, async (request) =>
      service.saveSettings(ctx, callerOf(request), request.body, metaOf(request).ip),
    );
    route(app, E.holidays, async () => service.listHolidays(ctx));
    route(app, E.createHoliday, async (request) =>
      service.createHoliday(ctx, callerOf(request), request.body, metaOf(request).ip),
    );
    route(app, E.updateHoliday, async (request) =>
      service.updateHoliday(ctx, callerOf(request), request.params.id, request.body, metaOf(request).ip),
    );
    route(app, E.deleteHoliday, async (request) =>
      service.deleteHoliday(ctx, callerOf(request), request.params.id, metaOf(request).ip),
    );
    route(app, E.calendar, async (request) => service.calendar(ctx, request.query));
  },
};
