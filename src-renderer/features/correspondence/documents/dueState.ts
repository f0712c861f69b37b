/**
 * How a due date's state is shown (issue 28): a colour and, for readers who do not see colours, an icon
 * and words — overdue by N days in red, due soon in orange, on time, done — and the date in both
 * calendars (Gregorian and Hijri, Umm al-Qura, as the organisation's letters date themselves).
 */
import type { DueState } from '../../../../src-shared/api/correspondence';

export type DueIcon = 'overdue' | 'soon' | 'onTime' | 'done';

/** The tag of a state: antd colour, icon, and the `correspondence:due.*` key with its values. */
export interface DueTagSpec {
  color: 'red' | 'orange' | 'blue' | 'green';
  icon: DueIcon;
  labelKey: string;
  values: Record<string, number>;
}

export function dueTagSpec(state: DueState, overdueDays: number | null): DueTagSpec | null {
  switch (state) {
    case 'overdue':
      return {
        color: 'red',
        icon: 'overdue',
        labelKey: 'due.state.overdueBy',
        values: { count: Math.max(1, overdueDays ?? 1) },
      };
    case 'dueSoon':
      return { color: 'orange', icon: 'soon', labelKey: 'due.state.dueSoon', values: {} };
    case 'onTime':
      return { color: 'blue', icon: 'onTime', labelKey: 'due.state.onTime', values: {} };
    case 'done':
      return { color: 'green', icon: 'done', labelKey: 'due.state.done', values: {} };
    case 'none':
      return null;
  }
}

/**
 * A day (`YYYY-MM-DD`) in the Hijri calendar (Umm al-Qura), written in the language's way: Arabic digits
 * and month names in Arabic, Latin ones in English. Read at noon UTC so no time zone moves the day.
 */
export function hijriDate(day: string, language: string): string {
  const at = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(at.getTime())) return '';
  return new Intl.DateTimeFormat(
    language === 'ar' ? 'ar-SA-u-ca-islamic-umalqura' : 'en-u-ca-islamic-umalqura',
    {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    },
  ).format(at);
}
