/**
 * Approval circuits of outgoing letters and memos: the proposed circuit, submission, the approvers'
 * answers, numbering at the signatory's approval, a memo's distribution to its recipients, and the
 * dispatch of an approved letter. Decisions where the issue was silent:
 * - The proposal is the department's saved template when there is one; otherwise the managers up the
 *   author's department tree, one opinion step each, to the first department that is an entity, whose
 *   manager signs. The author never gives an opinion on their own document; they may be the signatory
 *   when they hold signing authority (a director signing their own letter).
 * - The signatory must hold signing authority for the document's entity (signing.ts), checked when the
 *   circuit is set and again when they approve; opinion steps may be anyone who may see the document.
 * - The author edits only while the document is with them (draft, changes requested, rejected); while it
 *   is approving it is frozen, so an approval always names the version the approver saw.
 * - A resubmission after changes continues from the step that asked when neither the document (its
 *   version) nor the circuit changed; otherwise every approval of the round is void and the circuit starts
 *   from its first step (the timeline keeps who approved which version). A rejected document restarts.
 * - Someone acting out of turn: 403 when they may see the document (404 when not); acting again on a step
 *   they already answered, or on a version that changed, is 409.
 * The circuit's transitions are the engine's (approval-engine.ts): here they are loaded, checked against
 * the database (accounts, clearance, signing authority) and applied in one transaction.
 */
import {
  type ApprovalRequest,
  type ApproverOption,
  type BoxCounts,
  type Signatories,
  type CircuitProposal,
  type CircuitTemplate,
  type CircuitTemplateRequest,
  type Document,
  type DispatchRequest,
  type SubmitRequest,
} from '../../../src-shared/api/correspondence';
import { formatRegistrationNumber } from '../../../src-shared/numbering';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem, type FieldMessage } from '../../http/problem';
import type { Tx } from '../auth/queries';
import { openFinal } from '../final/letters';
import { approvalDueOn } from './due-calendar';
import { repliesDoneBy, todayOf } from './due';
import {
  CIRCUIT_DIRECTIONS,
  needsComment,
  shapeCircuit,
  stepsOf,
  submitRefusal,
  transition,
  type Effect,
  type LogEntry,
  type Outcome,
  type Refusal,
  type ShapeRefusal,
} from './approval-engine';
import * as aq from './approval-queries';
import { actingMember, approvalOf, circuitOf } from './approval-view';
import { badField, holds, notFound, requireOnDirection, rule, scope, visibleDocument } from './common';
import { getDocument } from './documents';
import * as q from './queries';
import { tellAuthorApproved, tellAuthorDecision, tellDispatched, tellDistributed, tellTurn } from './notices';
import { approverOut, requireSigningAuthority, signatoriesFor } from './signing';
import { circuitUsers, type Delegator, type Scope } from './visibility';
import { recordAudit } from '../../audit';

const conflict = (key: string) =>
  new HttpProblem('conflict', { detailKey: `correspondence.${key}`, code: `correspondence.${key}` });
const forbidden = (key: string) =>
  new HttpProblem('forbidden', { detailKey: `correspondence.${key}`, code: `correspondence.${key}` });

/** The problem answering each refusal of the engine. */
const REFUSED: Record<Refusal, () => HttpProblem> = {
  notWithAuthor: () => conflict('documentChanged'),
  versionChanged: () => conflict('documentChanged'),
  commentRequired: () =>
    new HttpProblem('badRequest', { fields: { comment: [{ key: 'validation.required' }] } }),
  notInCircuit: () => forbidden('notYourTurn'),
  notYourTurn: () => forbidden('notYourTurn'),
  alreadyAnswered: () => conflict('approvalChanged'),
};

/** The problem answering each refusal of a chosen circuit's shape. */
const SHAPE_REFUSED: Record<ShapeRefusal, () => HttpProblem> = {
  noApprovers: () => rule('noApprovers', { steps: [{ key: 'correspondence.noApprovers' }] }),
  duplicateApprover: () => badField('steps', 'validation.duplicate'),
  oneSignatory: () => rule('oneSignatory', { steps: [{ key: 'correspondence.oneSignatory' }] }),
  authorInCircuit: () => rule('authorInCircuit', { steps: [{ key: 'correspondence.authorInCircuit' }] }),
};

/** The effects of an outcome, or its refusal's problem. */
function effectsOf(outcome: Outcome): readonly Effect[] {
  if (!outcome.ok) throw REFUSED[outcome.refusal]();
  return outcome.effects;
}

const optionOut = approverOut;

// ---------------------------------------------------------------- proposal

