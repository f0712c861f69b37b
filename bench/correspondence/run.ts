/**
 * Correspondence benchmark (issue 6): 1,000,000 documents with their distributions and tasks on
 * PostgreSQL, generated set-based (INSERT … SELECT generate_series) into a dedicated database
 * (`sijill_bench_corr`, or BENCH_DB_NAME), then the incoming box measured through the real server:
 *
 * - the big boxes of an archive-office clerk (who holds 80% of all incoming mail; issue 15): incoming over
 *   the default 30 days, a year and five years, outgoing and approved memos over a year — the first page,
 *   a middle and the last page each reached by `next` (the cursor of the page before sent as `after`) and
 *   by a jump (the page number alone), and over the incoming year a deep page (2,500: offset 49,980) by
 *   next, by a jump and back from the page after it; each cursor's page is checked to be the jump's page.
 *   A table of page jumps sets these side by side (issue 23, item 22: p50 / p95). Totals: what answered
 *   the total — the tallies' day counts of a box in its own date order, or else the capped count
 *   statement — beside the exact count the boxes used to run (the count statement with its cap lifted);
 * - a subject-contains filter in Arabic, typed with hamza and ta marbuta (`إجتماع اللجنة`), which the
 *   server normalises like the stored `subject_search` column (the generated column of the schema, so the
 *   generated subjects are normalised by PostgreSQL itself, exactly as rows the application writes);
 * - a department manager's box (what was distributed to the department) over five years: its first,
 *   middle and last pages as above; the filter;
 * - the approval boxes of a busy signatory and of an author (issue 12).
 *
 * The server's time per request is Fastify's reply.elapsedTime (an onResponse hook), the load comes from
 * autocannon in a child process. Beside it, the raw SQL: the exact statements the server issued for that
 * request (captured at the pg driver, the session check excluded), replayed with the same parameters on
 * one connection per load connection, p95 over BENCH_RAW_RUNS runs. Targets: pages p95 < 30 ms, the Arabic filter p95 < 100 ms, each within 2× of
 * its raw SQL.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/correspondence/run.ts
 *
 * BENCH_GENERATE_ONLY=1 makes (or with BENCH_REUSE keeps) the data and measures nothing (bench/search).
 * BENCH_REUSE=1 keeps an already generated database with the right document count (reruns take seconds);
 * otherwise it is dropped and generated again. BENCH_DROP=1 drops it at the end. Other knobs:
 * BENCH_DOCUMENTS (1000000), BENCH_SECONDS (8), BENCH_CONNECTIONS (1: server and raw SQL are compared at
 * the same concurrency; on 2 cores, 10 connections mostly measure the run queue), BENCH_RAW_RUNS (200).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { insertUser, systemRoleId } from '../../src-server/modules/auth/queries';
import { createPasswordHasher } from '../../src-server/security/passwords';
import { SEQUENCE_DIGITS } from '../../src-shared/numbering';
import { autocannon, percentile, signInPassword, startMeasuredServer } from '../harness';
import { captureStatements, explain, replay, startCapture, stopCapture } from '../sql-capture';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
const RAW_RUNS = Number(process.env.BENCH_RAW_RUNS ?? 200);
const DB_NAME = process.env.BENCH_DB_NAME ?? 'sijill_bench_corr';
const REUSE = process.env.BENCH_REUSE === '1';
const PASSWORD = 'bench-password-1';

/** Departments: 1–3 archive offices (inOut), 4–300 internal departments, 301–400 external senders. */
const INTERNAL = 300;
const EXTERNALS = 100;
/** Employees: id e works in department 1 + (e - 1) % 300; e ≤ 300 manages its department, e + 600 is its secretary. */
const EMPLOYEES = 3000;
/** Five clerks in the main archive office (1), one in each of the two others. */
const CLERK_EMPLOYEES = [301, 901, 1201, 1501, 1801, 302, 303];
/** The manager measured: employee 10 manages department 10. */
const MANAGER_EMPLOYEE = 10;
/** The busy signatory (signs every outgoing letter and memo) and an author of a fifth of them. */
const SIGNATORY_EMPLOYEE = 3;
const AUTHOR_EMPLOYEE = 1000;
/** Five years of mail, oldest first (ids grow with time, as they do in production). */
const SPAN_SECONDS = 5 * 365 * 86400;

/** One load run as the measured user. */
const load = (url: string, token: string, seconds = SECONDS) =>
  autocannon(url, { token, connections: CONNECTIONS, seconds });
const round = (v: number) => Math.round(v * 100) / 100;

// ---------------------------------------------------------------------------------------------- data

