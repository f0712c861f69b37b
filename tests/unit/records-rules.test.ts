/**
 * The rules of records management (src-server/modules/records/rules.ts) by properties (fast-check): what a
 * disposition may do next in each of its states — a hold stops all but cancelling, the proposer never
 * approves, one being carried out is not cancelled and may be carried out again (its job continues),
 * nothing follows one done or cancelled — and the retention's due day.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISPOSITION_VIEW_STATES } from '../../src-shared/api/records';
import {
  addYears,
  dispositionStep,
  dueOn,
  isDue,
  type DispositionStep,
} from '../../src-server/modules/records/rules';

const states = fc.constantFrom(...DISPOSITION_VIEW_STATES);
const steps = fc.constantFrom<DispositionStep>('approve', 'execute', 'cancel');
const people = fc.integer({ min: 1, max: 4 });

describe('dispositionStep', () => {
  it('answers every state, step, actor and hold with a next state or a refusal that follows the rules', () => {
    fc.assert(
      fc.property(states, steps, people, people, fc.boolean(), (state, step, proposer, actor, held) => {
        expect(dispositionStep({ state, proposedBy: proposer }, step, actor, held)).toEqual(
          state === 'done' || state === 'cancelled'
            ? { refused: 'finished' }
            : step === 'cancel'
              ? state === 'executing'
                ? { refused: 'executing' }
                : { state: 'cancelled' }
              : held
                ? { refused: 'underHold' }
                : step === 'approve'
                  ? state !== 'proposed'
                    ? { refused: 'notProposed' }
                    : proposer === actor
                      ? { refused: 'ownProposal' }
                      : { state: 'approved' }
                  : state === 'approved' || state === 'executing'
                    ? { state: 'executing' }
                    : { refused: 'notApproved' },
        );
      }),
    );
  });

  it('a disposition being carried out is never cancelled, held or not', () => {
    for (const held of [false, true])
      expect(dispositionStep({ state: 'executing', proposedBy: 1 }, 'cancel', 2, held)).toEqual({
        refused: 'executing',
      });
  });
});

describe('due days', () => {
  const days = fc
    .date({
      min: new Date('1990-01-01T00:00:00Z'),
      max: new Date('2090-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 10));

  it('years later, the same day of the month (29 February: the 28th when the year has none)', () => {
    fc.assert(
      fc.property(days, fc.integer({ min: 0, max: 100 }), (day, years) => {
        const due = addYears(day, years);
        expect(Number(due.slice(0, 4))).toBe(Number(day.slice(0, 4)) + years);
        expect(due.slice(5, 7)).toBe(day.slice(5, 7));
        if (day.slice(5) !== '02-29') expect(due.slice(8)).toBe(day.slice(8));
        else expect(['28', '29']).toContain(due.slice(8));
      }),
    );
  });

  it('due on that day and after, never for a file open or kept permanently', () => {
    fc.assert(
      fc.property(days, days, fc.integer({ min: 0, max: 30 }), (closed, today, years) => {
        const retention = { years, action: 'destroy' as const, legalReference: '' };
        expect(isDue(today, closed, retention)).toBe(addYears(closed, years) <= today);
        expect(isDue(today, null, retention)).toBe(false);
        expect(dueOn(closed, { ...retention, action: 'permanent' })).toBeNull();
      }),
    );
  });
});
