/**
 * Signing authority: who may be the signatory (the last step of the circuit) of an outgoing letter or a
 * memo. A document speaks for an entity — the nearest department flagged as an entity up the tree of the
 * department it is sent from (that department itself when it is one; the root of its tree when none is
 * flagged). Those who hold signing authority for an entity are its manager (by office: an active employee
 * with an active account, of an active entity) and the accounts an administrator granted it to
 * (signing_authorities, in force). Decisions where the issue was silent:
 * - The managers of the departments between the sending department and its entity do not hold it by
 *   office: they give their opinion in the proposed circuit, and an administrator grants signing authority
 *   to those the entity delegates it to (a director who signs for the ministry).
 * - The sending department (documents.department_id) names the entity: it is the author's own department
 *   unless they chose another, the letter goes out in that entity's name, and it cannot change while the
 *   letter is in its circuit.
 * - It is checked when a circuit is set (submission and resubmission, a department's saved circuit) and
 *   again when the signatory approves: a grant revoked, a manager replaced or deactivated meanwhile refuses
 *   the signature (422 saying why); they may still send the document back to its author.
 * - Granting and revoking need `edit` on the departments page; nobody but the administrator role grants
 *   or revokes their own. Grants are revoked, never deleted, and both are audited.
 */
import type {
  ApproverOption,
  Signatories,
  SignatoryOption,
  SigningAuthority,
} from '../../../src-shared/api/correspondence';
import { recordAudit } from '../../audit';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import type { Tx } from '../auth/queries';
import type { RequestMeta } from '../auth/service';
import * as aq from './approval-queries';
import { badField, notFound, ref } from './common';

/** An approver row as the API answers it. */
export function approverOut(r: aq.ApproverRow): ApproverOption {
  return {
    userId: r.user_id,
    nameAr: r.name_ar,
    nameEn: r.name_en,
    department:
      r.department_id === null
        ? null
        : { id: r.department_id, nameAr: r.department_ar ?? '', nameEn: r.department_en ?? '' },
    manager: !!r.manager,
  };
}

const signatoryOut = (r: aq.SignatoryRow): SignatoryOption => ({
  ...approverOut(r),
  authority: r.authority,
});

const entityOut = (e: aq.NamedRow | null) => (e ? { id: e.id, nameAr: e.name_ar, nameEn: e.name_en } : null);

/** The entity a document sent from `departmentId` speaks for, and who may sign for it now. */
export async function signatoriesFor(db: Tx, departmentId: number | null): Promise<Signatories> {
  const entity = departmentId === null ? null : await aq.entityOf(db, departmentId);
  return {
    entity: entityOut(entity),
    signatories: entity ? (await aq.signatoriesOf(db, entity.id)).map(signatoryOut) : [],
  };
}

/** The names a refusal gives: the person's and the entity's, in both languages. */
async function refusalParams(db: Tx, entity: Signatories['entity'], userId: number) {
  const [person] = await aq.approversByIds(db, [userId]);
  return {
    personAr: person?.name_ar ?? `#${userId}`,
    personEn: person?.name_en ?? `#${userId}`,
    entityAr: entity?.nameAr ?? '—',
    entityEn: entity?.nameEn ?? '—',
  };
}

/**
 * 422 unless `userId` holds signing authority for the entity of `departmentId`. `when` says who is told:
 * the one choosing the circuit (`circuit`: the field `steps` names the signatory), or the signatory
 * approving (`approval`).
 */
export async function requireSigningAuthority(
  db: Tx,
  departmentId: number | null,
  userId: number,
  when: 'circuit' | 'approval',
): Promise<void> {
  const { entity, signatories } = await signatoriesFor(db, departmentId);
  if (signatories.some((p) => p.userId === userId)) return;
  const params = await refusalParams(db, entity, userId);
  const key = when === 'circuit' ? 'signatoryNoAuthority' : 'signingAuthorityLost';
  throw new HttpProblem('unprocessable', {
    detailKey: `correspondence.${key}`,
    code: `correspondence.${key}`,
    params,
    ...(when === 'circuit' ? { fields: { steps: [{ key: `correspondence.${key}`, params }] } } : {}),
  });
}

// ---------------------------------------------------------------- administration

/** GET /correspondence/signing-authority/{departmentId}: the department's entity, its holders and grants. */
export async function signingAuthority(ctx: ServerContext, departmentId: number): Promise<SigningAuthority> {
  const { entity, signatories } = await signatoriesFor(ctx.db, departmentId);
  if (!entity) throw notFound();
  const grants = (await aq.grantsOf(ctx.db, entity.id)).map((g) => ({
    id: g.id,
    user: approverOut(g),
    grantedBy: ref(g.granted_by, g.granted_by_ar, g.granted_by_en),
    grantedAt: g.granted_at,
    revokedBy: ref(g.revoked_by, g.revoked_by_ar, g.revoked_by_en),
    revokedAt: g.revoked_at,
  }));
  return { entity, signatories, grants };
}

/** The checks of a grant or a revocation: an entity, someone other than the caller (but for the administrator role). */
async function checkGrant(tx: Tx, caller: AuthContext, departmentId: number, userId: number) {
  if (!(await aq.entityOf(tx, departmentId))) throw notFound();
  if (!(await aq.isEntity(tx, departmentId)))
    throw new HttpProblem('unprocessable', {
      detailKey: 'correspondence.notEntity',
      code: 'correspondence.notEntity',
    });
  if (userId === caller.userId && !caller.isSystem)
    throw new HttpProblem('forbidden', {
      detailKey: 'correspondence.ownSigningAuthority',
      code: 'correspondence.ownSigningAuthority',
    });
}

/** POST /correspondence/signing-authority/{departmentId}: grants it to an active account. */
export async function grantSigningAuthority(
  ctx: ServerContext,
  caller: AuthContext,
  departmentId: number,
  userId: number,
  meta: RequestMeta,
): Promise<SigningAuthority> {
  await ctx.db.transaction(async (tx) => {
    await checkGrant(tx, caller, departmentId, userId);
    if (!(await aq.accountsOf(tx, [userId])).length) throw badField('userId');
    if (!(await aq.insertGrant(tx, { entityId: departmentId, userId, by: caller.userId })))
      throw new HttpProblem('conflict', {
        detailKey: 'correspondence.alreadyGranted',
        code: 'correspondence.alreadyGranted',
        fields: { userId: [{ key: 'correspondence.alreadyGranted' }] },
      });
    await recordAudit(tx, {
      action: 'signingAuthority.grant',
      actorId: caller.userId,
      actorUsername: caller.username,
      targetType: 'department',
      targetId: departmentId,
      details: { userId },
      ip: meta.ip,
    });
  });
  return signingAuthority(ctx, departmentId);
}

/** DELETE /correspondence/signing-authority/{departmentId}/{userId}: revokes the grant in force. */
export async function revokeSigningAuthority(
  ctx: ServerContext,
  caller: AuthContext,
  departmentId: number,
  userId: number,
  meta: RequestMeta,
): Promise<SigningAuthority> {
  await ctx.db.transaction(async (tx) => {
    await checkGrant(tx, caller, departmentId, userId);
    if (!(await aq.revokeGrant(tx, { entityId: departmentId, userId, by: caller.userId }))) throw notFound();
    await recordAudit(tx, {
      action: 'signingAuthority.revoke',
      actorId: caller.userId,
      actorUsername: caller.username,
      targetType: 'department',
      targetId: departmentId,
      details: { userId },
      ip: meta.ip,
    });
  });
  return signingAuthority(ctx, departmentId);
}
