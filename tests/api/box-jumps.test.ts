/**
 * Pages of the big boxes reached by their number (issue 23, item 22). The server finds where a page
 * starts from the boxes' tallies (box_tallies: rows per day, kept by triggers in the writing transaction)
 * instead of reading past every row before it; here it does so for every page (LIST_TALLY_JUMP_FROM=0).
 * Every page — by number forward, backward, at the end and past it, from a far cursor — must be exactly the
 * rows of a plain ordered query over the documents and distributions, for the incoming, outgoing and
 * approved-memos boxes, each direction of their date order, every view, day and instant ranges whose
 * edges cut days, callers of every kind (archive clerk, an author, a department's manager and member, an
 * administrator, an outsider); and again after changes that move rows in the middle of the box
 * (completion, clearance, archive office, distributions added and removed, registrations, deletions).
 * Finally the tallies equal a recount from the tables, also after concurrent writers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { call, startHarness, type Harness } from './support/harness';
import { department, letter, organisation, type Actor, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
let otherArchive: number;

const FIRST = 50_001;
const COUNT = 170;
/** Today's UTC midnight (ms): the documents' days count back from it. */
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const DAY = 86_400_000;
/** Registration times within a day: its very start and end, noon, and the start of a day at UTC+3. */
const TIMES = [0, DAY - 1, DAY / 2, 21 * 3_600_000];

beforeAll(async () => {
  h = await startHarness({ LIST_TALLY_JUMP_FROM: '0' });
  org = await organisation(h);
  otherArchive = await department(h, 'أرشيف الفرع', { archive: true });
  // The organisation's role also opens the outgoing and approved-memos boxes.
  await h.query(`insert into role_page_permissions (role_id, page_id, permissions)
    select u.role_id, p.id, '{view}' from users u, pages p
    where u.id = ${org.clerk.userId} and p.path in ('${PAGES.outgoing}', '${PAGES.approvedMemos}')`);
  const docs: string[] = [];
  const dists: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const id = FIRST + i;
    // Four letters a day over 43 days; every fifth shares its time with the one before (ties).
    const slot = i % 5 === 4 ? i - 1 : i;
    const at = new Date(today - Math.floor(slot / 4) * DAY + TIMES[slot % 4]!).toISOString();
    const [direction, state] =
      i % 13 === 5 ? ['out', 'approved'] : i % 13 === 7 ? ['memo', 'approved'] : ['in', 'registered'];
    const archive = [org.archive, org.archive, org.archive, otherArchive, org.archive, null, org.archive][
      i % 7
    ];
    const creator = i % 6 === 0 ? org.clerk.userId : i % 6 === 1 ? org.managerB.userId : org.admin.userId;
    const rank = i % 9 === 4 ? 3 : 1;
    const completed = i % 4 === 1 ? `'${at}'` : 'null';
    const dispatched = direction === 'out' && i % 3 === 0 ? `'${at}'` : 'null';
    docs.push(`(${id}, '${direction}', '${state}', 'jump ${i}', ${rank}, ${archive ?? 'null'}, '${at}',
      ${creator}, 'TJ-${id}', ${completed}, ${dispatched})`);
    if (direction === 'out') continue;
    if (i % 5 === 0)
      dists.push(`(${id}, ${org.archive}, 'forKnowledge', '${direction}', '${at}', ${rank}, ${completed})`);
    if (i % 3 === 0)
      dists.push(
        `(${id}, ${org.deptA}, 'forAction', '${direction}', '${at}', ${rank}, ${i % 2 ? completed : 'null'})`,
      );
  }
  // Written in bulk statements: the tallies' triggers take a statement's rows together.
  await h.query(`insert into documents (id, direction, state, subject, security_rank, archive_department_id,
      registered_at, created_by, doc_number, completed_at, dispatched_at) overriding system value
    values ${docs.join(', ')}`);
  await h.query(`insert into distributions (document_id, department_id, type, direction, registered_at,
      security_rank, completed_at) values ${dists.join(', ')}`);
});
afterAll(async () => {
  await h?.close();
});

