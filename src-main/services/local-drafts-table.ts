/**
 * The SQL of local drafts (tables of local-store-migrations.ts, "local drafts"), reached only through
 * LocalStore.drafts(). Content, file names and the server's version in a conflict arrive here sealed;
 * this layer never sees them in clear.
 */
import type { Database } from 'better-sqlite3';

export type LocalDraftState = 'pending' | 'synced' | 'conflict' | 'failed';

export interface LocalDraftRow {
  id: string;
  user_id: number;
  server: string;
  direction: string;
  seq: number;
  idem_key: string;
  content: Buffer;
  server_id: number | null;
  server_version: number | null;
  theirs: Buffer | null;
  /** The create request (sealed) as first sent under `idem_key`, until the server's id is known. */
  sent: Buffer | null;
  state: LocalDraftState;
  dirty: 0 | 1;
  error: string | null;
  created_at: string;
  updated_at: string;
  synced_at: string | null;
}

export interface LocalDraftFileRow {
  id: string;
  draft_id: string;
  name: Buffer;
  size: number;
  sha256: string;
  file: string;
  created_at: string;
}

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

export function createDraftTable(db: Database) {
  const statements = {
    list: db.prepare(`SELECT * FROM local_drafts WHERE user_id = ? AND server = ? ORDER BY seq`),
    get: db.prepare(`SELECT * FROM local_drafts WHERE id = ?`),
    byServerId: db.prepare(
      `SELECT * FROM local_drafts WHERE user_id = ? AND server = ? AND server_id = ? ORDER BY seq LIMIT 1`,
    ),
    nextSeq: db.prepare(`SELECT coalesce(max(seq), 0) + 1 AS seq FROM local_drafts`),
    insert: db.prepare(
      `INSERT INTO local_drafts (id, user_id, server, direction, seq, idem_key, content, server_id,
         server_version, state, dirty)
       VALUES (@id, @user_id, @server, @direction, @seq, @idem_key, @content, @server_id, @server_version,
         'pending', 1)`,
    ),
    edit: db.prepare(
      `UPDATE local_drafts SET content = @content, dirty = 1,
         state = CASE WHEN state = 'conflict' THEN 'conflict' ELSE 'pending' END, error = NULL,
         updated_at = ${NOW} WHERE id = @id`,
    ),
    synced: db.prepare(
      `UPDATE local_drafts SET server_id = @server_id, server_version = @server_version, dirty = 0,
         state = 'synced', error = NULL, theirs = NULL, synced_at = ${NOW} WHERE id = @id`,
    ),
    created: db.prepare(
      `UPDATE local_drafts SET server_id = @server_id, server_version = @server_version, sent = NULL
         WHERE id = @id`,
    ),
    sending: db.prepare(`UPDATE local_drafts SET sent = @sent WHERE id = @id`),
    conflict: db.prepare(
      `UPDATE local_drafts SET state = 'conflict', theirs = @theirs, error = NULL WHERE id = @id`,
    ),
    failed: db.prepare(`UPDATE local_drafts SET state = 'failed', error = @error WHERE id = @id`),
    rebase: db.prepare(
      `UPDATE local_drafts SET server_version = @server_version, state = 'pending', theirs = NULL,
         dirty = 1, error = NULL WHERE id = @id`,
    ),
    detach: db.prepare(
      `UPDATE local_drafts SET server_id = NULL, server_version = NULL, idem_key = @idem_key,
         state = 'pending', dirty = 1, error = NULL, theirs = NULL, sent = NULL WHERE id = @id`,
    ),
    remove: db.prepare(`DELETE FROM local_drafts WHERE id = ?`),
    pruneSynced: db.prepare(
      `DELETE FROM local_drafts WHERE state = 'synced' AND dirty = 0 AND synced_at < ?
         AND NOT EXISTS (SELECT 1 FROM local_draft_files f WHERE f.draft_id = local_drafts.id)`,
    ),
    files: db.prepare(`SELECT * FROM local_draft_files WHERE draft_id = ? ORDER BY created_at, id`),
    file: db.prepare(`SELECT * FROM local_draft_files WHERE id = ? AND draft_id = ?`),
    insertFile: db.prepare(
      `INSERT INTO local_draft_files (id, draft_id, name, size, sha256, file)
       VALUES (@id, @draft_id, @name, @size, @sha256, @file)`,
    ),
    removeFile: db.prepare(`DELETE FROM local_draft_files WHERE id = ?`),
    touch: db.prepare(`UPDATE local_drafts SET dirty = 1, state = CASE WHEN state = 'conflict' THEN
         'conflict' ELSE 'pending' END, updated_at = ${NOW} WHERE id = ?`),
    allFiles: db.prepare(`SELECT file FROM local_draft_files`),
    counts: db.prepare(
      `SELECT state, count(*) AS n FROM local_drafts WHERE user_id = ? AND server = ?
         AND (state <> 'synced' OR dirty = 1) GROUP BY state`,
    ),
  };
  return {
    list: (userId: number, server: string) => statements.list.all(userId, server) as LocalDraftRow[],
    get: (id: string) => statements.get.get(id) as LocalDraftRow | undefined,
    byServerId: (userId: number, server: string, serverId: number) =>
      statements.byServerId.get(userId, server, serverId) as LocalDraftRow | undefined,
    insert(row: {
      id: string;
      user_id: number;
      server: string;
      direction: string;
      idem_key: string;
      content: Buffer;
      server_id: number | null;
      server_version: number | null;
    }): void {
      db.transaction(() => {
        const { seq } = statements.nextSeq.get() as { seq: number };
        statements.insert.run({ ...row, seq });
      })();
    },
    edit: (id: string, content: Buffer) => void statements.edit.run({ id, content }),
    synced: (id: string, serverId: number, serverVersion: number) =>
      void statements.synced.run({ id, server_id: serverId, server_version: serverVersion }),
    created: (id: string, serverId: number, serverVersion: number) =>
      void statements.created.run({ id, server_id: serverId, server_version: serverVersion }),
    /** Keeps the create request (sealed) about to be sent under the draft's key for the first time. */
    sending: (id: string, sent: Buffer) => void statements.sending.run({ id, sent }),
    conflict: (id: string, theirs: Buffer) => void statements.conflict.run({ id, theirs }),
    failed: (id: string, error: string) => void statements.failed.run({ id, error }),
    rebase: (id: string, serverVersion: number) =>
      void statements.rebase.run({ id, server_version: serverVersion }),
    detach: (id: string, idemKey: string) => void statements.detach.run({ id, idem_key: idemKey }),
    remove: (id: string) => void statements.remove.run(id),
    pruneSynced: (before: string) => statements.pruneSynced.run(before).changes,
    files: (draftId: string) => statements.files.all(draftId) as LocalDraftFileRow[],
    file: (draftId: string, fileId: string) =>
      statements.file.get(fileId, draftId) as LocalDraftFileRow | undefined,
    insertFile(row: Omit<LocalDraftFileRow, 'created_at'>): void {
      db.transaction(() => {
        statements.insertFile.run(row);
        statements.touch.run(row.draft_id);
      })();
    },
    removeFile: (fileId: string) => void statements.removeFile.run(fileId),
    allFiles: () => (statements.allFiles.all() as { file: string }[]).map((r) => r.file),
    /** How many of the owner's drafts are in each state (without opening any). */
    counts(userId: number, server: string): Record<string, number> {
      const rows = statements.counts.all(userId, server) as { state: string; n: number }[];
      return Object.fromEntries(rows.map((r) => [r.state, r.n]));
    },
  };
}

export type DraftTable = ReturnType<typeof createDraftTable>;
