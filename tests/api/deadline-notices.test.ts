/**
 * Reminders and escalation (issue 28) with the clock moved, never slept: a reply and a task due on a
 * Thursday (weekend Friday–Saturday, the organisation in Riyadh), a holiday that pushes the escalation
 * back a day, a delegate told on behalf of the tasked employee, each notice made once however often and
 * by however many servers the scan runs; and the daily e-mail digest through a real SMTP server.
 */
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src-server/context';
import { openDatabase, type Database } from '../../src-server/db/open';
import { scanDeadlines } from '../../src-server/modules/notifications/deadlines';
import { sendDigests } from '../../src-server/modules/notifications/digest';
import { MovableClock } from '../../src-server/clock';
import { contentType, decodeWords, leaves, parseMime } from '../support/mime';
import {
  actor,
  department,
  organisation,
  registeredLetter,
  type Actor,
  type Org,
} from './support/correspondence';
import { call, startHarness, type Harness } from './support/harness';

let h: Harness;
let org: Org;
let minister: Actor;
let letterId: number;
let docNumber: string;
let taskId: number;
const clock = new MovableClock('2026-11-29T06:00:00Z');
let ctx: Pick<ServerContext, 'db' | 'config' | 'clock'>;

/** 10:00 in Riyadh (UTC+3) on a day. */
const at = (day: string) => new Date(`${day}T07:00:00Z`);

interface Row {
  user_id: number;
  kind: string;
  dedupe_key: string | null;
  on_behalf_of: number | null;
  details: Record<string, unknown>;
}
const notices = (kind: string, documentId: number) =>
  h.query<Row>(
    `select user_id, kind, dedupe_key, on_behalf_of, details from notifications
      where kind = '${kind}' and document_id = ${documentId} order by id`,
  );

beforeAll(async () => {
  h = await startHarness({ ORG_TIME_ZONE: 'Asia/Riyadh' }, { clock });
  org = await organisation(h);
  ctx = { db: h.database.db, config: h.config, clock };
  // The ministry above Financial Affairs, whose head the manager's own delays escalate to.
  const ministry = await department(h, 'الوزارة');
  minister = await actor(h, 'admin', ministry);
  await h.query(`update departments set manager_employee_id = ${minister.employeeId} where id = ${ministry}`);
  await h.query(`update departments set parent_id = ${ministry} where id = ${org.deptA}`);
  ({ id: letterId, docNumber } = await registeredLetter(h, org));
  const dist = await call(h, {
    method: 'POST',
    url: `/correspondence/documents/${letterId}/distribution`,
    token: org.clerk.token,
    body: { items: [{ departmentId: org.deptA, type: 'forAction' }] },
  });
  expect(dist.status).toBe(200);
  const [x] = await h.query<{ id: number }>(`select id from distributions where document_id = ${letterId}`);
  const task = await call(h, {
    method: 'POST',
    url: `/correspondence/documents/${letterId}/tasks`,
    token: org.managerA.token,
    body: { distributionId: x!.id, employeeId: org.memberA.employeeId, taskDate: '2026-12-03' },
  });
  expect(task.status).toBe(201);
  taskId = task.json.data.id as number;
  await h.query(`update documents set reply_due_on = '2026-12-03' where id = ${letterId}`);
  // memberA hands their tasks to the secretary for December.
  await h.query(`insert into delegations (delegator_id, delegate_id, scope, starts_on, ends_on)
    values (${org.memberA.userId}, ${org.secretaryA.userId}, 'tasks', '2026-11-01', '2026-12-31')`);
  // A holiday on Monday 7 December: the escalation's third working day moves to Wednesday.
  const holiday = await call(h, {
    method: 'POST',
    url: '/deadlines/holidays',
    token: org.admin.token,
    body: { nameAr: 'عطلة', nameEn: 'Holiday', calendar: 'gregorian', startsOn: '2026-12-07' },
  });
  expect(holiday.status, JSON.stringify(holiday.json)).toBe(201);
}, 120_000);
afterAll(() => h?.close());

