/**
 * Notifications pushed over server-sent events (issue 28) to BENCH_CLIENTS (default 1,000) connected
 * users: a distribution to their 1,000-user department (latency from the POST to each client's event,
 * five letters), 50 tasks to one user each, the server's memory per open stream, and how long the
 * 1,000 take to connect. The server runs in this process (embedded PGlite in a temporary folder, or
 * PostgreSQL with BENCH_DATABASE_URL: a database created and dropped); the clients in a child process
 * (bench/notifications/client.mjs). The users are written with SQL and given sessions directly (no
 * 1,000 argon2 sign-ins). Prints JSON.
 *
 *   npx tsx bench/notifications/run.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/notifications/run.ts
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { inArray, sql } from 'drizzle-orm';
import { rowsOf } from '../../src-server/db/rows';
import { pages, rolePagePermissions, roles } from '../../src-server/db/schema';
import { insertSession, systemRoleId, type Tx } from '../../src-server/modules/auth/queries';
import { hashToken, newToken } from '../../src-server/security/tokens';
import { startServer } from '../../src-server/server';
import { NOTIFICATION_STREAM_PATH } from '../../src-shared/api/notifications';
import { benchConfig, percentile } from '../harness';
import { captureStatements, startCapture, stopCapture } from '../sql-capture';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const BROADCASTS = 5;
const TASKS = 50;
/** How long a client may wait for its event before it counts as missed. */
const WAIT_MS = 60_000;
const BASE = process.env.BENCH_DATABASE_URL;
// On PostgreSQL, the statements a broadcast costs (the POST's and the push's) are counted at the driver.
if (BASE) captureStatements();

// A collection between measures, so the heap figures are what is kept (exposed here when node was
// started without --expose-gc).
setFlagsFromString('--expose-gc');
const gc = (globalThis.gc ?? runInNewContext('gc')) as () => void;

let admin: pg.Client | null = null;
let url: string | undefined;
const name = `sijill_bench_notifications_${randomBytes(4).toString('hex')}`;
if (BASE) {
  admin = new pg.Client({ connectionString: BASE });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const u = new URL(BASE);
  u.pathname = `/${name}`;
  url = u.toString();
}
const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-notifications-'));

interface Arrival {
  type: 'notification';
  user: number;
  id: number;
  kind: string;
  documentId: number | null;
  at: number;
}
type ClientMessage =
  | { type: 'connected'; clients: number; ms: number }
  | {
      type: 'batch';
      items: (Arrival | { type: 'error'; user: number; message: string } | { type: 'ended'; user: number })[];
    };

const round = (n: number) => Math.round(n * 10) / 10;
const stats = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p99: percentile(s, 99), max: s.length ? s[s.length - 1]! : 0 };
};

