/**
 * The approval engine (src-server/modules/correspondence/approval-engine.ts): examples of its transitions,
 * then properties over random circuits driven by random event sequences from a fresh draft.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalAction } from '../../src-shared/api/correspondence';
import {
  applyEffect,
  shapeCircuit,
  transition,
  type Circuit,
  type CircuitEvent,
  type Effect,
  type Outcome,
  type ShapedCircuit,
} from '../../src-server/modules/correspondence/approval-engine';

const AUTHOR = 100;

const draft = (direction = 'out'): Circuit => ({
  direction,
  status: 'draft',
  version: 1,
  submittedVersion: null,
  currentStep: null,
  numbered: false,
  members: [],
});

function shaped(steps: number[][]): ShapedCircuit {
  const s = shapeCircuit(
    steps.map((userIds) => ({ userIds })),
    AUTHOR,
  );
  if (!s.ok) throw new Error(s.refusal);
  return s.steps;
}

const submit = (c: Circuit, steps: number[][], version = c.version): CircuitEvent => ({
  type: 'submit',
  version,
  steps: shaped(steps),
});
const answer = (
  c: Circuit,
  by: number,
  action: ApprovalAction = 'approve',
  comment: string | null = action === 'approve' ? null : 'why',
  version = c.version,
): CircuitEvent => ({ type: 'answer', by, action, comment, version });

/** The state after an accepted event (fails the test when refused). */
function ok(c: Circuit, e: CircuitEvent): Circuit {
  const o = transition(c, e);
  if (!o.ok) throw new Error(`refused: ${o.refusal}`);
  return o.state;
}
const effectTypes = (o: Outcome) => (o.ok ? o.effects.map((e) => e.type) : []);
const pendingOf = (c: Circuit) => c.members.filter((m) => m.pending).map((m) => m.userId);

