/**
 * The client notices the server's return by itself: against the real API server (PGlite in a temporary
 * folder), stopped and started again on the same port, the ApiClient's connection watch says offline
 * on the first failed request and online again when the server is back — without any request from the
 * screens (it asks /health, waiting longer each time). The session's `offline` follows it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src-server/config';
import { startServer, type RunningServer } from '../../src-server/server';
import { ApiClient } from '../../src-main/services/api-client';
import { ConnectionWatch } from '../../src-main/services/connection';
import { LocalStore } from '../../src-main/services/local-store';
import { SessionService } from '../../src-main/services/session';
import { MemoryVault } from '../../src-main/services/session-vault';
import { IpcFailure } from '../../src-main/ipc/dispatch';

let server: RunningServer | null = null;
let dataDir: string;
let port = 0;

const start = async () => {
  server = await startServer({
    ...loadConfig({ NODE_ENV: 'test' }),
    HOST: '127.0.0.1',
    PORT: port,
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT_PER_MINUTE: 0,
  });
  port = Number(new URL(server.url).port);
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sijill-connection-'));
  await start();
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the connection watch', () => {
  it('goes offline on a failed request and online again by itself when the server returns', async () => {
    const store = LocalStore.open(':memory:');
    const vault = new MemoryVault();
    const api = new ApiClient({
      baseUrl: () => `http://127.0.0.1:${port}`,
      vault,
      store,
      timeoutMs: 3000,
      connection: { firstDelayMs: 100, maxDelayMs: 400 },
    });
    const session = new SessionService({ api, vault, store, localServerUrl: () => null });
    const changes: boolean[] = [];
    api.connection.onChange((online) => changes.push(online));
    try {
      expect((await api.request({ method: 'GET', path: '/health' })).status).toBe(200);
      expect(api.connection.isOnline).toBe(true);
      expect(changes).toEqual([]);

      await server!.close();
      server = null;
      const failure = await api.request({ method: 'GET', path: '/health' }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(IpcFailure);
      expect(changes).toEqual([false]);
      expect(session.state().offline).toBe(true);
      // While away, the watch keeps asking and keeps saying offline (once).
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(changes).toEqual([false]);

      await start();
      await vi.waitFor(() => expect(changes).toEqual([false, true]), { timeout: 10_000, interval: 50 });
      expect(session.state().offline).toBe(false);
    } finally {
      api.connection.close();
      store.close();
    }
  }, 120_000);
});

describe('ConnectionWatch', () => {
  it('waits longer between probes, up to its limit, and stops when closed', async () => {
    const probes: number[] = [];
    const started = Date.now();
    const watch = new ConnectionWatch({
      probe: async () => {
        probes.push(Date.now() - started);
        return false;
      },
      firstDelayMs: 20,
      maxDelayMs: 80,
    });
    watch.report(false);
    await vi.waitFor(() => expect(probes.length).toBeGreaterThanOrEqual(5), { timeout: 5000, interval: 10 });
    watch.close();
    const gaps = probes.slice(1).map((t, i) => t - probes[i]!);
    // 20, 40, 80, 80…: each gap at least the wait planned for it (timers never fire early).
    expect(gaps[0]).toBeGreaterThanOrEqual(39);
    expect(gaps[1]).toBeGreaterThanOrEqual(79);
    expect(gaps[2]).toBeGreaterThanOrEqual(79);
    const count = probes.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(probes.length).toBe(count);
  });

  it('tells each change once, and a probe that throws counts as away', async () => {
    let answer: boolean | Error = new Error('refused');
    const watch = new ConnectionWatch({
      probe: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
      firstDelayMs: 10_000,
    });
    const changes: boolean[] = [];
    watch.onChange((online) => changes.push(online));
    expect(await watch.check()).toBe(false);
    watch.report(false);
    answer = true;
    expect(await watch.check()).toBe(true);
    watch.report(true);
    expect(changes).toEqual([false, true]);
    watch.close();
  });
});
