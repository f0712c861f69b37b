/**
 * The scanning station inside the desktop client (station mode): its settings in LocalStore, its queue
 * in `station.sqlite` beside the client's database, uploads as the signed-in user (the token stays in
 * main's vault). Off, or with no folder, nothing runs; changing the settings restarts it.
 */
import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { StationConfig, StationStatusView } from '../../src-shared/ipc/contract';
import type { ApiClient } from '../services/api-client';
import type { LocalStore } from '../services/local-store';
import type { SessionVault } from '../services/session-vault';
import { StationQueue } from './queue';
import { Station, fileView } from './station';
import { httpTransport } from './transport';

type FolderError = StationStatusView['folders'][number]['error'];

/** Whether a configured folder can be watched, checked when the panel asks. */
function checkFolder(path: string): FolderError {
  if (!isAbsolute(path)) return 'notAbsolute';
  try {
    return statSync(path).isDirectory() ? null : 'notFolder';
  } catch {
    return 'missing';
  }
}

export class StationHost {
  private station: Station | null = null;
  private queue: StationQueue | null = null;

  constructor(
    private readonly options: {
      store: LocalStore;
      api: ApiClient;
      vault: SessionVault;
      dataDir: string;
      log?: (line: string) => void;
    },
  ) {
    this.apply(options.store.getStation());
  }

  status(): StationStatusView {
    const config = this.options.store.getStation();
    const live = this.station?.status();
    const counts = live?.counts ?? this.openQueue().counts();
    return {
      config,
      running: live?.running ?? false,
      paused: live?.paused ?? false,
      ready: this.options.vault.getToken() !== null,
      folders: config.folders.map((path) => {
        const error = checkFolder(path);
        const seen = live?.folders.find((f) => f.path === path)?.error ?? null;
        return { path, error: error ?? (seen ? 'unreadable' : null), detail: error ? null : seen };
      }),
      counts,
      active: live?.active ?? [],
      problems: live?.problems ?? this.openQueue().problems().map(fileView),
      recent: live?.recent ?? this.openQueue().recent().map(fileView),
    };
  }

  async configure(config: StationConfig): Promise<StationStatusView> {
    const saved = this.options.store.setStation(config);
    await this.stopStation();
    this.apply(saved);
    return this.status();
  }

  pause(): StationStatusView {
    this.station?.pause();
    return this.status();
  }

  resume(): StationStatusView {
    this.station?.resume();
    return this.status();
  }

  retry(id: number): StationStatusView {
    this.station?.retry(id);
    return this.status();
  }

  async close(): Promise<void> {
    await this.stopStation();
    this.queue?.close();
    this.queue = null;
  }

  private openQueue(): StationQueue {
    this.queue ??= StationQueue.open(join(this.options.dataDir, 'station.sqlite'));
    return this.queue;
  }

  private apply(config: StationConfig): void {
    const folders = config.folders.filter((f) => checkFolder(f) === null);
    if (!config.enabled || folders.length === 0) return;
    const { api, vault } = this.options;
    this.station = new Station({
      queue: this.openQueue(),
      transport: httpTransport({
        baseUrl: () => api.baseUrl(),
        headers: () => api.headers(),
        ready: () => vault.getToken() !== null,
      }),
      folders,
      polling: config.polling,
      log: this.options.log,
    });
    this.station.start();
  }

  private async stopStation(): Promise<void> {
    const station = this.station;
    this.station = null;
    await station?.stop();
  }
}
