/**
 * The working-day arithmetic the due dates need, in one place: the organisation's calendar and deadline
 * settings (src-server/db/calendar.ts) and the "due soon" window the boxes judge by.
 */
import { addWorkingDays, type WorkingCalendar } from '../../../src-shared/working-days';
import { loadDeadlineSettings, loadWorkingCalendar } from '../../db/calendar';
import type { Tx } from '../auth/queries';

export { approvalDueOn, overdueWorkingDays, replyDueOn } from '../../db/calendar';

export type DueCalendar = WorkingCalendar;

/**
 * The calendar and the last day a due date counts as "due soon" on `today`: the reminder's working days
 * ahead (`remindDaysBefore`), so what is due soon is what has had its reminder. Two reads of the database.
 */
export async function dueWindowOf(db: Tx, today: string): Promise<{ cal: DueCalendar; soonUntil: string }> {
  const settings = await loadDeadlineSettings(db);
  const cal = await loadWorkingCalendar(db, settings);
  return { cal, soonUntil: addWorkingDays(today, settings.remindDaysBefore, cal) };
}
