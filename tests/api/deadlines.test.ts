/**
 * Working week, holidays and deadline settings (issue 28) over HTTP: the settings round-trip with their
 * defaults, are refused in the caller's language when wrong, and are audited; holidays are entered in
 * Hijri (converted by Umm al-Qura) or Gregorian; the days-off calendar is any signed-in user's; a user
 * without the page is refused; db/calendar.ts gives a reply's due date by priority over the holidays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '../../src-shared/pages';
import { fromHijri } from '../../src-shared/working-days';
import {
  approvalDueOn,
  loadWorkingCalendar,
  overdueWorkingDays,
  replyDueOn,
} from '../../src-server/db/calendar';
import { call, makeRole, makeUser, signIn, startHarness, unique, type Harness } from './support/harness';

let h: Harness;
let admin: string;
let viewer: string;
let stranger: string;
let priorityUrgent: number;
let priorityNormal: number;

const get = (token: string, url: string, lang?: 'ar' | 'en') =>
  call(h, { method: 'GET', url, token, ...(lang ? { lang } : {}) });
const send = (
  method: 'POST' | 'PUT' | 'DELETE',
  token: string,
  url: string,
  body?: unknown,
  lang?: 'ar' | 'en',
) => call(h, { method, url, token, ...(body !== undefined ? { body } : {}), ...(lang ? { lang } : {}) });

async function priority(nameEn: string): Promise<number> {
  const [row] = await h.query<{ id: number }>(
    `insert into correspondence_settings (list, name_ar, name_en, level)
     values ('priorities', '${unique('أولوية')}', '${unique(nameEn)}', 1) returning id`,
  );
  return row!.id;
}

beforeAll(async () => {
  h = await startHarness();
  admin = await signIn(h, await makeUser(h, 'admin'));
  viewer = await signIn(h, await makeUser(h, await makeRole(h, { [PAGES.deadlineSettings]: ['view'] })));
  stranger = await signIn(h, await makeUser(h, await makeRole(h, {})));
  priorityUrgent = await priority('Urgent');
  priorityNormal = await priority('Normal');
});
afterAll(async () => h?.close());

const settingsBody = (extra: Record<string, unknown> = {}) => ({
  weekend: [5, 6],
  replyDays: { [priorityUrgent]: 3, [priorityNormal]: 10 },
  replyDaysDefault: 0,
  approvalDaysPerStep: 2,
  remindDaysBefore: 1,
  escalateAfterDays: { [priorityUrgent]: 1 },
  escalateAfterDaysDefault: 3,
  ...extra,
});

describe('deadline settings', () => {
  it('answer the defaults on a new database', async () => {
    const res = await get(admin, '/deadlines/settings');
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.data.settings).toEqual({
      weekend: [5, 6],
      replyDays: {},
      replyDaysDefault: 10,
      approvalDaysPerStep: 2,
      remindDaysBefore: 1,
      escalateAfterDays: {},
      escalateAfterDaysDefault: 3,
    });
  });

  it('round-trip, weekend sorted, and are audited', async () => {
    const res = await send('PUT', admin, '/deadlines/settings', settingsBody({ weekend: [6, 5] }));
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.data.settings).toEqual(settingsBody());
    expect((await get(viewer, '/deadlines/settings')).json.data.settings).toEqual(settingsBody());
    const audits = await h.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'deadlines.settingsUpdated'`,
    );
    expect(audits[0]!.n).toBe(1);
  });

  it('are refused in the caller language when wrong', async () => {
    const allWeek = await send(
      'PUT',
      admin,
      '/deadlines/settings',
      settingsBody({ weekend: [0, 1, 2, 3, 4, 5, 6] }),
      'ar',
    );
    expect(allWeek.status).toBe(422);
    expect(allWeek.json.errors.weekend[0]).toMatch(/يوم عمل/);
    const unknown = await send(
      'PUT',
      admin,
      '/deadlines/settings',
      settingsBody({ replyDays: { 999999: 4 } }),
      'en',
    );
    expect(unknown.status).toBe(422);
    expect(unknown.json.errors['replyDays.999999'][0]).toMatch(/priority/i);
    const bad = await send(
      'PUT',
      admin,
      '/deadlines/settings',
      settingsBody({ approvalDaysPerStep: 0, extra: 1 }),
      'en',
    );
    // The schema's refusals are 400s, the service's (weekend, priorities) 422s: both name their fields.
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.errors).sort()).toEqual(['approvalDaysPerStep', 'extra']);
    // Nothing was saved.
    expect((await get(admin, '/deadlines/settings')).json.data.settings).toEqual(settingsBody());
  });

  it('refuse a user without the page, and a viewer may not edit', async () => {
    expect((await get(stranger, '/deadlines/settings')).status).toBe(403);
    expect((await get(stranger, '/deadlines/holidays')).status).toBe(403);
    expect((await send('PUT', viewer, '/deadlines/settings', settingsBody())).status).toBe(403);
    expect(
      (
        await send('POST', viewer, '/deadlines/holidays', {
          nameAr: 'ع',
          nameEn: 'H',
          calendar: 'gregorian',
          startsOn: '2026-12-02',
        })
      ).status,
    ).toBe(403);
    // The calendar of days off is every signed-in user's.
    expect((await get(stranger, '/deadlines/calendar?from=2026-01-01&to=2026-01-31')).status).toBe(200);
  });
});

describe('holidays', () => {
  let eid: number;

  it('are entered in Hijri (object or text), stored in Gregorian, shown in both', async () => {
    const res = await send('POST', admin, '/deadlines/holidays', {
      nameAr: 'عيد الفطر',
      nameEn: 'Eid al-Fitr',
      calendar: 'hijri',
      startsOn: { year: 1447, month: 10, day: 1 },
      endsOn: '1447-10-04',
      repeats: true,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    eid = res.json.data.id;
    expect(res.json.data).toMatchObject({
      calendar: 'hijri',
      startsOn: fromHijri(1447, 10, 1),
      endsOn: fromHijri(1447, 10, 4),
      hijriStartsOn: '1447-10-01',
      hijriEndsOn: '1447-10-04',
      repeats: true,
      days: 4,
    });
    const national = await send('POST', admin, '/deadlines/holidays', {
      nameAr: 'اليوم الوطني',
      nameEn: 'National Day',
      calendar: 'gregorian',
      startsOn: '2026-09-23',
      repeats: true,
    });
    expect(national.status).toBe(201);
    expect(national.json.data).toMatchObject({ startsOn: '2026-09-23', endsOn: '2026-09-23', days: 1 });
    const list = await get(viewer, '/deadlines/holidays');
    expect(list.json.data.map((x: { nameEn: string }) => x.nameEn)).toEqual(['Eid al-Fitr', 'National Day']);
  });

  it('refuse a Hijri day that does not exist, an end before the start, in the caller language', async () => {
    // Shawwal 1447 has 29 days in Umm al-Qura (1 Dhu al-Qadah is the day after its 29th).
    expect(fromHijri(1447, 10, 30)).toBeNull();
    const missing = await send(
      'POST',
      admin,
      '/deadlines/holidays',
      {
        nameAr: 'ع',
        nameEn: 'H',
        calendar: 'hijri',
        startsOn: '1447-10-30',
      },
      'ar',
    );
    expect(missing.status).toBe(422);
    expect(missing.json.errors.startsOn[0]).toMatch(/هجري/);
    const outOfRange = await send('POST', admin, '/deadlines/holidays', {
      nameAr: 'ع',
      nameEn: 'H',
      calendar: 'hijri',
      startsOn: '0900-01-01',
    });
    expect(outOfRange.status).toBe(422);
    const blankName = await send('POST', admin, '/deadlines/holidays', {
      nameAr: '   ',
      nameEn: 'H',
      calendar: 'gregorian',
      startsOn: '2026-12-01',
    });
    expect(blankName.status).toBe(400);
    expect(Object.keys(blankName.json.errors)).toEqual(['nameAr']);
    const reversed = await send(
      'POST',
      admin,
      '/deadlines/holidays',
      {
        nameAr: 'ع',
        nameEn: 'H',
        calendar: 'gregorian',
        startsOn: '2026-12-05',
        endsOn: '2026-12-01',
      },
      'en',
    );
    expect(reversed.status).toBe(422);
    expect(reversed.json.errors.endsOn[0]).toMatch(/on or after/);
    const wrongShape = await send('POST', admin, '/deadlines/holidays', {
      nameAr: 'ع',
      nameEn: 'H',
      calendar: 'gregorian',
      startsOn: { year: 1447, month: 1, day: 1 },
    });
    expect(wrongShape.status).toBe(400);
    expect(Object.keys(wrongShape.json.errors)).toEqual(['startsOn']);
  });

  it('show in the calendar of days off, a repeating Eid in the next Gregorian year too', async () => {
    const res = await get(stranger, `/deadlines/calendar?from=2027-03-01&to=2027-03-31`);
    expect(res.status).toBe(200);
    const eidDays = res.json.data.daysOff
      .filter((d: { holiday: { nameEn: string } | null }) => d.holiday?.nameEn === 'Eid al-Fitr')
      .map((d: { day: string }) => d.day);
    const start = fromHijri(1448, 10, 1)!;
    expect(eidDays[0]).toBe(start);
    expect(eidDays).toHaveLength(4);
    const tooLong = await get(stranger, '/deadlines/calendar?from=2026-01-01&to=2029-01-01', 'en');
    expect(tooLong.status).toBe(422);
  });

  it('are edited and removed, audited; an unknown one is 404', async () => {
    const edited = await send('PUT', admin, `/deadlines/holidays/${eid}`, {
      nameAr: 'عيد الفطر المبارك',
      nameEn: 'Eid al-Fitr',
      calendar: 'hijri',
      startsOn: '1447-10-01',
      endsOn: '1447-10-03',
      repeats: true,
    });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(edited.json.data.days).toBe(3);
    expect((await send('DELETE', admin, `/deadlines/holidays/${eid}`)).status).toBe(200);
    expect((await send('DELETE', admin, `/deadlines/holidays/${eid}`)).status).toBe(404);
    const actions = await h.query<{ action: string }>(
      `select action from audit_log where action like 'deadlines.holiday%' order by id`,
    );
    expect(actions.map((a) => a.action)).toEqual([
      'deadlines.holidayCreated',
      'deadlines.holidayCreated',
      'deadlines.holidayUpdated',
      'deadlines.holidayDeleted',
    ]);
  });
});

describe('db/calendar.ts', () => {
  it('gives a reply due date by priority, over weekends and holidays', async () => {
    const db = h.database.db;
    await send('POST', admin, '/deadlines/holidays', {
      nameAr: 'عطلة',
      nameEn: 'Office closed',
      calendar: 'gregorian',
      startsOn: '2026-12-06',
      endsOn: '2026-12-07',
    });
    // Thursday 3 December 2026; urgent: 3 working days: Sun 6 and Mon 7 are a holiday, Fri/Sat the weekend.
    expect(await replyDueOn(db, priorityUrgent, '2026-12-03')).toBe('2026-12-10');
    // No priority: the default, 0 in these settings: no reply needed.
    expect(await replyDueOn(db, null, '2026-12-03')).toBeNull();
    // An unnamed priority takes the default too.
    expect(await approvalDueOn(db, '2026-12-03')).toBe('2026-12-09');
    const cal = await loadWorkingCalendar(db);
    expect(overdueWorkingDays(cal, '2026-12-03', '2026-12-08')).toBe(1);
    expect(overdueWorkingDays(cal, '2026-12-10', '2026-12-03')).toBe(0);
  });
});
