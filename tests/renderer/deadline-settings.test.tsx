/**
 * The deadline settings screen against a fake API: the week in the reader's order and its weekend saved;
 * reply days per priority saved (an empty cell takes the default, a priority no longer listed keeps its
 * days); a holiday typed in Hijri shows its Gregorian day, the calendar switch converts what was typed,
 * and what is sent is the Hijri entry; without the edit permission nothing can be saved.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type * as HttpModuleValue from '../../src-renderer/lib/http';
import { initI18n } from '../../src-renderer/lib/i18n';
import { Component as DeadlineSettingsPage } from '../../src-renderer/features/correspondence/settings/DeadlineSettingsPage';
import {
  convertTyped,
  gregorianOf,
  settingsFromForm,
  weekOrder,
} from '../../src-renderer/features/correspondence/settings/deadlines-form';
import { DEFAULT_DEADLINE_SETTINGS, type DeadlineSettingsView } from '../../src-shared/api/deadlines';
import { fakeHttp, renderScreen, type Routes } from './admin-harness';

type HttpModule = typeof HttpModuleValue;
const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
  mayEdit: true,
}));
vi.mock('../../src-renderer/lib/http', async (original) => ({
  ...(await original<HttpModule>()),
  http: {
    get: (...a: unknown[]) => holder.fake.http.get!(...a),
    post: (...a: unknown[]) => holder.fake.http.post!(...a),
    put: (...a: unknown[]) => holder.fake.http.put!(...a),
    patch: (...a: unknown[]) => holder.fake.http.patch!(...a),
    delete: (...a: unknown[]) => holder.fake.http.delete!(...a),
  },
}));
vi.mock('../../src-renderer/app/permissions', () => ({
  useCanOn: () => holder.mayEdit,
  useCurrentPage: () => null,
}));

const VIEW: DeadlineSettingsView = {
  settings: { ...DEFAULT_DEADLINE_SETTINGS, replyDays: { '3': 2, '99': 7 } },
  updatedAt: '2026-11-01T08:00:00.000Z',
};
const PRIORITIES = [
  {
    id: 3,
    nameAr: 'عاجل',
    nameEn: 'Urgent',
    level: 2,
    prefix: null,
    direction: null,
    department: null,
    order: 1,
  },
  {
    id: 4,
    nameAr: 'عادي',
    nameEn: 'Normal',
    level: 1,
    prefix: null,
    direction: null,
    department: null,
    order: 2,
  },
];

let fake: ReturnType<typeof fakeHttp>;
function serve(routes: Routes = {}) {
  fake = fakeHttp({
    'GET /deadlines/settings': () => VIEW,
    'GET /deadlines/holidays': () => [],
    'GET /correspondence/settings/priorities/options': () => PRIORITIES,
    'PUT /deadlines/settings': (body) => ({ settings: body, updatedAt: VIEW.updatedAt }),
    ...routes,
  });
  holder.fake = fake as never;
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => {
  holder.mayEdit = true;
  serve();
});

describe('the screen logic', () => {
  it('orders the week for its reader and converts typed days between calendars', () => {
    expect(weekOrder('en')[0]).toBe(1);
    expect(weekOrder('ar')[0]).toBe(0);
    expect(gregorianOf('hijri', '1448-10-01')).toBe('2027-03-09');
    expect(gregorianOf('hijri', '1447-10-30')).toBeNull();
    expect(gregorianOf('gregorian', '2027-02-30')).toBeNull();
    expect(convertTyped('1447-10-01', 'hijri', 'gregorian')).toBe('2026-03-20');
    expect(convertTyped('2026-03-20', 'gregorian', 'hijri')).toBe('1447-10-01');
  });

  it('keeps the days of a priority not shown, drops an emptied cell', () => {
    const out = settingsFromForm(VIEW.settings, {
      replyDaysDefault: 10,
      escalateAfterDaysDefault: 3,
      approvalDaysPerStep: 2,
      remindDaysBefore: 1,
      reply: { '3': null, '4': 5 },
      escalate: { '3': 1, '4': null },
    });
    expect(out.replyDays).toEqual({ '99': 7, '4': 5 });
    expect(out.escalateAfterDays).toEqual({ '3': 1 });
  });
});

describe('the deadline settings screen', () => {
  it('saves the weekend the reader ticks', async () => {
    renderScreen(<DeadlineSettingsPage />);
    const week = await screen.findByTestId('deadline-weekend');
    const boxes = within(week).getAllByRole('checkbox') as HTMLInputElement[];
    // English: Monday first; Friday and Saturday ticked.
    expect(within(week).getAllByText(/day$/)[0]!.textContent).toBe('Monday');
    expect(boxes.filter((b) => b.checked)).toHaveLength(2);
    fireEvent.click(within(week).getByText('Sunday'));
    fireEvent.click(within(week).getByText('Friday'));
    fireEvent.click(screen.getByTestId('deadline-week-save'));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = fake.calls.find((c) => c.method === 'PUT')!;
    expect((put.body as { weekend: number[] }).weekend.sort()).toEqual([0, 6]);
  });

  it('saves reply days per priority', async () => {
    renderScreen(<DeadlineSettingsPage />);
    const table = await screen.findByTestId('deadline-priorities');
    await within(table).findByText('Urgent');
    const inputs = within(table).getAllByRole('spinbutton') as HTMLInputElement[];
    // Urgent reply, Urgent escalate, Normal reply, Normal escalate, default reply, default escalate.
    await waitFor(() => expect(inputs[0]!.value).toBe('2'));
    fireEvent.change(inputs[2]!, { target: { value: '6' } });
    fireEvent.click(screen.getByTestId('deadline-save'));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = fake.calls.find((c) => c.method === 'PUT')!.body as { replyDays: Record<string, number> };
    expect(body.replyDays).toEqual({ '3': 2, '4': 6, '99': 7 });
  });

  it('adds a Hijri holiday, showing its Gregorian day and converting on the switch', async () => {
    serve({
      'POST /deadlines/holidays': (body) => ({ id: 1, ...(body as object) }),
    });
    renderScreen(<DeadlineSettingsPage />);
    fireEvent.click(await screen.findByTestId('holiday-add'));
    const modal = await screen.findByTestId('holiday-modal');
    fireEvent.change(within(modal).getByTestId('holiday-name-ar'), { target: { value: 'عيد الفطر' } });
    fireEvent.change(within(modal).getByTestId('holiday-name-en'), { target: { value: 'Eid al-Fitr' } });
    fireEvent.change(within(modal).getByTestId('holiday-starts'), { target: { value: '1448-10-01' } });
    expect(await within(modal).findByText(/9 March 2027/)).toBeTruthy();
    fireEvent.click(within(modal).getByText('Gregorian'));
    await waitFor(() =>
      expect((within(modal).getByTestId('holiday-starts') as HTMLInputElement).value).toBe('2027-03-09'),
    );
    fireEvent.click(within(modal).getByText('Hijri'));
    await waitFor(() =>
      expect((within(modal).getByTestId('holiday-starts') as HTMLInputElement).value).toBe('1448-10-01'),
    );
    fireEvent.click(within(modal).getByTestId('holiday-repeats'));
    fireEvent.click(screen.getByTestId('holiday-save'));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(fake.calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      calendar: 'hijri',
      startsOn: '1448-10-01',
      repeats: true,
      nameEn: 'Eid al-Fitr',
    });
  });

  it('is read-only without the edit permission', async () => {
    holder.mayEdit = false;
    renderScreen(<DeadlineSettingsPage />);
    await screen.findByTestId('deadline-weekend');
    expect(screen.queryByTestId('deadline-week-save')).toBeNull();
    expect(screen.queryByTestId('deadline-save')).toBeNull();
    expect(screen.queryByTestId('holiday-add')).toBeNull();
  });
});
