/**
 * The renderer's only way to main: `window.sijill` when Electron's preload provided it, otherwise the
 * web shell's WebSocket carrying the same contract. Its type is derived from the contract, never written
 * by hand.
 */
import type {
  ChannelName,
  EventName,
  EventPayload,
  IpcResult,
  SijillBridge,
} from '../../src-shared/ipc/contract';
// The zod-free name list: the contract's schemas stay out of the renderer's bundle (main validates).
import { CHANNEL_NAMES as CHANNELS, methodName } from '../../src-shared/ipc/names';
import {
  WEB_SHELL_BRIDGE_PATH,
  WEB_SHELL_KEY_PARAM,
  type WireEvent,
  type WireRequest,
  type WireResponse,
} from '../../src-shared/ipc/wire';

declare global {
  interface Window {
    sijill?: SijillBridge;
  }
}

const KEY_STORAGE = 'sijill.webShellKey';

/** Reads the web shell's secret from the URL (first load) or this tab's session storage (reloads). */
export function webShellKey(): string | null {
  const fromUrl = new URLSearchParams(window.location.search).get(WEB_SHELL_KEY_PARAM);
  if (fromUrl) {
    sessionStorage.setItem(KEY_STORAGE, fromUrl);
    return fromUrl;
  }
  return sessionStorage.getItem(KEY_STORAGE);
}

/** A bridge over the web shell's WebSocket; requests wait for the socket to open. */
export function createWebSocketBridge(url: string): SijillBridge {
  let nextId = 1;
  const pending = new Map<number, (result: IpcResult<unknown>) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let socket: WebSocket | null = null;
  let opening: Promise<WebSocket> | null = null;

  const connect = (): Promise<WebSocket> => {
    if (socket && socket.readyState === WebSocket.OPEN) return Promise.resolve(socket);
    if (opening) return opening;
    opening = new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => {
        socket = ws;
        opening = null;
        resolve(ws);
      };
      ws.onerror = () => {
        opening = null;
        reject(new Error('bridge unavailable'));
      };
      ws.onclose = () => {
        socket = null;
        for (const [id, settle] of pending) {
          settle({ ok: false, error: { code: 'ipc.bridgeClosed' } });
          pending.delete(id);
        }
      };
      ws.onmessage = (message) => {
        const frame = JSON.parse(String(message.data)) as WireResponse | WireEvent;
        if ('id' in frame) {
          pending.get(frame.id)?.(frame.result);
          pending.delete(frame.id);
        } else {
          for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
        }
      };
    });
    return opening;
  };

  const invoke = async (channel: ChannelName, input: unknown): Promise<IpcResult<unknown>> => {
    let ws: WebSocket;
    try {
      ws = await connect();
    } catch {
      return { ok: false, error: { code: 'ipc.bridgeClosed' } };
    }
    const id = nextId++;
    const frame: WireRequest = { id, channel, input };
    return new Promise((resolve) => {
      pending.set(id, resolve);
      ws.send(JSON.stringify(frame));
    });
  };

  const bridge: Record<string, unknown> = {
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: unknown) => void);
      listeners.set(event, set);
      void connect().catch(() => undefined);
      return () => set.delete(listener as (payload: unknown) => void);
    },
  };
  for (const channel of CHANNELS) bridge[methodName(channel)] = (input?: unknown) => invoke(channel, input);
  return bridge as SijillBridge;
}

let instance: SijillBridge | null = null;

/** The bridge of this window. */
export function getBridge(): SijillBridge {
  if (instance) return instance;
  if (window.sijill) {
    instance = window.sijill;
    return instance;
  }
  const key = webShellKey() ?? '';
  const protocol = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  instance = createWebSocketBridge(
    `${protocol}//${window.location.host}${WEB_SHELL_BRIDGE_PATH}?${WEB_SHELL_KEY_PARAM}=${encodeURIComponent(key)}`,
  );
  return instance;
}
