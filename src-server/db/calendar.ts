/**
 * The organisation's working calendar as the server reads it (issue 28), shared by the modules that set
 * or watch due dates (like db/records.ts): the weekend and deadline settings from
 * `organisation_settings.deadlines`, the holidays from their table, and the due dates they give.
 * "Today" is never read here: callers pass the day (`dayIn(ctx.config.ORG_TIME_ZONE, ctx.clock.now())`).
 */
import { sql } from 'drizzle-orm';
import { readDeadlineSettings, replyDaysFor, type DeadlineSettings } from '../../src-shared/api/deadlines';
import type { HolidayCalendar } from '../../src-shared/api/notifications-kinds';
import {
  addWorkingDays,
  subtractWorkingDays,
  workingDaysBetween,
  type WorkingCalendar,
} from '../../src-shared/working-days';
import type { Db } from './open';
import { rowsOf } from './rows';

type Tx = Pick<Db, 'execute'>;

/** The deadline settings, defaults filled in (a new database stores `{}`). */
export async function loadDeadlineSettings(db: Tx): Promise<DeadlineSettings> {
  const [row] = await rowsOf<{ deadlines: unknown }>(
    db,
    sql`select deadlines from organisation_settings where id = 1`,
  );
  return readDeadlineSettings(row?.deadlines ?? {});
}

export interface HolidayRow {
  id: number;
  name_ar: string;
  name_en: string;
  calendar: HolidayCalendar;
  starts_on: string;
  ends_on: string;
  repeats: boolean;
  updated_at: string;
}

/** Every holiday, by first day (dates as YYYY-MM-DD text on both drivers). */
export async function loadHolidays(db: Tx): Promise<HolidayRow[]> {
  return rowsOf<HolidayRow>(
    db,
    sql`select id, name_ar, name_en, calendar, to_char(starts_on, 'YYYY-MM-DD') as starts_on,
               to_char(ends_on, 'YYYY-MM-DD') as ends_on, repeats, updated_at
          from holidays order by starts_on, id`,
  );
}

/** The working calendar from settings and holidays. A new object each call: it caches its own years. */
export async function loadWorkingCalendar(db: Tx, settings?: DeadlineSettings): Promise<WorkingCalendar> {
  const weekend = (settings ?? (await loadDeadlineSettings(db))).weekend;
  const holidays = (await loadHolidays(db)).map((h) => ({
    id: h.id,
    nameAr: h.name_ar,
    nameEn: h.name_en,
    calendar: h.calendar,
    startsOn: h.starts_on,
    endsOn: h.ends_on,
    repeats: h.repeats,
  }));
  return { weekend, holidays };
}

/**
 * The day a reply to an incoming letter of a priority (null: none) is due, counted in working days from
 * `fromDay` (its registration day); null when its priority needs no reply (0 days).
 */
export async function replyDueOn(db: Tx, priorityId: number | null, fromDay: string): Promise<string | null> {
  const settings = await loadDeadlineSettings(db);
  const days = replyDaysFor(settings, priorityId);
  if (days === 0) return null;
  return addWorkingDays(fromDay, days, await loadWorkingCalendar(db, settings));
}

/** The day an approver's answer is due, from the day their step became active. */
export async function approvalDueOn(db: Tx, fromDay: string): Promise<string> {
  const settings = await loadDeadlineSettings(db);
  return addWorkingDays(fromDay, settings.approvalDaysPerStep, await loadWorkingCalendar(db, settings));
}

/** The day the reminder of a due date goes (`remindDaysBefore` working days ahead of it). */
export function reminderDayOf(cal: WorkingCalendar, settings: DeadlineSettings, dueOn: string): string {
  return subtractWorkingDays(dueOn, settings.remindDaysBefore, cal);
}

/** How many working days past its due date `today` is (0 on or before the due day). */
export function overdueWorkingDays(cal: WorkingCalendar, dueOn: string, today: string): number {
  return Math.max(0, workingDaysBetween(dueOn, today, cal));
}
