/**
 * The hash router: every route of the specification (section 2), each loaded on demand in its own chunk.
 * The guard sits at the root; the login layout holds /login and /login/two-factor, the main layout the
 * rest. Each main route declares the page-tree path it belongs to (`handle.treePath`): detail routes such
 * as `/correspondence/inbox/incoming/:id` belong to their list page.
 */
import type { ComponentType } from 'react';
import { createHashRouter, type RouteObject } from 'react-router-dom';
import { FullPageSpin, Guard, type RouteHandle } from './Guard';

/** A route module: its component (a named `Component` export, or mapped below). */
type Lazy = () => Promise<{ Component: ComponentType }>;

interface MainRoute {
  path: string;
  treePath: string;
  lazy: Lazy;
}

/** Every main-layout route: path, the page-tree path it belongs to, its module. */
export const MAIN_ROUTES: readonly MainRoute[] = [
  {
    path: '/ec/employees',
    treePath: '/ec/employees',
    lazy: () => import('../features/directory/EmployeesPage'),
  },
  { path: '/ec/jobs', treePath: '/ec/jobs', lazy: () => import('../features/directory/JobsPage') },
  {
    path: '/ec/departments',
    treePath: '/ec/departments',
    lazy: () => import('../features/directory/DepartmentsPage'),
  },
  {
    path: '/ec/secretary-offices',
    treePath: '/ec/secretary-offices',
    lazy: () => import('../features/directory/SecretaryOfficesPage'),
  },
  {
    path: '/correspondence/inbox/incoming',
    treePath: '/correspondence/inbox/incoming',
    lazy: () => import('../features/correspondence/inbox/IncomingListPage'),
  },
  {
    path: '/correspondence/inbox/incoming/:id',
    treePath: '/correspondence/inbox/incoming',
    lazy: () => import('../features/correspondence/inbox/IncomingDetailPage'),
  },
  {
    path: '/correspondence/inbox/follow-ups',
    treePath: '/correspondence/inbox/follow-ups',
    lazy: () => import('../features/correspondence/inbox/FollowUpsListPage'),
  },
  {
    path: '/correspondence/inbox/follow-ups/:id',
    treePath: '/correspondence/inbox/follow-ups',
    lazy: () => import('../features/correspondence/inbox/FollowUpsDetailPage'),
  },
  {
    path: '/correspondence/inbox/incoming-tasks',
    treePath: '/correspondence/inbox/incoming-tasks',
    lazy: () => import('../features/correspondence/inbox/IncomingTasksListPage'),
  },
  {
    path: '/correspondence/inbox/incoming-tasks/:id',
    treePath: '/correspondence/inbox/incoming-tasks',
    lazy: () => import('../features/correspondence/inbox/IncomingTasksDetailPage'),
  },
  {
    path: '/correspondence/inbox/draft',
    treePath: '/correspondence/inbox/draft',
    lazy: () => import('../features/correspondence/inbox/InboxDraftsListPage'),
  },
  {
    path: '/correspondence/inbox/add',
    treePath: '/correspondence/inbox/add',
    lazy: () => import('../features/correspondence/inbox/AddIncomingPage'),
  },
  {
    path: '/correspondence/outbox/outgoing',
    treePath: '/correspondence/outbox/outgoing',
    lazy: () => import('../features/correspondence/outbox/OutgoingListPage'),
  },
  {
    path: '/correspondence/outbox/outgoing/:id',
    treePath: '/correspondence/outbox/outgoing',
    lazy: () => import('../features/correspondence/outbox/OutgoingDetailPage'),
  },
  {
    path: '/correspondence/outbox/draft',
    treePath: '/correspondence/outbox/draft',
    lazy: () => import('../features/correspondence/outbox/OutboxDraftsListPage'),
  },
  {
    path: '/correspondence/outbox/draft/:id',
    treePath: '/correspondence/outbox/draft',
    lazy: () => import('../features/correspondence/outbox/OutboxDraftsDetailPage'),
  },
  {
    path: '/correspondence/outbox/add',
    treePath: '/correspondence/outbox/add',
    lazy: () => import('../features/correspondence/outbox/AddOutgoingPage'),
  },
  {
    path: '/correspondence/outbox/awaiting-approval',
    treePath: '/correspondence/outbox/awaiting-approval',
    lazy: () => import('../features/correspondence/outbox/OutboxAwaitingApprovalListPage'),
  },
  {
    path: '/correspondence/outbox/awaiting-approval/:id',
    treePath: '/correspondence/outbox/awaiting-approval',
    lazy: () => import('../features/correspondence/outbox/OutboxAwaitingApprovalDetailPage'),
  },
  {
    path: '/correspondence/outbox/requiring-approval',
    treePath: '/correspondence/outbox/requiring-approval',
    lazy: () => import('../features/correspondence/outbox/OutboxRequiringApprovalListPage'),
  },
  {
    path: '/correspondence/outbox/requiring-approval/:id',
    treePath: '/correspondence/outbox/requiring-approval',
    lazy: () => import('../features/correspondence/outbox/OutboxRequiringApprovalDetailPage'),
  },
  {
    path: '/correspondence/memos/approved-memos',
    treePath: '/correspondence/memos/approved-memos',
    lazy: () => import('../features/correspondence/memos/ApprovedMemosListPage'),
  },
  {
    path: '/correspondence/memos/approved-memos/:id',
    treePath: '/correspondence/memos/approved-memos',
    lazy: () => import('../features/correspondence/memos/ApprovedMemosDetailPage'),
  },
  {
    path: '/correspondence/memos/draft',
    treePath: '/correspondence/memos/draft',
    lazy: () => import('../features/correspondence/memos/MemoDraftsListPage'),
  },
  {
    path: '/correspondence/memos/draft/:id',
    treePath: '/correspondence/memos/draft',
    lazy: () => import('../features/correspondence/memos/MemoDraftsDetailPage'),
  },
  {
    path: '/correspondence/memos/add',
    treePath: '/correspondence/memos/add',
    lazy: () => import('../features/correspondence/memos/AddMemoPage'),
  },
  {
    path: '/correspondence/memos/awaiting-approval',
    treePath: '/correspondence/memos/awaiting-approval',
    lazy: () => import('../features/correspondence/memos/MemosAwaitingApprovalListPage'),
  },
  {
    path: '/correspondence/memos/awaiting-approval/:id',
    treePath: '/correspondence/memos/awaiting-approval',
    lazy: () => import('../features/correspondence/memos/MemosAwaitingApprovalDetailPage'),
  },
  {
    path: '/correspondence/memos/requiring-approval',
    treePath: '/correspondence/memos/requiring-approval',
    lazy: () => import('../features/correspondence/memos/MemosRequiringApprovalListPage'),
  },
  {
    path: '/correspondence/memos/requiring-approval/:id',
    treePath: '/correspondence/memos/requiring-approval',
    lazy: () => import('../features/correspondence/memos/MemosRequiringApprovalDetailPage'),
  },
  {
    path: '/correspondence/settings/mediums',
    treePath: '/correspondence/settings/mediums',
    lazy: () => import('../features/correspondence/settings/MediumsPage'),
  },
  {
    path: '/correspondence/settings/priorities',
    treePath: '/correspondence/settings/priorities',
    lazy: () => import('../features/correspondence/settings/PrioritiesPage'),
  },
  {
    path: '/correspondence/settings/security-levels',
    treePath: '/correspondence/settings/security-levels',
    lazy: () => import('../features/correspondence/settings/SecurityLevelsPage'),
  },
  {
    path: '/correspondence/settings/codifications',
    treePath: '/correspondence/settings/codifications',
    lazy: () => import('../features/correspondence/settings/CodificationsPage'),
  },
  {
    path: '/correspondence/settings/main-distribution',
    treePath: '/correspondence/settings/main-distribution',
    lazy: () => import('../features/correspondence/settings/MainDistributionPage'),
  },
  {
    path: '/user/calendar',
    treePath: '/user/calendar',
    lazy: () => import('../features/calendar/CalendarPage'),
  },
  {
    path: '/auth/users',
    treePath: '/auth/users',
    lazy: async () => ({ Component: (await import('../features/admin/UsersPage')).UsersPage }),
  },
  {
    path: '/auth/roles',
    treePath: '/auth/roles',
    lazy: async () => ({ Component: (await import('../features/admin/RolesPage')).RolesPage }),
  },
  {
    path: '/auth/pages',
    treePath: '/auth/pages',
    lazy: async () => ({ Component: (await import('../features/admin/PagesPage')).PagesPage }),
  },
  {
    path: '/auth/audit',
    treePath: '/auth/audit',
    lazy: async () => ({ Component: (await import('../features/admin/AuditPage')).AuditPage }),
  },
  {
    path: '/user/settings',
    treePath: '/user/settings',
    lazy: () => import('../features/user/UserSettingsPage'),
  },
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Guard />,
    HydrateFallback: FullPageSpin,
    children: [
      // `/` itself never renders: the guard sends it to the first page (or /no-access).
      { index: true, element: null },
      {
        lazy: async () => ({ Component: (await import('./layouts/LoginLayout')).LoginLayout }),
        children: [
          { path: 'login', lazy: () => import('../features/auth/SignInPage') },
          { path: 'login/two-factor', lazy: () => import('../features/auth/TwoFactorPage') },
        ],
      },
      {
        lazy: async () => ({ Component: (await import('./layouts/MainLayout')).MainLayout }),
        children: [
          ...MAIN_ROUTES.map((route): RouteObject => ({
            path: route.path.slice(1),
            handle: { treePath: route.treePath } satisfies RouteHandle,
            lazy: route.lazy,
          })),
          { path: 'no-access', lazy: () => import('../features/common/NoAccessPage') },
          // A page the tree grants but this client has no screen for yet (or an unknown path, which the
          // guard sends to /no-access because it is not in the tree).
          { path: '*', lazy: () => import('../features/common/UnbuiltPage') },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createHashRouter(routes);
}
