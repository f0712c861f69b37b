/**
 * Roles and the page-permission matrix: the matrix rules as pure functions (granting implies view,
 * taking view empties the row, select-all per row and column, the PUT body), and the roles screen
 * against a fake API — opening a role's matrix, checking cells and a column, and saving.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { initI18n } from '../../src-renderer/lib/i18n';
import { RolesPage } from '../../src-renderer/features/admin/RolesPage';
import {
  columnState,
  entriesOf,
  matrixOf,
  pagesOf,
  rowState,
  sameGrants,
  setColumn,
  setRow,
  setRows,
  toggle,
} from '../../src-renderer/features/admin/matrix';
import { fakeHttp, pageOf, renderScreen, ROLES, SECTIONS, type Routes } from './admin-harness';

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

const users = SECTIONS[0]!.children[0]!;
const audit = SECTIONS[0]!.children[1]!;
const jobs = SECTIONS[1]!.children[0]!;
const pages = pagesOf(SECTIONS);

describe('permission matrix rules', () => {
  it('lists the pages of every section, not the sections themselves', () => {
    expect(pages.map((p) => p.id)).toEqual([11, 12, 21]);
  });

  it('grants view with any permission and takes the whole row with view', () => {
    let m = toggle({}, users, 'edit', true);
    expect(m[11]).toEqual(['view', 'edit']);
    m = toggle(m, users, 'add', true);
    expect(m[11]).toEqual(['view', 'add', 'edit']);
    m = toggle(m, users, 'edit', false);
    expect(m[11]).toEqual(['view', 'add']);
    m = toggle(m, users, 'view', false);
    expect(m[11]).toEqual([]);
    // A permission the page does not offer is ignored.
    expect(toggle({}, audit, 'edit', true)).toEqual({});
  });

  it('selects all per row, per column and everywhere, with tri-state summaries', () => {
    let m = setRow({}, users, true);
    expect(m[11]).toEqual(['view', 'add', 'edit', 'activate']);
    expect(rowState(m, users)).toBe('all');
    expect(columnState(m, pages, 'view')).toBe('some');
    m = setColumn(m, pages, 'add', true);
    expect(m[21]).toEqual(['view', 'add']);
    expect(m[12]).toBeUndefined();
    expect(columnState(m, pages, 'add')).toBe('all');
    expect(rowState(m, audit)).toBe('none');
    m = setRows(m, pages, true);
    expect(columnState(m, pages)).toBe('all');
    m = setColumn(m, pages, 'view', false);
    expect(columnState(m, pages)).toBe('none');
  });

  it('builds the PUT body: pages holding something, canonical order, unseen entries kept', () => {
    const loaded = [
      { pageId: 10, permissions: ['view' as const] },
      { pageId: 11, permissions: ['edit' as const, 'view' as const] },
    ];
    const m = matrixOf(loaded);
    expect(m[11]).toEqual(['view', 'edit']);
    const edited = toggle(toggle(m, jobs, 'add', true), users, 'view', false);
    expect(entriesOf(edited, pages, loaded)).toEqual([
      { pageId: 10, permissions: ['view'] },
      { pageId: 21, permissions: ['view', 'add'] },
    ]);
    expect(sameGrants(m, matrixOf(loaded), pages)).toBe(true);
    expect(sameGrants(m, edited, pages)).toBe(false);
  });
});

let fake: ReturnType<typeof fakeHttp>;
function serve(routes: Routes) {
  fake = fakeHttp({
    'GET /auth/roles': () => pageOf(ROLES),
    'GET /auth/roles/2/permissions': () => ({
      roleId: 2,
      entries: [{ pageId: 11, permissions: ['view'] }],
      pages: SECTIONS,
    }),
    'PUT /auth/roles/2/permissions': (body) => ({
      roleId: 2,
      entries: (body as { entries: unknown[] }).entries,
      pages: SECTIONS,
    }),
    ...routes,
  });
  holder.fake = fake as never;
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(() => serve({}));

describe('RolesPage', () => {
  it('lists roles and offers add, edit and deactivate by permission, never deactivating the system role', async () => {
    renderScreen(<RolesPage permissions={['view', 'add', 'edit', 'activate']} />);
    expect(await screen.findByText('Clerk')).toBeTruthy();
    expect(screen.getByText('System')).toBeTruthy();
    expect(screen.getByTestId('role-add')).toBeTruthy();
    expect(screen.getByTestId('role-active-Clerk')).toBeTruthy();
    expect(screen.queryByTestId('role-active-Administrator')).toBeNull();
  });

  it('edits the matrix: a cell, a whole column, then saves the whole matrix', async () => {
    renderScreen(<RolesPage permissions={['view', 'edit']} />);
    await screen.findByText('Clerk');
    fireEvent.click(screen.getByTestId('role-permissions-Clerk'));
    const matrix = await screen.findByTestId('permission-matrix');
    const view = (await within(matrix).findByLabelText('Users: View')) as HTMLInputElement;
    expect(view.checked).toBe(true);
    expect((within(matrix).getByLabelText('Users: Edit') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(within(matrix).getByLabelText('Users: Edit'));
    // A scrolling table renders its header twice (sticky copy); either box is the same control.
    fireEvent.click(within(matrix).getAllByLabelText('Add on every page')[0]!);
    fireEvent.click(screen.getByTestId('matrix-save'));
    await waitFor(() => expect(fake.calls.find((c) => c.method === 'PUT')).toBeTruthy());
    expect(fake.calls.find((c) => c.method === 'PUT')!.body).toEqual({
      entries: [
        { pageId: 11, permissions: ['view', 'add', 'edit'] },
        { pageId: 21, permissions: ['view', 'add'] },
      ],
    });
  });

  it('shows the administrator role matrix read-only', async () => {
    serve({ 'GET /auth/roles/1/permissions': () => ({ roleId: 1, entries: [], pages: SECTIONS }) });
    renderScreen(<RolesPage permissions={['view', 'edit']} />);
    await screen.findByText('Clerk');
    fireEvent.click(screen.getByTestId('role-permissions-Administrator'));
    expect(await screen.findByText(/always holds every permission/)).toBeTruthy();
    expect(screen.queryByTestId('matrix-save')).toBeNull();
  });
});
