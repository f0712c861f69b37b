/**
 * SessionVault: where main keeps the access token, so the renderer never holds it. Electron uses the
 * safeStorage vault (src-main/electron/safe-storage-vault.ts); plain Node (the web shell, tests) uses
 * the file or memory vault here. Whatever goes wrong reading a stored token means "signed out", never a
 * crash: the user signs in again. The token itself is never logged.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Keeps the one access token of the signed-in user. */
export interface SessionVault {
  /** How the token is protected at rest (e.g. `memory`, `file`, `gnome_libsecret`, `dpapi`). */
  readonly backend: string;
  /** The token, or null when signed out (including when the stored token cannot be read). */
  getToken(): string | null;
  setToken(token: string): void;
  clear(): void;
}

/** What a log line shows instead of a token. */
export const HIDDEN = '[hidden]';

/** A vault that forgets the token when the process ends: tests and throwaway sessions. */
export class MemoryVault implements SessionVault {
  readonly backend = 'memory';
  // An ES private field: util.inspect and console.log do not show it, so the token cannot slip into a log.
  #token: string | null = null;

  getToken(): string | null {
    return this.#token;
  }

  setToken(token: string): void {
    this.#token = assertToken(token);
  }

  clear(): void {
    this.#token = null;
  }

  /** What JSON.stringify shows: never the token. */
  toJSON(): object {
    return { backend: this.backend, token: this.#token === null ? null : HIDDEN };
  }
}

/**
 * A vault storing the token in a file only its owner can read (mode 0600), for plain Node hosts where
 * no OS keyring is available. The file is written to a temporary name and renamed, so a crash mid-write
 * leaves either the old token or the new one, never half of one.
 */
export class FileVault implements SessionVault {
  readonly backend = 'file';

  constructor(readonly path: string) {}

  getToken(): string | null {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return null; // absent or unreadable: signed out
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null && 'token' in parsed) {
        const token = (parsed as { token: unknown }).token;
        if (typeof token === 'string' && token.length > 0) return token;
      }
    } catch {
      // corrupt: signed out
    }
    return null;
  }

  setToken(token: string): void {
    writeFileAtomic(this.path, JSON.stringify({ v: 1, token: assertToken(token) }));
  }

  clear(): void {
    rmSync(this.path, { force: true });
  }

  toJSON(): object {
    return { backend: this.backend, path: this.path, token: HIDDEN };
  }
}

/**
 * Writes `data` to `path` with mode 0600 through a temporary file and a rename (atomic on one file
 * system). Used by both file-backed vaults.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // `wx` refuses to follow a planted file or symlink; the mode applies at creation, so the token is
    // never readable by others, even for a moment.
    writeFileSync(temp, data, { mode: 0o600, flag: 'wx' });
    chmodSync(temp, 0o600); // the umask may have narrowed it further, never widened; make it exact
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

function assertToken(token: string): string {
  if (typeof token !== 'string' || token.length === 0)
    throw new Error('An access token must be a non-empty string');
  return token;
}
