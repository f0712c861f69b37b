/**
 * Request and response schemas of administration (docs/api.md, "Administration"): users, roles, the role's
 * page-permission matrix, sections and pages, and the audit log.
 */
import { z } from 'zod';
import { PERMISSIONS } from '../permissions';
import { LOCALES } from '../locale';
import { listQuerySchema } from '../filters';
import {
  emailField,
  iconField,
  int4,
  nameField,
  pagePathField,
  passwordField,
  refIdField,
  usernameField,
} from './fields';
import { roleRefSchema } from './auth';
import { activatedOrNot, endpoint } from './endpoint';
import { pageOf } from './envelope';
import { idParamsSchema as idParams, setActiveSchema as setActive } from './fields';
import { PAGES } from '../pages';

export { idParamsSchema, setActiveSchema, type IdParams, type SetActive } from './fields';

/** Every admin list takes the common list query of docs/api.md and nothing else. */
export const adminListQuerySchema = listQuerySchema.strict();
export type AdminListQuery = z.infer<typeof adminListQuerySchema>;

// ---------------------------------------------------------------- users (/auth/users)

/** A user as administrators see it (never the password hash or the TOTP secret). */
export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  nameAr: z.string(),
  nameEn: z.string(),
  role: roleRefSchema,
  active: z.boolean(),
  locale: z.enum(LOCALES),
  /** Two-factor is enabled. */
  useTotp: z.boolean(),
  employeeId: z.number().int().nullable(),
  /** The highest security level the user may see; null: the lowest active level (the default). */
  clearance: z
    .object({ id: z.number().int(), nameAr: z.string(), nameEn: z.string(), level: z.number().int() })
    .nullable(),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** GET /auth/users/clearance-options: the security levels a user may be cleared for, lowest first. */
export const clearanceOptionSchema = z.object({
  id: z.number().int(),
  nameAr: z.string(),
  nameEn: z.string(),
  level: z.number().int(),
});
export type ClearanceOption = z.infer<typeof clearanceOptionSchema>;

const passwordPair = {
  password: passwordField,
  passwordConfirmation: z.string().min(1).max(128),
};
const confirms = (v: { password: string; passwordConfirmation: string }) =>
  v.password === v.passwordConfirmation;
const mismatch = () => ({ message: 'validation.passwordMismatch', path: ['passwordConfirmation'] });

/** POST /auth/users. */
export const createUserRequestSchema = z
  .object({
    username: usernameField,
    email: emailField,
    nameAr: nameField,
    nameEn: nameField,
    roleId: refIdField,
    locale: z.enum(LOCALES).default('ar'),
    active: z.boolean().default(true),
    /** The user's security clearance (a security level); null or absent: the lowest level. */
    securityLevelId: refIdField.nullable().optional(),
    ...passwordPair,
  })
  .strict()
  .refine(confirms, mismatch());
export type CreateUserRequest = z.infer<typeof createUserRequestSchema>;

/** PUT /auth/users/{id}: the fields to change. */
export const updateUserRequestSchema = z
  .object({
    username: usernameField.optional(),
    email: emailField.optional(),
    nameAr: nameField.optional(),
    nameEn: nameField.optional(),
    roleId: refIdField.optional(),
    locale: z.enum(LOCALES).optional(),
    /** A new security clearance; null: back to the lowest level. */
    securityLevelId: refIdField.nullable().optional(),
  })
  .strict();
export type UpdateUserRequest = z.infer<typeof updateUserRequestSchema>;

/** PUT /auth/users/{id}/password: an administrator sets a user's password. */
export const setUserPasswordRequestSchema = z
  .object({ ...passwordPair })
  .strict()
  .refine(confirms, mismatch());
export type SetUserPasswordRequest = z.infer<typeof setUserPasswordRequestSchema>;

