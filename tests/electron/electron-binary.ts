/**
 * The Electron binary of this machine, found without triggering a download (scripts/electron-binary.mjs,
 * shared with `npm start`).
 */
export { electronBinary } from '../../scripts/electron-binary.mjs';

/** Why the Electron suite skips, shown in the report. */
export const SKIP_REASON =
  'Electron binary not available on this machine (ELECTRON_SKIP_BINARY_DOWNLOAD): skipped';
