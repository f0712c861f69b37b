/**
 * The working-day arithmetic the due dates need, behind one small seam: src-server/db/calendar.ts (the
 * deadlines helper's) once it is merged. Until then a stand-in with the same signatures: a Friday–Saturday
 * weekend, no holidays, and the default days (reply 10, approval 2 per step, "due soon" 2).
 */
import type { Tx } from '../auth/queries';

export interface DueCalendar {
  weekend: readonly number[];
}

const DAY = 86_400_000;
const dayOf = (d: string) => Date.parse(`${d}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const working = (cal: DueCalendar, t: number) => !cal.weekend.includes(new Date(t).getUTCDay());

export async function loadWorkingCalendar(_db: Tx): Promise<DueCalendar> {
  return { weekend: [5, 6] };
}

/** The n-th working day after `from` (n = 0: `from` itself if working, else the next working day). */
export function addWorkingDays(from: string, n: number, cal: DueCalendar): string {
  let t = dayOf(from);
  while (!working(cal, t)) t += DAY;
  for (let left = n; left > 0;) {
    t += DAY;
    if (working(cal, t)) left--;
  }
  return iso(t);
}

/** Working days from `dueOn` to `today` (positive: overdue by that many). */
export function overdueWorkingDays(cal: DueCalendar, dueOn: string, today: string): number {
  const [a, b, sign] = dueOn <= today ? [dueOn, today, 1] : [today, dueOn, -1];
  let n = 0;
  for (let t = dayOf(a) + DAY; t <= dayOf(b); t += DAY) if (working(cal, t)) n++;
  return sign * n;
}

export async function replyDueOn(
  db: Tx,
  _priorityId: number | null,
  fromDay: string,
): Promise<string | null> {
  return addWorkingDays(fromDay, 10, await loadWorkingCalendar(db));
}

export async function approvalDueOn(db: Tx, fromDay: string): Promise<string | null> {
  return addWorkingDays(fromDay, 2, await loadWorkingCalendar(db));
}

/** The last day a due date counts as "due soon" on `today`: the reminder's working days ahead. */
export async function dueSoonUntil(db: Tx, cal: DueCalendar, today: string): Promise<string> {
  void db;
  return addWorkingDays(today, 2, cal);
}
