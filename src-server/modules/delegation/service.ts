/**
 * Delegation (issue 28) and stalled circuits. Rules, enforced here for the caller's own delegations and an
 * administrator's alike (decisions where the issue was silent):
 * - Dates are inclusive days of the organisation's calendar; the start is on or before the end, and the
 *   end is not before today (a delegation may start in the past: it is in force at once).
 * - Nobody delegates to themselves; the delegate is an active account.
 * - The delegate must see what they act on: their clearance (user_clearances) is at least the
 *   delegator's. A lower clearance would leave them items they cannot open, so it is refused outright.
 * - No chains: a user who is the delegate of a delegation (not ended) overlapping the dates with an
 *   overlapping scope cannot delegate that scope; nor can one delegate to someone who has themselves
 *   delegated it over those dates (they are away too).
 * - One delegation per delegator and scope over overlapping dates (`both` overlaps either).
 * - Ending takes effect at once (ended_at); the delegator, the delegate (who may give it back) or an
 *   administrator ends it. Every creation and ending is audited and the delegate is notified.
 * While in force, the delegate's scope (correspondence/visibility.ts `Scope.delegators`) carries the
 * delegators: the boxes show their items, the predicate lets the delegate open them, and the approval and
 * task rules accept the delegate in the delegator's place.
 */
import type {
  Delegation,
  DelegationListQueryParsed,
  DelegationPerson,
  DelegationState,
  MyDelegations,
  StalledCircuit,
} from '../../../src-shared/api/delegations';
import type { DelegationScope } from '../../../src-shared/api/notifications-kinds';
import { recordAudit } from '../../audit';
import { dayIn } from '../../clock';
import type { ServerContext } from '../../context';
import { notify } from '../../db/notices';
import { appendEvent } from '../../db/records';
import { rowsOf } from '../../db/rows';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import type { Tx } from '../auth/queries';
import { requireSigningAuthority } from '../correspondence/signing';
import * as q from './queries';
import { sql, type SQL } from 'drizzle-orm';

/** The organisation's today (YYYY-MM-DD), from the server's clock. */
export const todayOf = (ctx: ServerContext) => dayIn(ctx.config.ORG_TIME_ZONE, ctx.clock.now());

const refused = (key: string, field: string) =>
  new HttpProblem('unprocessable', {
    detailKey: `delegation.${key}`,
    code: `delegation.${key}`,
    fields: { [field]: [{ key: `delegation.${key}` }] },
  });
const conflict = (key: string) =>
  new HttpProblem('conflict', { detailKey: `delegation.${key}`, code: `delegation.${key}` });

const person = (
  id: number,
  nameAr: string,
  nameEn: string,
  depId: number | null,
  depAr: string | null,
  depEn: string | null,
): DelegationPerson => ({
  id,
  nameAr,
  nameEn,
  department: depId === null ? null : { id: depId, nameAr: depAr ?? '', nameEn: depEn ?? '' },
});

function stateOf(r: q.DelegationRow, today: string): DelegationState {
  if (r.ended_at !== null || r.ends_on < today) return 'over';
  return r.starts_on > today ? 'upcoming' : 'inForce';
}

function delegationOut(r: q.DelegationRow, today: string): Delegation {
  return {
    id: r.id,
    delegator: person(
      r.delegator_id,
      r.delegator_ar,
      r.delegator_en,
      r.delegator_dep_id,
      r.delegator_dep_ar,
      r.delegator_dep_en,
    ),
    delegate: person(
      r.delegate_id,
      r.delegate_ar,
      r.delegate_en,
      r.delegate_dep_id,
      r.delegate_dep_ar,
      r.delegate_dep_en,
    ),
    scope: r.scope,
    startsOn: r.starts_on,
    endsOn: r.ends_on,
    reason: r.reason,
    state: stateOf(r, today),
    createdBy:
      r.created_by === null
        ? null
        : { id: r.created_by, nameAr: r.created_by_ar ?? '', nameEn: r.created_by_en ?? '' },
    createdAt: r.created_at,
    endedAt: r.ended_at,
    endedBy:
      r.ended_by === null
        ? null
        : { id: r.ended_by, nameAr: r.ended_by_ar ?? '', nameEn: r.ended_by_en ?? '' },
  };
}

async function delegationById(db: Tx, id: number, today: string): Promise<Delegation> {
  const [row] = await q.delegationsWhere(db, sql`g.id = ${id}`);
  if (!row) throw new HttpProblem('notFound');
  return delegationOut(row, today);
}

