/**
 * The initial page tree: every main-layout route of the specification (section 2) in its section, with
 * Arabic and English names, an antd icon and the permissions each page offers. Seeded at start, once
 * per path (administrators may rename or reorder afterwards; the seed never overwrites).
 */
import type { Permission } from '../../src-shared/permissions';

export interface SeedPage {
  path: string;
  nameAr: string;
  nameEn: string;
  icon: string;
  permissions: Permission[];
}
export interface SeedSection extends Omit<SeedPage, 'permissions'> {
  pages: SeedPage[];
}

const CRUD: Permission[] = ['view', 'add', 'edit', 'delete', 'activate'];

/**
 * Pages every active user may view whatever their role: their own calendar and settings. The server adds
 * `view` on these for everyone (in the tree and in enforcement).
 */
export const PERSONAL_PAGES: readonly string[] = ['/user/calendar', '/user/settings'];

export const INITIAL_PAGE_TREE: SeedSection[] = [
  {
    path: '/ec',
    nameAr: 'مركز الموظفين',
    nameEn: 'Employee Center',
    icon: 'TeamOutlined',
    pages: [
      {
        path: '/ec/employees',
        nameAr: 'الموظفون',
        nameEn: 'Employees',
        icon: 'UserOutlined',
        permissions: [...CRUD, 'export'],
      },
      { path: '/ec/jobs', nameAr: 'الوظائف', nameEn: 'Jobs', icon: 'IdcardOutlined', permissions: CRUD },
      {
        path: '/ec/departments',
        nameAr: 'الإدارات والأقسام',
        nameEn: 'Departments',
        icon: 'ApartmentOutlined',
        permissions: CRUD,
      },
      {
        path: '/ec/secretary-offices',
        nameAr: 'مكاتب السكرتارية',
        nameEn: 'Secretary Offices',
        icon: 'ContainerOutlined',
        permissions: CRUD,
      },
    ],
  },
  {
    path: '/correspondence/inbox',
    nameAr: 'البريد الوارد',
    nameEn: 'Inbox',
    icon: 'InboxOutlined',
    pages: [
      {
        path: '/correspondence/inbox/incoming',
        nameAr: 'الوارد',
        nameEn: 'Incoming',
        icon: 'MailOutlined',
        permissions: ['view', 'edit', 'delete', 'distribute', 'export'],
      },
      {
        path: '/correspondence/inbox/follow-ups',
        nameAr: 'المتابعات',
        nameEn: 'Follow-ups',
        icon: 'FieldTimeOutlined',
        permissions: ['view', 'edit', 'export'],
      },
      {
        path: '/correspondence/inbox/incoming-tasks',
        nameAr: 'المهام الواردة',
        nameEn: 'Incoming Tasks',
        icon: 'CheckSquareOutlined',
        permissions: ['view', 'edit'],
      },
      {
        path: '/correspondence/inbox/draft',
        nameAr: 'مسودات الوارد',
        nameEn: 'Inbox Drafts',
        icon: 'FileTextOutlined',
        permissions: ['view', 'add', 'edit', 'delete'],
      },
      {
        path: '/correspondence/inbox/add',
        nameAr: 'إضافة وارد',
        nameEn: 'Add Incoming',
        icon: 'PlusCircleOutlined',
        permissions: ['view', 'add'],
      },
    ],
  },
  {
    path: '/correspondence/outbox',
    nameAr: 'البريد الصادر',
    nameEn: 'Outbox',
    icon: 'SendOutlined',
    pages: [
      {
        path: '/correspondence/outbox/outgoing',
        nameAr: 'الصادر',
        nameEn: 'Outgoing',
        icon: 'MailOutlined',
        permissions: ['view', 'edit', 'delete', 'distribute', 'export'],
      },
      {
        path: '/correspondence/outbox/draft',
        nameAr: 'مسودات الصادر',
        nameEn: 'Outbox Drafts',
        icon: 'FileTextOutlined',
        permissions: ['view', 'add', 'edit', 'delete'],
      },
      {
        path: '/correspondence/outbox/add',
        nameAr: 'إضافة صادر',
        nameEn: 'Add Outgoing',
        icon: 'PlusCircleOutlined',
        permissions: ['view', 'add'],
      },
      {
        path: '/correspondence/outbox/awaiting-approval',
        nameAr: 'بانتظار الاعتماد',
        nameEn: 'Awaiting Approval',
        icon: 'HourglassOutlined',
        permissions: ['view'],
      },
      {
        path: '/correspondence/outbox/requiring-approval',
        nameAr: 'المطلوب اعتمادها',
        nameEn: 'Requiring Approval',
        icon: 'AuditOutlined',
        permissions: ['view', 'approve'],
      },
    ],
  },
  {
    path: '/correspondence/memos',
    nameAr: 'المذكرات الداخلية',
    nameEn: 'Memos',
    icon: 'FileDoneOutlined',
    pages: [
      {
        path: '/correspondence/memos/approved-memos',
        nameAr: 'المذكرات المعتمدة',
        nameEn: 'Approved Memos',
        icon: 'FileDoneOutlined',
        permissions: ['view', 'distribute', 'export'],
      },
      {
        path: '/correspondence/memos/draft',
        nameAr: 'مسودات المذكرات',
        nameEn: 'Memo Drafts',
        icon: 'FileTextOutlined',
        permissions: ['view', 'add', 'edit', 'delete'],
      },
      {
        path: '/correspondence/memos/add',
        nameAr: 'إضافة مذكرة داخلية',
        nameEn: 'Add Memo',
        icon: 'PlusCircleOutlined',
        permissions: ['view', 'add'],
      },
      {
        path: '/correspondence/memos/awaiting-approval',
        nameAr: 'بانتظار الاعتماد',
        nameEn: 'Awaiting Approval',
        icon: 'HourglassOutlined',
        permissions: ['view'],
      },
      {
        path: '/correspondence/memos/requiring-approval',
        nameAr: 'المطلوب اعتمادها',
        nameEn: 'Requiring Approval',
        icon: 'AuditOutlined',
        permissions: ['view', 'approve'],
      },
    ],
  },
  {
    path: '/correspondence/settings',
    nameAr: 'الإعدادات',
    nameEn: 'Settings',
    icon: 'SettingOutlined',
    pages: [
      {
        path: '/correspondence/settings/mediums',
        nameAr: 'وسائل الإرسال',
        nameEn: 'Mediums',
        icon: 'CarOutlined',
        permissions: CRUD,
      },
      {
        path: '/correspondence/settings/priorities',
        nameAr: 'درجات الأولوية',
        nameEn: 'Priorities',
        icon: 'FlagOutlined',
        permissions: CRUD,
      },
      {
        path: '/correspondence/settings/security-levels',
        nameAr: 'درجات السرية',
        nameEn: 'Security Levels',
        icon: 'LockOutlined',
        permissions: CRUD,
      },
      {
        path: '/correspondence/settings/codifications',
        nameAr: 'الترميز',
        nameEn: 'Codifications',
        icon: 'NumberOutlined',
        permissions: CRUD,
      },
      {
        path: '/correspondence/settings/main-distribution',
        nameAr: 'جهات التوزيع الرئيسية',
        nameEn: 'Main Distribution',
        icon: 'ShareAltOutlined',
        permissions: CRUD,
      },
    ],
  },
  {
    path: '/auth',
    nameAr: 'إدارة النظام',
    nameEn: 'Administration',
    icon: 'SafetyCertificateOutlined',
    pages: [
      {
        path: '/auth/users',
        nameAr: 'المستخدمون',
        nameEn: 'Users',
        icon: 'UserOutlined',
        permissions: ['view', 'add', 'edit', 'activate'],
      },
      {
        path: '/auth/roles',
        nameAr: 'الأدوار والصلاحيات',
        nameEn: 'Roles and permissions',
        icon: 'KeyOutlined',
        permissions: ['view', 'add', 'edit', 'activate'],
      },
      {
        path: '/auth/pages',
        nameAr: 'الأقسام والصفحات',
        nameEn: 'Sections and pages',
        icon: 'MenuOutlined',
        permissions: ['view', 'add', 'edit'],
      },
      {
        path: '/auth/audit',
        nameAr: 'سجل التدقيق',
        nameEn: 'Audit log',
        icon: 'HistoryOutlined',
        permissions: ['view', 'export'],
      },
    ],
  },
  {
    path: '/user',
    nameAr: 'شخصي',
    nameEn: 'Personal',
    icon: 'SmileOutlined',
    pages: [
      {
        path: '/user/calendar',
        nameAr: 'التقويم',
        nameEn: 'Calendar',
        icon: 'CalendarOutlined',
        permissions: ['view'],
      },
      {
        path: '/user/settings',
        nameAr: 'إعدادات المستخدم',
        nameEn: 'User Settings',
        icon: 'ProfileOutlined',
        permissions: ['view'],
      },
    ],
  },
];
