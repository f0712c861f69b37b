/**
 * What every feature module needs from the running server: the database, the configuration and the
 * password hasher. Nothing in it holds request state, so several servers can share one database.
 */
import type { ServerConfig } from './config';
import type { Db } from './db/open';
import type { PasswordHasher } from './security/passwords';

export interface ServerContext {
  db: Db;
  config: ServerConfig;
  passwords: PasswordHasher;
}
