/**
 * Notifications (issue 28): who is told of a distribution, a task, an approval turn, a decision and a
 * dispatch; the list, read marks and settings; the push stream (server-sent events) with its replay after
 * a reconnect, its end at sign-out, and — on PostgreSQL — a notification made on one server reaching a
 * client connected to another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src-server/app';
import { openDatabase, type Database } from '../../src-server/db/open';
import { createLocalFileStore } from '../../src-server/storage/files';
import { call, startHarness, type Harness } from './support/harness';
import { organisation, registeredLetter, type Actor, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
let base: string;

beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const address = h.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
}, 60_000);
afterAll(() => h?.close());

interface Listed {
  items: {
    id: number;
    kind: string;
    document: { id: number; docNumber: string } | null;
    details: Record<string, unknown>;
  }[];
  unread: number;
  more: boolean;
}

async function listOf(who: Actor, query = ''): Promise<Listed> {
  const res = await call(h, { method: 'GET', url: `/notifications${query}`, token: who.token });
  expect(res.status).toBe(200);
  return res.json.data as Listed;
}

async function distribute(docId: number, departmentId: number, type = 'forAction') {
  const res = await call(h, {
    method: 'POST',
    url: `/correspondence/documents/${docId}/distribution`,
    token: org.clerk.token,
    body: { items: [{ departmentId, type }] },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

/** An SSE client over fetch: the events as they come. */
function openStream(url: string, token: string, lastEventId?: string) {
  const controller = new AbortController();
  const events: { event: string; id: string | null; data: unknown }[] = [];
  let ended = false;
  let status = 0;
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  const done = (async () => {
    const res = await fetch(url, {
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'text/event-stream',
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
      signal: controller.signal,
    });
    status = res.status;
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          let id: string | null = null;
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) events.push({ event, id, data: JSON.parse(data) });
          wake();
        }
      }
    } catch {
      // aborted
    } finally {
      ended = true;
      wake();
    }
  })();
  const until = async (test: () => boolean, what: string) => {
    const deadline = Date.now() + 15_000;
    while (!test()) {
      if (Date.now() > deadline)
        throw new Error(`stream: waited in vain for ${what}: ${JSON.stringify(events)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return {
    events,
    get ended() {
      return ended;
    },
    get status() {
      return status;
    },
    until,
    notifications: () => events.filter((e) => e.event === 'notification'),
    close: async () => {
      controller.abort();
      await done;
    },
  };
}

describe('who is told', () => {
  it('a distribution tells everyone who receives for the department, and nobody else', async () => {
    const { id } = await registeredLetter(h, org);
    await distribute(id, org.deptA);
    for (const who of [org.managerA, org.secretaryA, org.memberA]) {
      const list = await listOf(who);
      const n = list.items.find((i) => i.document?.id === id);
      expect(n?.kind).toBe('distributed');
      expect(n?.details.type).toBe('forAction');
    }
    for (const who of [org.managerB, org.memberB, org.outsider, org.clerk]) {
      const list = await listOf(who);
      expect(list.items.some((i) => i.document?.id === id)).toBe(false);
    }
  });

  it('a task tells its employee, with its due date', async () => {
    const { id } = await registeredLetter(h, org);
    await distribute(id, org.deptA);
    const [dist] = await h.query<{ id: number }>(`select id from distributions where document_id = ${id}`);
    const res = await call(h, {
      method: 'POST',
      url: `/correspondence/documents/${id}/tasks`,
      token: org.managerA.token,
      body: { distributionId: dist!.id, employeeId: org.memberA.employeeId, taskDate: '2030-01-10' },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const task = (await listOf(org.memberA)).items.find(
      (i) => i.kind === 'taskAssigned' && i.document?.id === id,
    );
    expect(task?.details.dueOn).toBe('2030-01-10');
    expect((await listOf(org.secretaryA)).items.some((i) => i.kind === 'taskAssigned')).toBe(false);
  });

  it('a kind the user turned off is not made for them; settings are validated', async () => {
    const bad = await call(h, {
      method: 'PUT',
      url: '/notifications/settings',
      token: org.memberA.token,
      body: {
        kinds: { nonsense: { app: false, desktop: false, email: false } },
        digest: false,
        digestHour: 7,
      },
    });
    expect(bad.status).toBe(400);
    const saved = await call(h, {
      method: 'PUT',
      url: '/notifications/settings',
      token: org.memberA.token,
      body: {
        kinds: { distributed: { app: false, desktop: false, email: false } },
        digest: true,
        digestHour: 8,
      },
    });
    expect(saved.status).toBe(200);
    const read = await call(h, { method: 'GET', url: '/notifications/settings', token: org.memberA.token });
    expect(read.json.data).toMatchObject({
      digest: true,
      digestHour: 8,
      kinds: { distributed: { app: false } },
    });
    const { id } = await registeredLetter(h, org);
    await distribute(id, org.deptA);
    expect((await listOf(org.memberA)).items.some((i) => i.document?.id === id)).toBe(false);
    expect((await listOf(org.managerA)).items.some((i) => i.document?.id === id)).toBe(true);
    await call(h, {
      method: 'PUT',
      url: '/notifications/settings',
      token: org.memberA.token,
      body: { kinds: {}, digest: false, digestHour: 7 },
    });
  });

  it('read marks: some, then all; nobody marks another user’s', async () => {
    const before = await listOf(org.managerA);
    expect(before.unread).toBeGreaterThan(0);
    const first = before.items[0]!.id;
    const other = await call(h, {
      method: 'POST',
      url: '/notifications/read',
      token: org.managerB.token,
      body: { ids: [first] },
    });
    expect(other.status).toBe(200);
    expect((await listOf(org.managerA)).unread).toBe(before.unread);
    const one = await call(h, {
      method: 'POST',
      url: '/notifications/read',
      token: org.managerA.token,
      body: { ids: [first] },
    });
    expect(one.json.data.unread).toBe(before.unread - 1);
    const all = await call(h, {
      method: 'POST',
      url: '/notifications/read',
      token: org.managerA.token,
      body: { all: true },
    });
    expect(all.json.data.unread).toBe(0);
    expect((await listOf(org.managerA, '?unread=true')).items).toHaveLength(0);
  });

  it('pages go back by id without repeating', async () => {
    const page1 = await listOf(org.secretaryA, '?limit=1');
    expect(page1.items).toHaveLength(1);
    expect(page1.more).toBe(true);
    const page2 = await listOf(org.secretaryA, `?limit=1&before=${page1.items[0]!.id}`);
    expect(page2.items[0]!.id).toBeLessThan(page1.items[0]!.id);
  });
});

describe('the push stream', () => {
  it('needs a session', async () => {
    const res = await fetch(`${base}/notifications/stream`);
    expect(res.status).toBe(401);
    await res.text();
  });

  it('pushes what is made, replays what was missed after a reconnect, and ends at sign-out', async () => {
    const stream = openStream(`${base}/notifications/stream`, org.memberA.token);
    await stream.until(() => stream.events.some((e) => e.event === 'unread'), 'the first unread count');
    expect(stream.status).toBe(200);
    const { id } = await registeredLetter(h, org);
    await distribute(id, org.deptA);
    await stream.until(
      () => stream.notifications().some((e) => (e.data as { document: { id: number } }).document.id === id),
      'the distribution',
    );
    const lastId = stream.notifications().at(-1)!.id!;
    await stream.close();

    // Two more while away: a reconnect with Last-Event-ID gets both, in order.
    const a = await registeredLetter(h, org);
    await distribute(a.id, org.deptA);
    const b = await registeredLetter(h, org);
    await distribute(b.id, org.deptA);
    const again = openStream(`${base}/notifications/stream`, org.memberA.token, lastId);
    await again.until(() => again.notifications().length >= 2, 'the replay');
    const docs = again.notifications().map((e) => (e.data as { document: { id: number } }).document.id);
    expect(docs.slice(0, 2)).toEqual([a.id, b.id]);
    const lastUnread = () =>
      (again.events.filter((e) => e.event === 'unread').at(-1)?.data as { unread: number } | undefined)
        ?.unread;
    const expected = (await listOf(org.memberA)).unread;
    expect(expected).toBeGreaterThan(0);
    await again.until(() => lastUnread() === expected, 'the unread count after the replay');

    // Read on another client: this one hears the new count.
    await call(h, {
      method: 'POST',
      url: '/notifications/read',
      token: org.memberA.token,
      body: { all: true },
    });
    await again.until(
      () =>
        (again.events.filter((e) => e.event === 'unread').at(-1)!.data as { unread: number }).unread === 0,
      'the count after reading',
    );

    // Signing out (this session) ends the stream at once.
    const out = await call(h, { method: 'POST', url: '/auth/logout', token: org.memberA.token });
    expect(out.status).toBe(200);
    await again.until(() => again.ended, 'the end of the stream');
    await again.close();
  });
});

describe.skipIf(!process.env.SIJILL_TEST_DATABASE_URL)('several servers on one PostgreSQL', () => {
  let second: { app: App; database: Database } | null = null;
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  it('a notification made on one server reaches a client connected to another', async () => {
    const [row] = await h.query<{ name: string }>('select current_database() as name');
    const url = new URL(process.env.SIJILL_TEST_DATABASE_URL!);
    url.pathname = `/${row!.name}`;
    const config = { ...h.config, DATABASE_URL: url.toString() };
    const database = await openDatabase({ ...config, DB_POOL_MAX: 2, migrate: false });
    const app = await buildApp({ config, database, files: createLocalFileStore(h.filesDir) });
    second = { app, database };
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const stream = openStream(`http://127.0.0.1:${address.port}/notifications/stream`, org.managerB.token);
    await stream.until(() => stream.events.some((e) => e.event === 'unread'), 'the first count');
    const { id } = await registeredLetter(h, org);
    await distribute(id, org.deptB); // on the first server
    await stream.until(
      () => stream.notifications().some((e) => (e.data as { document: { id: number } }).document.id === id),
      'the distribution made on the other server',
    );
    await stream.close();
  });
});
