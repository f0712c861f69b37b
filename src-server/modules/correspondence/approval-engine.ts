/**
 * The approval circuit of outgoing letters and memos as a pure state machine: no database, no HTTP. The
 * service (approvals.ts) loads a document's circuit, asks `transition` what an event does to it, and applies
 * the effects it answers in its transaction, in their order; a refusal names a reason the service maps to its
 * problem. `applyEffect` is what each effect does to the circuit, so the engine's next state is the one the
 * service's writes leave behind. The rules (the why: approvals.ts):
 * - A circuit is steps in order; people of one step answer in parallel; the last step is the signatory's,
 *   one person (`shapeCircuit`), and nobody is in it twice.
 * - Submitting (or resubmitting) is the author's while the document is with them, on the version they saw.
 *   A resubmission after changes were asked continues from the step that asked when neither the version nor
 *   the circuit changed; otherwise the circuit is set afresh and every approval of the earlier round is void.
 * - One answer at a time, from whose turn it is, on the current version. A step is done when all its people
 *   approved; the circuit then moves one step forward, and the signatory's approval ends it: the document is
 *   approved and takes its number, once. A rejection or a request for changes takes every turn back and
 *   returns the document to its author, the circuit where it stood.
 * - A new version (an edit while the document is with its author; content.ts refuses one in the circuit)
 *   changes nothing of the circuit by itself: the next submission finds the version changed and restarts.
 */
import {
  AUTHOR_STATES,
  type ApprovalAction,
  type ApprovalDecision,
  type ApprovalStatus,
  type ApprovalStepKind,
  type DocumentState,
} from '../../../src-shared/api/correspondence';

/** Directions that pass an approval circuit. */
export const CIRCUIT_DIRECTIONS: readonly string[] = ['out', 'memo', 'internal'];

const SIGN = 'sign' satisfies ApprovalStepKind;
const OPINION = 'opinion' satisfies ApprovalStepKind;
const APPROVED = 'approved' satisfies ApprovalDecision & DocumentState;
const APPROVING = 'approving' satisfies DocumentState;
const CHANGES_REQUESTED = 'changesRequested' satisfies DocumentState;
/** Outgoing letters go out (dispatched by the archive office); memos reach departments. */
const OUTGOING = 'out';

/** The decision each action records (and the state a returning one leaves the document in). */
export const DECISION_OF: Record<ApprovalAction, ApprovalDecision> = {
  approve: 'approved',
  reject: 'rejected',
  requestChanges: 'changesRequested',
};

/** One person of the circuit. A person is in a circuit once, so their account names them in it. */
export interface CircuitMember {
  userId: number;
  /** The step, from 1. */
  position: number;
  kind: ApprovalStepKind;
  /** Whether it is their turn. */
  pending: boolean;
  /** Their answer in this round (an approval stays across a resumed round). */
  decision: ApprovalDecision | null;
}

/** What the engine knows of a document of a circuit. */
export interface Circuit {
  direction: string;
  status: DocumentState;
  version: number;
  /** The version last submitted. */
  submittedVersion: number | null;
  /** The step whose turn it is (kept while the document is back with its author). */
  currentStep: number | null;
  /** Whether it has its number (taken when the signatory approves). */
  numbered: boolean;
  /** In step order. */
  members: readonly CircuitMember[];
}

/** A step of a circuit as chosen: its people, and whether they give an opinion or sign. */
export interface CircuitStep {
  kind: ApprovalStepKind;
  userIds: readonly number[];
}

declare const shaped: unique symbol;
/** Steps that passed `shapeCircuit`: only those are submitted. */
export type ShapedCircuit = readonly CircuitStep[] & { readonly [shaped]: true };

export type CircuitEvent =
  /** The author sends the document into its circuit (again, after it came back: a resubmission). */
  | { type: 'submit'; version: number; steps: ShapedCircuit }
  /** An approver's answer, on the version they saw. */
  | { type: 'answer'; by: number; action: ApprovalAction; comment: string | null; version: number }
  /** The author changed the document: its version rises. */
  | { type: 'newVersion' };

/** Why an event is refused; the service answers each with its own problem. */
export type Refusal =
  /** Submitting, or changing, a document that is not with its author (in its circuit, approved). */
  | 'notWithAuthor'
  /** The version named is not the document's. */
  | 'versionChanged'
  /** A rejection or a request for changes says why. */
  | 'commentRequired'
  /** The caller is nowhere in the circuit. */
  | 'notInCircuit'
  /** The caller's step has not come. */
  | 'notYourTurn'
  /** The caller answered already, or the circuit is no longer running. */
  | 'alreadyAnswered';

/** Why a chosen circuit is refused. */
export type ShapeRefusal = 'noApprovers' | 'duplicateApprover' | 'oneSignatory' | 'authorInCircuit';

/** A timeline entry the transition appends. */
export type LogEntry =
  | { event: 'circuitRestarted'; voided: number; version: number }
  | { event: 'submitted'; version: number; resumed: boolean; step: number }
  | {
      event: ApprovalDecision;
      version: number;
      step: number;
      kind: ApprovalStepKind;
      comment: string | null;
    };

