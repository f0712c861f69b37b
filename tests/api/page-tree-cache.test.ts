/**
 * The page-tree cache (GET /auth/user-pages-tree is answered from a per-role cache keyed by the access
 * version of migration 0005) never serves a stale tree: after an administrator changes a role's page
 * permissions, adds or edits a page, or deactivates a role; after changes made straight in the database
 * (as another server would); and, on PostgreSQL, between two app instances over one database. Also: the
 * triggers raise the version for changes only, in the changing transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../../src-server/app';
import { openDatabase, type Database } from '../../src-server/db/open';
import { createLocalFileStore } from '../../src-server/storage/files';
import { call, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';

interface Leaf {
  id: number;
  path: string;
  nameEn: string;
  permissions: string[];
}
interface Section extends Leaf {
  children: Leaf[];
}

let h: Harness;
let adminToken: string;
beforeAll(async () => {
  h = await startHarness();
  adminToken = await signIn(h, await makeUser(h, 'admin'));
});
afterAll(async () => {
  await h?.close();
});

async function treeOf(token: string, harness: Harness | { app: App } = h): Promise<Section[]> {
  const res = await call(harness as Harness, { method: 'GET', url: '/auth/user-pages-tree', token });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json.data.pages as Section[];
}
/** `path: permissions` of every visible page. */
const grants = (tree: Section[]) =>
  Object.fromEntries(tree.flatMap((s) => s.children.map((p) => [p.path, p.permissions])));

async function version(): Promise<bigint> {
  const [row] = await h.query<{ v: string }>('select version::text as v from access_version');
  return BigInt(row!.v);
}
async function pageId(path: string): Promise<number> {
  const [row] = await h.query<{ id: number }>(`select id from pages where path = '${path}'`);
  return Number(row!.id);
}

describe('the access version', () => {
  it('rises with each committed change to pages, role permissions and roles, and not for no-ops', async () => {
    const v0 = await version();
    await h.query(`update pages set name_en = name_en where false`);
    await h.query(`delete from role_page_permissions where false`);
    expect(await version()).toBe(v0);
    await h.query(`update pages set sort_order = sort_order where path = '/auth/users'`);
    const v1 = await version();
    expect(v1).toBeGreaterThan(v0);
    const roleId = await makeRole(h, { '/auth/users': ['view'] });
    const v2 = await version();
    expect(v2).toBeGreaterThan(v1);
    await h.query(`update roles set name_en = name_en || '.' where id = ${roleId}`);
    expect(await version()).toBeGreaterThan(v2);
  });

  it('rises in the changing transaction: not before it commits, not at all when it rolls back', async () => {
    const db = h.database.db;
    const v0 = await version();
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`update pages set name_en = 'Rolled back' where path = '/auth/users'`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await version()).toBe(v0);
    await db.transaction(async (tx) => {
      await tx.execute(sql`update pages set sort_order = sort_order where path = '/auth/users'`);
      await tx.execute(sql`update pages set sort_order = sort_order where path = '/auth/roles'`);
    });
    expect(await version()).toBeGreaterThan(v0);
  });
});

