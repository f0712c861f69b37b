/**
 * Working week, holidays and deadline settings (issue 28): the organisation's weekend and the days per
 * priority a reply is due in, the days an approver has per step, when reminders go and when the manager
 * is told; the administrator's list of holidays, entered in Hijri or Gregorian. Schemas and endpoints,
 * shared by the server and the client; the arithmetic is in src-shared/working-days.ts.
 */
import { z } from 'zod';
import { PAGES } from '../pages';
import { DEFAULT_WEEKEND } from '../working-days';
import { endpoint } from './endpoint';
import { dateOnlyField, idParamsSchema, int4, text } from './fields';
import { HOLIDAY_CALENDARS } from './notifications-kinds';

// ---------------------------------------------------------------- deadline settings

/** A number of working days a setting may hold (about a year and a half at most). */
const workingDays = int4(0, 400);
/** A priority's id as a JSON object key. */
const priorityKey = z.string().regex(/^[1-9][0-9]{0,9}$/, 'validation.number');

const weekendField = z
  .array(z.number().int().min(0).max(6))
  // Seven days off is refused by the server in its own words (deadlines.allWeekend), so it passes here.
  .max(7)
  .refine((days) => new Set(days).size === days.length, 'validation.duplicate');

/**
 * `organisation_settings.deadlines`, all in working days. Priorities are the settings list's ids
 * (`/correspondence/settings/priorities`); a priority not named takes the default.
 */
export const deadlineSettingsSchema = z
  .object({
    /** Days of the week off: 0 = Sunday … 6 = Saturday. */
    weekend: weekendField,
    /** Days to reply by priority id; 0: no reply needed. */
    replyDays: z.record(priorityKey, workingDays),
    /** Days to reply for a letter of no priority, or of one not named in `replyDays`; 0: no reply needed. */
    replyDaysDefault: workingDays,
    /** Days an approver has to answer, from the moment their step becomes active. */
    approvalDaysPerStep: int4(1, 400),
    /** How many working days before a due date the reminder goes (0: on the day itself). */
    remindDaysBefore: int4(0, 30),
    /** Working days overdue before the department's manager is told, by priority id. */
    escalateAfterDays: z.record(priorityKey, int4(1, 400)),
    escalateAfterDaysDefault: int4(1, 400),
  })
  .strict();
export type DeadlineSettings = z.infer<typeof deadlineSettingsSchema>;

export const DEFAULT_DEADLINE_SETTINGS: DeadlineSettings = {
  weekend: [...DEFAULT_WEEKEND],
  replyDays: {},
  replyDaysDefault: 10,
  approvalDaysPerStep: 2,
  remindDaysBefore: 1,
  escalateAfterDays: {},
  escalateAfterDaysDefault: 3,
};

/**
 * The stored settings with the defaults filled in: an empty `{}` (a new database), a setting added since
 * the row was written, or one that no longer parses each take their default, field by field.
 */
export function readDeadlineSettings(stored: unknown): DeadlineSettings {
  const source = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const shape = deadlineSettingsSchema.shape;
  const field = <K extends keyof DeadlineSettings>(key: K): DeadlineSettings[K] => {
    const parsed = shape[key].safeParse(source[key]);
    // A week without a working day would make every due date endless.
    const usable = key !== 'weekend' || (parsed.success && (parsed.data as number[]).length < 7);
    return parsed.success && usable ? (parsed.data as DeadlineSettings[K]) : DEFAULT_DEADLINE_SETTINGS[key];
  };
  return {
    weekend: field('weekend'),
    replyDays: field('replyDays'),
    replyDaysDefault: field('replyDaysDefault'),
    approvalDaysPerStep: field('approvalDaysPerStep'),
    remindDaysBefore: field('remindDaysBefore'),
    escalateAfterDays: field('escalateAfterDays'),
    escalateAfterDaysDefault: field('escalateAfterDaysDefault'),
  };
}

/** The reply days a priority gives (null priority: the default); 0 means no reply is needed. */
export function replyDaysFor(settings: DeadlineSettings, priorityId: number | null): number {
  return (
    (priorityId !== null ? settings.replyDays[String(priorityId)] : undefined) ?? settings.replyDaysDefault
  );
}

/** Working days overdue before the manager is told, for a priority (null: the default). */
export function escalateDaysFor(settings: DeadlineSettings, priorityId: number | null): number {
  return (
    (priorityId !== null ? settings.escalateAfterDays[String(priorityId)] : undefined) ??
    settings.escalateAfterDaysDefault
  );
}

/** GET/PUT /deadlines/settings answer: the settings and when they were last saved. */
export const deadlineSettingsViewSchema = z.object({
  settings: deadlineSettingsSchema,
  updatedAt: z.string(),
});
export type DeadlineSettingsView = z.infer<typeof deadlineSettingsViewSchema>;

// ---------------------------------------------------------------- holidays

export const hijriDateSchema = z
  .object({
    year: z.number().int().min(1300).max(1600),
    month: z.number().int().min(1).max(12),
    day: z.number().int().min(1).max(30),
  })
  .strict();

/**
 * A holiday's day as entered: in the Gregorian calendar `YYYY-MM-DD`; in the Hijri one `{year, month,
 * day}` or `1448-10-01`. The server converts a Hijri one (deadlines.hijriDate when it does not exist).
 */
export const holidayDayInput = z.union([z.string().trim().max(10), hijriDateSchema]);
export type HolidayDayInput = z.infer<typeof holidayDayInput>;

