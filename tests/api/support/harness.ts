/**
 * The API test harness: one app per test file over a fresh database — an in-memory PGlite, or, when
 * SIJILL_TEST_DATABASE_URL is set, a new PostgreSQL database `sijill_t_<random>` dropped afterwards.
 * Requests go through `app.inject` (no port). Helpers make users and roles and sign in. The app's
 * background job queue polls fast here; `close()` stops it (the app's onClose) before the database closes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../../../src-server/app';
import { scratchPostgres } from '../../support/postgres';
import type { Clock } from '../../../src-server/clock';
import { loadConfig, type ServerConfig } from '../../../src-server/config';
import { openDatabase, type Database } from '../../../src-server/db/open';
import { rowsOf } from '../../../src-server/db/rows';
import { JobQueue } from '../../../src-server/jobs/queue';
import { pages, rolePagePermissions, roles } from '../../../src-server/db/schema';
import { createPasswordHasher } from '../../../src-server/security/passwords';
import { createLocalFileStore } from '../../../src-server/storage/files';
import { insertUser, systemRoleId } from '../../../src-server/modules/auth/queries';
import type { Permission } from '../../../src-shared/permissions';

export interface Harness {
  app: App;
  database: Database;
  config: ServerConfig;
  /** On PostgreSQL, this file's scratch database (for a second connection of a test's own). */
  databaseUrl: string | undefined;
  /** The app's background job queue (started unless JOBS_WORKER=0; stopped by close()). */
  jobs: JobQueue;
  /** This file's upload folder (a fresh temporary folder, removed by close()). */
  filesDir: string;
  /** Raw SQL for assertions and time travel (e.g. expiring a challenge). */
  query<T = Record<string, unknown>>(text: string): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * Opens a fresh database and builds the app; configuration overrides on top of test defaults; `clock`: a
 * clock the test moves (src-server/clock.ts MovableClock) for due dates and reminders.
 */
export async function startHarness(
  overrides: Partial<Record<keyof ServerConfig, string>> = {},
  options: { clock?: Clock } = {},
): Promise<Harness> {
  const config = loadConfig({
    DATA_DIR: '/nonexistent-test-data',
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    LOGIN_MAX_FAILURES_IP: '100000',
    ARGON2_MEMORY_KIB: '256',
    ARGON2_TIME_COST: '1',
    // Bursts of parallel requests in tests wait their turn rather than meet the 503 of a busy desk.
    DB_QUEUE_MAX: '10000',
    DB_QUEUE_WAIT_MS: '120000',
    // The background worker (search's reading and indexing) runs only where a test asks for it
    // (`JOBS_WORKER: '1'`): elsewhere the work is enqueued, as by a server without a worker, and waits.
    JOBS_WORKER: '0',
    ...overrides,
  });
  const baseUrl = process.env.SIJILL_TEST_DATABASE_URL;
  const pgDb = baseUrl ? await scratchPostgres(baseUrl) : null;
  const database = await openDatabase({
    ...config,
    DATABASE_URL: pgDb?.url,
    inMemory: !pgDb,
    DB_POOL_MAX: 4,
  });
  const filesDir = mkdtempSync(join(tmpdir(), 'sijill-files-'));
  const jobs = new JobQueue(database.db, { pollMs: 100, stopGraceMs: 5000 });
  const app = await buildApp({
    config: { ...config, DATABASE_URL: pgDb?.url },
    database,
    files: createLocalFileStore(filesDir),
    jobs,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    config,
    databaseUrl: pgDb?.url,
    jobs,
    filesDir,
    query: <T>(text: string) => rowsOf<T>(database.db, sql.raw(text)),
    close: async () => {
      await app.close(); // stops the job queue first (and waits for its running handlers)
      await database.close();
      await pgDb?.drop();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A unique short name for this file's fixtures. */
export function unique(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${counter}${randomBytes(3).toString('hex')}`;
}

const hasher = createPasswordHasher({ memoryKib: 256, timeCost: 1 });

/** Creates a role with permissions by page path (none by default). */
export async function makeRole(
  h: Harness,
  grants: Record<string, Permission[]> = {},
  opts: { requireTwoFactor?: boolean; active?: boolean } = {},
): Promise<number> {
  const db = h.database.db;
  const [role] = await db
    .insert(roles)
    .values({
      nameAr: unique('دور'),
      nameEn: unique('Role'),
      requireTwoFactor: opts.requireTwoFactor ?? false,
      active: opts.active ?? true,
    })
    .returning({ id: roles.id });
  const all = await db.select({ id: pages.id, path: pages.path }).from(pages);
  const byPath = new Map(all.map((p) => [p.path, p.id]));
  const rows = Object.entries(grants).map(([path, permissions]) => {
    const pageId = byPath.get(path);
    if (!pageId) throw new Error(`no page ${path}`);
    return { roleId: role!.id, pageId, permissions };
  });
  if (rows.length) await db.insert(rolePagePermissions).values(rows);
  return role!.id;
}

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
}

/** Creates an active user in a role (the administrator role when `roleId` is 'admin'). */
export async function makeUser(
  h: Harness,
  roleId: number | 'admin',
  opts: { password?: string; skipped?: boolean } = {},
): Promise<TestUser> {
  const db = h.database.db;
  const username = unique('user');
  const password = opts.password ?? 'correct-horse-1';
  const id = await insertUser(db, {
    username,
    email: `${username}@example.com`,
    passwordHash: await hasher.hash(password),
    nameAr: `مستخدم ${username}`,
    nameEn: `User ${username}`,
    roleId: roleId === 'admin' ? await systemRoleId(db) : roleId,
    locale: 'ar',
    active: true,
  });
  // Plain sign-in by default: mark the enrolment offer as skipped.
  if (opts.skipped !== false)
    await h.query(`update users set two_factor_skipped_at = now() where id = ${id}`);
  return { id, username, email: `${username}@example.com`, password };
}

type InjectArgs = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  token?: string;
  body?: unknown;
  lang?: 'ar' | 'en';
  ip?: string;
  /** More request headers (e.g. Idempotency-Key, If-Match). */
  headers?: Record<string, string>;
};

/** One request through app.inject; answers status and parsed JSON. */
export async function call(h: Harness, a: InjectArgs) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (a.token) headers.authorization = `Bearer ${a.token}`;
  if (a.lang) headers['accept-language'] = a.lang;
  Object.assign(headers, a.headers);
  const res = await h.app.inject({
    method: a.method,
    url: a.url,
    headers,
    ...(a.body !== undefined ? { payload: a.body as object } : {}),
    ...(a.ip ? { remoteAddress: a.ip } : {}),
  });
  let json: any = undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = res.json();
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json, headers: res.headers };
}

/** Signs in with a password (the user must have no second step); answers the access token. */
export async function signIn(h: Harness, user: { username: string; password: string }): Promise<string> {
  const res = await call(h, {
    method: 'POST',
    url: '/auth/login',
    body: { login: user.username, password: user.password },
  });
  if (res.status !== 200 || !res.json?.data?.accessToken)
    throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data.accessToken as string;
}

/** Row count of a table (to prove bad input changed nothing). */
export async function countRows(h: Harness, table: string): Promise<number> {
  const [row] = await h.query<{ n: number | string }>(`select count(*)::int as n from ${table}`);
  return Number(row!.n);
}
