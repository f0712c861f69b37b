/**
 * Reports (issue 30): every report's rows checked against plain queries on the same generated data for
 * two managers of different departments and clearances (nobody sees a row about a document they may not
 * see); the Excel export read back with exceljs (dates are dates, numbers are numbers, the sheet right to
 * left in Arabic and left to right in English); the PDF read back with pdftotext in both languages, and a
 * long one page by page (each numbered of the pages made, its headers and rows on it); no cursor left
 * open by an export; 403 without the page or its 'export' permission; nobody fetches someone else's export.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { writePdf } from '../../src-server/modules/reports/pdf';
import { call, makeRole, startHarness, type Harness } from './support/harness';
import { actor, department, type Actor } from './support/correspondence';

let h: Harness;
let managerA: Actor;
let managerB: Actor;
let noPage: Actor;
let viewOnly: Actor;
let deptA: number;
let deptB: number;
let cod: number;
const FROM = '2026-01-01';
const TO = '2026-12-31';

/** A small deterministic generator (mulberry32), so a failure replays. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const get = (who: Actor, url: string, lang: 'ar' | 'en' = 'en') =>
  call(h, { method: 'GET', url, token: who.token, lang });

beforeAll(async () => {
  h = await startHarness({ JOBS_WORKER: '1' });
  const role = await makeRole(h, { [PAGES.reports]: ['view', 'export'] });
  const viewRole = await makeRole(h, { [PAGES.reports]: ['view'] });
  const otherRole = await makeRole(h, { [PAGES.search]: ['view'] });
  deptA = await department(h, 'الموارد البشرية');
  deptB = await department(h, 'الشؤون المالية');
  managerA = await actor(h, role, deptA);
  managerB = await actor(h, role, deptB);
  noPage = await actor(h, otherRole, deptA);
  viewOnly = await actor(h, viewRole, deptA);
  await h.query(`update departments set manager_employee_id = ${managerA.employeeId} where id = ${deptA}`);
  await h.query(`update departments set manager_employee_id = ${managerB.employeeId} where id = ${deptB}`);
  const levels = await h.query<{ id: number; level: number }>(
    `insert into correspondence_settings (list, name_ar, name_en, level)
     values ('security-levels', 'عادي', 'Normal', 0), ('security-levels', 'سري', 'Secret', 1),
            ('security-levels', 'سري جدًا', 'Top secret', 2) returning id, level`,
  );
  const levelId = (n: number) => levels.find((l) => Number(l.level) === n)!.id;
  // Manager A sees up to secret, manager B up to top secret.
  await h.query(
    `insert into user_clearances (user_id, security_level_id) values
     (${managerA.userId}, ${levelId(1)}), (${managerB.userId}, ${levelId(2)})`,
  );
  const [c] = await h.query<{ id: number }>(
    `insert into correspondence_settings (list, name_ar, name_en, prefix, direction)
     values ('codifications', 'وارد عام', 'General incoming', 'IN', 'in') returning id`,
  );
  cod = c!.id;

  // Generated mail: incoming letters to A or B (some with a task, some with a reply due, of all three
  // ranks), and outgoing letters in approval whose approver is one of the managers.
  const r = rng(30);
  const staff = { [deptA]: managerA, [deptB]: managerB };
  for (let i = 0; i < 60; i++) {
    const dept = r() < 0.5 ? deptA : deptB;
    const rank = Math.floor(r() * 3);
    const month = 1 + Math.floor(r() * 11);
    const day = 1 + Math.floor(r() * 27);
    const at = `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    const due = r() < 0.5 ? `'2026-${String(month).padStart(2, '0')}-28'` : 'null';
    const [d] = await h.query<{ id: number }>(
      `insert into documents (direction, state, subject, security_rank, registered_at, recipient_department_id,
         codification_id, doc_number, reply_due_on, created_by)
       values ('in', 'registered', 'خطاب رقم ${i}', ${rank}, '${at}T09:00:00Z', ${dept}, ${cod}, 'IN-2026-${i}',
         ${due}, null) returning id`,
    );
    const [dist] = await h.query<{ id: number }>(
      `insert into distributions (document_id, department_id, type, direction, registered_at, security_rank)
       values (${d!.id}, ${dept}, 'forAction', 'in', '${at}T09:00:00Z', ${rank}) returning id`,
    );
    if (r() < 0.7) {
      const done = r() < 0.5;
      await h.query(
        `insert into tasks (document_id, distribution_id, department_id, type, employee_id, task_date, state,
           created_at, completed_at)
         values (${d!.id}, ${dist!.id}, ${dept}, 'forAction', ${staff[dept]!.employeeId}, '${at}'::date + 5,
           '${done ? 'completed' : 'new'}', '${at}T10:00:00Z', ${done ? `'${at}T10:00:00Z'::timestamptz + interval '${Math.floor(r() * 10)} days'` : 'null'})`,
      );
    }
  }
  for (let i = 0; i < 20; i++) {
    const approver = r() < 0.5 ? managerA : managerB;
    const rank = Math.floor(r() * 3);
    const at = `2026-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`;
    const decided = r() < 0.5;
    const [d] = await h.query<{ id: number }>(
      `insert into documents (direction, state, subject, security_rank, department_id, created_by, submitted_at)
       values ('out', 'approving', 'Letter ${i}', ${rank}, ${approver === managerA ? deptA : deptB}, null,
         '${at}T08:00:00Z') returning id`,
    );
    await h.query(
      `insert into approval_members (document_id, position, kind, user_id, employee_id, pending, activated_at,
         decision, decided_at, due_on, direction, security_rank)
       values (${d!.id}, 1, 'sign', ${approver.userId}, ${approver.employeeId}, ${!decided}, '${at}T08:00:00Z',
         ${decided ? `'approved'` : 'null'}, ${decided ? `'${at}T08:00:00Z'::timestamptz + interval '3 days'` : 'null'},
         '${at}'::date + 2, 'out', ${rank})`,
    );
  }
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** The documents a manager of `dept` with clearance `clearance` may see, by a plain query of the rules. */
const visiblePlain = (who: Actor, dept: number, clearance: number) =>
  `(d.security_rank <= ${clearance} and (
     exists (select 1 from distributions x where x.document_id = d.id and x.department_id = ${dept})
     or exists (select 1 from approval_members m where m.document_id = d.id and m.user_id = ${who.userId})))`;

