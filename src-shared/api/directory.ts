/**
 * Request and response schemas of the Employee Centre (docs/api.md, "Employee centre"): jobs, the department
 * tree, employees (with an optional user account, a profile picture and PDF attachments), secretary
 * offices, the employee dashboard and the light option lists behind the department and employee pickers.
 * The server validates with these and the screens type their calls with them; change them additively.
 */
import { z } from 'zod';
import { listQuerySchema } from '../filters';
import {
  dateOnlyField,
  decimalParam,
  emailField,
  nameField,
  passwordField,
  refIdField,
  text,
  usernameField,
} from './fields';
import { activatedOrNot, endpoint, fileAnswer } from './endpoint';
import { pageOf } from './envelope';
import { idParamsSchema as idParams, setActiveSchema as setActive } from './fields';
import { PAGES } from '../pages';

export { idParamsSchema, setActiveSchema, type IdParams, type SetActive } from './fields';

/** Every directory list takes the common list query of docs/api.md and nothing else. */
export const directoryListQuerySchema = listQuerySchema.strict();
export type DirectoryListQuery = z.infer<typeof directoryListQuerySchema>;

/** A bilingual reference to another record, as lists and details show it. */
export const namedRefSchema = z.object({ id: z.number().int(), nameAr: z.string(), nameEn: z.string() });
export type NamedRef = z.infer<typeof namedRefSchema>;

/** A date-only field: `YYYY-MM-DD`. */
export { dateOnlyField } from './fields';

