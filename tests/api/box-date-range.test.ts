/**
 * The date range of every box filters on the date the list shows (issue 23, item 2): for each of the 14
 * boxes, a row of it is dated (its box date, the `boxDate` the list shows) at an instant while every other
 * date of the row — created, registered, submitted, received, the letter's date, a task's or a follow-up's
 * due date — lies years away; the row is then present in ranges holding that instant (as UTC days, and as
 * the instants of a user's own day at UTC+3, which holds it though its UTC day does not) and absent from
 * ranges that do not, whichever way the other dates fall.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOXES, type Box } from '../../src-shared/api/correspondence';
import { PAGES } from '../../src-shared/pages';
import { call, startHarness, type Harness } from './support/harness';
import { letter, organisation, type Actor, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
/** For each box: who sees the row and which document it stands for. */
const rows = new Map<Box, { who: Actor; documentId: number }>();

const get = (who: Actor, url: string) => call(h, { method: 'GET', url, token: who.token });
const post = async (who: Actor, url: string, body: unknown = {}) => {
  const res = await call(h, { method: 'POST', url, token: who.token, body });
  // Taken: made (201) or done (200), whichever the route answers.
  expect([200, 201], `${url}: ${res.status} ${JSON.stringify(res.json)}`).toContain(res.status);
  return res.json.data as { id: number; version: number };
};
const doc = (id: number) => `/correspondence/documents/${id}`;

beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
  // The organisation's role also writes and approves outgoing letters and memos; department A is an
  // entity, so its manager is the one who signs for its members.
  await h.query(`insert into role_page_permissions (role_id, page_id, permissions)
    select u.role_id, p.id, p.available_permissions from users u, pages p
    where u.id = ${org.clerk.userId} and p.path in (${[
      PAGES.followUps,
      PAGES.outgoing,
      PAGES.outboxDrafts,
      PAGES.outboxAdd,
      PAGES.outboxAwaitingApproval,
      PAGES.outboxRequiringApproval,
      PAGES.approvedMemos,
      PAGES.memoDrafts,
      PAGES.memoAdd,
      PAGES.memosAwaitingApproval,
      PAGES.memosRequiringApproval,
    ]
      .map((p) => `'${p}'`)
      .join(', ')})
    on conflict do nothing`);
  await h.query(`update departments set is_entity = true where id = ${org.deptA}`);
  const setting = async (body: Record<string, unknown>) =>
    (await post(org.admin, '/correspondence/settings/codifications', body)).id;
  const codOut = await setting({ nameAr: 'صادر', nameEn: 'Outgoing', prefix: 'OUTR', direction: 'out' });
  const codMemo = await setting({ nameAr: 'مذكرة', nameEn: 'Memo', prefix: 'MEMR', direction: 'memo' });

  // Incoming: the clerk's letter, distributed to A for action (A's manager: incoming and follow-ups),
  // tasked to A's member, followed by the clerk; a draft of the clerk.
  const incoming = await post(org.clerk, '/correspondence/documents', { ...letter(org), register: true });
  const [action] = (await post(org.clerk, `${doc(incoming.id)}/distribution`, {
    items: [{ departmentId: org.deptA, type: 'forAction' }],
  })) as unknown as { id: number }[];
  await post(org.managerA, `${doc(incoming.id)}/tasks`, {
    distributionId: action!.id,
    employeeId: org.memberA.employeeId,
    taskDate: '2031-01-01',
  });
  const followed = await post(org.clerk, '/correspondence/documents', { ...letter(org), register: true });
  await post(org.clerk, `${doc(followed.id)}/follow`, { dueDate: '2031-01-01' });
  const inDraft = await post(org.clerk, '/correspondence/documents', letter(org));
  rows.set('incoming', { who: org.clerk, documentId: incoming.id });
  rows.set('follow-ups', { who: org.clerk, documentId: followed.id });
  rows.set('incoming-tasks', { who: org.memberA, documentId: incoming.id });
  rows.set('inbox-drafts', { who: org.clerk, documentId: inDraft.id });

  // Outgoing letters and memos by A's member, each family in every state of its circuit, signed by A's
  // manager: a draft, one waiting for the manager, one sent back for changes, one approved.
  for (const family of ['out', 'memo'] as const) {
    const draft = () =>
      post(org.memberA, '/correspondence/documents', {
        direction: family,
        subject: family === 'out' ? 'الرد على الخطاب' : 'مذكرة داخلية',
        codificationId: family === 'out' ? codOut : codMemo,
        documentDate: '2031-01-01',
        recipientIds: [family === 'out' ? org.sender : org.deptB],
        securityLevelId: org.levels.normal,
      });
    const submitted = async () => {
      const d = await draft();
      return post(org.memberA, `${doc(d.id)}/submit`, {
        steps: [{ userIds: [org.managerA.userId] }],
        version: d.version,
      });
    };
    const kept = await draft();
    const waiting = await submitted();
    const back = await submitted();
    await post(org.managerA, `${doc(back.id)}/approval`, {
      action: 'requestChanges',
      comment: 'راجع الصياغة',
      version: back.version,
    });
    const signed = await submitted();
    await post(org.managerA, `${doc(signed.id)}/approval`, { action: 'approve', version: signed.version });
    const memo = family === 'memo';
    rows.set(memo ? 'memo-drafts' : 'outbox-drafts', { who: org.memberA, documentId: kept.id });
    rows.set(memo ? 'memos-awaiting-approval' : 'awaiting-approval', {
      who: org.memberA,
      documentId: waiting.id,
    });
    rows.set(memo ? 'memos-requiring-approval' : 'requiring-approval', {
      who: org.managerA,
      documentId: waiting.id,
    });
    rows.set(memo ? 'memos-requiring-changes' : 'requiring-changes', {
      who: org.memberA,
      documentId: back.id,
    });
    // Approved memos as their recipient department receives them; outgoing as the archive office holds them.
    rows.set(memo ? 'approved-memos' : 'outgoing', {
      who: memo ? org.managerB : org.clerk,
      documentId: signed.id,
    });
  }
});
afterAll(async () => {
  await h?.close();
});

