/**
 * The organisation's working calendar and its arithmetic (issue 28): which days are off (the weekend and
 * the holidays, Hijri or Gregorian, yearly or not) and how many working days lie between two dates. Pure
 * (no Node, no DOM): the server computes due dates with it and the screens show the same days off.
 *
 * Days are `YYYY-MM-DD` strings at the edges and day numbers (days since 1970-01-01, UTC) inside. The
 * Hijri calendar is Umm al-Qura, through `Intl` (Node and Chromium both carry it), so no table is kept here.
 */
import type { HolidayCalendar } from './api/notifications-kinds';

/** A day or days off as the calendar needs it; `startsOn`/`endsOn` are Gregorian, inclusive. */
export interface CalendarHoliday {
  /** The stored holiday's id, when it has one (the calendar screen names the holiday of a day). */
  id?: number;
  nameAr?: string;
  nameEn?: string;
  startsOn: string;
  endsOn: string;
  calendar: HolidayCalendar;
  /** Yearly: on the same day of its own calendar every year, its length kept. */
  repeats: boolean;
}

export interface WorkingCalendar {
  /** Days of the week off: 0 = Sunday … 6 = Saturday. */
  weekend: readonly number[];
  holidays: readonly CalendarHoliday[];
}

/** The Arab working week's default weekend: Friday and Saturday. */
export const DEFAULT_WEEKEND: readonly number[] = [5, 6];

export interface HijriDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;

// ---------------------------------------------------------------- days as numbers

