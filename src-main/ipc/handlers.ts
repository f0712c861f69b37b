/**
 * The handlers of every contract channel, over the main-process services. The same handlers serve
 * Electron (src-main/electron) and the web shell (src-main/web); each host only adds the transport.
 */
import type { AppInfo } from '../../src-shared/ipc/contract';
import type { ApiClient } from '../services/api-client';
import type { LocalStore } from '../services/local-store';
import type { Handlers } from './dispatch';

export interface MainServices {
  store: LocalStore;
  api: ApiClient;
  /** Facts about this client and where its API is. */
  info: () => AppInfo;
}

export function createHandlers(services: MainServices): Handlers {
  const { store, api } = services;
  return {
    'app:info': () => services.info(),
    'settings:get': () => store.getSettings(),
    'settings:set': (patch) => store.setSettings(patch),
    'api:request': (request) => api.request(request),
  };
}
