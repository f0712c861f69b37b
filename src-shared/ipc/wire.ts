/**
 * The web shell's WebSocket framing of the IPC contract: the same channels and events as Electron's
 * ipcRenderer/ipcMain, carried as JSON frames on ws://127.0.0.1:<port>/bridge?key=<secret>.
 */
import type { IpcResult } from './common';

/** Renderer → shell: call a channel. */
export type WireRequest = { id: number; channel: string; input?: unknown };
/** Shell → renderer: the answer to request `id`. */
export type WireResponse = { id: number; result: IpcResult<unknown> };
/** Shell → renderer: an event main pushed. */
export type WireEvent = { event: string; payload: unknown };

/** The query parameter carrying the per-launch secret in the URL the web shell prints. */
export const WEB_SHELL_KEY_PARAM = 'key';
/** The WebSocket path of the bridge. */
export const WEB_SHELL_BRIDGE_PATH = '/bridge';
