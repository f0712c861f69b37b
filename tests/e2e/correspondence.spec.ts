/**
 * A clerk's day with an incoming letter: the archive clerk registers a letter with a PDF and
 * distributes it for action to Finance and for knowledge to HR; Finance's manager tasks an
 * employee; the employee completes the task; the clerk sees the letter completed, and its timeline reads
 * correctly in Arabic and in English. Screenshots of the add form, the detail with its timeline and the
 * calendar, in both languages, go to test-results/screens/correspondence-*.png.
 */
import { expect, test } from './fixtures';
import { minimalPdf } from './support/pdf';
import { Api } from './support/api';
import { AdminShell } from './pages/AdminScreens';
import { CorrespondenceAddScreen, CorrespondenceDocumentScreen } from './pages/CorrespondenceScreens';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Corr#2025';

interface Seeded {
  clerk: string;
  manager: string;
  employee: string;
  employeeNameAr: string;
  employeeNameEn: string;
}

/** The organisation: archive office, Finance and HR under it, an external sender, three accounts. */
async function seed(api: Api): Promise<Seeded> {
  const dept = (body: Record<string, unknown>) => api.ok<{ id: number }>('POST', '/ec/departments', body);
  const archive = await dept({ nameAr: 'مكتب الأرشيف', nameEn: 'Archive Office', archiveType: 'inOut' });
  const finance = await dept({ nameAr: 'الشؤون المالية', nameEn: 'Finance', archiveOfficeId: archive.id });
  await dept({ nameAr: 'الموارد البشرية', nameEn: 'Human Resources', archiveOfficeId: archive.id });
  await dept({ nameAr: 'وزارة الصحة', nameEn: 'Ministry of Health', type: 'external', isEntity: true });
  const job = await api.ok<{ id: number }>('POST', '/ec/jobs', {
    nameAr: 'موظف',
    nameEn: 'Officer',
    isManager: false,
  });
  await api.ok('POST', '/correspondence/settings/codifications', {
    nameAr: 'وارد عام',
    nameEn: 'General incoming',
    prefix: 'IN',
    direction: 'in',
  });

  const clerkRole = await api.createRole('Archive Clerk', {
    '/correspondence/inbox/add': ['add'],
    '/correspondence/inbox/draft': ['add', 'edit', 'delete'],
    '/correspondence/inbox/incoming': ['edit', 'distribute'],
  });
  const managerRole = await api.createRole('Department Manager', {
    '/correspondence/inbox/incoming': ['edit'],
    '/correspondence/inbox/incoming-tasks': ['edit'],
  });
  const employeeRole = await api.createRole('Officer', {
    '/correspondence/inbox/incoming-tasks': ['edit'],
    '/correspondence/inbox/follow-ups': [],
    '/user/calendar': [],
  });
  const person = async (username: string, first: [string, string], departmentId: number, roleId: number) =>
    api.ok<{ id: number }>('POST', '/ec/employees', {
      firstNameAr: first[0],
      lastNameAr: 'العتيبي',
      firstNameEn: first[1],
      lastNameEn: 'Alotaibi',
      departmentId,
      jobId: job.id,
      user: { username, email: `${username}@sijill.test`, roleId, password: PASSWORD },
    });
  await person('clerk', ['سعد', 'Saad'], archive.id, clerkRole);
  const manager = await person('manager', ['منى', 'Mona'], finance.id, managerRole);
  await person('officer', ['خالد', 'Khalid'], finance.id, employeeRole);
  await api.ok('PUT', `/ec/departments/${finance.id}/configure`, { managerEmployeeId: manager.id });
  return {
    clerk: 'clerk',
    manager: 'manager',
    employee: 'officer',
    employeeNameAr: 'خالد العتيبي',
    employeeNameEn: 'Khalid Alotaibi',
  };
}

test.describe.configure({ mode: 'serial' });

