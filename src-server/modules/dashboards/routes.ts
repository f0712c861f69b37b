/**
 * HTTP routes of the dashboards, from their endpoints (src-shared/api/dashboards.ts). The page permission
 * is enforced before the handler (the endpoint's `access`); what is counted is the service's business.
 */
import { dashboardEndpoints as e } from '../../../src-shared/api/dashboards';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import * as dashboards from './service';

export const dashboardsModule: AppModule = {
  name: 'dashboards',
  prefix: '/dashboards',
  routes: (app, ctx) => {
    route(app, e.archive, async (request) =>
      dashboards.archiveDashboard(ctx, callerOf(request), request.query),
    );
    route(app, e.manager, async (request) =>
      dashboards.managerDashboard(ctx, callerOf(request), request.query),
    );
    route(app, e.organisation, async (request) =>
      dashboards.organisationDashboard(ctx, callerOf(request), request.query),
    );
  },
};