/** POST /auth/users/{id}/reset-password answers a generated temporary password, shown once. */
export const resetPasswordResponseSchema = z.object({ temporaryPassword: z.string() });
export type ResetPasswordResponse = z.infer<typeof resetPasswordResponseSchema>;

// ---------------------------------------------------------------- roles (/auth/roles)

export const roleSchema = z.object({
  id: z.number().int(),
  nameAr: z.string(),
  nameEn: z.string(),
  active: z.boolean(),
  /** Members must use two-factor (no "skip for now"). */
  requireTwoFactor: z.boolean(),
  /** The built-in administrator role: every permission on every page, cannot be deactivated. */
  isSystem: z.boolean(),
  userCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Role = z.infer<typeof roleSchema>;

/** POST /auth/roles. */
export const createRoleRequestSchema = z
  .object({
    nameAr: nameField,
    nameEn: nameField,
    requireTwoFactor: z.boolean().default(false),
    active: z.boolean().default(true),
  })
  .strict();
export type CreateRoleRequest = z.infer<typeof createRoleRequestSchema>;

/** PUT /auth/roles/{id}. */
export const updateRoleRequestSchema = z
  .object({
    nameAr: nameField.optional(),
    nameEn: nameField.optional(),
    requireTwoFactor: z.boolean().optional(),
  })
  .strict();
export type UpdateRoleRequest = z.infer<typeof updateRoleRequestSchema>;

/** One row of a role's matrix: the permissions it holds on one page. */
export const rolePagePermissionSchema = z
  .object({
    pageId: refIdField,
    permissions: z.array(z.enum(PERMISSIONS)).max(PERMISSIONS.length),
  })
  .strict();

/** GET /auth/roles/{id}/permissions: the role's page-permission matrix (pages it holds nothing on are absent). */
export const rolePermissionsSchema = z.object({
  roleId: z.number().int(),
  entries: z.array(rolePagePermissionSchema),
});
export type RolePermissions = z.infer<typeof rolePermissionsSchema>;

/** GET (and PUT's answer) /auth/roles/{id}/permissions: the matrix and every section/page for the editor. */
export const rolePermissionsWithPagesSchema = rolePermissionsSchema.extend({
  pages: z.array(z.lazy(() => adminSectionSchema)),
});
export type RolePermissionsWithPages = z.infer<typeof rolePermissionsWithPagesSchema>;

/** PUT /auth/roles/{id}/permissions: replaces the whole matrix. */
export const setRolePermissionsRequestSchema = z
  .object({ entries: z.array(rolePagePermissionSchema).max(1000) })
  .strict();
export type SetRolePermissionsRequest = z.infer<typeof setRolePermissionsRequestSchema>;

// ---------------------------------------------------------------- sections and pages (/auth/pages)

/** A page or section as administrators see it, with the permissions it offers. */
export const adminPageSchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  nameAr: z.string(),
  nameEn: z.string(),
  path: z.string(),
  icon: z.string(),
  order: z.number().int(),
  availablePermissions: z.array(z.enum(PERMISSIONS)),
});
export type AdminPage = z.infer<typeof adminPageSchema>;

/** A section with its pages. */
export const adminSectionSchema = adminPageSchema.extend({ children: z.array(adminPageSchema) });
export type AdminSection = z.infer<typeof adminSectionSchema>;

/** GET /auth/pages: every section and page. */
export const adminPagesTreeSchema = z.object({ pages: z.array(adminSectionSchema) });
export type AdminPagesTree = z.infer<typeof adminPagesTreeSchema>;

/** POST /auth/pages: a section (parentId null) or a page of a section. */
export const createPageRequestSchema = z
  .object({
    parentId: refIdField.nullable(),
    nameAr: nameField,
    nameEn: nameField,
    path: pagePathField,
    icon: iconField.default('AppstoreOutlined'),
    order: int4(0, 10_000).default(0),
    availablePermissions: z.array(z.enum(PERMISSIONS)).max(PERMISSIONS.length).default(['view']),
  })
  .strict();