/** A person's first or last name: letters of any script, marks, spaces, apostrophe, dot and dash. */
export const personNameField = z
  .string()
  .min(1)
  .max(100)
  // Empty is left to min(1), so an empty name answers only 'This field is required'.
  .regex(/^(?:[\p{L}\p{M}][\p{L}\p{M}' .-]*)?$/u, { message: 'validation.name' });

/** A phone number: digits with an optional leading +, spaces, dashes and parentheses; 5..20 characters. */
export const phoneField = z
  .string()
  .min(5)
  .max(20)
  .regex(/^\+?[0-9 ()-]+$/, { message: 'validation.phone' });

// ---------------------------------------------------------------- jobs (/ec/jobs)

/** A job title; `isManager` marks jobs that manage a department. */
export const jobSchema = z.object({
  id: z.number().int(),
  nameAr: z.string(),
  nameEn: z.string(),
  isManager: z.boolean(),
  active: z.boolean(),
  /** Employees holding this job (active or not). */
  employeeCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Job = z.infer<typeof jobSchema>;

/** POST /ec/jobs. Names are unique in each language (409 with a field error). */
export const createJobRequestSchema = z
  .object({
    nameAr: nameField,
    nameEn: nameField,
    isManager: z.boolean().default(false),
    active: z.boolean().default(true),
  })
  .strict();
export type CreateJobRequest = z.infer<typeof createJobRequestSchema>;

/** PUT /ec/jobs/{id}: the fields to change. */
export const updateJobRequestSchema = z
  .object({
    nameAr: nameField.optional(),
    nameEn: nameField.optional(),
    isManager: z.boolean().optional(),
  })
  .strict();
export type UpdateJobRequest = z.infer<typeof updateJobRequestSchema>;

/** GET /ec/jobs/options: active jobs for the employee form (any signed-in user). */
export const jobOptionSchema = namedRefSchema.extend({ isManager: z.boolean() });
export type JobOption = z.infer<typeof jobOptionSchema>;

// ---------------------------------------------------------------- departments (/ec/departments)

/** Internal departments hold employees; external entities are the senders and receivers of mail. */
export const DEPARTMENT_TYPES = ['internal', 'external'] as const;
export type DepartmentType = (typeof DEPARTMENT_TYPES)[number];

/** Archive type: none, or an archive office that registers outgoing and incoming mail. */
export const ARCHIVE_TYPES = ['none', 'inOut'] as const;
export type ArchiveType = (typeof ARCHIVE_TYPES)[number];

/** A department as the list, the detail and the edit form see it. */
export const departmentSchema = z.object({
  id: z.number().int(),
  nameAr: z.string(),
  nameEn: z.string(),
  parentId: z.number().int().nullable(),
  parent: namedRefSchema.nullable(),
  type: z.enum(DEPARTMENT_TYPES),
  isEntity: z.boolean(),
  archiveType: z.enum(ARCHIVE_TYPES),
  /** An external entity's e-mail address, where its final letters may be sent (issue 27). */
  email: z.string().nullable(),
  /** The department whose archive office registers this department's mail. */
  archiveOfficeId: z.number().int().nullable(),
  archiveOffice: namedRefSchema.nullable(),
  /** The department's manager (an employee), set by "configure". */
  managerEmployeeId: z.number().int().nullable(),
  manager: namedRefSchema.nullable(),
  /** The department's secretary office, if any (its secretary is an employee). */
  secretaryOffice: z
    .object({ id: z.number().int(), active: z.boolean(), secretary: namedRefSchema })
    .nullable(),
  active: z.boolean(),
  childCount: z.number().int(),
  employeeCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Department = z.infer<typeof departmentSchema>;

/** One node of GET /ec/departments/tree. */
export interface DepartmentTreeNode {
  id: number;
  nameAr: string;
  nameEn: string;
  parentId: number | null;
  type: DepartmentType;
  isEntity: boolean;
  archiveType: ArchiveType;
  archiveOfficeId: number | null;
  managerEmployeeId: number | null;
  active: boolean;
  /** With ?q=: this node matched (its ancestors are included only to place it). */
  matched: boolean;
  children: DepartmentTreeNode[];
}
export const departmentTreeNodeSchema: z.ZodType<DepartmentTreeNode> = z.object({
  id: z.number().int(),
  nameAr: z.string(),
  nameEn: z.string(),
  parentId: z.number().int().nullable(),
  type: z.enum(DEPARTMENT_TYPES),
  isEntity: z.boolean(),
  archiveType: z.enum(ARCHIVE_TYPES),
  archiveOfficeId: z.number().int().nullable(),
  managerEmployeeId: z.number().int().nullable(),
  active: z.boolean(),
  matched: z.boolean(),
  get children() {
    return z.array(departmentTreeNodeSchema);
  },
});

/** A query-string boolean: `true`/`false` (also 1/0). */
const queryBoolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

/**
 * GET /ec/departments/tree: the whole tree (roots are main departments). `type` keeps one kind; `q`
 * searches both languages with Arabic normalised (matches plus their ancestors); `active=true` hides
 * inactive departments (and their subtrees).
 */
export const departmentTreeQuerySchema = z
  .object({
    type: z.enum(DEPARTMENT_TYPES).optional(),
    q: text(0, 200).optional(),
    active: queryBoolean,
  })
  .strict();
export type DepartmentTreeQuery = z.input<typeof departmentTreeQuerySchema>;

/** GET /ec/departments/tree answer. */
export const departmentTreeSchema = z.object({ roots: z.array(departmentTreeNodeSchema) });
export type DepartmentTree = z.infer<typeof departmentTreeSchema>;

/** A department's e-mail address: optional, meant for external entities (the receivers of final letters). */
export const departmentEmailField = emailField;

/** POST /ec/departments: a main department (parentId null) or one under a node (same type as its parent). */
export const createDepartmentRequestSchema = z
  .object({
    nameAr: nameField,
    nameEn: nameField,
    parentId: refIdField.nullable().default(null),
    type: z.enum(DEPARTMENT_TYPES).default('internal'),
    isEntity: z.boolean().default(false),
    archiveType: z.enum(ARCHIVE_TYPES).default('none'),
    archiveOfficeId: refIdField.nullable().default(null),
    email: departmentEmailField.nullable().default(null),
    active: z.boolean().default(true),
  })
  .strict();
export type CreateDepartmentRequest = z.infer<typeof createDepartmentRequestSchema>;

/** PUT /ec/departments/{id}: the fields to change; a new parentId moves it (cycles refused, 422). */
export const updateDepartmentRequestSchema = z
  .object({
    nameAr: nameField.optional(),
    nameEn: nameField.optional(),
    parentId: refIdField.nullable().optional(),
    type: z.enum(DEPARTMENT_TYPES).optional(),
    isEntity: z.boolean().optional(),
    archiveType: z.enum(ARCHIVE_TYPES).optional(),
    email: departmentEmailField.nullable().optional(),
  })
  .strict();
export type UpdateDepartmentRequest = z.infer<typeof updateDepartmentRequestSchema>;

/**
 * PUT /ec/departments/{id}/configure: the archive office, the manager and the secretary office. Each
 * field is optional; null clears it (a null secretary deactivates the department's secretary office).
 */
export const configureDepartmentRequestSchema = z
  .object({
    archiveOfficeId: refIdField.nullable().optional(),
    managerEmployeeId: refIdField.nullable().optional(),
    secretaryEmployeeId: refIdField.nullable().optional(),
  })
  .strict();
export type ConfigureDepartmentRequest = z.infer<typeof configureDepartmentRequestSchema>;

/**
 * PUT /ec/departments/{id}/active?cascade=true. Deactivating a department with active children is
 * refused (422) unless `cascade` deactivates the whole subtree; activating under an inactive parent is
 * refused. Members stay in their department; it is hidden from pickers.
 */
export const departmentActiveQuerySchema = z.object({ cascade: queryBoolean }).strict();
export type DepartmentActiveQuery = z.input<typeof departmentActiveQuerySchema>;

/** GET /ec/departments/options: picker rows (flat, with parentId, so the client builds a tree select). */
export const departmentOptionsQuerySchema = z
  .object({
    q: text(0, 200).optional(),
    type: z.enum(DEPARTMENT_TYPES).optional(),
    /** Include inactive departments (default: active only). */
    includeInactive: queryBoolean,
    limit: decimalParam(1, 5000).default(1000),
  })
  .strict();
export type DepartmentOptionsQuery = z.input<typeof departmentOptionsQuerySchema>;

export const departmentOptionSchema = namedRefSchema.extend({
  parentId: z.number().int().nullable(),
  type: z.enum(DEPARTMENT_TYPES),
  active: z.boolean(),
});
export type DepartmentOption = z.infer<typeof departmentOptionSchema>;

// ---------------------------------------------------------------- employees (/ec/employees)

export const EMPLOYEE_TYPES = ['permanent', 'contract', 'temporary', 'secondment'] as const;
export type EmployeeType = (typeof EMPLOYEE_TYPES)[number];

/** One row of the employee list. `nameAr`/`nameEn` are the full names in each script. */
export const employeeListItemSchema = z.object({
  id: z.number().int(),
  firstNameAr: z.string(),
  lastNameAr: z.string(),
  firstNameEn: z.string(),
  lastNameEn: z.string(),
  nameAr: z.string(),
  nameEn: z.string(),
  phoneNumber: z.string().nullable(),
  hireDate: z.string().nullable(),
  employeeType: z.enum(EMPLOYEE_TYPES),
  department: namedRefSchema,
  job: namedRefSchema.extend({ isManager: z.boolean() }),
  userId: z.number().int().nullable(),
  hasPhoto: z.boolean(),
  active: z.boolean(),
});
export type EmployeeListItem = z.infer<typeof employeeListItemSchema>;

/** The linked user account as the employee screen shows it. */
export const employeeUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  role: namedRefSchema,
  active: z.boolean(),
});
export type EmployeeUser = z.infer<typeof employeeUserSchema>;

/** GET /ec/employees/{id}: everything the view's tabs show. */
export const employeeSchema = employeeListItemSchema.extend({
  dateOfBirth: z.string().nullable(),
  user: employeeUserSchema.nullable(),
  attachmentCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Employee = z.infer<typeof employeeSchema>;

/** A new user account created with the employee (same transaction); its names are the employee's. */
export const newEmployeeUserSchema = z
  .object({
    username: usernameField,
    email: emailField,
    roleId: refIdField,
    password: passwordField,
    /** When given it must equal password. */
    passwordConfirmation: z.string().min(1).max(128).optional(),
  })
  .strict()
  .refine((v) => v.passwordConfirmation === undefined || v.passwordConfirmation === v.password, {
    message: 'validation.passwordMismatch',
    path: ['passwordConfirmation'],
  });
export type NewEmployeeUser = z.infer<typeof newEmployeeUserSchema>;

const employeeFields = {
  firstNameAr: personNameField,
  lastNameAr: personNameField,
  firstNameEn: personNameField,
  lastNameEn: personNameField,
  phoneNumber: phoneField.nullable(),
  dateOfBirth: dateOnlyField.nullable(),
  hireDate: dateOnlyField.nullable(),
  departmentId: refIdField,
  jobId: refIdField,
  employeeType: z.enum(EMPLOYEE_TYPES),
};

const notBoth = (v: { user?: unknown; userId?: unknown }) =>
  v.user === undefined || v.userId === undefined || v.userId === null;
const notBothIssue = { message: 'validation.userOrUserId', path: ['userId'] };

/**
 * POST /ec/employees: with `user` a new account is created in the same transaction; with `userId` an
 * existing account (not linked to another employee) is linked; with neither, no account.
 */
export const createEmployeeRequestSchema = z
  .object({
    ...employeeFields,
    phoneNumber: employeeFields.phoneNumber.default(null),
    dateOfBirth: employeeFields.dateOfBirth.default(null),
    hireDate: employeeFields.hireDate.default(null),
    employeeType: employeeFields.employeeType.default('permanent'),
    active: z.boolean().default(true),
    user: newEmployeeUserSchema.optional(),
    userId: refIdField.optional(),
  })
  .strict()
  .refine(notBoth, notBothIssue);
export type CreateEmployeeRequest = z.infer<typeof createEmployeeRequestSchema>;

/**
 * PUT /ec/employees/{id}: the fields to change. `userId` links an existing account (null unlinks);
 * `user` creates an account for an employee who has none.
 */
export const updateEmployeeRequestSchema = z
  .object({
    firstNameAr: employeeFields.firstNameAr.optional(),
    lastNameAr: employeeFields.lastNameAr.optional(),
    firstNameEn: employeeFields.firstNameEn.optional(),
    lastNameEn: employeeFields.lastNameEn.optional(),
    phoneNumber: employeeFields.phoneNumber.optional(),
    dateOfBirth: employeeFields.dateOfBirth.optional(),
    hireDate: employeeFields.hireDate.optional(),
    departmentId: employeeFields.departmentId.optional(),
    jobId: employeeFields.jobId.optional(),
    employeeType: employeeFields.employeeType.optional(),
    user: newEmployeeUserSchema.optional(),
    userId: refIdField.nullable().optional(),
  })
  .strict()
  .refine(notBoth, notBothIssue);
export type UpdateEmployeeRequest = z.infer<typeof updateEmployeeRequestSchema>;

/** GET /ec/employees/options: picker rows (active employees; any signed-in user). */
export const employeeOptionsQuerySchema = z
  .object({
    q: text(0, 200).optional(),
    departmentId: decimalParam(1).optional(),
    limit: decimalParam(1, 200).default(50),
  })
  .strict();
export type EmployeeOptionsQuery = z.input<typeof employeeOptionsQuerySchema>;

export const employeeOptionSchema = namedRefSchema.extend({
  departmentId: z.number().int(),
  jobId: z.number().int(),
});
export type EmployeeOption = z.infer<typeof employeeOptionSchema>;

/** GET /ec/employees/{id}/photo?format=dataUrl answers JSON instead of the image bytes. */
export const photoQuerySchema = z.object({ format: z.enum(['image', 'dataUrl']).default('image') }).strict();
export const photoDataUrlSchema = z.object({ dataUrl: z.string() });
export type PhotoDataUrl = z.infer<typeof photoDataUrlSchema>;

/** Largest side of a stored profile picture, in pixels (uploads are resized and re-encoded as WebP). */
export const PHOTO_MAX_SIDE = 512;

// ---------------------------------------------------------------- attachments

/** A PDF attached to an employee (content-addressed by SHA-256). */
export const employeeAttachmentSchema = z.object({
  id: z.number().int(),
  employeeId: z.number().int(),
  fileName: z.string(),
  size: z.number().int(),
  mime: z.string(),
  sha256: z.string(),
  uploadedBy: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  uploadedAt: z.string(),
});
export type EmployeeAttachment = z.infer<typeof employeeAttachmentSchema>;

export const attachmentParamsSchema = z
  .object({
    id: decimalParam(1),
    attachmentId: decimalParam(1),
  })
  .strict();
export type AttachmentParams = z.infer<typeof attachmentParamsSchema>;

// ---------------------------------------------------------------- dashboard

const countRow = namedRefSchema.extend({ count: z.number().int() });

/** GET /ec/employees/dashboard: counts by department, job and type (active employees), recent hires. */
export const employeeDashboardSchema = z.object({
  totals: z.object({
    employees: z.number().int(),
    active: z.number().int(),
    withUser: z.number().int(),
    departments: z.number().int(),
    jobs: z.number().int(),
  }),
  /** Top departments by active employees (at most 20). */
  byDepartment: z.array(countRow),
  byJob: z.array(countRow),
  byType: z.array(z.object({ employeeType: z.enum(EMPLOYEE_TYPES), count: z.number().int() })),
  /** The ten most recent hires (by hire date). */
  recentHires: z.array(employeeListItemSchema),
});
export type EmployeeDashboard = z.infer<typeof employeeDashboardSchema>;

// ---------------------------------------------------------------- secretary offices (/ec/secretary-offices)

/** A department's secretary office and its secretary (an active employee). One per department. */
export const secretaryOfficeSchema = z.object({
  id: z.number().int(),
  departmentId: z.number().int(),
  department: namedRefSchema,
  secretaryEmployeeId: z.number().int(),
  secretary: namedRefSchema,
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SecretaryOffice = z.infer<typeof secretaryOfficeSchema>;

/** POST /ec/secretary-offices. */
export const createSecretaryOfficeRequestSchema = z
  .object({
    departmentId: refIdField,
    secretaryEmployeeId: refIdField,
    active: z.boolean().default(true),
  })
  .strict();
export type CreateSecretaryOfficeRequest = z.infer<typeof createSecretaryOfficeRequestSchema>;

/** PUT /ec/secretary-offices/{id}. */
export const updateSecretaryOfficeRequestSchema = z
  .object({
    departmentId: refIdField.optional(),
    secretaryEmployeeId: refIdField.optional(),
  })
  .strict();
export type UpdateSecretaryOfficeRequest = z.infer<typeof updateSecretaryOfficeRequestSchema>;

// ---------------------------------------------------------------- endpoints

const jobs = ['jobs'];
const departments = ['departments'];
const employees = ['employees'];
const offices = ['secretary offices'];

/**
 * The Employee Centre's endpoints, each with its page and permission. The pickers (`jobOptions`,
 * `departmentOptions`, `employeeOptions`) are open to any signed-in user: every correspondence screen
 * chooses departments and people, whatever the caller's directory permissions; they answer names only.
 */
export const directoryEndpoints = {
  // ------------------------------------------------------------ jobs
  listJobs: endpoint({
    method: 'GET',
    path: '/ec/jobs',
    query: directoryListQuerySchema,
    response: pageOf(jobSchema),
    access: { page: PAGES.jobs, permission: 'view' },
    tags: jobs,
    summary: 'List jobs',
  }),
  jobOptions: endpoint({
    method: 'GET',
    path: '/ec/jobs/options',
    response: z.array(jobOptionSchema),
    access: 'authenticated',
    tags: jobs,
    summary: 'Active jobs (pickers; any signed-in user)',
  }),
  getJob: endpoint({
    method: 'GET',
    path: '/ec/jobs/:id',
    params: idParams,
    response: jobSchema,
    access: { page: PAGES.jobs, permission: 'view' },
    tags: jobs,
    summary: 'One job',
  }),
  createJob: endpoint({
    method: 'POST',
    path: '/ec/jobs',
    body: createJobRequestSchema,
    response: jobSchema,
    status: 201,
    access: { page: PAGES.jobs, permission: 'add' },
    tags: jobs,
    summary: 'Add a job (names unique in each language)',
    message: 'messages.jobCreated',
  }),
  updateJob: endpoint({
    method: 'PUT',
    path: '/ec/jobs/:id',
    params: idParams,
    body: updateJobRequestSchema,
    response: jobSchema,
    access: { page: PAGES.jobs, permission: 'edit' },
    tags: jobs,
    summary: 'Edit a job',
    message: 'messages.jobUpdated',
  }),
  setJobActive: endpoint({
    method: 'PUT',
    path: '/ec/jobs/:id/active',
    params: idParams,
    body: setActive,
    response: jobSchema,
    access: { page: PAGES.jobs, permission: 'activate' },
    tags: jobs,
    summary: 'Activate or deactivate a job',
    message: activatedOrNot,
  }),

  // ------------------------------------------------------------ departments
  departmentTree: endpoint({
    method: 'GET',
    path: '/ec/departments/tree',
    query: departmentTreeQuerySchema,
    response: departmentTreeSchema,
    access: { page: PAGES.departments, permission: 'view' },
    tags: departments,
    summary: 'The department tree (search both languages, internal/external filter)',
  }),
  departmentOptions: endpoint({
    method: 'GET',
    path: '/ec/departments/options',
    query: departmentOptionsQuerySchema,
    response: z.array(departmentOptionSchema),
    access: 'authenticated',
    tags: departments,
    summary: 'Department picker rows, flat with parentId (any signed-in user)',
  }),
  listDepartments: endpoint({
    method: 'GET',
    path: '/ec/departments',
    query: directoryListQuerySchema,
    response: pageOf(departmentSchema),
    access: { page: PAGES.departments, permission: 'view' },
    tags: departments,
    summary: 'List departments',
  }),
  getDepartment: endpoint({
    method: 'GET',
    path: '/ec/departments/:id',
    params: idParams,
    response: departmentSchema,
    access: { page: PAGES.departments, permission: 'view' },
    tags: departments,
    summary: 'One department',
  }),
  createDepartment: endpoint({
    method: 'POST',
    path: '/ec/departments',
    body: createDepartmentRequestSchema,
    response: departmentSchema,
    status: 201,
    access: { page: PAGES.departments, permission: 'add' },
    tags: departments,
    summary: 'Add a main department (no parent) or a department under a node',
    message: 'messages.departmentCreated',
  }),
  updateDepartment: endpoint({
    method: 'PUT',
    path: '/ec/departments/:id',
    params: idParams,
    body: updateDepartmentRequestSchema,
    response: departmentSchema,
    access: { page: PAGES.departments, permission: 'edit' },
    tags: departments,
    summary: 'Edit or move a department (cycles refused)',
    message: 'messages.departmentUpdated',
  }),
  setDepartmentActive: endpoint({
    method: 'PUT',
    path: '/ec/departments/:id/active',
    params: idParams,
    query: departmentActiveQuerySchema,
    body: setActive,
    response: departmentSchema,
    access: { page: PAGES.departments, permission: 'activate' },
    tags: departments,
    summary: 'Activate or deactivate a department (?cascade=true deactivates its subtree)',
    message: activatedOrNot,
  }),
  configureDepartment: endpoint({
    method: 'PUT',
    path: '/ec/departments/:id/configure',
    params: idParams,
    body: configureDepartmentRequestSchema,
    response: departmentSchema,
    access: { page: PAGES.departments, permission: 'edit' },
    tags: departments,
    summary: 'Configure archive office, manager and secretary office',
    message: 'messages.departmentConfigured',
  }),

  // ------------------------------------------------------------ employees
  dashboard: endpoint({
    method: 'GET',
    path: '/ec/employees/dashboard',
    response: employeeDashboardSchema,
    access: { page: PAGES.employees, permission: 'view' },
    tags: employees,
    summary: 'Counts by department, job and type; recent hires',
  }),
  employeeOptions: endpoint({
    method: 'GET',
    path: '/ec/employees/options',
    query: employeeOptionsQuerySchema,
    response: z.array(employeeOptionSchema),
    access: 'authenticated',
    tags: employees,
    summary: 'Employee picker rows (active employees; any signed-in user)',
  }),
  listEmployees: endpoint({
    method: 'GET',
    path: '/ec/employees',
    query: directoryListQuerySchema,
    response: pageOf(employeeListItemSchema),
    access: { page: PAGES.employees, permission: 'view' },
    tags: employees,
    summary: 'List employees (filters with match modes; q searches both scripts)',
  }),
  getEmployee: endpoint({
    method: 'GET',
    path: '/ec/employees/:id',
    params: idParams,
    response: employeeSchema,
    access: { page: PAGES.employees, permission: 'view' },
    tags: employees,
    summary: 'One employee',
  }),
  createEmployee: endpoint({
    method: 'POST',
    path: '/ec/employees',
    body: createEmployeeRequestSchema,
    response: employeeSchema,
    status: 201,
    access: { page: PAGES.employees, permission: 'add' },
    tags: employees,
    summary: 'Add an employee (optionally with a new user account, or linking one)',
    message: 'messages.employeeCreated',
  }),
  updateEmployee: endpoint({
    method: 'PUT',
    path: '/ec/employees/:id',
    params: idParams,
    body: updateEmployeeRequestSchema,
    response: employeeSchema,
    access: { page: PAGES.employees, permission: 'edit' },
    tags: employees,
    summary: 'Edit an employee (link, unlink or create the user account)',
    message: 'messages.employeeUpdated',
  }),
  setEmployeeActive: endpoint({
    method: 'PUT',
    path: '/ec/employees/:id/active',
    params: idParams,
    body: setActive,
    response: employeeSchema,
    access: { page: PAGES.employees, permission: 'activate' },
    tags: employees,
    summary: 'Activate or deactivate an employee (deactivation also deactivates the account)',
    message: activatedOrNot,
  }),
  setPhoto: endpoint({
    method: 'PUT',
    path: '/ec/employees/:id/photo',
    params: idParams,
    multipart: { file: 'file' },
    response: employeeSchema,
    access: { page: PAGES.employees, permission: 'edit' },
    tags: employees,
    summary: 'Set the profile picture (multipart field "file"; an image, resized to 512 px, WebP)',
    message: 'messages.photoSaved',
  }),
  removePhoto: endpoint({
    method: 'DELETE',
    path: '/ec/employees/:id/photo',
    params: idParams,
    response: employeeSchema,
    access: { page: PAGES.employees, permission: 'edit' },
    tags: employees,
    summary: 'Remove the profile picture',
    message: 'messages.photoRemoved',
  }),
  /** The picture's bytes; with ?format=dataUrl the envelope of a `photoDataUrlSchema` instead. */
  getPhoto: endpoint({
    method: 'GET',
    path: '/ec/employees/:id/photo',
    params: idParams,
    query: photoQuerySchema,
    response: fileAnswer,
    bytes: 'image/webp',
    access: { page: PAGES.employees, permission: 'view' },
    tags: employees,
    summary: 'The profile picture (image/webp), or ?format=dataUrl for JSON',
  }),
  listAttachments: endpoint({
    method: 'GET',
    path: '/ec/employees/:id/attachments',
    params: idParams,
    response: z.array(employeeAttachmentSchema),
    access: { page: PAGES.employees, permission: 'view' },
    tags: employees,
    summary: "An employee's PDF attachments",
  }),
  addAttachment: endpoint({
    method: 'POST',
    path: '/ec/employees/:id/attachments',
    params: idParams,
    multipart: { file: 'file' },
    response: employeeAttachmentSchema,
    status: 201,
    access: { page: PAGES.employees, permission: 'edit' },
    tags: employees,
    summary: 'Attach a PDF (multipart field "file"; checked by content: 415 otherwise, 413 too large)',
    message: 'messages.attachmentAdded',
  }),
  downloadAttachment: endpoint({
    method: 'GET',
    path: '/ec/employees/:id/attachments/:attachmentId',
    params: attachmentParamsSchema,
    response: fileAnswer,
    bytes: 'application/pdf',
    access: { page: PAGES.employees, permission: 'view' },
    tags: employees,
    summary: 'Download an attachment (application/pdf)',
  }),
  deleteAttachment: endpoint({
    method: 'DELETE',
    path: '/ec/employees/:id/attachments/:attachmentId',
    params: attachmentParamsSchema,
    response: z.null(),
    access: { page: PAGES.employees, permission: 'delete' },
    tags: employees,
    summary: 'Remove an attachment',
    message: 'messages.attachmentDeleted',
  }),

  // ------------------------------------------------------------ secretary offices
  listOffices: endpoint({
    method: 'GET',
    path: '/ec/secretary-offices',
    query: directoryListQuerySchema,
    response: pageOf(secretaryOfficeSchema),
    access: { page: PAGES.secretaryOffices, permission: 'view' },
    tags: offices,
    summary: 'List secretary offices',
  }),
  getOffice: endpoint({
    method: 'GET',
    path: '/ec/secretary-offices/:id',
    params: idParams,
    response: secretaryOfficeSchema,
    access: { page: PAGES.secretaryOffices, permission: 'view' },
    tags: offices,
    summary: 'One secretary office',
  }),
  createOffice: endpoint({
    method: 'POST',
    path: '/ec/secretary-offices',
    body: createSecretaryOfficeRequestSchema,
    response: secretaryOfficeSchema,
    status: 201,
    access: { page: PAGES.secretaryOffices, permission: 'add' },
    tags: offices,
    summary: 'Add a secretary office (one per department; the secretary an active employee)',
    message: 'messages.secretaryOfficeCreated',
  }),
  updateOffice: endpoint({
    method: 'PUT',
    path: '/ec/secretary-offices/:id',
    params: idParams,
    body: updateSecretaryOfficeRequestSchema,
    response: secretaryOfficeSchema,
    access: { page: PAGES.secretaryOffices, permission: 'edit' },
    tags: offices,
    summary: 'Edit a secretary office',
    message: 'messages.secretaryOfficeUpdated',
  }),
  setOfficeActive: endpoint({
    method: 'PUT',
    path: '/ec/secretary-offices/:id/active',
    params: idParams,
    body: setActive,
    response: secretaryOfficeSchema,
    access: { page: PAGES.secretaryOffices, permission: 'activate' },
    tags: offices,
    summary: 'Activate or deactivate a secretary office',
    message: activatedOrNot,
  }),
};
