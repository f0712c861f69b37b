/**
 * The server outlives its database connections: when PostgreSQL ends the pool's idle connections (a
 * restart, a failover, an administrator), the pool drops them and the next request opens new ones;
 * nothing crashes the process; and every connection, first or renewed, has JIT off (db/open.ts).
 * PostgreSQL only (PGlite has no connections to lose, and no JIT).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { call, startHarness, type Harness } from './support/harness';

const BASE = process.env.SIJILL_TEST_DATABASE_URL;

describe.skipIf(!BASE)('connections ended by PostgreSQL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('a request after every idle connection was terminated is answered', async () => {
    expect((await call(h, { method: 'GET', url: '/health' })).status).toBe(200);
    const [row] = await h.query<{ name: string }>('select current_database() as name');
    const admin = new pg.Client({ connectionString: BASE });
    await admin.connect();
    try {
      const ended = await admin.query(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity
          where datname = $1 and pid <> pg_backend_pid() and state = 'idle'`,
        [row!.name],
      );
      expect(ended.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // Let the pool see the terminations (an unhandled pool error would fail this run).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await h.query<{ n: number }>('select 1 as n');
    expect(again[0]!.n).toBe(1);
  });

  it('every connection of the pool, first or renewed, compiles no statement (JIT off)', async () => {
    // Four statements at once hold the pool's four connections (DB_POOL_MAX in the harness).
    const settings = () =>
      Promise.all(
        Array.from({ length: 4 }, () =>
          h.query<{ jit: string; pid: number }>(
            `select current_setting('jit') as jit, pg_backend_pid() as pid from pg_sleep(0.2)`,
          ),
        ),
      ).then((rows) => rows.map((r) => r[0]!));
    const first = await settings();
    expect(new Set(first.map((r) => r.pid)).size).toBe(4);
    expect(first.map((r) => r.jit)).toEqual(['off', 'off', 'off', 'off']);
    // PostgreSQL's own default, for a connection of anyone else: on.
    const other = new pg.Client({ connectionString: BASE });
    await other.connect();
    try {
      expect((await other.query(`select current_setting('jit') as jit`)).rows[0].jit).toBe('on');
    } finally {
      await other.end();
    }
  });
});
