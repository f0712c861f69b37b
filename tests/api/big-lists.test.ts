/**
 * Big boxes (issue 15): pages read from a keyset cursor (`after` / `next`), forward and back, and pages
 * reached by a jump (no cursor, or a cursor far away) give every row of the box exactly once, in the
 * box's order — ties in the sort value, rows of two arms equal in value and id, nulls first or last
 * included; the total of a filtered list or another order is counted up to LIST_EXACT_TOTAL_MAX (here 7) and
 * said to be a lower bound past it, while the box in its own date order is counted exactly from its
 * tallies (tests/api/box-jumps.test.ts); visibility applies to pages, cursors and counts alike. The expected order is computed here, in
 * JavaScript, from the rows the test writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startHarness, type Harness } from './support/harness';
import { organisation, type Org } from './support/correspondence';
import { encodeCursor, fingerprintOf } from '../../src-server/db/keyset';

const CAP = 7;
let h: Harness;
let org: Org;

/** A row the clerk's incoming box should list: the archive's own row (d) or a distribution to it (x). */
interface Expected {
  key: string;
  kind: 'd' | 'x';
  id: number;
  boxDate: string;
  receivedDate: string | null;
  priority: number;
  documentId: number;
}
const expected: Expected[] = [];
/** The documents the clerk must never see (above the clearance). */
const hidden: number[] = [];

const FIRST = 7001;
const COUNT = 26;
/** Knowledge distributions to the archive: these documents also have an `x` row with the same id. */
const tied = (i: number) => i >= 13 && i % 2 === 0;

beforeAll(async () => {
  h = await startHarness({ LIST_EXACT_TOTAL_MAX: String(CAP) });
  org = await organisation(h);
  const base = Math.floor(Date.now() / 1000) * 1000 - 86_400_000;
  for (let i = 0; i < COUNT; i++) {
    const id = FIRST + i;
    // Every third letter was registered in the same second as the one before: ties in the sort value.
    const at = new Date(base - (i - (i % 3 === 2 ? 1 : 0)) * 3_600_000).toISOString();
    const received = i % 5 === 0 ? null : `2026-02-${String(10 + (i % 4)).padStart(2, '0')}`;
    const secret = i % 7 === 3;
    const priority = i % 3;
    // One letter is not the archive's own (no `d` row), only distributed to it for knowledge.
    const held = i !== 20;
    await h.query(`insert into documents (id, direction, state, subject, security_rank, priority_rank,
        archive_department_id, registered_at, received_date, created_by, doc_number)
      overriding system value values (${id}, 'in', 'registered', 'letter ${i}', ${secret ? 3 : 1}, ${priority},
        ${held ? org.archive : 'null'}, '${at}', ${received ? `'${received}'` : 'null'}, ${org.admin.userId},
        'BIG-${id}')`);
    if (secret) {
      hidden.push(id);
      continue;
    }
    const row = { boxDate: at, receivedDate: received, priority, documentId: id };
    if (held) expected.push({ key: `d${id}`, kind: 'd', id, ...row });
    if (tied(i) || !held) {
      await h.query(`insert into distributions (id, document_id, department_id, type, direction, registered_at,
          security_rank, completed_at) overriding system value
        values (${id}, ${id}, ${org.archive}, 'forKnowledge', 'in', '${at}', 1, now())`);
      expected.push({ key: `x${id}`, kind: 'x', id, ...row });
    }
  }
  // A secret letter distributed to the archive: neither row may show.
  const secretId = hidden[0]!;
  await h.query(`insert into distributions (id, document_id, department_id, type, direction, registered_at,
      security_rank, completed_at) overriding system value
    select ${secretId}, id, ${org.archive}, 'forKnowledge', 'in', registered_at, 3, now()
    from documents where id = ${secretId}`);
});
afterAll(async () => {
  await h?.close();
});

type Sort = 'boxDate' | 'receivedDate' | 'priorityLevel';
const valueOf = (row: Expected, sort: Sort) =>
  sort === 'boxDate' ? Date.parse(row.boxDate) : sort === 'priorityLevel' ? row.priority : row.receivedDate;

/** The box's order: value (descending: nulls last; ascending: nulls first), then id, then kind. */
function ordered(sort: Sort, descending: boolean, rows = expected): string[] {
  const cmp = (a: Expected, b: Expected) => {
    const va = valueOf(a, sort);
    const vb = valueOf(b, sort);
    if (va !== vb) {
      if (va === null) return descending ? 1 : -1;
      if (vb === null) return descending ? -1 : 1;
      return (va < vb ? -1 : 1) * (descending ? -1 : 1);
    }
    if (a.id !== b.id) return (a.id - b.id) * (descending ? -1 : 1);
    return a.kind.localeCompare(b.kind) * (descending ? -1 : 1);
  };
  return [...rows].sort(cmp).map((r) => r.key);
}

