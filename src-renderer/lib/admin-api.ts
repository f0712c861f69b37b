/**
 * The administration calls of docs/api.md ("Administration"), typed with the schemas the server validates
 * with (src-shared/api/admin.ts; what a user read and the integrity findings: src-shared/api/reads.ts),
 * and the react-query keys the screens invalidate after a change.
 */
import {
  adminEndpoints,
  type AdminSection,
  type CreatePageRequest,
  type CreateRoleRequest,
  type CreateUserRequest,
  type RolePermissions,
  type SetRolePermissionsRequest,
  type SetUserPasswordRequest,
  type UpdatePageRequest,
  type UpdateRoleRequest,
  type UpdateUserRequest,
} from '../../src-shared/api/admin';
import { fillPath } from '../../src-shared/api/endpoint';
import { readsEndpoints } from '../../src-shared/api/reads';
import { PAGES } from '../../src-shared/pages';
import { call } from './call';

/** Cache keys: a screen's list lives under its key; invalidate the key after a change. */
export const adminKeys = {
  users: ['admin', 'users'] as const,
  roles: ['admin', 'roles'] as const,
  roleOptions: ['admin', 'roles', 'options'] as const,
  clearanceOptions: ['admin', 'users', 'clearance-options'] as const,
  rolePermissions: (id: number) => ['admin', 'roles', id, 'permissions'] as const,
  pages: ['admin', 'pages'] as const,
  audit: ['admin', 'audit'] as const,
  /** What one user read (the users screen's drawer). */
  userReads: (id: number) => ['admin', 'users', id, 'reads'] as const,
  /** The integrity check's findings, by page (the audit page's second tab). */
  integrity: ['admin', 'integrity'] as const,
};

/** The audit page opened on its tab of the integrity check's findings (a notification's link). */
export const AUDIT_INTEGRITY_PATH = `${PAGES.audit}?tab=integrity`;

/** The list endpoints' paths, for the screens' server-side tables. */
export const ENDPOINTS = {
  users: adminEndpoints.listUsers.path,
  roles: adminEndpoints.listRoles.path,
  pages: adminEndpoints.pagesTree.path,
  audit: adminEndpoints.audit.path,
  /** What a user read (GET /auth/users/{id}/reads), paged as the tables page. */
  userReads: (id: number) => fillPath(readsEndpoints.userReads.path, { id }),
} as const;

/** GET /auth/roles/{id}/permissions answers the matrix and, for the editor, every section and page. */
export type RolePermissionsWithPages = RolePermissions & { pages: AdminSection[] };

const E = adminEndpoints;

export const adminApi = {
  createUser: (body: CreateUserRequest) => call(E.createUser, { body }),
  updateUser: (id: number, body: UpdateUserRequest) => call(E.updateUser, { params: { id }, body }),
  setUserActive: (id: number, active: boolean) => call(E.setUserActive, { params: { id }, body: { active } }),
  setUserPassword: (id: number, body: SetUserPasswordRequest) =>
    call(E.setUserPassword, { params: { id }, body }),
  resetUserPassword: (id: number) => call(E.resetUserPassword, { params: { id } }),

  /**
   * Every role, for the users screen's pickers: its own endpoint needs only the users page, so whoever
   * may manage users can pick a role without access to the roles screen.
   */
  roleOptions: async () => ({ items: await call(E.roleOptions) }),
  clearanceOptions: () => call(E.clearanceOptions),
  createRole: (body: CreateRoleRequest) => call(E.createRole, { body }),
  updateRole: (id: number, body: UpdateRoleRequest) => call(E.updateRole, { params: { id }, body }),
  setRoleActive: (id: number, active: boolean) => call(E.setRoleActive, { params: { id }, body: { active } }),
  rolePermissions: (id: number) => call(E.rolePermissions, { params: { id } }),
  setRolePermissions: (id: number, body: SetRolePermissionsRequest) =>
    call(E.setRolePermissions, { params: { id }, body }),

  /** A page of the integrity check's findings, with the open count and the check's last and next runs. */
  integrity: (page: number, pageSize: number) =>
    call(readsEndpoints.integrityFailures, { query: { page, pageSize } }),

  pagesTree: () => call(E.pagesTree),
  createPage: (body: CreatePageRequest) => call(E.createPage, { body }),
  updatePage: (id: number, body: UpdatePageRequest) => call(E.updatePage, { params: { id }, body }),
};
