/**
 * The lists' date range (specification sections 3 and 9): `fromDate` defaults to 30 days ago and
 * `toDate` to now; the boxes take it as `fromDate`/`toDate`, inclusive, sent as the instants where the
 * user's first day starts and last day ends — so the days of the range are the days the list shows in its
 * box-date column (local time), not the server's or the database's days.
 */
import dayjs, { type Dayjs } from 'dayjs';

/** Days the range reaches back by default (the server's DEFAULT_DATE_RANGE_DAYS). */
export const DATE_RANGE_DAYS = 30;

export interface DateRange {
  fromDate: Dayjs;
  toDate: Dayjs;
}

/** The default range: from 30 days before `now` to `now`. */
export function defaultDateRange(now: Dayjs = dayjs()): DateRange {
  return { fromDate: now.subtract(DATE_RANGE_DAYS, 'day').startOf('day'), toDate: now };
}

/** The range as the boxes' query parameters: the start of its first local day, the end of its last. */
export function dateRangeQuery(range: DateRange | null): { fromDate?: string; toDate?: string } {
  if (!range) return {};
  return {
    fromDate: range.fromDate.startOf('day').toISOString(),
    toDate: range.toDate.endOf('day').toISOString(),
  };
}
