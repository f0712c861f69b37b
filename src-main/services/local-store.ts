/**
 * LocalStore: the desktop client's own SQLite database (better-sqlite3), kept by main. It holds the
 * specification's client-side state under the keys of src-shared/storage-keys.ts, the client settings
 * the renderer may change, and the connection setting (which server to talk to). Everything outside this
 * file goes through named methods: no SQL leaves it.
 *
 * Schema changes are numbered migrations (local-store-migrations.ts), applied all together in one
 * transaction and tracked in `PRAGMA user_version`. A database written by a newer app is refused rather
 * than guessed at, so a downgrade can never corrupt the user's data.
 */
import Database from 'better-sqlite3';
import {
  clientSettingsSchema,
  stationConfigSchema,
  type ClientSettings,
  type StationConfig,
} from '../../src-shared/ipc/contract';
import { DEFAULT_LOCALE, pickLocale } from '../../src-shared/locale';
import type { StorageKey } from '../../src-shared/storage-keys';
import { createDraftTable, type DraftTable } from './local-drafts-table';
import { LOCAL_STORE_MIGRATIONS, type LocalStoreMigration } from './local-store-migrations';

/** The keys LocalStore keeps: every client-side storage key except the token, which only the vault holds. */
export type StateKey = Exclude<StorageKey, 'accessToken'>;

const STATE_KEYS: readonly StateKey[] = ['useTotp', 'sections', 'user', 'rememberMe', 'selectedLocale'];

/** Thrown by `LocalStore.open` when the file was written by a newer version of Sijill. */
export class NewerDatabaseError extends Error {
  constructor(
    readonly file: string,
    readonly databaseVersion: number,
    readonly appVersion: number,
  ) {
    super(
      `The local database ${file} has schema version ${databaseVersion}, but this version of Sijill only ` +
        `knows up to ${appVersion}. It was written by a newer Sijill: install that version again, or move ` +
        `the file aside to start fresh. It was not opened, so nothing in it was changed.`,
    );
    this.name = 'NewerDatabaseError';
  }
}

/** Options of `LocalStore.open`. */
export interface LocalStoreOptions {
  /** The migrations to apply; tests pass their own, the app uses the shipped list. */
  migrations?: readonly LocalStoreMigration[];
}

const SERVER_URL = 'serverUrl';
/** The printer stickers go to without a dialog (app_settings; not one of the specification's keys). */
const STICKER_PRINTER = 'stickerPrinter';
const STATION = 'station';

/** The client's local database; open it with `LocalStore.open`. */
export class LocalStore {
  private draftTable: DraftTable | null = null;

  private constructor(private readonly db: Database.Database) {}

  /** The local drafts' rows (src-main/drafts keeps their content sealed). */
  drafts(): DraftTable {
    this.draftTable ??= createDraftTable(this.db);
    return this.draftTable;
  }

  /**
   * Opens (creating if needed) the database at `file` (`':memory:'` for tests), switches it to WAL and
   * applies pending migrations. Throws `NewerDatabaseError` if the file is newer than this app.
   */
  static open(file: string, options: LocalStoreOptions = {}): LocalStore {
    const migrations = options.migrations ?? LOCAL_STORE_MIGRATIONS;
    const db = new Database(file);
    try {
      // WAL lets a reader (e.g. a later ingest worker) run beside the writer and survives crashes well;
      // NORMAL sync is durable enough in WAL mode and much faster for many small writes.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      migrate(db, file, migrations);
    } catch (error) {
      db.close();
      throw error;
    }
    return new LocalStore(db);
  }

  /** The schema version of the open database (`PRAGMA user_version`). */
  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** The journal mode in effect (`wal` for a file, `memory` for `:memory:`). */
  get journalMode(): string {
    return this.db.pragma('journal_mode', { simple: true }) as string;
  }

