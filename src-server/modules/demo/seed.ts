/**
 * Demo data for trying the system (`npm run server -- seed-demo`): the menu with the mail first, a
 * clerk, a manager and a plain employee
 * role with sensible page permissions, a clerk, a manager and an administrator account; then the demo directory (modules/demo/directory.ts);
 * then the correspondence settings lists and an archive office's letters (modules/demo/correspondence.ts).
 * Idempotent: existing roles, users, a directory, settings or documents are left alone.
 */
import { eq, inArray } from 'drizzle-orm';
import type { Permission } from '../../../src-shared/permissions';
import type { ServerContext } from '../../context';
import { pages, rolePagePermissions, roles, users } from '../../db/schema';
import { insertUser } from '../auth/queries';
import { seedDemoCorrespondence } from './correspondence';
import { seedDemoDirectory } from './directory';
import { PAGES, SECTIONS } from '../../../src-shared/pages';
import { INITIAL_PAGE_TREE } from '../../db/page-tree';
import type { Tx } from '../auth/queries';

/** What the demo's clerk and manager both hold. */
const CORRESPONDENCE: Record<string, Permission[]> = {
  [PAGES.employees]: ['view'],
  [PAGES.departments]: ['view'],
  [PAGES.incoming]: ['view', 'edit', 'distribute'],
  [PAGES.followUps]: ['view', 'edit'],
  [PAGES.incomingTasks]: ['view', 'edit'],
  [PAGES.inboxDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.inboxAdd]: ['view', 'add'],
  [PAGES.outgoing]: ['view', 'edit'],
  [PAGES.outboxDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.outboxAdd]: ['view', 'add'],
  [PAGES.outboxAwaitingApproval]: ['view'],
  [PAGES.approvedMemos]: ['view'],
  [PAGES.memoDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.memoAdd]: ['view', 'add'],
  [PAGES.memosAwaitingApproval]: ['view'],
  [PAGES.search]: ['view'],
};
const CLERK: Record<string, Permission[]> = {
  ...CORRESPONDENCE,
  // The archive clerk's dashboard and the reports (issue 30).
  [PAGES.archiveDashboard]: ['view'],
  [PAGES.reports]: ['view'],
};
const MANAGER: Record<string, Permission[]> = {
  ...CORRESPONDENCE,
  [PAGES.employees]: ['view', 'export'],
  [PAGES.jobs]: ['view'],
  [PAGES.secretaryOffices]: ['view'],
  [PAGES.incoming]: ['view', 'edit', 'distribute', 'export'],
  [PAGES.outgoing]: ['view', 'edit', 'distribute', 'export'],
  [PAGES.outboxRequiringApproval]: ['view', 'approve'],
  [PAGES.approvedMemos]: ['view', 'distribute', 'export'],
  [PAGES.memosRequiringApproval]: ['view', 'approve'],
  [PAGES.mediums]: ['view'],
  [PAGES.priorities]: ['view'],
  [PAGES.securityLevels]: ['view'],
  [PAGES.codifications]: ['view'],
  [PAGES.mainDistribution]: ['view'],
  // Their departments' dashboard and the reports with their exports (issue 30).
  [PAGES.managerDashboard]: ['view'],
  [PAGES.reports]: ['view', 'export'],
};

/**
 * A plain employee: the letters and memos that reached their department (read only: tasking and
 * distributing are the manager's), the tasks given to them and the follow-ups they keep (personal pages
 * come with every role).
 */
const EMPLOYEE: Record<string, Permission[]> = {
  [PAGES.incoming]: ['view'],
  [PAGES.incomingTasks]: ['view', 'edit'],
  [PAGES.followUps]: ['view', 'edit'],
  // Employees write outgoing letters and memos, and give their opinion when a circuit asks them.
  [PAGES.outboxDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.outboxAdd]: ['view', 'add'],
  [PAGES.outboxAwaitingApproval]: ['view'],
  [PAGES.outboxRequiringApproval]: ['view', 'approve'],
  [PAGES.memoDrafts]: ['view', 'add', 'edit', 'delete'],
  [PAGES.memoAdd]: ['view', 'add'],
  [PAGES.memosAwaitingApproval]: ['view'],
  [PAGES.memosRequiringApproval]: ['view', 'approve'],
  [PAGES.approvedMemos]: ['view'],
  [PAGES.search]: ['view'],
};

/**
 * The demo's order of the menu: the mail first, so the first page of a clerk, a manager and an employee
 * (where `/` leads them unless they chose a home page) is their own box — the incoming mail of their
 * archive office or of their department, the tasks given to them next — rather than the employees directory, which the initial tree puts first as the
 * specification lists it. Sections (under null), then the inbox's pages: the tasks before follow-ups.
 */
const DEMO_ORDER: readonly { parent: string | null; paths: readonly string[] }[] = [
  {
    parent: null,
    paths: [
      SECTIONS.inbox,
      SECTIONS.outbox,
      SECTIONS.memos,
      SECTIONS.search,
      SECTIONS.dashboards,
      SECTIONS.ec,
      SECTIONS.settings,
      SECTIONS.auth,
      SECTIONS.user,
    ],
  },
  {
    parent: SECTIONS.inbox,
    paths: [PAGES.incoming, PAGES.incomingTasks, PAGES.followUps, PAGES.inboxDrafts, PAGES.inboxAdd],
  },
];

