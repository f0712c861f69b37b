/**
 * SessionService against the real API server (src-server on PGlite in a temporary folder): first run,
 * the two-factor offer, sign-in and out, the cached profile and page tree, the offline fallback, and
 * that neither token ever appears in what the renderer receives.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src-server/config';
import { startServer, type RunningServer } from '../../src-server/server';
import { ApiClient } from '../../src-main/services/api-client';
import { LocalStore } from '../../src-main/services/local-store';
import { SessionService } from '../../src-main/services/session';
import { MemoryVault } from '../../src-main/services/session-vault';

const ADMIN = {
  username: 'admin',
  email: 'admin@sijill.test',
  password: 'Admin#2025',
  nameAr: 'مدير',
  nameEn: 'Admin',
};

let server: RunningServer;
let dataDir: string;
let baseUrl: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sijill-session-'));
  server = await startServer({
    ...loadConfig({ NODE_ENV: 'test' }),
    HOST: '127.0.0.1',
    PORT: 0,
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT_PER_MINUTE: 0,
  });
  baseUrl = server.url;
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Wired as the hosts do: the organisation server when one is set, else this computer's. */
function client(store = LocalStore.open(':memory:'), vault = new MemoryVault(), url?: () => string) {
  const api = new ApiClient({ baseUrl: url ?? (() => store.getServerUrl() ?? baseUrl), vault, store });
  const expired: unknown[] = [];
  api.onSessionExpired((payload) => expired.push(payload));
  const session = new SessionService({ api, vault, store, localServerUrl: () => baseUrl });
  return { api, vault, store, session, expired };
}