/** Subject words: openers, topics (with the spellings clerks really mix: hamza or not, shadda), parties. */
const OPENERS = ['طلب', 'بشأن', 'إفادة عن', 'تعميم بخصوص', 'دعوة لحضور', 'إحالة', 'استفسار عن', 'موافقة على'];
const TOPICS = [
  'إجتماع اللجنة الفنية',
  'اجتماع اللجنة التنفيذية',
  'اعتماد الميزانيّة السنوية',
  'الميزانية التشغيلية',
  'مشروع صيانة المباني',
  'عقد توريد أجهزة',
  'مناقصة الخدمات العامة',
  'توظيف الكفاءات الوطنية',
  'ترقية الموظفين',
  'إجازة اضطرارية',
  'برنامج التدريب الصيفي',
  'تأمين المركبات',
  'مراجعة الحسابات الختامية',
  'تدقيق المستودعات',
  'شكوى مواطن',
  'مخالفة مرورية',
  'تسوية المستحقات',
  'صرف مكافأة نهاية الخدمة',
  'نقل خدمات موظف',
  'تحديث البيانات',
  'أمن المعلومات',
  'خطة الطوارئ',
  'الاستعداد لموسم الحج',
  'المشاركة في المعرض الدولي',
  'زيارة وفد رسمي',
  'تقرير الأداء الربعي',
  'الهيكل التنظيمي',
  'لائحة الحضور والانصراف',
  'استئجار مقر فرعي',
  'ترشيد استهلاك الطاقة',
  'تطوير الخدمات الإلكترونية',
  'مبادرة التحول الرقمي',
  'الشراكة مع القطاع الخاص',
  'إصدار تصاريح العمل',
  'تجديد الاتفاقية',
  'طباعة التقويم السنوي',
  'تنظيم ورشة عمل',
  'حملة التوعية الصحية',
  'مستودع الأرشيف المركزي',
  'إتلاف الوثائق المنتهية',
];
const PARTIES = ['', ' للعام المالي الحالي', ' لدى الإدارة', ' بالمنطقة الشرقية', ' بالفرع الرئيسي', ' عاجل'];

const sqlArray = (words: string[]) => `array[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(',')}]`;

/** The organisation, settings lists and the bench users (clerks and a manager), answering the user ids. */
async function organisation(db: pg.Client, passwordHash: string, adminRoleId: number) {
  await db.query(`insert into jobs (id, name_ar, name_en, is_manager) overriding system value
    values (1, 'مدير إدارة', 'Department manager', true), (2, 'موظف', 'Employee', false)`);
  await db.query(`insert into departments (id, name_ar, name_en, type, archive_type) overriding system value
    select g, 'مكتب الأرشيف ' || g, 'Archive office ' || g, 'internal', 'inOut' from generate_series(1, 3) g`);
  await db.query(`insert into departments (id, name_ar, name_en, type, archive_office_id) overriding system value
    select g, 'إدارة ' || g, 'Department ' || g, 'internal', 1 + g % 3 from generate_series(4, ${INTERNAL}) g`);
  await db.query(`insert into departments (id, name_ar, name_en, type, is_entity) overriding system value
    select g, 'جهة خارجية ' || g, 'External entity ' || g, 'external', true
    from generate_series(${INTERNAL + 1}, ${INTERNAL + EXTERNALS}) g`);
  await db.query(`insert into employees (id, first_name_ar, last_name_ar, first_name_en, last_name_en,
      department_id, job_id) overriding system value
    select g, (array['محمد','أحمد','عبدالله','خالد','سارة','نورة','فاطمة','إبراهيم'])[1 + g % 8], 'موظف ' || g,
      (array['Mohammed','Ahmed','Abdullah','Khalid','Sara','Noura','Fatimah','Ibrahim'])[1 + g % 8], 'Employee ' || g,
      1 + (g - 1) % ${INTERNAL}, case when g <= ${INTERNAL} then 1 else 2 end
    from generate_series(1, ${EMPLOYEES}) g`);
  await db.query(`update departments set manager_employee_id = id where id <= ${INTERNAL}`);
  await db.query(`insert into secretary_offices (department_id, secretary_employee_id)
    select g, g + 600 from generate_series(4, ${INTERNAL}) g`);
  for (const t of ['jobs', 'departments', 'employees'])
    await db.query(`select setval(pg_get_serial_sequence('${t}', 'id'), (select max(id) from ${t}))`);

  await db.query(`insert into correspondence_settings (list, name_ar, name_en, prefix, direction, sort_order) values
    ('codifications', 'وارد', 'Incoming', 'IN', 'in', 1), ('codifications', 'صادر', 'Outgoing', 'OUT', 'out', 2),
    ('codifications', 'مذكرة داخلية', 'Memo', 'MEM', 'memo', 3)`);
  await db.query(`insert into correspondence_settings (list, name_ar, name_en, level, sort_order) values
    ('security-levels', 'عادي', 'Normal', 1, 1), ('security-levels', 'سري', 'Confidential', 2, 2),
    ('security-levels', 'سري للغاية', 'Top secret', 3, 3),
    ('priorities', 'عادي', 'Normal', 1, 1), ('priorities', 'عاجل', 'Urgent', 2, 2),
    ('priorities', 'عاجل جدا', 'Very urgent', 3, 3)`);
  await db.query(`insert into correspondence_settings (list, name_ar, name_en, sort_order) values
    ('mediums', 'بريد', 'Post', 1), ('mediums', 'فاكس', 'Fax', 2), ('mediums', 'بريد إلكتروني', 'Email', 3),
    ('mediums', 'تسليم باليد', 'By hand', 4)`);

  // A role with the incoming pages (what a clerk's or a manager's role grants).
  const role = await db.query<{ id: number }>(
    `insert into roles (name_ar, name_en) values ('الاتصالات الإدارية', 'Correspondence') returning id`,
  );
  const roleId = role.rows[0]!.id;
  await db.query(
    `insert into role_page_permissions (role_id, page_id, permissions)
     select $1, p.id, p.available_permissions from pages p where p.path like '/correspondence/%'`,
    [roleId],
  );
  void adminRoleId;
  const users: Record<string, number> = {};
  const make = async (username: string, employeeId: number) => {
    const id = await insertUserSql(db, username, passwordHash, roleId);
    await db.query('update employees set user_id = $1 where id = $2', [id, employeeId]);
    await db.query('update users set employee_id = $1, two_factor_skipped_at = now() where id = $2', [
      employeeId,
      id,
    ]);
    users[username] = id;
  };
  for (const [i, e] of CLERK_EMPLOYEES.entries()) await make(i === 0 ? 'bench-clerk' : `clerk-${e}`, e);
  await make('bench-manager', MANAGER_EMPLOYEE);
  await make('bench-signatory', SIGNATORY_EMPLOYEE);
  await make('bench-author', AUTHOR_EMPLOYEE);
  // Every department manager has an account: they give their opinion in the circuits of their department.
  await db.query(
    `insert into users (username, email, password_hash, name_ar, name_en, role_id, locale, active, employee_id,
       two_factor_skipped_at)
     select 'manager-' || e.id, 'manager-' || e.id || '@example.com', $1, 'مدير ' || e.id, 'Manager ' || e.id, $2,
       'ar', true, e.id, now()
     from employees e where e.id between 4 and ${INTERNAL} and e.id <> ${MANAGER_EMPLOYEE}`,
    [passwordHash, roleId],
  );
  await db.query(
    `update employees e set user_id = u.id from users u where u.employee_id = e.id and e.user_id is null`,
  );
  await db.query(
    `insert into user_clearances (user_id, security_level_id)
     select u.id, s.id from users u, correspondence_settings s
     where u.username in ('bench-signatory', 'bench-author') and s.list = 'security-levels' and s.level = 3`,
  );
  // Clearance: the clerk and the manager see confidential mail (level 2), not top secret.
  await db.query(
    `insert into user_clearances (user_id, security_level_id)
     select u.id, s.id from users u, correspondence_settings s
     where u.username in ('bench-clerk', 'bench-manager') and s.list = 'security-levels' and s.level = 2`,
  );
  return users;
}

