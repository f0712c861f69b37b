/**
 * ApiClient against a real HTTP server on 127.0.0.1 (node:http, no mocks): the headers of the
 * specification, statuses answered rather than thrown, the 401 rule and the session:expired push,
 * an unreachable server, and paths that would leave the API base.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IPC_ERRORS } from '../../src-shared/ipc/contract';
import { IpcFailure } from '../../src-main/ipc/dispatch';
import { ApiClient, resolveApiUrl } from '../../src-main/services/api-client';
import { LocalStore } from '../../src-main/services/local-store';
import { MemoryVault } from '../../src-main/services/session-vault';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = (req.url ?? '').split('?')[0];
      const json = (status: number, value: unknown, type = 'application/json') => {
        res.writeHead(status, { 'Content-Type': type });
        res.end(JSON.stringify(value));
      };
      switch (path) {
        case '/auth/profile':
          return json(200, { data: { firstName: 'سارة' }, returnMessage: 'ok' });
        case '/documents':
          return json(201, {
            data: { id: 7, received: JSON.parse(body || 'null') },
            returnMessage: 'تم الحفظ',
          });
        case '/problem':
          return json(
            422,
            { type: 'about:blank', title: 'Invalid', status: 422, detail: 'الحقل مطلوب' },
            'application/problem+json',
          );
        case '/expired':
          return json(
            401,
            { title: 'Unauthorized', status: 401, detail: 'Sign in again' },
            'application/problem+json',
          );
        case '/empty':
          res.writeHead(204);
          return res.end();
        case '/redirect':
          res.writeHead(302, { Location: 'http://evil.example/steal' });
          return res.end();
        default:
          return json(404, { title: 'Not found', status: 404 }, 'application/problem+json');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let store: LocalStore;
let vault: MemoryVault;
let api: ApiClient;

beforeEach(() => {
  seen.length = 0;
  store = LocalStore.open(':memory:');
  vault = new MemoryVault();
  api = new ApiClient({ baseUrl: () => baseUrl, vault, store, timeoutMs: 5000 });
});
afterEach(() => store.close());

describe('ApiClient headers', () => {
  it('sends Accept and Arabic Accept-Language, and no Authorization without a token', async () => {
    const response = await api.request({ method: 'GET', path: '/auth/profile' });
    expect(response).toEqual({ status: 200, body: { data: { firstName: 'سارة' }, returnMessage: 'ok' } });
    const [request] = seen;
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['accept-language']).toBe('ar');
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('sends the stored token as a Bearer token', async () => {
    api.setToken('tok-abc');
    await api.request({ method: 'GET', path: '/auth/profile' });
    expect(seen[0]?.headers.authorization).toBe('Bearer tok-abc');
  });

  it('follows the selected locale', async () => {
    store.setSettings({ selectedLocale: 'en' });
    await api.request({ method: 'GET', path: '/auth/profile' });
    expect(seen[0]?.headers['accept-language']).toBe('en');
  });

  it('sends the query (arrays repeat the name) and a JSON body', async () => {
    const response = await api.request({
      method: 'POST',
      path: '/documents',
      query: { year: 2025, tag: ['وارد', 'urgent'], draft: false },
      body: { subject: 'مذكرة داخلية' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ data: { id: 7, received: { subject: 'مذكرة داخلية' } } });
    const url = new URL(seen[0]!.url, baseUrl);
    expect(url.searchParams.get('year')).toBe('2025');
    expect(url.searchParams.getAll('tag')).toEqual(['وارد', 'urgent']);
    expect(url.searchParams.get('draft')).toBe('false');
    expect(seen[0]?.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('ApiClient answers', () => {
  it('answers a problem with its status instead of throwing', async () => {
    const response = await api.request({ method: 'GET', path: '/problem' });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ status: 422, detail: 'الحقل مطلوب' });
  });

  it('answers 404 and an empty 204 body as null', async () => {
    expect((await api.request({ method: 'GET', path: '/nowhere' })).status).toBe(404);
    expect(await api.request({ method: 'DELETE', path: '/empty' })).toEqual({ status: 204, body: null });
  });

  it('never follows a redirect (it could carry the token elsewhere)', async () => {
    api.setToken('tok');
    const response = await api.request({ method: 'GET', path: '/redirect' });
    expect(response.status).toBe(302);
    expect(seen).toHaveLength(1);
  });
});

describe('ApiClient on 401', () => {
  it('clears the token, two-factor flag, sections and user, keeps remember-me and locale, and emits session:expired', async () => {
    api.setToken('tok-abc');
    store.set('useTotp', true);
    store.set('sections', [{ path: '/inbox', children: [] }]);
    store.set('user', { firstName: 'سارة' });
    store.set('rememberMe', 'false');
    store.setSettings({ selectedLocale: 'en' });
    const events: unknown[] = [];
    const unsubscribe = api.onSessionExpired((payload) => events.push(payload));

    const response = await api.request({ method: 'GET', path: '/expired' });

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ status: 401 });
    expect(vault.getToken()).toBeNull();
    expect(store.get('useTotp')).toBeNull();
    expect(store.get('sections')).toBeNull();
    expect(store.get('user')).toBeNull();
    expect(store.get('rememberMe')).toBe('false');
    expect(store.getSettings()).toEqual({ selectedLocale: 'en', stickerPrinter: null });
    expect(events).toEqual([{ rememberMe: 'false' }]);

    unsubscribe();
    await api.request({ method: 'GET', path: '/expired' });
    expect(events).toHaveLength(1);
  });

  it('emits rememberMe null when it was never set', async () => {
    const events: unknown[] = [];
    api.onSessionExpired((payload) => events.push(payload));
    await api.request({ method: 'GET', path: '/expired' });
    expect(events).toEqual([{ rememberMe: null }]);
  });
});

describe('ApiClient failures and boundaries', () => {
  it('turns an unreachable server into ipc.serverUnreachable', async () => {
    // A port that was just free: bind, read it, close, then call it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const offline = new ApiClient({
      baseUrl: () => `http://127.0.0.1:${port}`,
      vault,
      store,
      timeoutMs: 2000,
    });
    const failure = await offline.request({ method: 'GET', path: '/health' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(IpcFailure);
    expect((failure as IpcFailure).code).toBe(IPC_ERRORS.serverUnreachable);
  });

  it('refuses any path that would leave the base origin, before sending anything', async () => {
    for (const path of [
      '//evil.example/x',
      'http://evil.example/x',
      '/a/../../x',
      '\\\\evil.example\\x',
      'x',
    ]) {
      const failure = await api.request({ method: 'GET', path }).catch((e: unknown) => e);
      expect(failure, path).toBeInstanceOf(IpcFailure);
      expect((failure as IpcFailure).code, path).toBe(IPC_ERRORS.invalidInput);
    }
    expect(seen).toHaveLength(0);
  });

  it('keeps a base path prefix and refuses to climb above it', () => {
    expect(resolveApiUrl('https://org.example/sijill/', '/auth/profile').href).toBe(
      'https://org.example/sijill/auth/profile',
    );
    expect(() => resolveApiUrl('https://org.example/sijill', '/../admin')).toThrow(IpcFailure);
    expect(() => resolveApiUrl('https://org.example/sijill', '/%2e%2e/admin')).toThrow(IpcFailure);
    expect(() => resolveApiUrl('https://org.example/sijill', '/@evil.example/x')).not.toThrow();
    expect(resolveApiUrl('https://org.example/sijill', '/@evil.example/x').host).toBe('org.example');
  });
});
