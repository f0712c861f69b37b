/**
 * The server outlives its database connections: when PostgreSQL ends the pool's idle connections (a
 * restart, a failover, an administrator), the pool drops them and the next request opens new ones;
 * nothing crashes the process. PostgreSQL only (PGlite has no connections to lose).
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
});
