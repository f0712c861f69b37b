/**
 * The main-process services, built once for both hosts: the desktop (electron/main.ts) and the web
 * shell (web/shell.ts). A host brings what only it has (the token vault, the key protector, a folder
 * dialog) and its transport; everything else is made here. See docs/architecture.md, "src-main".
 */
import { join } from 'node:path';
import type { AppInfo, EventName, EventPayload } from '../src-shared/ipc/contract';
import { loadDraftKey, type KeyProtector } from './drafts/crypto';
import { LocalDrafts, routeUploads, sessionOwner } from './drafts/drafts';
import { createDispatch, type Dispatch } from './ipc/dispatch';
import { createHandlers, type MainServices } from './ipc/handlers';
import { ApiClient } from './services/api-client';
import type { LocalStore } from './services/local-store';
import { NotificationStream } from './services/notification-stream';
import type { SessionVault } from './services/session-vault';
import { StationHost } from './station/host';

export interface MainServicesSetup {
  /** The folder of this client's state: drafts, their key and the station's queue go here. */
  dataDir: string;
  /** The client's database, opened by the host (the desktop reports a newer one in a dialog). */
  store: LocalStore;
  /** Where the access token is kept (the desktop: safeStorage; the web shell: a file). */
  vault: SessionVault;
  /** How the local drafts' key is protected at rest. */
  keyProtector: KeyProtector;
  /** The API base the host started with; an organisation server chosen later (connection:set) wins. */
  apiBaseUrl: string;
  /** This computer's API server, the fallback of connection:set; null when none runs. */
  localServerUrl: string | null;
  /** The web shell started on an organisation's server (--server): its mode is always `connected`. */
  startedConnected: boolean;
  /** What app:info says about the host. */
  app: Pick<AppInfo, 'name' | 'version' | 'host'>;
  /** The operating system's folder dialog (the desktop only). */
  chooseFolder?: () => Promise<string | null>;
  /** Printing without a dialog (the desktop only). */
  print?: MainServices['print'];
  /** Progress and problems of background work (drafts, station). */
  log?: (message: string) => void;
  /** Unexpected handler errors; `log` when absent. */
  logError?: (message: string) => void;
}

/** A host's way of pushing one of the contract's events to its renderer. */
export type PushEvent = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface MainServicesHandle {
  api: ApiClient;
  /** The server's push of notifications, held while a session exists (the desktop adds system notices). */
  notifications: NotificationStream;
  drafts: LocalDrafts;
  station: StationHost;
  /** Every contract channel, behind the sender check and the input parse. */
  dispatch: Dispatch;
  /** Files posted through the file source: a local draft's, or straight on to the API. */
  sendFile: ReturnType<typeof routeUploads>;
  /**
   * Stops the drafts' background sending, the notification stream and the event feed (at once, before a
   * host's own shutdown).
   */
  stop(): void;
  /** `stop`, then closes the station; the host closes the store and the server after it. */
  close(): Promise<void>;
}

/** Builds the services, starts the drafts' background sending, and pushes main's events through `push`. */
export function createMainServices(setup: MainServicesSetup, push: PushEvent): MainServicesHandle {
  const { store, dataDir } = setup;
  const currentApiUrl = () => store.getServerUrl() ?? setup.apiBaseUrl;
  // Every change of the token (sign-in, sign-out, a 401, a password change) reaches the notification
  // stream through the vault, whichever service made it.
  const onTokenChange: Array<() => void> = [];
  const vault = watchedVault(setup.vault, () => {
    for (const each of onTokenChange) each();
  });
  const api = new ApiClient({ baseUrl: currentApiUrl, vault, store });
  const notifications = new NotificationStream({
    baseUrl: currentApiUrl,
    headers: () => api.headers(),
    onReachable: (reachable) => api.connection.report(reachable),
    ...(setup.log ? { log: setup.log } : {}),
  });
  onTokenChange.push(() => notifications.sync());
  const info = (): AppInfo => ({
    ...setup.app,
    platform: process.platform,
    mode: setup.startedConnected || store.getServerUrl() ? 'connected' : 'standalone',
    apiBaseUrl: currentApiUrl(),
  });
  const log = setup.log ? { log: setup.log } : {};
  const station = new StationHost({ store, api, vault, dataDir, ...log });
  const drafts = new LocalDrafts({
    store,
    api,
    key: loadDraftKey(join(dataDir, 'drafts.key'), setup.keyProtector),
    dir: join(dataDir, 'drafts'),
    owner: sessionOwner(store, vault, api),
    ...log,
  });
  const handlers = createHandlers({
    store,
    api,
    vault,
    localServerUrl: () => setup.localServerUrl,
    info,
    station,
    drafts,
    ...(setup.chooseFolder ? { chooseFolder: setup.chooseFolder } : {}),
    ...(setup.print ? { print: setup.print } : {}),
  });
  const logError = setup.logError ?? setup.log;
  const dispatch = createDispatch(handlers, {
    // The channel and the stack only: inputs may carry personal data, and error objects of HTTP
    // libraries can carry request headers (the token).
    onError: (channel, error) =>
      logError?.(
        `ipc ${channel} failed: ${error instanceof Error && error.stack ? error.stack : String(error)}`,
      ),
  });

  const stops = [
    drafts.startAutoSync(),
    api.onSessionExpired((payload) => push('session:expired', payload)),
    api.connection.onChange((online) => push('connection:changed', { online })),
    drafts.onChange((counts) => push('drafts:changed', counts)),
    notifications.onNotification((notification) => push('notifications:new', notification)),
    notifications.onUnread((unread) => push('notifications:unread', { unread })),
    // The server is back: the stream does not wait out its back-off.
    api.connection.onChange((online) => {
      if (online) notifications.nudge();
    }),
    () => notifications.close(),
    () => api.connection.close(),
  ];
  notifications.sync();
  const stop = () => {
    for (const each of stops.splice(0)) each();
  };
  let closed: Promise<void> | null = null;
  return {
    api,
    notifications,
    drafts,
    station,
    dispatch,
    sendFile: routeUploads(drafts, api),
    stop,
    close: () => {
      stop();
      return (closed ??= station.close());
    },
  };
}

/** The host's vault, telling `changed` after every write (the token itself never passes through here). */
function watchedVault(vault: SessionVault, changed: () => void): SessionVault {
  return {
    get backend() {
      return vault.backend;
    },
    getToken: () => vault.getToken(),
    setToken(token) {
      vault.setToken(token);
      changed();
    },
    clear() {
      vault.clear();
      changed();
    },
  };
}
