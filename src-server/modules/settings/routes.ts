/**
 * HTTP routes of the settings lists, from their endpoints (src-shared/api/settings.ts): the same routes
 * for every list, each on its own page, and the clearances under security-levels. Rules live in
 * service.ts.
 */
import {
  SETTINGS_LISTS,
  type SettingCreate,
  type SettingUpdate,
} from '../../../src-shared/api/correspondence';
import { clearanceEndpoints, settingsEndpoints } from '../../../src-shared/api/settings';
import type { AppModule } from '../../app-type';
import { callerOf } from '../../http/access';
import { envelope } from '../../http/envelope';
import { route } from '../../http/route';
import * as settings from './service';

export const settingsModule: AppModule = {
  name: 'settings',
  prefix: '/correspondence/settings',
  routes: (app, ctx) => {
    for (const list of SETTINGS_LISTS) {
      const endpoints = settingsEndpoints[list];
      route(app, endpoints.list, async (request) =>
        envelope(request, await settings.listItems(ctx, list, request.query)),
      );
      route(app, endpoints.options, async (request) => envelope(request, await settings.options(ctx, list)));
      route(app, endpoints.get, async (request) =>
        envelope(request, await settings.getItem(ctx, list, request.params.id)),
      );
      // The body is the list's own create or edit shape (validated by the route's schema).
      route(app, endpoints.create, async (request) =>
        envelope(
          request,
          await settings.createItem(ctx, list, request.body as SettingCreate),
          'messages.created',
        ),
      );
      route(app, endpoints.update, async (request) =>
        envelope(
          request,
          await settings.updateItem(ctx, list, request.params.id, request.body as SettingUpdate),
          'messages.updated',
        ),
      );
      route(app, endpoints.setActive, async (request) =>
        envelope(
          request,
          await settings.updateItem(ctx, list, request.params.id, { active: request.body.active }),
          request.body.active ? 'messages.activated' : 'messages.deactivated',
        ),
      );
    }

    route(app, clearanceEndpoints.get, async (request) =>
      envelope(request, await settings.getClearance(ctx, request.params.userId)),
    );
    route(app, clearanceEndpoints.set, async (request) =>
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
  },
};