export type Effect =
  /** The circuit is set afresh: every answer of an earlier round is void. */
  | { type: 'replaceCircuit'; steps: ShapedCircuit }
  /** The people of a step who have not approved in this round get the turn. */
  | { type: 'openStep'; position: number }
  /** Nobody has the turn any more. */
  | { type: 'closeTurns' }
  /** The document's state; the current step when given (kept otherwise); `submitted` records the submission. */
  | { type: 'setStatus'; status: DocumentState; currentStep?: number; submitted?: boolean }
  /** The signatory's authority is checked again before their approval is taken (it may have been revoked). */
  | { type: 'confirmSignature'; userId: number }
  /** A person's answer. */
  | {
      type: 'recordAnswer';
      userId: number;
      position: number;
      decision: ApprovalDecision;
      comment: string | null;
      version: number;
    }
  /** The signatory's approval ends the circuit: the document is approved and takes its number. */
  | { type: 'assignNumber' }
  /** A memo reaches its recipient departments for action as soon as it is approved. */
  | { type: 'distribute' }
  /** The document's version rises (written by documents.ts with the edit itself). */
  | { type: 'raiseVersion' }
  | { type: 'log'; entry: LogEntry };

export type Outcome =
  { ok: true; state: Circuit; effects: readonly Effect[] } | { ok: false; refusal: Refusal; state: Circuit };

// ---------------------------------------------------------------- reading a circuit

/** Whether the document is with its author (they may edit and submit it). */
export const withAuthor = (status: DocumentState) => (AUTHOR_STATES as readonly string[]).includes(status);

/** The document's state as its circuit's status. */
export function approvalStatusOf(status: DocumentState): ApprovalStatus {
  switch (status) {
    case 'draft':
      return 'new';
    case 'registered':
      return 'approved';
    default:
      return status;
  }
}

/** The circuit's steps as their people, in order. */
export function stepsOf(c: Circuit): number[][] {
  const positions = [...new Set(c.members.map((m) => m.position))];
  return positions.map((p) => c.members.filter((m) => m.position === p).map((m) => m.userId));
}

/** Whether the person is anywhere in the circuit. */
export const memberOf = (c: Circuit, userId: number) => c.members.some((m) => m.userId === userId);

/** Whether the circuit is running (the document is with its approvers). */
export const running = (status: DocumentState) => status === APPROVING;

/** Whether it is the person's turn. */
export const isTurnOf = (c: Circuit, userId: number) =>
  running(c.status) && c.members.some((m) => m.userId === userId && m.pending);

/** Whether an action needs a comment (saying why the document goes back). */
export const needsComment = (action: ApprovalAction) => DECISION_OF[action] !== APPROVED;

/**
 * Checks a chosen circuit's shape and makes its last step the signatory's: steps of people, each person
 * once, one signatory, and (when `author` is given) the author in no opinion step — they may sign.
 */
export function shapeCircuit(
  steps: readonly { userIds: readonly number[] }[],
  author?: number,
): { ok: true; steps: ShapedCircuit } | { ok: false; refusal: ShapeRefusal } {
  if (!steps.length) return { ok: false, refusal: 'noApprovers' };
  const all = steps.flatMap((st) => st.userIds);
  if (new Set(all).size !== all.length) return { ok: false, refusal: 'duplicateApprover' };
  if (steps.at(-1)!.userIds.length !== 1) return { ok: false, refusal: 'oneSignatory' };
  if (author !== undefined && steps.slice(0, -1).some((st) => st.userIds.includes(author)))
    return { ok: false, refusal: 'authorInCircuit' };
  const out = steps.map((st, i) => ({
    kind: i === steps.length - 1 ? SIGN : OPINION,
    userIds: [...st.userIds],
  }));
  return { ok: true, steps: out as readonly CircuitStep[] as ShapedCircuit };
}

// ---------------------------------------------------------------- guards

/** Why a submission of `version` is refused, if it is. */
export function submitRefusal(c: Circuit, version: number): Refusal | null {
  if (!withAuthor(c.status)) return 'notWithAuthor';
  if (version !== c.version) return 'versionChanged';
  return null;
}

/** Why an answer is refused, if it is (the checks in the order the service has always made them). */
export function answerRefusal(c: Circuit, e: Extract<CircuitEvent, { type: 'answer' }>): Refusal | null {
  if (needsComment(e.action) && !e.comment) return 'commentRequired';
  const mine = c.members.filter((m) => m.userId === e.by);
  if (!mine.length) return 'notInCircuit';
  if (!running(c.status) || !mine.some((m) => m.pending))
    // They answered already (a second click, another desk) or the circuit moved on: stale, not forbidden.
    return !running(c.status) || mine.some((m) => m.decision !== null) ? 'alreadyAnswered' : 'notYourTurn';
  if (e.version !== c.version) return 'versionChanged';
  return null;
}

// ---------------------------------------------------------------- transitions

