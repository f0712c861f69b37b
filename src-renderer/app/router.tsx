/**
 * The hash router: every route of the specification (section 2), each loaded on demand in its own chunk.
 * The guard sits at the root; the login layout holds /login and /login/two-factor, the main layout the
 * rest. Each main route declares the page-tree path it belongs to (`handle.treePath`): detail routes such
 * as `/correspondence/inbox/incoming/:id` belong to their list page.
 *
 * Every chunk is loaded once more after a short pause before it counts as failed (`loadTwice`). A page
 * that still fails, or throws while rendering, shows the error page inside the main layout (the menu and
 * header stay); a layout that fails shows the light error page at the root (RouteError.tsx).
 */
import type { ComponentType, ReactNode } from 'react';
import { createHashRouter, type RouteObject } from 'react-router-dom';
import { FullPageSpin, Guard, type RouteHandle } from './Guard';
import { loadTwice, RETRY_PAUSE_MS } from './load-twice';
import { PageError, RootError } from './RouteError';
import { PAGES } from '../../src-shared/pages';

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
    path: PAGES.employees,
    treePath: PAGES.employees,
    lazy: () => import('../features/directory/EmployeesPage'),
  },
  { path: PAGES.jobs, treePath: PAGES.jobs, lazy: () => import('../features/directory/JobsPage') },
  {
    path: PAGES.departments,
    treePath: PAGES.departments,
    lazy: () => import('../features/directory/DepartmentsPage'),
  },
  {
    path: PAGES.secretaryOffices,
    treePath: PAGES.secretaryOffices,
    lazy: () => import('../features/directory/SecretaryOfficesPage'),
  },
  {
    path: PAGES.incoming,
    treePath: PAGES.incoming,
    lazy: () => import('../features/correspondence/inbox/IncomingListPage'),
  },
  {
    path: '/correspondence/inbox/incoming/:id',
    treePath: PAGES.incoming,
    lazy: () => import('../features/correspondence/inbox/IncomingDetailPage'),
  },
  {
    path: PAGES.followUps,
    treePath: PAGES.followUps,
    lazy: () => import('../features/correspondence/inbox/FollowUpsListPage'),
  },
  {
    path: '/correspondence/inbox/follow-ups/:id',
    treePath: PAGES.followUps,
    lazy: () => import('../features/correspondence/inbox/FollowUpsDetailPage'),
  },
  {
    path: PAGES.incomingTasks,
    treePath: PAGES.incomingTasks,
    lazy: () => import('../features/correspondence/inbox/IncomingTasksListPage'),
  },
  {
    path: '/correspondence/inbox/incoming-tasks/:id',
    treePath: PAGES.incomingTasks,
    lazy: () => import('../features/correspondence/inbox/IncomingTasksDetailPage'),
  },
  {
    path: PAGES.inboxDrafts,
    treePath: PAGES.inboxDrafts,
    lazy: () => import('../features/correspondence/inbox/InboxDraftsListPage'),
  },
  {
    path: PAGES.inboxAdd,
    treePath: PAGES.inboxAdd,
    lazy: () => import('../features/correspondence/inbox/AddIncomingPage'),
  },
  {
    path: PAGES.outgoing,
    treePath: PAGES.outgoing,
    lazy: () => import('../features/correspondence/outbox/OutgoingListPage'),
  },
  {
    path: '/correspondence/outbox/outgoing/:id',
    treePath: PAGES.outgoing,
    lazy: () => import('../features/correspondence/outbox/OutgoingDetailPage'),
  },
  {
    path: PAGES.outboxDrafts,
    treePath: PAGES.outboxDrafts,
    lazy: () => import('../features/correspondence/outbox/OutboxDraftsListPage'),
  },
  {
    path: '/correspondence/outbox/draft/:id',
    treePath: PAGES.outboxDrafts,
    lazy: () => import('../features/correspondence/outbox/OutboxDraftsDetailPage'),
  },
  {
    path: PAGES.outboxAdd,
    treePath: PAGES.outboxAdd,
    lazy: () => import('../features/correspondence/outbox/AddOutgoingPage'),
  },
  {
    path: PAGES.outboxAwaitingApproval,
    treePath: PAGES.outboxAwaitingApproval,
    lazy: () => import('../features/correspondence/outbox/OutboxAwaitingApprovalListPage'),
  },
  {
    path: '/correspondence/outbox/awaiting-approval/:id',
    treePath: PAGES.outboxAwaitingApproval,
    lazy: () => import('../features/correspondence/outbox/OutboxAwaitingApprovalDetailPage'),
  },
  {
    path: PAGES.outboxRequiringApproval,
    treePath: PAGES.outboxRequiringApproval,
    lazy: () => import('../features/correspondence/outbox/OutboxRequiringApprovalListPage'),
  },
  {
    path: '/correspondence/outbox/requiring-approval/:id',
    treePath: PAGES.outboxRequiringApproval,
    lazy: () => import('../features/correspondence/outbox/OutboxRequiringApprovalDetailPage'),
  },
  {
    path: PAGES.approvedMemos,
    treePath: PAGES.approvedMemos,
    lazy: () => import('../features/correspondence/memos/ApprovedMemosListPage'),
  },
  {
    path: '/correspondence/memos/approved-memos/:id',
    treePath: PAGES.approvedMemos,
    lazy: () => import('../features/correspondence/memos/ApprovedMemosDetailPage'),
  },
  {
    path: PAGES.memoDrafts,
    treePath: PAGES.memoDrafts,
    lazy: () => import('../features/correspondence/memos/MemoDraftsListPage'),
  },
  {
    path: '/correspondence/memos/draft/:id',
    treePath: PAGES.memoDrafts,
    lazy: () => import('../features/correspondence/memos/MemoDraftsDetailPage'),
  },
  {
    path: PAGES.memoAdd,
    treePath: PAGES.memoAdd,
    lazy: () => import('../features/correspondence/memos/AddMemoPage'),
  },
  {
    path: PAGES.memosAwaitingApproval,
    treePath: PAGES.memosAwaitingApproval,
    lazy: () => import('../features/correspondence/memos/MemosAwaitingApprovalListPage'),
  },
  {
    path: '/correspondence/memos/awaiting-approval/:id',
    treePath: PAGES.memosAwaitingApproval,
    lazy: () => import('../features/correspondence/memos/MemosAwaitingApprovalDetailPage'),
  },
  {
    path: PAGES.memosRequiringApproval,
    treePath: PAGES.memosRequiringApproval,
    lazy: () => import('../features/correspondence/memos/MemosRequiringApprovalListPage'),
  },
  {
    path: '/correspondence/memos/requiring-approval/:id',
    treePath: PAGES.memosRequiringApproval,
    lazy: () => import('../features/correspondence/memos/MemosRequiringApprovalDetailPage'),
  },
  {
    path: PAGES.mediums,
    treePath: PAGES.mediums,
    lazy: () => import('../features/correspondence/settings/MediumsPage'),
  },
  {
    path: PAGES.priorities,
    treePath: PAGES.priorities,
    lazy: () => import('../features/correspondence/settings/PrioritiesPage'),
  },
  {
    path: PAGES.securityLevels,
    treePath: PAGES.securityLevels,
    lazy: () => import('../features/correspondence/settings/SecurityLevelsPage'),
  },
  {
    path: PAGES.codifications,
    treePath: PAGES.codifications,
    lazy: () => import('../features/correspondence/settings/CodificationsPage'),
  },
  {
    path: PAGES.mainDistribution,
    treePath: PAGES.mainDistribution,
    lazy: () => import('../features/correspondence/settings/MainDistributionPage'),
  },
  {
    path: PAGES.letterSettings,
    treePath: PAGES.letterSettings,
    lazy: () => import('../features/correspondence/settings/LetterSettingsPage'),
  },
  {
    path: PAGES.deadlineSettings,
    treePath: PAGES.deadlineSettings,
    lazy: () => import('../features/correspondence/settings/DeadlineSettingsPage'),
  },
  {
    path: PAGES.search,
    treePath: PAGES.search,
    lazy: () => import('../features/correspondence/search/SearchPage'),
  },
  {
    path: `${PAGES.search}/:id`,
    treePath: PAGES.search,
    lazy: () => import('../features/correspondence/search/SearchDetailPage'),
  },
  {
    path: PAGES.archiveDashboard,
    treePath: PAGES.archiveDashboard,
    lazy: () => import('../features/dashboards/ArchiveDashboardPage'),
  },
  {
    path: PAGES.managerDashboard,
    treePath: PAGES.managerDashboard,
    lazy: () => import('../features/dashboards/ManagerDashboardPage'),
  },
  {
    path: PAGES.organisationDashboard,
    treePath: PAGES.organisationDashboard,
    lazy: () => import('../features/dashboards/OrganisationDashboardPage'),
  },
  {
    path: PAGES.reports,
    treePath: PAGES.reports,
    lazy: () => import('../features/dashboards/ReportsPage'),
  },
  {
    path: PAGES.recordFiles,
    treePath: PAGES.recordFiles,
    lazy: () => import('../features/records/FilesPage'),
  },
  {
    path: PAGES.retentionSchedules,
    treePath: PAGES.retentionSchedules,
    lazy: () => import('../features/records/SchedulesPage'),
  },
  {
    path: PAGES.disposition,
    treePath: PAGES.disposition,
    lazy: () => import('../features/records/DispositionPage'),
  },
  {
    path: PAGES.legalHolds,
    treePath: PAGES.legalHolds,
    lazy: () => import('../features/records/HoldsPage'),
  },
  {
    path: PAGES.calendar,
    treePath: PAGES.calendar,
    lazy: () => import('../features/calendar/CalendarPage'),
  },
  {
    path: PAGES.users,
    treePath: PAGES.users,
    lazy: async () => ({ Component: (await import('../features/admin/UsersPage')).UsersPage }),
  },
  {
    path: PAGES.roles,
    treePath: PAGES.roles,
    lazy: async () => ({ Component: (await import('../features/admin/RolesPage')).RolesPage }),
  },
  {
    path: PAGES.pages,
    treePath: PAGES.pages,
    lazy: async () => ({ Component: (await import('../features/admin/PagesPage')).PagesPage }),
  },
  {
    path: PAGES.audit,
    treePath: PAGES.audit,
    lazy: async () => ({ Component: (await import('../features/admin/AuditPage')).AuditPage }),
  },
  {
    path: PAGES.delegations,
    treePath: PAGES.delegations,
    lazy: () => import('../features/admin/DelegationsPage'),
  },
  {
    path: PAGES.stalledCircuits,
    treePath: PAGES.stalledCircuits,
    lazy: () => import('../features/admin/StalledCircuitsPage'),
  },
  {
    path: PAGES.backups,
    treePath: PAGES.backups,
    lazy: async () => ({ Component: (await import('../features/admin/BackupsPage')).BackupsPage }),
  },
  {
    path: PAGES.userSettings,
    treePath: PAGES.userSettings,
    lazy: () => import('../features/user/UserSettingsPage'),
  },
  {
    path: PAGES.notifications,
    treePath: PAGES.notifications,
    lazy: () => import('../features/user/NotificationsPage'),
  },
  {
    path: PAGES.myDelegation,
    treePath: PAGES.myDelegation,
    lazy: () => import('../features/user/MyDelegationPage'),
  },
];

