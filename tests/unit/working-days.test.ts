/**
 * Working-day arithmetic (issue 28): weekends of the Arab and the Western week, a holiday range, a due
 * date that would fall on a holiday, an Eid entered once as Hijri and repeating, a range across the Hijri
 * new year; then properties over random calendars and days. Hijri dates are checked against Intl's
 * Umm al-Qura, not against a table.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addWorkingDays,
  daysOff,
  fromHijri,
  hijriOf,
  holidayOn,
  isWorkingDay,
  parseHijriString,
  subtractWorkingDays,
  toHijri,
  weekdayOf,
  workingDaysBetween,
  type CalendarHoliday,
  type WorkingCalendar,
} from '../../src-shared/working-days';

const intlHijri = (day: string) => {
  const parts = new Intl.DateTimeFormat('en-u-ca-islamic-umalqura-nu-latn', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(new Date(`${day}T00:00:00Z`));
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: n('year'), month: n('month'), day: n('day') };
};

const friSat: WorkingCalendar = { weekend: [5, 6], holidays: [] };
const satSun: WorkingCalendar = { weekend: [0, 6], holidays: [] };
const closed: CalendarHoliday = {
  startsOn: '2026-12-06',
  endsOn: '2026-12-08',
  calendar: 'gregorian',
  repeats: false,
};
const withClosure: WorkingCalendar = { weekend: [5, 6], holidays: [closed] };
// Eid al-Fitr entered once, for 1447, as 1–3 Shawwal, repeating each Hijri year.
const eidStart = fromHijri(1447, 10, 1)!;
const eid: CalendarHoliday = {
  startsOn: eidStart,
  endsOn: fromHijri(1447, 10, 3)!,
  calendar: 'hijri',
  repeats: true,
};
const withEid: WorkingCalendar = { weekend: [5, 6], holidays: [eid] };

describe('Hijri dates (Umm al-Qura through Intl)', () => {
  it('1 Shawwal 1447 and 1448 are the Gregorian days Intl says', () => {
    expect(intlHijri(eidStart)).toEqual({ year: 1447, month: 10, day: 1 });
    expect(eidStart).toBe('2026-03-20');
    const next = fromHijri(1448, 10, 1)!;
    expect(intlHijri(next)).toEqual({ year: 1448, month: 10, day: 1 });
    expect(next).toBe('2027-03-09');
  });

  it('round-trips every day of several years, and refuses days that do not exist', () => {
    for (let n = 0; n < 3 * 366; n += 1) {
      const day = new Date(Date.UTC(2025, 0, 1 + n)).toISOString().slice(0, 10);
      const h = toHijri(day);
      expect(h).toEqual(intlHijri(day));
      expect(fromHijri(h.year, h.month, h.day)).toBe(day);
    }
    expect(fromHijri(1447, 10, 30)).toBeNull(); // Shawwal 1447 has 29 days
    expect(fromHijri(1447, 13, 1)).toBeNull();
    expect(parseHijriString('1448-10-01')).toEqual({ year: 1448, month: 10, day: 1 });
    expect(hijriOf('2026-03-20')).toBe('1447-10-01');
  });
});

describe('working days, as a table', () => {
  // [calendar, from, n, due date] — 2026-12-03 is a Thursday.
  const cases: Array<[string, WorkingCalendar, string, number, string]> = [
    ['Fri–Sat: Thursday + 1 is Sunday', friSat, '2026-12-03', 1, '2026-12-06'],
    ['Fri–Sat: Thursday + 0 is Thursday', friSat, '2026-12-03', 0, '2026-12-03'],
    ['Fri–Sat: Friday + 0 is Sunday (never a day off)', friSat, '2026-12-04', 0, '2026-12-06'],
    ['Fri–Sat: Thursday + 5 is next Thursday', friSat, '2026-12-03', 5, '2026-12-10'],
    ['Sat–Sun: Thursday + 1 is Friday', satSun, '2026-12-03', 1, '2026-12-04'],
    ['Sat–Sun: Friday + 1 is Monday', satSun, '2026-12-04', 1, '2026-12-07'],
    ['a holiday range is skipped', withClosure, '2026-12-03', 1, '2026-12-09'],
    ['a due date on a holiday moves to the next working day', withClosure, '2026-12-02', 2, '2026-12-09'],
    ['Eid 1447 (Fri 20 – Sun 22 March) skipped: Thursday + 1', withEid, '2026-03-19', 1, '2026-03-23'],
    ['Eid 1448, a year later in Hijri, skipped', withEid, '2027-03-08', 1, '2027-03-14'],
  ];
  it.each(cases)('%s', (_, cal, from, n, due) => {
    expect(addWorkingDays(from, n, cal)).toBe(due);
    expect(isWorkingDay(due, cal)).toBe(true);
  });

  it('the repeating Eid is off in two Gregorian years, on the days Intl names 1–3 Shawwal', () => {
    for (const hijriYear of [1447, 1448, 1449]) {
      const first = fromHijri(hijriYear, 10, 1)!;
      const off = daysOff(first, fromHijri(hijriYear, 10, 5)!, withEid).filter((d) => d.holiday);
      expect(off.map((d) => intlHijri(d.day))).toEqual(
        [1, 2, 3].map((day) => ({ year: hijriYear, month: 10, day })),
      );
      expect(holidayOn(first, withEid)).toBe(eid);
    }
    // Not repeating: only its own year.
    const once: WorkingCalendar = { weekend: [], holidays: [{ ...eid, repeats: false }] };
    expect(isWorkingDay(fromHijri(1447, 10, 2)!, once)).toBe(false);
    expect(isWorkingDay(fromHijri(1448, 10, 2)!, once)).toBe(true);
  });

  it('a range across the Hijri new year: its first two days off, repeating, kept as long each year', () => {
    const newYear = fromHijri(1448, 1, 1)!;
    const cal: WorkingCalendar = {
      weekend: [5, 6],
      holidays: [{ startsOn: newYear, endsOn: fromHijri(1448, 1, 2)!, calendar: 'hijri', repeats: true }],
    };
    // 1448 and, a Hijri year later (eleven days earlier in the Gregorian year), 1449.
    for (const year of [1448, 1449]) {
      expect(isWorkingDay(fromHijri(year, 1, 1)!, cal)).toBe(false);
      expect(isWorkingDay(fromHijri(year, 1, 2)!, cal)).toBe(false);
      const eve = fromHijri(year - 1, 12, 29)!;
      expect(holidayOn(eve, cal)).toBeNull();
      const off = daysOff(eve, fromHijri(year, 1, 10)!, cal).filter((d) => d.holiday);
      expect(off).toHaveLength(2);
    }
    // Counting across the boundary skips the two days (those not already a weekend).
    const before = '2026-06-10';
    const after = '2026-06-24';
    const plain = workingDaysBetween(before, after, { weekend: [5, 6], holidays: [] });
    const offDays = daysOff(before, after, cal).filter(
      (d) => d.holiday && ![5, 6].includes(weekdayOf(d.day)),
    ).length;
    expect(offDays).toBe(2);
    expect(workingDaysBetween(before, after, cal)).toBe(plain - offDays);
  });

  it('counts signed working days (overdue by N) and goes back for reminders', () => {
    expect(workingDaysBetween('2026-12-03', '2026-12-10', friSat)).toBe(5);
    expect(workingDaysBetween('2026-12-10', '2026-12-03', friSat)).toBe(-5);
    expect(workingDaysBetween('2026-12-03', '2026-12-05', friSat)).toBe(0);
    expect(workingDaysBetween('2026-12-03', '2026-12-03', friSat)).toBe(0);
    expect(subtractWorkingDays('2026-12-06', 1, friSat)).toBe('2026-12-03');
    expect(subtractWorkingDays('2026-12-09', 1, withClosure)).toBe('2026-12-03');
  });

  it('is fast over years and refuses a week without a working day', () => {
    const started = performance.now();
    expect(workingDaysBetween('2000-01-01', '2099-12-31', withEid)).toBeGreaterThan(25_000);
    expect(addWorkingDays('2026-01-01', 2_500, withEid) > '2035-01-01').toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(() => addWorkingDays('2026-01-01', 1, { weekend: [0, 1, 2, 3, 4, 5, 6], holidays: [] })).toThrow();
  });
});

describe('working days, as properties', () => {
  const day = fc
    .integer({ min: Date.UTC(2020, 0, 1) / 86_400_000, max: Date.UTC(2035, 11, 31) / 86_400_000 })
    .map((n) => new Date(n * 86_400_000).toISOString().slice(0, 10));
  const holiday = fc.record({
    startsOn: day,
    length: fc.integer({ min: 0, max: 9 }),
    calendar: fc.constantFrom('gregorian' as const, 'hijri' as const),
    repeats: fc.boolean(),
  });
  const calendar = fc
    .record({
      weekend: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }),
      holidays: fc.array(holiday, { maxLength: 4 }),
    })
    .map(({ weekend, holidays }): WorkingCalendar => ({
      weekend,
      holidays: holidays.map((h) => ({
        startsOn: h.startsOn,
        endsOn: new Date(Date.parse(h.startsOn) + h.length * 86_400_000).toISOString().slice(0, 10),
        calendar: h.calendar,
        repeats: h.repeats,
      })),
    }));
  const n = fc.integer({ min: 0, max: 120 });

  it('addWorkingDays lands on a working day', () => {
    fc.assert(
      fc.property(calendar, day, n, (cal, from, k) => isWorkingDay(addWorkingDays(from, k, cal), cal)),
    );
  });

  it('workingDaysBetween(a, addWorkingDays(a, n)) = n for a working a', () => {
    fc.assert(
      fc.property(calendar, day, n, (cal, a, k) => {
        fc.pre(isWorkingDay(a, cal));
        return workingDaysBetween(a, addWorkingDays(a, k, cal), cal) === k;
      }),
    );
  });

  it('is monotone in n, and antisymmetric', () => {
    fc.assert(
      fc.property(calendar, day, n, n, (cal, a, x, y) => {
        const [lo, hi] = x <= y ? [x, y] : [y, x];
        const dLo = addWorkingDays(a, lo, cal);
        const dHi = addWorkingDays(a, hi, cal);
        expect(dLo <= dHi).toBe(true);
        // Strictly later, but for 0 and 1 from a day off: both are the next working day (n = 0 moves a
        // day off forward, n = 1 counts from the day after).
        if (lo < hi && (lo > 0 || isWorkingDay(a, cal))) expect(dLo < dHi).toBe(true);
        expect(workingDaysBetween(dHi, dLo, cal) + workingDaysBetween(dLo, dHi, cal)).toBe(0);
      }),
    );
  });
});