test('a clerk registers an incoming letter, distributes it, a manager tasks an employee who completes it', async ({
  page,
  shell,
}) => {
  test.setTimeout(240_000);
  const people = await seed(await Api.administrator(shell.apiBaseUrl));
  const app = new AdminShell(page);
  const add = new CorrespondenceAddScreen(page);
  const doc = new CorrespondenceDocumentScreen(page);

  // The clerk registers the letter with its PDF (in Arabic, the default).
  await app.open(shell.url);
  await app.signIn(people.clerk, PASSWORD);
  await app.goTo(shell.url, '/correspondence/inbox/add');
  await add.fill({
    codification: 'وارد عام',
    subject: 'طلب اعتماد ميزانية المشروع',
    summary: 'تطلب الوزارة اعتماد ميزانية المرحلة الثانية.',
    sender: 'وزارة الصحة',
    senderNumber: 'MOH-4471',
    recipient: 'الشؤون المالية',
    documentDate: new Date().toLocaleDateString('en-US', {
      month: '2-digit',
      day: '2-digit',
      year: '2-digit',
    }),
    pdf: { name: 'letter.pdf', buffer: minimalPdf() },
  });
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/correspondence-add-ar.png`, fullPage: true });
  const number = await add.register();
  expect(number).toMatch(/^IN-\d{4}-\d+$/);
  await page.getByTestId('registered-open').click();
  await expect(doc.screen()).toBeVisible();
  const documentPath = new URL(page.url()).hash.slice(1);
  await expect(page.getByTestId('tag-not-distributed')).toBeVisible();
  await expect(page.getByTestId('attachments-panel')).toContainText('letter.pdf');

  // Distributed for action to Finance and for knowledge to HR.
  await doc.distribute([
    { department: 'الشؤون المالية', type: 'forAction', notes: 'للدراسة والإفادة' },
    { department: 'الموارد البشرية', type: 'forKnowledge', notes: 'للاطلاع' },
  ]);
  await expect(page.getByTestId('tag-distributed')).toBeVisible();
  await expect(doc.distribution()).toContainText('للإجراء');
  await expect(doc.distribution()).toContainText('للعلم');
  await app.signOut();

  // Finance's manager tasks the officer.
  await app.signIn(people.manager, PASSWORD);
  await app.goTo(shell.url, documentPath);
  await expect(doc.screen()).toBeVisible();
  await doc.assignTask(people.employeeNameAr, 'يرجى إعداد الرد');
  await expect(doc.tasks()).toContainText(people.employeeNameAr);
  await app.signOut();

  // The officer completes it from their tasks.
  await app.signIn(people.employee, PASSWORD);
  await app.goTo(shell.url, '/correspondence/inbox/incoming-tasks');
  await page.getByTestId('tasks-list-table').getByText('طلب اعتماد ميزانية المشروع').click();
  await expect(doc.screen()).toBeVisible();
  // Completing asks first, with a place for the result, which the timeline then shows.
  await page.getByTestId('task-complete').click();
  await page.getByTestId('task-note').fill('أُعدّ الرد وأُرسل إلى المدير');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/correspondence-complete-task-ar.png` });
  await page.getByRole('dialog').getByRole('button', { name: 'تأكيد الإنجاز' }).click();
  await expect(doc.tasks().getByTestId('task-state-completed')).toBeVisible();
  await app.goTo(shell.url, '/user/calendar');
  await expect(page.getByTestId('calendar')).toBeVisible();
  await expect(page.getByTestId('cal-hijri-title')).toBeVisible();
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/correspondence-calendar-ar.png` });
  await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByTestId('cal-hijri-title')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/correspondence-calendar-en.png` });
  await app.switchLanguage();
  await app.signOut();

  // The clerk sees it completed, and the timeline tells the story in Arabic and in English.
  await app.signIn(people.clerk, PASSWORD);
  await app.goTo(shell.url, documentPath);
  await expect(page.getByTestId('tag-completed')).toBeVisible();
  const timeline = doc.timeline();
  await expect(timeline).toContainText(`سُجّلت برقم ${number}`);
  await expect(timeline).toContainText('أُحيلت إلى الشؤون المالية للإجراء');
  await expect(timeline).toContainText('أُحيلت إلى الموارد البشرية للعلم');
  await expect(timeline).toContainText(`كُلّف ${people.employeeNameAr} بمهمة`);
  await expect(timeline).toContainText(`أنجز ${people.employeeNameAr} المهمة`);
  await expect(timeline).toContainText('أُعدّ الرد وأُرسل إلى المدير');
  await app.closeToasts();
  await page.screenshot({ path: `${SCREENS}/correspondence-detail-ar.png`, fullPage: true });

  await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(timeline).toContainText(`Registered with number ${number}`);
  await expect(timeline).toContainText('Distributed to Finance for action');
  await expect(timeline).toContainText('Distributed to Human Resources for information');
  await expect(timeline).toContainText(`Tasked ${people.employeeNameEn}`);
  await expect(timeline).toContainText(`${people.employeeNameEn} completed the task`);
  await page.screenshot({ path: `${SCREENS}/correspondence-detail-en.png`, fullPage: true });
  await app.goTo(shell.url, '/correspondence/inbox/add');
  await expect(add.form()).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/correspondence-add-en.png`, fullPage: true });
});
