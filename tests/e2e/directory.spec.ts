/**
 * An administrator builds the organisation in the Employee Centre: a two-level department tree, a
 * manager job, and an employee with a user account created in the same step; that employee then signs
 * in. The tree and the forms are checked in both directions (Arabic RTL, English LTR), and screenshots
 * of the employees dashboard and list, the employee form and the department tree in both languages go
 * to test-results/screens/.
 */
import { expect, test } from './fixtures';
import { ADMIN, Api } from './support/api';
import { AdminShell } from './pages/AdminScreens';
import { LoginPage } from './pages/LoginPage';
import {
  DirectoryDepartmentsScreen,
  DirectoryEmployeesScreen,
  DirectoryJobsScreen,
} from './pages/DirectoryScreens';

const SCREENS = 'test-results/screens';
const MAIN = { nameAr: 'الإدارة العامة للشؤون الإدارية', nameEn: 'General Administrative Affairs' };
const CHILD = { nameAr: 'إدارة الموارد البشرية', nameEn: 'Human Resources' };
const JOB = { nameAr: 'مدير إدارة', nameEn: 'Department Manager', isManager: true };
const PASSWORD = 'Manager#2025';
const EMPLOYEE = {
  firstNameAr: 'سارة',
  lastNameAr: 'العتيبي',
  firstNameEn: 'Sara',
  lastNameEn: 'Alotaibi',
  phoneNumber: '+966 50 123 4567',
  department: CHILD.nameAr,
  job: JOB.nameAr,
  account: { username: 'sara.hr', email: 'sara.hr@sijill.test', role: 'HR Manager', password: PASSWORD },
};

test.describe.configure({ mode: 'serial' });

test('an administrator builds a two-level tree, a manager job and an employee with an account, who signs in', async ({
  page,
  shell,
}) => {
  // A whole afternoon's work in one scenario, in both languages: longer than the default budget.
  test.setTimeout(240_000);
  const api = await Api.administrator(shell.apiBaseUrl);
  // The role the new account gets: it may see the employees list.
  const roleId = await api.createRole('HR Manager', { '/ec/employees': [] });
  expect(roleId).toBeGreaterThan(0);
  EMPLOYEE.account.role = 'دور HR Manager';

  const app = new AdminShell(page);
  const departments = new DirectoryDepartmentsScreen(page);
  const jobs = new DirectoryJobsScreen(page);
  const employees = new DirectoryEmployeesScreen(page);
  await app.open(shell.url);
  await app.signIn(ADMIN.username, ADMIN.password);

  // The tree, in Arabic (RTL): a main department and one under it.
  await app.goTo(shell.url, '/ec/departments');
  await expect(departments.screen()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByTestId('department-tree-empty')).toHaveText('لا توجد إدارات');
  await departments.addMain(MAIN);
  await expect(departments.node(MAIN.nameEn)).toContainText(MAIN.nameAr);
  await departments.addChild(MAIN.nameEn, CHILD);
  await expect(departments.node(CHILD.nameEn)).toContainText(CHILD.nameAr);
  // The child is nested under the main department, indented toward the inline start (the right in RTL).
  const mainBox = (await departments.node(MAIN.nameEn).boundingBox())!;
  const childBox = (await departments.node(CHILD.nameEn).boundingBox())!;
  expect(childBox.y).toBeGreaterThan(mainBox.y);
  expect(childBox.x + childBox.width).toBeLessThan(mainBox.x + mainBox.width);
  // Search in Arabic without hamza or ta marbuta still finds it.
  await departments.search('الموارد البشريه');
  await expect(departments.node(CHILD.nameEn)).toBeVisible();
  await departments.search('');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/directory-tree-ar.png` });

  // A manager job.
  await app.goTo(shell.url, '/ec/jobs');
  await jobs.addJob(JOB);
  await expect(page.getByTestId('jobs-table')).toContainText(JOB.nameAr);

  // An employee with a new account, in the same step.
  await app.goTo(shell.url, '/ec/employees');
  await expect(employees.screen()).toBeVisible();
  await expect(page.getByTestId('employees-table-empty')).toHaveText('لا يوجد موظفون');
  await employees.openAdd();
  await employees.fillEmployee(EMPLOYEE, {
    basic: 'البيانات الأساسية',
    employment: 'بيانات التوظيف',
    job: 'بيانات الوظيفة',
    create: 'إنشاء حساب جديد',
  });
  await employees.tab('البيانات الأساسية');
  await page.screenshot({ path: `${SCREENS}/directory-employee-form-ar.png` });
  await employees.save();
  await expect(employees.table()).toContainText('سارة العتيبي');
  await expect(employees.dashboard()).toContainText(CHILD.nameAr);
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/directory-employees-ar.png`, fullPage: true });

  // The same screens in English (LTR): names in Latin script, the tree mirrored.
  await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(employees.table()).toContainText('Sara Alotaibi');
  await expect(employees.dashboard()).toContainText(CHILD.nameEn);
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/directory-employees-en.png`, fullPage: true });
  await employees.table().getByText('Sara Alotaibi').click();
  await expect(employees.form()).toBeVisible();
  await expect(employees.form().getByTestId('employee-firstNameEn')).toHaveValue('Sara');
  await employees.tab('Employment info');
  await expect(page.getByTestId('employee-linked-user')).toContainText('sara.hr');
  await page.screenshot({ path: `${SCREENS}/directory-employee-form-en.png` });
  await page.keyboard.press('Escape');

  await app.goTo(shell.url, '/ec/departments');
  await expect(departments.node(CHILD.nameEn)).toContainText(CHILD.nameEn);
  const mainEn = (await departments.node(MAIN.nameEn).boundingBox())!;
  const childEn = (await departments.node(CHILD.nameEn).boundingBox())!;
  expect(childEn.x).toBeGreaterThan(mainEn.x);
  await departments.node(CHILD.nameEn).click();
  await expect(page.getByTestId('department-detail-title')).toHaveText(CHILD.nameEn);
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/directory-tree-en.png` });
  await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await app.signOut();

  // The new employee signs in with the account made for them and reaches the employees list.
  const login = new LoginPage(page);
  await expect(login.title()).toBeVisible();
  await app.signIn(EMPLOYEE.account.username, PASSWORD);
  await expect(page.getByTestId('side-menu')).toBeVisible();
  await app.goTo(shell.url, '/ec/employees');
  await expect(employees.table()).toContainText('سارة العتيبي');
  await expect(page.getByTestId('employee-add')).toHaveCount(0);
});
