/**
 * Security clearances: set by an administrator with an audited, worded answer; a task on a letter goes
 * only to someone whose clearance lets them open it, with a sentence saying why not otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makeRole, makeUser, signIn, startHarness, type Harness } from './support/harness';
import { letter, organisation, type Org } from './support/correspondence';

let h: Harness;
let org: Org;
beforeAll(async () => {
  h = await startHarness();
  org = await organisation(h);
});
afterAll(async () => {
  await h?.close();
});

async function setClearance(userId: number, securityLevelId: number | null, lang: 'ar' | 'en' = 'en') {
  return call(h, {
    method: 'PUT',
    url: `/correspondence/settings/security-levels/clearance/${userId}`,
    token: org.admin.token,
    body: { securityLevelId },
    lang,
  });
}

describe('clearances', () => {
  it('answers a sentence in the caller’s language and audits the change', async () => {
    const en = await setClearance(org.clerk.userId, org.levels.secret, 'en');
    expect(en.status).toBe(200);
    expect(en.json.returnMessage).toBe("The user's security clearance was saved");
    const ar = await setClearance(org.clerk.userId, org.levels.secret, 'ar');
    expect(ar.json.returnMessage).toMatch(/درجة السرية/);
    const audit = await h.query<{ details: unknown }>(
      `select details from audit_log where action = 'users.clearance' and target_id = '${org.clerk.userId}' order by id`,
    );
    expect(audit.length).toBe(2);
  });

  it('refuses a task for someone who could not open the letter, then allows it once cleared', async () => {
    await setClearance(org.clerk.userId, org.levels.secret);
    await setClearance(org.managerA.userId, org.levels.secret);
    const created = await call(h, {
      method: 'POST',
      url: '/correspondence/documents',
      token: org.clerk.token,
      body: { ...letter(org, { securityLevelId: org.levels.secret }), register: true },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.data.id as number;
    const dist = await call(h, {
      method: 'POST',
      url: `/correspondence/documents/${id}/distribution`,
      token: org.clerk.token,
      body: { items: [{ departmentId: org.deptA, type: 'forAction' }] },
    });
    expect(dist.status, JSON.stringify(dist.json)).toBe(200);
    const distributionId =
      dist.json.data.find((d: { departmentId: number }) => d.departmentId === org.deptA)?.id ??
      dist.json.data[0]?.id;
    const assign = () =>
      call(h, {
        method: 'POST',
        url: `/correspondence/documents/${id}/tasks`,
        token: org.managerA.token,
        body: { distributionId, employeeId: org.memberA.employeeId },
        lang: 'en',
      });
    const refused = await assign();
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toMatch(/clearance/);
    expect(await h.query(`select id from tasks where document_id = ${id}`)).toEqual([]);
    // Cleared, the member can be tasked and then opens the letter.
    await setClearance(org.memberA.userId, org.levels.secret);
    expect((await assign()).status).toBe(201);
    expect(
      (await call(h, { method: 'GET', url: `/correspondence/documents/${id}`, token: org.memberA.token }))
        .status,
    ).toBe(200);
  });

  it("the users screen shows and sets clearances: column, options, audited change, never one's own", async () => {
    const options = await call(h, {
      method: 'GET',
      url: '/auth/users/clearance-options',
      token: org.admin.token,
    });
    expect(options.status).toBe(200);
    const levels = options.json.data as { id: number; level: number }[];
    expect(levels.map((l) => l.level)).toEqual([...levels.map((l) => l.level)].sort((a, b) => a - b));
    expect(levels.some((l) => l.id === org.levels.secret)).toBe(true);
    const set = await call(h, {
      method: 'PUT',
      url: `/auth/users/${org.memberB.userId}`,
      token: org.admin.token,
      body: { securityLevelId: org.levels.secret },
    });
    expect(set.status).toBe(200);
    expect(set.json.data.clearance.id).toBe(org.levels.secret);
    const list = await call(h, { method: 'GET', url: '/auth/users?pageSize=200', token: org.admin.token });
    expect(list.json.data.items.find((u: { id: number }) => u.id === org.memberB.userId).clearance.id).toBe(
      org.levels.secret,
    );
    const audit = await h.query(
      `select id from audit_log where action = 'users.clearance' and target_id = '${org.memberB.userId}'`,
    );
    expect(audit.length).toBe(1);
    // A user manager cannot raise their own clearance, on either route.
    const role = await makeRole(h, {
      '/auth/users': ['view', 'edit'],
      '/correspondence/settings/security-levels': ['view', 'edit'],
    });
    const manager = await makeUser(h, role);
    const token = await signIn(h, manager);
    const own = await call(h, {
      method: 'PUT',
      url: `/auth/users/${manager.id}`,
      token,
      body: { securityLevelId: org.levels.secret },
      lang: 'en',
    });
    expect(own.status).toBe(403);
    expect(own.json.detail).toMatch(/own security clearance/);
    const viaSettings = await call(h, {
      method: 'PUT',
      url: `/correspondence/settings/security-levels/clearance/${manager.id}`,
      token,
      body: { securityLevelId: org.levels.secret },
    });
    expect(viaSettings.status).toBe(403);
    expect(await h.query(`select * from user_clearances where user_id = ${manager.id}`)).toEqual([]);
  });
});
