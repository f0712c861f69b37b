/**
 * The one IPC wrapper (createDispatch) and Electron's sender check: a foreign sender, an unknown channel
 * and a bad argument are refused with a clear error and the handler is never run; a valid call is run
 * and wrapped as { ok: true, data }.
 */
import { describe, expect, it, vi, type Mock } from 'vitest';
import { CHANNELS, IPC_ERRORS, type AppInfo, type ChannelName } from '../../src-shared/ipc/contract';
import { createDispatch, IpcFailure, type Handlers } from '../../src-main/ipc/dispatch';
import { trustedSender, type FrameLike, type WindowLike } from '../../src-main/electron/sender-check';
import { isAppUrl } from '../../src-main/electron/app-url';

const INFO: AppInfo = {
  name: 'Sijill',
  version: '0.1.0',
  host: 'electron',
  platform: 'linux',
  mode: 'standalone',
  apiBaseUrl: 'http://127.0.0.1:1',
};

/**
 * A spy for every channel of the contract (it grows over time): the ones these tests call answer
 * something plausible, any other would throw if the dispatcher ever ran it.
 */
function spies() {
  type Spy = Mock<(input: unknown) => unknown>;
  const handlers = Object.fromEntries(
    CHANNELS.map((channel) => [
      channel,
      vi.fn((_input: unknown): unknown => {
        throw new Error(`unexpected call of ${channel}`);
      }),
    ]),
  ) as Record<ChannelName, Spy>;
  handlers['app:info'].mockImplementation(() => INFO);
  handlers['settings:get'].mockImplementation(() => ({ selectedLocale: 'ar' }));
  handlers['settings:set'].mockImplementation((patch) => ({
    selectedLocale: (patch as { selectedLocale?: string }).selectedLocale ?? 'ar',
  }));
  handlers['api:request'].mockImplementation(async () => ({ status: 200, body: { data: null } }));
  const onError = vi.fn();
  return { handlers, onError, dispatch: createDispatch(handlers as unknown as Handlers, { onError }) };
}

function noHandlerCalled(handlers: ReturnType<typeof spies>['handlers']): void {
  for (const handler of Object.values(handlers)) expect(handler).not.toHaveBeenCalled();
}

describe('createDispatch refuses', () => {
  it('a foreign sender, before looking at the input', async () => {
    const { handlers, dispatch } = spies();
    const result = await dispatch('app:info', undefined, false);
    expect(result).toEqual({ ok: false, error: { code: IPC_ERRORS.forbiddenSender } });
    noHandlerCalled(handlers);
  });

  it('an unknown channel', async () => {
    const { handlers, dispatch } = spies();
    for (const channel of ['fs:read', '__proto__', 'constructor', 'toString']) {
      const result = await dispatch(channel, undefined, true);
      expect(result, channel).toEqual({ ok: false, error: { code: IPC_ERRORS.unknownChannel } });
    }
    noHandlerCalled(handlers);
  });

  it.each([
    ['an absolute URL', { method: 'GET', path: 'http://evil.example/x' }],
    ['a protocol-relative URL', { method: 'GET', path: '//evil.example/x' }],
    ['a relative path without a slash', { method: 'GET', path: '../x' }],
    ['dot segments', { method: 'GET', path: '/auth/../admin' }],
    ['a backslash', { method: 'GET', path: '/auth\\..\\x' }],
    ['a query in the path', { method: 'GET', path: '/auth?x=1' }],
    ['an unknown method', { method: 'TRACE', path: '/auth/profile' }],
    ['an extra key', { method: 'GET', path: '/auth/profile', host: 'evil.example' }],
    ['no object at all', 'GET /auth/profile'],
  ])('api:request with %s', async (_name, input) => {
    const { handlers, dispatch } = spies();
    const result = await dispatch('api:request', input, true);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(IPC_ERRORS.invalidInput);
      expect(result.error.issues?.length).toBeGreaterThan(0);
    }
    noHandlerCalled(handlers);
  });

  it('settings:set with an unsupported locale or an unknown setting', async () => {
    const { handlers, dispatch } = spies();
    for (const input of [{ selectedLocale: 'fr' }, { serverUrl: 'http://evil.example' }, 'en']) {
      const result = await dispatch('settings:set', input, true);
      expect(result.ok, JSON.stringify(input)).toBe(false);
      if (!result.ok) expect(result.error.code).toBe(IPC_ERRORS.invalidInput);
    }
    noHandlerCalled(handlers);
  });

  it('an argument on a channel that takes none', async () => {
    const { handlers, dispatch } = spies();
    const result = await dispatch('app:info', { anything: true }, true);
    expect(result.ok).toBe(false);
    noHandlerCalled(handlers);
  });
});

