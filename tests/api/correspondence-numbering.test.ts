/**
 * Registration numbers under concurrency: 50 drafts registered in parallel (app.inject, all at once) get
 * 50 distinct consecutive sequences with no gap; a failed registration gives its number back. Meaningful
 * on PostgreSQL (SIJILL_TEST_DATABASE_URL), where requests really run on several connections; on PGlite
 * it still proves the numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startHarness, type Harness } from './support/harness';
import { letter, organisation, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
});
afterAll(async () => {
  await h?.close();
});

describe('registration numbers', () => {
  it('50 parallel registrations get 50 distinct consecutive numbers', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) {
      const d = await call(h, {
        method: 'POST',
        url: '/correspondence/documents',
        token: org.clerk.token,
        body: letter(org),
      });
      ids.push(d.json.data.id);
    }
    const results = await Promise.all(
      ids.map((id) =>
        call(h, { method: 'POST', url: `/correspondence/documents/${id}/register`, token: org.clerk.token }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const sequences = results.map((r) => r.json.data.sequence as number).sort((a, b) => a - b);
    expect(new Set(sequences).size).toBe(50);
    expect(sequences).toEqual(sequences.map((_, i) => sequences[0]! + i));
    const numbers = new Set(results.map((r) => r.json.data.docNumber as string));
    expect(numbers.size).toBe(50);
  });

  it('a refused registration takes no number (no gaps)', async () => {
    const a = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: { ...letter(org), register: true },
    });
    // Incomplete: refused inside the registration, nothing consumed.
    const bad = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: { ...letter(org, { documentDate: null }), register: true },
    });
    expect(bad.status).toBe(422);
    const b = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: { ...letter(org), register: true },
    });
    expect(b.json.data.sequence).toBe(a.json.data.sequence + 1);
  });
});
