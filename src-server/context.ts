/**
 * What every feature module needs from the running server: the database, the configuration, the
 * password hasher, the file store and the background job queue. Nothing in it holds request state, so several servers can share one database.
 */
import type { Clock } from './clock';
import type { ServerConfig } from './config';
import type { Database, Db } from './db/open';
import type { JobQueue } from './jobs/queue';
import type { PasswordHasher } from './security/passwords';
import type { FileStore } from './storage/files';

export interface ServerContext {
  db: Db;
  config: ServerConfig;
  passwords: PasswordHasher;
  /** Uploaded files (content-addressed; local disk under DATA_DIR/files, or another store). */
  files: FileStore;
  /**
   * Background jobs (PDF text extraction, OCR, re-indexing): enqueue in the request's transaction, then
   * `nudge()`. Started when the app is ready (unless JOBS_WORKER=0), stopped when it closes.
   */
  jobs: JobQueue;
  /**
   * Listens on a NOTIFY channel of the database (every server sharing it hears a committed notify):
   * the push of notifications (modules/notifications/hub.ts).
   */
  listen: Database['listen'];
  /** "Now" for deadlines, reminders and digests (a test moves it; src-server/clock.ts). */
  clock: Clock;
}