describe('the approval engine, by example', () => {
  it('moves a three-step circuit with a parallel step one step at a time; the signature numbers it', () => {
    let c = ok(draft(), submit(draft(), [[1, 2], [3], [4]]));
    expect(c).toMatchObject({ status: 'approving', currentStep: 1, submittedVersion: 1 });
    expect(pendingOf(c)).toEqual([1, 2]);
    // A later step may not act yet; someone outside may not at all; a second click is stale.
    expect(transition(c, answer(c, 3))).toMatchObject({ ok: false, refusal: 'notYourTurn' });
    expect(transition(c, answer(c, 9))).toMatchObject({ ok: false, refusal: 'notInCircuit' });
    c = ok(c, answer(c, 1));
    expect(c.currentStep).toBe(1);
    expect(transition(c, answer(c, 1))).toMatchObject({ ok: false, refusal: 'alreadyAnswered' });
    c = ok(c, answer(c, 2));
    expect(c.currentStep).toBe(2);
    c = ok(c, answer(c, 3));
    const signed = transition(c, answer(c, 4));
    expect(effectTypes(signed)).toEqual(['confirmSignature', 'recordAnswer', 'log', 'assignNumber']);
    expect(signed.state).toMatchObject({ status: 'approved', currentStep: null, numbered: true });
  });

  it('distributes a memo when it is approved, never an outgoing letter', () => {
    const memo = ok(draft('memo'), submit(draft('memo'), [[4]]));
    expect(effectTypes(transition(memo, answer(memo, 4)))).toContain('distribute');
    const letter = ok(draft('out'), submit(draft('out'), [[4]]));
    expect(effectTypes(transition(letter, answer(letter, 4)))).not.toContain('distribute');
  });

  it('refuses a stale version, a return without a comment, and a submission of a document in its circuit', () => {
    const c = ok(draft(), submit(draft(), [[1], [4]]));
    expect(transition(c, answer(c, 1, 'approve', null, 7))).toMatchObject({ refusal: 'versionChanged' });
    expect(transition(c, answer(c, 1, 'reject', null))).toMatchObject({ refusal: 'commentRequired' });
    expect(transition(c, submit(c, [[1], [4]]))).toMatchObject({ refusal: 'notWithAuthor' });
    expect(transition(draft(), submit(draft(), [[1], [4]], 2))).toMatchObject({ refusal: 'versionChanged' });
    expect(transition(c, { type: 'newVersion' })).toMatchObject({ refusal: 'notWithAuthor' });
  });

  it('resumes at the step that asked for changes when neither the version nor the circuit changed', () => {
    let c = ok(draft(), submit(draft(), [[1], [2], [4]]));
    c = ok(c, answer(c, 1));
    c = ok(c, answer(c, 2, 'requestChanges'));
    expect(c).toMatchObject({ status: 'changesRequested', currentStep: 2 });
    expect(pendingOf(c)).toEqual([]);
    const again = transition(c, submit(c, [[1], [2], [4]]));
    expect(again.state).toMatchObject({ status: 'approving', currentStep: 2 });
    expect(again.state.members[0]).toMatchObject({ userId: 1, decision: 'approved', pending: false });
    expect(pendingOf(again.state)).toEqual([2]);
    expect(effectTypes(again)).not.toContain('replaceCircuit');
  });

  it('restarts, voiding the approvals, after a new version, a changed circuit or a rejection', () => {
    let c = ok(draft(), submit(draft(), [[1], [2], [4]]));
    c = ok(c, answer(c, 1));
    c = ok(c, answer(c, 2, 'requestChanges'));
    const edited = ok(c, { type: 'newVersion' });
    const restarted = transition(edited, submit(edited, [[1], [2], [4]]));
    expect(restarted.state).toMatchObject({ currentStep: 1, version: 2, submittedVersion: 2 });
    expect(restarted.state.members.every((m) => m.decision === null)).toBe(true);
    expect(restarted.ok && restarted.effects).toContainEqual({
      type: 'log',
      entry: { event: 'circuitRestarted', voided: 1, version: 2 },
    });
    expect(transition(c, submit(c, [[2], [1], [4]])).state.currentStep).toBe(1);
    const rejected = ok(ok(c, submit(c, [[1], [2], [4]])), answer(c, 2, 'reject'));
    expect(rejected.status).toBe('rejected');
    expect(transition(rejected, submit(rejected, [[1], [2], [4]])).state.currentStep).toBe(1);
  });

  it('shapes a chosen circuit: someone in it, each once, one signatory last, the author giving no opinion', () => {
    expect(shapeCircuit([])).toEqual({ ok: false, refusal: 'noApprovers' });
    expect(shapeCircuit([{ userIds: [1] }, { userIds: [1] }])).toEqual({
      ok: false,
      refusal: 'duplicateApprover',
    });
    expect(shapeCircuit([{ userIds: [1, 2] }])).toEqual({ ok: false, refusal: 'oneSignatory' });
    expect(shapeCircuit([{ userIds: [AUTHOR] }, { userIds: [2] }], AUTHOR)).toEqual({
      ok: false,
      refusal: 'authorInCircuit',
    });
    // The author may sign their own document.
    expect(shapeCircuit([{ userIds: [1, 2] }, { userIds: [AUTHOR] }], AUTHOR)).toEqual({
      ok: true,
      steps: [
        { kind: 'opinion', userIds: [1, 2] },
        { kind: 'sign', userIds: [AUTHOR] },
      ],
    });
  });
});

// ---------------------------------------------------------------- properties

/** A circuit: distinct people in steps, the last one alone (the signatory). */
const circuitArb = fc
  .uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 6 })
  .chain((people) =>
    fc.array(fc.boolean(), { minLength: people.length, maxLength: people.length }).map((cuts) => {
      const steps: number[][] = [];
      for (const [i, person] of people.slice(0, -1).entries())
        if (cuts[i] || !steps.length) steps.push([person]);
        else steps.at(-1)!.push(person);
      return [...steps, [people.at(-1)!]];
    }),
  );

/** What happens next, resolved against the state it happens to (so most events are ones that may be taken). */
type Command =
  | { kind: 'submit'; circuit: number[][] | null; stale: boolean }
  | {
      kind: 'answer';
      who: 'turn' | 'member' | 'outsider';
      pick: number;
      action: ApprovalAction;
      comment: boolean;
      stale: boolean;
    }
  | { kind: 'newVersion' };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      circuit: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: circuitArb }),
      stale: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      who: fc.constantFrom('turn', 'turn', 'turn', 'turn', 'member', 'outsider'),
      pick: fc.nat(),
      action: fc.constantFrom<ApprovalAction>(
        'approve',
        'approve',
        'approve',
        'approve',
        'reject',
        'requestChanges',
        'requestChanges',
      ),
      comment: fc.integer({ min: 0, max: 9 }).map((n) => n > 1),
      stale: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'newVersion' as const }) },
);