describe('a working week replayed', () => {
  it('Sunday and Monday: nothing is due yet', async () => {
    for (const day of ['2026-11-29', '2026-11-30']) {
      const outcome = await scanDeadlines(ctx, at(day));
      expect(outcome).toMatchObject({ today: day, dueSoon: 0, overdue: 0, escalated: 0 });
    }
  });

  it('Wednesday (one working day ahead): the reply’s leads and the task’s employee are reminded, once', async () => {
    const outcome = await scanDeadlines(ctx, at('2026-12-02'));
    expect(outcome.dueSoon).toBeGreaterThan(0);
    const soon = await notices('dueSoon', letterId);
    const reply = soon.filter((n) => n.details.subject === 'reply').map((n) => n.user_id);
    expect(reply.sort()).toEqual([org.managerA.userId, org.secretaryA.userId].sort());
    const task = soon.filter((n) => n.details.subject === 'task');
    expect(task.map((n) => [n.user_id, n.on_behalf_of])).toEqual(
      expect.arrayContaining([
        [org.memberA.userId, null],
        [org.secretaryA.userId, org.memberA.userId],
      ]),
    );
    expect(task).toHaveLength(2);
    expect(task[0]!.details.dueOn).toBe('2026-12-03');
    // Again the same day, and on the due day itself: nothing more.
    expect((await scanDeadlines(ctx, at('2026-12-02'))).dueSoon).toBe(0);
    expect(await scanDeadlines(ctx, at('2026-12-03'))).toMatchObject({ dueSoon: 0, overdue: 0 });
    expect(await notices('dueSoon', letterId)).toHaveLength(soon.length);
  });

  it('Friday (a weekend day after the due day): overdue, told once, not yet escalated', async () => {
    const outcome = await scanDeadlines(ctx, at('2026-12-04'));
    expect(outcome.overdue).toBeGreaterThan(0);
    expect(outcome.escalated).toBe(0);
    const overdue = await notices('overdue', letterId);
    expect(overdue.map((n) => n.user_id)).toEqual(
      expect.arrayContaining([org.managerA.userId, org.secretaryA.userId, org.memberA.userId]),
    );
    expect(overdue.every((n) => n.details.days === 0)).toBe(true);
    expect((await scanDeadlines(ctx, at('2026-12-05'))).overdue).toBe(0);
  });

  it('escalates after three working days — the holiday not counted — to the manager above each person', async () => {
    for (const day of ['2026-12-06', '2026-12-07', '2026-12-08'])
      expect((await scanDeadlines(ctx, at(day))).escalated, day).toBe(0);
    const outcome = await scanDeadlines(ctx, at('2026-12-09'));
    expect(outcome.escalated).toBeGreaterThan(0);
    const escalated = await notices('escalated', letterId);
    const pairs = escalated.map((n) => [
      n.details.subject,
      n.user_id,
      (n.details.person as { nameEn: string }).nameEn,
    ]);
    const name = async (who: Actor) =>
      (await h.query<{ name_en: string }>(`select name_en from users where id = ${who.userId}`))[0]!.name_en;
    expect(pairs).toEqual(
      expect.arrayContaining([
        // The secretary's delay goes to their manager; the manager's own to the minister above.
        ['reply', org.managerA.userId, await name(org.secretaryA)],
        ['reply', minister.userId, await name(org.managerA)],
        ['task', org.managerA.userId, await name(org.memberA)],
      ]),
    );
    expect(escalated.every((n) => n.details.days === 3)).toBe(true);
    expect((await scanDeadlines(ctx, at('2026-12-10'))).escalated).toBe(0);
  });

  it('two servers scanning at the same moment make each notice once', async () => {
    // A second item, and a second connection to the same database scanning alongside the first.
    const { id } = await registeredLetter(h, org);
    await h.query(
      `update documents set reply_due_on = '2026-12-15', registered_by = ${org.clerk.userId} where id = ${id}`,
    );
    let second: Database | null = null;
    let other = ctx;
    if (h.database.kind === 'postgres') {
      const [row] = await h.query<{ name: string }>('select current_database() as name');
      const url = new URL(process.env.SIJILL_TEST_DATABASE_URL!);
      url.pathname = `/${row!.name}`;
      second = await openDatabase({
        ...h.config,
        DATABASE_URL: url.toString(),
        DB_POOL_MAX: 2,
        migrate: false,
      });
      other = { ...ctx, db: second.db };
    }
    try {
      const results = await Promise.all([
        scanDeadlines(ctx, at('2026-12-14')),
        scanDeadlines(other, at('2026-12-14')),
        scanDeadlines(ctx, at('2026-12-14')),
      ]);
      const made = results.reduce((n, r) => n + r.dueSoon, 0);
      const rows = await notices('dueSoon', id);
      // Not distributed for action: the registering clerk is the one reminded.
      expect(rows.map((r) => r.user_id)).toEqual([org.clerk.userId]);
      expect(made).toBe(rows.length);
    } finally {
      await second?.close();
    }
  });

  it('a reply done and a task completed are no longer watched', async () => {
    // New due dates would be new notices (their keys differ) were they still watched.
    await h.query(
      `update documents set reply_done_at = now(), reply_due_on = '2026-12-10' where id = ${letterId}`,
    );
    await h.query(
      `update tasks set state = 'completed', completed_at = now(), task_date = '2026-12-10' where id = ${taskId}`,
    );
    const before =
      (await notices('overdue', letterId)).length + (await notices('escalated', letterId)).length;
    await scanDeadlines(ctx, at('2026-12-16'));
    await scanDeadlines(ctx, at('2026-12-24'));
    const after = (await notices('overdue', letterId)).length + (await notices('escalated', letterId)).length;
    expect(after).toBe(before);
  });
});