type BoxName = 'incoming' | 'outgoing' | 'approved-memos';
type View = 'all' | 'completed' | 'notCompleted';

/** A caller as the box's arms see them. */
interface Who {
  name: string;
  actor: Actor;
  admin?: boolean;
  archive: number | null;
  receiving: number[];
  clearance: number;
}
const who = (): Who[] => [
  { name: 'clerk', actor: org.clerk, archive: org.archive, receiving: [org.archive], clearance: 1 },
  { name: 'author', actor: org.managerB, archive: null, receiving: [org.deptB], clearance: 1 },
  { name: 'manager', actor: org.managerA, archive: null, receiving: [org.deptA], clearance: 1 },
  { name: 'member', actor: org.memberA, archive: null, receiving: [org.deptA], clearance: 1 },
  { name: 'admin', actor: org.admin, admin: true, archive: null, receiving: [], clearance: 99 },
  { name: 'outsider', actor: org.outsider, archive: null, receiving: [], clearance: 1 },
];

const BOXES: Record<BoxName, { direction: string; state: string; done: string }> = {
  incoming: { direction: 'in', state: 'registered', done: 'd.completed_at is not null' },
  outgoing: { direction: 'out', state: 'approved', done: 'd.dispatched_at is not null' },
  'approved-memos': { direction: 'memo', state: 'approved', done: 'd.completed_at is not null' },
};

/** A range bound as the server reads it: a day in UTC, or an instant (`to` through its millisecond). */
const lower = (v: string) =>
  v.length === 10 ? `'${v}'::date::timestamp at time zone 'UTC'` : `'${v}'::timestamptz`;
const upper = (v: string) =>
  v.length === 10
    ? `('${v}'::date + 1)::timestamp at time zone 'UTC'`
    : `'${v}'::timestamptz + interval '1 millisecond'`;

/** The rows of a box, plainly: every arm's rows, filtered and ordered, no tallies, no positions. */
async function plain(w: Who, box: BoxName, q: { from?: string; to?: string; view: View; desc: boolean }) {
  const b = BOXES[box];
  const holder = w.admin
    ? 'true'
    : w.archive !== null
      ? `(d.archive_department_id = ${w.archive} or d.created_by = ${w.actor.userId})`
      : `d.created_by = ${w.actor.userId}`;
  const arms = [
    `select 'd' as kind, d.id, d.registered_at as box_date, (${b.done}) as done from documents d
     where d.direction = '${b.direction}' and d.state = '${b.state}' and ${holder}
       and (${w.admin ? 'true' : `d.security_rank <= ${w.clearance}`})`,
  ];
  if (!w.admin && box !== 'outgoing' && w.receiving.length)
    arms.push(`select 'x', x.id, x.registered_at, x.completed_at is not null from distributions x
      where x.department_id in (${w.receiving.join(',')}) and x.direction = '${b.direction}'
        and x.security_rank <= ${w.clearance}`);
  const from = q.from
    ? lower(q.from)
    : `((now() at time zone 'UTC')::date - 30)::timestamp at time zone 'UTC'`;
  const conditions = [`box_date >= ${from}`];
  if (q.to) conditions.push(`box_date < ${upper(q.to)}`);
  if (q.view === 'completed') conditions.push('done');
  if (q.view === 'notCompleted') conditions.push('not done');
  const dir = q.desc ? 'desc' : 'asc';
  const found = await h.query<{ key: string }>(
    `select kind || id as key from (${arms.join(' union all ')}) b where ${conditions.join(' and ')}
     order by box_date ${dir}, id ${dir}, kind ${dir}`,
  );
  return found.map((r) => r.key);
}

