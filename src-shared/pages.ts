/**
 * Every page path of the page tree, declared once (specification section 2). The router, the page-tree
 * seed, the demo seed, the server's route declarations and the services all name pages through these
 * constants, so a typo is a compile error instead of a silent 403.
 */
import type { Direction } from './api/correspondence';

export const PAGES = {
  employees: '/ec/employees',
  jobs: '/ec/jobs',
  departments: '/ec/departments',
  secretaryOffices: '/ec/secretary-offices',

  incoming: '/correspondence/inbox/incoming',
  followUps: '/correspondence/inbox/follow-ups',
  incomingTasks: '/correspondence/inbox/incoming-tasks',
  inboxDrafts: '/correspondence/inbox/draft',
  inboxAdd: '/correspondence/inbox/add',

  outgoing: '/correspondence/outbox/outgoing',
  outboxDrafts: '/correspondence/outbox/draft',
  outboxAdd: '/correspondence/outbox/add',
  outboxAwaitingApproval: '/correspondence/outbox/awaiting-approval',
  outboxRequiringApproval: '/correspondence/outbox/requiring-approval',

  approvedMemos: '/correspondence/memos/approved-memos',
  memoDrafts: '/correspondence/memos/draft',
  memoAdd: '/correspondence/memos/add',
  memosAwaitingApproval: '/correspondence/memos/awaiting-approval',
  memosRequiringApproval: '/correspondence/memos/requiring-approval',

  mediums: '/correspondence/settings/mediums',
  priorities: '/correspondence/settings/priorities',
  securityLevels: '/correspondence/settings/security-levels',
  codifications: '/correspondence/settings/codifications',
  mainDistribution: '/correspondence/settings/main-distribution',
  letterSettings: '/correspondence/settings/letters',
  deadlineSettings: '/correspondence/settings/deadlines',

  users: '/auth/users',
  roles: '/auth/roles',
  pages: '/auth/pages',
  audit: '/auth/audit',
  delegations: '/auth/delegations',
  stalledCircuits: '/auth/stalled-circuits',
  backups: '/auth/backups',

  search: '/search/documents',

  archiveDashboard: '/dashboards/archive',
  managerDashboard: '/dashboards/manager',
  organisationDashboard: '/dashboards/organisation',
  reports: '/dashboards/reports',

  recordFiles: '/records/files',
  retentionSchedules: '/records/schedules',
  disposition: '/records/disposition',
  legalHolds: '/records/holds',

  calendar: '/user/calendar',
  userSettings: '/user/settings',
  notifications: '/user/notifications',
  myDelegation: '/user/delegation',
} as const;
export type PageKey = keyof typeof PAGES;
export type PagePath = (typeof PAGES)[PageKey];

/** The sections of the page tree (the tree's top level). */
export const SECTIONS = {
  ec: '/ec',
  inbox: '/correspondence/inbox',
  outbox: '/correspondence/outbox',
  memos: '/correspondence/memos',
  settings: '/correspondence/settings',
  search: '/search',
  dashboards: '/dashboards',
  records: '/records',
  auth: '/auth',
  user: '/user',
} as const;

/**
 * The pages of each direction of correspondence, declared as data: the add form, the drafts list, the
 * list of finished documents (registered incoming, approved outgoing, approved memos), and for the
 * directions that pass an approval circuit the author's and the approvers' lists. Whether a caller may act
 * on a document is decided by the page of the document's own direction (the server checks it).
 */
export interface DirectionPages {
  add: PagePath;
  drafts: PagePath;
  list: PagePath;
  awaitingApproval: PagePath | null;
  requiringApproval: PagePath | null;
}

export const DIRECTION_PAGES: Record<Direction, DirectionPages> = {
  in: {
    add: PAGES.inboxAdd,
    drafts: PAGES.inboxDrafts,
    list: PAGES.incoming,
    awaitingApproval: null,
    requiringApproval: null,
  },
  out: {
    add: PAGES.outboxAdd,
    drafts: PAGES.outboxDrafts,
    list: PAGES.outgoing,
    awaitingApproval: PAGES.outboxAwaitingApproval,
    requiringApproval: PAGES.outboxRequiringApproval,
  },
  // Internal correspondence is filed with the memos (the page tree has no section of its own for it).
  internal: {
    add: PAGES.memoAdd,
    drafts: PAGES.memoDrafts,
    list: PAGES.approvedMemos,
    awaitingApproval: PAGES.memosAwaitingApproval,
    requiringApproval: PAGES.memosRequiringApproval,
  },
  memo: {
    add: PAGES.memoAdd,
    drafts: PAGES.memoDrafts,
    list: PAGES.approvedMemos,
    awaitingApproval: PAGES.memosAwaitingApproval,
    requiringApproval: PAGES.memosRequiringApproval,
  },
};
