/**
 * The server's database schema (drizzle, PostgreSQL). drizzle-kit generates the committed migrations in
 * `./migrations` from this file (`npm run db:generate`); the server applies them at start.
 *
 * Sections and pages share one table: a section is a page without a parent, a page has its section as
 * parent. Security state (sessions, two-factor challenges, sign-in throttling) lives here too, never in
 * process memory, so several servers can share one database.
 */
import { sql, type SQL } from 'drizzle-orm';
import { ARABIC_UNIFY_FROM, ARABIC_UNIFY_TO } from '../../src-shared/arabic';
import {
  APPROVAL_DECISIONS,
  APPROVAL_STEP_KINDS,
  ATTACHMENT_KINDS,
  DIRECTIONS,
  DISTRIBUTION_TYPES,
  DOCUMENT_STATES,
  PAGE_TEXT_METHODS,
  TASK_STATES,
  TEXT_STATUSES,
} from '../../src-shared/api/correspondence';
import { DIGIT_STYLES, STAMP_CORNERS } from '../modules/final/types';
import { DISPOSITION_ACTIONS, DISPOSITION_STATES, RETENTION_ACTIONS } from '../../src-shared/api/records';
import { INTEGRITY_PROBLEMS } from '../../src-shared/api/reads';
import {
  DELEGATION_SCOPES,
  HOLIDAY_CALENDARS,
  NOTIFICATION_KINDS,
} from '../../src-shared/api/notifications-kinds';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A CHECK that a text column holds one of the shared enum's values (the same list the API validates with). */
const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', '))})`;

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const created = () => tstz('created_at').notNull().defaultNow();
const updated = () => tstz('updated_at').notNull().defaultNow();

export const roles = pgTable(
  'roles',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    nameAr: text('name_ar').notNull(),
    nameEn: text('name_en').notNull(),
    active: boolean('active').notNull().default(true),
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    /** The built-in administrator role: every permission on every page, always. */
    isSystem: boolean('is_system').notNull().default(false),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('roles_one_system_idx')
      .on(t.isSystem)
      .where(sql`${t.isSystem}`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    nameAr: text('name_ar').notNull(),
    nameEn: text('name_en').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    active: boolean('active').notNull().default(true),
    locale: text('locale').notNull().default('ar'),
    /** Base32 TOTP secret once two-factor is enabled. */
    totpSecret: text('totp_secret'),
    /** A secret handed out by GET /auth/two-factor/setup, waiting for its first code. */
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** The last accepted TOTP time step: a code is accepted once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** When the user last chose "skip for now" at the sign-in enrolment offer (offered again 30 days later). */
    twoFactorSkippedAt: tstz('two_factor_skipped_at'),
    /** Linked employee; kept in step with employees.user_id by the directory service. */
    employeeId: integer('employee_id').references((): AnyPgColumn => employees.id, { onDelete: 'set null' }),
    lastSignInAt: tstz('last_sign_in_at'),
    passwordChangedAt: tstz('password_changed_at').notNull().defaultNow(),
    /** The user's own settings (date format, digits, home page): src-shared/api/auth.ts preferencesSchema. */
    preferences: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
    /** Which notifications the user wants, where, and the daily e-mail digest (src-shared/api/notifications.ts). */
    notificationSettings: jsonb('notification_settings')
      .$type<Record<string, unknown>>()
      .notNull()
      .default({}),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    index('users_role_idx').on(t.roleId),
  ],
);

/** Sections (parent null) and their pages. */
export const pages = pgTable(
  'pages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    parentId: integer('parent_id').references((): AnyPgColumn => pages.id, { onDelete: 'restrict' }),
    nameAr: text('name_ar').notNull(),
    nameEn: text('name_en').notNull(),
    path: text('path').notNull(),
    /** antd icon component name, e.g. `InboxOutlined`. */
    icon: text('icon').notNull().default('AppstoreOutlined'),
    order: integer('sort_order').notNull().default(0),
    /** The permissions this page offers (a subset of src-shared/permissions). */
    availablePermissions: text('available_permissions')
      .array()
      .notNull()
      .default(sql`'{view}'::text[]`),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('pages_path_idx').on(t.path), index('pages_parent_idx').on(t.parentId)],
);

/** A role's permissions on one page. */
export const rolePagePermissions = pgTable(
  'role_page_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    pageId: integer('page_id')
      .notNull()
      .references(() => pages.id, { onDelete: 'cascade' }),
    permissions: text('permissions').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.pageId] })],
);

/**
 * One row: a counter that triggers (migration 0005) raise in the same transaction as any change to
 * pages, role_page_permissions or roles. Servers read it with the caller's session and keep the page
 * trees they built while it is unchanged, so a change made through any server sharing the database is
 * seen by every other at once.
 */
export const accessVersion = pgTable(
  'access_version',
  {
    id: smallint('id').primaryKey().default(1),
    version: bigint('version', { mode: 'number' }).notNull().default(1),
  },
  (t) => [check('access_version_one_row', sql`${t.id} = 1`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** SHA-256 (hex) of the opaque bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rememberMe: boolean('remember_me').notNull().default(false),
    createdAt: created(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    idleExpiresAt: tstz('idle_expires_at').notNull(),
    absoluteExpiresAt: tstz('absolute_expires_at').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_idx').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/** The short-lived token that carries the second sign-in step. */
export const twoFactorChallenges = pgTable(
  'two_factor_challenges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `required` (enter a code) or `setup` (enrol first). */
    purpose: text('purpose').notNull(),
    rememberMe: boolean('remember_me').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    createdAt: created(),
    expiresAt: tstz('expires_at').notNull(),
    consumedAt: tstz('consumed_at'),
    ip: text('ip'),
  },
  (t) => [
    uniqueIndex('two_factor_challenges_token_idx').on(t.tokenHash),
    index('two_factor_challenges_user_idx').on(t.userId),
  ],
);

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the normalised code (high-entropy random, so a fast hash is enough). */
    codeHash: text('code_hash').notNull(),
    usedAt: tstz('used_at'),
    createdAt: created(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * Sign-in throttling, per key: `user:<id>` (an account, whichever of its names was typed), `login:<typed
 * login, lower-cased>` (a login that names no account) or `ip:<address>`. Keys exist for
 * unknown accounts too, so a lockout never tells whether an account exists.
 */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: tstz('window_started_at').notNull().defaultNow(),
  lockedUntil: tstz('locked_until'),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: tstz('at').notNull().defaultNow(),
    actorId: integer('actor_id'),
    actorUsername: text('actor_username'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_action_idx').on(t.action),
    // Who read a document (GET /correspondence/documents/{id}/reads) and what a user read
    // (GET /auth/users/{id}/reads), newest first (issue 31, docs/read-audit-and-integrity.md).
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id.desc()),
    index('audit_log_actor_idx').on(t.actorId, t.id.desc()),
    // One record per act of reading: the requests of one view (pdf.js reads a file in ranges) carry the
    // view's token, and only the first makes a record (modules/reads/service.ts).
    uniqueIndex('audit_log_read_once_idx')
      .on(t.action, t.actorId, t.targetId, sql`(${t.details} ->> 'read')`)
      .where(sql`(${t.details} ->> 'read') is not null`),
  ],
);

// ---------------------------------------------------------------- employee centre (directory)

/**
 * The SQL twin of src-shared/arabic.ts `normalizeArabic` (the same unification table): strips tashkeel
 * and tatweel, unifies the letter forms and digits, lower-cases. Used by the generated `search_text`
 * columns that the trigram indexes cover, so a search normalises its text in JS and compares with LIKE
 * on one indexed column.
 */
export const normalisedSql = (expression: string) =>
  sql.raw(
    String.raw`btrim(regexp_replace(lower(regexp_replace(translate(${expression}, '${ARABIC_UNIFY_FROM}', '${ARABIC_UNIFY_TO}'), '[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]', '', 'g')), '\s+', ' ', 'g'))`,
  );

/**
 * A number or reference as search compares it: capitals, Arabic-Indic and Persian digits as ASCII (the
 * same form as src-server/modules/search/service.ts `numberForm` gives the query).
 */
export const referenceFormSql = (column: AnyPgColumn | SQL) =>
  sql`upper(translate(${column}, '${sql.raw(ARABIC_UNIFY_FROM.slice(-20))}', '${sql.raw(ARABIC_UNIFY_TO.slice(-20))}'))`;

/** Job titles; `isManager` marks the jobs that manage a department. */
export const jobs = pgTable(
  'jobs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    nameAr: text('name_ar').notNull(),
    nameEn: text('name_en').notNull(),
    isManager: boolean('is_manager').notNull().default(false),
    active: boolean('active').notNull().default(true),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('jobs_name_ar_idx').on(sql`lower(${t.nameAr})`),
    uniqueIndex('jobs_name_en_idx').on(sql`lower(${t.nameEn})`),
  ],
);

/**
 * The department tree: internal departments (which hold employees) and external entities (senders and
 * receivers of mail). A main department has no parent. Departments are never deleted (history points at
 * them); they are deactivated.
 */
export const departments = pgTable(
  'departments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    nameAr: text('name_ar').notNull(),
    nameEn: text('name_en').notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => departments.id, { onDelete: 'restrict' }),
    /** `internal` or `external`. */
    type: text('type').notNull().default('internal'),
    isEntity: boolean('is_entity').notNull().default(false),
    /** `none` or `inOut` (has an archive office registering outgoing and incoming mail). */
    archiveType: text('archive_type').notNull().default('none'),
    /** The department whose archive office registers this department's mail. */
    archiveOfficeId: integer('archive_office_id').references((): AnyPgColumn => departments.id, {
      onDelete: 'set null',
    }),
    /** An external entity's e-mail address, where final letters may be sent (issue 27); optional. */
    email: text('email'),
    /** The department's manager (set by "configure"). */
    managerEmployeeId: integer('manager_employee_id').references((): AnyPgColumn => employees.id, {
      onDelete: 'set null',
    }),
    active: boolean('active').notNull().default(true),
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(normalisedSql(`"name_ar" || ' ' || "name_en"`)),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    index('departments_parent_idx').on(t.parentId),
    index('departments_type_idx').on(t.type),
    index('departments_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/** Employees; a user account is optional (users.employee_id mirrors user_id). */
export const employees = pgTable(
  'employees',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    firstNameAr: text('first_name_ar').notNull(),
    lastNameAr: text('last_name_ar').notNull(),
    firstNameEn: text('first_name_en').notNull(),
    lastNameEn: text('last_name_en').notNull(),
    phoneNumber: text('phone_number'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    hireDate: date('hire_date', { mode: 'string' }),
    departmentId: integer('department_id')
      .notNull()
      .references((): AnyPgColumn => departments.id, { onDelete: 'restrict' }),
    jobId: integer('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'restrict' }),
    /** `permanent`, `contract`, `temporary` or `secondment`. */
    employeeType: text('employee_type').notNull().default('permanent'),
    userId: integer('user_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /** SHA-256 of the resized profile picture in the file store. */
    photoSha256: text('photo_sha256'),
    active: boolean('active').notNull().default(true),
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        normalisedSql(
          `"first_name_ar" || ' ' || "last_name_ar" || ' ' || "first_name_en" || ' ' || "last_name_en"`,
        ),
      ),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('employees_user_idx').on(t.userId),
    index('employees_department_idx').on(t.departmentId),
    index('employees_job_idx').on(t.jobId),
    index('employees_hire_date_idx').on(t.hireDate),
    index('employees_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);

/** PDF files attached to an employee; the bytes live in the file store under their SHA-256. */
export const employeeAttachments = pgTable(
  'employee_attachments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    mime: text('mime').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: tstz('uploaded_at').notNull().defaultNow(),
  },
  (t) => [index('employee_attachments_employee_idx').on(t.employeeId)],
);

/** A department's secretary office and its secretary; one per department. */
export const secretaryOffices = pgTable(
  'secretary_offices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    departmentId: integer('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'restrict' }),
    secretaryEmployeeId: integer('secretary_employee_id')
      .notNull()
      .references(() => employees.id, { onDelete: 'restrict' }),
    active: boolean('active').notNull().default(true),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('secretary_offices_department_idx').on(t.departmentId),
    index('secretary_offices_secretary_idx').on(t.secretaryEmployeeId),
  ],
);

// ---------------------------------------------------------------- correspondence (issue 6)

/**
 * The settings lists of correspondence in one table, told apart by `list` (mediums, priorities,
 * security-levels, codifications, main-distribution): one generic module serves them all, and what each
 * list uses (level, prefix and direction, department) is declared as data in src-shared/api/correspondence.
 * Main distribution items carry a department instead of names.
 */
export const correspondenceSettings = pgTable(
  'correspondence_settings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    list: text('list').notNull(),
    nameAr: text('name_ar'),
    nameEn: text('name_en'),
    level: integer('level'),
    prefix: text('prefix'),
    /** Codifications: `in`, `out`, `internal` or `memo`. */
    direction: text('direction'),
    departmentId: integer('department_id').references(() => departments.id, { onDelete: 'restrict' }),
    order: integer('sort_order').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('correspondence_settings_name_ar_idx').on(t.list, sql`lower(${t.nameAr})`),
    uniqueIndex('correspondence_settings_name_en_idx').on(t.list, sql`lower(${t.nameEn})`),
    uniqueIndex('correspondence_settings_department_idx').on(t.list, t.departmentId),
    // Two codifications with one prefix would hand out the same numbers.
    uniqueIndex('correspondence_settings_prefix_idx').on(t.prefix),
    index('correspondence_settings_list_idx').on(t.list, t.order),
  ],
);

/** A user's clearance: the highest security level they may see (none: the lowest active level). */
export const userClearances = pgTable('user_clearances', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  securityLevelId: integer('security_level_id')
    .notNull()
    .references(() => correspondenceSettings.id, { onDelete: 'cascade' }),
});

/**
 * Correspondence documents (specification section 3). Drafts have no number; registration gives
 * `sequence` from document_counters and `doc_number` (`IN-2026-000123`). `security_rank` and
 * `priority_rank` copy the levels of the chosen security level and priority (0 when none) so the
 * visibility predicate and the boxes compare integers without joins. `archive_department_id` is the
 * archive office that holds the document (its clerks see it). `completed_at` is set when every
 * for-action distribution is completed.
 */
export const documents = pgTable(
  'documents',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    direction: text('direction', { enum: DIRECTIONS }).notNull(),
    state: text('state', { enum: DOCUMENT_STATES }).notNull().default('draft'),
    codificationId: integer('codification_id').references(() => correspondenceSettings.id),
    year: integer('year'),
    sequence: integer('sequence'),
    docNumber: text('doc_number'),
    senderDocumentNumber: text('sender_document_number'),
    subject: text('subject').notNull(),
    subjectSearch: text('subject_search').notNull().generatedAlwaysAs(normalisedSql(`"subject"`)),
    summary: text('summary'),
    senderDepartmentId: integer('sender_department_id').references(() => departments.id),
    receiver: text('receiver'),
    receivedDate: date('received_date', { mode: 'string' }),
    documentDate: date('document_date', { mode: 'string' }),
    securityLevelId: integer('security_level_id').references(() => correspondenceSettings.id),
    securityRank: integer('security_rank').notNull().default(0),
    priorityId: integer('priority_id').references(() => correspondenceSettings.id),
    priorityRank: integer('priority_rank').notNull().default(0),
    departmentId: integer('department_id').references(() => departments.id),
    recipientDepartmentId: integer('recipient_department_id').references(() => departments.id),
    mediumId: integer('medium_id').references(() => correspondenceSettings.id),
    /** The file (records management, issue 31) the document belongs to; it replaced the free-text grouping. */
    fileId: integer('file_id').references((): AnyPgColumn => recordFiles.id, { onDelete: 'restrict' }),
    archiveDepartmentId: integer('archive_department_id').references(() => departments.id),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    registeredBy: integer('registered_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    registeredAt: tstz('registered_at'),
    completedAt: tstz('completed_at'),
    updatedAt: updated(),
    /** Raised by every change of the fields or attachments: approvals are given to a version. */
    version: integer('version').notNull().default(1),
    /** The version last submitted to the circuit (a resubmission without changes continues the circuit). */
    submittedVersion: integer('submitted_version'),
    /** The circuit step whose turn it is while approving (1-based). */
    currentStep: integer('current_step'),
    submittedAt: tstz('submitted_at'),
    approvedAt: tstz('approved_at'),
    /** Outgoing: dispatched by the archive office (medium, date, delivered or not). */
    dispatchedAt: tstz('dispatched_at'),
    dispatchedBy: integer('dispatched_by').references(() => users.id, { onDelete: 'set null' }),
    dispatchMediumId: integer('dispatch_medium_id').references(() => correspondenceSettings.id),
    dispatchDate: date('dispatch_date', { mode: 'string' }),
    delivered: boolean('delivered'),
    /**
     * Incoming: the date a reply is due by (issue 28; proposed from the priority in working days, editable),
     * null when none is needed. Done when an outgoing reply related to it is dispatched, or when someone
     * closes it with a note.
     */
    replyDueOn: date('reply_due_on', { mode: 'string' }),
    replyDoneAt: tstz('reply_done_at'),
    replyDoneBy: integer('reply_done_by').references(() => users.id, { onDelete: 'set null' }),
    replyDoneNote: text('reply_done_note'),
    /** The dispatched outgoing letter that answered it. */
    replyDocumentId: integer('reply_document_id').references((): AnyPgColumn => documents.id, {
      onDelete: 'set null',
    }),
    /**
     * Sent to at least one department (a distribution exists): kept by a trigger on distributions
     * (migration 0021), so the archive dashboard's "awaiting distribution" reads a small partial index.
     */
    distributed: boolean('distributed').notNull().default(false),
  },
  (t) => [
    check('documents_direction_check', oneOf(t.direction, DIRECTIONS)),
    check('documents_state_check', oneOf(t.state, DOCUMENT_STATES)),
    uniqueIndex('documents_number_idx').on(t.codificationId, t.year, t.sequence),
    uniqueIndex('documents_doc_number_idx').on(t.docNumber),
    // The beginning of a number as it is typed, newest number first (search suggestions: LIKE 'IN-2026-00%'
    // and ORDER BY in the C collation, whatever the database's, are one range of this index read
    // backwards). A pattern index (text_pattern_ops) gave the range but not the order, and PostgreSQL
    // read the unique index backwards instead, 255,000 numbers past a prefix (70 ms at a million).
    index('documents_doc_number_c_idx').using('btree', sql`(${t.docNumber} collate "C")`),
    // Search answers a sender's reference typed in full before anything else (digits in any script).
    index('documents_sender_number_idx').on(referenceFormSql(t.senderDocumentNumber)),
    // The registered arm of the boxes, covering: its filters (holder, clearance) and `done` are read from
    // the index, so pages and counts are index-only scans.
    index('documents_registered_idx').on(
      t.direction,
      t.state,
      t.registeredAt.desc(),
      t.id.desc(),
      t.archiveDepartmentId,
      t.createdBy,
      t.securityRank,
      t.completedAt,
    ),
    index('documents_archive_idx').on(t.archiveDepartmentId, t.registeredAt.desc(), t.id.desc()),
    // Search's department filter (search/queries.ts `departmentMatches`): each department a document names,
    // its documents newest first, so a department's newest are read without walking the table.
    index('documents_department_idx')
      .on(t.departmentId, t.id)
      .where(sql`${t.departmentId} is not null`),
    index('documents_sender_department_idx')
      .on(t.senderDepartmentId, t.id)
      .where(sql`${t.senderDepartmentId} is not null`),
    index('documents_recipient_department_idx')
      .on(t.recipientDepartmentId, t.id)
      .where(sql`${t.recipientDepartmentId} is not null`),
    index('documents_archive_department_idx')
      .on(t.archiveDepartmentId, t.id)
      .where(sql`${t.archiveDepartmentId} is not null`),
    index('documents_creator_idx').on(t.createdBy, t.state, t.createdAt.desc()),
    // The author's approval boxes (awaiting approval, requiring changes) by submission.
    index('documents_author_circuit_idx').on(
      t.createdBy,
      t.direction,
      t.state,
      t.submittedAt.desc(),
      t.id.desc(),
    ),
    index('documents_file_idx').on(t.fileId),
    index('documents_subject_trgm_idx').using('gin', sql`${t.subjectSearch} gin_trgm_ops`),
    // The deadline scan: replies still due, by date.
    index('documents_reply_due_idx')
      .on(t.replyDueOn)
      .where(sql`${t.replyDueOn} is not null and ${t.replyDoneAt} is null`),
    // The dashboards (issue 30): registered incoming letters not yet distributed, approved outgoing letters
    // not yet dispatched (both small: what waits for the archive office), replies given by day.
    index('documents_undistributed_idx')
      .on(t.archiveDepartmentId, t.securityRank)
      .where(sql`${t.direction} = 'in' and ${t.state} = 'registered' and not ${t.distributed}`),
    index('documents_undispatched_idx')
      .on(t.archiveDepartmentId, t.securityRank)
      .where(sql`${t.direction} = 'out' and ${t.state} = 'approved' and ${t.dispatchedAt} is null`),
    index('documents_reply_done_idx')
      .on(t.replyDoneAt)
      .where(sql`${t.replyDocumentId} is not null`),
    // A clerk's own filed documents held by another archive office (the dashboards count them apart from
    // their office's, which are tallied).
    index('documents_creator_archive_idx')
      .on(t.createdBy, t.archiveDepartmentId)
      .where(sql`${t.state} in ('registered', 'approved')`),
    // The date a search filters on and shows (registered, else created): a period far back (a dashboard's
    // month two years ago) is a range of this index, not a walk through every newer document.
    index('documents_date_idx').on(sql`coalesce(${t.registeredAt}, ${t.createdAt})`, t.id),
    // The same of one direction (a search's incoming of a month): one range, where PostgreSQL otherwise
    // ANDs the period's 15,000 documents with every incoming one read from documents_registered_idx
    // (730,000 entries, 60-75 ms at a million documents, bench/search).
    index('documents_direction_date_idx').on(
      t.direction,
      sql`coalesce(${t.registeredAt}, ${t.createdAt})`,
      t.id,
    ),
    // The filed documents of a few days (the organisation's dashboard counts the days outside whole months,
    // whose volumes are tallied), read from the index alone.
    index('documents_volume_idx')
      .on(
        t.registeredAt,
        t.direction,
        t.archiveDepartmentId,
        t.securityRank,
        t.departmentId,
        t.recipientDepartmentId,
        t.codificationId,
      )
      .where(sql`${t.state} in ('registered', 'approved')`),
    // The documents in a circuit or sent back (a few thousand): the manager's dashboard's open items and the
    // approvals waiting on each person, read from the index alone.
    index('documents_circuit_idx')
      .on(t.departmentId, t.state, t.direction, t.id)
      .where(sql`${t.state} in ('approving', 'changesRequested')`),
  ],
);

/** The next sequence per codification and year; registration takes it with UPDATE … RETURNING. */
export const documentCounters = pgTable(
  'document_counters',
  {
    codificationId: integer('codification_id')
      .notNull()
      .references(() => correspondenceSettings.id),
    year: integer('year').notNull(),
    next: integer('next').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.codificationId, t.year] })],
);

/**
 * A document sent to a department for action or for knowledge. `registered_at` and `security_rank` copy
 * the document's so a department's incoming box is one index range (first and deep pages alike).
 * Knowledge items are completed when distributed; action items when all their action tasks are.
 */
export const distributions = pgTable(
  'distributions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    departmentId: integer('department_id')
      .notNull()
      .references(() => departments.id),
    type: text('type', { enum: DISTRIBUTION_TYPES }).notNull(),
    /** The document's direction (incoming mail and approved memos are separate boxes of one department). */
    direction: text('direction', { enum: DIRECTIONS }).notNull().default('in'),
    notes: text('notes'),
    registeredAt: tstz('registered_at').notNull(),
    securityRank: integer('security_rank').notNull().default(0),
    distributedBy: integer('distributed_by').references(() => users.id, { onDelete: 'set null' }),
    distributedAt: tstz('distributed_at').notNull().defaultNow(),
    completedAt: tstz('completed_at'),
    /**
     * A task was given on it (kept by a trigger on tasks, migration 0021): the manager's dashboard counts
     * action items waiting for a task from a small partial index.
     */
    tasked: boolean('tasked').notNull().default(false),
  },
  (t) => [
    check('distributions_type_check', oneOf(t.type, DISTRIBUTION_TYPES)),
    check('distributions_direction_check', oneOf(t.direction, DIRECTIONS)),
    uniqueIndex('distributions_document_department_idx').on(t.documentId, t.departmentId),
    // Search's department filter: the documents distributed to a department, newest first.
    index('distributions_department_document_idx').on(t.departmentId, t.documentId),
    // The dashboards (issue 30): a department's action items not completed and given to nobody yet.
    index('distributions_unassigned_idx')
      .on(t.departmentId, t.documentId)
      .where(sql`${t.type} = 'forAction' and ${t.completedAt} is null and not ${t.tasked}`),
    index('distributions_box_idx').on(
      t.departmentId,
      t.registeredAt.desc(),
      t.id.desc(),
      t.securityRank,
      t.type,
      t.documentId,
      t.completedAt,
      t.direction,
    ),
  ],
);

/** The arms of the big boxes whose rows are tallied (box_tallies.arm). */
export const BOX_TALLY_ARMS = ['archive', 'creator', 'received'] as const;

/**
 * How many rows the big arms of the boxes hold per day (issue 23, item 22), so a page of a big box is
 * reached by its number without counting the rows before it: filed documents by the archive office
 * holding them (`archive`: owner = archive_department_id) and by their creator (`creator`: owner =
 * created_by, holder = the archive office, so a clerk's own documents held elsewhere are summed apart),
 * distributions by their receiving department (`received`: owner = department_id); each per direction,
 * state, UTC day of the box date (registered_at), security rank and done (incoming and memos: completed;
 * outgoing: dispatched). 0 stands for none. Kept by statement triggers on documents and distributions in
 * the writing transaction itself (migration 0010), so the sums are exact in every snapshot, on any number
 * of server processes. A key may have several rows (a writer that finds the key's row locked by another
 * transaction adds a row instead of waiting; the next writer folds them): readers sum.
 * `box_tallies_rebuild()` recomputes everything (after a bulk load with triggers off).
 */
export const boxTallies = pgTable(
  'box_tallies',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    arm: text('arm', { enum: BOX_TALLY_ARMS }).notNull(),
    owner: integer('owner').notNull(),
    holder: integer('holder').notNull(),
    direction: text('direction').notNull(),
    state: text('state').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    securityRank: integer('security_rank').notNull(),
    done: boolean('done').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    check('box_tallies_arm_check', oneOf(t.arm, BOX_TALLY_ARMS)),
    index('box_tallies_key_idx').on(
      t.arm,
      t.direction,
      t.state,
      t.owner,
      t.holder,
      t.day,
      t.securityRank,
      t.done,
      t.n,
    ),
  ],
);

/**
 * How many filed documents (registered incoming, approved outgoing and memos) were registered per UTC month
 * of registered_at, archive office holding them, direction, department (the recipient of an incoming
 * letter, else the document's own), codification and security rank (0 stands for none): the organisation's
 * and the archive's dashboards (issue 30) sum whole months from here instead of counting documents. Kept by
 * statement triggers on documents in the writing transaction (migration 0021), as box_tallies are, so exact
 * in every snapshot; a key may have several rows (readers sum). `dashboard_tallies_rebuild()` recomputes.
 */
export const dashboardTallies = pgTable(
  'dashboard_tallies',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    month: date('month', { mode: 'string' }).notNull(),
    archive: integer('archive').notNull(),
    direction: text('direction').notNull(),
    department: integer('department').notNull(),
    codification: integer('codification').notNull(),
    securityRank: integer('security_rank').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    index('dashboard_tallies_key_idx').on(
      t.month,
      t.archive,
      t.direction,
      t.department,
      t.codification,
      t.securityRank,
      t.n,
    ),
  ],
);

/**
 * Open tasks counted per department, holder, state, whether they have a due date, and their document's
 * archive office and security rank (migration 0022): the dashboards' open and overdue items without
 * reading every open task. Kept as dashboard_tallies are (several rows per key, readers sum them);
 * `task_tallies_rebuild()` recomputes them.
 */
export const taskTallies = pgTable(
  'task_tallies',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    department: integer('department').notNull(),
    employee: integer('employee').notNull(),
    state: text('state').notNull(),
    dated: boolean('dated').notNull(),
    archive: integer('archive').notNull(),
    securityRank: integer('security_rank').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    index('task_tallies_key_idx').on(
      t.department,
      t.employee,
      t.state,
      t.dated,
      t.archive,
      t.securityRank,
      t.n,
    ),
  ],
);

/** A task: an employee of a receiving department asked to act on (or read) a distribution. */
export const tasks = pgTable(
  'tasks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    distributionId: integer('distribution_id')
      .notNull()
      .references(() => distributions.id, { onDelete: 'cascade' }),
    departmentId: integer('department_id')
      .notNull()
      .references(() => departments.id),
    type: text('type', { enum: DISTRIBUTION_TYPES }).notNull(),
    employeeId: integer('employee_id')
      .notNull()
      .references(() => employees.id),
    taskDate: date('task_date', { mode: 'string' }),
    notes: text('notes'),
    state: text('state', { enum: TASK_STATES }).notNull().default('new'),
    assignedBy: integer('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    startedAt: tstz('started_at'),
    completedAt: tstz('completed_at'),
    /**
     * The task's document's archive office (0: none) and security rank, kept by triggers (migration 0022):
     * set when the task is made, moved when the document's change. The open work tallies key on them.
     */
    documentArchive: integer('document_archive').notNull().default(0),
    documentRank: integer('document_rank').notNull().default(0),
  },
  (t) => [
    check('tasks_state_check', oneOf(t.state, TASK_STATES)),
    check('tasks_type_check', oneOf(t.type, DISTRIBUTION_TYPES)),
    index('tasks_employee_idx').on(t.employeeId, t.createdAt.desc()),
    index('tasks_department_idx').on(t.departmentId, t.createdAt.desc()),
    index('tasks_document_idx').on(t.documentId),
    index('tasks_distribution_idx').on(t.distributionId),
    // The deadline scan: open tasks by their due date (task_date is the task's due date).
    index('tasks_due_idx')
      .on(t.taskDate)
      .where(sql`${t.taskDate} is not null and ${t.state} <> 'completed'`),
    // The dashboards (issue 30): open tasks (overdue ones a range of their date) by department, holder and
    // state, read from the index alone; completed tasks by completion.
    index('tasks_open_idx')
      .on(t.taskDate, t.departmentId, t.employeeId, t.state, t.documentArchive, t.documentRank, t.documentId)
      .where(sql`${t.state} <> 'completed'`),
    // A document's open tasks, read from the index alone: the overdue ones of the few documents a caller
    // sees (the dashboards probe each candidate).
    index('tasks_open_document_idx')
      .on(t.documentId, t.taskDate, t.departmentId, t.employeeId)
      .where(sql`${t.state} <> 'completed'`),
    index('tasks_completed_idx')
      .on(t.completedAt, t.departmentId)
      .where(sql`${t.state} = 'completed'`),
  ],
);

/** Documents a user chose to follow, optionally until a date. */
export const documentFollows = pgTable(
  'document_follows',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    dueDate: date('due_date', { mode: 'string' }),
    notes: text('notes'),
    createdAt: created(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.documentId] }),
    index('document_follows_document_idx').on(t.documentId),
  ],
);

/** Related documents, one row per direction (a link is always stored both ways). */
export const documentRelations = pgTable(
  'document_relations',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    relatedId: integer('related_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.relatedId] })],
);

/** PDF attachments of a document; the bytes live in the file store under their SHA-256. */
export const documentAttachments = pgTable(
  'document_attachments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    mime: text('mime').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: tstz('uploaded_at').notNull().defaultNow(),
    /**
     * `content` (the document as written, approved or registered), or a kind of addition after approval
     * (a scan of the signed copy, a delivery receipt, other): additions never change the approved version.
     */
    kind: text('kind', { enum: ATTACHMENT_KINDS }).notNull().default('content'),
    /**
     * Reading the file's text for search (src-server/modules/search): `pending` until the background job
     * takes it, `reading` while it does, then `done` (its pages are in attachment_pages) or `failed`
     * (`text_error` says why, in the job's words).
     */
    textStatus: text('text_status', { enum: TEXT_STATUSES }).notNull().default('pending'),
    textError: text('text_error'),
    /** Pages read so far / in the file, while reading; the file's page count once done. */
    textPagesDone: integer('text_pages_done'),
    textPages: integer('text_pages'),
  },
  (t) => [
    check('document_attachments_text_status_check', oneOf(t.textStatus, TEXT_STATUSES)),
    check('document_attachments_kind_check', oneOf(t.kind, ATTACHMENT_KINDS)),
    index('document_attachments_document_idx').on(t.documentId),
    // A file already in the archive is found by its content (the duplicate check of uploads and intake).
    index('document_attachments_sha256_idx').on(t.sha256),
  ],
);

/** A tsvector column: lexemes the search code computes (src-shared/search.ts), stored as `simple`. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The text of an attachment, one row per page, as the background reader found it (`method`: the file's
 * text layer, OCR of the page's image, or nothing on the page). `lexemes` is the page's tsvector, used to
 * find which page of a result matched; the document's own index is document_search.
 */
export const attachmentPages = pgTable(
  'attachment_pages',
  {
    attachmentId: integer('attachment_id')
      .notNull()
      .references(() => documentAttachments.id, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    method: text('method', { enum: PAGE_TEXT_METHODS }).notNull(),
    text: text('text').notNull(),
    lexemes: tsvector('lexemes').notNull(),
    /** The lexicon `lexemes` was made with (LEXICON_VERSION, src-shared/search.ts): older ones are remade. */
    lexicon: smallint('lexicon').notNull().default(1),
    /**
     * The reading of text layers `text` was made with (READER_VERSION, modules/search/extract.ts): a page
     * read from its text layer by an older one is read again from the file.
     */
    reader: smallint('reader').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.attachmentId, t.page] }),
    check('attachment_pages_method_check', oneOf(t.method, PAGE_TEXT_METHODS)),
  ],
);

/**
 * The search index of a document: the lexemes of its number, sender's reference and subject (weight A),
 * summary, sender and receivers (B), notes of its distributions and tasks (C) and the text of its
 * attachments (D), rebuilt by the background `search.index` job whenever one of them changes.
 */
export const documentSearch = pgTable(
  'document_search',
  {
    documentId: integer('document_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'cascade' }),
    lexemes: tsvector('lexemes').notNull(),
    indexedAt: tstz('indexed_at').notNull().defaultNow(),
    /** The lexicon `lexemes` was made with (LEXICON_VERSION, src-shared/search.ts): older ones are remade. */
    lexicon: smallint('lexicon').notNull().default(1),
  },
  (t) => [index('document_search_lexemes_idx').using('gin', t.lexemes)],
);

/**
 * Files received by intake (a scanning station's watched folder): each upload carries its sender's
 * idempotency key, so a retried upload (the station crashed or lost the answer) is answered with what
 * the first one made instead of registering the file twice. Keys are per user. `requestHash` is what the
 * key was first sent with (http/idempotency.ts: the file's SHA-256, its name, the number it was filed
 * on): the same key with another file is refused (422), not answered with the first file's result.
 * Receipts from before it was recorded have none and replay as before.
 */
export const intakeReceipts = pgTable(
  'intake_receipts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    sha256: text('sha256').notNull(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    attachmentId: integer('attachment_id').references(() => documentAttachments.id, {
      onDelete: 'set null',
    }),
    requestHash: text('request_hash'),
    /**
     * A batch cut into documents by its codes (src-shared/paper-codes.ts) has a receipt per part, keyed
     * `<key>#<n>` (n from 1; `#` is never in a sender's key), with the batch's pages the part holds; the
     * batch's own key answers its first part and counts them (`parts`). Null: a file taken whole.
     */
    pages: integer('pages').array(),
    parts: integer('parts'),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * Documents created with their author's idempotency key (POST /correspondence/documents from a client
 * that may send again what it is not sure arrived, e.g. offline drafts synced later): a retry with the
 * key answers the document the first request made instead of creating a second. Keys are per user. A
 * receipt goes with its document (cascade): a retry after the document was deleted creates a new one.
 * `requestHash` is the body the key was first sent with (http/idempotency.ts): the same key with another
 * body is refused (422); receipts from before it was recorded have none and replay as before.
 */