  /** The stored value of a client-side key, or null when absent (or unreadable, which is treated as absent). */
  get<T = unknown>(key: StateKey): T | null {
    const row = this.db.prepare('SELECT value FROM client_state WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row ? parseJson<T>(row.value) : null;
  }

  /** Stores a client-side key; `null` or `undefined` removes it, as localStorage.removeItem would. */
  set(key: StateKey, value: unknown): void {
    assertStateKey(key);
    if (value === undefined || value === null) {
      this.delete(key);
      return;
    }
    this.db
      .prepare(
        `INSERT INTO client_state (key, value) VALUES (?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
      )
      .run(key, JSON.stringify(value));
  }

  /** Removes some client-side keys at once (a 401 clears several in one transaction). */
  delete(...keys: StateKey[]): void {
    const remove = this.db.prepare('DELETE FROM client_state WHERE key = ?');
    this.db.transaction(() => {
      for (const key of keys) remove.run(key);
    })();
  }

  /** The settings the renderer may read; the locale defaults to Arabic. */
  getSettings(): ClientSettings {
    const stored = this.get<string>('selectedLocale');
    const row = this.db.prepare('SELECT value FROM app_settings WHERE key = ?').get(STICKER_PRINTER) as
      { value: string } | undefined;
    const printer = row ? parseJson<unknown>(row.value) : null;
    return {
      selectedLocale: stored ? pickLocale(stored) : DEFAULT_LOCALE,
      stickerPrinter: typeof printer === 'string' && printer.length > 0 ? printer : null,
    };
  }

  /** Changes some settings (validated again here, since other callers than IPC may use it); answers all. */
  setSettings(patch: Partial<ClientSettings>): ClientSettings {
    const valid = clientSettingsSchema.partial().strict().parse(patch);
    if (valid.selectedLocale !== undefined) this.set('selectedLocale', valid.selectedLocale);
    if (valid.stickerPrinter === null)
      this.db.prepare('DELETE FROM app_settings WHERE key = ?').run(STICKER_PRINTER);
    else if (valid.stickerPrinter !== undefined) this.putAppSetting(STICKER_PRINTER, valid.stickerPrinter);
    return this.getSettings();
  }

  /** The organisation's server URL (connected mode), or null for this computer's embedded server (standalone). */
  getServerUrl(): string | null {
    const row = this.db.prepare('SELECT value FROM app_settings WHERE key = ?').get(SERVER_URL) as
      { value: string } | undefined;
    const value = row ? parseJson<unknown>(row.value) : null;
    return typeof value === 'string' && value.length > 0 ? value : null;
  }

  /** Sets the server URL (http or https only), or null to go back to standalone mode. */
  setServerUrl(url: string | null): void {
    if (url === null) {
      this.db.prepare('DELETE FROM app_settings WHERE key = ?').run(SERVER_URL);
      return;
    }
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`A server URL must be http or https, not ${parsed.protocol}`);
    }
    if (parsed.username || parsed.password) throw new Error('A server URL must not carry credentials');
    this.putAppSetting(SERVER_URL, parsed.href.replace(/\/+$/, ''));
  }

  /** The scanning station's settings (off, no folders, until set). */
  getStation(): StationConfig {
    const row = this.db.prepare('SELECT value FROM app_settings WHERE key = ?').get(STATION) as
      { value: string } | undefined;
    const parsed = stationConfigSchema.safeParse(row ? parseJson<unknown>(row.value) : null);
    return parsed.success ? parsed.data : { enabled: false, folders: [], polling: false };
  }

  /** Saves the scanning station's settings (validated again here). */
  setStation(config: StationConfig): StationConfig {
    const valid = stationConfigSchema.parse(config);
    this.putAppSetting(STATION, valid);
    return valid;
  }

  /** Writes one app setting (JSON), replacing what was there. */
  private putAppSetting(key: string, value: unknown): void {
    this.db
      .prepare(
        `INSERT INTO app_settings (key, value) VALUES (?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value,
           updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
      )
      .run(key, JSON.stringify(value));
  }

  /** Closes the database (checkpointing the WAL). Safe to call twice. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Applies every pending migration in one transaction, so a failure leaves the previous version intact. */
function migrate(db: Database.Database, file: string, migrations: readonly LocalStoreMigration[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) throw new NewerDatabaseError(file, current, migrations.length);
  if (current === migrations.length) return;
  db.transaction(() => {
    for (let version = current + 1; version <= migrations.length; version++) {
      const migration = migrations[version - 1]!;
      try {
        migration.up(db);
      } catch (error) {
        throw new Error(`Local database migration ${version} (${migration.name}) failed`, { cause: error });
      }
    }
    // user_version is part of the database header and so follows the transaction: set it inside.
    db.pragma(`user_version = ${migrations.length}`);
  })();
}

function assertStateKey(key: string): asserts key is StateKey {
  if (!(STATE_KEYS as readonly string[]).includes(key)) throw new Error(`Unknown client state key: ${key}`);
}

function parseJson<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