/** What the route tree is made of: the real parts by default; a test swaps some. */
export interface RouteParts {
  /** The root's element (the guard). */
  root: ReactNode;
  loginLayout: Lazy;
  mainLayout: Lazy;
  mainRoutes: readonly MainRoute[];
  /** The pause before a chunk's second try. */
  retryPauseMs: number;
}

const REAL_PARTS: RouteParts = {
  root: <Guard />,
  loginLayout: async () => ({ Component: (await import('./layouts/LoginLayout')).LoginLayout }),
  mainLayout: async () => ({ Component: (await import('./layouts/MainLayout')).MainLayout }),
  mainRoutes: MAIN_ROUTES,
  retryPauseMs: RETRY_PAUSE_MS,
};

/** The route tree, every `lazy` loaded twice before it fails, with the error pages in place. */
export function makeRoutes(parts: Partial<RouteParts> = {}): RouteObject[] {
  const { root, loginLayout, mainLayout, mainRoutes, retryPauseMs } = { ...REAL_PARTS, ...parts };
  const lazy = (load: Lazy) => loadTwice(load, retryPauseMs);
  return [
    {
      path: '/',
      element: root,
      // A layout (or the guard) that fails: the error over the whole window, no layout around it.
      errorElement: <RootError />,
      HydrateFallback: FullPageSpin,
      children: [
        // `/` itself never renders: the guard sends it to the first page (or /no-access).
        { index: true, element: null },
        {
          lazy: lazy(loginLayout),
          children: [
            { path: 'login', lazy: lazy(() => import('../features/auth/SignInPage')) },
            { path: 'login/two-factor', lazy: lazy(() => import('../features/auth/TwoFactorPage')) },
          ],
        },
        {
          lazy: lazy(mainLayout),
          children: [
            {
              // A page that fails shows its error in the layout's page area: the menu and header stay.
              errorElement: <PageError />,
              children: [
                ...mainRoutes.map((route): RouteObject => ({
                  path: route.path.slice(1),
                  handle: { treePath: route.treePath } satisfies RouteHandle,
                  lazy: lazy(route.lazy),
                })),
                { path: 'no-access', lazy: lazy(() => import('../features/common/NoAccessPage')) },
                // A page the tree grants but this client has no screen for yet (or an unknown path, which
                // the guard sends to /no-access because it is not in the tree).
                { path: '*', lazy: lazy(() => import('../features/common/UnbuiltPage')) },
              ],
            },
          ],
        },
      ],
    },
  ];
}

export function createRouter() {
  return createHashRouter(makeRoutes());
}
