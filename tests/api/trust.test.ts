/**
 * What an attack on the server found, each as a family: privilege escalation through the users, roles,
 * pages and employee-account paths; lockout by account whatever name is typed; the same security headers
 * on every answer; uploads (active content, names with bidi controls, more than one file, malformed
 * multipart); canonical ids only; related documents and timelines that never reveal an invisible document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { letter, organisation, type Org } from './support/correspondence';
import { minimalPdf, multipart, objectStream, pdfWith } from './support/files';

let h: Harness;
let org: Org;
let adminToken: string;
let adminId: number;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
  const admin = await makeUser(h, 'admin');
  adminId = admin.id;
  adminToken = await signIn(h, admin);
});
afterAll(async () => {
  await h?.close();
});

const USERS_ONLY = { '/auth/users': ['view', 'edit', 'add', 'activate'] } as const;

async function userManager() {
  const role = await makeRole(h, USERS_ONLY as unknown as Record<string, ('view' | 'edit')[]>);
  const user = await makeUser(h, role);
  return { role, user, token: await signIn(h, user) };
}

async function systemRoleId(): Promise<number> {
  const [row] = await h.query<{ id: number }>('select id from roles where is_system limit 1');
  return Number(row!.id);
}

describe('privilege escalation', () => {
  it('a user manager cannot give themselves the administrator role, nor any role', async () => {
    const m = await userManager();
    const admin = await systemRoleId();
    const self = await call(h, {
      method: 'PUT',
      url: `/auth/users/${m.user.id}`,
      token: m.token,
      body: { roleId: admin },
      lang: 'en',
    });
    expect(self.status).toBe(403);
    expect(self.json.detail).toMatch(/own role/);
    const lesser = await makeRole(h, { '/auth/users': ['view'] });
    const own = await call(h, {
      method: 'PUT',
      url: `/auth/users/${m.user.id}`,
      token: m.token,
      body: { roleId: lesser },
    });
    expect(own.status).toBe(403);
    const [row] = await h.query<{ role_id: number }>(`select role_id from users where id = ${m.user.id}`);
    expect(Number(row!.role_id)).toBe(m.role);
  });

  it('grants only roles within their own permissions, to new and existing accounts', async () => {
    const m = await userManager();
    const admin = await systemRoleId();
    const bigger = await makeRole(h, { '/auth/users': ['view'], '/auth/roles': ['view', 'edit'] });
    const smaller = await makeRole(h, { '/auth/users': ['view'] });
    const victim = await makeUser(h, smaller);
    const users = await countRows(h, 'users');
    for (const roleId of [admin, bigger]) {
      const created = await call(h, {
        method: 'POST',
        url: '/auth/users',
        token: m.token,
        body: {
          username: `esc${roleId}`,
          email: `esc${roleId}@example.com`,
          nameAr: 'س',
          nameEn: 'E',
          roleId,
          password: 'secret-1',
          passwordConfirmation: 'secret-1',
        },
      });
      expect(created.status).toBe(403);
      const promoted = await call(h, {
        method: 'PUT',
        url: `/auth/users/${victim.id}`,
        token: m.token,
        body: { roleId },
      });
      expect(promoted.status).toBe(403);
    }
    expect(await countRows(h, 'users')).toBe(users);
    // Within their own permissions it works, and the audit names the change.
    const ok = await call(h, {
      method: 'PUT',
      url: `/auth/users/${victim.id}`,
      token: m.token,
      body: { roleId: m.role },
    });
    expect(ok.status).toBe(200);
    const [audit] = await h.query<{ details: Record<string, unknown> | string }>(
      `select details from audit_log where action = 'users.update' and target_id = '${victim.id}' order by id desc limit 1`,
    );
    const details = typeof audit!.details === 'string' ? JSON.parse(audit!.details) : audit!.details;
    expect(details).toMatchObject({ roleFrom: smaller, roleTo: m.role });
  });

  it('cannot set, reset, deactivate or rename an administrator, who then still signs in', async () => {
    const m = await userManager();
    const admin = await makeUser(h, 'admin', { password: 'admin-pass-1' });
    const attempts = [
      {
        method: 'PUT' as const,
        url: `/auth/users/${admin.id}/password`,
        body: { password: 'owned-123', passwordConfirmation: 'owned-123' },
      },
      { method: 'POST' as const, url: `/auth/users/${admin.id}/reset-password` },
      { method: 'PUT' as const, url: `/auth/users/${admin.id}/active`, body: { active: false } },
      { method: 'PUT' as const, url: `/auth/users/${admin.id}`, body: { email: 'mine@example.com' } },
    ];
    for (const a of attempts) {
      const res = await call(h, { ...a, token: m.token });
      expect(res.status, `${a.method} ${a.url}`).toBe(403);
    }
    expect(await signIn(h, { username: admin.username, password: 'admin-pass-1' })).toBeTruthy();
    // The administrator may.
    const byAdmin = await call(h, {
      method: 'PUT',
      url: `/auth/users/${m.user.id}/active`,
      token: adminToken,
      body: { active: false },
    });
    expect(byAdmin.status).toBe(200);
  });

  it('a role manager cannot give a role more than they hold, nor edit their own role', async () => {
    const managerRole = await makeRole(h, { '/auth/roles': ['view', 'edit', 'add', 'activate'] });
    const token = await signIn(h, await makeUser(h, managerRole));
    const target = await makeRole(h, { '/auth/roles': ['view'] });
    const pages = await h.query<{ id: number; path: string }>(`select id, path from pages`);
    const pageId = (path: string) => Number(pages.find((p) => p.path === path)!.id);
    const matrix = (entries: { pageId: number; permissions: string[] }[]) => ({ entries });
    const tooMuch = await call(h, {
      method: 'PUT',
      url: `/auth/roles/${target}/permissions`,
      token,
      body: matrix([{ pageId: pageId('/auth/users'), permissions: ['view', 'edit'] }]),
    });
    expect(tooMuch.status).toBe(403);
    const ownRole = await call(h, {
      method: 'PUT',
      url: `/auth/roles/${managerRole}/permissions`,
      token,
      body: matrix([
        { pageId: pageId('/auth/roles'), permissions: ['view', 'edit', 'add', 'activate'] },
        { pageId: pageId('/auth/users'), permissions: ['view'] },
      ]),
    });
    expect(ownRole.status).toBe(403);
    const bigger = await makeRole(h, { '/auth/roles': ['view'], '/auth/users': ['view'] });
    for (const req of [
      { method: 'PUT' as const, url: `/auth/roles/${bigger}/active`, body: { active: false } },
      { method: 'PUT' as const, url: `/auth/roles/${bigger}`, body: { nameEn: 'Renamed' } },
      {
        method: 'PUT' as const,
        url: `/auth/roles/${await systemRoleId()}`,
        body: { requireTwoFactor: false },
      },
    ]) {
      expect((await call(h, { ...req, token })).status, req.url).toBe(403);
    }
    const within = await call(h, {
      method: 'PUT',
      url: `/auth/roles/${target}/permissions`,
      token,
      body: matrix([{ pageId: pageId('/auth/roles'), permissions: ['view', 'edit'] }]),
    });
    expect(within.status).toBe(200);
    const [audit] = await h.query<{ details: Record<string, unknown> | string }>(
      `select details from audit_log where action = 'roles.permissions' and target_id = '${target}' order by id desc limit 1`,
    );
    const details = typeof audit!.details === 'string' ? JSON.parse(audit!.details) : audit!.details;
    expect(details.granted).toEqual(['/auth/roles:edit']);
  });

  it('a pages editor cannot move a page path onto a page they lack, nor add pages', async () => {
    const role = await makeRole(h, { '/auth/pages': ['view', 'edit', 'add'], '/user/calendar': ['view'] });
    const token = await signIn(h, await makeUser(h, role));
    const [calendar] = await h.query<{ id: number }>(`select id from pages where path = '/user/calendar'`);
    const moved = await call(h, {
      method: 'PUT',
      url: `/auth/pages/${calendar!.id}`,
      token,
      body: { path: '/auth/roles-x' },
    });
    expect(moved.status).toBe(403);
    const added = await call(h, {
      method: 'POST',
      url: '/auth/pages',
      token,
      body: {
        parentId: null,
        nameAr: 'قسم',
        nameEn: 'Section',
        path: '/mine',
        icon: 'AppstoreOutlined',
        order: 1,
        availablePermissions: ['view'],
      },
    });
    expect(added.status).toBe(403);
    const renamed = await call(h, {
      method: 'PUT',
      url: `/auth/pages/${calendar!.id}`,
      token,
      body: { nameEn: 'My calendar' },
    });
    expect(renamed.status).toBe(200);
  });

  it('the employee centre cannot create an administrator account or take one over', async () => {
    const role = await makeRole(h, { '/ec/employees': ['view', 'add', 'edit', 'activate'] });
    const token = await signIn(h, await makeUser(h, role));
    const [job] = await h.query<{ id: number }>('select id from jobs limit 1');
    const base = {
      firstNameAr: 'أ',
      lastNameAr: 'ب',
      firstNameEn: 'A',
      lastNameEn: 'B',
      departmentId: org.deptA,
      jobId: Number(job!.id),
    };
    const created = await call(h, {
      method: 'POST',
      url: '/ec/employees',
      token,
      body: {
        ...base,
        user: {
          username: 'ecadmin',
          email: 'ecadmin@example.com',
          roleId: await systemRoleId(),
          password: 'secret-1',
          passwordConfirmation: 'secret-1',
        },
      },
    });
    expect(created.status).toBe(403);
    const linked = await call(h, {
      method: 'POST',
      url: '/ec/employees',
      token,
      body: { ...base, userId: adminId },
    });
    expect(linked.status).toBe(403);
  });
});

describe('lockout by account', () => {
  it('five failures on the username lock the e-mail address and other spellings too', async () => {
    const user = await makeUser(h, 'admin', { password: 'right-pass-1' });
    for (let i = 0; i < 5; i++) {
      const res = await call(h, {
        method: 'POST',
        url: '/auth/login',
        body: { login: user.username, password: 'wrong-pass' },
      });
      expect(res.status).toBe(401);
    }
    for (const login of [user.email, user.email.toUpperCase(), ` ${user.username.toUpperCase()} `]) {
      const res = await call(h, {
        method: 'POST',
        url: '/auth/login',
        body: { login, password: 'right-pass-1' },
      });
      expect(res.status, login).toBe(429);
    }
  });

  it('an unknown login still locks, so a lockout tells nothing', async () => {
    for (let i = 0; i < 5; i++)
      await call(h, {
        method: 'POST',
        url: '/auth/login',
        body: { login: 'nobody-here', password: 'wrong-pass' },
      });
    const res = await call(h, {
      method: 'POST',
      url: '/auth/login',
      body: { login: 'NOBODY-HERE', password: 'x-pass-1' },
    });
    expect(res.status).toBe(429);
  });
});

describe('security headers on every answer', () => {
  it('200, 400, 401, 403, 404, 413 and 415 carry the same security headers', async () => {
    const nobody = await signIn(h, await makeUser(h, await makeRole(h)));
    const answers = [
      await h.app.inject({ url: '/health' }),
      await h.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
      await h.app.inject({ url: '/auth/users' }),
      await h.app.inject({ url: '/auth/users', headers: { authorization: `Bearer ${nobody}` } }),
      await h.app.inject({ url: '/no/such/route' }),
      await h.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ login: 'x'.repeat(2_000_000) }),
      }),
    ];
    const draft = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: letter(org),
    });
    const notPdf = multipart(Buffer.from('hello, not a PDF'), 'a.pdf', 'application/pdf');
    answers.push(
      await h.app.inject({
        method: 'POST',
        url: `/correspondence/documents/${draft.json.data.id}/attachments`,
        headers: { authorization: `Bearer ${org.clerk.token}`, ...notPdf.headers },
        payload: notPdf.payload,
      }),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 400, 401, 403, 404, 413, 415]);
    const names = [
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'strict-transport-security',
      'referrer-policy',
      'cross-origin-opener-policy',
    ];
    for (const a of answers) {
      for (const n of names) expect(a.headers[n], `${a.statusCode} ${n}`).toBeTruthy();
    }
  });
});

describe('uploads', () => {
  let docId: number;
  beforeAll(async () => {
    const res = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: letter(org),
    });
    docId = res.json.data.id;
  });
  const send = async (payload: Buffer | string, headers: Record<string, string>) =>
    h.app.inject({
      method: 'POST',
      url: `/correspondence/documents/${docId}/attachments`,
      headers: { authorization: `Bearer ${org.clerk.token}`, 'accept-language': 'en', ...headers },
      payload,
    });
  const upload = (bytes: Buffer, name = 'letter.pdf') => {
    const m = multipart(bytes, name, 'application/pdf');
    return send(m.payload, m.headers);
  };

  const ACTIVE: [string, Buffer][] = [
    [
      'OpenAction JavaScript',
      pdfWith({ catalog: '/OpenAction 5 0 R', objects: ['<< /S /JavaScript /JS (app.alert\\(1\\)) >>'] }),
    ],
    [
      'names-tree JavaScript',
      pdfWith({
        catalog: '/Names << /JavaScript 5 0 R >>',
        objects: ['<< /Names [(a) 6 0 R] >>', '<< /S /JavaScript /JS (this.print\\(\\)) >>'],
      }),
    ],
    ['Launch action', pdfWith({ catalog: '/OpenAction << /S /Launch /F (calc.exe) >>' })],
    [
      'annotation JavaScript',
      pdfWith({
        page: '/Annots [5 0 R]',
        objects: ['<< /Type /Annot /Subtype /Link /Rect [0 0 50 50] /A << /S /JavaScript /JS (x) >> >>'],
      }),
    ],
    ['page additional action', pdfWith({ page: '/AA << /O << /S /JavaScript /JS (x) >> >>' })],
    ['hex-escaped name', pdfWith({ catalog: '/OpenAction << /S /J#61vaScript /JS (x) >>' })],
    [
      'JavaScript inside a compressed object stream',
      pdfWith({
        catalog: '/OpenAction 6 0 R',
        objects: [objectStream(6, ['<< /S /JavaScript /JS (app.alert\\(1\\)) >>'])],
      }),
    ],
  ];
  for (const [name, bytes] of ACTIVE) {
    it(`refuses a PDF with ${name}, with a sentence naming why, storing nothing`, async () => {
      const before = await countRows(h, 'document_attachments');
      const res = await upload(bytes);
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toMatch(/active content/);
      expect(await countRows(h, 'document_attachments')).toBe(before);
    });
  }

  it('keeps a clean PDF, and strips bidi controls and folders from its name', async () => {
    const res = await upload(minimalPdf('clean'), '..\\evil/فاتورة\u202Efdp.exe');
    expect(res.statusCode).toBe(201);
    expect(res.json().data.fileName).toBe('فاتورةfdp.exe');
  });

  it('refuses a second file in one request instead of dropping it', async () => {
    const a = multipart(minimalPdf('one'), 'a.pdf', 'application/pdf');
    const boundary = a.headers['content-type']!.split('boundary=')[1]!;
    const second = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const payload = Buffer.concat([
      a.payload.subarray(0, a.payload.length - `--${boundary}--\r\n`.length),
      second,
      minimalPdf('two'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const before = await countRows(h, 'document_attachments');
    const res = await send(payload, a.headers);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/one file/);
    expect(await countRows(h, 'document_attachments')).toBe(before);
  });

  it('malformed multipart is a 400, not a 500', async () => {
    const body = minimalPdf('x');
    for (const headers of [
      { 'content-type': 'multipart/form-data' },
      { 'content-type': 'multipart/form-data; boundary=nope' },
    ]) {
      expect((await send(body, headers)).statusCode).toBe(400);
    }
    const m = multipart(body, 'a.pdf', 'application/pdf');
    expect((await send(m.payload.subarray(0, 200), m.headers)).statusCode).toBe(400);
  });
});

describe('ids are canonical decimals', () => {
  it('0x10, %201, 1e1, 01 and +1 are not ids', async () => {
    for (const id of ['0x10', '%201', '1e1', '01', '+1', '1.0', '2147483648']) {
      const res = await call(h, { method: 'GET', url: `/ec/departments/${id}`, token: adminToken });
      expect(res.status, id).toBe(400);
    }
    expect(
      (await call(h, { method: 'GET', url: `/ec/departments/${org.deptA}`, token: adminToken })).status,
    ).toBe(200);
  });
});

describe('related documents and the visibility of the other end', () => {
  it('cannot unlink a document one cannot see, and the timeline hides it', async () => {
    // A letter only the archive sees (never distributed to B), related to one B receives.
    const visible = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: { ...letter(org, { recipientDepartmentId: org.deptB }), register: true },
    });
    const hidden = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: { ...letter(org, { subject: 'لا يراها إلا الأرشيف' }), register: true },
    });
    expect(visible.status, JSON.stringify(visible.json)).toBe(201);
    expect(hidden.status, JSON.stringify(hidden.json)).toBe(201);
    const v = visible.json.data.id as number;
    const s = hidden.json.data.id as number;
    expect(
      (
        await call(h, {
          method: 'POST',
          url: `/correspondence/documents/${v}/related`,
          token: org.clerk.token,
          body: { documentIds: [s] },
        })
      ).status,
    ).toBe(200);
    const dist = await call(h, {
      method: 'POST',
      url: `/correspondence/documents/${v}/distribution`,
      token: org.clerk.token,
      body: { items: [{ departmentId: org.deptB, type: 'forAction' }] },
    });
    expect(dist.status, JSON.stringify(dist.json)).toBe(200);
    const viewer = org.managerB;
    expect(
      (await call(h, { method: 'GET', url: `/correspondence/documents/${v}`, token: viewer.token })).status,
    ).toBe(200);
    expect(
      (await call(h, { method: 'GET', url: `/correspondence/documents/${s}`, token: viewer.token })).status,
    ).toBe(404);
    const events = await countRows(h, 'document_events');
    const unlink = await call(h, {
      method: 'DELETE',
      url: `/correspondence/documents/${v}/related/${s}`,
      token: viewer.token,
    });
    expect(unlink.status).toBe(404);
    expect(await countRows(h, 'document_events')).toBe(events);
    const timeline = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${v}/timeline`,
      token: viewer.token,
    });
    expect(timeline.status).toBe(200);
    const related = timeline.json.data.filter((e: { event: string }) => e.event === 'related');
    expect(related.length).toBe(1);
    expect(JSON.stringify(related[0].details)).not.toContain(String(s));
    expect(related[0].details).toEqual({ hidden: true });
    // The clerk, who sees both, still sees which.
    const clerkView = await call(h, {
      method: 'GET',
      url: `/correspondence/documents/${v}/timeline`,
      token: org.clerk.token,
    });
    expect(clerkView.json.data.find((e: { event: string }) => e.event === 'related').details).toEqual({
      documentId: s,
    });
  });
});