/**
 * Makes `signer` the last step (the signatory) of proposed steps: out of the opinion steps, which are
 * dropped when nobody is left in them.
 */
function signedBy(steps: CircuitProposal['steps'], signer: ApproverOption): CircuitProposal['steps'] {
  const opinions = steps
    .map((st) => ({
      kind: 'opinion' as const,
      members: st.members.filter((m) => m.userId !== signer.userId),
    }))
    .filter((st) => st.members.length > 0);
  return [...opinions, { kind: 'sign', members: [signer] }];
}

/** A signatory option as an approver option (the proposal's shape). */
const asApprover = ({ authority: _authority, ...person }: ApproverOption & { authority?: unknown }) => person;

async function proposalFor(db: Tx, s: Scope, doc: q.DocumentRow): Promise<CircuitProposal> {
  const departmentId = doc.department_id ?? s.departmentId;
  // Who may sign what this department sends: the entity's manager first, then the accounts granted it.
  const holders = (await signatoriesFor(db, departmentId)).signatories;
  const holds = (userId: number | undefined) => holders.some((h) => h.userId === userId);
  if (departmentId !== null) {
    const template = await aq.templateOf(db, departmentId, aq.familyOf(doc.direction));
    if (template) {
      const steps: CircuitProposal['steps'] = [];
      for (const [i, step] of template.steps.entries()) {
        const members = (await aq.approversByIds(db, step.userIds)).map(optionOut);
        if (members.length)
          steps.push({ kind: i === template.steps.length - 1 ? 'sign' : 'opinion', members });
      }
      if (steps.length) {
        const last = steps.at(-1)!;
        // A saved signatory who no longer holds signing authority gives way to one who does.
        if (!holds(last.members[0]?.userId) && holders[0])
          return { steps: signedBy(steps.slice(0, -1), asApprover(holders[0])), source: 'template' };
        last.kind = 'sign';
        return { steps, source: 'template' };
      }
    }
  }
  const users: number[] = [];
  if (departmentId !== null)
    for (const r of await aq.managersUp(db, departmentId))
      if (r.user_id !== null && !users.includes(r.user_id)) users.push(r.user_id);
  // The managers up the tree give their opinion (never the author on their own document); the signatory
  // is the first holder of signing authority — the entity's manager, who may be the author — or, when
  // nobody holds it, the last manager up the tree (the editor then says they may not sign).
  const signer = holders[0]?.userId ?? users.at(-1);
  const ids = [
    ...users.filter((id) => id !== s.userId && id !== signer),
    ...(signer === undefined ? [] : [signer]),
  ];
  const byId = new Map((await aq.approversByIds(db, ids)).map((r) => [r.user_id, optionOut(r)]));
  const steps: CircuitProposal['steps'] = ids.flatMap((id, i) =>
    byId.has(id)
      ? [{ kind: i === ids.length - 1 ? ('sign' as const) : ('opinion' as const), members: [byId.get(id)!] }]
      : [],
  );
  return { steps, source: 'managers' };
}

