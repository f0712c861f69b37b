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
  {
    name: 'local drafts',
    up: (db) => {
      // Drafts composed on this desk (issue 14): one row per draft of one user on one server, its
      // content sealed (src-main/drafts/crypto.ts); its files in the user-data folder, sealed too, a row
      // each. `seq` is the order they are sent in; `idem_key` makes their creation on the server happen
      // once, however often it is retried.
      db.exec(`
        CREATE TABLE local_drafts (
          id             TEXT PRIMARY KEY NOT NULL,
          user_id        INTEGER NOT NULL,
          server         TEXT NOT NULL,
          direction      TEXT NOT NULL CHECK (direction IN ('in', 'out', 'internal', 'memo')),
          seq            INTEGER NOT NULL,
          idem_key       TEXT NOT NULL,
          content        BLOB NOT NULL,
          server_id      INTEGER,
          server_version INTEGER,
          theirs         BLOB,
          state          TEXT NOT NULL CHECK (state IN ('pending', 'synced', 'conflict', 'failed')),
          dirty          INTEGER NOT NULL DEFAULT 1 CHECK (dirty IN (0, 1)),
          error          TEXT,
          created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
          updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
          synced_at      TEXT
        ) STRICT;
        CREATE INDEX local_drafts_owner ON local_drafts (user_id, server, seq);
        CREATE TABLE local_draft_files (
          id         TEXT PRIMARY KEY NOT NULL,
          draft_id   TEXT NOT NULL REFERENCES local_drafts (id) ON DELETE CASCADE,
          name       BLOB NOT NULL,
          size       INTEGER NOT NULL,
          sha256     TEXT NOT NULL,
          file       TEXT NOT NULL,
          created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
        ) STRICT;
        CREATE INDEX local_draft_files_draft ON local_draft_files (draft_id);
      `);
    },
  },
  {
    name: 'local drafts: the create request as first sent',
    up: (db) => {
      // The server refuses an Idempotency-Key sent again with another body (422): a draft whose create
      // may have arrived (its answer lost) and that was edited since is created again with exactly the
      // body its key first went with (sealed, like its content), then updated.
      db.exec(`ALTER TABLE local_drafts ADD COLUMN sent BLOB;`);
    },
  },
];
