/**
 * The dashboards (issue 30): on generated documents (fast-check), every figure of the archive, manager and
 * organisation dashboards equals a count made here from the same data by the visibility rules written out
 * plainly (docs/boxes.md, correspondence/visibility.ts), for users of different departments and clearances;
 * a user without the page gets 403; a document above a user's clearance is counted by nobody below it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { dayIn } from '../../src-server/clock';
import { addDays } from '../../src-shared/working-days';
import { call, makeRole, startHarness, type Harness } from './support/harness';
import { ALL_CORRESPONDENCE, actor, organisation, type Actor, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
let today: string;
let defaultClearance: number;

const DASHBOARD_PAGES = {
  [PAGES.archiveDashboard]: ['view'],
  [PAGES.managerDashboard]: ['view'],
  [PAGES.organisationDashboard]: ['view'],
} as const;

beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
  today = dayIn(h.config.ORG_TIME_ZONE, new Date());
  // The fixture's users share one role: it gets the three dashboards and search (where figures lead).
  const [role] = await h.query<{ role_id: number }>(
    `select role_id from users where id = ${org.clerk.userId}`,
  );
  await h.query(
    `insert into role_page_permissions (role_id, page_id, permissions)
     select ${role!.role_id}, id, '{view}' from pages
     where path in ('${PAGES.archiveDashboard}', '${PAGES.managerDashboard}', '${PAGES.organisationDashboard}',
       '${PAGES.search}')
     on conflict do nothing`,
  );
  // Clearances: a member of A and B's manager see secret documents; the others the lowest level.
  for (const a of [org.memberA, org.managerB])
    await h.query(
      `insert into user_clearances (user_id, security_level_id) values (${a.userId}, ${org.levels.secret})`,
    );
  const [min] = await h.query<{ level: number }>(
    `select min(level)::int as level from correspondence_settings where list = 'security-levels' and active`,
  );
  defaultClearance = min!.level;
});
afterAll(async () => {
  await h?.close();
});

// ---------------------------------------------------------------- the generated data

type Dept = 0 | 1;
type GenTask = {
  state: 'new' | 'inProgress' | 'completed';
  dueIn: number | null;
  took: number;
  /** Made new, then brought to its state by an update (the open work tallies follow updates). */
  updated: boolean;
};
type GenDist = { dept: Dept; forAction: boolean; completed: boolean; task: GenTask | null };
type GenDoc = {
  direction: 'in' | 'out' | 'memo';
  filed: boolean;
  changes: boolean;
  rank: 0 | 1 | 3;
  archived: boolean;
  dept: Dept;
  creator: number | null;
  daysAgo: number;
  dists: GenDist[];
  dispatched: boolean;
  approver: number | null;
  repliedAfter: number | null;
  /** Its rank and archive office changed once its tasks exist (they follow the document). */
  movedTo: { rank: 0 | 1 | 3; archived: boolean } | null;
};

const taskArb = fc.record({
  state: fc.constantFrom('new', 'inProgress', 'completed') as fc.Arbitrary<GenTask['state']>,
  dueIn: fc.option(fc.integer({ min: -6, max: 6 })),
  took: fc.integer({ min: 0, max: 9 }),
  updated: fc.boolean(),
});
const distArb = fc.record({
  dept: fc.constantFrom(0, 1) as fc.Arbitrary<Dept>,
  forAction: fc.boolean(),
  completed: fc.boolean(),
  task: fc.option(taskArb),
});
const docArb: fc.Arbitrary<GenDoc> = fc.record({
  direction: fc.constantFrom('in', 'out', 'memo') as fc.Arbitrary<GenDoc['direction']>,
  filed: fc.boolean(),
  changes: fc.boolean(),
  rank: fc.constantFrom(0, 1, 3) as fc.Arbitrary<GenDoc['rank']>,
  archived: fc.boolean(),
  dept: fc.constantFrom(0, 1) as fc.Arbitrary<Dept>,
  creator: fc.option(fc.integer({ min: 0, max: 6 })),
  daysAgo: fc.integer({ min: 0, max: 75 }),
  dists: fc.uniqueArray(distArb, { maxLength: 2, selector: (d) => d.dept }),
  dispatched: fc.boolean(),
  approver: fc.option(fc.integer({ min: 0, max: 6 })),
  repliedAfter: fc.option(fc.integer({ min: 0, max: 20 })),
  movedTo: fc.option(
    fc.record({ rank: fc.constantFrom(0, 1, 3) as fc.Arbitrary<0 | 1 | 3>, archived: fc.boolean() }),
  ),
});

