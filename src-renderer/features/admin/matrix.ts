/**
 * The role's page-permission matrix as pure functions: rows are pages, columns the permissions a page
 * offers. Editing keeps two rules the menu relies on — a page is only reachable with `view`, so
 * granting anything grants `view`, and taking `view` away takes the whole row — and saving sends only
 * pages holding something, each with the permissions in the canonical order.
 */
import type { AdminSection, RolePermissions } from '../../../src-shared/api/admin';
import { PERMISSIONS, type Permission } from '../../../src-shared/permissions';

/** pageId → the permissions the role holds on it. */
export type Matrix = Readonly<Record<number, readonly Permission[]>>;

/** A page as the matrix needs it. */
export interface MatrixPage {
  id: number;
  availablePermissions: readonly Permission[];
}

export type CheckState = 'all' | 'some' | 'none';

const ordered = (set: Iterable<Permission>) => {
  const wanted = new Set(set);
  return PERMISSIONS.filter((p) => wanted.has(p));
};

/** The matrix of a role's entries. */
export function matrixOf(entries: RolePermissions['entries']): Matrix {
  return Object.fromEntries(entries.map((e) => [e.pageId, ordered(e.permissions)]));
}

/** The pages (children of sections) in display order: sections' own entries are not edited here. */
export function pagesOf(sections: readonly AdminSection[]): MatrixPage[] {
  return sections.flatMap((s) => s.children);
}

/** Grants or takes one permission on one page. */
export function toggle(matrix: Matrix, page: MatrixPage, permission: Permission, on: boolean): Matrix {
  if (!page.availablePermissions.includes(permission)) return matrix;
  const held = new Set(matrix[page.id] ?? []);
  if (on) {
    held.add(permission);
    if (page.availablePermissions.includes('view')) held.add('view');
  } else if (permission === 'view') {
    held.clear();
  } else {
    held.delete(permission);
  }
  return { ...matrix, [page.id]: ordered(held) };
}

/** Grants every permission a page offers, or none. */
export function setRow(matrix: Matrix, page: MatrixPage, on: boolean): Matrix {
  return { ...matrix, [page.id]: on ? ordered(page.availablePermissions) : [] };
}

/** Grants or takes one permission on every page offering it. */
export function setColumn(
  matrix: Matrix,
  pages: readonly MatrixPage[],
  permission: Permission,
  on: boolean,
): Matrix {
  return pages.reduce((m, page) => toggle(m, page, permission, on), matrix);
}

/** Grants or takes everything on a group of pages (a section's row). */
export function setRows(matrix: Matrix, pages: readonly MatrixPage[], on: boolean): Matrix {
  return pages.reduce((m, page) => setRow(m, page, on), matrix);
}

function stateOf(held: number, offered: number): CheckState {
  if (offered === 0 || held === 0) return 'none';
  return held === offered ? 'all' : 'some';
}

/** Whether a page holds all, some or none of what it offers. */
export function rowState(matrix: Matrix, page: MatrixPage): CheckState {
  const held = (matrix[page.id] ?? []).filter((p) => page.availablePermissions.includes(p)).length;
  return stateOf(held, page.availablePermissions.length);
}

/** Whether the pages offering a permission all, some or none hold it (`permission` omitted: everything). */
export function columnState(
  matrix: Matrix,
  pages: readonly MatrixPage[],
  permission?: Permission,
): CheckState {
  let offered = 0;
  let held = 0;
  for (const page of pages) {
    const perms = permission ? [permission] : page.availablePermissions;
    for (const p of perms) {
      if (!page.availablePermissions.includes(p)) continue;
      offered += 1;
      if ((matrix[page.id] ?? []).includes(p)) held += 1;
    }
  }
  return stateOf(held, offered);
}

/**
 * The body of PUT /auth/roles/{id}/permissions: every edited page holding something, plus the entries
 * of pages the editor does not show (sections) exactly as they were loaded.
 */
export function entriesOf(
  matrix: Matrix,
  pages: readonly MatrixPage[],
  loaded: RolePermissions['entries'] = [],
) {
  const shown = new Set(pages.map((p) => p.id));
  const kept = loaded.filter((e) => !shown.has(e.pageId) && e.permissions.length > 0);
  const edited = pages
    .map((page) => ({
      pageId: page.id,
      permissions: ordered((matrix[page.id] ?? []).filter((p) => page.availablePermissions.includes(p))),
    }))
    .filter((e) => e.permissions.length > 0);
  return [...kept, ...edited];
}

/** Whether two matrices grant the same on the given pages (to enable Save only after a change). */
export function sameGrants(a: Matrix, b: Matrix, pages: readonly MatrixPage[]): boolean {
  return pages.every((p) => (a[p.id] ?? []).join() === (b[p.id] ?? []).join());
}