describe('SessionService', () => {
  it('creates the first administrator, offers two-factor with skip, and signs in', async () => {
    const { session, vault, store } = client();
    expect(await session.setupStatus()).toEqual({ result: 'ok', needed: true });
    const created = await session.setupCreate(ADMIN);
    expect(created).toEqual({ result: 'twoFactor', mode: 'setup', canSkip: true });
    const pending = session.state();
    expect(pending).toMatchObject({
      signedIn: false,
      twoFactorPending: true,
      twoFactor: { mode: 'setup', canSkip: true },
    });
    expect(store.get('useTotp')).toBe('true');
    expect(JSON.stringify(pending)).not.toMatch(/challenge/i);

    const material = await session.twoFactorSetup();
    expect(material).toMatchObject({ result: 'ok', secret: expect.stringMatching(/^[A-Z2-7]+$/) });

    expect(await session.twoFactorSkip()).toEqual({ result: 'signedIn' });
    expect(vault.getToken()).toBeTruthy();
    expect(session.state()).toMatchObject({ signedIn: true, twoFactorPending: false, rememberMe: 'false' });
    expect(store.get('useTotp')).toBeNull();
    expect(await session.setupStatus()).toEqual({ result: 'ok', needed: false });
  });

  it('refuses a wrong password with the server’s localised detail and keeps no token', async () => {
    const { session, vault } = client();
    const answer = await session.login({ login: ADMIN.username, password: 'Wrong#2025', rememberMe: true });
    expect(answer).toMatchObject({ result: 'rejected', status: 401 });
    expect(answer.result === 'rejected' && answer.detail.length).toBeGreaterThan(0);
    expect(vault.getToken()).toBeNull();
  });

  it('signs in, caches the profile and the page tree, and serves the cache when the server is unreachable', async () => {
    let url = baseUrl;
    const { session, store, vault } = client(undefined, undefined, () => url);
    expect(await session.login({ login: ADMIN.email, password: ADMIN.password, rememberMe: true })).toEqual({
      result: 'signedIn',
    });
    expect(store.get('rememberMe')).toBe('true');

    const profile = await session.profile();
    expect(profile).toMatchObject({
      result: 'ok',
      offline: false,
      user: { username: 'admin', useTotp: false },
    });
    const tree = await session.pagesTree();
    expect(tree.result === 'ok' && tree.sections[0]?.children[0]?.path).toBe('/ec/employees');
    expect(session.state()).toMatchObject({
      signedIn: true,
      user: { username: 'admin' },
      sections: expect.any(Array),
    });

    url = 'http://127.0.0.1:9'; // nothing listens there
    expect(await session.profile()).toMatchObject({
      result: 'ok',
      offline: true,
      user: { username: 'admin' },
    });
    expect(await session.pagesTree()).toMatchObject({ result: 'ok', offline: true });
    expect(session.state().offline).toBe(true);
    url = baseUrl;
    expect(await session.profile()).toMatchObject({ result: 'ok', offline: false });

    const after = await session.logout();
    expect(after).toMatchObject({ signedIn: false, user: null, sections: null, rememberMe: 'true' });
    expect(vault.getToken()).toBeNull();
  });

  it('signing out is not held by a server that does not answer: the session ends here at once', async () => {
    // A server that takes the request and never answers (busy, or its network gone half-way).
    const heard: string[] = [];
    const silent = createServer((request) => heard.push(`${request.method} ${request.url}`));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      let url = baseUrl;
      const store = LocalStore.open(':memory:');
      const vault = new MemoryVault();
      const api = new ApiClient({ baseUrl: () => url, vault, store });
      const session = new SessionService({
        api,
        vault,
        store,
        localServerUrl: () => baseUrl,
        logoutWaitMs: 200,
      });
      await session.login({ login: ADMIN.username, password: ADMIN.password, rememberMe: false });
      expect(session.state().signedIn).toBe(true);
      url = silentUrl;
      const after = await session.logout();
      expect(after).toMatchObject({ signedIn: false, user: null });
      expect(vault.getToken()).toBeNull();
      // The server was told, and has still not answered.
      expect(heard).toEqual(['POST /auth/logout']);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((done) => silent.close(() => done()));
    }
  });

  it('without remember-me, a restart of the client signs out', async () => {
    const store = LocalStore.open(':memory:');
    const vault = new MemoryVault();
    const first = client(store, vault);
    await first.session.login({ login: ADMIN.username, password: ADMIN.password, rememberMe: false });
    expect(vault.getToken()).toBeTruthy();
    const restarted = client(store, vault);
    expect(restarted.session.state()).toMatchObject({ signedIn: false, rememberMe: 'false' });
  });

  it('changes the password and keeps the fresh token in main; the old sessions end (401 → session:expired)', async () => {
    const one = client();
    const two = client();
    await one.session.login({ login: ADMIN.username, password: ADMIN.password, rememberMe: true });
    await two.session.login({ login: ADMIN.username, password: ADMIN.password, rememberMe: false });
    const changed = await one.session.changePassword({
      oldPassword: ADMIN.password,
      password: 'Admin#2026',
      passwordConfirmation: 'Admin#2026',
    });
    expect(changed).toMatchObject({ result: 'ok' });
    expect(JSON.stringify(changed)).not.toMatch(/token/i);
    expect(await one.session.profile()).toMatchObject({ result: 'ok' });
    expect(await two.session.profile()).toMatchObject({ result: 'rejected', status: 401 });
    expect(two.expired).toEqual([{ rememberMe: 'false' }]);
    expect(two.session.state()).toMatchObject({ signedIn: false, user: null, sections: null });
  });

  it('sets and clears the organisation server, checking that it answers', async () => {
    const { session } = client();
    expect(session.connection()).toEqual({ serverUrl: null, apiBaseUrl: baseUrl, localAvailable: true });
    expect(await session.setConnection('http://127.0.0.1:9')).toMatchObject({
      serverUrl: 'http://127.0.0.1:9',
      reachable: false,
    });
    expect(await session.setConnection(null)).toMatchObject({
      serverUrl: null,
      apiBaseUrl: baseUrl,
      reachable: true,
    });
  });
});
