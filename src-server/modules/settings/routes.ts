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
import { route } from '../../http/route';
import * as settings from './service';

export const settingsModule: AppModule = {
  name: 'settings',
  prefix: '/correspondence/settings',
  routes: (app, ctx) => {
    for (const list of SETTINGS_LISTS) {
      const endpoints = settingsEndpoints[list];
      route(app, endpoints.list, async (request) => settings.listItems(ctx, list, request.query));
      route(app, endpoints.options, async () => settings.options(ctx, list));
      route(app, endpoints.get, async (request) => settings.getItem(ctx, list, request.params.id));
      // The body is the list's own create or edit shape (validated by the route's schema).
      route(app, endpoints.create, async (request) =>
        settings.createItem(ctx, list, request.body as SettingCreate),
      );
      route(app, endpoints.update, async (request) =>
        settings.updateItem(ctx, list, request.params.id, request.body as SettingUpdate),
      );
      route(app, endpoints.setActive, async (request) =>
        settings.updateItem(ctx, list, request.params.id, { active: request.body.active }),
      );
    }

    route(app, clearanceEndpoints.get, async (request) => settings.getClearance(ctx, request.params.userId));
    route(app, clearanceEndpoints.set, async (request) =>
      settings.setClearance(ctx, callerOf(request), request.params.userId, request.body.securityLevelId, {
        ip: request.ip ?? null,
      }),
    );
  },
};