export const documentReceipts = pgTable(
  'document_receipts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    requestHash: text('request_hash'),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/** The timeline: every state change of a document, appended in the change's transaction. */
export const documentEvents = pgTable(
  'document_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    at: tstz('at').notNull().defaultNow(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('document_events_document_idx').on(t.documentId, t.id)],
);

/**
 * The receivers of an outgoing letter (external entities) and the recipient departments of a memo, in the
 * order the author chose.
 */
export const documentRecipients = pgTable(
  'document_recipients',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    departmentId: integer('department_id')
      .notNull()
      .references(() => departments.id),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.departmentId] }),
    // Search's department filter: a department's memos, newest first.
    index('document_recipients_department_idx').on(t.departmentId, t.documentId),
  ],
);

/**
 * The approval circuit of an outgoing letter or a memo: one row per person and step. Steps run in order
 * (`position`); the people of one step give their opinion in parallel; the last step (`sign`) holds the
 * signatory. `pending` marks whose turn it is (a partial index makes the requiring-approval box one range);
 * `decision` is the person's answer in the current round, to `decided_version` of the document. Earlier
 * rounds live in the timeline.
 */
export const approvalMembers = pgTable(
  'approval_members',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind', { enum: APPROVAL_STEP_KINDS }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    employeeId: integer('employee_id').references(() => employees.id),
    pending: boolean('pending').notNull().default(false),
    activatedAt: tstz('activated_at'),
    decision: text('decision', { enum: APPROVAL_DECISIONS }),
    comment: text('comment'),
    decidedAt: tstz('decided_at'),
    decidedVersion: integer('decided_version'),
    /** When this person's answer is due (working days per step from activation, issue 28). */
    dueOn: date('due_on', { mode: 'string' }),
    /** Copied from the document so the box reads one index (as distributions do). */
    direction: text('direction', { enum: DIRECTIONS }).notNull(),
    securityRank: integer('security_rank').notNull().default(0),
  },
  (t) => [
    check('approval_members_kind_check', oneOf(t.kind, APPROVAL_STEP_KINDS)),
    check(
      'approval_members_decision_check',
      sql`${t.decision} is null or ${oneOf(t.decision, APPROVAL_DECISIONS)}`,
    ),
    check('approval_members_position_check', sql`${t.position} >= 1`),
    uniqueIndex('approval_members_step_idx').on(t.documentId, t.position, t.userId),
    index('approval_members_user_idx').on(t.userId, t.documentId),
    index('approval_members_pending_idx')
      .on(t.userId, t.direction, t.activatedAt.desc(), t.id.desc(), t.securityRank, t.documentId)
      .where(sql`${t.pending}`),
  ],
);

