/**
 * LocalStore: migrations run once and are tracked in user_version, a newer database is refused, the
 * file is in WAL mode, and client state and settings persist across a reopen.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore, NewerDatabaseError } from '../../src-main/services/local-store';
import {
  LOCAL_STORE_MIGRATIONS,
  type LocalStoreMigration,
} from '../../src-main/services/local-store-migrations';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sijill-store-'));
  file = join(dir, 'client.sqlite');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The shipped migrations plus one that counts its runs, to observe "applied once". */
function countingMigrations(counter: { runs: number }): LocalStoreMigration[] {
  return [
    ...LOCAL_STORE_MIGRATIONS,
    {
      name: 'counting test table',
      up: (db) => {
        counter.runs += 1;
        db.exec('CREATE TABLE counted (id INTEGER PRIMARY KEY)');
      },
    },
  ];
}

describe('LocalStore migrations', () => {
  it('applies every migration once and records the version in user_version', () => {
    const counter = { runs: 0 };
    const migrations = countingMigrations(counter);
    const store = LocalStore.open(file, { migrations });
    expect(store.schemaVersion).toBe(migrations.length);
    expect(counter.runs).toBe(1);
    store.close();

    const reopened = LocalStore.open(file, { migrations });
    expect(counter.runs).toBe(1);
    expect(reopened.schemaVersion).toBe(migrations.length);
    reopened.close();
  });

  it('applies only the pending migrations to an older database', () => {
    LocalStore.open(file).close(); // the shipped version
    const counter = { runs: 0 };
    const store = LocalStore.open(file, { migrations: countingMigrations(counter) });
    expect(counter.runs).toBe(1);
    expect(store.schemaVersion).toBe(LOCAL_STORE_MIGRATIONS.length + 1);
    store.close();
  });

  it('applies all pending migrations in one transaction: a failing step leaves the database untouched', () => {
    const failing: LocalStoreMigration[] = [
      ...LOCAL_STORE_MIGRATIONS,
      { name: 'breaks', up: () => { throw new Error('boom'); } }, // prettier-ignore
    ];
    expect(() => LocalStore.open(file, { migrations: failing })).toThrow(
      new RegExp(`migration ${failing.length} \\(breaks\\) failed`),
    );
    const raw = new Database(file);
    expect(raw.pragma('user_version', { simple: true })).toBe(0);
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    expect(tables).toEqual([]);
    raw.close();
  });

  it('refuses a database written by a newer app, without changing it', () => {
    const raw = new Database(file);
    raw.pragma(`user_version = ${LOCAL_STORE_MIGRATIONS.length + 5}`);
    raw.close();

    expect(() => LocalStore.open(file)).toThrow(NewerDatabaseError);
    expect(() => LocalStore.open(file)).toThrow(/newer Sijill/);

    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(LOCAL_STORE_MIGRATIONS.length + 5);
    check.close();
  });

  it('runs a file database in WAL mode', () => {
    const store = LocalStore.open(file);
    expect(store.journalMode).toBe('wal');
    store.close();
  });

  it('opens an in-memory database for tests', () => {
    const store = LocalStore.open(':memory:');
    expect(store.schemaVersion).toBe(LOCAL_STORE_MIGRATIONS.length);
    store.close();
  });
});

describe('LocalStore state and settings', () => {
  it('defaults the locale to Arabic and keeps a change across a reopen', () => {
    const store = LocalStore.open(file);
    expect(store.getSettings()).toEqual({ selectedLocale: 'ar', stickerPrinter: null });
    expect(store.setSettings({ selectedLocale: 'en' })).toEqual({
      selectedLocale: 'en',
      stickerPrinter: null,
    });
    store.close();

    const reopened = LocalStore.open(file);
    expect(reopened.getSettings()).toEqual({ selectedLocale: 'en', stickerPrinter: null });
    expect(reopened.get('selectedLocale')).toBe('en');
    reopened.close();
  });

  it("keeps this desk's sticker printer across a reopen, and forgets it when set to none", () => {
    const store = LocalStore.open(file);
    expect(store.setSettings({ stickerPrinter: 'Zebra ZD421 (فرع الأرشيف)' })).toEqual({
      selectedLocale: 'ar',
      stickerPrinter: 'Zebra ZD421 (فرع الأرشيف)',
    });
    expect(() => store.setSettings({ stickerPrinter: 'bad\nname' })).toThrow();
    store.close();
    const reopened = LocalStore.open(file);
    expect(reopened.getSettings().stickerPrinter).toBe('Zebra ZD421 (فرع الأرشيف)');
    expect(reopened.setSettings({ stickerPrinter: null }).stickerPrinter).toBeNull();
    reopened.close();
  });

  it('refuses an unsupported locale', () => {
    const store = LocalStore.open(':memory:');
    expect(() => store.setSettings({ selectedLocale: 'fr' as 'ar' })).toThrow();
    expect(store.getSettings()).toEqual({ selectedLocale: 'ar', stickerPrinter: null });
    store.close();
  });

  it('keeps JSON values under the storage keys, deletes several at once, and persists', () => {
    const store = LocalStore.open(file);
    const sections = [{ path: '/inbox', children: [], permissions: ['view'] }];
    store.set('sections', sections);
    store.set('user', { firstName: 'سارة', lastName: 'Haddad' });
    store.set('useTotp', true);
    store.set('rememberMe', 'false');
    expect(store.get('sections')).toEqual(sections);
    store.close();

    const reopened = LocalStore.open(file);
    expect(reopened.get('user')).toEqual({ firstName: 'سارة', lastName: 'Haddad' });
    expect(reopened.get<boolean>('useTotp')).toBe(true);
    reopened.delete('useTotp', 'sections', 'user');
    expect(reopened.get('useTotp')).toBeNull();
    expect(reopened.get('sections')).toBeNull();
    expect(reopened.get('user')).toBeNull();
    expect(reopened.get('rememberMe')).toBe('false');
    reopened.set('rememberMe', null);
    expect(reopened.get('rememberMe')).toBeNull();
    reopened.close();
  });

  it('refuses keys outside the specification (the token never goes here)', () => {
    const store = LocalStore.open(':memory:');
    expect(() => store.set('accessToken' as 'user', 'secret')).toThrow(/Unknown client state key/);
    store.close();
  });

  it('keeps the server URL (null means this computer) across a reopen', () => {
    const store = LocalStore.open(file);
    expect(store.getServerUrl()).toBeNull();
    store.setServerUrl('https://archive.example.org/sijill/');
    expect(store.getServerUrl()).toBe('https://archive.example.org/sijill');
    expect(() => store.setServerUrl('file:///etc/passwd')).toThrow(/http or https/);
    store.close();

    const reopened = LocalStore.open(file);
    expect(reopened.getServerUrl()).toBe('https://archive.example.org/sijill');
    reopened.setServerUrl(null);
    expect(reopened.getServerUrl()).toBeNull();
    reopened.close();
  });
});