/** GET /correspondence/documents/{id}/circuit/proposal. */
export async function circuitProposal(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<CircuitProposal> {
  const s = await scope(ctx, caller);
  const doc = await visibleDocument(ctx.db, s, id);
  if (!CIRCUIT_DIRECTIONS.includes(doc.direction)) throw rule('noCircuit');
  // A document that already has a circuit proposes it again (the author may change it before resubmitting).
  if (doc.state !== 'draft') {
    const current = await approvalOf(ctx.db, doc);
    if (current && current.steps.length) {
      const ids = current.steps.flatMap((st) => st.members.map((m) => m.userId));
      const byId = new Map((await aq.approversByIds(ctx.db, ids)).map((r) => [r.user_id, optionOut(r)]));
      return {
        source: 'current',
        steps: current.steps.map((st) => ({
          kind: st.kind,
          members: st.members.flatMap((m) => (byId.has(m.userId) ? [byId.get(m.userId)!] : [])),
        })),
      };
    }
  }
  return proposalFor(ctx.db, s, doc);
}

/**
 * GET /correspondence/documents/{id}/signatories: who may be the signatory of a document the caller sees
 * and may write (the direction's draft permissions): the holders of signing authority for its entity.
 */
export async function documentSignatories(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
): Promise<Signatories> {
  const s = await scope(ctx, caller);
  const doc = await visibleDocument(ctx.db, s, id);
  if (!CIRCUIT_DIRECTIONS.includes(doc.direction)) throw rule('noCircuit');
  await requireOnDirection(ctx.db, caller, doc.direction, 'editDraft');
  return signatoriesFor(ctx.db, doc.department_id ?? s.departmentId);
}

/** GET /correspondence/approvers?q=. */
export async function approverOptions(
  ctx: ServerContext,
  query: string | undefined,
): Promise<ApproverOption[]> {
  return (await aq.approverOptions(ctx.db, (query ?? '').trim())).map(optionOut);
}

// ---------------------------------------------------------------- submission

/**
 * Checks a circuit chosen by the author: active accounts who may see the document, each once, the author
 * in no opinion step, and a signatory who holds signing authority for the document's entity (signing.ts).
 */
async function checkedCircuit(tx: Tx, s: Scope, doc: q.DocumentRow, steps: { userIds: number[] }[]) {
  const shaped = shapeCircuit(steps, s.userId);
  if (!shaped.ok) throw SHAPE_REFUSED[shaped.refusal]();
  const all = steps.flatMap((st) => st.userIds);
  const last = steps.at(-1)!;
  const accounts = new Map((await aq.accountsOf(tx, all)).map((a) => [a.id, a.clearance]));
  for (const id of all) {
    if (!accounts.has(id)) throw badField('steps');
    if (accounts.get(id)! < doc.security_rank)
      throw rule('approverCannotSee', { steps: [{ key: 'correspondence.approverCannotSee' }] });
  }
  await requireSigningAuthority(tx, doc.department_id, last.userIds[0]!, 'circuit');
  return shaped.steps;
}

function requireComplete(doc: q.DocumentRow, recipients: number) {
  const missing: Record<string, FieldMessage[]> = {};
  const need = (field: string, ok: boolean) => {
    if (!ok) missing[field] = [{ key: 'validation.required' }];
  };
  need('codificationId', doc.codification_id !== null);
  need('departmentId', doc.department_id !== null);
  need('recipientIds', recipients > 0);
  if (Object.keys(missing).length) throw rule('incomplete', missing);
  if (doc.codification_direction !== doc.direction)
    throw rule('incomplete', { codificationId: [{ key: 'validation.choice' }] });
}

/** POST /correspondence/documents/{id}/submit. */
export async function submitDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: SubmitRequest,
): Promise<Document> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    if (!CIRCUIT_DIRECTIONS.includes(doc.direction)) throw rule('noCircuit');
    if (Number(doc.created_by) !== s.userId) throw forbidden('notAuthor');
    await requireOnDirection(tx, caller, doc.direction, 'editDraft');
    const members = await aq.membersOf(tx, id);
    const circuit = circuitOf(doc, members);
    const refused = submitRefusal(circuit, input.version);
    if (refused) throw REFUSED[refused]();
    requireComplete(doc, (await q.recipientsListOf(tx, [id])).length);

    const currentSteps = stepsOf(circuit).map((userIds) => ({ userIds }));
    let wanted = input.steps;
    if (!wanted) {
      if (doc.state !== 'draft' && currentSteps.length) wanted = currentSteps;
      else {
        const proposal = await proposalFor(tx, s, doc);
        wanted = proposal.steps.map((st) => ({ userIds: st.members.map((m) => m.userId) }));
      }
    }
    const steps = await checkedCircuit(tx, s, doc, wanted);
    const outcome = transition(circuit, { type: 'submit', version: input.version, steps });
    await applyEffects(ctx, tx, s, doc, members, effectsOf(outcome));
  });
  return getDocument(ctx, caller, id, s);
}

// ---------------------------------------------------------------- decisions

/** The number an approved document takes: its codification, the year, the next sequence. */
async function numberLocked(tx: Tx, s: Scope, doc: q.DocumentRow) {
  const year = await q.currentYear(tx);
  const sequence = await q.takeSequence(tx, Number(doc.codification_id), year);
  const docNumber = formatRegistrationNumber(doc.codification_prefix ?? 'X', year, sequence);
  const archive = doc.department_id === null ? null : await aq.archiveOfficeFor(tx, doc.department_id);
  await aq.markApproved(tx, doc.id, {
    sequence,
    year,
    docNumber,
    userId: s.userId,
    archiveDepartmentId: archive,
  });
  await q.appendEvent(tx, doc.id, 'numbered', s.userId, { docNumber });
}

