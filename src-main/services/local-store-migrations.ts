/**
 * The numbered schema migrations of the client's SQLite database (LocalStore). The version of a
 * migration is its index + 1 and is stored in `PRAGMA user_version`, so entries are only ever appended:
 * never edit or reorder one that has shipped, or a database that already ran it would not run the change.
 */
import type { Database } from 'better-sqlite3';

/** One schema step; `up` runs inside the single transaction that applies every pending step. */
export interface LocalStoreMigration {
  /** What the step does, for logs and error messages. */
  readonly name: string;
  readonly up: (db: Database) => void;
}

/** The shipped migrations, oldest first: append only. */
export const LOCAL_STORE_MIGRATIONS: readonly LocalStoreMigration[] = [
  {
    name: 'client state and connection settings',
    up: (db) => {
      // The specification's client-side state (sections, user, rememberMe, selectedLocale, useTotp),
      // one JSON value per key. The access token is never stored here: it lives in the SessionVault.
      db.exec(`
        CREATE TABLE client_state (
          key        TEXT PRIMARY KEY NOT NULL,
          value      TEXT NOT NULL,
          updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ) STRICT;
        CREATE TABLE app_settings (
          key        TEXT PRIMARY KEY NOT NULL,
          value      TEXT NOT NULL,
          updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ) STRICT;
      `);
    },
  },
];
