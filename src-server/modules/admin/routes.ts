/**
 * HTTP routes of administration (docs/api.md, "Administration"): /auth/users, /auth/roles,
 * /auth/roles/{id}/permissions, /auth/pages and /auth/audit, each declaring its page and permission.
 */
import { z } from 'zod';
import { envelopeOf, pageOf } from '../../../src-shared/api/envelope';
import {
  adminListQuerySchema,
  adminPageSchema,
  adminPagesTreeSchema,
  auditEntrySchema,
  createPageRequestSchema,
  createRoleRequestSchema,
  createUserRequestSchema,
  idParamsSchema,
  resetPasswordResponseSchema,
  roleOptionSchema,
  clearanceOptionSchema,
  roleSchema,
  rolePermissionsWithPagesSchema,
  setActiveSchema,
  setRolePermissionsRequestSchema,
  setUserPasswordRequestSchema,
  updatePageRequestSchema,
  updateRoleRequestSchema,
  updateUserRequestSchema,
  userSchema,
} from '../../../src-shared/api/admin';
import type { Permission } from '../../../src-shared/permissions';
import { PAGES } from '../../../src-shared/pages';
import type { App, AppModule } from '../../app-type';
import type { ServerContext } from '../../context';
import { callerOf } from '../../http/access';
import { envelope } from '../../http/envelope';
import { metaOf } from '../auth/service';
import * as admin from './service';

const security = [{ bearer: [] }];
const on = (page: string, permission: Permission) => ({ access: { page, permission } });