/** The instant the rows are dated: late on 15 June 2025 in UTC, 16 June at UTC+3. */
const AT = '2025-06-15T22:30:00.000Z';
/** Every other date of the rows: years away. */
const FAR = '2019-03-03T09:00:00.000Z';

/** The row of `box` its viewer is shown, found over all time (kind and row id: `key`). */
async function rowOf(box: Box, range = 'fromDate=2000-01-01&toDate=2099-12-31') {
  const { who, documentId } = rows.get(box)!;
  const res = await get(who, `/correspondence/boxes/${box}?pageSize=100&${range}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return (res.json.data.items as { key: string; documentId: number; boxDate: string }[]).find(
    (i) => i.documentId === documentId,
  );
}

/** Dates the row at AT by the column its arm answers as box date, and every other date of it far away. */
async function dateRow(box: Box, key: string, documentId: number) {
  const [kind, rowId] = [key[0], Number(key.slice(1))];
  await h.query(`update documents set created_at = '${FAR}', submitted_at = '${FAR}',
      registered_at = case when registered_at is null then null else '${FAR}'::timestamptz end,
      received_date = '${FAR.slice(0, 10)}', document_date = '${FAR.slice(0, 10)}'
    where id = ${documentId}`);
  await h.query(`update distributions set registered_at = '${FAR}' where document_id = ${documentId}`);
  await h.query(`update tasks set created_at = '${FAR}', task_date = '${FAR.slice(0, 10)}'
    where document_id = ${documentId}`);
  await h.query(`update approval_members set activated_at = '${FAR}' where document_id = ${documentId}`);
  await h.query(
    `update document_follows set due_date = '${FAR.slice(0, 10)}' where document_id = ${documentId}`,
  );
  const set =
    kind === 'x'
      ? `update distributions set registered_at = '${AT}' where id = ${rowId}`
      : kind === 't'
        ? `update tasks set created_at = '${AT}' where id = ${rowId}`
        : kind === 'a'
          ? `update approval_members set activated_at = '${AT}' where id = ${rowId}`
          : box.endsWith('drafts')
            ? `update documents set created_at = '${AT}' where id = ${rowId}`
            : box.includes('awaiting') || box.includes('changes')
              ? `update documents set submitted_at = '${AT}' where id = ${rowId}`
              : `update documents set registered_at = '${AT}' where id = ${rowId}`;
  await h.query(set);
}

describe('the date range of a box', () => {
  it('has a row in every box to date', () => {
    expect([...rows.keys()].sort()).toEqual([...BOXES].sort());
  });

  for (const box of BOXES)
    it(`filters on the date its list shows (${box})`, async () => {
      const found = await rowOf(box);
      expect(found, `${box}: its row`).toBeDefined();
      await dateRow(box, found!.key, found!.documentId);
      // The list shows the instant the row was dated.
      expect((await rowOf(box))!.boxDate).toBe(AT);
      const inside = [
        'fromDate=2025-06-15&toDate=2025-06-15',
        'fromDate=2025-06-01&toDate=2025-06-30',
        'fromDate=2025-06-15',
        'toDate=2025-06-15&fromDate=2020-01-01',
        // 16 June at UTC+3, as the renderer sends it: the instants of that day's edges.
        `fromDate=${encodeURIComponent('2025-06-15T21:00:00.000Z')}&toDate=${encodeURIComponent('2025-06-16T20:59:59.999Z')}`,
        `fromDate=${encodeURIComponent('2025-06-15T22:30:00.000Z')}&toDate=${encodeURIComponent('2025-06-15T22:30:00.000Z')}`,
      ];
      const outside = [
        'fromDate=2025-06-16&toDate=2025-06-30',
        'fromDate=2025-06-01&toDate=2025-06-14',
        // Where the other dates lie.
        'fromDate=2019-03-01&toDate=2019-03-05',
        'fromDate=2030-12-31&toDate=2031-01-02',
        // 15 June at UTC+3 ends before the row; 17 June begins after it.
        `fromDate=${encodeURIComponent('2025-06-14T21:00:00.000Z')}&toDate=${encodeURIComponent('2025-06-15T20:59:59.999Z')}`,
        `fromDate=${encodeURIComponent('2025-06-16T21:00:00.000Z')}&toDate=${encodeURIComponent('2025-06-17T20:59:59.999Z')}`,
        `fromDate=${encodeURIComponent('2025-06-15T22:30:00.001Z')}`,
      ];
      for (const range of inside) expect(await rowOf(box, range), `${box} ${range}`).toBeDefined();
      for (const range of outside) expect(await rowOf(box, range), `${box} ${range}`).toBeUndefined();
    });
});