/** `YYYY-MM-DD` → days since 1970-01-01. */
export function dayNumber(day: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${day}`);
  return Math.round(dateUtc(Number(m[1]), Number(m[2]), Number(m[3])) / DAY_MS);
}

/** Days since 1970-01-01 → `YYYY-MM-DD`. */
export function dayString(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}

/** Date.UTC without its 0–99 → 1900s shortcut. */
function dateUtc(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(0, 0, 0, 0);
  return d.getTime();
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayOf(day: string | number): number {
  const n = typeof day === 'number' ? day : dayNumber(day);
  return (((n + 4) % 7) + 7) % 7;
}

/** The day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  return dayString(dayNumber(day) + n);
}

function yearOf(n: number): number {
  return new Date(n * DAY_MS).getUTCFullYear();
}

function firstOfYear(year: number): number {
  return Math.round(dateUtc(year, 1, 1) / DAY_MS);
}

// ---------------------------------------------------------------- Hijri (Umm al-Qura)

let hijriParts: Intl.DateTimeFormat | null = null;
function hijriFormatter(): Intl.DateTimeFormat {
  hijriParts ??= new Intl.DateTimeFormat('en-u-ca-islamic-umalqura-nu-latn', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  });
  return hijriParts;
}

function hijriOfNumber(n: number): HijriDate {
  const out: HijriDate = { year: 0, month: 0, day: 0 };
  for (const part of hijriFormatter().formatToParts(new Date(n * DAY_MS))) {
    if (part.type === 'year') out.year = parseInt(part.value, 10);
    else if (part.type === 'month') out.month = parseInt(part.value, 10);
    else if (part.type === 'day') out.day = parseInt(part.value, 10);
  }
  return out;
}

/** A Gregorian day's Hijri (Umm al-Qura) date. */
export function toHijri(day: string): HijriDate {
  return hijriOfNumber(dayNumber(day));
}

// 1 Muharram 1 AH fell on 19 July 622 (proleptic Gregorian); a Hijri year is about 354.367 days.
const HIJRI_EPOCH = Math.round(dateUtc(622, 7, 19) / DAY_MS);
const HIJRI_YEAR = 354.367;
const HIJRI_MONTH = 29.5306;

/**
 * The Gregorian day of a Hijri date, or null when it does not exist (the 30th of a month of 29 days, a
 * month 13). Found near an estimate: the estimate is corrected once, then searched within ±30 days.
 */
export function fromHijri(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (month < 1 || month > 12 || day < 1 || day > 30 || year < 1 || year > 9999) return null;
  const target = year * 400 + month * 31 + day;
  let estimate = Math.round(HIJRI_EPOCH + (year - 1) * HIJRI_YEAR + (month - 1) * HIJRI_MONTH + (day - 1));
  const h = hijriOfNumber(estimate);
  estimate += Math.round((year - h.year) * HIJRI_YEAR + (month - h.month) * HIJRI_MONTH + (day - h.day));
  for (let off = 0; off <= 30; off++) {
    for (const n of off === 0 ? [estimate] : [estimate + off, estimate - off]) {
      const c = hijriOfNumber(n);
      if (c.year * 400 + c.month * 31 + c.day === target) return dayString(n);
    }
  }
  return null;
}

/** A Hijri date written `1448-10-01`. */
export function hijriString(h: HijriDate): string {
  return `${String(h.year).padStart(4, '0')}-${String(h.month).padStart(2, '0')}-${String(h.day).padStart(2, '0')}`;
}

/** `1448-10-01` (or `1448-10-1`) → a Hijri date; null when it is not written that way. */
export function parseHijriString(text: string): HijriDate | null {
  const m = /^(\d{1,4})-(\d{1,2})-(\d{1,2})$/.exec(text.trim());
  if (!m) return null;
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

/** A Gregorian day written as its Hijri date (`1447-10-01`). */
export function hijriOf(day: string): string {
  return hijriString(toHijri(day));
}

/** A day for people to read, in a language and a calendar (Arabic with Arabic-Indic digits). */
export function formatDay(day: string, locale: 'ar' | 'en', calendar: HolidayCalendar): string {
  const tag =
    locale === 'ar'
      ? `ar-SA-u-ca-${calendar === 'hijri' ? 'islamic-umalqura' : 'gregory'}-nu-arab`
      : `en-GB-u-ca-${calendar === 'hijri' ? 'islamic-umalqura' : 'gregory'}-nu-latn`;
  return new Intl.DateTimeFormat(tag, {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(new Date(dayNumber(day) * DAY_MS));
}

/** A Hijri date that may be past its month's end (a yearly 30th): the month's last day instead. */
function fromHijriClamped(year: number, month: number, day: number): number | null {
  const g = fromHijri(year, month, day) ?? (day === 30 ? fromHijri(year, month, 29) : null);
  return g ? dayNumber(g) : null;
}

// ---------------------------------------------------------------- the days off, one Gregorian year at a time

interface YearDays {
  first: number;
  /** 1 for a working day. */
  working: Uint8Array;
  /** prefix[i] = working days among the year's first i days. */
  prefix: Int32Array;
  /** Day number → index of the holiday that makes it a day off. */
  holidays: Map<number, number>;
}

const cache = new WeakMap<WorkingCalendar, Map<number, YearDays>>();

/** The days a holiday takes, as [first, last] day numbers, for occurrences touching Gregorian `year`. */
function occurrences(h: CalendarHoliday, year: number): Array<[number, number]> {
  const start = dayNumber(h.startsOn);
  const length = dayNumber(h.endsOn) - start;
  if (!h.repeats) return [[start, start + length]];
  const out: Array<[number, number]> = [];
  if (h.calendar === 'gregorian') {
    const month = Number(h.startsOn.slice(5, 7));
    const day = Number(h.startsOn.slice(8, 10));
    // The year before too: a holiday that starts in late December reaches into January.
    for (const y of [year - 1, year]) {
      // 29 February in a common year: the 28th.
      const first = Math.round(dateUtc(y, month, day) / DAY_MS);
      const clamped = Number(dayString(first).slice(5, 7)) !== month ? first - 1 : first;
      out.push([clamped, clamped + length]);
    }
    return out;
  }
  const hijri = hijriOfNumber(start);
  const from = hijriOfNumber(firstOfYear(year)).year - 1;
  const to = hijriOfNumber(firstOfYear(year + 1) - 1).year;
  for (let y = from; y <= to; y++) {
    const first = fromHijriClamped(y, hijri.month, hijri.day);
    if (first !== null) out.push([first, first + length]);
  }
  return out;
}

function yearDays(cal: WorkingCalendar, year: number): YearDays {
  let years = cache.get(cal);
  if (!years) {
    years = new Map();
    cache.set(cal, years);
  }
  const known = years.get(year);
  if (known) return known;
  const first = firstOfYear(year);
  const length = firstOfYear(year + 1) - first;
  const weekend = new Set(cal.weekend);
  const working = new Uint8Array(length);
  for (let i = 0; i < length; i++) working[i] = weekend.has(weekdayOf(first + i)) ? 0 : 1;
  const holidays = new Map<number, number>();
  cal.holidays.forEach((h, index) => {
    for (const [a, b] of occurrences(h, year)) {
      for (let n = Math.max(a, first); n <= Math.min(b, first + length - 1); n++) {
        working[n - first] = 0;
        if (!holidays.has(n)) holidays.set(n, index);
      }
    }
  });
  const prefix = new Int32Array(length + 1);
  for (let i = 0; i < length; i++) prefix[i + 1] = prefix[i]! + working[i]!;
  const out: YearDays = { first, working, prefix, holidays };
  years.set(year, out);
  return out;
}

function isWorkingNumber(n: number, cal: WorkingCalendar): boolean {
  const y = yearDays(cal, yearOf(n));
  return y.working[n - y.first] === 1;
}

/** Whether a day is a working day: not in the weekend, not a holiday. */
export function isWorkingDay(day: string, cal: WorkingCalendar): boolean {
  return isWorkingNumber(dayNumber(day), cal);
}

/** The holiday that makes a day off (null: none; the weekend is not a holiday). */
export function holidayOn(day: string, cal: WorkingCalendar): CalendarHoliday | null {
  const n = dayNumber(day);
  const index = yearDays(cal, yearOf(n)).holidays.get(n);
  return index === undefined ? null : cal.holidays[index]!;
}

/** A calendar whose every day is off would make the search endless: give up after this many years. */
const MAX_EMPTY_YEARS = 10;

/**
 * The n-th working day after `from` (n ≥ 0). n = 0 is `from` itself when it is a working day, else the
 * next working day: a due date never falls on a day off.
 */
export function addWorkingDays(from: string, n: number, cal: WorkingCalendar): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`working days must be a whole number ≥ 0: ${n}`);
  const start = dayNumber(from);
  let needed = n;
  // n = 0 counts `from` itself; otherwise counting starts the day after.
  let cursor = n === 0 ? start : start + 1;
  if (n === 0) needed = 1;
  let empty = 0;
  for (;;) {
    const y = yearDays(cal, yearOf(cursor));
    const index = cursor - y.first;
    const left = y.prefix[y.working.length]! - y.prefix[index]!;
    if (left < needed) {
      // Skip the rest of the year at once: fast over long spans.
      needed -= left;
      empty = left === 0 ? empty + 1 : 0;
      if (empty > MAX_EMPTY_YEARS) throw new RangeError('the calendar has no working days');
      cursor = y.first + y.working.length;
      continue;
    }
    for (let i = index; ; i++) {
      if (y.working[i] === 1 && --needed === 0) return dayString(y.first + i);
    }
  }
}

/**
 * The n-th working day before `from` (n ≥ 0; n = 0 is `from` itself when working, else the working day
 * before it): when a reminder goes, `remindDaysBefore` working days ahead of a due date.
 */
export function subtractWorkingDays(from: string, n: number, cal: WorkingCalendar): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`working days must be a whole number ≥ 0: ${n}`);
  let cursor = dayNumber(from);
  let needed = n;
  if (n === 0) needed = 1;
  else cursor -= 1;
  // Reminders look days or weeks back: a day at a time, bounded like addWorkingDays.
  for (let guard = 0; guard < 366 * MAX_EMPTY_YEARS + n * 7; guard++, cursor--) {
    if (isWorkingNumber(cursor, cal) && --needed === 0) return dayString(cursor);
  }
  throw new RangeError('the calendar has no working days');
}

/** Working days in [a, b] (a ≤ b), by years. */
function countInclusive(a: number, b: number, cal: WorkingCalendar): number {
  let total = 0;
  let cursor = a;
  while (cursor <= b) {
    const y = yearDays(cal, yearOf(cursor));
    const last = Math.min(b, y.first + y.working.length - 1);
    total += y.prefix[last - y.first + 1]! - y.prefix[cursor - y.first]!;
    cursor = last + 1;
  }
  return total;
}

/**
 * The working days from `a` to `b`: those after `a` up to and including `b`, negative when `b` is before
 * `a`. `workingDaysBetween(due, today)` is how many working days a thing is overdue (0 on its due day);
 * `workingDaysBetween(a, addWorkingDays(a, n)) = n` for a working day `a`.
 */
export function workingDaysBetween(a: string, b: string, cal: WorkingCalendar): number {
  const x = dayNumber(a);
  const y = dayNumber(b);
  if (x === y) return 0;
  if (x < y) return countInclusive(x + 1, y, cal);
  // `|| 0`: no -0 for a span without working days.
  return -countInclusive(y + 1, x, cal) || 0;
}

/** The days off from `from` to `to` (inclusive), each with the holiday that makes it one (null: weekend). */
export function daysOff(
  from: string,
  to: string,
  cal: WorkingCalendar,
): Array<{ day: string; holiday: CalendarHoliday | null }> {
  const out: Array<{ day: string; holiday: CalendarHoliday | null }> = [];
  for (let n = dayNumber(from); n <= dayNumber(to); n++) {
    const y = yearDays(cal, yearOf(n));
    if (y.working[n - y.first] === 1) continue;
    const index = y.holidays.get(n);
    out.push({ day: dayString(n), holiday: index === undefined ? null : cal.holidays[index]! });
  }
  return out;
}
