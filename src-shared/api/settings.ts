/**
 * The endpoints of the settings lists (docs/api.md: /correspondence/settings/{mediums,priorities,
 * security-levels,codifications,main-distribution}): the same six for every list, each on its own page —
 * list and get (view), create (add), edit (edit), activate (activate); `/options` feeds pickers to any
 * signed-in user. Clearances (a user's security level) hang under security-levels. The lists' shapes
 * are in correspondence.ts.
 */
import { z } from 'zod';
import type { Permission } from '../permissions';
import { PAGES } from '../pages';
import {
  SETTINGS_LISTS,
  clearanceSchema,
  setClearanceRequestSchema,
  settingCreateSchemas,
  settingItemSchema,
  settingOptionSchema,
  settingUpdateSchemas,
  settingsListQuerySchema,
  type SettingsList,
} from './correspondence';
import { activatedOrNot, endpoint } from './endpoint';
import { pageOf } from './envelope';
import { idField, idParamsSchema, setActiveSchema } from './fields';

const tags = ['settings'];

/** The endpoints of one list; its path is also the page whose permissions they need. */
function listEndpoints<const L extends SettingsList>(list: L) {
  const base = `/correspondence/settings/${list}` as const;
  const on = (permission: Permission) => ({ page: base, permission });
  return {
    list: endpoint({
      method: 'GET',
      path: base,
      query: settingsListQuerySchema,
      response: pageOf(settingItemSchema),
      access: on('view'),
      tags,
      summary: `List ${list}`,
    }),
    options: endpoint({
      method: 'GET',
      path: `${base}/options`,
      response: z.array(settingOptionSchema),
      access: 'authenticated',
      tags,
      summary: `Active ${list} for pickers`,
    }),
    get: endpoint({
      method: 'GET',
      path: `${base}/:id`,
      params: idParamsSchema,
      response: settingItemSchema,
      access: on('view'),
      tags,
      summary: `One of ${list}`,
    }),
    create: endpoint({
      method: 'POST',
      path: base,
      body: settingCreateSchemas[list],
      response: settingItemSchema,
      status: 201,
      access: on('add'),
      tags,
      summary: `Create one of ${list}`,
      message: 'messages.created',
    }),
    update: endpoint({
      method: 'PUT',
      path: `${base}/:id`,
      params: idParamsSchema,
      body: settingUpdateSchemas[list],
      response: settingItemSchema,
      access: on('edit'),
      tags,
      summary: `Edit one of ${list}`,
      message: 'messages.updated',
    }),
    setActive: endpoint({
      method: 'PUT',
      path: `${base}/:id/active`,
      params: idParamsSchema,
      body: setActiveSchema,
      response: settingItemSchema,
      access: on('activate'),
      tags,
      summary: `Activate or deactivate one of ${list}`,
      message: activatedOrNot,
    }),
  };
}

export type SettingsListEndpoints<L extends SettingsList = SettingsList> = ReturnType<
  typeof listEndpoints<L>
>;

/** Each list's endpoints, by list. */
export const settingsEndpoints = Object.fromEntries(
  SETTINGS_LISTS.map((list) => [list, listEndpoints(list)]),
) as { [L in SettingsList]: SettingsListEndpoints<L> };

const levels = '/correspondence/settings/security-levels';
const userParamsSchema = z.object({ userId: idField }).strict();

export const clearanceEndpoints = {
  get: endpoint({
    method: 'GET',
    path: `${levels}/clearance/:userId`,
    params: userParamsSchema,
    response: clearanceSchema,
    access: { page: PAGES.securityLevels, permission: 'view' },
    tags,
    summary: "A user's clearance (null: the lowest active level)",
  }),
  set: endpoint({
    method: 'PUT',
    path: `${levels}/clearance/:userId`,
    params: userParamsSchema,
    body: setClearanceRequestSchema,
    response: clearanceSchema,
    access: { page: PAGES.securityLevels, permission: 'edit' },
    tags,
    summary: "Set a user's clearance",
    message: 'messages.clearanceSaved',
  }),
};

/** What a list's create endpoint takes, whichever the list. */
export type SettingCreateBody = z.input<(typeof settingCreateSchemas)[SettingsList]>;
