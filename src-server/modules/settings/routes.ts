/**
 * HTTP routes of the settings lists (docs/api.md: /correspondence/settings/{mediums,priorities,security-levels,
 * codifications,main-distribution}). One loop registers the same routes for every list, each on its own
 * page: list and get (view), create (add), edit (edit), activate (activate); `/options` feeds pickers
 * to any signed-in user. Clearances (a user's security level) hang under security-levels.
 */
import { z } from 'zod';
import { idField } from '../../../src-shared/api/fields';
import { envelopeOf, pageOf } from '../../../src-shared/api/envelope';
import {
  SETTINGS_LISTS,
  clearanceSchema,
  idParamsSchema,
  setActiveSchema,
  setClearanceRequestSchema,
  settingCreateSchemas,
  settingItemSchema,
  settingOptionSchema,
  settingUpdateSchemas,
  settingsListQuerySchema,
  type SettingCreate,
  type SettingUpdate,
} from '../../../src-shared/api/correspondence';
import type { Permission } from '../../../src-shared/permissions';
import type { App, AppModule } from '../../app-type';
import type { ServerContext } from '../../context';
import { callerOf } from '../../http/access';
import { envelope } from '../../http/envelope';
import * as settings from './service';
import { PAGES } from '../../../src-shared/pages';

const security = [{ bearer: [] }];
const on = (page: string, permission: Permission) => ({ access: { page, permission } });
const userParamsSchema = z.object({ userId: idField }).strict();

/** Registers the settings-list routes. */
export function settingsRoutes(ctx: ServerContext) {
  return async (app: App) => {
    for (const list of SETTINGS_LISTS) {
      const base = `/correspondence/settings/${list}`;
      const tags = { tags: ['settings'], security };
      app.get(
        base,
        {
          config: on(base, 'view'),
          schema: {
            ...tags,
            summary: `List ${list}`,
            querystring: settingsListQuerySchema,
            response: { 200: envelopeOf(pageOf(settingItemSchema)) },
          },
        },
        async (request) => envelope(request, await settings.listItems(ctx, list, request.query)),
      );
      app.get(
        `${base}/options`,
        {
          config: { access: 'authenticated' },
          schema: {
            ...tags,
            summary: `Active ${list} for pickers`,
            response: { 200: envelopeOf(z.array(settingOptionSchema)) },
          },
        },
        async (request) => envelope(request, await settings.options(ctx, list)),
      );
      app.get(
        `${base}/:id`,
        {
          config: on(base, 'view'),
          schema: {
            ...tags,
            summary: `One of ${list}`,
            params: idParamsSchema,
            response: { 200: envelopeOf(settingItemSchema) },
          },
        },
        async (request) => envelope(request, await settings.getItem(ctx, list, request.params.id)),
      );
      app.post(
        base,
        {
          config: on(base, 'add'),
          schema: {
            ...tags,
            summary: `Create one of ${list}`,
            body: settingCreateSchemas[list],
            response: { 201: envelopeOf(settingItemSchema) },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(
              envelope(
                request,
                await settings.createItem(ctx, list, request.body as SettingCreate),
                'messages.created',
              ),
            ),
      );
      app.put(
        `${base}/:id`,
        {
          config: on(base, 'edit'),
          schema: {
            ...tags,
            summary: `Edit one of ${list}`,
            params: idParamsSchema,
            body: settingUpdateSchemas[list],
            response: { 200: envelopeOf(settingItemSchema) },
          },
        },
        async (request) =>
          envelope(
            request,
            await settings.updateItem(ctx, list, request.params.id, request.body as SettingUpdate),
            'messages.updated',
          ),
      );
      app.put(
        `${base}/:id/active`,
        {
          config: on(base, 'activate'),
          schema: {
            ...tags,
            summary: `Activate or deactivate one of ${list}`,
            params: idParamsSchema,
            body: setActiveSchema,
            response: { 200: envelopeOf(settingItemSchema) },
          },
        },
        async (request) =>
          envelope(
            request,
            await settings.updateItem(ctx, list, request.params.id, { active: request.body.active }),
            request.body.active ? 'messages.activated' : 'messages.deactivated',
          ),
      );
    }

    const levels = '/correspondence/settings/security-levels';
    app.get(
      `${levels}/clearance/:userId`,
      {
        config: on(PAGES.securityLevels, 'view'),
        schema: {
          tags: ['settings'],
          security,
          summary: "A user's clearance (null: the lowest active level)",
          params: userParamsSchema,
          response: { 200: envelopeOf(clearanceSchema) },
        },
      },
      async (request) => envelope(request, await settings.getClearance(ctx, request.params.userId)),
    );
    app.put(
      `${levels}/clearance/:userId`,
      {
        config: on(PAGES.securityLevels, 'edit'),
        schema: {
          tags: ['settings'],
          security,
          summary: "Set a user's clearance",
          params: userParamsSchema,
          body: setClearanceRequestSchema,
          response: { 200: envelopeOf(clearanceSchema) },
        },
      },
      async (request) =>
        envelope(
          request,
          await settings.setClearance(
            ctx,
            callerOf(request),
            request.params.userId,
            request.body.securityLevelId,
            {
              ip: request.ip ?? null,
            },
          ),
          'messages.clearanceSaved',
        ),
    );
  };
}

/** Not yet declared in src-shared/api: its routes carry their full paths (prefix ''). */
export const settingsModule: AppModule = {
  name: 'settings',
  prefix: '',
  routes: (app, ctx) => settingsRoutes(ctx)(app),
};