/** Registers the administration routes. */
export function adminRoutes(ctx: ServerContext) {
  return async (app: App) => {
    // ------------------------------------------------------------ users
    const users = { tags: ['users'], security };
    app.get(
      '/auth/users',
      {
        config: on(PAGES.users, 'view'),
        schema: {
          ...users,
          summary: 'List users',
          querystring: adminListQuerySchema,
          response: { 200: envelopeOf(pageOf(userSchema)) },
        },
      },
      async (request) => envelope(request, await admin.listUsers(ctx, request.query)),
    );
    app.post(
      '/auth/users',
      {
        config: on(PAGES.users, 'add'),
        schema: {
          ...users,
          summary: 'Create a user',
          body: createUserRequestSchema,
          response: { 201: envelopeOf(userSchema) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            envelope(
              request,
              await admin.createUser(ctx, callerOf(request), request.body, metaOf(request)),
              'messages.userCreated',
            ),
          ),
    );
    app.get(
      '/auth/users/role-options',
      {
        config: on(PAGES.users, 'view'),
        schema: {
          ...users,
          summary: 'Roles a user may be given (pickers of the users screen)',
          response: { 200: envelopeOf(z.array(roleOptionSchema)) },
        },
      },
      async (request) => envelope(request, await admin.roleOptions(ctx)),
    );
    app.get(
      '/auth/users/clearance-options',
      {
        config: on(PAGES.users, 'view'),
        schema: {
          ...users,
          summary: 'Security levels a user may be cleared for (pickers of the users screen)',
          response: { 200: envelopeOf(z.array(clearanceOptionSchema)) },
        },
      },
      async (request) => envelope(request, await admin.clearanceOptions(ctx)),
    );
    app.get(
      '/auth/users/:id',
      {
        config: on(PAGES.users, 'view'),
        schema: {
          ...users,
          summary: 'One user',
          params: idParamsSchema,
          response: { 200: envelopeOf(userSchema) },
        },
      },
      async (request) => envelope(request, await admin.getUser(ctx, request.params.id)),
    );
    app.put(
      '/auth/users/:id',
      {
        config: on(PAGES.users, 'edit'),
        schema: {
          ...users,
          summary: 'Edit a user',
          params: idParamsSchema,
          body: updateUserRequestSchema,
          response: { 200: envelopeOf(userSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await admin.updateUser(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
          'messages.userUpdated',
        ),
    );
    app.put(
      '/auth/users/:id/active',
      {
        config: on(PAGES.users, 'activate'),
        schema: {
          ...users,
          summary: 'Activate or deactivate a user (deactivation ends their sessions)',
          params: idParamsSchema,
          body: setActiveSchema,
          response: { 200: envelopeOf(userSchema) },
        },
      },
      async (request) =>
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
    app.post(
      '/auth/users/:id/reset-password',
      {
        config: on(PAGES.users, 'edit'),
        schema: {
          ...users,
          summary: 'Reset a password to a temporary one (shown once; sessions end)',
          params: idParamsSchema,
          response: { 200: envelopeOf(resetPasswordResponseSchema) },
        },
      },
      async (request) =>
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
    app.put(
      '/auth/users/:id/password',
      {
        config: on(PAGES.users, 'edit'),
        schema: {
          ...users,
          summary: "Set a user's password (sessions end)",
          params: idParamsSchema,
          body: setUserPasswordRequestSchema,
          response: { 200: envelopeOf(z.null()) },
        },
      },
      async (request) => {
        await admin.setUserPassword(
          ctx,
          callerOf(request),
          request.params.id,
          request.body.password,
          metaOf(request),
        );
        return envelope(request, null, 'messages.passwordChanged');
      },
    );

    // ------------------------------------------------------------ roles
    const roles = { tags: ['roles'], security };
    app.get(
      '/auth/roles',
      {
        config: on(PAGES.roles, 'view'),
        schema: {
          ...roles,
          summary: 'List roles',
          querystring: adminListQuerySchema,
          response: { 200: envelopeOf(pageOf(roleSchema)) },
        },
      },
      async (request) => envelope(request, await admin.listRoles(ctx, request.query)),
    );
    app.post(
      '/auth/roles',
      {
        config: on(PAGES.roles, 'add'),
        schema: {
          ...roles,
          summary: 'Create a role',
          body: createRoleRequestSchema,
          response: { 201: envelopeOf(roleSchema) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            envelope(
              request,
              await admin.createRole(ctx, callerOf(request), request.body, metaOf(request)),
              'messages.roleCreated',
            ),
          ),
    );
    app.get(
      '/auth/roles/:id',
      {
        config: on(PAGES.roles, 'view'),
        schema: {
          ...roles,
          summary: 'One role',
          params: idParamsSchema,
          response: { 200: envelopeOf(roleSchema) },
        },
      },
      async (request) => envelope(request, await admin.getRole(ctx, request.params.id)),
    );
    app.put(
      '/auth/roles/:id',
      {
        config: on(PAGES.roles, 'edit'),
        schema: {
          ...roles,
          summary: 'Edit a role',
          params: idParamsSchema,
          body: updateRoleRequestSchema,
          response: { 200: envelopeOf(roleSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await admin.updateRole(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
          'messages.roleUpdated',
        ),
    );
    app.put(
      '/auth/roles/:id/active',
      {
        config: on(PAGES.roles, 'activate'),
        schema: {
          ...roles,
          summary: 'Activate or deactivate a role',
          params: idParamsSchema,
          body: setActiveSchema,
          response: { 200: envelopeOf(roleSchema) },
        },
      },
      async (request) =>
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
    app.get(
      '/auth/roles/:id/permissions',
      {
        config: on(PAGES.roles, 'view'),
        schema: {
          ...roles,
          summary: "The role's page-permission matrix",
          params: idParamsSchema,
          response: { 200: envelopeOf(rolePermissionsWithPagesSchema) },
        },
      },
      async (request) => envelope(request, await admin.getRolePermissions(ctx, request.params.id)),
    );
    app.put(
      '/auth/roles/:id/permissions',
      {
        config: on(PAGES.roles, 'edit'),
        schema: {
          ...roles,
          summary: "Replace the role's page-permission matrix",
          params: idParamsSchema,
          body: setRolePermissionsRequestSchema,
          response: { 200: envelopeOf(rolePermissionsWithPagesSchema) },
        },
      },
      async (request) =>
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
    const pages = { tags: ['pages'], security };
    app.get(
      '/auth/pages',
      {
        config: on(PAGES.pages, 'view'),
        schema: {
          ...pages,
          summary: 'Every section and page with the permissions it offers',
          response: { 200: envelopeOf(adminPagesTreeSchema) },
        },
      },
      async (request) => envelope(request, { pages: await admin.pagesTree(ctx) }),
    );
    app.post(
      '/auth/pages',
      {
        config: on(PAGES.pages, 'add'),
        schema: {
          ...pages,
          summary: 'Create a section or a page',
          body: createPageRequestSchema,
          response: { 201: envelopeOf(adminPageSchema) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            envelope(
              request,
              await admin.createPage(ctx, callerOf(request), request.body, metaOf(request)),
              'messages.pageCreated',
            ),
          ),
    );
    app.put(
      '/auth/pages/:id',
      {
        config: on(PAGES.pages, 'edit'),
        schema: {
          ...pages,
          summary: 'Edit a section or a page',
          params: idParamsSchema,
          body: updatePageRequestSchema,
          response: { 200: envelopeOf(adminPageSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await admin.updatePage(ctx, callerOf(request), request.params.id, request.body, metaOf(request)),
          'messages.pageUpdated',
        ),
    );

    // ------------------------------------------------------------ audit
    app.get(
      '/auth/audit',
      {
        config: on(PAGES.audit, 'view'),
        schema: {
          tags: ['audit'],
          security,
          summary: 'The audit log (newest first)',
          querystring: adminListQuerySchema,
          response: { 200: envelopeOf(pageOf(auditEntrySchema)) },
        },
      },
      async (request) => envelope(request, await admin.listAudit(ctx, request.query, request.locale)),
    );
  };
}

/** Not yet declared in src-shared/api: its routes carry their full paths (prefix ''). */
export const adminModule: AppModule = {
  name: 'admin',
  prefix: '',
  routes: (app, ctx) => adminRoutes(ctx)(app),
};