// ---------------------------------------------------------------- reading

/** GET /delegations/mine. */
export async function myDelegations(ctx: ServerContext, caller: AuthContext): Promise<MyDelegations> {
  const today = todayOf(ctx);
  const rows = await q.delegationsWhere(
    ctx.db,
    sql`(g.delegator_id = ${caller.userId} or g.delegate_id = ${caller.userId})`,
  );
  return {
    given: rows.filter((r) => r.delegator_id === caller.userId).map((r) => delegationOut(r, today)),
    received: rows.filter((r) => r.delegate_id === caller.userId).map((r) => delegationOut(r, today)),
    today,
  };
}

/** GET /delegations (administration). */
export async function listDelegations(
  ctx: ServerContext,
  query: DelegationListQueryParsed,
): Promise<Delegation[]> {
  const today = todayOf(ctx);
  const where: SQL[] = [sql`true`];
  if (query.userId !== undefined)
    where.push(sql`(g.delegator_id = ${query.userId} or g.delegate_id = ${query.userId})`);
  if (query.state) where.push(q.stateIs(query.state, today));
  if (query.scope) where.push(q.scopeIs(query.scope));
  const rows = await q.delegationsWhere(ctx.db, sql.join(where, sql` and `));
  return rows.map((r) => delegationOut(r, today));
}

/** GET /delegations/candidates. */
export async function delegationCandidates(ctx: ServerContext, query: string | undefined) {
  return (await q.candidates(ctx.db, (query ?? '').trim())).map((r) =>
    person(r.id, r.name_ar, r.name_en, r.dep_id, r.dep_ar, r.dep_en),
  );
}

// ---------------------------------------------------------------- creating and ending

export interface DelegationInput {
  delegatorId: number;
  delegateId: number;
  scope: DelegationScope;
  startsOn: string;
  endsOn: string;
  reason?: string | null | undefined;
}

/** POST /delegations and POST /delegations/for: checks the rules, records it, audits it, tells the delegate. */
export async function createDelegation(
  ctx: ServerContext,
  caller: AuthContext,
  input: DelegationInput,
  ip: string | null,
): Promise<Delegation> {
  const today = todayOf(ctx);
  const { delegatorId, delegateId, scope, startsOn, endsOn } = input;
  if (startsOn > endsOn) throw refused('range', 'endsOn');
  if (endsOn < today) throw refused('endInPast', 'endsOn');
  if (delegatorId === delegateId) throw refused('self', 'delegateId');
  const id = await ctx.db.transaction(async (tx) => {
    const delegator = await q.personOf(tx, delegatorId);
    if (!delegator) throw refused('noSuchUser', 'delegatorId');
    const delegate = await q.personOf(tx, delegateId);
    if (!delegate || !delegate.active) throw refused('delegateInactive', 'delegateId');
    if (delegate.clearance < delegator.clearance) throw refused('delegateCannotSee', 'delegateId');
    // Both people's delegations are checked under their locks, so two desks cannot make a chain or a
    // second overlapping one at the same time (in id order: no deadlock).
    for (const userId of [delegatorId, delegateId].sort((a, b) => a - b)) await q.lockUser(tx, userId);
    const scopes = q.overlapping(scope);
    if (await q.overlappingOf(tx, 'delegate_id', delegatorId, scopes, startsOn, endsOn))
      throw refused('onward', 'scope');
    if (await q.overlappingOf(tx, 'delegator_id', delegateId, scopes, startsOn, endsOn))
      throw refused('delegateAway', 'delegateId');
    if (await q.overlappingOf(tx, 'delegator_id', delegatorId, scopes, startsOn, endsOn))
      throw conflict('overlap');
    const reason = input.reason?.trim() ? input.reason.trim() : null;
    const made = await q.insertDelegation(tx, {
      delegatorId,
      delegateId,
      scope,
      startsOn,
      endsOn,
      reason,
      createdBy: caller.userId,
    });
    await recordAudit(tx, {
      action: 'delegations.create',
      actorId: caller.userId,
      actorUsername: caller.username,
      targetType: 'delegation',
      targetId: made,
      details: { delegatorId, delegateId, scope, startsOn, endsOn, forOther: delegatorId !== caller.userId },
      ip,
    });
    await notify(tx, [delegateId], {
      kind: 'delegated',
      details: {
        scope,
        startsOn,
        endsOn,
        actor: { nameAr: delegator.name_ar, nameEn: delegator.name_en },
      },
      dedupeKey: `delegation:${made}`,
    });
    return made;
  });
  return delegationById(ctx.db, id, today);
}

