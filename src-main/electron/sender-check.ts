/**
 * The IPC sender check, kept free of Electron imports (structural types only) so it is unit-tested under
 * plain Node: a call is trusted only when it comes from the main frame of our window while that frame
 * shows one of our own pages.
 */

/** What the check reads of a frame (Electron's WebFrameMain has these). */
export interface FrameLike {
  readonly url: string;
  readonly parent: unknown;
  readonly processId: number;
  readonly routingId: number;
}

/** What the check reads of an IPC event (Electron's IpcMainInvokeEvent has these). */
export interface SenderEventLike {
  readonly sender: unknown;
  readonly senderFrame: FrameLike | null;
}

/** What the check reads of our window (Electron's BrowserWindow has these). */
export interface WindowLike {
  isDestroyed(): boolean;
  readonly webContents: { readonly mainFrame: FrameLike };
}

/**
 * Builds the sender check. Refused: no window, another web contents, a subframe (an iframe could host
 * anything), a destroyed frame, or a main frame that navigated away from our pages.
 */
export function trustedSender(
  getWindow: () => WindowLike | null,
  isOwnUrl: (url: string) => boolean,
): (event: SenderEventLike) => boolean {
  return (event) => {
    const window = getWindow();
    if (!window || window.isDestroyed()) return false;
    const frame = event.senderFrame;
    if (!frame || event.sender !== window.webContents) return false;
    // Compared by ids: WebFrameMain objects are handles, not guaranteed to be the same JS object.
    const main = window.webContents.mainFrame;
    if (frame.parent !== null || frame.processId !== main.processId || frame.routingId !== main.routingId) {
      return false;
    }
    return isOwnUrl(frame.url);
  };
}
