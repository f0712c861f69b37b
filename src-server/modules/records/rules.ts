/**
 * The rules of records management as pure functions (docs/records.md): which retention applies to a file,
 * when its disposition is due, and what a disposition may do next. No database, no clock: the service
 * hands them the facts and applies what they answer; tests/unit/records-rules.test.ts checks them by
 * properties.
 */
import type { DispositionViewState, RetentionAction } from '../../../src-shared/api/records';

export interface Retention {
  years: number;
  action: RetentionAction;
  legalReference: string;
}

/** How strongly an action keeps the record: permanent over transfer (kept elsewhere) over destroy. */
const KEEPS: Record<RetentionAction, number> = { destroy: 0, transfer: 1, permanent: 2 };

/**
 * The retention that applies to a file: its own when it has one; else, of the schedules of its documents'
 * codifications, the one that keeps the record longest (most years, then the stronger action); several
 * schedules with those same terms give their legal references joined. None: null (never due).
 */
export function retentionOf(
  own: { years: number | null; action: RetentionAction | null; reference: string | null },
  schedules: readonly Retention[],
): Retention | null {
  if (own.years !== null && own.action !== null)
    return { years: own.years, action: own.action, legalReference: own.reference ?? '' };
  if (!schedules.length) return null;
  const keeps = (r: Retention) => [KEEPS[r.action] === 2 ? 1 : 0, r.years, KEEPS[r.action]] as const;
  const better = (a: Retention, b: Retention) => {
    const [x, y] = [keeps(a), keeps(b)];
    for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i]! > y[i]!;
    return false;
  };
  let best = schedules[0]!;
  for (const s of schedules) if (better(s, best)) best = s;
  const same = schedules.filter((s) => s.years === best.years && s.action === best.action);
  const references = [...new Set(same.map((s) => s.legalReference))].sort();
  return { ...best, legalReference: references.join('; ') };
}

/**
 * The day `years` after `day` (YYYY-MM-DD); 29 February on a year without one is 28 February (the
 * retention has run out by the end of that month's last day).
 */
export function addYears(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const year = y + years;
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** When the file's disposition is due: closed on + years; null while open, or kept permanently, or no retention. */
export function dueOn(closedOn: string | null, retention: Retention | null): string | null {
  if (closedOn === null || retention === null || retention.action === 'permanent') return null;
  return addYears(closedOn, retention.years);
}

/** Whether the disposition is due on `today` (closed on + years <= today). */
export const isDue = (today: string, closedOn: string | null, retention: Retention | null): boolean => {
  const due = dueOn(closedOn, retention);
  return due !== null && due <= today;
};

/** What may happen to a disposition: approved, carried out, cancelled. */
export type DispositionStep = 'approve' | 'execute' | 'cancel';

/** Why a step is refused (each a problem of its own, `records.<refusal>`; `executing`: dispositionExecuting). */
export type DispositionRefusal =
  'underHold' | 'notProposed' | 'notApproved' | 'ownProposal' | 'finished' | 'executing';

/**
 * The next state of a disposition after `step` by `actor`, or why not: a legal hold on the file or any of
 * its documents stops every step but cancelling; the proposer never approves their own proposal; one
 * being carried out (`executing`, its job queued, running or stopped mid-way) is not cancelled, and
 * carrying it out again takes it up where it stopped; nothing follows a disposition done or cancelled.
 */
export function dispositionStep(
  d: { state: DispositionViewState; proposedBy: number | null },
  step: DispositionStep,
  actor: number,
  held: boolean,
): { state: DispositionViewState } | { refused: DispositionRefusal } {
  if (d.state === 'done' || d.state === 'cancelled') return { refused: 'finished' };
  if (step === 'cancel') return d.state === 'executing' ? { refused: 'executing' } : { state: 'cancelled' };
  if (held) return { refused: 'underHold' };
  if (step === 'approve') {
    if (d.state !== 'proposed') return { refused: 'notProposed' };
    if (d.proposedBy === actor) return { refused: 'ownProposal' };
    return { state: 'approved' };
  }
  if (d.state !== 'approved' && d.state !== 'executing') return { refused: 'notApproved' };
  return { state: 'executing' };
}