interface PageAnswer {
  items: { key: string; documentId: number }[];
  total: number;
  totalExact?: boolean;
  page: number;
  pageSize: number;
  next?: string;
}

async function page(query: string, token = org.clerk.token): Promise<PageAnswer> {
  const res = await call(h, { method: 'GET', url: `/correspondence/boxes/incoming?${query}`, token });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data as PageAnswer;
}

const sortParam = (sort: Sort, descending: boolean) => `sort=${descending ? '-' : ''}${sort}`;

describe('big boxes: keyset pages and jumps', () => {
  for (const [sort, descending] of [
    ['boxDate', true],
    ['boxDate', false],
    ['receivedDate', true],
    ['receivedDate', false],
    ['priorityLevel', true],
  ] as [Sort, boolean][]) {
    it(`every row once, in order, by next, by jumps and back (${descending ? '-' : ''}${sort})`, async () => {
      const want = ordered(sort, descending);
      expect(want.length).toBeGreaterThan(CAP + 10);
      for (const pageSize of [1, 2, 5]) {
        const s = `${sortParam(sort, descending)}&pageSize=${pageSize}`;
        const pages = Math.ceil(want.length / pageSize);
        // Forward by the cursor of each page.
        const byNext: string[] = [];
        const cursors: (string | undefined)[] = [];
        let after: string | undefined;
        for (let p = 1; p <= pages; p++) {
          const answer = await page(`${s}&page=${p}${after ? `&after=${after}` : ''}`);
          expect(answer.page).toBe(p);
          byNext.push(...answer.items.map((i) => i.key));
          after = answer.next;
          cursors[p] = after;
          expect(!!after, `page ${p} of ${pages}: next`).toBe(p < pages);
        }
        expect(byNext).toEqual(want);
        // Every page by a jump (no cursor), and every page read back from the cursor of the page after it.
        for (let p = 1; p <= pages; p++) {
          const slice = want.slice((p - 1) * pageSize, p * pageSize);
          expect((await page(`${s}&page=${p}`)).items.map((i) => i.key)).toEqual(slice);
          // Read again with the cursor it gave (a refresh of the page).
          const own = cursors[p];
          if (own) expect((await page(`${s}&page=${p}&after=${own}`)).items.map((i) => i.key)).toEqual(slice);
          const later = cursors[p + 1];
          if (later)
            expect((await page(`${s}&page=${p}&after=${later}`)).items.map((i) => i.key)).toEqual(slice);
        }
        // A jump forward from a far cursor, and back to the second page from the last one's position.
        const third = Math.min(3, pages);
        expect((await page(`${s}&page=${pages}&after=${cursors[third]}`)).items.map((i) => i.key)).toEqual(
          want.slice((pages - 1) * pageSize),
        );
        if (pages > 3)
          expect((await page(`${s}&page=2&after=${cursors[pages - 1]}`)).items.map((i) => i.key)).toEqual(
            want.slice(pageSize, 2 * pageSize),
          );
      }
    });
  }

  it('a cursor of another query is not used; a string that is no cursor is refused', async () => {
    const want = ordered('boxDate', true);
    const first = await page('pageSize=4&page=1');
    // Another sort, another page size: page 3 is still the third page of that query.
    const other = await page(`sort=priorityLevel&pageSize=3&page=3&after=${first.next}`);
    expect(other.items.map((i) => i.key)).toEqual(ordered('priorityLevel', false).slice(6, 9));
    // Another page size, same query: the cursor's position still counts rows, not pages.
    const byThree = await page(`pageSize=3&page=3&after=${first.next}`);
    expect(byThree.items.map((i) => i.key)).toEqual(want.slice(6, 9));
    const bad = await call(h, {
      method: 'GET',
      url: '/correspondence/boxes/incoming?page=2&after=bm90LWEtY3Vyc29y',
      token: org.clerk.token,
    });
    expect(bad.status).toBe(400);
    // A cursor of this very query whose value is no date (made by hand, not by the server): 400, not 500.
    const forged = encodeCursor(
      fingerprintOf(['incoming', org.clerk.userId, '-boxDate', null, '', null, null, 'all']),
      { value: "2026-02-31T00:00:00.000000Z' or true", rowId: 1, kind: 'd', ordinal: 4 },
    );
    const tampered = await call(h, {
      method: 'GET',
      url: `/correspondence/boxes/incoming?pageSize=4&page=2&after=${forged}`,
      token: org.clerk.token,
    });
    expect(tampered.status).toBe(400);
    // The same hand-made cursor with a real date is used like the server's own.
    const fair = encodeCursor(
      fingerprintOf(['incoming', org.clerk.userId, '-boxDate', null, '', null, null, 'all']),
      { value: '2999-01-01T00:00:00.000000Z', rowId: 1, kind: 'd', ordinal: 4 },
    );
    expect((await page(`pageSize=4&page=2&after=${fair}`)).items.map((i) => i.key)).toEqual(want.slice(0, 4));
  });
});

