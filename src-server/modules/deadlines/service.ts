/**
 * The rules of the working week, holidays and deadline settings (issue 28). The settings are stored
 * whole in `organisation_settings.deadlines` and read back with their defaults filled; the priorities they
 * name must be priorities. A holiday is entered in the calendar it names and stored in Gregorian days: a
 * Hijri day is converted by Umm al-Qura here, and refused when it does not exist (the 30th of a month of
 * 29 days). Every change is audited in its transaction.
 */
import {
  CALENDAR_MAX_DAYS,
  hijriDateSchema,
  readDeadlineSettings,
  type CalendarDays,
  type CalendarQuery,
  type DeadlineSettings,
  type DeadlineSettingsView,
  type Holiday,
  type HolidayDayInput,
  type HolidayRequestParsed,
} from '../../../src-shared/api/deadlines';
import type { HolidayCalendar } from '../../../src-shared/api/notifications-kinds';
import { daysOff, dayNumber, fromHijri, hijriOf, parseHijriString } from '../../../src-shared/working-days';
import { recordAudit, type AuditAction } from '../../audit';
import type { ServerContext } from '../../context';
import { loadHolidays, loadWorkingCalendar, type HolidayRow } from '../../db/calendar';
import type { AuthContext } from '../../http/access';
import { HttpProblem } from '../../http/problem';
import type { Tx } from '../auth/queries';
import * as q from './queries';

/** A holiday longer than this is a mistake (a year typed wrong), not a holiday. */
const HOLIDAY_MAX_DAYS = 90;

const audit = (
  tx: Tx,
  caller: AuthContext,
  action: AuditAction & `deadlines.${string}`,
  targetId: number,
  details: Record<string, unknown>,
  ip: string | null,
) =>
  recordAudit(tx, {
    action,
    actorId: caller.userId,
    actorUsername: caller.username,
    targetType: action === 'deadlines.settingsUpdated' ? 'deadlineSettings' : 'holiday',
    targetId,
    details,
    ip,
  });

const instant = (value: string | Date) => new Date(value).toISOString();

// ---------------------------------------------------------------- settings

function settingsView(row: { deadlines: unknown; updated_at: string }): DeadlineSettingsView {
  return { settings: readDeadlineSettings(row.deadlines), updatedAt: instant(row.updated_at) };
}

/** GET /deadlines/settings. */
export async function getSettings(ctx: ServerContext): Promise<DeadlineSettingsView> {
  return settingsView(await q.readSettingsRow(ctx.db));
}

/** PUT /deadlines/settings: the whole settings; the priorities named must exist. */
export async function saveSettings(
  ctx: ServerContext,
  caller: AuthContext,
  input: DeadlineSettings,
  ip: string | null,
): Promise<DeadlineSettingsView> {
  if (input.weekend.length >= 7)
    throw new HttpProblem('unprocessable', {
      detailKey: 'deadlines.allWeekend',
      fields: { weekend: [{ key: 'deadlines.allWeekend' }] },
    });
  const settings: DeadlineSettings = { ...input, weekend: [...input.weekend].sort((a, b) => a - b) };
  await ctx.db.transaction(async (tx) => {
    const fields: Record<string, Array<{ key: string }>> = {};
    for (const key of ['replyDays', 'escalateAfterDays'] as const) {
      const ids = Object.keys(settings[key]).map(Number);
      const known = await q.priorityIds(tx, ids);
      const unknown = ids.filter((id) => !known.has(id));
      for (const id of unknown) fields[`${key}.${id}`] = [{ key: 'deadlines.unknownPriority' }];
    }
    if (Object.keys(fields).length > 0)
      throw new HttpProblem('unprocessable', { detailKey: 'deadlines.unknownPriority', fields });
    const before = readDeadlineSettings((await q.readSettingsRow(tx)).deadlines);
    await q.writeSettings(tx, settings, caller.userId);
    await audit(tx, caller, 'deadlines.settingsUpdated', 1, { before, after: settings }, ip);
  });
  return getSettings(ctx);
}

// ---------------------------------------------------------------- holidays

function holidayOut(row: HolidayRow): Holiday {
  return {
    id: row.id,
    nameAr: row.name_ar,
    nameEn: row.name_en,
    calendar: row.calendar,
    startsOn: row.starts_on,
    endsOn: row.ends_on,
    hijriStartsOn: hijriOf(row.starts_on),
    hijriEndsOn: hijriOf(row.ends_on),
    repeats: row.repeats,
    days: dayNumber(row.ends_on) - dayNumber(row.starts_on) + 1,
    updatedAt: instant(row.updated_at),
  };
}

/** A day as entered, in its calendar, as a Gregorian YYYY-MM-DD; null when that day does not exist. */
function gregorianOf(calendar: HolidayCalendar, day: HolidayDayInput): string | null {
  if (calendar === 'gregorian') return typeof day === 'string' ? day : null;
  // Typed or not, the same bounds as the object form (Umm al-Qura's years, months 1–12, days 1–30).
  const hijri = hijriDateSchema.safeParse(typeof day === 'string' ? parseHijriString(day) : day);
  return hijri.success ? fromHijri(hijri.data.year, hijri.data.month, hijri.data.day) : null;
}