/** Circuit templates an administrator saves per department and direction: the steps, as user ids. */
export const approvalTemplates = pgTable(
  'approval_templates',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    departmentId: integer('department_id')
      .notNull()
      .references(() => departments.id, { onDelete: 'cascade' }),
    direction: text('direction', { enum: DIRECTIONS }).notNull(),
    steps: jsonb('steps').$type<{ kind: string; userIds: number[] }[]>().notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: updated(),
  },
  (t) => [
    check('approval_templates_direction_check', oneOf(t.direction, DIRECTIONS)),
    uniqueIndex('approval_templates_department_idx').on(t.departmentId, t.direction),
  ],
);

/**
 * Signing authority an administrator grants an account for an entity (a department that is an entity, or
 * a root of the tree): beside the entity's manager, who holds it by office, these accounts may be the
 * signatory of the outgoing letters and memos sent from the entity's departments. A grant is revoked, not
 * deleted (who granted and revoked it, and when, stay); one grant in force per entity and account.
 */
export const signingAuthorities = pgTable(
  'signing_authorities',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    departmentId: integer('department_id')
      .notNull()
      .references(() => departments.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
    grantedAt: tstz('granted_at').notNull().defaultNow(),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [
    uniqueIndex('signing_authorities_in_force_idx')
      .on(t.departmentId, t.userId)
      .where(sql`${t.revokedAt} is null`),
    index('signing_authorities_user_idx').on(t.userId),
  ],
);

// ---------------------------------------------------------------- background jobs (jobs/queue.ts)

/**
 * A background job's life: `queued` (waiting for its run_at), `running` (claimed by a worker until
 * locked_until; an expired lease makes it claimable again), `done`, or `dead` (gave up: attempts used up,
 * or a permanent error; an administrator may put it back to queued).
 */
export const BACKGROUND_JOB_STATES = ['queued', 'running', 'done', 'dead'] as const;
export type BackgroundJobState = (typeof BACKGROUND_JOB_STATES)[number];

/**
 * The durable job queue shared by every server process (PDF text extraction, OCR, re-indexing). Named
 * `background_jobs` because `jobs` holds job titles. Done jobs are kept a while, then pruned.
 */
export const backgroundJobs = pgTable(
  'background_jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull().default({}),
    /**
     * The same work enqueued twice while one is waiting is one job (per kind). A job already running may
     * have read what has changed since, so the change is queued once more.
     */
    key: text('key'),
    state: text('state', { enum: BACKGROUND_JOB_STATES }).notNull().default('queued'),
    /** Claims so far (a claim counts whether it ended in success, failure or a lost worker). */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: tstz('run_at').notNull().defaultNow(),
    lockedUntil: tstz('locked_until'),
    lockedBy: text('locked_by'),
    progress: jsonb('progress').$type<number | Record<string, unknown>>(),
    lastError: text('last_error'),
    createdAt: created(),
    updatedAt: updated(),
    finishedAt: tstz('finished_at'),
  },
  (t) => [
    check('background_jobs_state_check', oneOf(t.state, BACKGROUND_JOB_STATES)),
    check('background_jobs_attempts_check', sql`${t.attempts} >= 0 and ${t.maxAttempts} >= 1`),
    uniqueIndex('background_jobs_key_idx')
      .on(t.kind, t.key)
      .where(sql`${t.key} is not null and ${t.state} = 'queued'`),
    index('background_jobs_claim_idx').on(t.state, t.runAt),
  ],
);

