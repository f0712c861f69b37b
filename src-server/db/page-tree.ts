/**
 * The initial page tree: every main-layout route of the specification (section 2) in its section, with
 * Arabic and English names, an antd icon and the permissions each page offers. Seeded at start, once
 * per path (administrators may rename or reorder afterwards; the seed never overwrites).
 */
import type { Permission } from '../../src-shared/permissions';
import { PAGES, SECTIONS } from '../../src-shared/pages';

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
export const PERSONAL_PAGES: readonly string[] = [
  PAGES.calendar,
  PAGES.userSettings,
  PAGES.notifications,
  PAGES.myDelegation,
];

export const INITIAL_PAGE_TREE: SeedSection[] = [
  {
    path: SECTIONS.ec,
    nameAr: 'مركز الموظفين',
    nameEn: 'Employee Center',
    icon: 'TeamOutlined',
    pages: [
      {
        path: PAGES.employees,
        nameAr: 'الموظفون',
        nameEn: 'Employees',
        icon: 'UserOutlined',
        permissions: [...CRUD, 'export'],
      },
      { path: PAGES.jobs, nameAr: 'الوظائف', nameEn: 'Jobs', icon: 'IdcardOutlined', permissions: CRUD },
      {
        path: PAGES.departments,
        nameAr: 'الإدارات والأقسام',
        nameEn: 'Departments',
        icon: 'ApartmentOutlined',
        permissions: CRUD,
      },
      {
        path: PAGES.secretaryOffices,
        nameAr: 'مكاتب السكرتارية',
        nameEn: 'Secretary Offices',
        icon: 'ContainerOutlined',
        permissions: CRUD,
      },
    ],
  },
  {
    path: SECTIONS.inbox,
    nameAr: 'البريد الوارد',
    nameEn: 'Inbox',
    icon: 'InboxOutlined',
    pages: [
      {
        path: PAGES.incoming,
        nameAr: 'الوارد',
        nameEn: 'Incoming',
        icon: 'MailOutlined',
        permissions: ['view', 'edit', 'delete', 'distribute', 'export'],
      },
      {
        path: PAGES.followUps,
        nameAr: 'المتابعات',
        nameEn: 'Follow-ups',
        icon: 'FieldTimeOutlined',
        permissions: ['view', 'edit', 'export'],
      },
      {
        path: PAGES.incomingTasks,
        nameAr: 'المهام الواردة',
        nameEn: 'Incoming Tasks',
        icon: 'CheckSquareOutlined',
        permissions: ['view', 'edit'],
      },
      {
        path: PAGES.inboxDrafts,
        nameAr: 'مسودات الوارد',
        nameEn: 'Inbox Drafts',
        icon: 'FileTextOutlined',
        permissions: ['view', 'add', 'edit', 'delete'],
      },
      {
        path: PAGES.inboxAdd,
        nameAr: 'إضافة وارد',
        nameEn: 'Add Incoming',
        icon: 'PlusCircleOutlined',
        permissions: ['view', 'add'],
      },
    ],
  },
  {
    path: SECTIONS.outbox,
    nameAr: 'البريد الصادر',
    nameEn: 'Outbox',
    icon: 'SendOutlined',
    pages: [
      {
        path: PAGES.outgoing,
        nameAr: 'الصادر',
        nameEn: 'Outgoing',
        icon: 'MailOutlined',
        permissions: ['view', 'edit', 'delete', 'distribute', 'export'],
      },
      {
        path: PAGES.outboxDrafts,
        nameAr: 'مسودات الصادر',
        nameEn: 'Outbox Drafts',
        icon: 'FileTextOutlined',
        permissions: ['view', 'add', 'edit', 'delete'],
      },
      {
        path: PAGES.outboxAdd,
        nameAr: 'إضافة صادر',
        nameEn: 'Add Outgoing',
        icon: 'PlusCircleOutlined',
        permissions: ['view', 'add'],
      },
      {
        path: PAGES.outboxAwaitingApproval,
        nameAr: 'بانتظار الاعتماد',
        nameEn: 'Awaiting Approval',
        icon: 'HourglassOutlined',
        permissions: ['view'],
      },
      {
        path: PAGES.outboxRequiringApproval,
        nameAr: 'المطلوب اعتمادها',
        nameEn: 'Requiring Approval',
        icon: 'AuditOutlined',
        permissions: ['view', 'approve'],
      },
    ],
  },
  {
    path: SECTIONS.memos,
    nameAr: 'المذكرات الداخلية',
    nameEn: 'Memos',
    icon: 'FileDoneOutlined',
    pages: [
      {
        path: PAGES.approvedMemos,
        nameAr: 'المذكرات المعتمدة',
        nameEn: 'Approved Memos',
        icon: 'FileDoneOutlined',
        permissions: ['view', 'distribute', 'export'],
      },
      {
        path: PAGES.memoDrafts,
        nameAr: 'مسودات المذكرات',
        nameEn: 'Memo Drafts',
        icon: 'FileTextOutlined',
        permissions: ['view', 'add', 'edit', 'delete'],
      },
      {
        path: PAGES.memoAdd,
        nameAr: 'إضافة مذكرة داخلية',
        nameEn: 'Add Memo',
        icon: 'PlusCircleOutlined',
        permissions: ['view', 'add'],
      },
      {
        path: PAGES.memosAwaitingApproval,
        nameAr: 'بانتظار الاعتماد',
        nameEn: 'Awaiting Approval',
        icon: 'HourglassOutlined',
        permissions: ['view'],
      },
      {
        path: PAGES.memosRequiringApproval,
        nameAr: 'المطلوب اعتمادها',
        nameEn: 'Requiring Approval',
        icon: 'AuditOutlined',
        permissions: ['view', 'approve'],
      },
    ],
  },
  {
    path: SECTIONS.search,
    nameAr: 'البحث',
    nameEn: 'Search',
    icon: 'SearchOutlined',
    pages: [
      {
        path: PAGES.search,
        nameAr: 'البحث في المراسلات',
        nameEn: 'Search Correspondence',
        icon: 'FileSearchOutlined',
        permissions: ['view'],
      },
    ],
  },
  {
    path: SECTIONS.dashboards,
    nameAr: 'لوحات المتابعة والتقارير',
    nameEn: 'Dashboards & Reports',
    icon: 'DashboardOutlined',
    pages: [
      {
        path: PAGES.archiveDashboard,
        nameAr: 'لوحة الأرشيف',
        nameEn: 'Archive Dashboard',
        icon: 'InboxOutlined',
        permissions: ['view'],
      },
      {
        path: PAGES.managerDashboard,
        nameAr: 'لوحة المدير',
        nameEn: 'Manager Dashboard',
        icon: 'FundOutlined',
        permissions: ['view'],
      },
      {
        path: PAGES.organisationDashboard,
        nameAr: 'لوحة المنظمة',
        nameEn: 'Organisation Dashboard',
        icon: 'BarChartOutlined',
        permissions: ['view'],
      },
      {
        path: PAGES.reports,
        nameAr: 'التقارير',
        nameEn: 'Reports',
        icon: 'FileExcelOutlined',
        permissions: ['view', 'export'],
      },
    ],
  },
  {
    path: SECTIONS.records,
    nameAr: 'إدارة الوثائق',
    nameEn: 'Records Management',
    icon: 'DatabaseOutlined',
    pages: [
      {
        path: PAGES.recordFiles,
        nameAr: 'الملفات',
        nameEn: 'Files',
        icon: 'FolderOutlined',
        permissions: ['view', 'add', 'edit'],
      },
      {
        path: PAGES.retentionSchedules,
        nameAr: 'جداول مدد الحفظ',
        nameEn: 'Retention Schedules',
        icon: 'ScheduleOutlined',
        permissions: ['view', 'edit', 'delete'],
      },
      {
        path: PAGES.disposition,
        nameAr: 'الإتلاف والترحيل',
        nameEn: 'Disposition',
        icon: 'DeleteOutlined',
        permissions: ['view', 'add', 'approve', 'edit'],
      },
      {
        path: PAGES.legalHolds,
        nameAr: 'الحجز القانوني',
        nameEn: 'Legal Holds',
        icon: 'LockOutlined',
        permissions: ['view', 'add', 'delete'],
      },
    ],
  },
  {
    path: SECTIONS.settings,
    nameAr: 'الإعدادات',
    nameEn: 'Settings',
    icon: 'SettingOutlined',
    pages: [
      {
        path: PAGES.mediums,
        nameAr: 'وسائل الإرسال',
        nameEn: 'Mediums',
        icon: 'CarOutlined',
        permissions: CRUD,
      },
      {
        path: PAGES.priorities,
        nameAr: 'درجات الأولوية',
        nameEn: 'Priorities',
        icon: 'FlagOutlined',
        permissions: CRUD,
      },
      {
        path: PAGES.securityLevels,
        nameAr: 'درجات السرية',
        nameEn: 'Security Levels',
        icon: 'LockOutlined',
        permissions: CRUD,
      },
      {
        path: PAGES.codifications,
        nameAr: 'الترميز',
        nameEn: 'Codifications',
        icon: 'NumberOutlined',
        permissions: CRUD,
      },
      {
        path: PAGES.mainDistribution,
        nameAr: 'جهات التوزيع الرئيسية',
        nameEn: 'Main Distribution',
        icon: 'ShareAltOutlined',
        permissions: CRUD,
      },
      {
        path: PAGES.letterSettings,
        nameAr: 'الخطابات الصادرة: الختم والتوقيع',
        nameEn: 'Outgoing Letters: Stamp and Signature',
        icon: 'SafetyCertificateOutlined',
        permissions: ['view', 'edit'],
      },
      {
        path: PAGES.deadlineSettings,
        nameAr: 'أيام العمل والعطل والمهل',
        nameEn: 'Working Week, Holidays and Deadlines',
        icon: 'FieldTimeOutlined',
        permissions: ['view', 'edit'],
      },
    ],
  },
  {
    path: SECTIONS.auth,
    nameAr: 'إدارة النظام',
    nameEn: 'Administration',
    icon: 'SafetyCertificateOutlined',
    pages: [
      {
        path: PAGES.users,
        nameAr: 'المستخدمون',
        nameEn: 'Users',
        icon: 'UserOutlined',
        permissions: ['view', 'add', 'edit', 'activate'],
      },
      {
        path: PAGES.roles,
        nameAr: 'الأدوار والصلاحيات',
        nameEn: 'Roles and permissions',
        icon: 'KeyOutlined',
        permissions: ['view', 'add', 'edit', 'activate'],
      },
      {
        path: PAGES.pages,
        nameAr: 'الأقسام والصفحات',
        nameEn: 'Sections and pages',
        icon: 'MenuOutlined',
        permissions: ['view', 'add', 'edit'],
      },
      {
        path: PAGES.audit,
        nameAr: 'سجل التدقيق',
        nameEn: 'Audit log',
        icon: 'HistoryOutlined',
        permissions: ['view', 'export'],
      },
      {
        path: PAGES.delegations,
        nameAr: 'تفويض الصلاحيات',
        nameEn: 'Delegations',
        icon: 'SwapOutlined',
        permissions: ['view', 'add', 'edit'],
      },
      {
        path: PAGES.stalledCircuits,
        nameAr: 'دورات اعتماد متوقفة',
        nameEn: 'Stalled Approval Circuits',
        icon: 'StopOutlined',
        permissions: ['view', 'edit'],
      },
      {
        // The running server's backups (docs/backups.md): view lists and verifies them, add makes one,
        // delete removes one.
        path: PAGES.backups,
        nameAr: 'النسخ الاحتياطية',
        nameEn: 'Backups',
        icon: 'CloudDownloadOutlined',
        permissions: ['view', 'add', 'delete'],
      },
    ],
  },
  {
    path: SECTIONS.user,
    nameAr: 'شخصي',
    nameEn: 'Personal',
    icon: 'SmileOutlined',
    pages: [
      {
        path: PAGES.calendar,
        nameAr: 'التقويم',
        nameEn: 'Calendar',
        icon: 'CalendarOutlined',
        permissions: ['view'],
      },
      {
        path: PAGES.userSettings,
        nameAr: 'إعدادات المستخدم',
        nameEn: 'User Settings',
        icon: 'ProfileOutlined',
        permissions: ['view'],
      },
      {
        path: PAGES.notifications,
        nameAr: 'التنبيهات',
        nameEn: 'Notifications',
        icon: 'BellOutlined',
        permissions: ['view'],
      },
      {
        path: PAGES.myDelegation,
        nameAr: 'التفويض',
        nameEn: 'My Delegation',
        icon: 'SwapOutlined',
        permissions: ['view'],
      },
    ],
  },
];