describe('GET /auth/user-pages-tree through the cache', () => {
  it('follows an administrator’s changes to permissions, pages and the role at once', async () => {
    const roleId = await makeRole(h, { '/auth/roles': ['view'] });
    const memberToken = await signIn(h, await makeUser(h, roleId));
    const first = await treeOf(memberToken);
    expect(grants(first)).toEqual({
      '/auth/roles': ['view'],
      '/user/calendar': ['view'],
      '/user/settings': ['view'],
      '/user/notifications': ['view'],
      '/user/delegation': ['view'],
    });
    // Served again (from the cache): the same answer.
    expect(await treeOf(memberToken)).toEqual(first);

    // New permissions on another page.
    const jobs = await pageId('/ec/jobs');
    const roles = await pageId('/auth/roles');
    const saved = await call(h, {
      method: 'PUT',
      url: `/auth/roles/${roleId}/permissions`,
      token: adminToken,
      body: {
        entries: [
          { pageId: roles, permissions: ['view'] },
          { pageId: jobs, permissions: ['view', 'add'] },
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect(grants(await treeOf(memberToken))['/ec/jobs']).toEqual(['view', 'add']);

    // A page renamed.
    const renamed = await call(h, {
      method: 'PUT',
      url: `/auth/pages/${jobs}`,
      token: adminToken,
      body: { nameEn: 'Job titles' },
    });
    expect(renamed.status).toBe(200);
    const ec = (await treeOf(memberToken)).find((s) => s.path === '/ec')!;
    expect(ec.children.find((p) => p.path === '/ec/jobs')!.nameEn).toBe('Job titles');

    // A new page: the administrator (whose tree is cached too) sees it at once; the member once granted.
    const adminBefore = await treeOf(adminToken);
    const ecId = adminBefore.find((s) => s.path === '/ec')!.id;
    const added = await call(h, {
      method: 'POST',
      url: '/auth/pages',
      token: adminToken,
      body: { parentId: ecId, nameAr: 'العقود', nameEn: 'Contracts', path: '/ec/contracts' },
    });
    expect(added.status).toBe(201);
    expect(grants(await treeOf(adminToken))['/ec/contracts']).toEqual(['view']);
    expect(grants(await treeOf(memberToken))['/ec/contracts']).toBeUndefined();
    await call(h, {
      method: 'PUT',
      url: `/auth/roles/${roleId}/permissions`,
      token: adminToken,
      body: { entries: [{ pageId: added.json.data.id, permissions: ['view'] }] },
    });
    expect(grants(await treeOf(memberToken))).toEqual({
      '/ec/contracts': ['view'],
      '/user/calendar': ['view'],
      '/user/settings': ['view'],
      '/user/notifications': ['view'],
      '/user/delegation': ['view'],
    });

    // The role deactivated: only the personal pages; reactivated: back.
    const off = await call(h, {
      method: 'PUT',
      url: `/auth/roles/${roleId}/active`,
      token: adminToken,
      body: { active: false },
    });
    expect(off.status).toBe(200);
    expect((await treeOf(memberToken)).map((s) => s.path)).toEqual(['/user']);
    await call(h, {
      method: 'PUT',
      url: `/auth/roles/${roleId}/active`,
      token: adminToken,
      body: { active: true },
    });
    expect(Object.keys(grants(await treeOf(memberToken)))).toContain('/ec/contracts');
  });

  it('follows changes written straight to the database, as another server would', async () => {
    const roleId = await makeRole(h, { '/auth/users': ['view', 'edit'] });
    const memberToken = await signIn(h, await makeUser(h, roleId));
    expect(grants(await treeOf(memberToken))['/auth/users']).toEqual(['view', 'edit']);

    await h.query(
      `update role_page_permissions set permissions = '{view}' where role_id = ${roleId} and page_id = ${await pageId('/auth/users')}`,
    );
    expect(grants(await treeOf(memberToken))['/auth/users']).toEqual(['view']);

    await h.query(`update pages set name_en = 'People' where path = '/auth/users'`);
    const section = (await treeOf(memberToken)).find((s) => s.path === '/auth')!;
    expect(section.children.map((p) => p.nameEn)).toEqual(['People']);

    await h.query(`update roles set active = false where id = ${roleId}`);
    expect((await treeOf(memberToken)).map((s) => s.path)).toEqual(['/user']);
    await h.query(`update roles set active = true where id = ${roleId}`);

    await h.query(`delete from role_page_permissions where role_id = ${roleId}`);
    expect((await treeOf(memberToken)).map((s) => s.path)).toEqual(['/user']);

    await h.query(
      `insert into role_page_permissions (role_id, page_id, permissions) values (${roleId}, ${await pageId('/auth/audit')}, '{view,export}')`,
    );
    expect(grants(await treeOf(memberToken))['/auth/audit']).toEqual(['view', 'export']);

    // TRUNCATE has no row triggers; its statement trigger raises the version too.
    await h.query(`truncate role_page_permissions`);
    expect((await treeOf(memberToken)).map((s) => s.path)).toEqual(['/user']);
  });
});

describe.skipIf(!process.env.SIJILL_TEST_DATABASE_URL)('two servers over one PostgreSQL database', () => {
  let second: { app: App; database: Database };
  beforeAll(async () => {
    const [row] = await h.query<{ name: string }>('select current_database() as name');
    const url = new URL(process.env.SIJILL_TEST_DATABASE_URL!);
    url.pathname = `/${row!.name}`;
    const database = await openDatabase({
      ...h.config,
      DATABASE_URL: url.toString(),
      DB_POOL_MAX: 2,
      migrate: false,
    });
    const app = await buildApp({
      config: { ...h.config, DATABASE_URL: url.toString() },
      database,
      files: createLocalFileStore(h.filesDir),
    });
    await app.ready();
    second = { app, database };
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  it('each sees the other’s changes at once', async () => {
    const roleId = await makeRole(h, { '/ec/departments': ['view'] });
    const member = await makeUser(h, roleId);
    const memberToken = await signIn(h, member);
    const onSecond = { app: second.app };
    // Both servers cache the member's tree.
    expect(grants(await treeOf(memberToken))['/ec/departments']).toEqual(['view']);
    expect(grants(await treeOf(memberToken, onSecond))['/ec/departments']).toEqual(['view']);

    // A change through the first server shows on the second.
    const departments = await pageId('/ec/departments');
    await call(h, {
      method: 'PUT',
      url: `/auth/roles/${roleId}/permissions`,
      token: adminToken,
      body: { entries: [{ pageId: departments, permissions: ['view', 'edit'] }] },
    });
    expect(grants(await treeOf(memberToken, onSecond))['/ec/departments']).toEqual(['view', 'edit']);

    // And one through the second server shows on the first.
    const deactivated = await call(onSecond as Harness, {
      method: 'PUT',
      url: `/auth/roles/${roleId}/active`,
      token: adminToken,
      body: { active: false },
    });
    expect(deactivated.status).toBe(200);
    expect((await treeOf(memberToken)).map((s) => s.path)).toEqual(['/user']);
    expect((await treeOf(memberToken, onSecond)).map((s) => s.path)).toEqual(['/user']);
  });
});