/**
 * POST /delegations/{id}/end (the delegator or the delegate) and /end-any (an administrator): ends it now;
 * from that moment the delegate's scope no longer carries the delegator.
 */
export async function endDelegation(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  asAdministrator: boolean,
  ip: string | null,
): Promise<Delegation> {
  const today = todayOf(ctx);
  await ctx.db.transaction(async (tx) => {
    const [row] = await q.delegationsWhere(tx, sql`g.id = ${id}`);
    if (!row) throw new HttpProblem('notFound');
    if (!asAdministrator && row.delegator_id !== caller.userId && row.delegate_id !== caller.userId)
      throw new HttpProblem('notFound');
    if (stateOf(row, today) === 'over') throw conflict('alreadyOver');
    if (!(await q.endDelegation(tx, id, caller.userId, ctx.clock.now()))) throw conflict('alreadyOver');
    await recordAudit(tx, {
      action: 'delegations.end',
      actorId: caller.userId,
      actorUsername: caller.username,
      targetType: 'delegation',
      targetId: id,
      details: { delegatorId: row.delegator_id, delegateId: row.delegate_id, scope: row.scope },
      ip,
    });
  });
  return delegationById(ctx.db, id, today);
}

// ---------------------------------------------------------------- stalled circuits

/** GET /delegations/stalled-circuits. */
export async function stalledCircuits(ctx: ServerContext): Promise<StalledCircuit[]> {
  return (await q.stalled(ctx.db)).map((r) => ({
    memberId: r.member_id,
    documentId: r.document_id,
    direction: r.direction,
    docNumber: r.doc_number,
    subject: r.subject,
    step: r.position,
    kind: r.kind,
    approver: person(r.user_id, r.name_ar, r.name_en, r.dep_id, r.dep_ar, r.dep_en),
    since: r.since,
    deactivatedAt: r.deactivated_at,
  }));
}

/**
 * POST /delegations/stalled-circuits/{memberId}/replace: an active user who may see the document (and,
 * for the signatory's step, holds signing authority for its entity) takes the inactive approver's place
 * and their pending turn; the timeline, the audit log and the new approver are told.
 */
export async function replaceApprover(
  ctx: ServerContext,
  caller: AuthContext,
  memberId: number,
  userId: number,
  ip: string | null,
): Promise<{ documentId: number }> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await q.stalled(tx, memberId, true);
    if (!row) throw conflict('notStalled');
    const [doc] = await rowsOfDoc(tx, row.document_id);
    const next = await q.personOf(tx, userId);
    if (!next || !next.active) throw refused('delegateInactive', 'userId');
    if (next.clearance < (doc?.security_rank ?? 0)) throw refused('delegateCannotSee', 'userId');
    if (doc?.created_by === userId && row.kind === 'opinion') throw refused('authorInCircuit', 'userId');
    if (await q.inCircuit(tx, row.document_id, userId)) throw refused('alreadyInCircuit', 'userId');
    if (row.kind === 'sign') await requireSigningAuthority(tx, doc?.department_id ?? null, userId, 'circuit');
    await q.replaceMember(tx, memberId, userId);
    const details = {
      step: row.position,
      kind: row.kind,
      from: { id: row.user_id, nameAr: row.name_ar, nameEn: row.name_en },
      to: { id: next.id, nameAr: next.name_ar, nameEn: next.name_en },
    };
    await appendEvent(tx, row.document_id, 'approverReplaced', caller.userId, details);
    await recordAudit(tx, {
      action: 'circuits.approverReplaced',
      actorId: caller.userId,
      actorUsername: caller.username,
      targetType: 'document',
      targetId: row.document_id,
      details: { memberId, fromUserId: row.user_id, toUserId: userId, step: row.position },
      ip,
    });
    await notify(tx, [userId], {
      kind: 'approvalTurn',
      documentId: row.document_id,
      details: { step: row.position },
      dedupeKey: `turn:${memberId}:${userId}`,
      delegated: { scope: 'approvals', today: todayOf(ctx) },
    });
    return { documentId: row.document_id };
  });
}

/** The document of a circuit, locked: what the replacement is checked against. */
function rowsOfDoc(tx: Tx, id: number) {
  return rowsOf<{ security_rank: number; created_by: number | null; department_id: number | null }>(
    tx,
    sql`select security_rank, created_by, department_id from documents where id = ${id} for update`,
  );
}