// ---------------------------------------------------------------- the letter that leaves (modules/final)

export const FINAL_LETTER_STATES = ['pending', 'done', 'failed'] as const;
export type FinalLetterState = (typeof FINAL_LETTER_STATES)[number];

/**
 * The organisation's settings for the letters it sends (one row, id 1): where the stamp stands and what
 * it says, the address of the public verification page, the SMTP server, and the signing certificate.
 * Secrets (the PKCS#12, its password, the SMTP password) are sealed with the server's secrets key
 * (final/signature.ts) and stored as base64; the API never returns them.
 */
export const organisationSettings = pgTable(
  'organisation_settings',
  {
    id: integer('id').primaryKey().default(1),
    stampCorner: text('stamp_corner', { enum: STAMP_CORNERS }).notNull().default('top-start'),
    stampDigits: text('stamp_digits', { enum: DIGIT_STYLES }).notNull().default('arabic-indic'),
    /** Null: the default heading (صادر / Outgoing, مذكرة داخلية / Internal memo). */
    stampHeadingAr: text('stamp_heading_ar'),
    stampHeadingEn: text('stamp_heading_en'),
    /** The server's public address the QR codes lead to, e.g. https://sijill.example.gov; null: none yet. */
    verifyBaseUrl: text('verify_base_url'),
    /** SMTP settings without the password (final/mail.ts SmtpSettings); null: e-mail not set up. */
    smtp: jsonb('smtp').$type<Record<string, unknown>>(),
    smtpPasswordSealed: text('smtp_password_sealed'),
    certificateSealed: text('certificate_sealed'),
    certificatePasswordSealed: text('certificate_password_sealed'),
    /** What may be shown of the certificate (subject, issuer, validity, fingerprint). */
    certificate: jsonb('certificate').$type<Record<string, unknown>>(),
    /** Working week and deadline settings (issue 28; src-shared/api/deadlines.ts deadlineSettingsSchema). */
    deadlines: jsonb('deadlines').$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: updated(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('organisation_settings_one_row', sql`${t.id} = 1`),
    check('organisation_settings_corner_check', oneOf(t.stampCorner, STAMP_CORNERS)),
    check('organisation_settings_digits_check', oneOf(t.stampDigits, DIGIT_STYLES)),
  ],
);

/**
 * An approved letter's or memo's final PDF: the author's letter stamped (and signed when a certificate is
 * set), made by a background job after the signatory's approval; the original attachment stays as it
 * was. `token` (128 random bits, base64url) is the public verification link's; a cancelled letter verifies
 * as cancelled.
 */
export const finalLetters = pgTable(
  'final_letters',
  {
    documentId: integer('document_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'cascade' }),
    token: text('token').notNull(),
    state: text('state', { enum: FINAL_LETTER_STATES }).notNull().default('pending'),
    /** The attachment stamped (the letter); null until made, or when the document had no PDF letter. */
    sourceAttachmentId: integer('source_attachment_id').references(() => documentAttachments.id, {
      onDelete: 'set null',
    }),
    sha256: text('sha256'),
    size: bigint('size', { mode: 'number' }),
    pages: integer('pages'),
    signed: boolean('signed').notNull().default(false),
    /** The signing certificate's summary at the time of signing. */
    certificate: jsonb('certificate').$type<Record<string, unknown>>(),
    /** Why it could not be made (an error key, e.g. final.noLetter). */
    error: text('error'),
    madeAt: tstz('made_at'),
    cancelledAt: tstz('cancelled_at'),
    cancelledBy: integer('cancelled_by').references(() => users.id, { onDelete: 'set null' }),
    cancelReason: text('cancel_reason'),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('final_letters_token_idx').on(t.token),
    check('final_letters_state_check', oneOf(t.state, FINAL_LETTER_STATES)),
  ],
);

export const EMAIL_DISPATCH_STATES = ['queued', 'sent', 'failed'] as const;
export type EmailDispatchState = (typeof EMAIL_DISPATCH_STATES)[number];

/**
 * A final letter sent by e-mail by its archive office (issue 27): one row per receiver's address, sent by
 * a background job through the organisation's SMTP server. A failure is recorded (never retried on its
 * own); the clerk may try again, which queues the same row anew.
 */
export const emailDispatches = pgTable(
  'email_dispatches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** The receiver (an external department), when the address came from the directory. */
    departmentId: integer('department_id').references(() => departments.id, { onDelete: 'set null' }),
    address: text('address').notNull(),
    state: text('state', { enum: EMAIL_DISPATCH_STATES }).notNull().default('queued'),
    /** The Message-ID the SMTP server accepted. */
    messageId: text('message_id'),
    /** Why the last attempt failed (the SMTP server's answer or the connection's error) and its code. */
    error: text('error'),
    errorCode: text('error_code'),
    attempts: integer('attempts').notNull().default(0),
    sentBy: integer('sent_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    sentAt: tstz('sent_at'),
  },
  (t) => [
    index('email_dispatches_document_idx').on(t.documentId),
    check('email_dispatches_state_check', oneOf(t.state, EMAIL_DISPATCH_STATES)),
  ],
);

// ---------------------------------------------------------------- deadlines, notifications, delegation (issue 28)

/**
 * A day or days off of the organisation, entered by an administrator in Hijri or Gregorian. `starts_on` and
 * `ends_on` are Gregorian (inclusive). A yearly holiday repeats on the same day of its calendar: a Hijri
 * one (an Eid) moves through the Gregorian year, so it is entered once as Hijri and repeats each Hijri
 * year; without `repeats`, it is that year's only.
 */
export const holidays = pgTable(
  'holidays',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    nameAr: text('name_ar').notNull(),
    nameEn: text('name_en').notNull(),
    calendar: text('calendar', { enum: HOLIDAY_CALENDARS }).notNull().default('gregorian'),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    repeats: boolean('repeats').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    check('holidays_calendar_check', oneOf(t.calendar, HOLIDAY_CALENDARS)),
    check('holidays_range_check', sql`${t.startsOn} <= ${t.endsOn}`),
    index('holidays_starts_idx').on(t.startsOn),
  ],
);

/**
 * What a user is told (issue 28): one row per user and event, pushed to their open clients and listed in
 * the header's bell. `dedupe_key` makes a notice once per user however many servers or retries make it
 * (a reminder: `dueSoon:task:42:2026-11-30`). `on_behalf_of` names the delegator when it reached a delegate.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    documentId: integer('document_id').references(() => documents.id, { onDelete: 'cascade' }),
    /** The words' values (a number, a subject, a due date, who acted) frozen at the time. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    dedupeKey: text('dedupe_key'),
    onBehalfOf: integer('on_behalf_of').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    readAt: tstz('read_at'),
    /** Included in a daily e-mail digest. */
    emailedAt: tstz('emailed_at'),
  },
  (t) => [
    check('notifications_kind_check', oneOf(t.kind, NOTIFICATION_KINDS)),
    uniqueIndex('notifications_dedupe_idx')
      .on(t.userId, t.dedupeKey)
      .where(sql`${t.dedupeKey} is not null`),
    index('notifications_user_idx').on(t.userId, t.id.desc()),
    index('notifications_unread_idx')
      .on(t.userId, t.id)
      .where(sql`${t.readAt} is null`),
  ],
);

