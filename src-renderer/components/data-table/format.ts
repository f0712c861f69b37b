/**
 * How lists show dates: the specification's default date format (section 9, mm/dd/yy), with the time
 * where a moment matters (sign-ins, audit records). Shared by every table and filter.
 */
import dayjs from 'dayjs';

/** The specification's default date format. */
export const DATE_FORMAT = 'MM/DD/YY';
export const DATE_TIME_FORMAT = 'MM/DD/YY HH:mm';

/** An ISO date or timestamp as mm/dd/yy; empty for none. */
export function formatDate(value: string | null | undefined): string {
  return value ? dayjs(value).format(DATE_FORMAT) : '';
}

/** An ISO timestamp as mm/dd/yy HH:mm; empty for none. */
export function formatDateTime(value: string | null | undefined): string {
  return value ? dayjs(value).format(DATE_TIME_FORMAT) : '';
}
