/**
 * The Node session vaults: the file vault writes 0600 atomically, survives a restart, treats a corrupt
 * or unreadable file as signed out, and clears; the memory vault never shows the token when printed.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileVault, MemoryVault } from '../../src-main/services/session-vault';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sijill-vault-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('FileVault', () => {
  it('starts signed out, stores the token with mode 0600 and leaves no temporary file', () => {
    const path = join(dir, 'nested', 'session.token');
    const vault = new FileVault(path);
    expect(vault.backend).toBe('file');
    expect(vault.getToken()).toBeNull();
    vault.setToken('tok-123');
    expect(vault.getToken()).toBe('tok-123');
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['session.token']);
  });

  it('keeps the token for a new vault on the same file (a restart)', () => {
    const path = join(dir, 'session.token');
    new FileVault(path).setToken('first');
    new FileVault(path).setToken('second');
    expect(new FileVault(path).getToken()).toBe('second');
  });

  it('treats a corrupt file as signed out', () => {
    const path = join(dir, 'session.token');
    writeFileSync(path, '{not json', { mode: 0o600 });
    expect(new FileVault(path).getToken()).toBeNull();
    writeFileSync(path, JSON.stringify({ token: 42 }), { mode: 0o600 });
    expect(new FileVault(path).getToken()).toBeNull();
  });

  it('treats an unreadable file as signed out', () => {
    // A directory where the file should be cannot be read by anyone, root included.
    const path = join(dir, 'session.token');
    mkdirSync(path);
    expect(new FileVault(path).getToken()).toBeNull();
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)(
    'treats a file without read permission as signed out',
    () => {
      const path = join(dir, 'session.token');
      const vault = new FileVault(path);
      vault.setToken('tok');
      chmodSync(path, 0o000);
      expect(vault.getToken()).toBeNull();
    },
  );

  it('clears the token and removes the file; clearing twice is fine', () => {
    const path = join(dir, 'session.token');
    const vault = new FileVault(path);
    vault.setToken('tok');
    vault.clear();
    expect(vault.getToken()).toBeNull();
    expect(existsSync(path)).toBe(false);
    expect(() => vault.clear()).not.toThrow();
  });

  it('refuses an empty token and never prints the token', () => {
    const vault = new FileVault(join(dir, 'session.token'));
    expect(() => vault.setToken('')).toThrow();
    vault.setToken('super-secret-token');
    expect(JSON.stringify(vault)).not.toContain('super-secret-token');
    expect(JSON.stringify(vault)).toContain('[hidden]');
  });
});

describe('MemoryVault', () => {
  it('keeps, forgets and hides the token', () => {
    const vault = new MemoryVault();
    expect(vault.backend).toBe('memory');
    expect(vault.getToken()).toBeNull();
    vault.setToken('mem-secret');
    expect(vault.getToken()).toBe('mem-secret');
    expect(JSON.stringify(vault)).not.toContain('mem-secret');
    expect(inspect(vault)).not.toContain('mem-secret');
    vault.clear();
    expect(vault.getToken()).toBeNull();
  });
});