function resolve(c: Circuit, cmd: Command, firstCircuit: number[][]): CircuitEvent {
  const version = c.version + (cmd.kind !== 'newVersion' && cmd.stale ? 1 : 0);
  switch (cmd.kind) {
    case 'submit': {
      // Without a circuit of its own, a submission keeps the one it has (as the service does).
      const current = [...new Set(c.members.map((m) => m.position))].map((p) =>
        c.members.filter((m) => m.position === p).map((m) => m.userId),
      );
      const steps = cmd.circuit ?? (current.length ? current : firstCircuit);
      return { type: 'submit', version, steps: shaped(steps) };
    }
    case 'answer': {
      const turns = c.members.filter((m) => m.pending).map((m) => m.userId);
      const members = c.members.map((m) => m.userId);
      // Nobody's turn (the document is back with its author): someone of the circuit tries anyway.
      const pool = cmd.who === 'outsider' ? [42] : cmd.who === 'turn' && turns.length ? turns : members;
      const by = pool.length ? pool[cmd.pick % pool.length]! : 42;
      const comment = cmd.action === 'approve' || cmd.comment ? 'a comment' : null;
      return { type: 'answer', by, action: cmd.action, comment, version };
    }
    case 'newVersion':
      return { type: 'newVersion' };
  }
}

/** One run: every transition from a fresh draft with what it was given and what it answered. */
interface Step {
  before: Circuit;
  event: CircuitEvent;
  outcome: Outcome;
  /** The state passed in, read again after the call (a refusal or a transition must not change it). */
  beforeAfterCall: Circuit;
}

function run(direction: string, first: number[][], commands: Command[]): Step[] {
  let c = draft(direction);
  const steps: Step[] = [];
  // The first event is a submission, so most runs go somewhere.
  for (const cmd of [{ kind: 'submit', circuit: first, stale: false } as const, ...commands]) {
    const event = resolve(c, cmd, first);
    const before = structuredClone(c);
    const outcome = transition(c, event);
    steps.push({ before, event, outcome, beforeAfterCall: structuredClone(c) });
    c = outcome.state;
  }
  return steps;
}

const runArb = fc.record({
  direction: fc.constantFrom('out', 'memo', 'internal'),
  first: circuitArb,
  commands: fc.array(commandArb, { maxLength: 40 }),
});

const positionsOf = (c: Circuit) => [...new Set(c.members.map((m) => m.position))].sort((a, b) => a - b);
const has = (o: Outcome, type: Effect['type']) => o.ok && o.effects.some((e) => e.type === type);
const count = (o: Outcome, type: Effect['type']) =>
  o.ok ? o.effects.filter((e) => e.type === type).length : 0;

function property(check: (steps: Step[]) => void) {
  fc.assert(
    fc.property(runArb, ({ direction, first, commands }) => check(run(direction, first, commands))),
    { numRuns: 300 },
  );
}

