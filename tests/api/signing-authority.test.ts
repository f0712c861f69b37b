/**
 * Who may sign (issue 23, item 3): the signatory of an outgoing letter or memo must hold signing authority
 * for the entity it is sent from — the entity's manager, or an account an administrator granted it. The
 * family, through the API: an author naming themselves sole signatory without it (refused, nothing
 * changed), the manager of a department on the way (refused), the head of another entity (refused), the
 * entity's manager signing their own letter (allowed), a granted account signing until the grant is revoked
 * (then refused at approval, while the document waits), a manager replaced or deactivated meanwhile, memos
 * as well as letters, the proposal, saved circuits, the route listing who may sign (visibility and
 * permission), and the administration of grants (entities only, not oneself, audited, revoked not deleted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { call, countRows, makeRole, startHarness, type Harness } from './support/harness';
import { actor, department, type Actor } from './support/correspondence';

let h: Harness;

const AUTHOR = {
  [PAGES.outgoing]: ['view', 'edit'],
  [PAGES.outboxDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.outboxAdd]: ['view', 'add'],
  [PAGES.outboxAwaitingApproval]: ['view'],
  [PAGES.outboxRequiringApproval]: ['view', 'approve'],
  [PAGES.approvedMemos]: ['view', 'distribute'],
  [PAGES.memoDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.memoAdd]: ['view', 'add'],
  [PAGES.memosAwaitingApproval]: ['view'],
  [PAGES.memosRequiringApproval]: ['view', 'approve'],
} as const;

interface World {
  ministry: number;
  sector: number;
  unit: number;
  agency: number;
  hr: number;
  receiver: number;
  author: Actor;
  unitManager: Actor;
  minister: Actor;
  deputy: Actor;
  agencyHead: Actor;
  delegate: Actor;
  orgAdmin: Actor;
  admin: Actor;
  reader: Actor;
  codOut: number;
  codMemo: number;
}
let w: World;

const get = (who: Actor, url: string, lang?: 'ar' | 'en') =>
  call(h, { method: 'GET', url, token: who.token, ...(lang ? { lang } : {}) });
const post = (who: Actor, url: string, body?: unknown, lang?: 'ar' | 'en') =>
  call(h, {
    method: 'POST',
    url,
    token: who.token,
    ...(body !== undefined ? { body } : {}),
    ...(lang ? { lang } : {}),
  });
const del = (who: Actor, url: string) => call(h, { method: 'DELETE', url, token: who.token });
const doc = (id: number) => `/correspondence/documents/${id}`;
const authority = (departmentId: number) => `/correspondence/signing-authority/${departmentId}`;

beforeAll(async () => {
  h = await startHarness();
  const role = await makeRole(h, AUTHOR as unknown as Record<string, ('view' | 'add')[]>);
  // An approver who writes nothing: gives opinions, never drafts a circuit.
  const readerRole = await makeRole(h, { [PAGES.outboxRequiringApproval]: ['view', 'approve'] } as never);
  // A department administrator (not the built-in administrator role): edits departments and grants.
  const orgRole = await makeRole(h, {
    ...(AUTHOR as unknown as Record<string, ('view' | 'add')[]>),
    [PAGES.departments]: ['view', 'add', 'edit'] as never,
  });
  const admin = await actor(h, 'admin', null);
  const archive = await department(h, 'الأرشيف', { archive: true });
  const ministry = await department(h, 'الوزارة', { archiveOfficeId: archive });
  const sector = await department(h, 'قطاع الشؤون المالية', { archiveOfficeId: archive });
  const unit = await department(h, 'إدارة الحسابات', { archiveOfficeId: archive });
  const hr = await department(h, 'الموارد البشرية', { archiveOfficeId: archive });
  const agency = await department(h, 'الهيئة التابعة', { archiveOfficeId: archive });
  await h.query(`update departments set is_entity = true where id in (${ministry}, ${agency})`);
  await h.query(`update departments set parent_id = ${ministry} where id in (${sector}, ${hr}, ${archive})`);
  await h.query(`update departments set parent_id = ${sector} where id = ${unit}`);
  // The agency is an entity under the ministry: letters sent from it speak for the agency.
  await h.query(`update departments set parent_id = ${ministry} where id = ${agency}`);
  const receiver = await department(h, 'ديوان المحاسبة', { type: 'external' });
  const author = await actor(h, role, unit);
  const unitManager = await actor(h, role, unit);
  const sectorManager = await actor(h, role, sector);
  const minister = await actor(h, role, ministry);
  const deputy = await actor(h, role, ministry);
  const agencyHead = await actor(h, role, agency);
  const delegate = await actor(h, role, sector);
  const orgAdmin = await actor(h, orgRole, ministry);
  const reader = await actor(h, readerRole, hr);
  const manage = async (dep: number, who: Actor) =>
    h.query(`update departments set manager_employee_id = ${who.employeeId} where id = ${dep}`);
  await manage(unit, unitManager);
  await manage(sector, sectorManager);
  await manage(ministry, minister);
  await manage(agency, agencyHead);
  const setting = async (list: string, body: Record<string, unknown>) => {
    const res = await post(admin, `/correspondence/settings/${list}`, body);
    if (res.status !== 201) throw new Error(`${list}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json.data.id as number;
  };
  const codOut = await setting('codifications', {
    nameAr: 'صادر',
    nameEn: 'Outgoing',
    prefix: 'SGO',
    direction: 'out',
  });
  const codMemo = await setting('codifications', {
    nameAr: 'مذكرة',
    nameEn: 'Memo',
    prefix: 'SGM',
    direction: 'memo',
  });
  w = {
    ministry,
    sector,
    unit,
    agency,
    hr,
    receiver,
    author,
    unitManager,
    minister,
    deputy,
    agencyHead,
    delegate,
    orgAdmin,
    admin,
    reader,
    codOut,
    codMemo,
  };
});
afterAll(async () => {
  await h?.close();
});

/** A complete draft by `who`: an outgoing letter (to an external receiver) or a memo (to HR). */
async function draft(
  who: Actor = w.author,
  direction: 'out' | 'memo' = 'out',
  extra: Record<string, unknown> = {},
) {
  const res = await post(who, '/correspondence/documents', {
    direction,
    subject: direction === 'out' ? 'خطاب إلى ديوان المحاسبة' : 'مذكرة إلى الموارد البشرية',
    codificationId: direction === 'out' ? w.codOut : w.codMemo,
    recipientIds: [direction === 'out' ? w.receiver : w.hr],
    ...extra,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data.id as number;
}
const submit = (who: Actor, id: number, signers: Actor[][], lang?: 'ar' | 'en') =>
  post(
    who,
    `${doc(id)}/submit`,
    { steps: signers.map((st) => ({ userIds: st.map((p) => p.userId) })), version: 1 },
    lang,
  );
const approve = (who: Actor, id: number, lang?: 'ar' | 'en') =>
  post(who, `${doc(id)}/approval`, { action: 'approve', version: 1 }, lang);
const stateOf = async (id: number) =>
  (
    await h.query<{ state: string; doc_number: string | null }>(
      `select state, doc_number from documents where id = ${id}`,
    )
  )[0]!;

describe('who may be the signatory', () => {
  it('an author naming themselves sole signatory without signing authority is refused, in both languages, and nothing changes', async () => {
    for (const direction of ['out', 'memo'] as const) {
      const id = await draft(w.author, direction);
      const events = await countRows(h, 'document_events');
      const en = await submit(w.author, id, [[w.author]], 'en');
      expect(en.status, JSON.stringify(en.json)).toBe(422);
      expect(en.json.code).toBe('correspondence.signatoryNoAuthority');
      expect(en.json.detail).toContain('does not hold signing authority for الوزارة');
      expect(en.json.errors.steps[0]).toContain('signing authority');
      const ar = await submit(w.author, id, [[w.author]], 'ar');
      expect(ar.status).toBe(422);
      expect(ar.json.detail).toContain('صلاحية التوقيع عن الوزارة');
      expect(await stateOf(id)).toEqual({ state: 'draft', doc_number: null });
      expect(await h.query(`select 1 from approval_members where document_id = ${id}`)).toEqual([]);
      expect(await countRows(h, 'document_events')).toBe(events);
      // Asking their own manager's opinion changes nothing: the last step is still theirs.
      expect((await submit(w.author, id, [[w.unitManager], [w.author]])).status).toBe(422);
    }
  });

  it('a manager on the way up is not the entity: the unit’s manager may give an opinion, not sign', async () => {
    const id = await draft();
    const refused = await submit(w.author, id, [[w.unitManager]], 'en');
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('correspondence.signatoryNoAuthority');
    // Opinion steps keep their rules: the unit manager gives an opinion, the minister signs.
    const ok = await submit(w.author, id, [[w.unitManager], [w.minister]]);
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
  });

  it('the head of another entity does not sign for this one, and this one’s head does not sign for it', async () => {
    const id = await draft();
    const other = await submit(w.author, id, [[w.agencyHead]], 'en');
    expect(other.status).toBe(422);
    expect(other.json.detail).toContain('الوزارة');
    // A letter sent from the agency speaks for the agency: its head signs it, the minister does not.
    const fromAgency = await draft(w.author, 'out', { departmentId: w.agency });
    const minister = await submit(w.author, fromAgency, [[w.minister]], 'en');
    expect(minister.status).toBe(422);
    expect(minister.json.detail).toContain('الهيئة التابعة');
    expect((await submit(w.author, fromAgency, [[w.agencyHead]])).status).toBe(200);
    expect((await approve(w.agencyHead, fromAgency)).status).toBe(200);
    expect((await stateOf(fromAgency)).state).toBe('approved');
  });

  it('the entity’s manager signs, their own letter too', async () => {
    const own = await draft(w.minister);
    expect((await submit(w.minister, own, [[w.minister]])).status).toBe(200);
    const signed = await approve(w.minister, own);
    expect(signed.status, JSON.stringify(signed.json)).toBe(200);
    expect(signed.json.data.docNumber).toMatch(/^SGO-/);
    // A memo too.
    const memo = await draft(w.author, 'memo');
    expect((await submit(w.author, memo, [[w.minister]])).status).toBe(200);
    expect((await approve(w.minister, memo)).json.data.state).toBe('approved');
  });
});

describe('granted signing authority', () => {
  it('a granted account signs until the grant is revoked: then its approval is refused and the document waits', async () => {
    expect((await post(w.admin, authority(w.ministry), { userId: w.delegate.userId })).status).toBe(200);
    const letter = await draft();
    const memo = await draft(w.author, 'memo');
    expect((await submit(w.author, letter, [[w.unitManager], [w.delegate]])).status).toBe(200);
    expect((await submit(w.author, memo, [[w.delegate]])).status).toBe(200);
    expect(
      (await post(w.unitManager, `${doc(letter)}/approval`, { action: 'approve', version: 1 })).status,
    ).toBe(200);
    // The document says the signatory holds it.
    const before = (await get(w.author, doc(letter))).json.data.approval.steps.at(-1).members[0];
    expect(before.signingAuthority).toBe(true);

    const revoked = await del(w.admin, `${authority(w.ministry)}/${w.delegate.userId}`);
    expect(revoked.status).toBe(200);
    const events = await countRows(h, 'document_events');
    for (const id of [letter, memo]) {
      const en = await approve(w.delegate, id, 'en');
      expect(en.status, JSON.stringify(en.json)).toBe(422);
      expect(en.json.code).toBe('correspondence.signingAuthorityLost');
      expect(en.json.detail).toContain('signing authority for الوزارة');
      expect((await approve(w.delegate, id, 'ar')).json.detail).toContain('صلاحية التوقيع عن الوزارة');
      expect(await stateOf(id)).toEqual({ state: 'approving', doc_number: null });
    }
    expect(await countRows(h, 'document_events')).toBe(events);
    const view = (await get(w.author, doc(letter))).json.data;
    expect(view.approval.steps.at(-1).members[0]).toMatchObject({ pending: true, signingAuthority: false });
    expect(view.approval.steps[0].members[0].signingAuthority).toBeNull();

    // The signatory may still send it back; the author cannot resubmit the same circuit, but another.
    const back = await post(w.delegate, `${doc(memo)}/approval`, {
      action: 'requestChanges',
      comment: 'لم أعد مفوضًا بالتوقيع',
      version: 1,
    });
    expect(back.status).toBe(200);
    const same = await post(w.author, `${doc(memo)}/submit`, { version: 1 });
    expect(same.status).toBe(422);
    expect(same.json.code).toBe('correspondence.signatoryNoAuthority');
    expect((await submit(w.author, memo, [[w.minister]])).status).toBe(200);
    expect((await approve(w.minister, memo)).json.data.state).toBe('approved');

    // Granted again, the same signature goes through.
    expect((await post(w.admin, authority(w.ministry), { userId: w.delegate.userId })).status).toBe(200);
    const signed = await approve(w.delegate, letter);
    expect(signed.status).toBe(200);
    expect(signed.json.data.docNumber).toMatch(/^SGO-/);
  });

  it('a manager replaced, or deactivated as an employee, no longer signs', async () => {
    const id = await draft();
    expect((await submit(w.author, id, [[w.minister]])).status).toBe(200);
    await h.query(
      `update departments set manager_employee_id = ${w.deputy.employeeId} where id = ${w.ministry}`,
    );
    try {
      const refused = await approve(w.minister, id, 'en');
      expect(refused.status).toBe(422);
      expect(refused.json.code).toBe('correspondence.signingAuthorityLost');
      // The new manager is who may sign now.
      const who = (await get(w.author, `${doc(id)}/signatories`)).json.data;
      expect(who.entity.id).toBe(w.ministry);
      expect(who.signatories.map((p: { userId: number }) => p.userId)).toContain(w.deputy.userId);
      expect(who.signatories.map((p: { userId: number }) => p.userId)).not.toContain(w.minister.userId);
    } finally {
      await h.query(
        `update departments set manager_employee_id = ${w.minister.employeeId} where id = ${w.ministry}`,
      );
    }
    // The employee record deactivated (the account still active): refused when the circuit is set.
    await h.query(`update employees set active = false where id = ${w.minister.employeeId}`);
    try {
      const other = await draft();
      const refused = await submit(w.author, other, [[w.minister]], 'en');
      expect(refused.status).toBe(422);
      expect(refused.json.code).toBe('correspondence.signatoryNoAuthority');
      expect((await approve(w.minister, id)).status).toBe(422);
    } finally {
      await h.query(`update employees set active = true where id = ${w.minister.employeeId}`);
    }
    expect((await approve(w.minister, id)).status).toBe(200);
  });
});

describe('the circuit editor’s sources', () => {
  it('lists who may sign a document to whom may write it; others get 404 or 403', async () => {
    const id = await draft();
    const res = await get(w.author, `${doc(id)}/signatories`);
    expect(res.status).toBe(200);
    expect(res.json.data.entity).toMatchObject({ id: w.ministry });
    const holders = res.json.data.signatories as { userId: number; authority: string }[];
    expect(holders[0]).toMatchObject({ userId: w.minister.userId, authority: 'manager' });
    expect(holders).toContainEqual(
      expect.objectContaining({ userId: w.delegate.userId, authority: 'granted' }),
    );
    expect(holders.map((p) => p.userId)).not.toContain(w.unitManager.userId);
    // A draft is its author's: nobody else learns who may sign it.
    expect((await get(w.unitManager, `${doc(id)}/signatories`)).status).toBe(404);
    // In its circuit, an approver sees it; one without the draft permissions writes no circuit: 403.
    expect((await submit(w.author, id, [[w.reader], [w.minister]])).status).toBe(200);
    expect((await get(w.reader, doc(id))).status).toBe(200);
    expect((await get(w.reader, `${doc(id)}/signatories`)).status).toBe(403);
  });

  it('proposes an eligible signatory: the entity’s manager, or a granted account when it has none', async () => {
    const id = await draft();
    const proposal = (await get(w.author, `${doc(id)}/circuit/proposal`)).json.data;
    expect(proposal.steps.at(-1)).toMatchObject({ kind: 'sign', members: [{ userId: w.minister.userId }] });
    await h.query(`update departments set manager_employee_id = null where id = ${w.ministry}`);
    try {
      const again = (await get(w.author, `${doc(id)}/circuit/proposal`)).json.data;
      expect(again.steps.at(-1)).toMatchObject({ kind: 'sign', members: [{ userId: w.delegate.userId }] });
      // The delegate gives no opinion as well: they sign.
      expect(
        again.steps
          .slice(0, -1)
          .flatMap((s: { members: { userId: number }[] }) => s.members.map((m) => m.userId)),
      ).not.toContain(w.delegate.userId);
      // Sent without steps, the proposal is taken, and its signatory holds the authority.
      expect((await post(w.author, `${doc(id)}/submit`, { version: 1 })).status).toBe(200);
    } finally {
      await h.query(
        `update departments set manager_employee_id = ${w.minister.employeeId} where id = ${w.ministry}`,
      );
    }
  });

  it('a department’s saved circuit needs a signatory who holds it; one who lost it gives way in the proposal', async () => {
    const url = `/correspondence/circuit-templates/${w.unit}/out`;
    const refused = await call(h, {
      method: 'PUT',
      url,
      token: w.admin.token,
      lang: 'en',
      body: { steps: [{ userIds: [w.unitManager.userId] }] },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('correspondence.signatoryNoAuthority');
    const saved = await call(h, {
      method: 'PUT',
      url,
      token: w.admin.token,
      body: { steps: [{ userIds: [w.unitManager.userId] }, { userIds: [w.delegate.userId] }] },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    await del(w.admin, `${authority(w.ministry)}/${w.delegate.userId}`);
    try {
      const id = await draft();
      const proposal = (await get(w.author, `${doc(id)}/circuit/proposal`)).json.data;
      expect(proposal.source).toBe('template');
      expect(
        proposal.steps.map((s: { kind: string; members: { userId: number }[] }) => [
          s.kind,
          s.members.map((m) => m.userId),
        ]),
      ).toEqual([
        ['opinion', [w.unitManager.userId]],
        ['sign', [w.minister.userId]],
      ]);
    } finally {
      await post(w.admin, authority(w.ministry), { userId: w.delegate.userId });
      await call(h, {
        method: 'PUT',
        url,
        token: w.admin.token,
        body: { steps: [{ userIds: [w.minister.userId] }] },
      });
    }
  });
});

describe('administering signing authority', () => {
  it('grants and revokes for an entity, keeps revoked grants, audits both; only entities, never oneself', async () => {
    const listed = await get(w.orgAdmin, authority(w.unit));
    // Asked for a department, it answers for its entity.
    expect(listed.status).toBe(200);
    expect(listed.json.data.entity.id).toBe(w.ministry);

    const grant = await post(w.orgAdmin, authority(w.ministry), { userId: w.unitManager.userId });
    expect(grant.status, JSON.stringify(grant.json)).toBe(200);
    expect(grant.json.returnMessage).toBeTruthy();
    const row = grant.json.data.grants.find(
      (g: { user: { userId: number } }) => g.user.userId === w.unitManager.userId,
    );
    expect(row).toMatchObject({ grantedBy: { id: w.orgAdmin.userId }, revokedAt: null });
    expect((await post(w.orgAdmin, authority(w.ministry), { userId: w.unitManager.userId })).status).toBe(
      409,
    );
    // Now the unit manager may sign the ministry's letters.
    const id = await draft();
    expect((await submit(w.author, id, [[w.unitManager]])).status).toBe(200);

    const revoke = await del(w.orgAdmin, `${authority(w.ministry)}/${w.unitManager.userId}`);
    expect(revoke.status).toBe(200);
    const kept = revoke.json.data.grants.find(
      (g: { user: { userId: number } }) => g.user.userId === w.unitManager.userId,
    );
    expect(kept).toMatchObject({ revokedBy: { id: w.orgAdmin.userId } });
    expect(kept.revokedAt).toEqual(expect.any(String));
    expect((await del(w.orgAdmin, `${authority(w.ministry)}/${w.unitManager.userId}`)).status).toBe(404);
    expect((await approve(w.unitManager, id)).status).toBe(422);

    const audit = await h.query<{ action: string; target_id: string; details: unknown }>(
      `select action, target_id, details from audit_log where action like 'signingAuthority.%' and actor_id = ${w.orgAdmin.userId} order by id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['signingAuthority.grant', 'signingAuthority.revoke']);
    expect(audit.every((a) => a.target_id === String(w.ministry))).toBe(true);

    // Only for an entity (or a main department); never to oneself but for the administrator role.
    const notEntity = await post(w.orgAdmin, authority(w.sector), { userId: w.unitManager.userId }, 'en');
    expect(notEntity.status).toBe(422);
    expect(notEntity.json.code).toBe('correspondence.notEntity');
    const own = await post(w.orgAdmin, authority(w.ministry), { userId: w.orgAdmin.userId }, 'en');
    expect(own.status).toBe(403);
    expect(own.json.code).toBe('correspondence.ownSigningAuthority');
    expect((await post(w.admin, authority(w.ministry), { userId: w.admin.userId })).status).toBe(200);
    expect((await del(w.admin, `${authority(w.ministry)}/${w.admin.userId}`)).status).toBe(200);
    // An account that does not exist or is inactive; a department that does not exist.
    expect((await post(w.orgAdmin, authority(w.ministry), { userId: 999999 })).status).toBe(400);
    expect((await get(w.orgAdmin, authority(999999))).status).toBe(404);
    // Those without the departments page: 403.
    expect((await get(w.author, authority(w.ministry))).status).toBe(403);
    expect((await post(w.author, authority(w.ministry), { userId: w.unitManager.userId })).status).toBe(403);
  });
});
