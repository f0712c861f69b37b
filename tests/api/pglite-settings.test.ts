/**
 * The embedded PGlite's memory settings (db/pglite-options.ts): wherever it is opened — its worker thread
 * or the server's thread — it runs with the desk's small shared buffers, or the number
 * PGLITE_SHARED_BUFFERS_MB gives, and a small maintenance memory, and still has pg_trgm.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-server/db/open';
import { PGLITE_SHARED_BUFFERS_MB } from '../../src-server/db/pglite-options';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function settingsOf(options: { inThread: boolean; sharedBuffersMb?: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'sijill-pglite-settings-'));
  dirs.push(dir);
  const database = await openDatabase({
    DATA_DIR: dir,
    PGLITE_IN_THREAD: options.inThread,
    ...(options.sharedBuffersMb ? { PGLITE_SHARED_BUFFERS_MB: options.sharedBuffersMb } : {}),
    migrate: false,
  });
  try {
    const rows = await database.db.execute<{ name: string; setting: string }>(
      sql`select name, current_setting(name) as setting from unnest(array['shared_buffers', 'maintenance_work_mem']) as name`,
    );
    await database.db.execute(sql`create extension if not exists pg_trgm`);
    const trgm = await database.db.execute<{ similarity: number }>(
      sql`select similarity('سجل', 'سجلات') as similarity`,
    );
    return {
      settings: Object.fromEntries(rows.rows.map((r) => [r.name, r.setting])),
      trgm: Number(trgm.rows[0]!.similarity),
    };
  } finally {
    await database.close();
  }
}

describe('the embedded database’s memory settings', () => {
  for (const inThread of [false, true]) {
    const where = inThread ? 'in the server’s thread' : 'in its worker thread';
    it(`runs ${where} with the desk’s shared buffers, or the configured ones`, async () => {
      const shipped = await settingsOf({ inThread });
      expect(shipped.settings).toEqual({
        shared_buffers: `${PGLITE_SHARED_BUFFERS_MB}MB`,
        maintenance_work_mem: '16MB',
      });
      expect(shipped.trgm).toBeGreaterThan(0);
      const raised = await settingsOf({ inThread, sharedBuffersMb: 48 });
      expect(raised.settings.shared_buffers).toBe('48MB');
    });
  }
});
