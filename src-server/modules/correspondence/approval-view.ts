/**
 * A document's circuit as the engine reads it (approval-engine.ts) and as the document shows it. Apart from
 * approvals.ts so that documents.ts, which shows it, and approvals.ts, which answers documents, do not
 * import each other.
 */
import type { Approval } from '../../../src-shared/api/correspondence';
import type { AuthContext } from '../../http/access';
import type { Tx } from '../auth/queries';
import * as aq from './approval-queries';
import type { NamedRef } from '../../../src-shared/api/directory';
import {
  CIRCUIT_DIRECTIONS,
  approvalStatusOf,
  isTurnOf,
  memberOf,
  running,
  type Circuit,
} from './approval-engine';
import { mayOnDirection } from './common';
import type * as q from './queries';
import { signatoriesFor } from './signing';
import type { Delegator, Scope } from './visibility';

/** The circuit of a document from its row and its circuit's rows. */
export function circuitOf(row: q.DocumentRow, members: readonly aq.MemberRow[]): Circuit {
  return {
    direction: row.direction,
    status: row.state,
    version: row.version,
    submittedVersion: row.submitted_version === null ? null : row.submitted_version,
    currentStep: row.current_step === null ? null : row.current_step,
    numbered: row.doc_number !== null,
    members: members.map((m) => ({
      userId: m.user_id,
      position: m.position,
      kind: m.kind,
      pending: !!m.pending,
      decision: m.decision ?? null,
    })),
  };
}

/** The circuit as the document shows it. */
export async function approvalOf(db: Tx, row: q.DocumentRow): Promise<Approval | null> {
  if (!CIRCUIT_DIRECTIONS.includes(row.direction)) return null;
  const members = await aq.membersOf(db, row.id);
  // Whether the signatory holds signing authority now (until the document is approved with their signature).
  const signing =
    row.state !== 'approved' && members.some((m) => m.kind === 'sign')
      ? new Set((await signatoriesFor(db, row.department_id)).signatories.map((p) => p.userId))
      : null;
  const steps: Approval['steps'] = [];
  for (const m of members) {
    let step = steps.find((s) => s.position === m.position);
    if (!step) {
      step = { position: m.position, kind: m.kind, members: [] };
      steps.push(step);
    }
    step.members.push({
      userId: m.user_id,
      nameAr: m.name_ar,
      nameEn: m.name_en,
      department:
        m.department_id === null
          ? null
          : { id: m.department_id, nameAr: m.department_ar ?? '', nameEn: m.department_en ?? '' },
      pending: !!m.pending,
      decision: m.decision ?? null,
      comment: m.comment,
      decidedAt: m.decided_at,
      decidedVersion: m.decided_version === null ? null : m.decided_version,
      signingAuthority: signing && m.kind === 'sign' ? signing.has(m.user_id) : null,
    });
  }
  return {
    status: approvalStatusOf(row.state),
    currentStep: running(row.state) && row.current_step !== null ? row.current_step : null,
    submittedAt: row.submitted_at,
    approvedAt: row.approved_at,
    steps,
  };
}

/**
 * Whose place in the circuit the caller answers in (issue 28): their own turn first, then the turn of a
 * delegator whose approvals they hold today; when nobody's turn has come, their own place or a
 * delegator's (the engine then says why not). Null: neither they nor their delegators are in it.
 */
export function actingMember(c: Circuit, s: Scope): { userId: number; delegator: Delegator | null } | null {
  if (isTurnOf(c, s.userId)) return { userId: s.userId, delegator: null };
  const approving = s.delegators.filter((g) => g.approvals);
  const turn = approving.find((g) => isTurnOf(c, g.userId));
  if (turn) return { userId: turn.userId, delegator: turn };
  if (memberOf(c, s.userId)) return { userId: s.userId, delegator: null };
  const member = approving.find((g) => memberOf(c, g.userId));
  return member ? { userId: member.userId, delegator: member } : null;
}

/**
 * Whether it is the caller's turn on the document (and their role lets them answer), and whose turn it
 * is when they take it as a delegate.
 */
export async function callersTurn(
  db: Tx,
  caller: AuthContext,
  s: Scope,
  row: q.DocumentRow,
): Promise<{ onBehalfOf: NamedRef | null } | null> {
  if (!running(row.state)) return null;
  const circuit = circuitOf(row, await aq.membersOf(db, row.id));
  const acting = actingMember(circuit, s);
  if (!acting || !isTurnOf(circuit, acting.userId)) return null;
  if (!(await mayOnDirection(db, caller, row.direction, 'decide'))) return null;
  const g = acting.delegator;
  return { onBehalfOf: g ? { id: g.userId, nameAr: g.nameAr, nameEn: g.nameEn } : null };
}