describe('createDispatch runs valid calls', () => {
  it('wraps the answer as { ok: true, data }', async () => {
    const { handlers, dispatch } = spies();
    expect(await dispatch('app:info', undefined, true)).toEqual({ ok: true, data: INFO });
    expect(await dispatch('settings:set', { selectedLocale: 'en' }, true)).toEqual({
      ok: true,
      data: { selectedLocale: 'en' },
    });
    expect(handlers['settings:set']).toHaveBeenCalledWith({ selectedLocale: 'en' });
    const request = { method: 'GET', path: '/auth/user-pages-tree', query: { lang: 'ar' } };
    expect(await dispatch('api:request', request, true)).toEqual({
      ok: true,
      data: { status: 200, body: { data: null } },
    });
    expect(handlers['api:request']).toHaveBeenCalledWith(request);
  });

  it('answers an IpcFailure with its code, and hides any other error behind ipc.internal', async () => {
    const { handlers, dispatch, onError } = spies();
    handlers['api:request'].mockRejectedValueOnce(new IpcFailure(IPC_ERRORS.serverUnreachable));
    expect(await dispatch('api:request', { method: 'GET', path: '/health' }, true)).toEqual({
      ok: false,
      error: { code: IPC_ERRORS.serverUnreachable },
    });
    handlers['api:request'].mockRejectedValueOnce(new Error('SELECT * FROM secrets failed at /home/clerk'));
    const hidden = await dispatch('api:request', { method: 'GET', path: '/health' }, true);
    expect(hidden).toEqual({ ok: false, error: { code: IPC_ERRORS.internal } });
    expect(onError).toHaveBeenCalledTimes(1);
  });
});

describe("Electron's sender check", () => {
  const mainFrame: FrameLike = {
    url: 'app://sijill/index.html#/inbox',
    parent: null,
    processId: 4,
    routingId: 1,
  };
  function windowWith(frame: FrameLike, destroyed = false): WindowLike {
    return { isDestroyed: () => destroyed, webContents: { mainFrame: frame } };
  }

  it('trusts the main frame of our window showing our own page', () => {
    const window = windowWith(mainFrame);
    const check = trustedSender(() => window, isAppUrl);
    expect(check({ sender: window.webContents, senderFrame: { ...mainFrame } })).toBe(true);
  });

  it('refuses another web contents, a subframe, a foreign page, a destroyed frame or window', () => {
    const window = windowWith(mainFrame);
    const check = trustedSender(() => window, isAppUrl);
    expect(check({ sender: {}, senderFrame: mainFrame })).toBe(false);
    expect(
      check({ sender: window.webContents, senderFrame: { ...mainFrame, parent: mainFrame, routingId: 9 } }),
    ).toBe(false);
    expect(check({ sender: window.webContents, senderFrame: null })).toBe(false);
    const navigatedAway = windowWith({ ...mainFrame, url: 'https://evil.example/' });
    const checkAway = trustedSender(() => navigatedAway, isAppUrl);
    expect(
      checkAway({
        sender: navigatedAway.webContents,
        senderFrame: { ...mainFrame, url: 'https://evil.example/' },
      }),
    ).toBe(false);
    expect(trustedSender(() => null, isAppUrl)({ sender: {}, senderFrame: mainFrame })).toBe(false);
    const gone = windowWith(mainFrame, true);
    expect(trustedSender(() => gone, isAppUrl)({ sender: gone.webContents, senderFrame: mainFrame })).toBe(
      false,
    );
  });
});
