/** A scratch PostgreSQL database for tests and fixtures: made beside a server's URL, dropped when done. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A new empty PostgreSQL database beside `baseUrl`'s: its URL, and how to drop it. */
export async function scratchPostgres(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sijill_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