/** A user row as the auth module writes it (insertUser needs drizzle; this bench's fill runs on pg). */
async function insertUserSql(db: pg.Client, username: string, passwordHash: string, roleId: number) {
  const r = await db.query<{ id: number }>(
    `insert into users (username, email, password_hash, name_ar, name_en, role_id, locale, active)
     values ($1, $2, $3, $4, $5, $6, 'ar', true) returning id`,
    [username, `${username}@example.com`, passwordHash, `مستخدم ${username}`, `User ${username}`, roleId],
  );
  return r.rows[0]!.id;
}

/**
 * The mail, set-based. Documents: 75% incoming, 20% outgoing, 5% memos; 1% drafts (no number); numbers
 * per codification and year from row_number(); 80% held by archive office 1; security 90% normal, 8%
 * confidential, 2% top secret; incoming older than 45 days is 90% completed. Distributions of registered
 * incoming mail: one for action to the recipient department, 60% also one for knowledge, 20% a second for
 * action. Tasks: 70% of the action distributions, to an employee of the receiving department.
 */
async function mail(db: pg.Client, clerks: number[], signatory: number, author: number) {
  const main = clerks.slice(0, 5);
  const [office2, office3] = [clerks[5]!, clerks[6]!];
  const step = SPAN_SECONDS / DOCUMENTS;
  const h = (k: number) => `((g::bigint * ${k}) % 1000003)::int`; // cheap, repeatable scatter
  await db.query(`create temp table bench_settings as
    select list, coalesce(prefix, level::text, name_en) as k, id from correspondence_settings`);
  await db.query(`create temp table bench_docs as
    select g, dir, st, ra, yr,
      case when st in ('registered', 'approved') then row_number() over (partition by dir, st, yr order by g) end as seq
    from (
      select g, dir, st, ra, extract(year from ra)::int as yr
      from (
        select g,
          case when g % 20 < 15 then 'in' when g % 20 < 19 then 'out' else 'memo' end as dir,
          case when g % 100 = 37 then 'draft' when g % 20 < 15 then 'registered'
               when ${h(7907)} % 40 = 0 or (g > ${DOCUMENTS} * 59 / 60 and ${h(7907)} % 4 = 0) then 'approving'
               when ${h(7907)} % 200 = 1 then 'changesRequested'
               else 'approved' end as st,
          now() - make_interval(secs => (${DOCUMENTS} - g) * ${step} + ${h(7919)} % 600) as ra
        from generate_series(1, ${DOCUMENTS}) g
      ) a
    ) b`);
  await db.query(`insert into documents (id, direction, state, codification_id, year, sequence, doc_number,
      sender_document_number, subject, summary, sender_department_id, receiver, received_date, document_date,
      security_level_id, security_rank, priority_id, priority_rank, department_id, recipient_department_id,
      medium_id, archive_department_id, created_by, registered_by, created_at, registered_at, completed_at,
      updated_at, submitted_at, approved_at, current_step, submitted_version, dispatched_at) overriding system value
    select g, dir, st, cod.id,
      case when reg then yr end, seq,
      case when reg then cod.k || '-' || yr || '-' || lpad(seq::text, ${SEQUENCE_DIGITS}, '0') end,
      case when dir = 'in' then 'ص/' || (1000 + ${h(104729)} % 90000) || '/' || yr end,
      subject, 'ملخص: ' || subject,
      case when dir = 'in' then ${INTERNAL + 1} + g % ${EXTERNALS} end,
      case when dir <> 'in' then 'الجهة المستقبلة ' || (g % 50) end,
      case when reg then ra::date end, ra::date - (g % 10)::int,
      sec.id, sec_rank, pri.id, pri_rank,
      case when dir <> 'in' then 4 + g % ${INTERNAL - 3} end,
      case when dir = 'in' then 4 + (g * 31) % ${INTERNAL - 3} end,
      med.id, office, creator, case when reg then creator end,
      ra - make_interval(mins => (g % 600)::int), case when reg then ra end,
      case when reg and dir = 'in' and ra < now() - interval '45 days' and g % 10 <> 0
        then ra + make_interval(days => (g % 20)::int) end,
      ra,
      case when dir <> 'in' and st <> 'draft' then ra - interval '1 day' end,
      case when st = 'approved' then ra end,
      case when st in ('approving', 'changesRequested') then 1 + g % 2 end,
      case when dir <> 'in' and st <> 'draft' then 1 end,
      case when st = 'approved' and dir = 'out' and ra < now() - interval '3 days' then ra + interval '1 day' end
    from (
      select d.*, st in ('registered', 'approved') as reg,
        case when g % 10 < 8 then 1 when g % 10 = 8 then 2 else 3 end as office,
        case when dir <> 'in' and ${h(7877)} % 5 = 0 then ${author}
             when g % 10 < 8 then (array[${main.join(',')}])[1 + (g / 10) % 5]
             when g % 10 = 8 then ${office2} else ${office3} end as creator,
        case when g % 50 = 0 then 3 when g % 12 = 0 then 2 else 1 end as sec_rank,
        case when g % 20 = 0 then 3 when g % 4 = 0 then 2 else 1 end as pri_rank,
        (${sqlArray(OPENERS)})[1 + ${h(37)} % ${OPENERS.length}] || ' ' ||
        (${sqlArray(TOPICS)})[1 + ${h(7)} % ${TOPICS.length}] ||
        (${sqlArray(PARTIES)})[1 + ${h(13)} % ${PARTIES.length}] as subject
      from bench_docs d
    ) x
    join bench_settings cod on cod.list = 'codifications'
      and cod.k = case dir when 'in' then 'IN' when 'out' then 'OUT' else 'MEM' end
    join bench_settings sec on sec.list = 'security-levels' and sec.k = sec_rank::text
    join bench_settings pri on pri.list = 'priorities' and pri.k = pri_rank::text
    join bench_settings med on med.list = 'mediums'
      and med.k = (array['Post','Fax','Email','By hand'])[1 + g % 4]`);
  await db.query(`insert into document_counters (codification_id, year, next)
    select codification_id, year, max(sequence) + 1 from documents where state in ('registered', 'approved')
    group by codification_id, year`);
  // Circuits of outgoing letters and memos: the manager of the sending department gives an opinion, the
  // busy signatory signs; approved ones have both answers, approving ones wait at their current step.
  await db.query(`insert into approval_members (document_id, position, kind, user_id, employee_id, pending,
      activated_at, decision, decided_at, decided_version, direction, security_rank)
    select d.id, s.pos, s.kind, s.uid, null,
      d.state = 'approving' and d.current_step = s.pos,
      d.submitted_at + make_interval(hours => s.pos),
      case when d.state = 'approved' or (d.current_step is not null and s.pos < d.current_step) then 'approved'
           when d.state = 'changesRequested' and s.pos = d.current_step then 'changesRequested' end,
      case when d.state = 'approved' or (d.current_step is not null and s.pos <= d.current_step and d.state <> 'approving')
             or (d.current_step is not null and s.pos < d.current_step)
           then d.submitted_at + make_interval(hours => s.pos + 1) end,
      case when d.state = 'approved' or (d.current_step is not null and s.pos < d.current_step) then 1 end,
      case when d.direction = 'out' then 'out' else 'memo' end, d.security_rank
    from documents d
    join users mu on mu.employee_id = d.department_id
    cross join lateral (values (1, 'opinion', mu.id), (2, 'sign', ${signatory})) s(pos, kind, uid)
    where d.direction in ('out', 'memo') and d.state <> 'draft'`);
  await db.query(`insert into document_recipients (document_id, department_id, position)
    select d.id, case when d.direction = 'out' then ${INTERNAL + 1} + d.id % ${EXTERNALS} else 4 + (d.id * 7) % ${INTERNAL - 3} end, 0
    from documents d where d.direction in ('out', 'memo')`);
  // Distributions: action to the recipient, knowledge to another (60%), a second action (20%).
  await db.query(`insert into distributions (document_id, department_id, type, notes, registered_at,
      security_rank, distributed_by, distributed_at, completed_at)
    select d.id, v.department_id, v.type, case when v.type = 'forAction' then 'للإجراء اللازم' end,
      d.registered_at, d.security_rank, d.created_by, d.registered_at + interval '1 hour',
      case when v.type = 'forKnowledge' then d.registered_at + interval '1 hour' else d.completed_at end
    from documents d
    cross join lateral (values
      (d.recipient_department_id, 'forAction', true),
      (4 + (d.id * 31 + 1 + d.id % 150) % ${INTERNAL - 3}, 'forKnowledge', d.id % 5 < 3),
      (4 + (d.id * 31 + 151 + d.id % 100) % ${INTERNAL - 3}, 'forAction', d.id % 5 = 0)
    ) v(department_id, type, wanted)
    where d.direction = 'in' and d.state = 'registered' and v.wanted`);
  await db.query(`insert into tasks (document_id, distribution_id, department_id, type, employee_id, task_date,
      notes, state, assigned_by, created_at, started_at, completed_at)
    select x.document_id, x.id, x.department_id, x.type, x.department_id + 300 * (1 + x.id % 9),
      (x.registered_at + interval '7 days')::date, 'يرجى الإفادة',
      case when x.completed_at is not null then 'completed' when x.id % 3 = 0 then 'inProgress' else 'new' end,
      null, x.registered_at + interval '2 hours',
      case when x.completed_at is not null or x.id % 3 = 0 then x.registered_at + interval '1 day' end,
      x.completed_at
    from distributions x where x.type = 'forAction' and x.id % 10 < 7`);
}

