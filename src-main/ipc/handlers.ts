/**
 * The handlers of every contract channel, over the main-process services. The same handlers serve
 * Electron (src-main/electron) and the web shell (src-main/web); each host only adds the transport.
 */
import type { AppInfo, PrintRequest, PrintResult, Printers } from '../../src-shared/ipc/contract';
import type { ApiClient } from '../services/api-client';
import type { LocalStore } from '../services/local-store';
import { SessionService } from '../services/session';
import type { SessionVault } from '../services/session-vault';
import type { StationHost } from '../station/host';
import type { LocalDrafts } from '../drafts/drafts';
import type { Handlers } from './dispatch';

export interface MainServices {
  store: LocalStore;
  api: ApiClient;
  /** Where the access token is kept (the session channels sign in and out through it). */
  vault: SessionVault;
  /**
   * This computer's API server (the fallback when no organisation server is set), or null when it is not
   * running (the desktop started in connected mode).
   */
  localServerUrl: () => string | null;
  /** Facts about this client and where its API is. */
  info: () => AppInfo;
  /** The scanning station of this desk. */
  station: StationHost;
  /** Drafts composed on this desk, sent to the server when it is there. */
  drafts: LocalDrafts;
  /** The operating system's folder dialog (Electron); absent where there is none (the web shell). */
  chooseFolder?: () => Promise<string | null>;
  /** Printing without a dialog (Electron); absent where there is none (the web shell). */
  print?: {
    printers(): Promise<Printers>;
    silent(request: PrintRequest): Promise<PrintResult>;
  };
}

export function createHandlers(services: MainServices): Handlers {
  const { store, api, vault } = services;
  const session = new SessionService({ api, vault, store, localServerUrl: services.localServerUrl });
  return {
    'app:info': () => services.info(),
    'settings:get': () => store.getSettings(),
    'settings:set': (patch) => store.setSettings(patch),
    'api:request': (request) => api.request(request),
    'api:upload': (upload) => api.upload(upload),
    'api:download': (download) => api.download(download),
    'session:state': () => session.state(),
    'session:login': (input) => session.login(input),
    'session:two-factor-setup': () => session.twoFactorSetup(),
    'session:two-factor-verify': ({ code }) => session.twoFactorVerify(code),
    'session:two-factor-skip': () => session.twoFactorSkip(),
    'session:logout': () => session.logout(),
    'session:profile': () => session.profile(),
    'session:pages-tree': () => session.pagesTree(),
    'session:change-password': (input) => session.changePassword(input),
    'setup:status': () => session.setupStatus(),
    'setup:create': (input) => session.setupCreate(input),
    'connection:get': () => session.connection(),
    'connection:set': ({ serverUrl }) => session.setConnection(serverUrl),
    'station:status': () => services.station.status(),
    'station:configure': (config) => services.station.configure(config),
    'station:pause': () => services.station.pause(),
    'station:resume': () => services.station.resume(),
    'station:retry': ({ id }) => services.station.retry(id),
    'station:choose-folder': async () => ({
      path: services.chooseFolder ? await services.chooseFolder() : null,
    }),
    'drafts:list': () => services.drafts.list(),
    'drafts:get': ({ id }) => services.drafts.get(id),
    'drafts:save': (input) => services.drafts.save(input),
    'drafts:claim': ({ id }) => services.drafts.claim(id),
    'drafts:settled': (input) => services.drafts.settled(input),
    'drafts:remove-file': ({ id, fileId }) => services.drafts.removeFile(id, fileId),
    'drafts:delete': ({ id }) => services.drafts.delete(id),
    'drafts:sync': () => services.drafts.sync(),
    'drafts:resolve': ({ id, keep }) => services.drafts.resolve(id, keep),
    'print:printers': () => services.print?.printers() ?? Promise.resolve({ silent: false, printers: [] }),
    'print:silent': (request) =>
      services.print?.silent(request) ??
      Promise.resolve({ printed: false, reason: 'unavailable' as const, detail: null }),
  };
}