/** What an effect does to the circuit (what the service's write leaves in the database). */
export function applyEffect(c: Circuit, e: Effect): Circuit {
  switch (e.type) {
    case 'replaceCircuit':
      return {
        ...c,
        members: e.steps.flatMap((st, i) =>
          st.userIds.map((userId) => ({
            userId,
            position: i + 1,
            kind: st.kind,
            pending: false,
            decision: null,
          })),
        ),
      };
    case 'openStep':
      return {
        ...c,
        members: c.members.map((m) =>
          m.position === e.position && m.decision !== APPROVED ? { ...m, pending: true, decision: null } : m,
        ),
      };
    case 'closeTurns':
      return { ...c, members: c.members.map((m) => (m.pending ? { ...m, pending: false } : m)) };
    case 'setStatus':
      return {
        ...c,
        status: e.status,
        currentStep: e.currentStep === undefined ? c.currentStep : e.currentStep,
        submittedVersion: e.submitted ? c.version : c.submittedVersion,
      };
    case 'recordAnswer':
      return {
        ...c,
        members: c.members.map((m) =>
          m.userId === e.userId && m.position === e.position && m.pending
            ? { ...m, pending: false, decision: e.decision }
            : m,
        ),
      };
    case 'assignNumber':
      return { ...c, status: APPROVED, currentStep: null, numbered: true };
    case 'raiseVersion':
      return { ...c, version: c.version + 1 };
    case 'confirmSignature':
    case 'distribute':
    case 'log':
      return c;
  }
}

/** The next state of a circuit under effects. */
const after = (c: Circuit, effects: readonly Effect[]) => effects.reduce(applyEffect, c);

function submit(c: Circuit, e: Extract<CircuitEvent, { type: 'submit' }>): Effect[] {
  const current = stepsOf(c);
  const sameCircuit =
    current.length === e.steps.length &&
    e.steps.every(
      (st, i) => st.userIds.length === current[i]!.length && st.userIds.every((u, j) => u === current[i]![j]),
    );
  const unchanged = c.submittedVersion !== null && c.submittedVersion === c.version;
  if (c.status === CHANGES_REQUESTED && sameCircuit && unchanged && c.currentStep !== null)
    return [
      { type: 'openStep', position: c.currentStep },
      { type: 'setStatus', status: APPROVING, submitted: true },
      { type: 'log', entry: { event: 'submitted', version: c.version, resumed: true, step: c.currentStep } },
    ];
  const voided = c.members.filter((m) => m.decision === APPROVED).length;
  return [
    { type: 'replaceCircuit', steps: e.steps },
    { type: 'openStep', position: 1 },
    { type: 'setStatus', status: APPROVING, currentStep: 1, submitted: true },
    ...(voided
      ? [{ type: 'log', entry: { event: 'circuitRestarted', voided, version: c.version } } as const]
      : []),
    { type: 'log', entry: { event: 'submitted', version: c.version, resumed: false, step: 1 } },
  ];
}

function answer(c: Circuit, e: Extract<CircuitEvent, { type: 'answer' }>): Effect[] {
  const turn = c.members.find((m) => m.userId === e.by && m.pending)!;
  const decision = DECISION_OF[e.action];
  const effects: Effect[] = [
    ...(decision === APPROVED && turn.kind === SIGN
      ? [{ type: 'confirmSignature', userId: e.by } as const]
      : []),
    {
      type: 'recordAnswer',
      userId: e.by,
      position: turn.position,
      decision,
      comment: e.comment,
      version: c.version,
    },
    {
      type: 'log',
      entry: {
        event: decision,
        version: c.version,
        step: turn.position,
        kind: turn.kind,
        comment: e.comment,
      },
    },
  ];
  if (decision !== APPROVED)
    return [...effects, { type: 'closeTurns' }, { type: 'setStatus', status: decision }];
  const answered = after(c, effects);
  // Others of this step still to answer.
  if (answered.members.some((m) => m.position === turn.position && m.decision !== APPROVED)) return effects;
  const later = answered.members.map((m) => m.position).filter((p) => p > turn.position);
  if (later.length) {
    const next = Math.min(...later);
    return [
      ...effects,
      { type: 'openStep', position: next },
      { type: 'setStatus', status: APPROVING, currentStep: next },
    ];
  }
  return [
    ...effects,
    { type: 'assignNumber' },
    ...(c.direction !== OUTGOING ? [{ type: 'distribute' } as const] : []),
  ];
}

/** What an event does to a circuit: the effects to apply and the state they leave, or why it is refused. */
export function transition(c: Circuit, e: CircuitEvent): Outcome {
  let refusal: Refusal | null;
  let effects: Effect[];
  switch (e.type) {
    case 'submit':
      refusal = submitRefusal(c, e.version);
      effects = refusal ? [] : submit(c, e);
      break;
    case 'answer':
      refusal = answerRefusal(c, e);
      effects = refusal ? [] : answer(c, e);
      break;
    case 'newVersion':
      refusal = withAuthor(c.status) ? null : 'notWithAuthor';
      // Nothing of the circuit changes now; the next submission finds the version changed.
      effects = refusal ? [] : [{ type: 'raiseVersion' }];
      break;
  }
  return refusal ? { ok: false, refusal, state: c } : { ok: true, state: after(c, effects), effects };
}