/** An approved memo reaches its recipient departments for action. */
async function distributeLocked(tx: Tx, s: Scope, doc: q.DocumentRow) {
  for (const r of await q.recipientsListOf(tx, [doc.id])) {
    const distributionId = await q.insertDistribution(tx, {
      documentId: doc.id,
      departmentId: r.id,
      type: 'forAction',
      notes: null,
      userId: s.userId,
    });
    if (distributionId !== null) {
      await q.appendEvent(tx, doc.id, 'distributed', s.userId, {
        distributionId,
        departmentId: r.id,
        departmentNameAr: r.name_ar,
        departmentNameEn: r.name_en,
        type: 'forAction',
        notes: null,
      });
      await tellDistributed(
        tx,
        doc,
        { departmentId: r.id, nameAr: r.name_ar, nameEn: r.name_en, type: 'forAction' },
        s.userId,
      );
    }
  }
}

/** The timeline details of an entry the engine logs. */
function detailsOf(entry: LogEntry): Record<string, unknown> {
  switch (entry.event) {
    case 'circuitRestarted':
      return { voided: entry.voided, version: entry.version };
    case 'submitted':
      return { version: entry.version, resumed: entry.resumed, step: entry.step };
    default:
      return {
        version: entry.version,
        step: entry.step,
        kind: entry.kind,
        ...(entry.comment ? { comment: entry.comment } : {}),
      };
  }
}

/**
 * Applies the engine's effects to a document locked in `tx`, in their order; `members` are its circuit's
 * rows as the engine read them. A decision taken by a delegate (`onBehalfOf`) names the delegator in its
 * timeline entries; the caller stays their actor. A step opened today is due by
 * the approval days per step later.
 */
async function applyEffects(
  ctx: ServerContext,
  tx: Tx,
  s: Scope,
  doc: q.DocumentRow,
  members: readonly aq.MemberRow[],
  effects: readonly Effect[],
  onBehalfOf: Delegator | null = null,
) {
  const behalf = onBehalfOf
    ? { onBehalfOf: { id: onBehalfOf.userId, nameAr: onBehalfOf.nameAr, nameEn: onBehalfOf.nameEn } }
    : {};
  const id = doc.id;
  for (const e of effects)
    switch (e.type) {
      case 'replaceCircuit':
        await aq.replaceCircuit(tx, doc, e.steps);
        break;
      case 'openStep':
        await aq.activateStep(tx, id, e.position, await approvalDueOn(tx, todayOf(ctx)));
        await tellTurn(ctx, tx, id, e.position);
        break;
      case 'closeTurns':
        await aq.clearPending(tx, id);
        break;
      case 'setStatus':
        await aq.setCircuitState(tx, id, {
          state: e.status,
          currentStep: e.currentStep,
          submitted: e.submitted,
        });
        break;
      case 'confirmSignature':
        // Authority granted at submission may have been revoked since.
        await requireSigningAuthority(tx, doc.department_id, e.userId, 'approval');
        break;
      case 'recordAnswer': {
        const row = members.find((m) => m.user_id === e.userId && m.position === e.position);
        const v = { decision: e.decision, comment: e.comment, version: e.version };
        if (!row || !(await aq.decide(tx, row.id, v))) throw conflict('approvalChanged');
        break;
      }
      case 'assignNumber':
        await numberLocked(tx, s, doc);
        break;
      case 'distribute':
        await distributeLocked(tx, s, doc);
        break;
      case 'raiseVersion':
        await q.bumpVersion(tx, id);
        break;
      case 'log':
        await q.appendEvent(tx, id, e.entry.event, s.userId, { ...detailsOf(e.entry), ...behalf });
        if (e.entry.event === 'changesRequested' || e.entry.event === 'rejected')
          await tellAuthorDecision(tx, doc, e.entry.event, e.entry.comment, s.userId);
        // The author follows their circuit: each approval, the last one (numbered) said as final.
        if (e.entry.event === 'approved')
          await tellAuthorApproved(tx, doc, s.userId, onBehalfOf, {
            step: e.entry.step,
            final: effects.some((x) => x.type === 'assignNumber'),
          });
        break;
    }
}

