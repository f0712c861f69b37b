/**
 * The generic settings list block against a fake API: every declaration renders its columns and its
 * form fields, actions follow the page permissions, a save sends exactly the declared fields, and
 * activate/deactivate calls the list's `active` endpoint.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { initI18n } from '../../src-renderer/lib/i18n';
import { SettingsListScreen } from '../../src-renderer/features/correspondence/settings/SettingsListScreen';
import { SETTINGS_LISTS } from '../../src-renderer/features/correspondence/settings/declarations';
import { SETTINGS_LIST_FIELDS } from '../../src-shared/api/correspondence';
import { fakeHttp, pageOf, renderScreen, type Routes } from './admin-harness';

type Fake = ReturnType<typeof fakeHttp>;
const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
}));
vi.mock('../../src-renderer/lib/http', () => ({
  http: {
    get: (...a: unknown[]) => holder.fake.http.get!(...a),
    post: (...a: unknown[]) => holder.fake.http.post!(...a),
    put: (...a: unknown[]) => holder.fake.http.put!(...a),
    patch: (...a: unknown[]) => holder.fake.http.patch!(...a),
    delete: (...a: unknown[]) => holder.fake.http.delete!(...a),
  },
  errorText: () => 'error',
  ApiError: class extends Error {},
}));

const item = (over: Record<string, unknown>) => ({
  id: 1,
  list: 'mediums',
  nameAr: 'باليد',
  nameEn: 'By hand',
  level: null,
  prefix: null,
  direction: null,
  department: null,
  order: 0,
  active: true,
  createdAt: '2025-01-01T08:00:00.000Z',
  updatedAt: '2025-01-01T08:00:00.000Z',
  ...over,
});

let fake: Fake;
function serve(routes: Routes) {
  fake = fakeHttp({
    'GET /correspondence/settings/mediums': () => pageOf([item({})]),
    'GET /correspondence/settings/priorities': () =>
      pageOf([item({ list: 'priorities', nameAr: 'عاجل', nameEn: 'Urgent', level: 3 })]),
    'GET /correspondence/settings/security-levels': () =>
      pageOf([item({ list: 'security-levels', nameAr: 'سري', nameEn: 'Secret', level: 2, active: false })]),
    'GET /correspondence/settings/codifications': () =>
      pageOf([
        item({
          list: 'codifications',
          nameAr: 'وارد عام',
          nameEn: 'General incoming',
          prefix: 'IN',
          direction: 'in',
        }),
      ]),
    'GET /correspondence/settings/main-distribution': () =>
      pageOf([
        item({
          list: 'main-distribution',
          nameAr: 'الشؤون المالية',
          nameEn: 'Finance',
          department: { id: 7, nameAr: 'الشؤون المالية', nameEn: 'Finance' },
          order: 1,
        }),
      ]),
    'GET /ec/departments/tree': () => ({ roots: [] }),
    ...routes,
  });
  holder.fake = fake as never;
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => serve({}));

const ALL = ['view', 'add', 'edit', 'activate'] as const;

describe('settings declarations', () => {
  it('declare the same extra fields as the server', () => {
    for (const spec of Object.values(SETTINGS_LISTS)) {
      const names = spec.fields.map((f) => f.name);
      const server = SETTINGS_LIST_FIELDS[spec.list];
      expect(names.includes('nameAr'), spec.list).toBe(server.names);
      expect(names.includes('level'), spec.list).toBe(server.level);
      expect(names.includes('prefix'), spec.list).toBe(server.prefix);
      expect(names.includes('direction'), spec.list).toBe(server.direction);
      expect(names.includes('departmentId'), spec.list).toBe(server.department);
    }
  });

  it.each([
    ['mediums', ['English name', 'Arabic name', 'Status'], 'By hand'],
    ['priorities', ['Level'], 'Urgent'],
    ['securityLevels', ['Level'], 'Secret'],
    ['codifications', ['Prefix', 'Direction'], 'General incoming'],
    ['mainDistribution', ['Department', 'Order'], 'Finance'],
  ] as const)('%s renders its columns and rows', async (key, headers, rowText) => {
    renderScreen(<SettingsListScreen spec={SETTINGS_LISTS[key]} permissions={[...ALL]} />);
    expect(await screen.findByText(rowText)).toBeTruthy();
    for (const header of headers) expect(screen.getAllByText(header).length).toBeGreaterThan(0);
  });

  it('shows no add, edit or activate without the permissions', async () => {
    renderScreen(<SettingsListScreen spec={SETTINGS_LISTS.mediums} permissions={['view']} />);
    expect(await screen.findByText('By hand')).toBeTruthy();
    expect(screen.queryByTestId('settings-mediums-add')).toBeNull();
    expect(screen.queryByTestId('settings-mediums-edit-1')).toBeNull();
  });

  it('adds a codification with exactly its declared fields, checking the prefix', async () => {
    let sent: unknown;
    serve({
      'POST /correspondence/settings/codifications': (body) => {
        sent = body;
        return item({ id: 2 });
      },
    });
    renderScreen(<SettingsListScreen spec={SETTINGS_LISTS.codifications} permissions={[...ALL]} />);
    fireEvent.click(await screen.findByTestId('settings-codifications-add'));
    const form = await screen.findByTestId('settings-codifications-form');
    fireEvent.change(within(form).getByTestId('settings-codifications-nameAr'), {
      target: { value: ' صادر ' },
    });
    fireEvent.change(within(form).getByTestId('settings-codifications-nameEn'), {
      target: { value: 'Outgoing' },
    });
    fireEvent.change(within(form).getByTestId('settings-codifications-prefix'), { target: { value: 'out' } });
    fireEvent.click(screen.getByTestId('settings-codifications-save'));
    await waitFor(() => expect(form.textContent).toMatch(/Capital letters and digits/));
    fireEvent.change(within(form).getByTestId('settings-codifications-prefix'), { target: { value: 'OUT' } });
    fireEvent.mouseDown(within(form).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Outgoing'));
    fireEvent.click(screen.getByTestId('settings-codifications-save'));
    await waitFor(() =>
      expect(sent).toEqual({ nameAr: 'صادر', nameEn: 'Outgoing', prefix: 'OUT', direction: 'out' }),
    );
  });

  it('deactivates an item through its active endpoint', async () => {
    let sent: unknown;
    serve({
      'PUT /correspondence/settings/mediums/1/active': (body) => {
        sent = body;
        return item({ active: false });
      },
    });
    renderScreen(<SettingsListScreen spec={SETTINGS_LISTS.mediums} permissions={[...ALL]} />);
    fireEvent.click(await screen.findByTestId('settings-mediums-active-1'));
    const [heading] = await screen.findAllByText(/Deactivate By hand\?/);
    const dialog = heading!.closest('.ant-modal-confirm') as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(sent).toEqual({ active: false }));
  });
});