export type CreatePageRequest = z.infer<typeof createPageRequestSchema>;

/** PUT /auth/pages/{id}. */
export const updatePageRequestSchema = z
  .object({
    nameAr: nameField.optional(),
    nameEn: nameField.optional(),
    path: pagePathField.optional(),
    icon: iconField.optional(),
    order: int4(0, 10_000).optional(),
    availablePermissions: z.array(z.enum(PERMISSIONS)).max(PERMISSIONS.length).optional(),
  })
  .strict();
export type UpdatePageRequest = z.infer<typeof updatePageRequestSchema>;

// ---------------------------------------------------------------- audit (/auth/audit)

/** One audit record: who did what, to what, when and from where. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.number().int().nullable(),
  actorUsername: z.string().nullable(),
  /** A stable action code, e.g. `auth.login.success`, `users.create`. */
  action: z.string(),
  /** The action's name in the caller's language. */
  actionName: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

// ---------------------------------------------------------------- role options

/** GET /auth/users/role-options: the roles a user may be given, for pickers on the users screen. */
export const roleOptionSchema = roleRefSchema.extend({ active: z.boolean() });
export type RoleOption = z.infer<typeof roleOptionSchema>;

const users = ['users'];
const roles = ['roles'];
const pages = ['pages'];

/** Administration (docs/api.md, "Administration"): users, roles and their permissions, pages, audit. */
export const adminEndpoints = {
  listUsers: endpoint({
    method: 'GET',
    path: '/auth/users',
    query: adminListQuerySchema,
    response: pageOf(userSchema),
    access: { page: PAGES.users, permission: 'view' },
    tags: users,
    summary: 'List users',
  }),
  createUser: endpoint({
    method: 'POST',
    path: '/auth/users',
    body: createUserRequestSchema,
    response: userSchema,
    status: 201,
    access: { page: PAGES.users, permission: 'add' },
    tags: users,
    summary: 'Create a user',
    message: 'messages.userCreated',
  }),
  roleOptions: endpoint({
    method: 'GET',
    path: '/auth/users/role-options',
    response: z.array(roleOptionSchema),
    access: { page: PAGES.users, permission: 'view' },
    tags: users,
    summary: 'Roles a user may be given (pickers of the users screen)',
  }),
  clearanceOptions: endpoint({
    method: 'GET',
    path: '/auth/users/clearance-options',
    response: z.array(clearanceOptionSchema),
    access: { page: PAGES.users, permission: 'view' },
    tags: users,
    summary: 'Security levels a user may be cleared for (pickers of the users screen)',
  }),
  getUser: endpoint({
    method: 'GET',
    path: '/auth/users/:id',
    params: idParams,
    response: userSchema,
    access: { page: PAGES.users, permission: 'view' },
    tags: users,
    summary: 'One user',
  }),
  updateUser: endpoint({
    method: 'PUT',
    path: '/auth/users/:id',
    params: idParams,
    body: updateUserRequestSchema,
    response: userSchema,
    access: { page: PAGES.users, permission: 'edit' },
    tags: users,
    summary: 'Edit a user',
    message: 'messages.userUpdated',
  }),
  setUserActive: endpoint({
    method: 'PUT',
    path: '/auth/users/:id/active',
    params: idParams,
    body: setActive,
    response: userSchema,
    access: { page: PAGES.users, permission: 'activate' },
    tags: users,
    summary: 'Activate or deactivate a user (deactivation ends their sessions)',
    message: activatedOrNot,
  }),
  resetUserPassword: endpoint({
    method: 'POST',
    path: '/auth/users/:id/reset-password',
    params: idParams,
    response: resetPasswordResponseSchema,
    access: { page: PAGES.users, permission: 'edit' },
    tags: users,
    summary: 'Reset a password to a temporary one (shown once; sessions end)',
    message: 'messages.passwordReset',
  }),
  setUserPassword: endpoint({
    method: 'PUT',
    path: '/auth/users/:id/password',
    params: idParams,
    body: setUserPasswordRequestSchema,
    response: z.null(),
    access: { page: PAGES.users, permission: 'edit' },
    tags: users,
    summary: "Set a user's password (sessions end)",
    message: 'messages.passwordChanged',
  }),
  listRoles: endpoint({
    method: 'GET',
    path: '/auth/roles',
    query: adminListQuerySchema,
    response: pageOf(roleSchema),
    access: { page: PAGES.roles, permission: 'view' },
    tags: roles,
    summary: 'List roles',
  }),
  createRole: endpoint({
    method: 'POST',
    path: '/auth/roles',
    body: createRoleRequestSchema,
    response: roleSchema,
    status: 201,
    access: { page: PAGES.roles, permission: 'add' },
    tags: roles,
    summary: 'Create a role',
    message: 'messages.roleCreated',
  }),
  getRole: endpoint({
    method: 'GET',
    path: '/auth/roles/:id',
    params: idParams,
    response: roleSchema,
    access: { page: PAGES.roles, permission: 'view' },
    tags: roles,
    summary: 'One role',
  }),
  updateRole: endpoint({
    method: 'PUT',
    path: '/auth/roles/:id',
    params: idParams,
    body: updateRoleRequestSchema,
    response: roleSchema,
    access: { page: PAGES.roles, permission: 'edit' },
    tags: roles,
    summary: 'Edit a role',
    message: 'messages.roleUpdated',
  }),
  setRoleActive: endpoint({
    method: 'PUT',
    path: '/auth/roles/:id/active',
    params: idParams,
    body: setActive,
    response: roleSchema,
    access: { page: PAGES.roles, permission: 'activate' },
    tags: roles,
    summary: 'Activate or deactivate a role',
    message: activatedOrNot,
  }),
  rolePermissions: endpoint({
    method: 'GET',
    path: '/auth/roles/:id/permissions',
    params: idParams,
    response: rolePermissionsWithPagesSchema,
    access: { page: PAGES.roles, permission: 'view' },
    tags: roles,
    summary: "The role's page-permission matrix",
  }),
  setRolePermissions: endpoint({
    method: 'PUT',
    path: '/auth/roles/:id/permissions',
    params: idParams,
    body: setRolePermissionsRequestSchema,
    response: rolePermissionsWithPagesSchema,
    access: { page: PAGES.roles, permission: 'edit' },
    tags: roles,
    summary: "Replace the role's page-permission matrix",
    message: 'messages.permissionsSaved',
  }),
  pagesTree: endpoint({
    method: 'GET',
    path: '/auth/pages',
    response: adminPagesTreeSchema,
    access: { page: PAGES.pages, permission: 'view' },
    tags: pages,
    summary: 'Every section and page with the permissions it offers',
  }),
  createPage: endpoint({
    method: 'POST',
    path: '/auth/pages',
    body: createPageRequestSchema,
    response: adminPageSchema,
    status: 201,
    access: { page: PAGES.pages, permission: 'add' },
    tags: pages,
    summary: 'Create a section or a page',
    message: 'messages.pageCreated',
  }),
  updatePage: endpoint({
    method: 'PUT',
    path: '/auth/pages/:id',
    params: idParams,
    body: updatePageRequestSchema,
    response: adminPageSchema,
    access: { page: PAGES.pages, permission: 'edit' },
    tags: pages,
    summary: 'Edit a section or a page',
    message: 'messages.pageUpdated',
  }),
  audit: endpoint({
    method: 'GET',
    path: '/auth/audit',
    query: adminListQuerySchema,
    response: pageOf(auditEntrySchema),
    access: { page: PAGES.audit, permission: 'view' },
    tags: ['audit'],
    summary: 'The audit log (newest first)',
  }),
};
