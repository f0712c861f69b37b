/**
 * Employee Centre rules through the API: jobs (unique names, activation), the department tree (main and
 * child departments, moves without cycles, type rules, deactivation with and without cascade, search in
 * both languages with Arabic normalised, configure), employees (account created in the same transaction
 * and rolled back with it, linking, deactivation ending sessions, list filters), secretary offices, the
 * pickers, uploads (PDF and image by content, 413, 415, download bytes), bad input in Arabic and English.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  countRows,
  makeRole,
  makeUser,
  signIn,
  startHarness,
  unique,
  type Harness,
} from './support/harness';
import { minimalPdf, multipart, png } from './support/files';
import sharp from 'sharp';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness({ UPLOAD_MAX_BYTES: String(64 * 1024) });
  token = await signIn(h, await makeUser(h, 'admin'));
});
afterAll(async () => {
  await h?.close();
});

type Body = Record<string, unknown>;
const post = (url: string, body: Body, lang?: 'ar' | 'en') =>
  call(h, { method: 'POST', url, token, body, lang });
const put = (url: string, body: Body, lang?: 'ar' | 'en') =>
  call(h, { method: 'PUT', url, token, body, lang });
const get = (url: string) => call(h, { method: 'GET', url, token });

async function job(extra: Body = {}) {
  const res = await post('/ec/jobs', { nameAr: unique('وظيفة'), nameEn: unique('Job'), ...extra });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data.id as number;
}
async function department(extra: Body = {}) {
  const res = await post('/ec/departments', { nameAr: unique('إدارة'), nameEn: unique('Dept'), ...extra });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data.id as number;
}
async function employee(departmentId: number, jobId: number, extra: Body = {}) {
  const res = await post('/ec/employees', {
    firstNameAr: 'أحمد',
    lastNameAr: 'العتيبي',
    firstNameEn: 'Ahmad',
    lastNameEn: 'Alotaibi',
    departmentId,
    jobId,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data.id as number;
}

async function upload(method: 'PUT' | 'POST', url: string, bytes: Buffer, name: string, type: string) {
  const { payload, headers } = multipart(bytes, name, type);
  const res = await h.app.inject({
    method,
    url,
    payload,
    headers: { ...headers, authorization: `Bearer ${token}`, 'accept-language': 'en' },
  });
  return {
    status: res.statusCode,
    json: res.json() as { data: Body; detail?: string; returnMessage?: string },
  };
}

describe('jobs', () => {
  it('adds, edits, refuses duplicate names per language (409 with the field) and deactivates', async () => {
    const nameAr = unique('مدير');
    const created = await post('/ec/jobs', { nameAr, nameEn: unique('Manager'), isManager: true }, 'en');
    expect(created.status).toBe(201);
    expect(created.json.returnMessage).toBe('Job added successfully');
    expect(created.json.data).toMatchObject({ nameAr, isManager: true, active: true, employeeCount: 0 });
    const dup = await post('/ec/jobs', { nameAr, nameEn: unique('Other') }, 'en');
    expect(dup.status).toBe(409);
    expect(dup.json.errors.nameAr).toEqual(['This value is already in use']);
    const dupEn = await post('/ec/jobs', {
      nameAr: unique('آخر'),
      nameEn: created.json.data.nameEn.toUpperCase(),
    });
    expect(dupEn.status).toBe(409);
    expect(dupEn.json.errors.nameEn).toBeDefined();
    const id = created.json.data.id;
    expect((await put(`/ec/jobs/${id}`, { isManager: false })).json.data.isManager).toBe(false);
    const off = await put(`/ec/jobs/${id}/active`, { active: false }, 'ar');
    expect(off.json.data.active).toBe(false);
    expect(off.json.returnMessage).toBe('تم الإيقاف بنجاح');
    const options = await get('/ec/jobs/options');
    expect(options.json.data.map((j: { id: number }) => j.id)).not.toContain(id);
    const list = await get(
      `/ec/jobs?filters=${encodeURIComponent(JSON.stringify({ isManager: { constraints: [{ value: false, matchMode: 'equals' }] } }))}`,
    );
    expect(list.status).toBe(200);
    expect(list.json.data.items.every((j: { isManager: boolean }) => !j.isManager)).toBe(true);
  });
});

describe('departments', () => {
  it('builds a tree, refuses cycles and type mismatches, and moves a branch', async () => {
    const root = await department({ nameAr: 'الوزارة التجريبية', nameEn: 'Test Ministry' });
    const child = await department({ parentId: root });
    const grandchild = await department({ parentId: child });
    const cycle = await put(`/ec/departments/${root}`, { parentId: grandchild }, 'en');
    expect(cycle.status).toBe(422);
    expect(cycle.json.errors.parentId).toEqual([
      'A department cannot be moved under itself or one of its sub-departments',
    ]);
    expect((await put(`/ec/departments/${child}`, { parentId: child })).status).toBe(422);
    const external = await post('/ec/departments', {
      nameAr: unique('جهة'),
      nameEn: unique('Entity'),
      parentId: root,
      type: 'external',
    });
    expect(external.status).toBe(422);
    expect(external.json.code).toBe('directory.parentTypeMismatch');
    // Move the grandchild to the top: it becomes a main department.
    const moved = await put(`/ec/departments/${grandchild}`, { parentId: null });
    expect(moved.status).toBe(200);
    expect(moved.json.data.parentId).toBeNull();
    const tree = await get('/ec/departments/tree?type=internal');
    const rootNode = tree.json.data.roots.find((n: { id: number }) => n.id === root);
    expect(rootNode.children.map((n: { id: number }) => n.id)).toEqual([child]);
    // Type change refused once it has children.
    expect((await put(`/ec/departments/${root}`, { type: 'external' })).status).toBe(422);
    // No delete route exists: departments with history are deactivated, never deleted.
    expect((await call(h, { method: 'DELETE', url: `/ec/departments/${root}`, token })).status).toBe(404);
  });

  it('deactivation needs cascade when active children exist; activation needs an active parent', async () => {
    const root = await department();
    const child = await department({ parentId: root });
    const leaf = await department({ parentId: child });
    const refused = await put(`/ec/departments/${root}/active`, { active: false }, 'en');
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('directory.activeChildren');
    const cascade = await put(`/ec/departments/${root}/active?cascade=true`, { active: false });
    expect(cascade.status).toBe(200);
    const rows = await h.query<{ id: number; active: boolean }>(
      `select id, active from departments where id in (${root}, ${child}, ${leaf})`,
    );
    expect(rows.every((r) => r.active === false)).toBe(true);
    expect((await put(`/ec/departments/${child}/active`, { active: true })).json.code).toBe(
      'directory.parentInactive',
    );
    expect((await put(`/ec/departments/${root}/active`, { active: true })).status).toBe(200);
    // Hidden from pickers while inactive; shown with includeInactive.
    const options = await get('/ec/departments/options');
    const ids = options.json.data.map((d: { id: number }) => d.id);
    expect(ids).toContain(root);
    expect(ids).not.toContain(child);
    const all = await get('/ec/departments/options?includeInactive=true');
    expect(all.json.data.map((d: { id: number }) => d.id)).toContain(child);
    const activeTree = await get('/ec/departments/tree?active=true');
    const node = activeTree.json.data.roots.find((n: { id: number }) => n.id === root);
    expect(node.children).toEqual([]);
    const audit = await h.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'departments.deactivate' and target_id = '${root}'`,
    );
    expect(audit[0]!.n).toBe(1);
  });

  it('searches both languages with Arabic normalised (اداره finds إدارة)', async () => {
    const id = await department({ nameAr: 'إدارةُ الشؤونِ القانونيّة', nameEn: 'Legal Affairs Directorate' });
    const child = await department({ nameAr: 'قسم العقود', nameEn: 'Contracts Section', parentId: id });
    for (const q of ['اداره الشؤون', 'اداره', 'legal AFFAIRS', 'القانونيه']) {
      const list = await get(`/ec/departments?q=${encodeURIComponent(q)}`);
      expect(
        list.json.data.items.map((d: { id: number }) => d.id),
        q,
      ).toContain(id);
    }
    const tree = await get(`/ec/departments/tree?q=${encodeURIComponent('العقود')}`);
    const node = tree.json.data.roots.find((n: { id: number }) => n.id === id);
    expect(node.matched).toBe(false);
    expect(node.children[0]).toMatchObject({ id: child, matched: true });
    const picker = await get(`/ec/departments/options?q=${encodeURIComponent('اداره الشؤون')}`);
    expect(picker.json.data.map((d: { id: number }) => d.id)).toContain(id);
  });

  it('configures archive office, manager and secretary office', async () => {
    const archive = await department({ archiveType: 'inOut' });
    const d = await department();
    const j = await job({ isManager: true });
    const manager = await employee(d, j);
    const secretary = await employee(d, j);
    const notArchive = await put(`/ec/departments/${d}/configure`, { archiveOfficeId: d });
    expect(notArchive.status).toBe(422);
    const res = await put(`/ec/departments/${d}/configure`, {
      archiveOfficeId: archive,
      managerEmployeeId: manager,
      secretaryEmployeeId: secretary,
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      archiveOffice: { id: archive },
      manager: { id: manager, nameEn: 'Ahmad Alotaibi' },
      secretaryOffice: { active: true, secretary: { id: secretary } },
    });
    const offices = await get(
      `/ec/secretary-offices?filters=${encodeURIComponent(JSON.stringify({ departmentId: { constraints: [{ value: d, matchMode: 'equals' }] } }))}`,
    );
    expect(offices.json.data.total).toBe(1);
    const cleared = await put(`/ec/departments/${d}/configure`, { secretaryEmployeeId: null });
    expect(cleared.json.data.secretaryOffice.active).toBe(false);
  });
});

describe('employees', () => {
  it('creates an employee with a user account in one step; the account signs in and is linked both ways', async () => {
    const d = await department();
    const j = await job();
    const role = await makeRole(h, { '/ec/employees': ['view'] });
    const username = unique('emp');
    const res = await post(
      '/ec/employees',
      {
        firstNameAr: 'سارة',
        lastNameAr: 'القحطاني',
        firstNameEn: 'Sara',
        lastNameEn: 'Alqahtani',
        phoneNumber: '+966 50 123 4567',
        dateOfBirth: '1990-05-01',
        hireDate: '2020-01-15',
        employeeType: 'contract',
        departmentId: d,
        jobId: j,
        user: { username, email: `${username}@example.com`, roleId: role, password: 'secret-pass-1' },
      },
      'en',
    );
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.returnMessage).toBe('Employee added successfully');
    expect(res.json.data).toMatchObject({
      nameAr: 'سارة القحطاني',
      employeeType: 'contract',
      hireDate: '2020-01-15',
      user: { username, role: { id: role }, active: true },
    });
    const id = res.json.data.id;
    await h.query(`update users set two_factor_skipped_at = now() where username = '${username}'`);
    const userToken = await signIn(h, { username, password: 'secret-pass-1' });
    const profile = await call(h, { method: 'GET', url: '/auth/profile', token: userToken });
    expect(profile.json.data.employee).toEqual({ id });
    // Deactivating the employee deactivates the account and ends its sessions.
    const off = await put(`/ec/employees/${id}/active`, { active: false });
    expect(off.json.data.user.active).toBe(false);
    expect((await call(h, { method: 'GET', url: '/auth/profile', token: userToken })).status).toBe(401);
  });

  it('rolls the employee back when its account cannot be created (duplicate username: 409, nothing left)', async () => {
    const d = await department();
    const j = await job();
    const existing = await makeUser(h, await makeRole(h));
    const before = await countRows(h, 'employees');
    const usersBefore = await countRows(h, 'users');
    const res = await post(
      '/ec/employees',
      {
        firstNameAr: 'خالد',
        lastNameAr: 'الحربي',
        firstNameEn: 'Khalid',
        lastNameEn: 'Alharbi',
        departmentId: d,
        jobId: j,
        user: {
          username: existing.username,
          email: 'fresh@example.com',
          roleId: 1,
          password: 'secret-pass-1',
        },
      },
      'en',
    );
    expect(res.status).toBe(409);
    expect(res.json.errors['user.username']).toEqual(['This value is already in use']);
    expect(await countRows(h, 'employees')).toBe(before);
    expect(await countRows(h, 'users')).toBe(usersBefore);
    const badRole = await post('/ec/employees', {
      firstNameAr: 'خالد',
      lastNameAr: 'الحربي',
      firstNameEn: 'Khalid',
      lastNameEn: 'Alharbi',
      departmentId: d,
      jobId: j,
      user: {
        username: unique('x'),
        email: `${unique('x')}@example.com`,
        roleId: 999999,
        password: 'secret-pass-1',
      },
    });
    expect(badRole.status).toBe(400);
    expect(await countRows(h, 'employees')).toBe(before);
  });

  it('links an existing account, refuses linking it twice, and unlinks', async () => {
    const d = await department();
    const j = await job();
    const user = await makeUser(h, await makeRole(h));
    const a = await employee(d, j, { userId: user.id });
    const linked = await h.query<{ employee_id: number }>(
      `select employee_id from users where id = ${user.id}`,
    );
    expect(linked[0]!.employee_id).toBe(a);
    const b = await employee(d, j);
    const twice = await put(`/ec/employees/${b}`, { userId: user.id });
    expect(twice.status).toBe(409);
    expect((await put(`/ec/employees/${a}`, { userId: null })).json.data.user).toBeNull();
    const unlinked = await h.query<{ employee_id: number | null }>(
      `select employee_id from users where id = ${user.id}`,
    );
    expect(unlinked[0]!.employee_id).toBeNull();
  });

  it('refuses inactive or external departments and inactive jobs', async () => {
    const d = await department();
    const ext = await department({ type: 'external' });
    const j = await job();
    const body = {
      firstNameAr: 'علي',
      lastNameAr: 'سالم',
      firstNameEn: 'Ali',
      lastNameEn: 'Salem',
      jobId: j,
    };
    expect((await post('/ec/employees', { ...body, departmentId: ext })).status).toBe(422);
    await put(`/ec/jobs/${j}/active`, { active: false });
    expect((await post('/ec/employees', { ...body, departmentId: d })).json.errors.jobId).toBeDefined();
  });

  it('lists with match modes and searches names in both scripts, normalised', async () => {
    const d = await department();
    const j = await job();
    const id = await employee(d, j, {
      firstNameAr: 'إبراهيم',
      lastNameAr: 'الزهراني',
      firstNameEn: 'Ibrahim',
      lastNameEn: 'Alzahrani',
      hireDate: '2024-03-01',
    });
    for (const q of ['ابراهيم', 'إبراهيم الزهراني', 'ibrahim']) {
      const res = await get(`/ec/employees?q=${encodeURIComponent(q)}`);
      expect(
        res.json.data.items.map((e: { id: number }) => e.id),
        q,
      ).toContain(id);
    }
    const filters = {
      name: { constraints: [{ value: 'ابراهيم', matchMode: 'contains' }] },
      departmentId: { constraints: [{ value: d, matchMode: 'equals' }] },
      hireDate: { constraints: [{ value: '2024-01-01', matchMode: 'dateAfter' }] },
    };
    const res = await get(
      `/ec/employees?filters=${encodeURIComponent(JSON.stringify(filters))}&sort=-hireDate`,
    );
    expect(res.status).toBe(200);
    expect(res.json.data.items.map((e: { id: number }) => e.id)).toEqual([id]);
    const options = await get(`/ec/employees/options?q=${encodeURIComponent('الزهراني')}&departmentId=${d}`);
    expect(options.json.data).toEqual([
      { id, nameAr: 'إبراهيم الزهراني', nameEn: 'Ibrahim Alzahrani', departmentId: d, jobId: j },
    ]);
    const dash = await get('/ec/employees/dashboard');
    expect(dash.status).toBe(200);
    expect(dash.json.data.totals.employees).toBeGreaterThan(0);
    expect(dash.json.data.byType.length).toBeGreaterThan(0);
  });

  it('answers field messages in Arabic and English for bad input', async () => {
    const bad = {
      firstNameAr: '',
      lastNameAr: 'x1',
      firstNameEn: 'A',
      lastNameEn: 'B',
      departmentId: 'one',
      jobId: 1,
      dateOfBirth: '1990-02-30',
      phoneNumber: 'call me',
      extra: true,
    };
    const en = await post('/ec/employees', bad, 'en');
    expect(en.status).toBe(400);
    expect(en.json.errors).toMatchObject({
      firstNameAr: ['This field is required'],
      lastNameAr: ['Please enter a valid name'],
      departmentId: ['Please enter a valid number'],
      dateOfBirth: ['Please enter a valid date'],
      phoneNumber: ['Please enter a valid phone number'],
      extra: ['This field is not allowed'],
    });
    const ar = await post('/ec/employees', bad, 'ar');
    expect(ar.json.errors.phoneNumber).toEqual(['يرجى إدخال رقم هاتف صحيح']);
    expect(ar.json.errors.firstNameAr).toEqual(['هذا الحقل مطلوب']);
    const job = await post('/ec/jobs', { nameAr: '', nameEn: 'x'.repeat(201) }, 'en');
    expect(job.json.errors).toMatchObject({
      nameAr: ['This field is required'],
      nameEn: ['Maximum length is 200'],
    });
  });
});

describe('secretary offices', () => {
  it('one per department; the secretary must be an active employee', async () => {
    const d = await department();
    const j = await job();
    const s = await employee(d, j);
    const created = await post('/ec/secretary-offices', { departmentId: d, secretaryEmployeeId: s }, 'en');
    expect(created.status).toBe(201);
    expect(created.json.returnMessage).toBe('Secretary office added successfully');
    expect((await post('/ec/secretary-offices', { departmentId: d, secretaryEmployeeId: s })).status).toBe(
      409,
    );
    const other = await employee(d, j);
    await put(`/ec/employees/${other}/active`, { active: false });
    const inactive = await put(
      `/ec/secretary-offices/${created.json.data.id}`,
      { secretaryEmployeeId: other },
      'en',
    );
    expect(inactive.status).toBe(422);
    expect(inactive.json.errors.secretaryEmployeeId).toEqual(['The employee must be active']);
    const list = await get(`/ec/secretary-offices?q=${encodeURIComponent('احمد')}`);
    expect(list.json.data.items.map((o: { id: number }) => o.id)).toContain(created.json.data.id);
  });
});

describe('uploads', () => {
  it('stores a PDF attachment by content and downloads the same bytes', async () => {
    const id = await employee(await department(), await job());
    const pdf = minimalPdf('contract');
    const up = await upload(
      'POST',
      `/ec/employees/${id}/attachments`,
      pdf,
      'عقد العمل.pdf',
      'application/pdf',
    );
    expect(up.status, JSON.stringify(up.json)).toBe(201);
    expect(up.json.returnMessage).toBe('Attachment uploaded successfully');
    expect(up.json.data).toMatchObject({
      fileName: 'عقد العمل.pdf',
      size: pdf.length,
      mime: 'application/pdf',
    });
    const list = await get(`/ec/employees/${id}/attachments`);
    expect(list.json.data).toHaveLength(1);
    const res = await h.app.inject({
      method: 'GET',
      url: `/ec/employees/${id}/attachments/${up.json.data.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent('عقد العمل.pdf')}`,
    );
    expect(Buffer.compare(res.rawPayload, pdf)).toBe(0);
    const del = await call(h, {
      method: 'DELETE',
      url: `/ec/employees/${id}/attachments/${up.json.data.id}`,
      token,
    });
    expect(del.status).toBe(200);
    expect((await get(`/ec/employees/${id}/attachments`)).json.data).toEqual([]);
  });

  it('refuses a PNG named .pdf and a broken PDF (415), and an oversized file (413)', async () => {
    const id = await employee(await department(), await job());
    const fake = await upload(
      'POST',
      `/ec/employees/${id}/attachments`,
      await png(20, 20),
      'scan.pdf',
      'application/pdf',
    );
    expect(fake.status).toBe(415);
    expect(fake.json.detail).toBe('Please select a valid PDF file');
    const broken = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200, 65)]);
    expect(
      (await upload('POST', `/ec/employees/${id}/attachments`, broken, 'b.pdf', 'application/pdf')).status,
    ).toBe(415);
    const big = Buffer.concat([minimalPdf(), Buffer.alloc(70 * 1024, 32)]);
    const tooBig = await upload('POST', `/ec/employees/${id}/attachments`, big, 'big.pdf', 'application/pdf');
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.detail).toBe('File size must be less than 64 KB');
    expect(await countRows(h, 'employee_attachments')).toBe(0);
  });

  it('checks the profile picture by content and resizes it to at most 512 px (WebP)', async () => {
    const id = await employee(await department(), await job());
    const notImage = await upload('PUT', `/ec/employees/${id}/photo`, minimalPdf(), 'me.png', 'image/png');
    expect(notImage.status).toBe(415);
    expect(notImage.json.detail).toBe('Please select a valid image (JPEG, PNG or WebP)');
    const big = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#2a6' } })
      .jpeg({ quality: 40 })
      .toBuffer();
    const ok = await upload('PUT', `/ec/employees/${id}/photo`, big, 'me.jpg', 'image/jpeg');
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    expect(ok.json.data.hasPhoto).toBe(true);
    const res = await h.app.inject({
      method: 'GET',
      url: `/ec/employees/${id}/photo`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.headers['content-type']).toBe('image/webp');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBe(512);
    const dataUrl = await get(`/ec/employees/${id}/photo?format=dataUrl`);
    expect(dataUrl.json.data.dataUrl).toMatch(/^data:image\/webp;base64,/);
  });
});

describe('access', () => {
  it('pickers need only a session; page routes need the page permission', async () => {
    const t = await signIn(h, await makeUser(h, await makeRole(h)));
    expect((await call(h, { method: 'GET', url: '/ec/departments/options', token: t })).status).toBe(200);
    expect((await call(h, { method: 'GET', url: '/ec/employees/options', token: t })).status).toBe(200);
    expect((await call(h, { method: 'GET', url: '/ec/departments/tree', token: t })).status).toBe(403);
    const viewer = await signIn(h, await makeUser(h, await makeRole(h, { '/ec/departments': ['view'] })));
    expect((await call(h, { method: 'GET', url: '/ec/departments/tree', token: viewer })).status).toBe(200);
    expect(
      (
        await call(h, {
          method: 'POST',
          url: '/ec/departments',
          token: viewer,
          body: { nameAr: 'x', nameEn: 'x' },
        })
      ).status,
    ).toBe(403);
  });
});
