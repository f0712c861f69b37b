/**
 * Admission control on the embedded database: a burst beyond what PGlite can serve gets a clear 503 with
 * Retry-After at once (never a 500, never a ten-second wait), the rest are served, and the server answers
 * normally after the burst. Transactions still work under the gate.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect } from 'node:net';
import Fastify from 'fastify';
import { AdmissionGate, installAdmission } from '../../src-server/http/admission';
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

describe('uploads hold at most half the places', () => {
  it('uploads beyond their share wait while other requests take the places left', async () => {
    const gate = new AdmissionGate({ concurrency: 4, queue: 10, waitMs: 50 });
    const uploads = Array.from({ length: 3 }, () => gate.acquire('upload'));
    expect(await uploads[0]).toBe(true);
    expect(await uploads[1]).toBe(true);
    // The third waits for an upload's place (and longer than the gate's own wait), not for the gate's.
    expect(gate.load).toEqual({ active: 2, waiting: 1 });
    expect(await gate.acquire()).toBe(true);
    expect(await gate.acquire()).toBe(true);
    expect(gate.load).toEqual({ active: 4, waiting: 1 });
    gate.release('upload');
    expect(await uploads[2]).toBe(true);
    expect(gate.load).toEqual({ active: 4, waiting: 0 });
    for (const kind of ['upload', 'upload', 'other', 'other'] as const) gate.release(kind);
    expect(gate.load).toEqual({ active: 0, waiting: 0 });
  });

  it('with a single place, an upload takes it as any request does', async () => {
    const gate = new AdmissionGate({ concurrency: 1, queue: 1, waitMs: 50 });
    expect(await gate.acquire('upload')).toBe(true);
    expect(await gate.acquire()).toBe(false); // its wait ran out
    gate.release('upload');
    expect(await gate.acquire()).toBe(true);
  });

  it('a screen is answered while uploads work, before them', async () => {
    const app = Fastify();
    const gate = installAdmission(app, { concurrency: 2, queue: 10, waitMs: 60_000 })!;
    app.addContentTypeParser(
      'multipart/form-data',
      async (_request: unknown, payload: AsyncIterable<Buffer>) => {
        for await (const chunk of payload) void chunk;
        return null;
      },
    );
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    app.post('/upload', async () => {
      await held;
      return { ok: true };
    });
    app.get('/box', async () => ({ ok: true }));
    const url = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
    const upload = () =>
      fetch(new URL('/upload', url), {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x--\r\n',
      });
    try {
      const order: string[] = [];
      const uploads = [upload(), upload()].map((p) => p.then((r) => order.push(`upload ${r.status}`)));
      await vi.waitFor(() => expect(gate.load).toEqual({ active: 1, waiting: 1 }), { timeout: 30_000 });
      // Two places, one held by an upload and the other upload waiting for its share: the box gets in.
      const box = await fetch(new URL('/box', url));
      order.push(`box ${box.status}`);
      release();
      await Promise.all(uploads);
      expect(order).toEqual(['box 200', 'upload 200', 'upload 200']);
    } finally {
      await app.close();
    }
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

describe('clients that go away', () => {
  it('a request abandoned while it waits, or while it works, gives its place back', async () => {
    const app = Fastify();
    const gate = installAdmission(app, { concurrency: 1, queue: 10, waitMs: 60_000 })!;
    app.get('/slow', async () => {
      await new Promise((r) => setTimeout(r, 300));
      return { ok: true };
    });
    app.get('/fast', async () => ({ ok: true }));
    const url = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
    const abandon = async (path: string, after: number) => {
      const socket = connect(Number(url.port), '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      await new Promise((r) => setTimeout(r, after));
      socket.destroy();
    };
    try {
      const working = fetch(new URL('/slow', url)); // holds the one place for 300 ms
      await new Promise((r) => setTimeout(r, 50));
      await abandon('/slow', 50); // waits behind it, then its client goes away
      await abandon('/slow', 400); // gets the place, then its client goes away mid-work
      expect((await working).status).toBe(200);
      // Every place is free again: this request is served, not left waiting for a minute.
      // (A ceiling well under the minute a lost place would hold it, not a measure of speed.)
      const next = await Promise.race([
        fetch(new URL('/fast', url)).then((r) => r.status),
        new Promise((r) => setTimeout(() => r('still waiting'), 30_000)),
      ]);
      expect(next).toBe(200);
      // The abandoned request still working finishes in its own time; then nothing holds a place.
      await vi.waitFor(() => expect(gate.load).toEqual({ active: 0, waiting: 0 }), {
        timeout: 30_000,
        interval: 50,
      });
    } finally {
      await app.close();
    }
  });
});
