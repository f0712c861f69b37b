/**
 * Sections and pages (the tree, add a page under a section with its permissions, path validation as
 * the server's) and the audit log (its query, the date range bounds, the details drawer) on the audit
 * page's first tab.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { MemoryRouter } from 'react-router-dom';
import { initI18n } from '../../src-renderer/lib/i18n';
import { PagesPage } from '../../src-renderer/features/admin/PagesPage';
import { AuditPage, auditRangeFilter } from '../../src-renderer/features/admin/AuditPage';
import { fakeHttp, pageOf, renderScreen, SECTIONS, type Routes } from './admin-harness';

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
}));

const ENTRY = {
  id: 7,
  at: '2025-03-02T10:15:00.000Z',
  actorId: 1,
  actorUsername: 'admin',
  action: 'users.create',
  actionName: 'User created',
  targetType: 'user',
  targetId: '2',
  details: { username: 'sara' },
  ip: '127.0.0.1',
};

let fake: ReturnType<typeof fakeHttp>;
function serve(routes: Routes) {
  fake = fakeHttp({
    'GET /auth/pages': () => ({ pages: SECTIONS }),
    'POST /auth/pages': (body) => ({ id: 30, ...(body as object) }),
    'GET /auth/audit': () => pageOf([ENTRY]),
    // The integrity tab's count (the audit page's second tab).
    'GET /auth/integrity': () => ({ ...pageOf([]), open: 0, lastPassAt: null, nextRunAt: null }),
    ...routes,
  });
  holder.fake = fake as never;
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => serve({}));

describe('PagesPage', () => {
  it('shows sections with their pages and the permissions each offers', async () => {
    renderScreen(<PagesPage permissions={['view', 'add', 'edit']} />);
    expect(await screen.findByText('Administration')).toBeTruthy();
    const usersRow = screen.getByText('Users').closest('tr')!;
    expect(within(usersRow).getByText('/auth/users')).toBeTruthy();
    expect(within(usersRow).getByText('Activate')).toBeTruthy();
    expect(screen.getByTestId('section-add')).toBeTruthy();
  });

  it('hides add and edit without those permissions', async () => {
    renderScreen(<PagesPage permissions={['view']} />);
    await screen.findByText('Administration');
    expect(screen.queryByTestId('section-add')).toBeNull();
    expect(screen.queryByTestId('page-edit-/auth/users')).toBeNull();
  });

  it('adds a page under a section, validating the path as the server does', async () => {
    renderScreen(<PagesPage permissions={['view', 'add']} />);
    await screen.findByText('Administration');
    fireEvent.click(screen.getByTestId('page-add-under-/ec'));
    const form = await screen.findByTestId('page-form');
    await waitFor(() =>
      expect((within(form).getByTestId('page-path') as HTMLInputElement).value).toBe('/ec/'),
    );
    fireEvent.change(within(form).getByTestId('page-name-ar'), { target: { value: 'المسميات' } });
    fireEvent.change(within(form).getByTestId('page-name-en'), { target: { value: 'Titles' } });
    fireEvent.change(within(form).getByTestId('page-path'), { target: { value: '/ec/Titles' } });
    fireEvent.click(screen.getByTestId('page-form-save'));
    expect(await within(form).findByText(/Use a path like/)).toBeTruthy();
    fireEvent.change(within(form).getByTestId('page-path'), { target: { value: '/ec/titles' } });
    fireEvent.click(within(form).getByLabelText('Edit'));
    fireEvent.click(screen.getByTestId('page-form-save'));
    await waitFor(() => expect(fake.calls.find((c) => c.method === 'POST')).toBeTruthy());
    expect(fake.calls.find((c) => c.method === 'POST')!.body).toEqual({
      parentId: 20,
      nameAr: 'المسميات',
      nameEn: 'Titles',
      path: '/ec/titles',
      icon: 'FileOutlined',
      order: 20,
      availablePermissions: ['view', 'edit'],
    });
  });
});

describe('AuditPage', () => {
  it('bounds a date range by whole local days', () => {
    const from = dayjs('2025-03-01T15:00:00');
    const to = dayjs('2025-03-05T08:00:00');
    expect(auditRangeFilter([from, to])).toEqual({
      at: {
        operator: 'and',
        constraints: [
          { value: from.startOf('day').toISOString(), matchMode: 'gte' },
          { value: to.endOf('day').toISOString(), matchMode: 'lte' },
        ],
      },
    });
    expect(auditRangeFilter([null, to])!.at!.constraints).toHaveLength(1);
    expect(auditRangeFilter(null)).toBeUndefined();
  });

  it('lists records newest first and opens their details', async () => {
    renderScreen(
      <MemoryRouter>
        <AuditPage permissions={['view']} />
      </MemoryRouter>,
    );
    expect(await screen.findByText('User created')).toBeTruthy();
    expect(fake.calls.find((c) => c.path === '/auth/audit')!.query).toEqual({
      page: 1,
      pageSize: 20,
      sort: '-at',
    });
    fireEvent.click(screen.getByText('User created'));
    const json = await screen.findByTestId('audit-details-json');
    expect(JSON.parse(json.textContent!)).toEqual({ username: 'sara' });
    expect(screen.getByText('users.create')).toBeTruthy();
  });
});
