/**
 * An administrator sets up a clerk: creates a role with a few page permissions and a user with that
 * role through the administration screens; the clerk signs in and sees only the permitted menu
 * entries; the administrator then widens the role's matrix and resets the clerk's password, and the
 * clerk signs in with the temporary one and sees the new entry. Screenshots of the users list and the
 * permission matrix in Arabic and English go to test-results/screens/.
 */
import { expect, test } from './fixtures';
import { ADMIN, Api } from './support/api';
import { AdminRolesScreen, AdminShell, AdminUsersScreen } from './pages/AdminScreens';

const CLERK = {
  username: 'archive.clerk',
  email: 'archive.clerk@sijill.test',
  nameAr: 'أمين الأرشيف',
  nameEn: 'Archive Clerk',
  password: 'Clerk#2025',
};
const ROLE = { nameAr: 'موظف الأرشيف', nameEn: 'Archive Staff' };
const SCREENS = 'test-results/screens';

test.describe.configure({ mode: 'serial' });

test('an administrator creates a role and a user, and the user sees only the permitted menu entries', async ({
  page,
  shell,
}) => {
  await Api.administrator(shell.apiBaseUrl);
  const app = new AdminShell(page);
  const roles = new AdminRolesScreen(page);
  const users = new AdminUsersScreen(page);

  await app.open(shell.url);
  await app.signIn(ADMIN.username, ADMIN.password);

  // A role holding view on Employees and Jobs, and add on Jobs.
  await app.goTo(shell.url, '/auth/roles');
  await expect(roles.screen()).toBeVisible();
  await roles.addRole(ROLE);
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/admin-roles-ar.png` });
  await roles.openMatrix(ROLE.nameEn);
  await roles.grant('/ec/employees', 'view');
  await roles.grant('/ec/jobs', 'add');
  await expect(roles.cell('/ec/jobs', 'view')).toBeChecked();
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/admin-matrix-ar.png` });
  await roles.saveMatrix();

  // A user with that role.
  await app.goTo(shell.url, '/auth/users');
  await expect(users.screen()).toBeVisible();
  await users.addUser({ ...CLERK, role: ROLE.nameAr });
  await expect(users.row(CLERK.username)).toContainText(ROLE.nameAr);
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/admin-users-ar.png` });

  // The same screens in English.
  await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(users.row(CLERK.username)).toContainText(ROLE.nameEn);
  await expect(users.screen().getByRole('heading', { name: 'Users' })).toBeVisible();
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/admin-users-en.png` });
  await app.goTo(shell.url, '/auth/roles');
  await roles.openMatrix(ROLE.nameEn);
  await expect(roles.cell('/ec/employees', 'view')).toBeChecked();
  await expect(roles.cell('/ec/jobs', 'add')).toBeChecked();
  await expect(roles.cell('/auth/users', 'view')).not.toBeChecked();
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/admin-matrix-en.png` });
  await page.keyboard.press('Escape');
  await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await app.signOut();

  // The clerk sees Employee Center with Employees and Jobs, their personal pages, and nothing else.
  await app.signIn(CLERK.username, CLERK.password);
  const entries = await app.menuEntries();
  expect(entries).toEqual(expect.arrayContaining(['مركز الموظفين', 'الموظفون', 'الوظائف']));
  for (const hidden of [
    'إدارة النظام',
    'المستخدمون',
    'الأدوار والصلاحيات',
    'البريد الوارد',
    'الإدارات والأقسام',
  ]) {
    expect(entries).not.toContain(hidden);
  }
  // A deep link to an administration page is refused.
  await app.goTo(shell.url, '/auth/users');
  await expect(page).toHaveURL(/#\/no-access/);
  await app.signOut();
});

test('the administrator widens the matrix and resets the clerk password; the clerk signs in with it', async ({
  page,
  shell,
}) => {
  const app = new AdminShell(page);
  const roles = new AdminRolesScreen(page);
  const users = new AdminUsersScreen(page);

  await app.open(shell.url);
  await app.signIn(ADMIN.username, ADMIN.password);
  await app.goTo(shell.url, '/auth/roles');
  await roles.openMatrix(ROLE.nameEn);
  await roles.grant('/correspondence/inbox/incoming', 'view');
  await roles.saveMatrix();

  await app.goTo(shell.url, '/auth/users');
  await expect(users.row(CLERK.username)).toBeVisible();
  const temporary = await users.resetPassword(CLERK.username);
  expect(temporary.length).toBeGreaterThanOrEqual(6);
  await app.signOut();

  // The old password no longer works; the temporary one does, and the new page is in the menu.
  await page.getByTestId('login').fill(CLERK.username);
  await page.getByTestId('password').fill(CLERK.password);
  await page.getByTestId('sign-in').click();
  // Refused in place, above the form (no toast repeats it).
  await expect(page.getByTestId('sign-in-problem')).toContainText('اسم المستخدم أو كلمة المرور غير صحيحة');
  await app.signIn(CLERK.username, temporary);
  const entries = await app.menuEntries();
  expect(entries).toEqual(expect.arrayContaining(['البريد الوارد', 'الوارد', 'الموظفون', 'الوظائف']));
  expect(entries).not.toContain('المستخدمون');
});
