/**
 * Administration: users (create, list with filters, edit, activate/deactivate, reset and set password —
 * sessions end), guards (self-deactivation, last administrator, administrator role), roles and their
 * page-permission matrix, sections and pages, and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  makeRole,
  makeUser,
  signIn,
  startHarness,
  unique,
  type Harness,
  type TestUser,
} from './support/harness';

let h: Harness;
let admin: TestUser;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await makeUser(h, 'admin');
  token = await signIn(h, admin);
});
afterAll(async () => {
  await h?.close();
});

function newUserBody(roleId: number, extra: Record<string, unknown> = {}) {
  const username = unique('new');
  return {
    username,
    email: `${username}@example.com`,
    nameAr: 'مستخدم جديد',
    nameEn: 'New User',
    roleId,
    password: 'first-pass-1',
    passwordConfirmation: 'first-pass-1',
    ...extra,
  };
}

describe('users', () => {
  it('creates, gets, lists with filters and search, and edits a user', async () => {
    const roleId = await makeRole(h);
    const body = newUserBody(roleId);
    const created = await call(h, { method: 'POST', url: '/auth/users', token, lang: 'en', body });
    expect(created.status).toBe(201);
    expect(created.json.returnMessage).toBe('User created successfully');
    expect(created.json.data).toMatchObject({
      username: body.username,
      active: true,
      useTotp: false,
      role: { id: roleId },
    });
    expect(created.json.data).not.toHaveProperty('passwordHash');
    const id = created.json.data.id as number;

    expect((await call(h, { method: 'GET', url: `/auth/users/${id}`, token })).json.data.email).toBe(
      body.email,
    );
    const dup = await call(h, {
      method: 'POST',
      url: '/auth/users',
      token,
      lang: 'en',
      body: { ...newUserBody(roleId), username: body.username.toUpperCase() },
    });
    expect(dup.status).toBe(409);

    const filters = encodeURIComponent(
      JSON.stringify({
        username: {
          operator: 'and',
          constraints: [{ value: body.username.slice(0, 6), matchMode: 'startsWith' }],
        },
        active: { constraints: [{ value: true, matchMode: 'equals' }] },
      }),
    );
    const list = await call(h, {
      method: 'GET',
      url: `/auth/users?page=1&pageSize=5&sort=-id&filters=${filters}`,
      token,
    });
    expect(list.status).toBe(200);
    expect(list.json.data).toMatchObject({ page: 1, pageSize: 5 });
    expect(list.json.data.items.map((u: { id: number }) => u.id)).toContain(id);
    const search = await call(h, {
      method: 'GET',
      url: `/auth/users?q=${encodeURIComponent(body.username)}`,
      token,
    });
    expect(search.json.data.total).toBe(1);
    const injection = await call(h, {
      method: 'GET',
      url: `/auth/users?q=${encodeURIComponent("' OR 1=1 --")}`,
      token,
    });
    expect(injection.status).toBe(200);
    expect(injection.json.data.total).toBe(0);
    const badFilter = await call(h, {
      method: 'GET',
      url: `/auth/users?filters=${encodeURIComponent('{"passwordHash":{"constraints":[{"value":"a","matchMode":"contains"}]}}')}`,
      token,
      lang: 'en',
    });
    expect(badFilter.status).toBe(400);
    expect(badFilter.json.errors['filters.passwordHash']).toEqual(['This value is not valid']);

    const edited = await call(h, {
      method: 'PUT',
      url: `/auth/users/${id}`,
      token,
      lang: 'en',
      body: { nameEn: 'Renamed', locale: 'en' },
    });
    expect(edited.status).toBe(200);
    expect(edited.json.returnMessage).toBe('User updated successfully');
    expect(edited.json.data).toMatchObject({ nameEn: 'Renamed', locale: 'en' });
  });

  it('deactivation, reset and set password end the user’s sessions', async () => {
    const roleId = await makeRole(h);
    for (const action of ['deactivate', 'reset', 'set'] as const) {
      const user = await makeUser(h, roleId);
      const userToken = await signIn(h, user);
      let res;
      if (action === 'deactivate')
        res = await call(h, {
          method: 'PUT',
          url: `/auth/users/${user.id}/active`,
          token,
          body: { active: false },
        });
      else if (action === 'reset')
        res = await call(h, { method: 'POST', url: `/auth/users/${user.id}/reset-password`, token });
      else
        res = await call(h, {
          method: 'PUT',
          url: `/auth/users/${user.id}/password`,
          token,
          body: { password: 'admin-set-1', passwordConfirmation: 'admin-set-1' },
        });
      expect(res.status, action).toBe(200);
      expect((await call(h, { method: 'GET', url: '/auth/profile', token: userToken })).status, action).toBe(
        401,
      );
      if (action === 'deactivate') {
        await expect(signIn(h, user)).rejects.toThrow();
        expect(
          (
            await call(h, {
              method: 'PUT',
              url: `/auth/users/${user.id}/active`,
              token,
              body: { active: true },
            })
          ).json.data.active,
        ).toBe(true);
        expect(typeof (await signIn(h, user))).toBe('string');
      } else if (action === 'reset') {
        const temporary = res.json.data.temporaryPassword as string;
        expect(temporary).toHaveLength(16);
        expect(typeof (await signIn(h, { username: user.username, password: temporary }))).toBe('string');
      } else {
        expect(typeof (await signIn(h, { username: user.username, password: 'admin-set-1' }))).toBe('string');
      }
    }
  });

  it('refuses self-deactivation and leaving no active administrator', async () => {
    const self = await call(h, {
      method: 'PUT',
      url: `/auth/users/${admin.id}/active`,
      token,
      lang: 'en',
      body: { active: false },
    });
    expect(self.status).toBe(422);
    expect(self.json.detail).toBe('You cannot deactivate your own account');
    const roleId = await makeRole(h);
    const demote = await call(h, {
      method: 'PUT',
      url: `/auth/users/${admin.id}`,
      token,
      lang: 'en',
      body: { roleId },
    });
    // Nobody changes their own role — the last administrator included.
    expect(demote.status).toBe(403);
    expect(demote.json.code).toBe('admin.privilege.ownRole');
    // With a second administrator, the first may be moved.
    const second = await makeUser(h, 'admin');
    const secondToken = await signIn(h, second);
    const other = await makeUser(h, 'admin');
    expect(
      (await call(h, { method: 'PUT', url: `/auth/users/${other.id}`, token: secondToken, body: { roleId } }))
        .status,
    ).toBe(200);
  });
});

describe('role options', () => {
  it('lets whoever may see the users page pick a role without access to the roles page', async () => {
    const roleId = await makeRole(h, { '/auth/users': ['view', 'add'] });
    const clerk = await makeUser(h, roleId);
    const clerkToken = await signIn(h, clerk);
    const options = await call(h, { method: 'GET', url: '/auth/users/role-options', token: clerkToken });
    expect(options.status).toBe(200);
    const mine = (options.json.data as { id: number; active: boolean }[]).find((r) => r.id === roleId);
    expect(mine).toMatchObject({ id: roleId, active: true });
    expect((await call(h, { method: 'GET', url: '/auth/roles', token: clerkToken })).status).toBe(403);

    const outsider = await makeUser(h, await makeRole(h, { '/auth/roles': ['view'] }));
    const outsiderToken = await signIn(h, outsider);
    expect(
      (await call(h, { method: 'GET', url: '/auth/users/role-options', token: outsiderToken })).status,
    ).toBe(403);
  });
});

describe('roles and permissions', () => {
  it('creates and edits a role; the matrix opens exactly the granted routes', async () => {
    const created = await call(h, {
      method: 'POST',
      url: '/auth/roles',
      token,
      lang: 'en',
      body: { nameAr: 'أمين السجل', nameEn: 'Registrar' },
    });
    expect(created.status).toBe(201);
    expect(created.json.data).toMatchObject({
      nameEn: 'Registrar',
      active: true,
      requireTwoFactor: false,
      isSystem: false,
      userCount: 0,
    });
    const roleId = created.json.data.id as number;
    const edited = await call(h, {
      method: 'PUT',
      url: `/auth/roles/${roleId}`,
      token,
      body: { requireTwoFactor: true },
    });
    expect(edited.json.data.requireTwoFactor).toBe(true);
    await call(h, { method: 'PUT', url: `/auth/roles/${roleId}`, token, body: { requireTwoFactor: false } });

    const matrix = await call(h, { method: 'GET', url: `/auth/roles/${roleId}/permissions`, token });
    expect(matrix.json.data.entries).toEqual([]);
    const usersPage = matrix.json.data.pages
      .flatMap((s: { children: { id: number; path: string }[] }) => s.children)
      .find((p: { path: string }) => p.path === '/auth/roles');
    const bad = await call(h, {
      method: 'PUT',
      url: `/auth/roles/${roleId}/permissions`,
      token,
      body: { entries: [{ pageId: usersPage.id, permissions: ['approve'] }] },
    });
    expect(bad.status).toBe(400);
    const saved = await call(h, {
      method: 'PUT',
      url: `/auth/roles/${roleId}/permissions`,
      token,
      lang: 'en',
      body: { entries: [{ pageId: usersPage.id, permissions: ['view'] }] },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.returnMessage).toBe('Permissions saved successfully');
    expect(saved.json.data.entries).toEqual([{ pageId: usersPage.id, permissions: ['view'] }]);

    const member = await makeUser(h, roleId);
    const memberToken = await signIn(h, member);
    expect((await call(h, { method: 'GET', url: '/auth/roles', token: memberToken })).status).toBe(200);
    expect(
      (
        await call(h, {
          method: 'POST',
          url: '/auth/roles',
          token: memberToken,
          body: { nameAr: 'س', nameEn: 'x' },
        })
      ).status,
    ).toBe(403);

    // Deactivating the role takes its permissions away at once.
    expect(
      (await call(h, { method: 'PUT', url: `/auth/roles/${roleId}/active`, token, body: { active: false } }))
        .json.data.active,
    ).toBe(false);
    expect((await call(h, { method: 'GET', url: '/auth/roles', token: memberToken })).status).toBe(403);
  });

  it('keeps the administrator role whole', async () => {
    const list = await call(h, {
      method: 'GET',
      url:
        '/auth/roles?filters=' +
        encodeURIComponent('{"nameEn":{"constraints":[{"value":"Administrator","matchMode":"equals"}]}}'),
      token,
    });
    const adminRole = list.json.data.items[0];
    expect(adminRole.isSystem).toBe(true);
    expect(
      (
        await call(h, {
          method: 'PUT',
          url: `/auth/roles/${adminRole.id}/active`,
          token,
          body: { active: false },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await call(h, {
          method: 'PUT',
          url: `/auth/roles/${adminRole.id}/permissions`,
          token,
          body: { entries: [] },
        })
      ).status,
    ).toBe(422);
    const matrix = await call(h, { method: 'GET', url: `/auth/roles/${adminRole.id}/permissions`, token });
    expect(matrix.json.data.entries.length).toBeGreaterThan(30);
  });
});

describe('sections and pages', () => {
  it('creates a section and a page, edits them, refuses duplicates and bad parents', async () => {
    const section = await call(h, {
      method: 'POST',
      url: '/auth/pages',
      token,
      lang: 'en',
      body: {
        parentId: null,
        nameAr: 'التقارير',
        nameEn: 'Reports',
        path: '/reports',
        icon: 'BarChartOutlined',
        order: 80,
      },
    });
    expect(section.status).toBe(201);
    const page = await call(h, {
      method: 'POST',
      url: '/auth/pages',
      token,
      body: {
        parentId: section.json.data.id,
        nameAr: 'تقرير شهري',
        nameEn: 'Monthly',
        path: '/reports/monthly',
        availablePermissions: ['export'],
      },
    });
    expect(page.status).toBe(201);
    expect(page.json.data.availablePermissions).toEqual(['view', 'export']);
    expect(
      (
        await call(h, {
          method: 'POST',
          url: '/auth/pages',
          token,
          body: { parentId: page.json.data.id, nameAr: 'س', nameEn: 'x', path: '/reports/monthly/x' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(h, {
          method: 'POST',
          url: '/auth/pages',
          token,
          body: { parentId: null, nameAr: 'س', nameEn: 'x', path: '/reports' },
        })
      ).status,
    ).toBe(409);
    const edited = await call(h, {
      method: 'PUT',
      url: `/auth/pages/${page.json.data.id}`,
      token,
      body: { nameEn: 'Monthly report', order: 5 },
    });
    expect(edited.json.data).toMatchObject({ nameEn: 'Monthly report', order: 5 });
    const tree = await call(h, { method: 'GET', url: '/auth/pages', token });
    const reports = tree.json.data.pages.find((s: { path: string }) => s.path === '/reports');
    expect(reports.children.map((p: { path: string }) => p.path)).toEqual(['/reports/monthly']);
    // The administrator sees it in the page tree at once.
    const mine = await call(h, { method: 'GET', url: '/auth/user-pages-tree', token });
    expect(mine.json.data.pages.map((s: { path: string }) => s.path)).toContain('/reports');
  });
});

describe('audit log', () => {
  it('records sign-ins and administrative changes with who, what and where, named in the caller’s language', async () => {
    const res = await call(h, { method: 'GET', url: '/auth/audit?pageSize=200', token, lang: 'en' });
    expect(res.status).toBe(200);
    const items = res.json.data.items as {
      action: string;
      actionName: string;
      actorId: number | null;
      ip: string | null;
      at: string;
    }[];
    const actions = new Set(items.map((i) => i.action));
    for (const a of [
      'auth.login.success',
      'users.create',
      'users.deactivate',
      'users.resetPassword',
      'roles.create',
      'roles.permissions',
      'pages.create',
    ])
      expect(actions).toContain(a);
    const create = items.find((i) => i.action === 'users.create')!;
    expect(create).toMatchObject({ actorId: admin.id, actionName: 'User created', ip: '127.0.0.1' });
    expect(Date.parse(create.at)).not.toBeNaN();
    const ar = await call(h, {
      method: 'GET',
      url:
        '/auth/audit?pageSize=1&filters=' +
        encodeURIComponent('{"action":{"constraints":[{"value":"users.create","matchMode":"equals"}]}}'),
      token,
    });
    expect(ar.json.data.items[0].actionName).toBe('إضافة مستخدم');
  });
});