/** The people of the fixture, by index (creators and approvers of the generated documents). */
const people = () => [
  org.admin,
  org.clerk,
  org.managerA,
  org.secretaryA,
  org.memberA,
  org.managerB,
  org.memberB,
];
const deptId = (d: Dept) => (d === 0 ? org.deptA : org.deptB);
const memberOf = (d: Dept) => (d === 0 ? org.memberA : org.memberB);
const day = (n: number) => addDays(today, -n);
const noon = (n: number) => `'${day(n)} 12:00:00+00'`;

/** A document's state as generated. */
function stateOf(doc: GenDoc): string {
  if (doc.filed) return doc.direction === 'in' ? 'registered' : 'approved';
  return doc.direction === 'in' ? 'draft' : doc.changes ? 'changesRequested' : 'approving';
}
/** Distributions and tasks exist on filed documents only (incoming letters and memos). */
const distsOf = (doc: GenDoc) => (doc.filed && doc.direction !== 'out' ? doc.dists : []);

async function load(docs: GenDoc[]): Promise<void> {
  await h.query(`delete from documents where subject like 'dash-gen %'`);
  for (const [i, doc] of docs.entries()) {
    const state = stateOf(doc);
    const later = doc.filed && doc.daysAgo % 2 === 1;
    const creator = doc.creator === null ? 'null' : people()[doc.creator]!.userId;
    const registered = doc.filed ? noon(doc.daysAgo) : 'null';
    const [row] = await h.query<{ id: number }>(
      `insert into documents (direction, state, subject, security_rank, archive_department_id, department_id,
         recipient_department_id, created_by, registered_at, dispatched_at, codification_id)
       values ('${doc.direction}', '${later ? 'draft' : state}', 'dash-gen ${i}', ${doc.rank},
         ${doc.archived ? org.archive : 'null'},
         ${doc.direction === 'in' ? 'null' : deptId(doc.dept)}, ${doc.direction === 'in' ? deptId(doc.dept) : 'null'},
         ${creator}, ${later ? 'null' : registered}, ${doc.filed && doc.direction === 'out' && doc.dispatched ? 'now()' : 'null'},
         ${org.codIn})
       returning id`,
    );
    const id = row!.id;
    // Every other filed document is filed by a change of a draft (the tallies follow updates too).
    if (doc.filed && doc.daysAgo % 2 === 1)
      await h.query(
        `update documents set state = '${state}', registered_at = ${registered} where id = ${id}`,
      );
    if (doc.filed && doc.direction === 'in' && doc.repliedAfter !== null)
      await h.query(
        `update documents set reply_document_id = id,
           reply_done_at = registered_at + interval '${doc.repliedAfter} days' where id = ${id}`,
      );
    if (state === 'approving' && doc.approver !== null) {
      const p = people()[doc.approver]!;
      await h.query(
        `insert into approval_members (document_id, position, kind, user_id, employee_id, pending, direction, security_rank)
         values (${id}, 1, 'sign', ${p.userId}, ${p.employeeId ?? 'null'}, true, '${doc.direction}', ${doc.rank})`,
      );
    }
    for (const x of distsOf(doc)) {
      const [dist] = await h.query<{ id: number }>(
        `insert into distributions (document_id, department_id, type, direction, registered_at, security_rank, completed_at)
         values (${id}, ${deptId(x.dept)}, '${x.forAction ? 'forAction' : 'forKnowledge'}', '${doc.direction}',
           ${registered}, ${doc.rank}, ${x.completed ? 'now()' : 'null'}) returning id`,
      );
      if (x.task) {
        const t = x.task;
        await h.query(
          `insert into tasks (document_id, distribution_id, department_id, type, employee_id, task_date, state,
             created_at, completed_at)
           values (${id}, ${dist!.id}, ${deptId(x.dept)}, '${x.forAction ? 'forAction' : 'forKnowledge'}',
             ${memberOf(x.dept).employeeId}, ${t.dueIn === null ? 'null' : `'${addDays(today, t.dueIn)}'`},
             '${t.updated ? 'new' : t.state}', ${noon(doc.daysAgo)},
             ${t.state === 'completed' && !t.updated ? `${noon(doc.daysAgo)}::timestamptz + interval '${t.took} days'` : 'null'})`,
        );
        if (t.updated && t.state !== 'new')
          await h.query(
            `update tasks set state = '${t.state}', completed_at = ${t.state === 'completed' ? `${noon(doc.daysAgo)}::timestamptz + interval '${t.took} days'` : 'null'}
             where distribution_id = ${dist!.id}`,
          );
      }
    }
    if (doc.movedTo)
      await h.query(
        `update documents set security_rank = ${doc.movedTo.rank},
           archive_department_id = ${doc.movedTo.archived ? org.archive : 'null'} where id = ${id}`,
      );
  }
}