describe('big boxes: totals', () => {
  const upTo = (n: number) =>
    `filters=${encodeURIComponent(JSON.stringify({ id: { constraints: [{ value: n, matchMode: 'lte' }] } }))}`;
  /** The document id at which the filtered box holds exactly `n` rows. */
  const idFor = (n: number) => {
    for (let id = FIRST; id < FIRST + COUNT; id++)
      if (expected.filter((r) => r.documentId <= id).length === n) return id;
    throw new Error(`no id gives ${n} rows`);
  };

  it('counts exactly up to the cap, and says "more than" past it', async () => {
    const atCap = await page(`${upTo(idFor(CAP))}&pageSize=5`);
    expect([atCap.total, atCap.totalExact]).toEqual([CAP, true]);
    const pastCap = await page(`${upTo(idFor(CAP + 1))}&pageSize=5`);
    expect([pastCap.total, pastCap.totalExact]).toEqual([CAP, false]);
    const below = await page(`${upTo(idFor(CAP - 1))}&pageSize=5`);
    expect([below.total, below.totalExact]).toEqual([CAP - 1, true]);
    const other = await page('pageSize=5&sort=-receivedDate');
    expect([other.total, other.totalExact]).toEqual([CAP, false]);
    // In its own date order, unfiltered, the box is tallied: exact whatever its size.
    const all = await page('pageSize=5');
    expect([all.total, all.totalExact]).toEqual([expected.length, true]);
  });

  it('past the cap the total grows with the pages read, and is exact on the last one', async () => {
    const n = expected.length;
    const pageSize = 4;
    const pages = Math.ceil(n / pageSize);
    // An order the box is not tallied in.
    const s = `sort=-receivedDate&pageSize=${pageSize}`;
    let after: string | undefined;
    for (let p = 1; p <= pages; p++) {
      const answer = await page(`${s}&page=${p}${after ? `&after=${after}` : ''}`);
      after = answer.next;
      const through = Math.min(p * pageSize, n);
      if (p === pages) expect([answer.total, answer.totalExact]).toEqual([n, true]);
      else if (through > CAP) expect([answer.total, answer.totalExact]).toEqual([through, false]);
      else expect([answer.total, answer.totalExact]).toEqual([CAP, false]);
    }
    // The last page by a jump says the same.
    const last = await page(`${s}&page=${pages}`);
    expect([last.total, last.totalExact, last.next]).toEqual([n, true, undefined]);
    // Beyond the end: no rows, and still only a lower bound.
    const beyond = await page(`${s}&page=${pages + 2}`);
    expect([beyond.items.length, beyond.total, beyond.totalExact, beyond.next]).toEqual([
      0,
      CAP,
      false,
      undefined,
    ]);
  });
});

describe('big boxes: visibility', () => {
  it('no page, cursor or count shows a row the caller may not see', async () => {
    const walked: { key: string; documentId: number }[] = [];
    let after: string | undefined;
    for (let p = 1; ; p++) {
      const answer = await page(`pageSize=6&page=${p}${after ? `&after=${after}` : ''}`);
      walked.push(...answer.items);
      after = answer.next;
      if (!after) break;
    }
    expect(walked.length).toBe(expected.length);
    for (const id of hidden) expect(walked.some((r) => r.documentId === id)).toBe(false);
    // Another department's member sees none of the archive's rows, with or without the clerk's cursor.
    const clerkFirst = await page('pageSize=6&page=1');
    for (const query of ['pageSize=6&page=1', `pageSize=6&page=2&after=${clerkFirst.next}`]) {
      const outsider = await page(query, org.outsider.token);
      expect(outsider.items.filter((r) => r.documentId >= FIRST)).toEqual([]);
    }
    const outsider = await page('pageSize=6&page=1', org.outsider.token);
    expect([outsider.total, outsider.totalExact]).toEqual([0, true]);
    // An administrator sees every letter, the secret ones too: counted from the tallies, and past the cap
    // in another order.
    const admin = await page('pageSize=6&page=1', org.admin.token);
    expect([admin.total, admin.totalExact]).toEqual([COUNT, true]);
    const adminOther = await page('pageSize=6&page=1&sort=-receivedDate', org.admin.token);
    expect([adminOther.total, adminOther.totalExact]).toEqual([CAP, false]);
  });
});
