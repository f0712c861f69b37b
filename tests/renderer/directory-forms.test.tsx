/**
 * The Employee Centre forms against a fake API: the job form validates as the server does and shows a
 * server field error (a duplicate name) inline; the employee form requires names, department and job,
 * checks the phone with the server's rule, opens the tab holding the first error, and creates the
 * account in the same request when asked; actions hide without their permissions.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type * as HttpModuleValue from '../../src-renderer/lib/http';
import { initI18n } from '../../src-renderer/lib/i18n';
import { JobsPage } from '../../src-renderer/features/directory/JobsPage';
import { EmployeesPage } from '../../src-renderer/features/directory/EmployeesPage';
import { apiError, fakeHttp, pageOf, renderScreen, ROLES, type Routes } from './admin-harness';

type HttpModule = typeof HttpModuleValue;
const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
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

const JOB = {
  id: 1,
  nameAr: 'مدير إدارة',
  nameEn: 'Department Manager',
  isManager: true,
  active: true,
  employeeCount: 2,
  createdAt: '2025-01-01T08:00:00.000Z',
  updatedAt: '2025-01-01T08:00:00.000Z',
};
const DASHBOARD = {
  totals: { employees: 0, active: 0, withUser: 0, departments: 1, jobs: 1 },
  byDepartment: [],
  byJob: [],
  byType: [],
  recentHires: [],
};

let fake: ReturnType<typeof fakeHttp>;
function serve(routes: Routes) {
  fake = fakeHttp({
    'GET /ec/jobs': () => pageOf([JOB]),
    'GET /ec/jobs/options': () => [{ id: 1, nameAr: JOB.nameAr, nameEn: JOB.nameEn, isManager: true }],
    'GET /ec/employees': () => pageOf([]),
    'GET /ec/employees/dashboard': () => DASHBOARD,
    'GET /ec/departments/options': () => [],
    'GET /auth/users/role-options': () => ROLES,
    ...routes,
  });
  holder.fake = fake as never;
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => serve({}));

describe('JobsPage', () => {
  it('lists jobs and validates the add form, then shows a duplicate name inline', async () => {
    serve({
      'POST /ec/jobs': () => {
        throw apiError(409, { nameEn: ['This name is already in use'] });
      },
    });
    renderScreen(<JobsPage permissions={['view', 'add', 'edit', 'activate']} />);
    expect(await screen.findByText('Department Manager')).toBeTruthy();
    fireEvent.click(screen.getByTestId('job-add'));
    const form = await screen.findByTestId('job-form');
    fireEvent.click(screen.getByTestId('job-form-save'));
    await waitFor(() => expect(within(form).getAllByText('This field is required')).toHaveLength(2));
    expect(fake.calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(form).getByTestId('job-name-ar'), { target: { value: 'مدير إدارة' } });
    fireEvent.change(within(form).getByTestId('job-name-en'), { target: { value: 'Department Manager' } });
    fireEvent.click(within(form).getByTestId('job-is-manager'));
    fireEvent.click(screen.getByTestId('job-form-save'));
    expect(await within(form).findByText('This name is already in use')).toBeTruthy();
    expect(fake.calls.find((c) => c.method === 'POST')!.body).toEqual({
      nameAr: 'مدير إدارة',
      nameEn: 'Department Manager',
      isManager: true,
      active: true,
    });
  });

  it('hides add, edit and activate without the permissions', async () => {
    renderScreen(<JobsPage permissions={['view']} />);
    await screen.findByText('Department Manager');
    expect(screen.queryByTestId('job-add')).toBeNull();
    expect(screen.queryByTestId('job-edit-1')).toBeNull();
    expect(screen.queryByTestId('job-active-1')).toBeNull();
  });
});

describe('EmployeesPage', () => {
  it('shows the empty state of the specification and the dashboard', async () => {
    renderScreen(<EmployeesPage permissions={['view']} />);
    expect(await screen.findByText('No employees')).toBeTruthy();
    expect(screen.getByTestId('employee-dashboard')).toBeTruthy();
    expect(screen.queryByTestId('employee-add')).toBeNull();
  });

  it('says the dashboard and the list could not load when the server is away, and loads them on retry', async () => {
    let away = true;
    const unreachable = () => Object.assign(new Error('unreachable'), { status: 0, fieldErrors: {} });
    serve({
      'GET /ec/employees/dashboard': () => {
        if (away) throw unreachable();
        return { ...DASHBOARD, byJob: [{ id: 1, nameAr: JOB.nameAr, nameEn: JOB.nameEn, count: 2 }] };
      },
      'GET /ec/employees': () => {
        if (away) throw unreachable();
        return pageOf([]);
      },
    });
    renderScreen(<EmployeesPage permissions={['view']} />);
    expect(await screen.findByTestId('dashboard-failed')).toBeTruthy();
    expect(screen.getByText('Could not load')).toBeTruthy();
    // Never the empty states, which would claim there is nothing.
    expect(screen.queryByText('Nothing to show yet')).toBeNull();
    expect(screen.queryByText('No employees')).toBeNull();
    away = false;
    fireEvent.click(
      within(screen.getByTestId('employee-dashboard')).getByRole('button', { name: /Try again/ }),
    );
    expect(await screen.findByTestId('dashboard-by-job')).toBeTruthy();
    expect(screen.queryByTestId('dashboard-failed')).toBeNull();
  });

  it('validates the employee form across its tabs and opens the tab of the first error', async () => {
    renderScreen(<EmployeesPage permissions={['view', 'add', 'edit']} />);
    fireEvent.click(await screen.findByTestId('employee-add'));
    const form = await screen.findByTestId('employee-form');
    fireEvent.click(screen.getByTestId('employee-save'));
    await waitFor(() =>
      expect(within(form).getAllByText('This field is required').length).toBeGreaterThanOrEqual(6),
    );
    expect(await screen.findByText('Some fields need attention; see the marked tabs.')).toBeTruthy();

    fireEvent.change(within(form).getByTestId('employee-phoneNumber'), { target: { value: 'call me' } });
    expect(await within(form).findByText('Please enter a valid phone number')).toBeTruthy();
    fireEvent.change(within(form).getByTestId('employee-firstNameEn'), { target: { value: 'Sara 2' } });
    expect(await within(form).findByText('Please enter a valid name')).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('asks for the account fields when creating an account with the employee', async () => {
    renderScreen(<EmployeesPage permissions={['view', 'add']} />);
    fireEvent.click(await screen.findByTestId('employee-add'));
    const form = await screen.findByTestId('employee-form');
    fireEvent.click(within(form).getByText('Create an account'));
    expect(await within(form).findByTestId('employee-username')).toBeTruthy();
    fireEvent.change(within(form).getByTestId('employee-username'), { target: { value: 'ab' } });
    fireEvent.change(within(form).getByTestId('employee-password'), { target: { value: 'Secret#2025' } });
    fireEvent.change(within(form).getByTestId('employee-passwordConfirmation'), {
      target: { value: 'Other' },
    });
    expect(await within(form).findByText('Minimum length is 3')).toBeTruthy();
    expect(await within(form).findByText('The passwords do not match')).toBeTruthy();
  });
});