/**
 * A user's approvals, tasks or both handed to another user for a date range (inclusive). The delegate acts
 * on the delegator's items, named in the timeline and the audit record; nobody delegates to themselves,
 * and a delegate does not delegate onward (the service checks). Ended early: `ended_at` (at once).
 */
export const delegations = pgTable(
  'delegations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    delegatorId: integer('delegator_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delegateId: integer('delegate_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope', { enum: DELEGATION_SCOPES }).notNull(),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    reason: text('reason'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    endedAt: tstz('ended_at'),
    endedBy: integer('ended_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('delegations_scope_check', oneOf(t.scope, DELEGATION_SCOPES)),
    check('delegations_range_check', sql`${t.startsOn} <= ${t.endsOn}`),
    check('delegations_not_self_check', sql`${t.delegatorId} <> ${t.delegateId}`),
    index('delegations_delegate_idx').on(t.delegateId, t.endsOn),
    index('delegations_delegator_idx').on(t.delegatorId, t.endsOn),
  ],
);

// ---------------------------------------------------------------- records management (issue 31, docs/records.md)

/**
 * A file (dossier) documents belong to: opened, then closed (it takes no new documents, and its retention
 * runs from `closed_on`), then disposed of (`disposed` destroyed or transferred, by a disposition). Its own
 * retention (`retention_years` and `retention_action`, both or neither) overrides its codifications'
 * schedules. The migration made one file per distinct free-text grouping the documents had.
 */
export const recordFiles = pgTable(
  'record_files',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    titleAr: text('title_ar').notNull(),
    titleEn: text('title_en').notNull(),
    departmentId: integer('department_id').references(() => departments.id, { onDelete: 'restrict' }),
    openedOn: date('opened_on', { mode: 'string' }).notNull(),
    closedOn: date('closed_on', { mode: 'string' }),
    retentionYears: integer('retention_years'),
    retentionAction: text('retention_action', { enum: RETENTION_ACTIONS }),
    retentionReference: text('retention_reference'),
    /** `destroy` or `transfer` once a disposition was carried out on it. */
    disposed: text('disposed', { enum: DISPOSITION_ACTIONS }),
    disposedAt: tstz('disposed_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('record_files_code_idx').on(sql`lower(${t.code})`),
    index('record_files_department_idx').on(t.departmentId),
    index('record_files_closed_idx').on(t.closedOn),
    check(
      'record_files_retention_check',
      sql`(${t.retentionYears} is null) = (${t.retentionAction} is null) and (${t.retentionYears} is null or ${t.retentionYears} >= 0)`,
    ),
    check(
      'record_files_retention_action_check',
      sql`${t.retentionAction} is null or ${oneOf(t.retentionAction, RETENTION_ACTIONS)}`,
    ),
    check(
      'record_files_disposed_check',
      sql`${t.disposed} is null or ${oneOf(t.disposed, DISPOSITION_ACTIONS)}`,
    ),
    check('record_files_closed_check', sql`${t.closedOn} is null or ${t.closedOn} >= ${t.openedOn}`),
  ],
);

/** A codification's retention schedule, set by an administrator: years after a file's closure, then the action. */
export const retentionSchedules = pgTable(
  'retention_schedules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    codificationId: integer('codification_id')
      .notNull()
      .references(() => correspondenceSettings.id, { onDelete: 'cascade' }),
    years: integer('years').notNull(),
    action: text('action', { enum: RETENTION_ACTIONS }).notNull(),
    legalReference: text('legal_reference').notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('retention_schedules_codification_idx').on(t.codificationId),
    check('retention_schedules_action_check', oneOf(t.action, RETENTION_ACTIONS)),
    check('retention_schedules_years_check', sql`${t.years} >= 0`),
  ],
);

