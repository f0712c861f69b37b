/** Page objects of the Employee Centre screens: the department tree, jobs and the employee drawer. */
import { expect, type Locator, type Page } from '@playwright/test';
import { chooseOption } from '../support/select';

/** Picks an option of an antd Select or TreeSelect by typing and clicking its visible label. */
const choose = (page: Page, select: Locator, label: string) =>
  chooseOption(page, select, label, { exact: true });

/** /ec/departments. */
export class DirectoryDepartmentsScreen {
  constructor(readonly page: Page) {}
  readonly screen = () => this.page.getByTestId('directory-departments');
  readonly tree = () => this.page.getByTestId('department-tree');
  readonly node = (nameEn: string) => this.page.getByTestId(`department-node-${nameEn}`);

  async addMain(names: { nameAr: string; nameEn: string }) {
    await this.page.getByTestId('department-add-main').click();
    await this.fill(names);
  }

  async addChild(parentEn: string, names: { nameAr: string; nameEn: string }) {
    await this.select(parentEn);
    await this.page.getByTestId('department-add-child').click();
    await this.fill(names);
  }

  /** Selects a node and waits for its details (a click during the dialog's closing animation may be lost). */
  async select(nameEn: string) {
    await expect(async () => {
      await this.node(nameEn).click();
      await expect(this.page.getByTestId('department-detail-title')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  }

  async search(text: string) {
    await this.page.getByTestId('department-search').locator('input').fill(text);
  }

  private async fill({ nameAr, nameEn }: { nameAr: string; nameEn: string }) {
    const form = this.page.getByTestId('department-form');
    await form.getByTestId('department-name-ar').fill(nameAr);
    await form.getByTestId('department-name-en').fill(nameEn);
    await this.page.getByTestId('department-form-save').click();
    await form.waitFor({ state: 'detached' });
  }
}

/** /ec/jobs. */
export class DirectoryJobsScreen {
  constructor(readonly page: Page) {}
  readonly screen = () => this.page.getByTestId('directory-jobs');

  async addJob(job: { nameAr: string; nameEn: string; isManager: boolean }) {
    await this.page.getByTestId('job-add').click();
    const form = this.page.getByTestId('job-form');
    await form.getByTestId('job-name-ar').fill(job.nameAr);
    await form.getByTestId('job-name-en').fill(job.nameEn);
    if (job.isManager) await form.getByTestId('job-is-manager').click();
    await this.page.getByTestId('job-form-save').click();
    await form.waitFor({ state: 'detached' });
  }
}

/** /ec/employees and its drawer. */
export class DirectoryEmployeesScreen {
  constructor(readonly page: Page) {}
  readonly screen = () => this.page.getByTestId('directory-employees');
  readonly dashboard = () => this.page.getByTestId('employee-dashboard');
  readonly table = () => this.page.getByTestId('employees-table');
  readonly form = () => this.page.getByTestId('employee-form');

  async openAdd() {
    await this.page.getByTestId('employee-add').click();
    await this.form().waitFor();
  }

  async tab(label: string) {
    await this.page.getByRole('tab', { name: label }).click();
  }

  /** Fills the four tabs of a new employee with an account; tab labels in the current language. */
  async fillEmployee(
    e: {
      firstNameAr: string;
      lastNameAr: string;
      firstNameEn: string;
      lastNameEn: string;
      phoneNumber: string;
      department: string;
      job: string;
      account: { username: string; email: string; role: string; password: string };
    },
    tabs: { basic: string; employment: string; job: string; create: string },
  ) {
    const form = this.form();
    await this.tab(tabs.basic);
    await form.getByTestId('employee-firstNameAr').fill(e.firstNameAr);
    await form.getByTestId('employee-lastNameAr').fill(e.lastNameAr);
    await form.getByTestId('employee-firstNameEn').fill(e.firstNameEn);
    await form.getByTestId('employee-lastNameEn').fill(e.lastNameEn);
    await form.getByTestId('employee-phoneNumber').fill(e.phoneNumber);
    await this.tab(tabs.job);
    await choose(this.page, form.getByTestId('employee-department'), e.department);
    await choose(this.page, form.getByTestId('employee-job'), e.job);
    await this.tab(tabs.employment);
    await form.getByText(tabs.create, { exact: true }).click();
    await form.getByTestId('employee-username').fill(e.account.username);
    await form.getByTestId('employee-email').fill(e.account.email);
    await choose(this.page, form.getByTestId('employee-role'), e.account.role);
    await form.getByTestId('employee-password').fill(e.account.password);
    await form.getByTestId('employee-passwordConfirmation').fill(e.account.password);
  }

  async save() {
    await this.page.getByTestId('employee-save').click();
    await this.form().waitFor({ state: 'detached' });
  }
}
