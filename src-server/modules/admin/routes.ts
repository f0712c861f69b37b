/**
 * HTTP routes of administration, from their endpoints (src-shared/api/admin.ts; docs/api.md,
 * "Administration"): /auth/users, /auth/roles, /auth/roles/{id}/permissions, /auth/pages and /auth/audit,
 * each declaring its page and permission. Rules live in service.ts.
 */
import { adminEndpoints as E } from '../../../src-shared/api/admin';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { route } from '../../http/route';
import { metaOf } from '../auth/service';
import * as admin from './service';

export const adminModule: AppModule = {
  name: 'admin',
  prefix: '/auth',
  routes: (app, ctx) => {
    // ------------------------------------------------------------ users
    route(app, E.listUsers, async (request) => admin.listUsers(ctx, request.query));
    route(app, E.createUser, async (request) =>
      admin.createUser(ctx, callerOf(request), request.body, metaOf(request)),
    );
    route(app, E.roleOptions, async () => admin.roleOptions(ctx));
    route(app, E.clearanceOptions, async () => admin.clearanceOptions(ctx));
    route(app, E.getUser, async (request) => admin.getUser(ctx, request.params.id));
    route(app, E.updateUser, async (request) =>
      admin.updateUser(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
    );
    route(app, E.setUserActive, async (request) =>
      admin.setUserActive(ctx, callerOf(request), request.params.id, request.body.active, metaOf(request)),
    );
    route(app, E.resetUserPassword, async (request) => ({
      temporaryPassword: await admin.resetUserPassword(
        ctx,
        callerOf(request),
        request.params.id,
        metaOf(request),
      ),
    }));
    route(app, E.setUserPassword, async (request) => {
      await admin.setUserPassword(
        ctx,
        callerOf(request),
        request.params.id,
        request.body.password,
        metaOf(request),
      );
      return null;
    });

    // ------------------------------------------------------------ roles
    route(app, E.listRoles, async (request) => admin.listRoles(ctx, request.query));
    route(app, E.createRole, async (request) =>
      admin.createRole(ctx, callerOf(request), request.body, metaOf(request)),
    );
    route(app, E.getRole, async (request) => admin.getRole(ctx, request.params.id));
    route(app, E.updateRole, async (request) =>
      admin.updateRole(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
    );
    route(app, E.setRoleActive, async (request) =>
      admin.setRoleActive(ctx, callerOf(request), request.params.id, request.body.active, metaOf(request)),
    );
    route(app, E.rolePermissions, async (request) => admin.getRolePermissions(ctx, request.params.id));
    route(app, E.setRolePermissions, async (request) =>
      admin.setRolePermissions(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
    );

    // ------------------------------------------------------------ sections and pages
    route(app, E.pagesTree, async () => ({ pages: await admin.pagesTree(ctx) }));
    route(app, E.createPage, async (request) =>
      admin.createPage(ctx, callerOf(request), request.body, metaOf(request)),
    );
    route(app, E.updatePage, async (request) =>
      admin.updatePage(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
    );

    // ------------------------------------------------------------ audit
    route(app, E.audit, async (request) => admin.listAudit(ctx, request.query, request.locale));
  },
};