describe('the approval engine, over random circuits and events', () => {
  it('leaves the state unchanged when it refuses an event (and never changes the state it is given)', () => {
    property((steps) => {
      for (const s of steps) {
        expect(s.beforeAfterCall).toEqual(s.before);
        if (!s.outcome.ok) expect(s.outcome.state).toEqual(s.before);
      }
    });
  });

  it('answers the state its effects leave behind', () => {
    property((steps) => {
      for (const s of steps)
        if (s.outcome.ok) expect(s.outcome.effects.reduce(applyEffect, s.before)).toEqual(s.outcome.state);
    });
  });

  it('keeps the signatory last and alone, and turns only on the current step of a running circuit', () => {
    property((steps) => {
      for (const { outcome } of steps) {
        const c = outcome.state;
        const positions = positionsOf(c);
        const signers = c.members.filter((m) => m.kind === 'sign');
        if (c.members.length) {
          expect(positions).toEqual(positions.map((_, i) => i + 1));
          expect(signers).toHaveLength(1);
          expect(signers[0]!.position).toBe(positions.at(-1));
        }
        const pending = c.members.filter((m) => m.pending);
        if (c.status === 'approving') {
          expect(pending.length).toBeGreaterThan(0);
          expect(pending.every((m) => m.position === c.currentStep)).toBe(true);
          // Every step before the current one is approved by all its people.
          expect(c.members.every((m) => m.position >= c.currentStep! || m.decision === 'approved')).toBe(
            true,
          );
        } else expect(pending).toEqual([]);
        expect(c.numbered).toBe(c.status === 'approved');
      }
    });
  });

  it('moves at most one step forward per answer', () => {
    property((steps) => {
      for (const { before, event, outcome } of steps) {
        if (event.type !== 'answer' || !outcome.ok) continue;
        expect(count(outcome, 'openStep')).toBeLessThanOrEqual(1);
        const positions = positionsOf(before);
        const from = positions.indexOf(before.currentStep!);
        if (outcome.state.status === 'approving') {
          const to = positions.indexOf(outcome.state.currentStep!);
          expect(to === from || to === from + 1).toBe(true);
        } else if (outcome.state.status === 'approved') expect(from).toBe(positions.length - 1);
      }
    });
  });

  it('numbers a document once, at the signatory’s approval, after every step approved; nothing follows', () => {
    property((steps) => {
      let numbered = 0;
      for (const { before, event, outcome } of steps) {
        if (before.status === 'approved') expect(outcome.ok).toBe(false);
        const n = count(outcome, 'assignNumber');
        numbered += n;
        if (!n) {
          expect(outcome.state.status === 'approved').toBe(before.status === 'approved');
          continue;
        }
        expect(n).toBe(1);
        expect(event).toMatchObject({ type: 'answer', action: 'approve' });
        const signer = before.members.find((m) => m.kind === 'sign')!;
        expect(event.type === 'answer' && event.by).toBe(signer.userId);
        expect(has(outcome, 'confirmSignature')).toBe(true);
        expect(outcome.state.members.every((m) => m.decision === 'approved')).toBe(true);
        expect(outcome.state.status).toBe('approved');
      }
      expect(numbered).toBe(steps.at(-1)!.outcome.state.status === 'approved' ? 1 : 0);
    });
  });

  it('does not advance a rejected circuit or one sent back for changes', () => {
    property((steps) => {
      for (const { before, event, outcome } of steps) {
        if (event.type === 'answer' && event.action !== 'approve' && outcome.ok) {
          expect(outcome.state.status).toBe(event.action === 'reject' ? 'rejected' : 'changesRequested');
          expect(outcome.state.currentStep).toBe(before.currentStep);
          expect(has(outcome, 'openStep') || has(outcome, 'assignNumber')).toBe(false);
          expect(outcome.state.members.some((m) => m.pending)).toBe(false);
        }
        // Back with its author, only a submission moves it.
        if (before.status === 'rejected' || before.status === 'changesRequested')
          if (event.type !== 'submit' || !outcome.ok) {
            expect(outcome.state.currentStep).toBe(before.currentStep);
            expect(outcome.state.members).toEqual(before.members);
          }
      }
    });
  });

  it('voids the circuit after a new version: the next submission restarts at the first step, no approval kept', () => {
    property((steps) => {
      let edited = false;
      for (const { before, event, outcome } of steps) {
        // A running circuit is frozen: a new version only comes while the document is with its author.
        if (event.type === 'newVersion' && before.status === 'approving') expect(outcome.ok).toBe(false);
        if (event.type === 'newVersion' && outcome.ok) edited = true;
        if (event.type === 'submit' && outcome.ok) {
          if (edited) {
            expect(has(outcome, 'replaceCircuit')).toBe(true);
            expect(outcome.state.currentStep).toBe(1);
            expect(outcome.state.members.some((m) => m.decision === 'approved')).toBe(false);
          }
          edited = false;
        }
      }
    });
  });

  it('voids it too when sent back after approvals, edited and resubmitted as it was; resumes it when not edited', () => {
    const answerCmd = (action: ApprovalAction): Command => ({
      kind: 'answer',
      who: 'turn',
      pick: 0,
      action,
      comment: true,
      stale: false,
    });
    fc.assert(
      fc.property(
        circuitArb,
        fc.nat({ max: 6 }),
        fc.constantFrom<ApprovalAction>('reject', 'requestChanges'),
        fc.nat({ max: 2 }),
        (first, approvals, back, edits) => {
          const commands: Command[] = [
            ...Array.from({ length: approvals }, () => answerCmd('approve')),
            answerCmd(back),
            ...Array.from({ length: edits }, () => ({ kind: 'newVersion' }) as const),
            { kind: 'submit', circuit: null, stale: false },
          ];
          const steps = run('out', first, commands);
          const returned = steps.at(-2 - edits)!.outcome;
          fc.pre(returned.ok); // the circuit had not ended before it was sent back
          const last = steps.at(-1)!.outcome;
          expect(last.ok).toBe(true);
          if (edits || back === 'reject') {
            expect(has(last, 'replaceCircuit')).toBe(true);
            expect(last.state.currentStep).toBe(1);
            expect(last.state.members.some((m) => m.decision === 'approved')).toBe(false);
          } else expect(last.state.currentStep).toBe(returned.state.currentStep);
        },
      ),
      { numRuns: 300 },
    );
  });
});