interface PageAnswer {
  items: { key: string }[];
  total: number;
  totalExact?: boolean;
  next?: string;
}
async function page(w: Who, box: BoxName, query: string): Promise<PageAnswer> {
  const res = await call(h, {
    method: 'GET',
    url: `/correspondence/boxes/${box}?${query}`,
    token: w.actor.token,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data as PageAnswer;
}
const keys = (p: PageAnswer) => p.items.map((i) => i.key);

/** Every page by its number, forward and backward, past the end, and from far cursors, against `plain`. */
async function walk(
  w: Who,
  box: BoxName,
  q: { from?: string; to?: string; view: View; desc: boolean },
  pageSize: number,
) {
  const want = await plain(w, box, q);
  const base = [
    `pageSize=${pageSize}`,
    `sort=${q.desc ? '-' : ''}boxDate`,
    `view=${q.view}`,
    ...(q.from ? [`fromDate=${encodeURIComponent(q.from)}`] : []),
    ...(q.to ? [`toDate=${encodeURIComponent(q.to)}`] : []),
  ].join('&');
  const label = `${w.name} ${box} ${base}`;
  const pages = Math.max(1, Math.ceil(want.length / pageSize));
  const cursors: (string | undefined)[] = [];
  const order = [
    ...Array.from({ length: pages + 1 }, (_, i) => i + 1),
    ...Array.from({ length: pages }, (_, i) => pages - i),
  ];
  for (const p of order) {
    const answer = await page(w, box, `${base}&page=${p}`);
    expect(keys(answer), `${label} page ${p}`).toEqual(want.slice((p - 1) * pageSize, p * pageSize));
    expect([answer.total, answer.totalExact], `${label} page ${p} total`).toEqual([want.length, true]);
    expect(!!answer.next, `${label} page ${p} next`).toBe(p < pages);
    cursors[p] = answer.next;
  }
  // From a far cursor: the second page's position to the last page, and back to the second page.
  if (pages > 3) {
    const last = await page(w, box, `${base}&page=${pages}&after=${cursors[2]}`);
    expect(keys(last), `${label} last from page 2`).toEqual(want.slice((pages - 1) * pageSize));
    const second = await page(w, box, `${base}&page=2&after=${cursors[pages - 1]}`);
    expect(keys(second), `${label} page 2 from the end`).toEqual(want.slice(pageSize, 2 * pageSize));
  }
  return want.length;
}

const day = (offset: number) => new Date(today + offset * DAY).toISOString().slice(0, 10);
/** Ranges: the default 30 days, whole UTC days, and a user's days at UTC+3 (instants cutting UTC days). */
const RANGES: { from?: string; to?: string }[] = [
  {},
  { from: day(-40), to: day(-3) },
  {
    from: new Date(today - 35 * DAY - 3 * 3_600_000).toISOString(),
    to: new Date(today - 2 * DAY + 3_600_000 - 1).toISOString(),
  },
  {
    from: new Date(today - 20 * DAY + DAY / 2).toISOString(),
    to: new Date(today - 20 * DAY + DAY / 2 + 1).toISOString(),
  },
];

describe('pages of a tallied box by number', () => {
  for (const name of ['clerk', 'author', 'manager', 'member', 'admin', 'outsider'])
    it(`equal the plain ordered query in every box, order, view and range (${name})`, async () => {
      const w = who().find((x) => x.name === name)!;
      let rows = 0;
      for (const box of Object.keys(BOXES) as BoxName[])
        for (const [r, range] of RANGES.entries()) {
          const views: View[] =
            r === 1 && box !== 'approved-memos' ? ['all', 'completed', 'notCompleted'] : ['all'];
          for (const view of views)
            for (const desc of r === 2 || (r === 1 && view === 'all') ? [true, false] : [true])
              rows += await walk(w, box, { ...range, view, desc }, box === 'incoming' ? 9 : 3);
        }
      // Those who should see rows saw some; the outsider none.
      expect(rows > 20, `${rows} rows`).toBe(name !== 'outsider');
    });

  // Many writes and two full box sweeps after each: under a loaded CI machine it passed 60 s once.
  it('stay equal to it as rows come, go and move in the middle of the box', async () => {
    const clerk = who()[0]!;
    const manager = who()[2]!;
    const check = async () => {
      for (const w of [clerk, manager, who()[4]!])
        for (const box of ['incoming', 'approved-memos'] as BoxName[])
          for (const view of ['all', 'notCompleted'] as View[])
            await walk(w, box, { from: day(-45), view, desc: true }, 6);
    };
    await check();
    // Completed, raised above the clerk's clearance, moved to another archive office: old letters.
    await h.query(
      `update documents set completed_at = now() where id in (${FIRST + 40}, ${FIRST + 41}, ${FIRST + 90})`,
    );
    await h.query(`update documents set security_rank = 3 where id = ${FIRST + 60}`);
    await h.query(`update distributions set security_rank = 3 where document_id = ${FIRST + 60}`);
    await h.query(`update documents set archive_department_id = ${otherArchive} where id = ${FIRST + 100}`);
    await check();
    // A distribution added to an old letter and one taken away; an old letter deleted.
    await h.query(`insert into distributions (document_id, department_id, type, direction, registered_at, security_rank)
      select id, ${org.archive}, 'forKnowledge', direction, registered_at, security_rank from documents where id = ${FIRST + 121}`);
    await h.query(
      `delete from distributions where document_id = ${FIRST + 30} and department_id = ${org.deptA}`,
    );
    await h.query(`delete from documents where id = ${FIRST + 75}`);
    await check();
    // New letters registered and distributed through the API, as the clerk does.
    for (let i = 0; i < 3; i++) {
      const created = await call(h, {
        method: 'POST',
        url: '/correspondence/documents',
        token: org.clerk.token,
        body: { ...letter(org), subject: `خطاب جديد ${i}`, register: true },
      });
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const dist = await call(h, {
        method: 'POST',
        url: `/correspondence/documents/${created.json.data.id}/distribution`,
        token: org.clerk.token,
        body: { items: [{ departmentId: org.deptA, type: 'forAction' }] },
      });
      expect(dist.status, JSON.stringify(dist.json)).toBe(200);
    }
    await check();
  }, 180_000);

  it('keep tallies equal to a recount of the tables, also after concurrent writers', async () => {
    // Registrations side by side (on PostgreSQL, on several connections at once).
    const made = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(h, {
          method: 'POST',
          url: '/correspondence/documents',
          token: org.clerk.token,
          body: { ...letter(org), subject: `خطاب متزامن ${i}`, register: true },
        }),
      ),
    );
    for (const m of made) expect(m.status, JSON.stringify(m.json)).toBe(201);
    await Promise.all(
      made.map((m, i) =>
        call(h, {
          method: 'POST',
          url: `/correspondence/documents/${m.json.data.id}/distribution`,
          token: org.clerk.token,
          body: {
            items:
              i % 2
                ? [
                    { departmentId: org.deptA, type: 'forAction' },
                    { departmentId: org.deptB, type: 'forKnowledge' },
                  ]
                : [
                    { departmentId: org.deptB, type: 'forAction' },
                    { departmentId: org.deptA, type: 'forKnowledge' },
                  ],
          },
        }),
      ),
    );
    const key = 'arm, owner, holder, direction, state, day, security_rank, done';
    const kept = await h.query(
      `select ${key}, sum(n)::int as n from box_tallies group by ${key} having sum(n) <> 0 order by ${key}`,
    );
    const recount = await h.query(`select ${key}, sum(n)::int as n from (
        select k.*, 1 as n from documents c cross join lateral box_tally_document_keys(c.direction, c.state,
          c.archive_department_id, c.created_by, c.registered_at, c.security_rank, c.completed_at, c.dispatched_at) k
        union all
        select k.*, 1 from distributions c cross join lateral box_tally_distribution_keys(c.department_id,
          c.direction, c.registered_at, c.security_rank, c.completed_at) k) t
      group by ${key} order by ${key}`);
    expect(kept.length).toBeGreaterThan(50);
    expect(kept).toEqual(recount);
  });
});
