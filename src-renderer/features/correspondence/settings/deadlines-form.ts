/**
 * The deadline settings screen's logic without React: the week in the reader's order, a holiday's day
 * typed in one calendar shown (and converted) in the other, and the priorities table's values turned
 * back into the settings (an empty cell: the default).
 */
import type { DeadlineSettings } from '../../../../src-shared/api/deadlines';
import type { HolidayCalendar } from '../../../../src-shared/api/notifications-kinds';
import { formatDay, fromHijri, hijriOf, parseHijriString } from '../../../../src-shared/working-days';

/**
 * The days of the week (0 = Sunday) in the order the language's readers count them: Arabic offices count
 * from Sunday (the week after the Friday–Saturday weekend), English readers from Monday.
 */
export function weekOrder(language: string): number[] {
  return language === 'en' ? [1, 2, 3, 4, 5, 6, 0] : [0, 1, 2, 3, 4, 5, 6];
}

/** A weekday's name in a language (1970-01-04 was a Sunday). */
export function weekdayName(day: number, language: string): string {
  return new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : 'ar', {
    weekday: 'long',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(1970, 0, 4 + day)));
}

const GREGORIAN = /^\d{4}-\d{2}-\d{2}$/;

/** A day typed in `calendar` (`YYYY-MM-DD` in either), as Gregorian; null when it is not a day. */
export function gregorianOf(calendar: HolidayCalendar, typed: string | undefined): string | null {
  const text = typed?.trim() ?? '';
  if (calendar === 'hijri') {
    const h = parseHijriString(text);
    return h ? fromHijri(h.year, h.month, h.day) : null;
  }
  if (!GREGORIAN.test(text)) return null;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text ? text : null;
}

/** The same day written in the other calendar (when the calendar switch flips); '' when not a day. */
export function convertTyped(typed: string | undefined, from: HolidayCalendar, to: HolidayCalendar): string {
  if (from === to) return typed ?? '';
  const g = gregorianOf(from, typed);
  if (!g) return '';
  return to === 'hijri' ? hijriOf(g) : g;
}

/** What a typed day is in the other calendar, for the line under the field; null when not a day. */
export function otherCalendarOf(
  calendar: HolidayCalendar,
  typed: string | undefined,
  language: string,
): string | null {
  const g = gregorianOf(calendar, typed);
  if (!g) return null;
  return formatDay(g, language === 'en' ? 'en' : 'ar', calendar === 'hijri' ? 'gregorian' : 'hijri');
}

/** The priorities table's cells: days by priority id, null when left empty (the default applies). */
export interface DeadlineFormValues {
  replyDaysDefault: number;
  escalateAfterDaysDefault: number;
  approvalDaysPerStep: number;
  remindDaysBefore: number;
  reply: Record<string, number | null | undefined>;
  escalate: Record<string, number | null | undefined>;
}

const filled = (cells: Record<string, number | null | undefined>): Record<string, number> =>
  Object.fromEntries(
    Object.entries(cells).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
  );

/**
 * A list's days: the cells shown replace their priorities' days; a priority not shown (deactivated since,
 * so not among the options) keeps what was stored.
 */
const merged = (stored: Record<string, number>, cells: Record<string, number | null | undefined>) => ({
  ...Object.fromEntries(Object.entries(stored).filter(([id]) => !(id in cells))),
  ...filled(cells),
});

/** The settings from the form (the weekend kept as it is). */
export function settingsFromForm(current: DeadlineSettings, v: DeadlineFormValues): DeadlineSettings {
  return {
    weekend: current.weekend,
    replyDays: merged(current.replyDays, v.reply),
    replyDaysDefault: v.replyDaysDefault,
    approvalDaysPerStep: v.approvalDaysPerStep,
    remindDaysBefore: v.remindDaysBefore,
    escalateAfterDays: merged(current.escalateAfterDays, v.escalate),
    escalateAfterDaysDefault: v.escalateAfterDaysDefault,
  };
}

/** The form's values from the settings, a cell for every priority shown. */
export function formFromSettings(s: DeadlineSettings, priorityIds: readonly number[]): DeadlineFormValues {
  const cells = (days: Record<string, number>) =>
    Object.fromEntries(priorityIds.map((id) => [String(id), days[String(id)] ?? null]));
  return {
    replyDaysDefault: s.replyDaysDefault,
    escalateAfterDaysDefault: s.escalateAfterDaysDefault,
    approvalDaysPerStep: s.approvalDaysPerStep,
    remindDaysBefore: s.remindDaysBefore,
    reply: cells(s.replyDays),
    escalate: cells(s.escalateAfterDays),
  };
}