/**
 * Puts the menu in the demo's order, level by level, unless an administrator has ordered that level
 * already (it is no longer in the initial tree's order): answers whether it changed anything.
 */
async function orderDemoMenu(tx: Tx): Promise<boolean> {
  const rows = await tx
    .select({ id: pages.id, parentId: pages.parentId, path: pages.path, order: pages.order })
    .from(pages);
  const idOf = new Map(rows.map((r) => [r.path, r.id]));
  let changed = false;
  for (const { parent, paths } of DEMO_ORDER) {
    const parentId = parent === null ? null : (idOf.get(parent) ?? -1);
    const initial =
      parent === null
        ? INITIAL_PAGE_TREE.map((section) => section.path)
        : (INITIAL_PAGE_TREE.find((section) => section.path === parent)?.pages.map((p) => p.path) ?? []);
    const level = rows.filter((r) => r.parentId === parentId);
    const current = [...level].sort((a, b) => a.order - b.order || a.id - b.id).map((r) => r.path);
    if (current.filter((path) => initial.includes(path)).join() !== initial.join()) continue;
    for (const row of level) {
      const at = paths.indexOf(row.path);
      if (at >= 0)
        await tx
          .update(pages)
          .set({ order: (at + 1) * 10 })
          .where(eq(pages.id, row.id));
    }
    changed = true;
  }
  return changed;
}

/** Loads the demo roles and users; `password` is every demo user's password. Returns what was created. */
export async function seedDemo(ctx: ServerContext, password: string): Promise<string[]> {
  const created: string[] = [];
  const passwordHash = await ctx.passwords.hash(password);
  const demo = [
    {
      nameEn: 'Archive Clerk',
      nameAr: 'موظف أرشيف',
      grants: CLERK,
      username: 'clerk',
      email: 'clerk@example.com',
      userAr: 'موظف الأرشيف',
      userEn: 'Archive Clerk',
    },
    {
      nameEn: 'Department Manager',
      nameAr: 'مدير إدارة',
      grants: MANAGER,
      username: 'manager',
      email: 'manager@example.com',
      userAr: 'مدير الإدارة',
      userEn: 'Department Manager',
    },
    {
      nameEn: 'Employee',
      nameAr: 'موظف',
      grants: EMPLOYEE,
      username: null,
      email: null,
      userAr: null,
      userEn: null,
    },
  ];
  await ctx.db.transaction(async (tx) => {
    if (await orderDemoMenu(tx)) created.push('the menu in the demo order (mail first)');
    const pageRows = await tx.select({ id: pages.id, path: pages.path }).from(pages);
    const pageId = new Map(pageRows.map((p) => [p.path, p.id]));
    for (const d of demo) {
      let [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.nameEn, d.nameEn)).limit(1);
      if (!role) {
        [role] = await tx
          .insert(roles)
          .values({ nameAr: d.nameAr, nameEn: d.nameEn })
          .returning({ id: roles.id });
        await tx.insert(rolePagePermissions).values(
          Object.entries(d.grants)
            .filter(([path]) => pageId.has(path))
            .map(([path, permissions]) => ({ roleId: role!.id, pageId: pageId.get(path)!, permissions })),
        );
        created.push(`role ${d.nameEn}`);
      }
      if (d.username === null) continue; // a role for the directory's demo employees
      const existing = await tx
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.username, [d.username]));
      if (!existing.length) {
        await insertUser(tx, {
          username: d.username,
          email: d.email!,
          passwordHash,
          nameAr: d.userAr!,
          nameEn: d.userEn!,
          roleId: role!.id,
          locale: 'ar',
          active: true,
        });
        created.push(`user ${d.username}`);
      }
    }
  });
  // An administrator, so a newcomer can open the administration screens too.
  await ctx.db.transaction(async (tx) => {
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.username, 'admin'));
    if (taken) return;
    const [system] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.isSystem, true)).limit(1);
    if (!system) return;
    await insertUser(tx, {
      username: 'admin',
      email: 'admin@example.com',
      passwordHash,
      nameAr: 'مدير النظام',
      nameEn: 'System Administrator',
      roleId: system.id,
      locale: 'ar',
      active: true,
    });
    created.push('user admin (administrator)');
  });
  // The directory (departments, entities, jobs, ~200 employees; employee1–5 with the plain employee
  // role, three of them in the demo manager's department), once.
  const [employeeRole] = await ctx.db
    .select({ id: roles.id })
    .from(roles)
    .where(eq(roles.nameEn, 'Employee'))
    .limit(1);
  const directory = await seedDemoDirectory(ctx, passwordHash, employeeRole?.id ?? null);
  if (directory.length) created.push(...directory);
  else created.push('directory already present (left as is)');
  created.push(...(await seedDemoCorrespondence(ctx)));
  return created;
}