/** POST /correspondence/documents/{id}/approval. */
export async function decideDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: ApprovalRequest,
): Promise<Document> {
  const s = await scope(ctx, caller);
  const comment = input.comment?.trim() ? input.comment.trim() : null;
  if (needsComment(input.action) && !comment) throw REFUSED.commentRequired();
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    if (!CIRCUIT_DIRECTIONS.includes(doc.direction)) throw rule('noCircuit');
    const members = await aq.membersOf(tx, id);
    const circuit = circuitOf(doc, members);
    // The caller answers in their own place, or in a delegator's whose approvals they hold today: the
    // answer is the delegator's (their row, their signing authority), the caller its actor.
    const acting = actingMember(circuit, s);
    if (!acting) throw REFUSED.notInCircuit();
    await requireOnDirection(tx, caller, doc.direction, 'decide');
    const event = {
      type: 'answer',
      by: acting.userId,
      action: input.action,
      comment,
      version: input.version,
    } as const;
    const effects = effectsOf(transition(circuit, event));
    await applyEffects(ctx, tx, s, doc, members, effects, acting.delegator);
    if (acting.delegator)
      await recordAudit(tx, {
        action: 'delegations.actedOnBehalf',
        actorId: caller.userId,
        actorUsername: caller.username,
        targetType: 'document',
        targetId: id,
        details: {
          onBehalfOf: acting.delegator.userId,
          onBehalfOfNameAr: acting.delegator.nameAr,
          onBehalfOfNameEn: acting.delegator.nameEn,
          action: input.action,
          step: doc.current_step,
        },
      });
    // The signatory's approval: the letter's final PDF is made (stamped, signed) in the background.
    if (effects.some((e) => e.type === 'assignNumber')) await openFinal(ctx, tx, id);
  });
  ctx.jobs.nudge();
  return getDocument(ctx, caller, id, s);
}

// ---------------------------------------------------------------- dispatch

/** POST /correspondence/documents/{id}/dispatch: the archive office records how an approved letter left. */
export async function dispatchDocument(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: DispatchRequest,
): Promise<Document> {
  const s = await scope(ctx, caller);
  await ctx.db.transaction(async (tx) => {
    const doc = await visibleDocument(tx, s, id, true);
    if (doc.direction !== 'out') throw rule('notOutgoing');
    await requireOnDirection(tx, caller, doc.direction, 'dispatch');
    if (doc.state !== 'approved') throw rule('notApproved');
    if (!holds(s, doc)) throw rule('notArchiveOffice');
    const medium = await q.settingOf(tx, 'mediums', input.mediumId);
    if (!medium) throw badField('mediumId');
    await aq.setDispatch(tx, id, {
      mediumId: input.mediumId,
      date: input.dispatchDate,
      delivered: input.delivered,
      userId: s.userId,
    });
    await q.appendEvent(tx, id, 'dispatched', s.userId, {
      mediumId: input.mediumId,
      dispatchDate: input.dispatchDate,
      delivered: input.delivered,
    });
    await tellDispatched(tx, doc, input.dispatchDate, s.userId);
    // The incoming letters it answers (related to it) are done.
    await repliesDoneBy(tx, doc, s.userId);
  });
  return getDocument(ctx, caller, id, s);
}

// ---------------------------------------------------------------- templates and counts

/** GET /correspondence/circuit-templates/{departmentId}/{direction}. */
export async function getTemplate(
  ctx: ServerContext,
  departmentId: number,
  direction: 'out' | 'memo',
): Promise<CircuitTemplate> {
  if (!(await q.departmentOf(ctx.db, departmentId))) throw notFound();
  const t = await aq.templateOf(ctx.db, departmentId, direction);
  const steps: CircuitTemplate['steps'] = [];
  for (const st of t?.steps ?? [])
    steps.push({ members: (await aq.approversByIds(ctx.db, st.userIds)).map(optionOut) });
  return { departmentId, direction, steps, updatedAt: t?.updatedAt ?? null };
}

/** PUT /correspondence/circuit-templates/{departmentId}/{direction}. */
export async function saveTemplate(
  ctx: ServerContext,
  caller: AuthContext,
  departmentId: number,
  direction: 'out' | 'memo',
  input: CircuitTemplateRequest,
): Promise<CircuitTemplate> {
  if (!(await q.departmentOf(ctx.db, departmentId))) throw notFound();
  const all = input.steps.flatMap((st) => st.userIds);
  const shaped = shapeCircuit(input.steps);
  if (!shaped.ok) throw SHAPE_REFUSED[shaped.refusal]();
  if ((await aq.accountsOf(ctx.db, all)).length !== all.length) throw badField('steps');
  await requireSigningAuthority(ctx.db, departmentId, input.steps.at(-1)!.userIds[0]!, 'circuit');
  await aq.saveTemplate(ctx.db, {
    departmentId,
    direction,
    steps: shaped.steps,
    userId: caller.userId,
  });
  return getTemplate(ctx, departmentId, direction);
}

/** GET /correspondence/boxes/counts. */
export async function boxCounts(ctx: ServerContext, caller: AuthContext): Promise<BoxCounts> {
  const s = await scope(ctx, caller);
  return aq.countsFor(ctx.db, s.userId, s.isAdmin ? null : s.clearance, circuitUsers(s));
}
