/**
 * The preload: the bridge and nothing else. It exposes `window.sijill`, built from the IPC contract
 * (one function per channel, named by `methodName`, plus `on` for main's pushes), and never the
 * `ipcRenderer` object itself, so the page can call our channels and nothing more.
 *
 * Sandboxed preloads run as self-contained CommonJS: electron-vite bundles this file with zod inlined.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  CHANNELS,
  EVENTS,
  EVENT_WIRE_PREFIX,
  methodName,
  type SijillBridge,
} from '../src-shared/ipc/contract';

const channelMethods = Object.fromEntries(
  CHANNELS.map((channel) => [methodName(channel), (input?: unknown) => ipcRenderer.invoke(channel, input)]),
);

const knownEvents = new Set<string>(EVENTS);

const on: SijillBridge['on'] = (event, listener) => {
  // Only the contract's events: the page cannot listen on arbitrary IPC channels through this.
  if (!knownEvents.has(event) || typeof listener !== 'function') return () => {};
  const wireChannel = `${EVENT_WIRE_PREFIX}${event}`;
  // The IpcRendererEvent is dropped: it carries `sender` (the ipcRenderer) which must not reach the page.
  const forward = (_event: IpcRendererEvent, payload: unknown) =>
    listener(payload as Parameters<typeof listener>[0]);
  ipcRenderer.on(wireChannel, forward);
  return () => {
    ipcRenderer.removeListener(wireChannel, forward);
  };
};

// Object.fromEntries cannot carry the per-channel types; the names and arity come from the same
// contract table that SijillBridge is derived from, so the cast states what the loop built.
const bridge = { ...channelMethods, on } as unknown as SijillBridge;

contextBridge.exposeInMainWorld('sijill', bridge);
