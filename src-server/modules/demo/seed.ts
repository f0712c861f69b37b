/**
 * Demo data for trying the system (`npm run server -- seed-demo`): a clerk, a manager and a plain employee
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
import { PAGES } from '../../../src-shared/pages';

const CLERK: Record<string, Permission[]> = {
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
const MANAGER: Record<string, Permission[]> = {
  ...CLERK,
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