describe('the daily digest', () => {
  let smtp: SMTPServer;
  let port = 0;
  const received: { to: string[]; raw: Buffer }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      logger: false,
      disableReverseLookup: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
          callback(null, 'Queued');
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as { port: number }).port;
    const saved = await call(h, {
      method: 'PUT',
      url: '/correspondence/letter-settings/smtp',
      token: org.admin.token,
      body: {
        host: '127.0.0.1',
        port,
        security: 'none',
        username: null,
        password: null,
        fromAddress: 'archive@mof.example.gov',
        fromName: null,
        allowSelfSigned: false,
      },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('goes at the user’s hour, once, with numbers and never subjects', async () => {
    const settings = await call(h, {
      method: 'PUT',
      url: '/notifications/settings',
      token: org.managerA.token,
      body: { kinds: { dueSoon: { app: true, desktop: true, email: false } }, digest: true, digestHour: 10 },
    });
    expect(settings.status).toBe(200);
    // 09:00 in Riyadh: not their hour.
    expect(await sendDigests(ctx, new Date('2026-12-16T06:00:00Z'))).toBe(0);
    expect(await sendDigests(ctx, new Date('2026-12-16T07:05:00Z'))).toBe(1);
    expect(received).toHaveLength(1);
    const [mail] = received;
    const [user] = await h.query<{ email: string }>(
      `select email from users where id = ${org.managerA.userId}`,
    );
    expect(mail!.to).toEqual([user!.email]);
    const root = parseMime(mail!.raw);
    expect(decodeWords(root.headers.get('subject') ?? '')).toContain('ملخص التنبيهات اليومي');
    const bodies = leaves(root)
      .filter((p) => contentType(p).startsWith('text/'))
      .map((p) => p.body.toString('utf8'))
      .join('\n');
    expect(bodies).toContain(docNumber);
    expect(bodies).toContain('A deadline has passed');
    expect(bodies).toContain('مهلة فاتت');
    expect(bodies).toContain('A delay was escalated to you');
    // A kind they do not want by e-mail is left out; a subject never leaves the building.
    expect(bodies).not.toContain('A deadline is near');
    expect(bodies).not.toContain('طلب اعتماد الميزانية');
    // Mailed once: the next day at the same hour, nothing new to send.
    expect(await sendDigests(ctx, new Date('2026-12-17T07:05:00Z'))).toBe(0);
    const [left] = await h.query<{ n: number }>(
      `select count(*)::int as n from notifications where user_id = ${org.managerA.userId} and emailed_at is null`,
    );
    expect(left!.n).toBe(0);
  });
});
