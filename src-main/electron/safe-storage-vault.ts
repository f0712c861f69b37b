/**
 * The desktop's SessionVault: the access token encrypted with Electron's safeStorage (DPAPI on Windows,
 * the Keychain on macOS, libsecret/kwallet on Linux) in a 0600 file beside the other user data. The
 * file records which backend encrypted it, so a token written while a keyring was available is not
 * "decrypted" with another one; any failure to read it back means signed out, never a crash.
 */
import { readFileSync, rmSync } from 'node:fs';
import { safeStorage } from 'electron';
import { HIDDEN, writeFileAtomic, type SessionVault } from '../services/session-vault';
import { fileProtector, type KeyProtector } from '../drafts/crypto';

interface VaultFile {
  v: 1;
  backend: string;
  /** base64 of safeStorage.encryptString(token). */
  ciphertext: string;
}

/** Keeps the token encrypted by the operating system's secret store. Create it after `app.whenReady()`. */
export class SafeStorageVault implements SessionVault {
  readonly backend: string;
  /** Used when the OS offers no encryption: the token then lives only as long as the process. */
  private memoryToken: string | null = null;
  private readonly encrypts: boolean;

  constructor(readonly path: string) {
    this.encrypts = safeStorage.isEncryptionAvailable();
    this.backend = this.encrypts ? currentBackend() : 'memory';
  }

  getToken(): string | null {
    if (!this.encrypts) return this.memoryToken;
    let stored: VaultFile;
    try {
      stored = JSON.parse(readFileSync(this.path, 'utf8')) as VaultFile;
    } catch {
      return null; // absent, unreadable or corrupt: signed out
    }
    if (stored?.v !== 1 || typeof stored.ciphertext !== 'string' || stored.backend !== this.backend)
      return null;
    try {
      const token = safeStorage.decryptString(Buffer.from(stored.ciphertext, 'base64'));
      return token.length > 0 ? token : null;
    } catch {
      return null; // the keyring changed or the file was tampered with: signed out
    }
  }

  setToken(token: string): void {
    if (typeof token !== 'string' || token.length === 0)
      throw new Error('An access token must be a non-empty string');
    if (!this.encrypts) {
      // Writing the token in clear text would defeat the vault: keep it for this run only.
      this.memoryToken = token;
      return;
    }
    const file: VaultFile = {
      v: 1,
      backend: this.backend,
      ciphertext: safeStorage.encryptString(token).toString('base64'),
    };
    writeFileAtomic(this.path, JSON.stringify(file));
  }

  clear(): void {
    this.memoryToken = null;
    rmSync(this.path, { force: true });
  }

  toJSON(): object {
    return { backend: this.backend, path: this.path, token: HIDDEN };
  }
}

function currentBackend(): string {
  if (process.platform === 'linux') return safeStorage.getSelectedStorageBackend();
  return process.platform === 'win32' ? 'dpapi' : 'keychain';
}

/**
 * The local drafts' key wrapped by the same store as the token (src-main/drafts/crypto.ts). Where the
 * operating system offers no encryption, the key is kept like the web shell's: in a file only its
 * owner may read (backend `file`), so drafts still survive a restart.
 */
export function safeStorageKeyProtector(): KeyProtector {
  if (!safeStorage.isEncryptionAvailable()) return fileProtector;
  return {
    backend: currentBackend(),
    wrap: (key) => safeStorage.encryptString(key.toString('base64')),
    unwrap: (wrapped) => Buffer.from(safeStorage.decryptString(wrapped), 'base64'),
  };
}
