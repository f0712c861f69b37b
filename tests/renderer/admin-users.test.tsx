/**
 * The users screen against a fake API: the list and its server-side query, actions shown by the page
 * permissions, the add form validating as the server does (required, email, minimum 6, confirmation),
 * the server's field errors shown inline, and a reset password shown once.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { initI18n } from '../../src-renderer/lib/i18n';
import { UsersPage } from '../../src-renderer/features/admin/UsersPage';
import { apiError, fakeHttp, pageOf, renderScreen, ROLES, USERS, type Routes } from './admin-harness';

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
}));

let fake: Fake;
function serve(routes: Routes) {
  fake = fakeHttp({
    'GET /auth/users': () => pageOf(USERS),
    'GET /auth/roles': () => pageOf(ROLES),
    'GET /auth/users/clearance-options': () => [{ id: 31, nameAr: 'سري', nameEn: 'Secret', level: 3 }],
    ...routes,
  });
  holder.fake = fake as never;
}

/** Presses the OK button of the confirmation dialog with this title. */
async function confirmDialog(title: string, ok: string) {
  const [heading] = await screen.findAllByText(title);
  const dialog = heading!.closest('.ant-modal-confirm') as HTMLElement;
  fireEvent.click(within(dialog).getByRole('button', { name: ok }));
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => serve({}));

describe('UsersPage', () => {
  it('lists users from the server with their role, status and two-factor', async () => {
    renderScreen(<UsersPage permissions={['view', 'add', 'edit', 'activate']} />);
    expect(await screen.findByText('sara')).toBeTruthy();
    expect(fake.calls.find((c) => c.path === '/auth/users')!.query).toEqual({
      page: 1,
      pageSize: 20,
      sort: '-createdAt',
    });
    const row = screen.getByText('sara').closest('tr')!;
    expect(within(row).getByText('Clerk')).toBeTruthy();
    expect(within(row).getByText('Inactive')).toBeTruthy();
    const adminRow = screen.getByText('admin', { selector: 'bdi' }).closest('tr')!;
    expect(within(adminRow).getByTestId('two-factor-on')).toBeTruthy();
    expect(within(row).queryByTestId('two-factor-on')).toBeNull();
    expect(screen.getByTestId('user-add')).toBeTruthy();
    expect(screen.getByTestId('user-edit-sara')).toBeTruthy();
    // The security clearance is a column: a level, or the lowest by default.
    expect(within(row).getByText('Secret')).toBeTruthy();
    expect(within(adminRow).getByText('Lowest (default)')).toBeTruthy();
  });

  it('hides the actions the current page permissions do not allow', async () => {
    renderScreen(<UsersPage permissions={['view']} />);
    await screen.findByText('sara');
    expect(screen.queryByTestId('user-add')).toBeNull();
    expect(screen.queryByTestId('user-edit-sara')).toBeNull();
    expect(screen.queryByTestId('user-more-sara')).toBeNull();
  });

  it('validates the add form as the server does', async () => {
    renderScreen(<UsersPage permissions={['view', 'add']} />);
    await screen.findByText('sara');
    fireEvent.click(screen.getByTestId('user-add'));
    const form = await screen.findByTestId('user-form');
    fireEvent.click(screen.getByTestId('user-form-save'));
    await waitFor(() =>
      expect(within(form).getAllByText('This field is required').length).toBeGreaterThanOrEqual(6),
    );

    fireEvent.change(within(form).getByTestId('user-username'), { target: { value: 'ab' } });
    fireEvent.change(within(form).getByTestId('user-email'), { target: { value: 'not-an-email' } });
    fireEvent.change(within(form).getByTestId('user-password'), { target: { value: '12345' } });
    fireEvent.change(within(form).getByTestId('user-password-confirmation'), { target: { value: '123456' } });
    expect(await within(form).findByText('Minimum length is 3')).toBeTruthy();
    expect(await within(form).findByText('Please enter a valid email')).toBeTruthy();
    expect(await within(form).findByText('Minimum length is 6')).toBeTruthy();
    expect(await within(form).findByText('The passwords do not match')).toBeTruthy();
    expect(fake.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('shows the server field errors inline on the edit form', async () => {
    serve({
      'PUT /auth/users/2': () => {
        throw apiError(409, { email: ['This email is already in use'] });
      },
    });
    renderScreen(<UsersPage permissions={['view', 'edit']} />);
    await screen.findByText('sara');
    fireEvent.click(screen.getByTestId('user-edit-sara'));
    const form = await screen.findByTestId('user-form');
    await waitFor(() =>
      expect((within(form).getByTestId('user-username') as HTMLInputElement).value).toBe('sara'),
    );
    fireEvent.change(within(form).getByTestId('user-email'), { target: { value: 'admin@example.org' } });
    fireEvent.click(screen.getByTestId('user-form-save'));
    expect(await within(form).findByText('This email is already in use')).toBeTruthy();
    const put = fake.calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({
      username: 'sara',
      email: 'admin@example.org',
      nameAr: 'سارة',
      nameEn: 'Sara',
      roleId: 2,
      locale: 'en',
    });
  });

  it('resets a password after confirmation and shows the temporary password once', async () => {
    serve({ 'POST /auth/users/2/reset-password': () => ({ temporaryPassword: 'Tmp-4821-xk' }) });
    renderScreen(<UsersPage permissions={['view', 'edit']} />);
    await screen.findByText('sara');
    fireEvent.click(screen.getByTestId('user-more-sara'));
    fireEvent.click(await screen.findByText('Reset password'));
    await confirmDialog('Reset the password of sara?', 'Reset password');
    expect((await screen.findByTestId('temporary-password')).textContent).toContain('Tmp-4821-xk');
    expect(screen.getByText(/shown only once/)).toBeTruthy();
  });

  it('deactivates a user after confirmation and reloads the list', async () => {
    serve({ 'PUT /auth/users/1/active': () => ({ ...USERS[0], active: false }) });
    renderScreen(<UsersPage permissions={['view', 'activate']} />);
    await screen.findByText('sara');
    fireEvent.click(screen.getByTestId('user-more-admin'));
    fireEvent.click(await screen.findByText('Deactivate'));
    await confirmDialog('Deactivate user admin?', 'Deactivate');
    await waitFor(() => expect(fake.calls.find((c) => c.method === 'PUT')?.body).toEqual({ active: false }));
    await waitFor(() =>
      expect(fake.calls.filter((c) => c.method === 'GET' && c.path === '/auth/users').length).toBe(2),
    );
  });
});