const cases = () => [
  { who: managerA, dept: deptA, clearance: 1 },
  { who: managerB, dept: deptB, clearance: 2 },
];

describe('report rows against plain queries', () => {
  it('volumes: the documents counted are those the caller may see', async () => {
    for (const { who, dept, clearance } of cases()) {
      const res = await get(who, `/reports/volumes?from=${FROM}&to=${TO}`);
      expect(res.status).toBe(200);
      const { columns, rows } = res.json.data;
      const at = (k: string) => columns.findIndex((c: { key: string }) => c.key === k);
      const byMonth = new Map<string, number>();
      for (const row of rows)
        byMonth.set(row[at('month')], (byMonth.get(row[at('month')]) ?? 0) + row[at('documents')]);
      const plain = await h.query<{ month: string; n: number }>(
        `select to_char(d.registered_at at time zone 'UTC', 'YYYY-MM') as month, count(*)::int as n
           from documents d where d.state in ('registered', 'approved') and d.registered_at is not null
            and ${visiblePlain(who, dept, clearance)} group by 1 order by 1`,
      );
      expect(Object.fromEntries(byMonth)).toEqual(
        Object.fromEntries(plain.map((p) => [p.month, Number(p.n)])),
      );
      expect(plain.length).toBeGreaterThan(0);
    }
  });

  it('overdue: the late items are those the caller may see, late by at least a day', async () => {
    for (const { who, dept, clearance } of cases()) {
      const res = await get(who, `/reports/overdue?from=${FROM}&to=${TO}&limit=1000`);
      expect(res.status).toBe(200);
      const { columns, rows, total } = res.json.data;
      const at = (k: string) => columns.findIndex((c: { key: string }) => c.key === k);
      const plain = await h.query<{ n: number }>(
        `select ((select count(*) from documents d where d.reply_due_on < current_date and d.reply_done_at is null
                    and d.state = 'registered' and d.reply_due_on between '${FROM}' and '${TO}'
                    and ${visiblePlain(who, dept, clearance)})
               + (select count(*) from tasks t join documents d on d.id = t.document_id
                   where t.task_date < current_date and t.state <> 'completed' and t.type = 'forAction'
                     and t.task_date between '${FROM}' and '${TO}' and ${visiblePlain(who, dept, clearance)})
               + (select count(*) from approval_members m join documents d on d.id = m.document_id
                   where m.pending and m.due_on < current_date and m.due_on between '${FROM}' and '${TO}'
                     and ${visiblePlain(who, dept, clearance)}))::int as n`,
      );
      expect(total).toBe(Number(plain[0]!.n));
      expect(rows).toHaveLength(total);
      expect(total).toBeGreaterThan(0);
      for (const row of rows) expect(row[at('daysLate')]).toBeGreaterThanOrEqual(1);
    }
  });

  it('approval turnaround: one row per step the caller may see', async () => {
    for (const { who, dept, clearance } of cases()) {
      const res = await get(who, `/reports/approval-turnaround?from=${FROM}&to=${TO}`);
      expect(res.status).toBe(200);
      const plain = await h.query<{ n: number }>(
        `select count(*)::int as n from approval_members m join documents d on d.id = m.document_id
          where m.activated_at is not null and ${visiblePlain(who, dept, clearance)}`,
      );
      expect(res.json.data.total).toBe(Number(plain[0]!.n));
      expect(res.json.data.rows).toHaveLength(res.json.data.total);
    }
  });

  it('task completion: assigned and completed per employee as the plain counts', async () => {
    for (const { who, dept, clearance } of cases()) {
      const res = await get(who, `/reports/task-completion?from=${FROM}&to=${TO}`);
      expect(res.status).toBe(200);
      const { columns, rows } = res.json.data;
      const at = (k: string) => columns.findIndex((c: { key: string }) => c.key === k);
      const plain = await h.query<{ assigned: number; completed: number }>(
        `select count(*)::int as assigned, count(t.completed_at)::int as completed
           from tasks t join documents d on d.id = t.document_id
          where t.type = 'forAction' and ${visiblePlain(who, dept, clearance)}`,
      );
      const sum = (k: string) => rows.reduce((s: number, r: number[]) => s + (r[at(k)] as number), 0);
      expect(sum('assigned')).toBe(Number(plain[0]!.assigned));
      expect(sum('completed')).toBe(Number(plain[0]!.completed));
    }
  });

  it('the two managers see different rows (the data is not trivially shared)', async () => {
    const a = await get(managerA, `/reports/overdue?from=${FROM}&to=${TO}&limit=1000`);
    const b = await get(managerB, `/reports/overdue?from=${FROM}&to=${TO}&limit=1000`);
    const subjects = (r: typeof a) => new Set(r.json.data.rows.map((row: string[]) => row[2]));
    const sa = subjects(a);
    for (const s of subjects(b)) expect(sa.has(s)).toBe(false);
  });
});

