/**
 * The SQL of the deadlines module: the settings' jsonb, the holidays, and the priorities' ids (the
 * settings name them). Reading the calendar lives in db/calendar.ts, shared by other modules.
 */
import { sql } from 'drizzle-orm';
import type { HolidayCalendar } from '../../../src-shared/api/notifications-kinds';
import type { DeadlineSettings } from '../../../src-shared/api/deadlines';
import type { HolidayRow } from '../../db/calendar';
import { rowsOf } from '../../db/rows';
import type { Tx } from '../auth/queries';

/** The settings row's jsonb and when it was saved (the row is written by the migration; made if missing). */
export async function readSettingsRow(db: Tx): Promise<{ deadlines: unknown; updated_at: string }> {
  const [row] = await rowsOf<{ deadlines: unknown; updated_at: string }>(
    db,
    sql`select deadlines, updated_at from organisation_settings where id = 1`,
  );
  if (row) return row;
  await db.execute(sql`insert into organisation_settings (id) values (1) on conflict do nothing`);
  return readSettingsRow(db);
}

export async function writeSettings(db: Tx, settings: DeadlineSettings, userId: number): Promise<void> {
  await db.execute(sql`update organisation_settings
      set deadlines = ${JSON.stringify(settings)}::jsonb, updated_at = now(), updated_by = ${userId}
    where id = 1`);
}

/** Which of these ids are priorities (active or not: a deactivated priority's letters still have one). */
export async function priorityIds(db: Tx, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`select id from correspondence_settings where list = 'priorities'
          and id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
  );
  return new Set(rows.map((r) => r.id));
}

const HOLIDAY_COLUMNS = sql`id, name_ar, name_en, calendar, to_char(starts_on, 'YYYY-MM-DD') as starts_on,
  to_char(ends_on, 'YYYY-MM-DD') as ends_on, repeats, updated_at`;

export async function holidayById(db: Tx, id: number, lock = false): Promise<HolidayRow | null> {
  const [row] = await rowsOf<HolidayRow>(
    db,
    sql`select ${HOLIDAY_COLUMNS} from holidays where id = ${id} ${lock ? sql`for update` : sql``}`,
  );
  return row ?? null;
}

export interface HolidayValues {
  nameAr: string;
  nameEn: string;
  calendar: HolidayCalendar;
  startsOn: string;
  endsOn: string;
  repeats: boolean;
}

export async function insertHoliday(db: Tx, v: HolidayValues, userId: number): Promise<HolidayRow> {
  const [row] = await rowsOf<HolidayRow>(
    db,
    sql`insert into holidays (name_ar, name_en, calendar, starts_on, ends_on, repeats, created_by)
        values (${v.nameAr}, ${v.nameEn}, ${v.calendar}, ${v.startsOn}::date, ${v.endsOn}::date, ${v.repeats},
                ${userId})
        returning ${HOLIDAY_COLUMNS}`,
  );
  return row!;
}

export async function updateHoliday(db: Tx, id: number, v: HolidayValues): Promise<HolidayRow | null> {
  const [row] = await rowsOf<HolidayRow>(
    db,
    sql`update holidays set name_ar = ${v.nameAr}, name_en = ${v.nameEn}, calendar = ${v.calendar},
          starts_on = ${v.startsOn}::date, ends_on = ${v.endsOn}::date, repeats = ${v.repeats}, updated_at = now()
        where id = ${id}
        returning ${HOLIDAY_COLUMNS}`,
  );
  return row ?? null;
}

export async function deleteHoliday(db: Tx, id: number): Promise<boolean> {
  const rows = await rowsOf<{ id: number }>(db, sql`delete from holidays where id = ${id} returning id`);
  return rows.length > 0;
}