try {
  const server = await startServer(benchConfig(dataDir, url));
  const db = server.database.db as unknown as Tx;
  const one = async <T>(query: ReturnType<typeof sql>) => (await rowsOf<T>(db, query))[0]!;
  try {
    // ------------------------------------------------------------ the organisation, by SQL
    const [role] = await db
      .insert(roles)
      .values({ nameAr: 'دور القياس', nameEn: 'Bench role', requireTwoFactor: false, active: true })
      .returning({ id: roles.id });
    // The incoming pages a clerk and a manager use (as the API tests grant them).
    const grants: Record<string, string[]> = {
      '/correspondence/inbox/incoming': ['view', 'edit', 'delete', 'distribute', 'export'],
      '/correspondence/inbox/follow-ups': ['view', 'edit', 'export'],
      '/correspondence/inbox/incoming-tasks': ['view', 'edit'],
      '/correspondence/inbox/draft': ['view', 'add', 'edit', 'delete'],
      '/correspondence/inbox/add': ['view', 'add'],
    };
    const pageRows = await db
      .select({ id: pages.id, path: pages.path })
      .from(pages)
      .where(inArray(pages.path, Object.keys(grants)));
    await db.insert(rolePagePermissions).values(
      pageRows.map((p) => ({
        roleId: role!.id,
        pageId: p.id,
        permissions: grants[p.path] as (typeof rolePagePermissions.$inferInsert)['permissions'],
      })),
    );
    const { id: archive } = await one<{ id: number }>(sql`
      insert into departments (name_ar, name_en, type, archive_type)
      values ('الأرشيف', 'Archive', 'internal', 'inOut') returning id`);
    const { id: dept } = await one<{ id: number }>(sql`
      insert into departments (name_ar, name_en, type, archive_type, archive_office_id)
      values ('الإدارة الكبيرة', 'Big department', 'internal', 'none', ${archive}) returning id`);
    const { id: sender } = await one<{ id: number }>(sql`
      insert into departments (name_ar, name_en, type, archive_type)
      values ('وزارة الخارجية', 'Foreign ministry', 'external', 'none') returning id`);
    const { id: job } = await one<{ id: number }>(sql`
      insert into jobs (name_ar, name_en) values ('موظف', 'Employee') returning id`);
    const people = async (departmentId: number, count: number, roleId: number, prefix: string) => {
      const rows = await rowsOf<{ user_id: number; employee_id: number }>(
        db,
        sql`with e as (
              insert into employees (first_name_ar, last_name_ar, first_name_en, last_name_en, department_id, job_id)
              select 'موظف', g::text, 'Employee', g::text, ${departmentId}, ${job} from generate_series(1, ${count}) g
              returning id)
            insert into users (username, email, password_hash, name_ar, name_en, role_id, employee_id,
                               two_factor_skipped_at)
            select ${prefix} || e.id, ${prefix} || e.id || '@example.com', 'not-a-hash',
                   'مستخدم ' || e.id, 'User ' || e.id, ${roleId}, e.id, now() from e
            returning id as user_id, employee_id`,
      );
      await db.execute(sql`update employees set user_id = u.id from users u
                           where u.employee_id = employees.id and employees.department_id = ${departmentId}`);
      return rows;
    };
    const [clerk] = await people(archive, 1, role!.id, 'clerk');
    const staff = await people(dept, CLIENTS, role!.id, 'member');
    const manager = staff[0]!;
    await db.execute(
      sql`update departments set manager_employee_id = ${manager.employee_id} where id = ${dept}`,
    );
    const [adminUser] = await rowsOf<{ id: number }>(
      db,
      sql`insert into users (username, email, password_hash, name_ar, name_en, role_id, two_factor_skipped_at)
          values ('bench-admin', 'bench-admin@example.com', 'not-a-hash', 'المدير', 'Admin',
                  ${await systemRoleId(db)}, now()) returning id`,
    );
    // A session per user, as sign-in makes it (only the token's hash is stored).
    const session = async (userId: number) => {
      const token = newToken();
      await insertSession(db, {
        tokenHash: hashToken(token),
        userId,
        rememberMe: false,
        idleSeconds: 86_400,
        absoluteSeconds: 86_400,
        ip: null,
        userAgent: 'bench',
      });
      return token;
    };
    const adminToken = await session(adminUser!.id);
    const clerkToken = await session(clerk!.user_id);
    const tokens: { user: number; token: string }[] = [];
    for (let i = 0; i < staff.length; i += 50)
      tokens.push(
        ...(await Promise.all(
          staff.slice(i, i + 50).map(async (s) => ({ user: s.user_id, token: await session(s.user_id) })),
        )),
      );
    const managerToken = tokens[0]!.token;

    const api = async (token: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return (JSON.parse(text) as { data: Record<string, unknown> }).data;
    };
    const setting = async (list: string, body: Record<string, unknown>) =>
      Number((await api(adminToken, 'POST', `/correspondence/settings/${list}`, body)).id);
    const letter = {
      direction: 'in',
      subject: 'طلب اعتماد الميزانية السنوية',
      senderDepartmentId: Number(sender),
      recipientDepartmentId: Number(dept),
      documentDate: '2026-01-15',
      codificationId: await setting('codifications', {
        nameAr: 'وارد',
        nameEn: 'Incoming',
        prefix: 'BIN',
        direction: 'in',
      }),
      securityLevelId: await setting('security-levels', { nameAr: 'عادي', nameEn: 'Normal', level: 1 }),
      priorityId: await setting('priorities', { nameAr: 'عاجل', nameEn: 'Urgent', level: 2 }),
      mediumId: await setting('mediums', { nameAr: 'بريد', nameEn: 'Post' }),
    };
    const register = async () =>
      Number((await api(clerkToken, 'POST', '/correspondence/documents', { ...letter, register: true })).id);

    // ------------------------------------------------------------ the clients
    const child = spawn(process.execPath, [join(import.meta.dirname, 'client.mjs')], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const arrivals: Arrival[] = [];
    const errors: string[] = [];
    let ended = 0;
    let onArrival: (() => void) | null = null;
    let connected: (m: { clients: number; ms: number }) => void = () => undefined;
    const connectedOnce = new Promise<{ clients: number; ms: number }>((r) => (connected = r));
    child.on('message', (m: ClientMessage) => {
      if (m.type === 'connected') connected(m);
      if (m.type !== 'batch') return;
      for (const item of m.items) {
        if (item.type === 'notification') arrivals.push(item);
        else if (item.type === 'error') errors.push(`user ${item.user}: ${item.message}`);
        else ended += 1;
      }
      onArrival?.();
    });
    /** Waits until `count` arrivals pass `test` (or WAIT_MS); answers them. */
    const waitFor = async (test: (a: Arrival) => boolean, count: number) => {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const got = arrivals.filter(test);
        if (got.length >= count || Date.now() > deadline) return got;
        await new Promise<void>((r) => {
          onArrival = r;
          setTimeout(r, 200);
        });
      }
    };
    const memory = () => {
      gc();
      const m = process.memoryUsage();
      return { rss: m.rss, heap: m.heapUsed };
    };

    // The same distribution with no stream open: what the POST costs without the push.
    const quietDoc = await register();
    const quietSent = Date.now();
    await api(clerkToken, 'POST', `/correspondence/documents/${quietDoc}/distribution`, {
      items: [{ departmentId: dept, type: 'forAction' }],
    });
    const quietPostMs = Date.now() - quietSent;

    await new Promise((r) => setTimeout(r, 500));
    const before = memory();
    child.send({ type: 'start', url: server.url, path: NOTIFICATION_STREAM_PATH, clients: tokens });
    const connect = await Promise.race([
      connectedOnce,
      new Promise<null>((r) => setTimeout(() => r(null), 120_000)),
    ]);
    if (!connect)
      throw new Error(`the clients did not all connect in 120 s: ${errors.slice(0, 5).join('; ')}`);
    await new Promise((r) => setTimeout(r, 2000));
    const after = memory();

    // ------------------------------------------------------------ broadcast: a distribution to all
    const broadcast: number[] = [];
    const broadcastRounds = [];
    const statementCounts: number[] = [];
    const statementKinds = new Map<string, number>();
    let firstDoc = 0;
    for (let i = 0; i < BROADCASTS; i += 1) {
      const doc = await register();
      firstDoc ||= doc;
      if (BASE) startCapture();
      const sent = Date.now();
      await api(clerkToken, 'POST', `/correspondence/documents/${doc}/distribution`, {
        items: [{ departmentId: dept, type: 'forAction' }],
      });
      const answered = Date.now() - sent;
      const got = await waitFor((a) => a.kind === 'distributed' && a.documentId === doc, CLIENTS);
      const statements = BASE ? stopCapture() : [];
      if (BASE) statementCounts.push(statements.length);
      // Which statements, for the first round: the start of each statement's text, the most frequent first.
      if (BASE && i === 0)
        for (const st of statements) {
          const key = st.text.replace(/\s+/g, ' ').trim().slice(0, 70);
          statementKinds.set(key, (statementKinds.get(key) ?? 0) + 1);
        }
      const latencies = got.map((a) => a.at - sent);
      broadcast.push(...latencies);
      broadcastRounds.push({ postMs: answered, received: got.length, ...stats(latencies) });
    }

    // ------------------------------------------------------------ one-to-one: 50 tasks
    const [dist] = await rowsOf<{ id: number }>(
      db,
      sql`select id from distributions where document_id = ${firstDoc} and department_id = ${dept}`,
    );
    const others = tokens.slice(1).map((t) => t.user);
    const picked = new Set<number>();
    while (picked.size < Math.min(TASKS, others.length))
      picked.add(others[Math.floor(Math.random() * others.length)]!);
    const employeeOf = new Map(staff.map((s) => [s.user_id, s.employee_id]));
    const oneToOne: number[] = [];
    let tasksMissed = 0;
    for (const user of picked) {
      const sent = Date.now();
      const task = await api(managerToken, 'POST', `/correspondence/documents/${firstDoc}/tasks`, {
        distributionId: dist!.id,
        employeeId: employeeOf.get(user),
        taskDate: '2030-01-10',
      });
      const [got] = await waitFor(
        (a) => a.kind === 'taskAssigned' && a.user === user && a.documentId === firstDoc,
        1,
      );
      if (got) oneToOne.push(got.at - sent);
      else tasksMissed += 1;
      void task;
    }
    const end = memory();

    child.send({ type: 'stop' });
    await new Promise((r) => child.once('exit', r));
    const perClient = (a: number, b: number) => round((b - a) / CLIENTS / 1024);
    console.log(
      JSON.stringify(
        {
          benchmark: 'notifications',
          database: BASE ? 'PostgreSQL' : 'PGlite',
          clients: CLIENTS,
          connectMs: connect.ms,
          broadcast: {
            ...stats(broadcast),
            received: broadcast.length,
            postMsWithoutClients: quietPostMs,
            ...(BASE
              ? {
                  sqlStatementsPerRound: statementCounts,
                  sqlFirstRoundTop: [...statementKinds]
                    .sort((a, b) => b[1] - a[1])
                    .slice(0, 6)
                    .map(([text, count]) => ({ count, text })),
                }
              : {}),
            expected: BROADCASTS * CLIENTS,
            rounds: broadcastRounds,
          },
          oneToOne: { ...stats(oneToOne), tasks: picked.size, missed: tasksMissed },
          memory: {
            rssPerClientKB: perClient(before.rss, after.rss),
            heapPerClientKB: perClient(before.heap, after.heap),
            rssMB: {
              before: Math.round(before.rss / 1e6),
              connected: Math.round(after.rss / 1e6),
              afterRounds: Math.round(end.rss / 1e6),
            },
            heapMB: {
              before: Math.round(before.heap / 1e6),
              connected: Math.round(after.heap / 1e6),
              afterRounds: Math.round(end.heap / 1e6),
            },
          },
          errors: errors.length,
          errorSamples: errors.slice(0, 5),
          streamsEnded: ended,
        },
        null,
        2,
      ),
    );
  } finally {
    await server.close();
  }
} finally {
  if (admin) {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
}
