/**
 * The calendar's call (GET /user/calendar/events?from&to): the signed-in user's tasks and follow-up
 * dates between two days, and the react-query key it is cached under.
 */
import type { CalendarEvent } from '../../../src-shared/api/correspondence';
import { correspondenceEndpoints as E } from '../../../src-shared/api/correspondence-endpoints';
import { call } from '../../lib/call';

/** One dated entry of the user's calendar: a task (its task date) or a followed document (its due date). */
export type CalendarEntry = CalendarEvent;

export const calendarKeys = {
  all: ['calendar'] as const,
  range: (from: string, to: string) => ['calendar', from, to] as const,
};

export const calendarApi = {
  /** The entries from `from` to `to` inclusive (`YYYY-MM-DD`). */
  entries: (from: string, to: string): Promise<CalendarEntry[]> =>
    call(E.calendarEvents, { query: { from, to } }),
};
