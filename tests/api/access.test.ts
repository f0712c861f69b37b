/**
 * Enforcement: every registered route declares its access; without a session every non-public route is
 * 401; a signed-in user without the page permission gets 403 on each page route (requests generated from
 * the route list); the problem bodies of 401/403/404 in Arabic and English; the page tree's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes } from '../../src-server/http/access';
import { INITIAL_PAGE_TREE, PERSONAL_PAGES } from '../../src-server/db/page-tree';
import { call, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const CALLABLE = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

describe('route declarations', () => {
  it('every registered route declares public, authenticated or a page permission', () => {
    const routes = listRoutes(h.app);
    expect(routes.length).toBeGreaterThan(25);
    const missing = routes.filter((r) => r.access === undefined).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    for (const r of routes) {
      if (typeof r.access === 'object') {
        expect(r.access.page).toMatch(/^\//);
        expect(['view', 'add', 'edit', 'delete', 'activate', 'approve', 'distribute', 'export']).toContain(
          r.access.permission,
        );
      }
    }
  });

  it('public routes are only the ones meant to be', () => {
    const publicRoutes = listRoutes(h.app)
      .filter((r) => r.access === 'public' && CALLABLE.includes(r.method) && !r.url.startsWith('/docs'))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(publicRoutes).toEqual(
      [
        'GET /health',
        // The proxy's readiness probe (docs/operations.md).
        'GET /ready',
        'GET /setup',
        'POST /setup',
        'POST /auth/login',
        'GET /auth/two-factor/setup',
        'POST /auth/two-factor/verify',
        'POST /auth/two-factor/skip',
        // The verification page of an issued letter and its script (issue 27): a receiver has no account.
        'GET /verify/:token',
        'GET /verify/assets/verify.js',
      ].sort(),
    );
  });

  it('serves the OpenAPI document publicly', async () => {
    const res = await call(h, { method: 'GET', url: '/docs/json' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json.paths)).toEqual(
      expect.arrayContaining(['/auth/login', '/auth/user-pages-tree', '/auth/users/{id}']),
    );
  });
});

describe('enforcement on every route', () => {
  it('answers 401 on each non-public route without a session, and with a forged token', async () => {
    const routes = listRoutes(h.app).filter((r) => r.access !== 'public' && CALLABLE.includes(r.method));
    expect(routes.length).toBeGreaterThan(15);
    for (const r of routes) {
      const none = await call(h, {
        method: r.method as Method,
        url: concrete(r.url),
        body: r.method === 'GET' ? undefined : {},
      });
      expect(none.status, `${r.method} ${r.url}`).toBe(401);
      const forged = await call(h, {
        method: r.method as Method,
        url: concrete(r.url),
        token: 'forged-token',
        body: r.method === 'GET' ? undefined : {},
      });
      expect(forged.status, `${r.method} ${r.url}`).toBe(401);
    }
  });

  it('answers 403 on each page route to a signed-in user without the permission', async () => {
    const user = await makeUser(h, await makeRole(h));
    const token = await signIn(h, user);
    // Personal pages are every user's (page-tree.ts PERSONAL_PAGES): their routes answer anyone.
    const routes = listRoutes(h.app).filter(
      (r) =>
        typeof r.access === 'object' &&
        !PERSONAL_PAGES.includes(r.access.page) &&
        CALLABLE.includes(r.method),
    );
    expect(routes.length).toBeGreaterThan(15);
    for (const r of routes) {
      const res = await call(h, {
        method: r.method as Method,
        url: concrete(r.url),
        token,
        body: r.method === 'GET' ? undefined : {},
      });
      expect(res.status, `${r.method} ${r.url}`).toBe(403);
      expect(res.json.detail).toBe('ليس لديك صلاحية لتنفيذ هذا الإجراء');
    }
  });

  it('a permission on one page opens only the routes declaring it', async () => {
    const role = await makeRole(h, { '/auth/users': ['view'] });
    const token = await signIn(h, await makeUser(h, role));
    expect((await call(h, { method: 'GET', url: '/auth/users', token })).status).toBe(200);
    expect((await call(h, { method: 'POST', url: '/auth/users', token, body: {} })).status).toBe(403);
    expect((await call(h, { method: 'GET', url: '/auth/roles', token })).status).toBe(403);
    // Another role's grant never leaks: a role without it is still refused.
    const other = await signIn(h, await makeUser(h, await makeRole(h, { '/auth/roles': ['view'] })));
    expect((await call(h, { method: 'GET', url: '/auth/users', token: other })).status).toBe(403);
    expect((await call(h, { method: 'GET', url: '/auth/roles', token: other })).status).toBe(200);
  });

  it('an inactive role grants nothing but the personal pages', async () => {
    const role = await makeRole(h, { '/auth/users': ['view'] }, { active: false });
    const token = await signIn(h, await makeUser(h, role));
    expect((await call(h, { method: 'GET', url: '/auth/users', token })).status).toBe(403);
    const tree = await call(h, { method: 'GET', url: '/auth/user-pages-tree', token });
    expect(tree.json.data.pages.map((s: { path: string }) => s.path)).toEqual(['/user']);
  });
});

describe('problem bodies', () => {
  it('401, 403 and 404 in Arabic (default) and English', async () => {
    const token = await signIn(h, await makeUser(h, await makeRole(h)));
    const cases = [
      {
        req: { method: 'GET' as const, url: '/auth/profile' },
        status: 401,
        ar: 'يجب تسجيل الدخول لتنفيذ هذا الإجراء',
        en: 'You must be logged in to perform this action',
      },
      {
        req: { method: 'GET' as const, url: '/auth/users', token },
        status: 403,
        ar: 'ليس لديك صلاحية لتنفيذ هذا الإجراء',
        en: 'You are not authorized to perform this action',
      },
      {
        req: { method: 'GET' as const, url: '/no/such/route' },
        status: 404,
        ar: 'الطلب الذي تبحث عنه غير موجود',
        en: 'The request you are looking for could not be found',
      },
    ];
    for (const c of cases) {
      const ar = await call(h, c.req);
      const en = await call(h, { ...c.req, lang: 'en' });
      for (const [res, detail] of [
        [ar, c.ar],
        [en, c.en],
      ] as const) {
        expect(res.status).toBe(c.status);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.json).toMatchObject({ status: c.status, detail });
        expect(typeof res.json.title).toBe('string');
        expect(typeof res.json.type).toBe('string');
      }
      expect(ar.json.title).not.toBe(en.json.title);
    }
  });

  it('404 for a missing record behind a permitted route', async () => {
    const token = await signIn(h, await makeUser(h, 'admin'));
    const res = await call(h, { method: 'GET', url: '/auth/users/999999', token, lang: 'en' });
    expect(res.status).toBe(404);
    expect(res.json.detail).toBe('The request you are looking for could not be found');
  });
});

describe('GET /auth/user-pages-tree', () => {
  it('gives the administrator every section and page, in the data.data.pages shape', async () => {
    const token = await signIn(h, await makeUser(h, 'admin'));
    const res = await call(h, { method: 'GET', url: '/auth/user-pages-tree', token });
    expect(res.status).toBe(200);
    const pages = res.json.data.pages as {
      path: string;
      children: { path: string; permissions: string[]; children: unknown[] }[];
    }[];
    expect(pages.map((s) => s.path)).toEqual(INITIAL_PAGE_TREE.map((s) => s.path));
    for (const section of pages) {
      expect(Object.keys(section).sort()).toEqual(
        ['children', 'icon', 'id', 'nameAr', 'nameEn', 'order', 'path', 'permissions'].sort(),
      );
      for (const page of section.children) {
        expect(page.children).toEqual([]);
        expect(page.permissions).toContain('view');
      }
    }
    const all = pages.flatMap((s) => s.children.map((p) => p.path));
    expect(all).toEqual(
      expect.arrayContaining([
        '/ec/employees',
        '/correspondence/inbox/incoming',
        '/correspondence/outbox/requiring-approval',
        '/correspondence/memos/approved-memos',
        '/correspondence/settings/main-distribution',
        '/auth/users',
        '/auth/roles',
        '/auth/pages',
        '/auth/audit',
        '/user/calendar',
        '/user/settings',
        '/user/notifications',
        '/user/delegation',
      ]),
    );
    const users = pages.find((s) => s.path === '/auth')!.children.find((p) => p.path === '/auth/users')!;
    expect(users.permissions).toEqual(['view', 'add', 'edit', 'activate']);
  });

  it('gives a limited role only its pages with its permissions, a section only when a child is visible', async () => {
    const role = await makeRole(h, {
      '/correspondence/inbox/incoming': ['view', 'distribute'],
      '/correspondence/outbox/outgoing': ['edit'], // no view: invisible
    });
    const token = await signIn(h, await makeUser(h, role));
    const res = await call(h, { method: 'GET', url: '/auth/user-pages-tree', token });
    const pages = res.json.data.pages as {
      path: string;
      children: { path: string; permissions: string[] }[];
    }[];
    expect(pages.map((s) => s.path)).toEqual(['/correspondence/inbox', '/user']);
    expect(pages[0]!.children).toEqual([
      expect.objectContaining({
        path: '/correspondence/inbox/incoming',
        permissions: ['view', 'distribute'],
      }),
    ]);
    expect(pages[1]!.children.map((p) => p.path)).toEqual([
      '/user/calendar',
      '/user/settings',
      '/user/notifications',
      '/user/delegation',
    ]);
  });
});
