/**
 * Electron's transport for the IPC contract: one `ipcMain.handle` per contract channel, each going
 * through the shared dispatcher (src-main/ipc/dispatch.ts) with the verdict of the sender check, and
 * main's pushes sent to the window as `event:<name>`.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import {
  CHANNELS,
  EVENT_WIRE_PREFIX,
  type EventName,
  type EventPayload,
} from '../../src-shared/ipc/contract';
import type { Dispatch } from '../ipc/dispatch';

/**
 * Registers every contract channel. `isTrustedSender` decides per call; a refused sender gets
 * `ipc.forbiddenSender` and its input is never parsed or run. Returns the function that unregisters.
 */
export function registerIpc(
  dispatch: Dispatch,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): () => void {
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, (event, input: unknown) => dispatch(channel, input, isTrustedSender(event)));
  }
  return () => {
    for (const channel of CHANNELS) ipcMain.removeHandler(channel);
  };
}

/** Pushes an event of the contract to the window (the preload turns it back into `sijill.on(name, …)`). */
export function pushEvent<E extends EventName>(
  window: BrowserWindow | null,
  event: E,
  payload: EventPayload<E>,
): void {
  if (!window || window.isDestroyed()) return;
  window.webContents.send(`${EVENT_WIRE_PREFIX}${event}`, payload);
}
