/**
 * The administration calls of docs/api.md ("Administration"), typed with the schemas the server validates
 * with (src-shared/api/admin.ts), and the react-query keys the screens invalidate after a change.
 */
import type {
  AdminPage,
  AdminSection,
  CreatePageRequest,
  CreateRoleRequest,
  CreateUserRequest,
  ResetPasswordResponse,
  Role,
  RoleOption,
  ClearanceOption,
  RolePermissions,
  SetRolePermissionsRequest,
  SetUserPasswordRequest,
  UpdatePageRequest,
  UpdateRoleRequest,
  UpdateUserRequest,
  User,
} from '../../src-shared/api/admin';
import { http } from './http';

/** Cache keys: a screen's list lives under its key; invalidate the key after a change. */
export const adminKeys = {
  users: ['admin', 'users'] as const,
  roles: ['admin', 'roles'] as const,
  roleOptions: ['admin', 'roles', 'options'] as const,
  clearanceOptions: ['admin', 'users', 'clearance-options'] as const,
  rolePermissions: (id: number) => ['admin', 'roles', id, 'permissions'] as const,
  pages: ['admin', 'pages'] as const,
  audit: ['admin', 'audit'] as const,
};

export const ENDPOINTS = {
  users: '/auth/users',
  roles: '/auth/roles',
  pages: '/auth/pages',
  audit: '/auth/audit',
} as const;

/** GET /auth/roles/{id}/permissions answers the matrix and, for the editor, every section and page. */
export type RolePermissionsWithPages = RolePermissions & { pages: AdminSection[] };

export const adminApi = {
  createUser: (body: CreateUserRequest) => http.post<User>(ENDPOINTS.users, body),
  updateUser: (id: number, body: UpdateUserRequest) => http.put<User>(`${ENDPOINTS.users}/${id}`, body),
  setUserActive: (id: number, active: boolean) =>
    http.put<User>(`${ENDPOINTS.users}/${id}/active`, { active }),
  setUserPassword: (id: number, body: SetUserPasswordRequest) =>
    http.put<void>(`${ENDPOINTS.users}/${id}/password`, body),
  resetUserPassword: (id: number) =>
    http.post<ResetPasswordResponse>(`${ENDPOINTS.users}/${id}/reset-password`),

  /**
   * Every role, for the users screen's pickers: its own endpoint needs only the users page, so whoever
   * may manage users can pick a role without access to the roles screen.
   */
  roleOptions: async () => ({ items: await http.get<RoleOption[]>(`${ENDPOINTS.users}/role-options`) }),
  clearanceOptions: () => http.get<ClearanceOption[]>(`${ENDPOINTS.users}/clearance-options`),
  createRole: (body: CreateRoleRequest) => http.post<Role>(ENDPOINTS.roles, body),
  updateRole: (id: number, body: UpdateRoleRequest) => http.put<Role>(`${ENDPOINTS.roles}/${id}`, body),
  setRoleActive: (id: number, active: boolean) =>
    http.put<Role>(`${ENDPOINTS.roles}/${id}/active`, { active }),
  rolePermissions: (id: number) => http.get<RolePermissionsWithPages>(`${ENDPOINTS.roles}/${id}/permissions`),
  setRolePermissions: (id: number, body: SetRolePermissionsRequest) =>
    http.put<RolePermissionsWithPages>(`${ENDPOINTS.roles}/${id}/permissions`, body),

  pagesTree: () => http.get<{ pages: AdminSection[] }>(ENDPOINTS.pages),
  createPage: (body: CreatePageRequest) => http.post<AdminPage>(ENDPOINTS.pages, body),
  updatePage: (id: number, body: UpdatePageRequest) => http.put<AdminPage>(`${ENDPOINTS.pages}/${id}`, body),
};
