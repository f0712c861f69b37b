/** The Electron executable, or null when this machine has none. */
export function electronBinary(from?: string): string | null;
/** What `npm start` says when there is no Electron binary, in plain words. */
export const NO_ELECTRON_MESSAGE: string;
