/**
 * HTTP routes of administration, from their endpoints (src-shared/api/admin.ts; docs/api.md,
 * "Administration"): /auth/users, /auth/roles, /auth/roles/{id}/permissions, /auth/pages and /auth/audit,
 * each declaring its page and permission. Rules live in service.ts.
 */
import { adminEndpoints as E } from '../../../src-shared/api/admin';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { envelope } from '../../http/envelope';
import { route } from '../../http/route';
import { metaOf } from '../auth/service';
import * as admin from './service';

export const adminModule: AppModule = {
  name: 'admin',
  prefix: '/auth',
  routes: (app, ctx) => {
    // ------------------------------------------------------------ users
    route(app, E.listUsers, async (request) => envelope(request, await admin.listUsers(ctx, request.query)));
    route(app, E.createUser, async (request) =>
      envelope(
        request,
        await admin.createUser(ctx, callerOf(request), request.body, metaOf(request)),
        'messages.userCreated',
      ),
    );
    route(app, E.roleOptions, async (request) => envelope(request, await admin.roleOptions(ctx)));
    route(app, E.clearanceOptions, async (request) => envelope(request, await admin.clearanceOptions(ctx)));
    route(app, E.getUser, async (request) => envelope(request, await admin.getUser(ctx, request.params.id)));
    route(app, E.updateUser, async (request) =>
      envelope(
        request,
        await admin.updateUser(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
        'messages.userUpdated',
      ),
    );
    route(app, E.setUserActive, async (request) =>
      envelope(
        request,
        await admin.setUserActive(
          ctx,
          callerOf(request),
          request.params.id,
          request.body.active,
          metaOf(request),
        ),
        request.body.active ? 'messages.activated' : 'messages.deactivated',
      ),
    );
    route(app, E.resetUserPassword, async (request) =>
      envelope(
        request,
        {
          temporaryPassword: await admin.resetUserPassword(
            ctx,
            callerOf(request),
            request.params.id,
            metaOf(request),
          ),
        },
        'messages.passwordReset',
      ),
    );
    route(app, E.setUserPassword, async (request) => {
      await admin.setUserPassword(
        ctx,
        callerOf(request),
        request.params.id,
        request.body.password,
        metaOf(request),
      );
      return envelope(request, null, 'messages.passwordChanged');
    });

    // ------------------------------------------------------------ roles
    route(app, E.listRoles, async (request) => envelope(request, await admin.listRoles(ctx, request.query)));
    route(app, E.createRole, async (request) =>
      envelope(
        request,
        await admin.createRole(ctx, callerOf(request), request.body, metaOf(request)),
        'messages.roleCreated',
      ),
    );
    route(app, E.getRole, async (request) => envelope(request, await admin.getRole(ctx, request.params.id)));
    route(app, E.updateRole, async (request) =>
      envelope(
        request,
        await admin.updateRole(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
        'messages.roleUpdated',
      ),
    );
    route(app, E.setRoleActive, async (request) =>
      envelope(
        request,
        await admin.setRoleActive(
          ctx,
          callerOf(request),
          request.params.id,
          request.body.active,
          metaOf(request),
        ),
        request.body.active ? 'messages.activated' : 'messages.deactivated',
      ),
    );
    route(app, E.rolePermissions, async (request) =>
      envelope(request, await admin.getRolePermissions(ctx, request.params.id)),
    );
    route(app, E.setRolePermissions, async (request) =>
      envelope(
        request,
        await admin.setRolePermissions(
          ctx,
          callerOf(request),
          request.params.id,
          request.body,
          metaOf(request),
        ),
        'messages.permissionsSaved',
      ),
    );

    // ------------------------------------------------------------ sections and pages
    route(app, E.pagesTree, async (request) => envelope(request, { pages: await admin.pagesTree(ctx) }));
    route(app, E.createPage, async (request) =>
      envelope(
        request,
        await admin.createPage(ctx, callerOf(request), request.body, metaOf(request)),
        'messages.pageCreated',
      ),
    );
    route(app, E.updatePage, async (request) =>
      envelope(
        request,
        await admin.updatePage(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
        'messages.pageUpdated',
      ),
    );

    // ------------------------------------------------------------ audit
    route(app, E.audit, async (request) =>
      envelope(request, await admin.listAudit(ctx, request.query, request.locale)),
    );
  },
};