/** The request's days in Gregorian, checked: each exists, the end is not before the start, not too long. */
function valuesOf(input: HolidayRequestParsed): q.HolidayValues {
  const startsOn = gregorianOf(input.calendar, input.startsOn);
  const endsOn = input.endsOn === undefined ? startsOn : gregorianOf(input.calendar, input.endsOn);
  const fields: Record<string, Array<{ key: string; params?: Record<string, unknown> }>> = {};
  if (!startsOn) fields.startsOn = [{ key: 'deadlines.hijriDate' }];
  if (!endsOn) fields.endsOn = [{ key: 'deadlines.hijriDate' }];
  if (startsOn && endsOn) {
    if (endsOn < startsOn) fields.endsOn = [{ key: 'deadlines.endBeforeStart' }];
    else if (dayNumber(endsOn) - dayNumber(startsOn) + 1 > HOLIDAY_MAX_DAYS)
      fields.endsOn = [{ key: 'deadlines.tooLong', params: { max: HOLIDAY_MAX_DAYS } }];
  }
  if (Object.keys(fields).length > 0 || !startsOn || !endsOn) {
    const first = Object.values(fields)[0]![0]!;
    throw new HttpProblem('unprocessable', { detailKey: first.key, params: first.params, fields });
  }
  return {
    nameAr: input.nameAr,
    nameEn: input.nameEn,
    calendar: input.calendar,
    startsOn,
    endsOn,
    repeats: input.repeats,
  };
}

const notFound = () => new HttpProblem('notFound', { detailKey: 'deadlines.holidayNotFound' });

/** GET /deadlines/holidays. */
export async function listHolidays(ctx: ServerContext): Promise<Holiday[]> {
  return (await loadHolidays(ctx.db)).map(holidayOut);
}

/** POST /deadlines/holidays. */
export async function createHoliday(
  ctx: ServerContext,
  caller: AuthContext,
  input: HolidayRequestParsed,
  ip: string | null,
): Promise<Holiday> {
  const values = valuesOf(input);
  const row = await ctx.db.transaction(async (tx) => {
    const created = await q.insertHoliday(tx, values, caller.userId);
    await audit(tx, caller, 'deadlines.holidayCreated', created.id, { ...values }, ip);
    return created;
  });
  return holidayOut(row);
}

/** PUT /deadlines/holidays/:id. */
export async function updateHoliday(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  input: HolidayRequestParsed,
  ip: string | null,
): Promise<Holiday> {
  const values = valuesOf(input);
  const row = await ctx.db.transaction(async (tx) => {
    const before = await q.holidayById(tx, id, true);
    if (!before) throw notFound();
    const updated = await q.updateHoliday(tx, id, values);
    if (!updated) throw notFound();
    const { updated_at: _, ...was } = before;
    await audit(tx, caller, 'deadlines.holidayUpdated', id, { before: was, after: values }, ip);
    return updated;
  });
  return holidayOut(row);
}

/** DELETE /deadlines/holidays/:id: due dates already set keep their day. */
export async function deleteHoliday(
  ctx: ServerContext,
  caller: AuthContext,
  id: number,
  ip: string | null,
): Promise<{ id: number }> {
  await ctx.db.transaction(async (tx) => {
    const before = await q.holidayById(tx, id, true);
    if (!before || !(await q.deleteHoliday(tx, id))) throw notFound();
    const { updated_at: _, ...was } = before;
    await audit(tx, caller, 'deadlines.holidayDeleted', id, { ...was }, ip);
  });
  return { id };
}

// ---------------------------------------------------------------- the days off in a range

/** GET /deadlines/calendar. */
export async function calendar(ctx: ServerContext, query: CalendarQuery): Promise<CalendarDays> {
  if (query.to < query.from)
    throw new HttpProblem('unprocessable', {
      detailKey: 'deadlines.endBeforeStart',
      fields: { to: [{ key: 'deadlines.endBeforeStart' }] },
    });
  if (dayNumber(query.to) - dayNumber(query.from) + 1 > CALENDAR_MAX_DAYS)
    throw new HttpProblem('unprocessable', {
      detailKey: 'deadlines.rangeTooLong',
      params: { max: CALENDAR_MAX_DAYS },
      fields: { to: [{ key: 'deadlines.rangeTooLong', params: { max: CALENDAR_MAX_DAYS } }] },
    });
  const cal = await loadWorkingCalendar(ctx.db);
  return {
    from: query.from,
    to: query.to,
    weekend: [...cal.weekend],
    daysOff: daysOff(query.from, query.to, cal).map(({ day, holiday }) => ({
      day,
      holiday:
        holiday && holiday.id !== undefined
          ? { id: holiday.id, nameAr: holiday.nameAr ?? '', nameEn: holiday.nameEn ?? '' }
          : null,
    })),
  };
}