// ---------------------------------------------------------------- the plain counts

interface Viewer {
  actor: Actor;
  admin: boolean;
  archive: boolean;
  receiving: number[];
  clearance: number;
}

const viewers = (): Viewer[] => [
  { actor: org.admin, admin: true, archive: false, receiving: [], clearance: defaultClearance },
  { actor: org.clerk, admin: false, archive: true, receiving: [org.archive], clearance: defaultClearance },
  { actor: org.managerA, admin: false, archive: false, receiving: [org.deptA], clearance: defaultClearance },
  {
    actor: org.secretaryA,
    admin: false,
    archive: false,
    receiving: [org.deptA],
    clearance: defaultClearance,
  },
  { actor: org.memberA, admin: false, archive: false, receiving: [org.deptA], clearance: 3 },
  { actor: org.managerB, admin: false, archive: false, receiving: [org.deptB], clearance: 3 },
  { actor: org.memberB, admin: false, archive: false, receiving: [org.deptB], clearance: defaultClearance },
];

/** The visibility rules of docs/boxes.md, written out for one generated document. */
function sees(v: Viewer, doc: GenDoc): boolean {
  if (v.admin) return true;
  if (doc.rank > v.clearance) return false;
  const me = v.actor.userId;
  if (doc.creator !== null && people()[doc.creator]!.userId === me) return true;
  if (doc.filed) {
    if (v.archive && doc.archived) return true;
    if (distsOf(doc).some((x) => v.receiving.includes(deptId(x.dept)))) return true;
    if (distsOf(doc).some((x) => x.task && memberOf(x.dept).userId === me)) return true;
  }
  return stateOf(doc) === 'approving' && doc.approver !== null && people()[doc.approver]!.userId === me;
}

