/**
 * Admission control on the embedded database: a burst beyond what PGlite can serve gets a clear 503 with
 * Retry-After at once (never a 500, never a ten-second wait), the rest are served, and the server answers
 * normally after the burst. Transactions still work under the gate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdmissionGate } from '../../src-server/http/admission';
import { startHarness, type Harness } from './support/harness';
import { letter, organisation, type Org } from './support/correspondence';

describe('the admission gate', () => {
  it('admits up to its concurrency, queues up to its bound, refuses the rest and times out waiters', async () => {
    const gate = new AdmissionGate({ concurrency: 2, queue: 1, waitMs: 50 });
    expect(await gate.acquire()).toBe(true);
    expect(await gate.acquire()).toBe(true);
    const waiting = gate.acquire();
    expect(await gate.acquire()).toBe(false); // the queue is full
    expect(gate.load).toEqual({ active: 2, waiting: 1 });
    expect(await waiting).toBe(false); // its wait ran out
    expect(gate.load.waiting).toBe(0);
    const next = gate.acquire();
    gate.release(); // a place frees: the waiter takes it
    expect(await next).toBe(true);
    expect(gate.load).toEqual({ active: 2, waiting: 0 });
    gate.release();
    gate.release();
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });
});

describe('a burst on the embedded database', () => {
  let h: Harness;
  let org: Org;
  beforeAll(async () => {
    h = await startHarness({ DB_CONCURRENCY: '1', DB_QUEUE_MAX: '3', DB_QUEUE_WAIT_MS: '1000' });
    org = await organisation(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 503 with Retry-After to what it cannot take, serves the rest, then recovers', async () => {
    const burst = await Promise.all(
      Array.from({ length: 40 }, () =>
        h.app.inject({
          url: '/correspondence/boxes/incoming',
          headers: { authorization: `Bearer ${org.clerk.token}`, 'accept-language': 'en' },
        }),
      ),
    );
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    const busy = burst.filter((r) => r.statusCode === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const r of busy) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(r.json().detail).toMatch(/busy/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    const after = await h.app.inject({
      url: '/correspondence/boxes/incoming',
      headers: { authorization: `Bearer ${org.clerk.token}`, 'accept-language': 'ar' },
    });
    expect(after.statusCode).toBe(200);
    expect((await h.app.inject({ url: '/health' })).statusCode).toBe(200);
  });

  it('registers documents in parallel under the gate: numbers distinct, none lost', async () => {
    const results: number[] = [];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          h.app.inject({
            method: 'POST',
            url: '/correspondence/documents',
            headers: { authorization: `Bearer ${org.clerk.token}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ ...letter(org), register: true }),
          }),
        ),
      );
      for (const a of answers) {
        expect([201, 503]).toContain(a.statusCode);
        if (a.statusCode === 201) results.push(a.json().data.sequence as number);
      }
    }
    expect(results.length).toBeGreaterThan(0);
    expect(new Set(results).size).toBe(results.length);
  });
});
