/**
 * What every feature module needs from the running server: the database, the configuration, the
 * password hasher and the file store. Nothing in it holds request state, so several servers can share one database.
 */
import type { ServerConfig } from './config';
import type { Db } from './db/open';
import type { PasswordHasher } from './security/passwords';
import type { FileStore } from './storage/files';

export interface ServerContext {
  db: Db;
  config: ServerConfig;
  passwords: PasswordHasher;
  /** Uploaded files (content-addressed; local disk under DATA_DIR/files, or another store). */
  files: FileStore;
}
