/**
 * Directory benchmark (issue 5): 5,000 employees and 500 departments on PostgreSQL (a fresh database,
 * dropped afterwards), then autocannon in its own process against the employee list (first page), a
 * filtered list (name contains + department equals) and the department tree. Reports client latency
 * (p50/p95/p99) and the server's own time per request (Fastify's reply.elapsedTime, from an onResponse
 * hook), whose p95 is the target (< 20 ms). Prints JSON.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/directory/run.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { insertUser, systemRoleId } from '../../src-server/modules/auth/queries';
import { createPasswordHasher } from '../../src-server/security/passwords';
import { autocannon, percentile, startMeasuredServer } from '../harness';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PASSWORD = 'bench-password-1';

/** One load run as the measured user. */
const load = (url: string, token: string, seconds = SECONDS) =>
  autocannon(url, { token, connections: CONNECTIONS, seconds });

/** Bulk data in SQL: 500 departments (20 roots, then children), 20 jobs, 5,000 employees. */
async function fill(db: pg.Client) {
  await db.query(`insert into jobs (name_ar, name_en, is_manager)
    select 'وظيفة ' || g, 'Job ' || g, g <= 3 from generate_series(1, 20) g`);
  await db.query(`insert into departments (name_ar, name_en, type)
    select 'الإدارة العامة ' || g, 'General Directorate ' || g, 'internal' from generate_series(1, 20) g`);
  await db.query(`insert into departments (name_ar, name_en, parent_id, type)
    select 'إدارة ' || g, 'Department ' || g, 1 + (g % 20), 'internal' from generate_series(21, 200) g`);
  await db.query(`insert into departments (name_ar, name_en, parent_id, type)
    select 'قسم ' || g, 'Section ' || g, 21 + (g % 180), 'internal' from generate_series(201, 450) g`);
  await db.query(`insert into departments (name_ar, name_en, type, is_entity)
    select 'جهة خارجية ' || g, 'External entity ' || g, 'external', true from generate_series(451, 500) g`);
  await db.query(`insert into employees (first_name_ar, last_name_ar, first_name_en, last_name_en, phone_number,
      hire_date, department_id, job_id, employee_type)
    select (array['محمد','أحمد','عبدالله','خالد','سارة','نورة','فاطمة','إبراهيم'])[1 + g % 8],
           (array['العتيبي','القحطاني','الشهري','الغامدي','الزهراني','الحربي'])[1 + g % 6] || ' ' || g,
           (array['Mohammed','Ahmed','Abdullah','Khalid','Sara','Noura','Fatimah','Ibrahim'])[1 + g % 8],
           (array['Alotaibi','Alqahtani','Alshehri','Alghamdi','Alzahrani','Alharbi'])[1 + g % 6] || ' ' || g,
           '+9665' || lpad(g::text, 8, '0'),
           date '2000-01-01' + (g % 9000),
           1 + (g % 450), 1 + (g % 20),
           (array['permanent','contract','temporary','secondment'])[1 + g % 4]
    from generate_series(1, 5000) g`);
  await db.query('analyze');
}

async function main() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) {
    console.error('Set BENCH_DATABASE_URL (a PostgreSQL server where a database may be created).');
    process.exit(2);
  }
  const name = `sijill_bench_dir_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-dir-'));
  try {
    const { server, timings, measuring } = await startMeasuredServer(url.toString(), dataDir);
    const results: Record<string, unknown>[] = [];
    try {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      await fill(client);
      await client.end();
      const db = server.database.db;
      const hasher = createPasswordHasher({ memoryKib: 1024, timeCost: 1 });
      const id = await insertUser(db, {
        username: 'bench',
        email: 'bench@example.com',
        passwordHash: await hasher.hash(PASSWORD),
        nameAr: 'قياس',
        nameEn: 'Bench',
        roleId: await systemRoleId(db),
        locale: 'ar',
        active: true,
      });
      await db.execute(sql`update users set two_factor_skipped_at = now() where id = ${id}`);
      const login = await fetch(`${server.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'bench', password: PASSWORD }),
      });
      const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
      const filters = encodeURIComponent(
        JSON.stringify({
          name: { constraints: [{ value: 'ابراهيم', matchMode: 'contains' }] },
          departmentId: { constraints: [{ value: 101, matchMode: 'equals' }] },
        }),
      );
      const scenarios = [
        { route: 'GET /ec/employees (first page)', path: '/ec/employees?page=1&pageSize=20' },
        {
          route: 'GET /ec/employees (name contains + department equals)',
          path: `/ec/employees?filters=${filters}`,
        },
        {
          route: 'GET /ec/employees?q= (search both scripts)',
          path: `/ec/employees?q=${encodeURIComponent('الزهراني')}`,
        },
        { route: 'GET /ec/departments/tree', path: '/ec/departments/tree' },
      ];
      for (const s of scenarios) {
        const check = await fetch(server.url + s.path, { headers: { authorization: `Bearer ${token}` } });
        if (check.status !== 200) throw new Error(`${s.route}: ${check.status} ${await check.text()}`);
        measuring('');
        await load(server.url + s.path, token, 2); // warm-up
        measuring(s.route);
        const r = await load(server.url + s.path, token);
        measuring('');
        const server_ = [...timings.get(s.route)!].sort((a, b) => a - b);
        const round = (v: number) => Math.round(v * 100) / 100;
        const entry = {
          route: s.route,
          connections: CONNECTIONS,
          reqPerSec: r.reqPerSec,
          non2xx: r.non2xx,
          clientMs: { p50: r.latency.p50, p90: r.latency.p90, p97_5: r.latency.p97_5, p99: r.latency.p99 },
          serverMs: {
            samples: server_.length,
            p50: round(percentile(server_, 50)),
            p95: round(percentile(server_, 95)),
            p99: round(percentile(server_, 99)),
          },
          withinTarget: percentile(server_, 95) < 20,
        };
        results.push(entry);
        process.stderr.write(`${JSON.stringify(entry)}\n`);
      }
    } finally {
      await server.close();
    }
    console.log(
      JSON.stringify(
        { backend: 'postgres', employees: 5000, departments: 500, seconds: SECONDS, results },
        null,
        2,
      ),
    );
  } finally {
    // Let the server's pool finish closing its sockets before the database goes away.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