function expected(v: Viewer, docs: GenDoc[]) {
  const seen = docs.filter((d) => sees(v, d));
  const deps = v.admin ? null : v.receiving;
  const inDeps = (d: Dept) => deps === null || deps.includes(deptId(d));
  const registeredIn = seen.filter((d) => d.filed && d.direction === 'in');
  const tasks = seen.flatMap((d) => distsOf(d).flatMap((x) => (x.task ? [{ ...x.task, dept: x.dept }] : [])));
  const overdue = (t: GenTask) => t.state !== 'completed' && t.dueIn !== null && t.dueIn < 0;
  const open =
    seen.flatMap((d) => distsOf(d)).filter((x) => x.forAction && !x.completed && !x.task && inDeps(x.dept))
      .length +
    tasks.filter((t) => t.state !== 'completed' && inDeps(t.dept)).length +
    seen.filter((d) => d.direction !== 'in' && !d.filed && inDeps(d.dept)).length;
  const approvals = seen.filter((d) => {
    if (stateOf(d) !== 'approving' || d.approver === null) return false;
    if (deps === null) return true;
    const who = people()[d.approver]!;
    const dep = [org.managerA, org.secretaryA, org.memberA].includes(who)
      ? org.deptA
      : [org.managerB, org.memberB].includes(who)
        ? org.deptB
        : who === org.clerk
          ? org.archive
          : null;
    return dep !== null && deps.includes(dep);
  }).length;
  const filed = seen.filter((d) => d.filed);
  const byDepartment: Record<string, Record<string, number>> = {};
  for (const d of filed) {
    const cell = (byDepartment[String(deptId(d.dept))] ??= {});
    cell[d.direction] = (cell[d.direction] ?? 0) + 1;
  }
  return {
    byDepartment,
    // Every generated document has the one codification.
    byCodification: filed.length ? { [String(org.codIn)]: { documents: filed.length } } : {},
    archive: {
      registeredToday: registeredIn.filter((d) => d.daysAgo === 0).length,
      registeredThisWeek: registeredIn.filter((d) => d.daysAgo <= 6).length,
      awaitingDistribution: registeredIn.filter((d) => d.dists.length === 0).length,
      awaitingDispatch: seen.filter((d) => d.filed && d.direction === 'out' && !d.dispatched).length,
    },
    manager: {
      openItems: open,
      overdueItems: tasks.filter((t) => overdue(t) && inDeps(t.dept)).length,
      approvalsWaiting: approvals,
    },
    organisation: {
      total: filed.length,
      in: filed.filter((d) => d.direction === 'in').length,
      out: filed.filter((d) => d.direction === 'out').length,
      internal: 0,
      memo: filed.filter((d) => d.direction === 'memo').length,
      overdue: tasks.filter(overdue).length,
    },
  };
}

/** The open work tallies (migration 0022), summed per key. */
const openWorkTallied = () =>
  h.query(`select department, employee, state, dated, archive, security_rank, sum(n)::int as n
           from task_tallies group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0 order by 1, 2, 3, 4, 5, 6`);
/** The same keys counted from the open tasks and their documents as they stand. */
const openWorkCounted = () =>
  h.query(`select t.department_id as department, t.employee_id as employee, t.state, t.task_date is not null as dated,
             coalesce(d.archive_department_id, 0) as archive, d.security_rank, count(*)::int as n
           from tasks t join documents d on d.id = t.document_id where t.state <> 'completed'
           group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6`);

/**
 * Periods within the generated documents' 75 days whose ends fall early and late in their months (the 3rd
 * and the 27th, the 27th and the 3rd, …): each end in the first or the last part of its month.
 */
function periodsAcrossMonths(docs: GenDoc[]): [string, string][] {
  const monthOf = (n: number) => day(n).slice(0, 7);
  const on = (month: string, d: number) => `${month}-${String(d).padStart(2, '0')}`;
  const [a, b, c] = [monthOf(70), monthOf(40), monthOf(5)];
  // And periods that leave out a document registered in their first or last month: the part of the
  // month outside the period is then not empty.
  const filedOn = docs.filter((d) => d.filed).map((d) => day(d.daysAgo));
  const early = filedOn.find((x) => Number(x.slice(8)) <= 12);
  const late = filedOn.find((x) => Number(x.slice(8)) >= 18);
  return [
    [on(a, 3), on(b, 27)],
    [on(a, 27), on(c, 3)],
    [on(b, 25), on(b, 28)],
    [on(a, 5), on(c, 25)],
    ...(early ? [[addDays(early, 1), today] as [string, string]] : []),
    ...(late ? [[day(80), addDays(late, -1)] as [string, string]] : []),
  ];
}

type ChartBody = { categories: { key: string }[]; series: { key: string; values: number[] }[] };
const chartOf = (body: { data: { charts: ({ key: string } & ChartBody)[] } }, key: string) =>
  body.data.charts.find((c) => c.key === key)!;