/** Drops the secondary indexes of the bulk-loaded tables, answering how to build them again. */
async function dropIndexes(db: pg.Client, tables: string[]): Promise<string[]> {
  const r = await db.query<{ name: string; def: string }>(
    `select i.indexname as name, i.indexdef as def from pg_indexes i
     where i.schemaname = 'public' and i.tablename = any($1)
       and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    [tables],
  );
  for (const { name } of r.rows) await db.query(`drop index "${name}"`);
  return r.rows.map((x) => x.def);
}

/** Generates everything; answers the seconds it took. */
async function generate(url: string, passwordHash: string, adminRoleId: number) {
  const started = performance.now();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(`set maintenance_work_mem = '1GB'`);
    await db.query(`set work_mem = '256MB'`);
    // The data is consistent by construction: skip the per-row foreign-key triggers of a bulk load.
    await db.query(`set session_replication_role = replica`);
    const users = await organisation(db, passwordHash, adminRoleId);
    const clerks = CLERK_EMPLOYEES.map((e, i) => users[i === 0 ? 'bench-clerk' : `clerk-${e}`]!);
    const indexes = await dropIndexes(db, ['documents', 'distributions', 'tasks', 'approval_members']);
    await mail(db, clerks, users['bench-signatory']!, users['bench-author']!);
    for (const def of indexes) await db.query(def);
    await db.query(`set session_replication_role = origin`);
    // The boxes' tallies are kept by triggers, which the bulk load skipped: compute them once.
    await db.query('select box_tallies_rebuild()');
    await db.query('vacuum analyze');
  } finally {
    await db.end();
  }
  return (performance.now() - started) / 1000;
}

/** A page of a box as the server answers it. */
interface PageAnswer {
  items: { key: string }[];
  total: number;
  totalExact?: boolean;
  next?: string;
}

// ------------------------------------------------------------------------------------------- main

async function main() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) {
    console.error('Set BENCH_DATABASE_URL (a PostgreSQL server where a database may be created).');
    process.exit(2);
  }
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const url = new URL(base);
  url.pathname = `/${DB_NAME}`;
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [DB_NAME])).rowCount;
  let reuse = false;
  if (exists && REUSE) {
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try {
      const r = await c.query<{ n: string; users: string }>(
        `select (select count(*) from documents) as n,
           (select count(*) from users where username in ('bench-clerk', 'bench-manager', 'bench-signatory',
             'bench-author')) as users`,
      );
      reuse = Number(r.rows[0]!.n) === DOCUMENTS && Number(r.rows[0]!.users) === 4;
    } catch {
      reuse = false;
    } finally {
      await c.end();
    }
  }
  if (!reuse) {
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DB_NAME}`);
  }
  captureStatements();
  const dataDir = mkdtempSync(join(tmpdir(), 'sijill-bench-corr-'));
  let generationSeconds: number | null = null;
  try {
    const { server, timings, measuring } = await startMeasuredServer(url.toString(), dataDir);
    const results: Record<string, unknown>[] = [];
    try {
      const db = server.database.db;
      if (!reuse) {
        const hasher = createPasswordHasher({ memoryKib: 1024, timeCost: 1 });
        const hash = await hasher.hash(PASSWORD);
        // An administrator too (the system role exists once the server has applied its base data).
        await insertUser(db, {
          username: 'bench-admin',
          email: 'bench-admin@example.com',
          passwordHash: hash,
          nameAr: 'قياس',
          nameEn: 'Bench',
          roleId: await systemRoleId(db),
          locale: 'ar',
          active: true,
        });
        process.stderr.write(`generating ${DOCUMENTS} documents in ${DB_NAME}…\n`);
        generationSeconds = round(await generate(url.toString(), hash, await systemRoleId(db)));
        process.stderr.write(`generated in ${generationSeconds} s\n`);
      }
      const stats = new pg.Client({ connectionString: url.toString() });
      await stats.connect();
      const counts = (
        await stats.query<Record<string, string>>(
          `select (select count(*) from documents) as documents,
             (select count(*) from documents where direction = 'in') as incoming,
             (select count(*) from distributions) as distributions, (select count(*) from tasks) as tasks,
             (select count(*) from documents where direction <> 'in') as outgoing_and_memos,
             (select count(*) from approval_members) as circuit_rows,
             (select count(*) from approval_members m join users u on u.id = m.user_id
               where u.username = 'bench-signatory' and m.pending) as signatory_pending,
             (select count(*) from documents d join users u on u.id = d.created_by
               where u.username = 'bench-author' and d.state = 'approving') as author_approving,
             (select count(*) from departments) as departments`,
        )
      ).rows[0]!;
      await stats.end();
      // Another benchmark (bench/search) builds on this data: make it (or keep it) and stop here.
      if (process.env.BENCH_GENERATE_ONLY === '1') {
        process.stderr.write(
          `${JSON.stringify({ generated: reuse ? 'reused' : `${generationSeconds} s`, counts })}\n`,
        );
        return;
      }

      const signIn = (login: string) => signInPassword(server.url, login, PASSWORD);
      const yearAgo = new Date(Date.now() - 365 * 86400_000).toISOString().slice(0, 10);
      const fiveYearsAgo = new Date(Date.now() - 5 * 366 * 86400_000).toISOString().slice(0, 10);
      const arabic = encodeURIComponent(
        JSON.stringify({ subject: { constraints: [{ value: 'إجتماع اللجنة', matchMode: 'contains' }] } }),
      );
      const box = '/correspondence/boxes/incoming';
      const get = async (token: string, path: string) => {
        const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { data?: PageAnswer };
        if (res.status !== 200 || !body.data)
          throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
        return body.data;
      };
      /** A page request; with `after`, the page whose `next` the client sends with it (read first). */
      interface Case {
        name: string;
        path: string;
        after?: string;
        target: number;
      }
      const totals: Record<string, unknown>[] = [];
      /**
       * Issue 15, issue 23 (item 22): the pages of a big box as a clerk reaches them — the first; a middle
       * and the last page by a jump (the page number alone) and by `next` (the cursor of the page before);
       * a deep page (2,500) by next, by a jump and back from the page after it. The box's exact total is
       * the server's own answer where the box is tallied (its own date order, unfiltered), else its count
       * statement with the cap lifted; the totals table sets the cost of what answered it (the tallies'
       * day counts, or the capped count) beside the exact count the boxes used to run.
       */
      const bigBox = async (token: string, label: string, base: string, deep: boolean): Promise<Case[]> => {
        startCapture();
        const first = await get(token, `${base}&page=1`);
        const captured = stopCapture();
        const countStatement = captured.find((x) => x.text.startsWith('select count(*)::int as n from'));
        const daysStatement = captured.find((x) => x.text.startsWith("select to_char(c.day, 'YYYY-MM-DD')"));
        const answeredBy = countStatement ?? daysStatement;
        if (!answeredBy) throw new Error(`${label}: no count or day-count statement`);
        let exact = first.total;
        let exactCountMs: unknown = null;
        if (countStatement) {
          const exactStatement = {
            ...countStatement,
            values: [...countStatement.values.slice(0, -1), 2 ** 31 - 1],
          };
          const c = new pg.Client({ connectionString: url.toString() });
          await c.connect();
          exact = Number(
            (await c.query<{ n: number }>(exactStatement.text, exactStatement.values)).rows[0]!.n,
          );
          await c.end();
          exactCountMs = await replay(url.toString(), [exactStatement], Math.min(RAW_RUNS, 50), CONNECTIONS);
        }
        totals.push({
          box: label,
          exactTotal: exact,
          answered: first.totalExact === false ? `more than ${first.total}` : first.total,
          by: countStatement ? 'capped count' : 'tallies',
          answerMs: await replay(url.toString(), [answeredBy], RAW_RUNS, CONNECTIONS),
          exactCountMs,
        });
        const last = Math.ceil(exact / 20);
        const middle = Math.ceil(last / 2);
        if (last < 3) throw new Error(`${label}: ${exact} rows, too few to measure its pages`);
        const at = (page: number) => `${base}&page=${page}`;
        const cases: Case[] = [
          { name: `${label}: first page`, path: at(1), target: 30 },
          {
            name: `${label}: middle page ${middle} by next`,
            path: at(middle),
            after: at(middle - 1),
            target: 30,
          },
          { name: `${label}: middle page ${middle} by jump`, path: at(middle), target: 30 },
        ];
        if (deep && last > 2501)
          cases.push(
            { name: `${label}: deep page 2500 by next`, path: at(2500), after: at(2499), target: 30 },
            { name: `${label}: deep page 2500 by jump`, path: at(2500), target: 30 },
            { name: `${label}: deep page 2499 by previous`, path: at(2499), after: at(2500), target: 30 },
          );
        cases.push(
          { name: `${label}: last page ${last} by next`, path: at(last), after: at(last - 1), target: 30 },
          { name: `${label}: last page ${last} by jump`, path: at(last), target: 30 },
        );
        return cases;
      };
      const clerkToken = await signIn('bench-clerk');
      const users = [
        {
          who: 'clerk',
          login: 'bench-clerk',
          queries: [
            ...(await bigBox(clerkToken, 'incoming, 30 days', `${box}?pageSize=20`, false)),
            ...(await bigBox(clerkToken, 'incoming, a year', `${box}?pageSize=20&fromDate=${yearAgo}`, true)),
            ...(await bigBox(
              clerkToken,
              'incoming, five years',
              `${box}?pageSize=20&fromDate=${fiveYearsAgo}`,
              false,
            )),

            ...(await bigBox(
              clerkToken,
              'outgoing, a year',
              `/correspondence/boxes/outgoing?pageSize=20&fromDate=${yearAgo}`,
              false,
            )),
            {
              name: 'subject contains (Arabic)',
              path: `${box}?page=1&pageSize=20&filters=${arabic}`,
              target: 100,
            },
          ] as Case[],
        },
        {
          who: 'manager',
          login: 'bench-manager',
          queries: [
            ...(await bigBox(
              await signIn('bench-manager'),
              'incoming of the department, five years',
              `${box}?pageSize=20&fromDate=${fiveYearsAgo}`,
              false,
            )),
            {
              name: 'subject contains (Arabic)',
              path: `${box}?page=1&pageSize=20&filters=${arabic}`,
              target: 100,
            },
          ] as Case[],
        },
        // The approved memos of the archive office that holds them (the third).
        {
          who: 'memos clerk',
          login: 'clerk-303',
          queries: await bigBox(
            await signIn('clerk-303'),
            'approved memos, a year',
            `/correspondence/boxes/approved-memos?pageSize=20&fromDate=${yearAgo}`,
            false,
          ),
        },
        // Issue 12: the requiring-approval box of a busy signatory, the awaiting-approval box of an author.
        {
          who: 'signatory',
          login: 'bench-signatory',
          queries: [
            {
              name: 'requiring approval',
              path: '/correspondence/boxes/requiring-approval?page=1&pageSize=20',
              target: 30,
            },
            {
              name: 'memos requiring approval',
              path: '/correspondence/boxes/memos-requiring-approval?page=1&pageSize=20',
              target: 30,
            },
          ] as Case[],
        },
        {
          who: 'author',
          login: 'bench-author',
          queries: [
            {
              name: 'awaiting approval',
              path: '/correspondence/boxes/awaiting-approval?page=1&pageSize=20',
              target: 30,
            },
            {
              name: 'outbox drafts',
              path: '/correspondence/boxes/outbox-drafts?page=1&pageSize=20',
              target: 30,
            },
          ] as Case[],
        },
      ];
      for (const u of users) {
        const token = await signIn(u.login);
        for (const s of u.queries) {
          const route = `${u.who}: ${s.name}`;
          let path = s.path;
          if (s.after) {
            const before = await get(token, s.after);
            if (!before.next) throw new Error(`${route}: ${s.after} has no next`);
            path = `${s.path}&after=${before.next}`;
          }
          startCapture();
          const body = await get(token, path);
          const statements = stopCapture().filter((x) => !/\bsessions\b/.test(x.text));
          if (s.after) {
            // The page read from a cursor is the page read by its number.
            const jumped = await get(token, s.path);
            const keys = (p: PageAnswer) => p.items.map((i) => i.key).join();
            if (keys(jumped) !== keys(body))
              throw new Error(`${route}: the cursor's page differs from the jump's`);
          }
          measuring('');
          await load(server.url + path, token, 2); // warm-up
          measuring(route);
          const r = await load(server.url + path, token);
          measuring('');
          const serverMs = [...timings.get(route)!].sort((a, b) => a - b);
          const raw = await replay(url.toString(), statements, RAW_RUNS, CONNECTIONS);
          const plans = await explain(url.toString(), statements);
          const p95 = percentile(serverMs, 95);
          const entry = {
            route,
            path: s.after ? `${s.path}&after=<next of ${s.after}>` : s.path,
            total: body.total,
            totalExact: body.totalExact ?? true,
            items: body.items.length,
            connections: CONNECTIONS,
            reqPerSec: r.reqPerSec,
            non2xx: r.non2xx,
            clientMs: { p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99 },
            serverMs: {
              samples: serverMs.length,
              p50: round(percentile(serverMs, 50)),
              p95: round(p95),
              p99: round(percentile(serverMs, 99)),
            },
            rawSqlMs: { statements: statements.length, ...raw, explainExecutionMs: plans },
            targetMs: s.target,
            withinTarget: p95 < s.target,
            within2xRaw: p95 <= 2 * raw.p95,
          };
          results.push(entry);
          process.stderr.write(`${JSON.stringify(entry)}\n`);
        }
      }
      console.log(
        JSON.stringify(
          {
            backend: 'postgres',
            database: DB_NAME,
            generated: reuse ? 'reused' : `${generationSeconds} s`,
            counts,
            seconds: SECONDS,
            totals,
            results,
          },
          null,
          2,
        ),
      );
      const pad = (v: unknown, n: number) => String(v).padEnd(n);
      const ms = (v: number) => `${v} ms`;
      type Entry = {
        route: string;
        total: number;
        totalExact: boolean;
        serverMs: { p50: number; p95: number };
        rawSqlMs: { p95: number };
        targetMs: number;
        withinTarget: boolean;
        within2xRaw: boolean;
      };
      const entries = results as Entry[];
      const lines = [
        `${pad('query', 72)}${pad('total', 12)}${pad('server p50', 12)}${pad('server p95', 12)}` +
          `${pad('raw SQL p95', 13)}${pad('target', 9)}result`,
      ];
      for (const e of entries)
        lines.push(
          `${pad(e.route, 72)}${pad(e.totalExact ? e.total : `> ${e.total}`, 12)}${pad(ms(e.serverMs.p50), 12)}` +
            `${pad(ms(e.serverMs.p95), 12)}${pad(ms(e.rawSqlMs.p95), 13)}${pad(`< ${e.targetMs}`, 9)}` +
            `${e.withinTarget ? 'met' : 'MISSED'} / ${e.within2xRaw ? '≤ 2× raw' : '> 2× raw (MISSED)'}`,
        );
      // Issue 23 (item 22): the page jumps of each big box side by side — the first, middle and last page,
      // by number (a jump, no cursor) and by cursor (the `next` of the page before), server p50 / p95.
      lines.push(
        '',
        `${pad('page jumps (server p50 / p95)', 48)}${pad('first', 18)}${pad('middle by number', 18)}` +
          `${pad('middle by cursor', 18)}${pad('last by number', 18)}last by cursor`,
      );
      const boxes = [
        ...new Set(entries.map((e) => /^(.*): (first|middle|deep|last) page/.exec(e.route)?.[1])),
      ];
      for (const name of boxes) {
        if (!name) continue;
        const cell = (re: RegExp) => {
          const e = entries.find((x) => x.route.startsWith(`${name}: `) && re.test(x.route));
          return e ? `${e.serverMs.p50} / ${e.serverMs.p95}` : '—';
        };
        lines.push(
          `${pad(name, 48)}${pad(cell(/: first page$/), 18)}${pad(cell(/: middle page \d+ by jump$/), 18)}` +
            `${pad(cell(/: middle page \d+ by next$/), 18)}${pad(cell(/: last page \d+ by jump$/), 18)}` +
            cell(/: last page \d+ by next$/),
        );
      }
      lines.push(
        '',
        `${pad('totals (the statement that answers the total)', 72)}${pad('exact', 12)}${pad('answered', 22)}` +
          `${pad('by', 14)}${pad('its p95', 13)}exact count p95`,
      );
      for (const t of totals as {
        box: string;
        exactTotal: number;
        answered: number | string;
        by: string;
        answerMs: { p95: number };
        exactCountMs: { p95: number } | null;
      }[])
        lines.push(
          `${pad(t.box, 72)}${pad(t.exactTotal, 12)}${pad(t.answered, 22)}${pad(t.by, 14)}` +
            `${pad(ms(t.answerMs.p95), 13)}${t.exactCountMs ? ms(t.exactCountMs.p95) : '—'}`,
        );
      console.log(lines.join('\n'));
    } finally {
      await server.close();
    }
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (process.env.BENCH_DROP === '1') await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