const HIJRI_TEXT = /^\d{4}-\d{1,2}-\d{1,2}$/;

/** POST /deadlines/holidays and PUT /deadlines/holidays/:id (the whole holiday). */
export const holidayRequestSchema = z
  .object({
    nameAr: z.string().trim().pipe(text(1, 200)),
    nameEn: z.string().trim().pipe(text(1, 200)),
    calendar: z.enum(HOLIDAY_CALENDARS),
    startsOn: holidayDayInput,
    /** Omitted: one day. */
    endsOn: holidayDayInput.optional(),
    repeats: z.boolean().default(false),
  })
  .strict()
  .superRefine((value, ctx) => {
    for (const key of ['startsOn', 'endsOn'] as const) {
      const day = value[key];
      if (day === undefined) continue;
      const ok =
        value.calendar === 'gregorian'
          ? typeof day === 'string' && dateOnlyField.safeParse(day).success
          : typeof day !== 'string' || HIJRI_TEXT.test(day);
      if (!ok) ctx.addIssue({ code: 'custom', path: [key], message: 'validation.date' });
    }
  });
export type HolidayRequest = z.input<typeof holidayRequestSchema>;
export type HolidayRequestParsed = z.output<typeof holidayRequestSchema>;

/** A holiday as the list shows it: Gregorian days, and their Hijri dates beside them. */
export const holidaySchema = z.object({
  id: z.number().int(),
  nameAr: z.string(),
  nameEn: z.string(),
  calendar: z.enum(HOLIDAY_CALENDARS),
  startsOn: z.string(),
  endsOn: z.string(),
  /** The same days in Hijri (Umm al-Qura), `1447-10-01`. */
  hijriStartsOn: z.string(),
  hijriEndsOn: z.string(),
  repeats: z.boolean(),
  days: z.number().int(),
  updatedAt: z.string(),
});
export type Holiday = z.infer<typeof holidaySchema>;

/** GET /deadlines/calendar: a range of at most two years. */
export const calendarQuerySchema = z.object({ from: dateOnlyField, to: dateOnlyField }).strict();
export type CalendarQuery = z.infer<typeof calendarQuerySchema>;
export const CALENDAR_MAX_DAYS = 732;

export const calendarSchema = z.object({
  from: z.string(),
  to: z.string(),
  weekend: z.array(z.number().int()),
  /** The days off in the range, in order: a weekend day (holiday null) or a holiday's. */
  daysOff: z.array(
    z.object({
      day: z.string(),
      holiday: z.object({ id: z.number().int(), nameAr: z.string(), nameEn: z.string() }).nullable(),
    }),
  ),
});
export type CalendarDays = z.infer<typeof calendarSchema>;

// ---------------------------------------------------------------- endpoints

const tags = ['deadlines'] as const;
const view = { page: PAGES.deadlineSettings, permission: 'view' } as const;
const edit = { page: PAGES.deadlineSettings, permission: 'edit' } as const;

export const deadlinesEndpoints = {
  settings: endpoint({
    method: 'GET',
    path: '/deadlines/settings',
    response: deadlineSettingsViewSchema,
    access: view,
    tags,
    summary: 'The working week and the deadline settings (defaults filled in)',
  }),
  saveSettings: endpoint({
    method: 'PUT',
    path: '/deadlines/settings',
    body: deadlineSettingsSchema,
    response: deadlineSettingsViewSchema,
    access: edit,
    tags,
    summary:
      'Saves the weekend, reply days per priority (422 deadlines.unknownPriority for an id that is not a ' +
      'priority), approval days per step, reminder and escalation days; due dates set from then on use them',
  }),
  holidays: endpoint({
    method: 'GET',
    path: '/deadlines/holidays',
    response: z.array(holidaySchema),
    access: view,
    tags,
    summary: 'The holidays, by their first day',
  }),
  createHoliday: endpoint({
    method: 'POST',
    path: '/deadlines/holidays',
    body: holidayRequestSchema,
    response: holidaySchema,
    status: 201,
    access: edit,
    tags,
    summary:
      'Adds a holiday, its days in the calendar it names (a Hijri one converted by Umm al-Qura; 422 ' +
      'deadlines.hijriDate for a day that does not exist, deadlines.endBeforeStart)',
    message: 'messages.created',
  }),
  updateHoliday: endpoint({
    method: 'PUT',
    path: '/deadlines/holidays/:id',
    params: idParamsSchema,
    body: holidayRequestSchema,
    response: holidaySchema,
    access: edit,
    tags,
    summary: 'Edits a holiday (the whole of it)',
    message: 'messages.updated',
  }),
  deleteHoliday: endpoint({
    method: 'DELETE',
    path: '/deadlines/holidays/:id',
    params: idParamsSchema,
    response: z.object({ id: z.number().int() }),
    access: edit,
    tags,
    summary: 'Removes a holiday: due dates already set keep their day',
    message: 'deadlines.messages.holidayDeleted',
  }),
  calendar: endpoint({
    method: 'GET',
    path: '/deadlines/calendar',
    query: calendarQuerySchema,
    response: calendarSchema,
    access: 'authenticated',
    tags,
    summary:
      'The days off from `from` to `to` (inclusive, at most two years; 422 deadlines.rangeTooLong): the ' +
      'weekend and the holidays, for date pickers and due-date screens',
  }),
};