describe('access', () => {
  it('403 without the reports page, and without its export permission for exports', async () => {
    expect((await get(noPage, `/reports/volumes?from=${FROM}&to=${TO}`)).status).toBe(403);
    expect((await get(viewOnly, `/reports/volumes?from=${FROM}&to=${TO}`)).status).toBe(200);
    const res = await call(h, {
      method: 'POST',
      url: '/reports/exports',
      token: viewOnly.token,
      body: { report: 'volumes', format: 'xlsx', filters: { from: FROM, to: TO }, lang: 'en' },
    });
    expect(res.status).toBe(403);
  });

  it('a period backwards is refused in words', async () => {
    const res = await get(managerA, `/reports/volumes?from=${TO}&to=${FROM}`);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('reports.period');
  });
});

async function exportOf(who: Actor, body: object): Promise<{ id: number; bytes: Buffer; fileName: string }> {
  const res = await call(h, { method: 'POST', url: '/reports/exports', token: who.token, body });
  expect(res.status).toBe(201);
  const id = res.json.data.id as number;
  await h.jobs.drain();
  const status = await get(who, `/reports/exports/${id}`);
  expect(status.json.data).toMatchObject({ id, state: 'done', progress: 100 });
  const file = await h.app.inject({
    method: 'GET',
    url: `/reports/exports/${id}/file`,
    headers: { authorization: `Bearer ${who.token}` },
  });
  expect(file.statusCode).toBe(200);
  expect(file.headers['content-disposition']).toMatch(/^attachment/);
  return { id, bytes: file.rawPayload, fileName: status.json.data.fileName };
}