/**
 * The disposition of one file: proposed by a records manager, approved by another, then carried out.
 * `record` keeps what is left of the documents once destroyed (number, subject, dates, every file's
 * SHA-256); `output_sha256` is the certificate of destruction or the transfer package in the file store.
 * One disposition under way (proposed or approved) per file.
 */
export const dispositions = pgTable(
  'dispositions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    fileId: integer('file_id')
      .notNull()
      .references(() => recordFiles.id, { onDelete: 'restrict' }),
    action: text('action', { enum: DISPOSITION_ACTIONS }).notNull(),
    state: text('state', { enum: DISPOSITION_STATES }).notNull().default('proposed'),
    legalReference: text('legal_reference').notNull(),
    note: text('note'),
    proposedBy: integer('proposed_by').references(() => users.id, { onDelete: 'set null' }),
    proposedAt: tstz('proposed_at').notNull().defaultNow(),
    approvedBy: integer('approved_by').references(() => users.id, { onDelete: 'set null' }),
    approvedAt: tstz('approved_at'),
    executedBy: integer('executed_by').references(() => users.id, { onDelete: 'set null' }),
    executedAt: tstz('executed_at'),
    cancelledBy: integer('cancelled_by').references(() => users.id, { onDelete: 'set null' }),
    cancelledAt: tstz('cancelled_at'),
    record: jsonb('record').$type<unknown[]>().notNull().default([]),
    outputSha256: text('output_sha256'),
  },
  (t) => [
    check('dispositions_action_check', oneOf(t.action, DISPOSITION_ACTIONS)),
    check('dispositions_state_check', oneOf(t.state, DISPOSITION_STATES)),
    check(
      'dispositions_two_people_check',
      sql`${t.approvedBy} is null or ${t.approvedBy} <> ${t.proposedBy}`,
    ),
    uniqueIndex('dispositions_under_way_idx')
      .on(t.fileId)
      .where(sql`${t.state} in ('proposed', 'approved')`),
  ],
);