/** A chart's values as { category: { series: value } }, zeros left out. */
function cellsOf(chart: ChartBody): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  chart.categories.forEach((c, i) =>
    chart.series.forEach((s) => {
      if (s.values[i]) (out[c.key] ??= {})[s.key] = s.values[i]!;
    }),
  );
  return out;
}

const figuresOf = (body: { data: { figures: { key: string; value: number }[] } }, keys: readonly string[]) =>
  Object.fromEntries(body.data.figures.filter((f) => keys.includes(f.key)).map((f) => [f.key, f.value]));

async function dashboard(kind: string, token: string, query = '') {
  const res = await call(h, { method: 'GET', url: `/dashboards/${kind}${query}`, token });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json;
}

describe('dashboards', () => {
  it('count, for every viewer, exactly the documents their visibility and clearance admit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(docArb, { maxLength: 24 }), async (generated) => {
        await load(generated);
        // As they stand after the moves.
        const docs = generated.map((d) => (d.movedTo ? { ...d, ...d.movedTo } : d));
        expect(await openWorkTallied()).toEqual(await openWorkCounted());
        for (const v of viewers()) {
          const want = expected(v, docs);
          const who = `user ${v.actor.userId}`;
          const a = await dashboard('archive', v.actor.token);
          expect(figuresOf(a, Object.keys(want.archive)), who).toEqual(want.archive);
          const m = await dashboard('manager', v.actor.token);
          expect(figuresOf(m, Object.keys(want.manager)), who).toEqual(want.manager);
          const o = await dashboard('organisation', v.actor.token, `?from=${day(100)}&to=${today}`);
          expect(figuresOf(o, Object.keys(want.organisation)), who).toEqual(want.organisation);
          // Twelve months through today (the default): whole months from the tallies, the current one counted.
          const year = await dashboard('organisation', v.actor.token);
          expect(figuresOf(year, Object.keys(want.organisation)), who).toEqual(want.organisation);
          // Periods whose ends fall early and late in their months (an end counted from the documents,
          // or from its month's tally less the days outside the period), whatever today's date.
          for (const [fromDay, toDay] of periodsAcrossMonths(docs)) {
            const p = await dashboard('organisation', v.actor.token, `?from=${fromDay}&to=${toDay}`);
            const inPeriod = docs.filter(
              (d) => sees(v, d) && d.filed && day(d.daysAgo) >= fromDay && day(d.daysAgo) <= toDay,
            );
            const want = Object.fromEntries([
              ['total', inPeriod.length],
              ...(['in', 'out', 'memo'] as const).map((dir) => [
                dir,
                inPeriod.filter((d) => d.direction === dir).length,
              ]),
            ]);
            expect(figuresOf(p, Object.keys(want)), `${who} ${fromDay}…${toDay}`).toEqual(want);
          }
          // The volumes per department and direction, and per codification, for both periods.
          for (const body of [o, year]) {
            expect(cellsOf(chartOf(body, 'volumesByDepartment')), who).toEqual(want.byDepartment);
            expect(cellsOf(chartOf(body, 'volumesByCodification')), who).toEqual(want.byCodification);
          }
          // Each chart adds up to its figures.
          const months = o.data.charts.find((c: { key: string }) => c.key === 'volumesByMonth');
          const sum = months.series
            .flatMap((s: { values: number[] }) => s.values)
            .reduce((x: number, y: number) => x + y, 0);
          expect(sum, who).toBe(want.organisation.total);
          const open = m.data.charts.find((c: { key: string }) => c.key === 'openByState');
          const openSum = open.series
            .flatMap((s: { values: number[] }) => s.values)
            .reduce((x: number, y: number) => x + y, 0);
          expect(openSum, who).toBe(want.manager.openItems);
        }
      }),
      { numRuns: Number(process.env.DASH_RUNS ?? 10) },
    );
    // Ten generated offices, each read by seven viewers on four dashboards: minutes on a loaded machine.
  }, 300_000);

  it('answer 403 to a user without the page, and for a department the manager does not lead', async () => {
    const role = await makeRole(h, ALL_CORRESPONDENCE as unknown as Record<string, 'view'[]>);
    const plain = await actor(h, role, org.deptA);
    for (const kind of ['archive', 'manager', 'organisation'])
      expect((await call(h, { method: 'GET', url: `/dashboards/${kind}`, token: plain.token })).status).toBe(
        403,
      );
    const other = await call(h, {
      method: 'GET',
      url: `/dashboards/manager?departmentId=${org.deptB}`,
      token: org.managerA.token,
    });
    expect(other.status).toBe(403);
    const own = await call(h, {
      method: 'GET',
      url: `/dashboards/manager?departmentId=${org.deptA}`,
      token: org.managerA.token,
    });
    expect(own.status).toBe(200);
    const granted = await makeRole(h, DASHBOARD_PAGES as unknown as Record<string, 'view'[]>);
    const viewer = await actor(h, granted, org.deptA);
    expect((await call(h, { method: 'GET', url: '/dashboards/archive', token: viewer.token })).status).toBe(
      200,
    );
  });

  it('leave a secret letter out of the counts of everyone below its level', async () => {
    const base: GenDoc = {
      direction: 'in',
      filed: true,
      changes: false,
      rank: 3,
      archived: true,
      dept: 0,
      creator: null,
      daysAgo: 0,
      dists: [{ dept: 0, forAction: true, completed: false, task: null }],
      dispatched: false,
      approver: null,
      repliedAfter: null,
      movedTo: null,
    };
    await load([base]);
    const today = async (a: Actor) =>
      figuresOf(await dashboard('archive', a.token), ['registeredToday']).registeredToday;
    expect(await today(org.clerk)).toBe(0); // the archive office holds it, but the clerk is not cleared
    expect(await today(org.managerA)).toBe(0);
    expect(await today(org.memberA)).toBe(1); // cleared, and it reached their department
    expect(await today(org.managerB)).toBe(0); // cleared, but it never reached B
    expect(await today(org.admin)).toBe(1);
  });

  it('open, from every figure of the organisation, a search that finds as many documents', async () => {
    const [docs] = fc.sample(fc.array(docArb, { minLength: 16, maxLength: 24 }), { numRuns: 1, seed: 30 });
    await load(docs!);
    let searched = 0;
    for (const v of viewers()) {
      const o = await dashboard('organisation', v.actor.token, `?from=${day(100)}&to=${today}`);
      for (const f of o.data.figures as {
        key: string;
        value: number;
        drill: { to: string; filters: object };
      }[]) {
        if (f.drill.to !== 'search') continue;
        const query = new URLSearchParams(
          Object.entries(f.drill.filters).map(([k, x]) => [k, String(x)] as [string, string]),
        ).toString();
        const found = await call(h, { method: 'GET', url: `/search?${query}`, token: v.actor.token });
        expect(found.status).toBe(200);
        expect(found.json.data.total, `user ${v.actor.userId}, ${f.key}: ${query}`).toBe(f.value);
        searched += 1;
      }
    }
    expect(searched, 'figures checked against search').toBe(viewers().length * 5);
  });

  it('refuse a period that ends before it starts', async () => {
    const res = await call(h, {
      method: 'GET',
      url: `/dashboards/organisation?from=${today}&to=${day(3)}`,
      token: org.admin.token,
      lang: 'en',
    });
    expect(res.status).toBe(422);
    expect(res.json.detail).toMatch(/period/);
  });

  it('name, on every chart point, a box or the search page to open', async () => {
    const o = await dashboard('organisation', org.admin.token);
    for (const c of o.data.charts as { series: unknown[]; categories: unknown[]; drill: unknown[][] }[]) {
      expect(c.drill.length).toBe(c.series.length);
      for (const row of c.drill) expect(row.length).toBe(c.categories.length);
    }
  });
});