describe('exports', () => {
  it('Excel: right to left in Arabic, left to right in English, real dates and numbers', async () => {
    for (const lang of ['ar', 'en'] as const) {
      const { bytes, fileName } = await exportOf(managerB, {
        report: 'approval-turnaround',
        format: 'xlsx',
        filters: { from: FROM, to: TO },
        lang,
      });
      expect(fileName).toMatch(/\.xlsx$/);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(bytes as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      expect(ws.views[0]?.rightToLeft ?? false).toBe(lang === 'ar');
      const headerRow = 5; // title, period, made at, blank, headers
      const headers = (ws.getRow(headerRow).values as unknown[]).slice(1);
      expect(headers).toContain(lang === 'ar' ? 'المعتمِد' : 'Approver');
      const view = await get(managerB, `/reports/approval-turnaround?from=${FROM}&to=${TO}`, lang);
      const { columns, rows } = view.json.data;
      expect(ws.rowCount - headerRow).toBe(rows.length);
      const at = (k: string) => columns.findIndex((c: { key: string }) => c.key === k) + 1;
      const first = ws.getRow(headerRow + 1);
      expect(first.getCell(at('activatedOn')).value).toBeInstanceOf(Date);
      expect((first.getCell(at('activatedOn')).value as Date).toISOString().slice(0, 10)).toBe(
        rows[0][at('activatedOn') - 1],
      );
      expect(typeof first.getCell(at('step')).value).toBe('number');
      expect(typeof first.getCell(at('days')).value).toBe('number');
    }
  });

  it('Excel: the overdue items exported are the table’s rows, in its order', async () => {
    // The export reads its rows from a snapshot of the items' ids (queries.ts), the table by offset.
    const { bytes } = await exportOf(managerB, {
      report: 'overdue',
      format: 'xlsx',
      filters: { from: FROM, to: TO },
      lang: 'en',
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const view = await get(managerB, `/reports/overdue?from=${FROM}&to=${TO}&limit=1000`);
    const { columns, rows } = view.json.data;
    expect(rows.length).toBeGreaterThan(1);
    const headerRow = 5;
    expect(ws.rowCount - headerRow).toBe(rows.length);
    const at = (k: string) => columns.findIndex((c: { key: string }) => c.key === k);
    rows.forEach((row: (string | number | null)[], i: number) => {
      const sheet = ws.getRow(headerRow + 1 + i);
      expect(sheet.getCell(at('subject') + 1).value).toBe(row[at('subject')]);
      expect(sheet.getCell(at('kind') + 1).value).toBe(row[at('kind')]);
      expect((sheet.getCell(at('dueOn') + 1).value as Date).toISOString().slice(0, 10)).toBe(
        row[at('dueOn')],
      );
      expect(sheet.getCell(at('daysLate') + 1).value).toBe(row[at('daysLate')]);
    });
  });

  it('PDF: the report printed in both languages reads back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reports-pdf-'));
    try {
      for (const lang of ['ar', 'en'] as const) {
        const { bytes } = await exportOf(managerA, {
          report: 'volumes',
          format: 'pdf',
          filters: { from: FROM, to: TO },
          lang,
        });
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
        const path = join(dir, `${lang}.pdf`);
        writeFileSync(path, bytes);
        const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
        if (lang === 'ar') {
          expect(text).toContain('حجم المراسلات');
          expect(text).toContain('وارد');
        } else {
          expect(text).toContain('Correspondence volumes');
          expect(text).toContain('Incoming');
        }
        expect(text).toContain('2026-');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PDF: a long report page by page — each numbered of the pages made, with its headers and its rows', async () => {
    // Pages are written out as they fill, their footers drawn from the page count the rows' count gives;
    // a text met twice (the headers, a kind, a day) is set once as a form and placed after.
    const rows = 130;
    const columns = [
      { key: 'kind', type: 'text' },
      { key: 'docNumber', type: 'text' },
      { key: 'subject', type: 'text' },
      { key: 'dueOn', type: 'date' },
      { key: 'daysLate', type: 'days' },
    ] as const;
    const cells = (i: number) => [
      i % 2 ? 'Task' : 'Reply due',
      `IN-2026-${i}`,
      `Letter ${i}`,
      `2026-03-${String(1 + (i % 28)).padStart(2, '0')}`,
      1 + (i % 5),
    ];
    const made = await writePdf(
      'en',
      {
        title: 'Overdue items',
        lines: ['Period'],
        headers: ['Kind', 'Number', 'Subject', 'Due', 'Days late'],
      },
      (page, pages) => `Page ${page} of ${pages}`,
      [...columns],
      rows,
      (async function* () {
        for (let i = 0; i < rows; i += 50)
          yield Array.from({ length: Math.min(50, rows - i) }, (_, j) => cells(i + j));
      })(),
      async () => undefined,
    );
    expect(made.rows).toBe(rows);
    const dir = mkdtempSync(join(tmpdir(), 'reports-pdf-'));
    try {
      const path = join(dir, 'long.pdf');
      writeFileSync(path, made.bytes);
      const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
      const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
      expect(pages).toBeGreaterThan(2);
      const seen: number[] = [];
      for (let page = 1; page <= pages; page++) {
        const text = execFileSync('pdftotext', ['-f', `${page}`, '-l', `${page}`, path, '-'], {
          encoding: 'utf8',
        });
        expect(text).toContain(`Page ${page} of ${pages}`);
        for (const header of ['Kind', 'Number', 'Subject', 'Due', 'Days late'])
          expect(text).toContain(header);
        for (const m of text.matchAll(/Letter (\d+)/g)) seen.push(Number(m[1]));
      }
      // Every row once, in order, across the pages.
      expect(seen).toEqual(Array.from({ length: rows }, (_, i) => i));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('PDF: rows other than the count it was given fail the export rather than misnumber its pages', async () => {
    const write = (total: number, given: number) =>
      writePdf(
        'en',
        { title: 'T', lines: [], headers: ['Subject'] },
        (page, pages) => `${page}/${pages}`,
        [{ key: 'subject', type: 'text' }],
        total,
        (async function* () {
          yield Array.from({ length: given }, (_, i) => [`Letter ${i}`]);
        })(),
        async () => undefined,
      );
    await expect(write(10, 200)).rejects.toThrow(/more rows/);
    await expect(write(200, 10)).rejects.toThrow(/not the 200/);
  });

  it('exports leave no cursor open on the database', async () => {
    // The long reports are read through a cursor (queries.ts inBatches); on PGlite it outlives its
    // statement (WITH HOLD) on the one connection every request shares, so it must be closed.
    for (const report of ['overdue', 'approval-turnaround'] as const)
      await exportOf(managerB, { report, format: 'xlsx', filters: { from: FROM, to: TO }, lang: 'ar' });
    // pg_cursors also lists the portal of the asking statement itself: only the exports' are counted.
    const open = await h.query<{ n: number }>(
      `select count(*)::int as n from pg_cursors where name like 'report\\_export\\_%'`,
    );
    expect(Number(open[0]!.n)).toBe(0);
  });

  it("nobody sees or fetches someone else's export", async () => {
    const { id } = await exportOf(managerA, {
      report: 'volumes',
      format: 'xlsx',
      filters: { from: FROM, to: TO },
      lang: 'en',
    });
    expect((await get(managerB, `/reports/exports/${id}`)).status).toBe(404);
    expect((await get(managerB, `/reports/exports/${id}/file`)).status).toBe(404);
    const mine = await get(managerB, '/reports/exports');
    expect(mine.json.data.map((e: { id: number }) => e.id)).not.toContain(id);
    expect((await get(managerA, '/reports/exports')).json.data.map((e: { id: number }) => e.id)).toContain(
      id,
    );
  });
});
