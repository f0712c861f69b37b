/**
 * The backups' retention rule (src-server/backup/retention.ts, issue 29) as a pure function: a year and a
 * half of nightly backups kept as the defaults say, months counted in the organisation's time zone, then
 * properties over random histories and rules — the newest is always kept, every one of the N newest is,
 * one per month for the M latest months that have a backup (its newest), nothing else, and applying the
 * rule to what it kept keeps it all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyRetention,
  monthIn,
  newestFirst,
  type DatedBackup,
  type RetentionRule,
} from '../../src-server/backup/retention';

const kept = (backups: DatedBackup[], rule: RetentionRule) =>
  [...applyRetention(backups, rule)].filter(([, why]) => why.length).map(([name]) => name);

describe('the retention rule', () => {
  it('keeps a year and a half of nightly backups as the 7 newest and the newest of 12 months', () => {
    // Every night at 01:00 in Riyadh (22:00 UTC the day before), 2025-06-01 to 2026-11-28.
    const backups: DatedBackup[] = [];
    for (let at = Date.UTC(2025, 4, 31, 22); at <= Date.UTC(2026, 10, 27, 22); at += 86_400_000) {
      const createdAt = new Date(at);
      backups.push({ name: createdAt.toISOString(), createdAt });
    }
    const rule = { keepLast: 7, keepMonthly: 12, timeZone: 'Asia/Riyadh' };
    const names = kept(backups, rule);
    // The 7 newest (22-28 November in Riyadh) and the last night of each month December 2025 - October
    // 2026 (November's newest is among the 7): 7 + 11.
    expect(names).toEqual([
      ...[27, 26, 25, 24, 23, 22, 21].map((d) => new Date(Date.UTC(2026, 10, d, 22)).toISOString()),
      ...[
        [2026, 9, 30],
        [2026, 8, 29],
        [2026, 7, 30],
        [2026, 6, 30],
        [2026, 5, 29],
        [2026, 4, 30],
        [2026, 3, 29],
        [2026, 2, 30],
        [2026, 1, 27],
        [2026, 0, 30],
        [2025, 11, 30],
      ].map(([y, m, d]) => new Date(Date.UTC(y!, m!, d!, 22)).toISOString()),
    ]);
    // The month is Riyadh's: 22:00 UTC on 30 November is 1 December there.
    expect(monthIn('Asia/Riyadh', new Date(Date.UTC(2026, 10, 30, 22)))).toBe('2026-12');
    expect(monthIn('UTC', new Date(Date.UTC(2026, 10, 30, 22)))).toBe('2026-11');
    // Every night with only the newest kept: the newest alone.
    expect(kept(backups, { ...rule, keepLast: 1, keepMonthly: 0 })).toEqual([
      new Date(Date.UTC(2026, 10, 27, 22)).toISOString(),
    ]);
    // A rule that asks for none of the newest still keeps the newest.
    expect(kept(backups, { ...rule, keepLast: 0, keepMonthly: 0 })).toHaveLength(1);
  });

  it('holds its promises over random histories and rules', () => {
    const history = fc
      .uniqueArray(
        fc.date({
          min: new Date('2024-01-01T00:00:00Z'),
          max: new Date('2027-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        { maxLength: 60, selector: (d) => d.getTime() },
      )
      .map((dates) => dates.map((createdAt, i) => ({ name: `b${String(i).padStart(3, '0')}`, createdAt })));
    const rule = fc.record({
      keepLast: fc.integer({ min: 1, max: 10 }),
      keepMonthly: fc.integer({ min: 0, max: 14 }),
      timeZone: fc.constantFrom('UTC', 'Asia/Riyadh', 'America/Los_Angeles', 'Pacific/Kiritimati'),
    });
    fc.assert(
      fc.property(history, rule, (backups, r) => {
        const plan = applyRetention(backups, r);
        const sorted = newestFirst(backups);
        expect(plan.size).toBe(backups.length);
        // The newest, and each of the N newest, kept among the last.
        sorted.slice(0, r.keepLast).forEach((b) => expect(plan.get(b.name)).toContain('last'));
        sorted.slice(r.keepLast).forEach((b) => expect(plan.get(b.name)).not.toContain('last'));
        // One per month, its newest, for the M latest months that have a backup.
        const months = [...new Set(sorted.map((b) => monthIn(r.timeZone, b.createdAt)))];
        const monthly = sorted.filter((b) => plan.get(b.name)!.includes('monthly'));
        expect(monthly.map((b) => monthIn(r.timeZone, b.createdAt))).toEqual(months.slice(0, r.keepMonthly));
        for (const b of monthly)
          expect(
            sorted.find((o) => monthIn(r.timeZone, o.createdAt) === monthIn(r.timeZone, b.createdAt)),
          ).toBe(b);
        const names = kept(backups, r);
        expect(names.length).toBeLessThanOrEqual(r.keepLast + r.keepMonthly);
        // What it kept, it keeps: a second pruning removes nothing.
        const survivors = backups.filter((b) => names.includes(b.name));
        expect(kept(survivors, r).sort()).toEqual([...names].sort());
      }),
      { numRuns: 300 },
    );
  });
});