/**
 * A legal hold on a document or a file: while it is in force (not lifted) nothing under it is disposed of
 * or deleted, by anyone.
 */
export const legalHolds = pgTable(
  'legal_holds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    documentId: integer('document_id').references(() => documents.id, { onDelete: 'cascade' }),
    fileId: integer('file_id').references(() => recordFiles.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    placedBy: integer('placed_by').references(() => users.id, { onDelete: 'set null' }),
    placedAt: tstz('placed_at').notNull().defaultNow(),
    liftedBy: integer('lifted_by').references(() => users.id, { onDelete: 'set null' }),
    liftedAt: tstz('lifted_at'),
  },
  (t) => [
    check('legal_holds_one_target_check', sql`(${t.documentId} is null) <> (${t.fileId} is null)`),
    index('legal_holds_document_idx')
      .on(t.documentId)
      .where(sql`${t.liftedAt} is null`),
    index('legal_holds_file_idx')
      .on(t.fileId)
      .where(sql`${t.liftedAt} is null`),
  ],
);

/**
 * Stored files whose bytes no longer match the SHA-256 they are stored under (issue 31, the integrity
 * check: modules/reads/integrity.ts): changed, or missing. Open until a later pass finds them whole again
 * (`resolved_at`); one open row per file, so a file is reported once however many passes find it.
 */
export const integrityFailures = pgTable(
  'integrity_failures',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sha256: text('sha256').notNull(),
    problem: text('problem', { enum: INTEGRITY_PROBLEMS }).notNull(),
    /** The SHA-256 of the bytes found (a changed file). */
    foundSha256: text('found_sha256'),
    /** The store checked: `local` or `s3`. */
    store: text('store').notNull(),
    detectedAt: tstz('detected_at').notNull().defaultNow(),
    resolvedAt: tstz('resolved_at'),
  },
  (t) => [
    check('integrity_failures_problem_check', oneOf(t.problem, INTEGRITY_PROBLEMS)),
    uniqueIndex('integrity_failures_open_idx')
      .on(t.sha256)
      .where(sql`${t.resolvedAt} is null`),
  ],
);
