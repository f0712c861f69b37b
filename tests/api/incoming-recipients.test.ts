/**
 * The archive sees where its letters went: on the clerk's (and an administrator's) own rows of the
 * incoming box, the departments a letter was distributed to, action first; none for an undistributed one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startHarness, type Harness } from './support/harness';
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

describe('incoming box: distributed to', () => {
  it('lists the receiving departments on the archive rows', async () => {
    const make = async () => {
      const res = await call(h, {
        method: 'POST',
        url: '/correspondence/documents',
        token: org.clerk.token,
        body: { ...letter(org), register: true },
      });
      expect(res.status).toBe(201);
      return res.json.data.id as number;
    };
    const distributed = await make();
    const waiting = await make();
    const dist = await call(h, {
      method: 'POST',
      url: `/correspondence/documents/${distributed}/distribution`,
      token: org.clerk.token,
      body: {
        items: [
          { departmentId: org.deptB, type: 'forKnowledge' },
          { departmentId: org.deptA, type: 'forAction' },
        ],
      },
    });
    expect(dist.status).toBe(200);
    for (const token of [org.clerk.token, org.admin.token]) {
      const box = await call(h, { method: 'GET', url: '/correspondence/boxes/incoming?pageSize=200', token });
      const rows = box.json.data.items as {
        documentId: number;
        distribution: unknown;
        recipients: { department: { id: number }; type: string }[];
      }[];
      const own = rows.find((r) => r.documentId === distributed && r.distribution === null)!;
      expect(own.recipients.map((r) => [r.department.id, r.type])).toEqual([
        [org.deptA, 'forAction'],
        [org.deptB, 'forKnowledge'],
      ]);
      expect(rows.find((r) => r.documentId === waiting)!.recipients).toEqual([]);
    }
    // The receiving manager's row is their own distribution, with no list of the others.
    const managerBox = await call(h, {
      method: 'GET',
      url: '/correspondence/boxes/incoming?pageSize=200',
      token: org.managerA.token,
    });
    const row = managerBox.json.data.items.find((r: { documentId: number }) => r.documentId === distributed);
    expect(row.distribution.department.id).toBe(org.deptA);
    expect(row.recipients).toEqual([]);
  });
});
