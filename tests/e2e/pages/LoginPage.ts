/** Page object of the login layout: first run, sign-in, connection settings. */
import type { Page } from '@playwright/test';
import type { WebShellProcess } from '../fixtures';
import { chooseInDropdown } from '../support/dropdown';

export class LoginPage {
  constructor(readonly page: Page) {}

  readonly html = () => this.page.locator('html');
  readonly title = () => this.page.getByTestId('sign-in-title');
  readonly form = () => this.page.getByTestId('sign-in-form');
  readonly firstRun = () => this.page.getByTestId('first-run');
  readonly sessionEnded = () => this.page.getByTestId('session-ended');

  /** Opens the client at a hash path (`/login` by default the guard decides). */
  async open(shell: WebShellProcess, path = '/') {
    await this.page.goto(`${shell.url}#${path}`);
  }

  /**
   * Opens the client signed out: the session lives in main (the shell), so a test that follows a signed-in
   * one signs out first.
   */
  async openSignedOut(shell: WebShellProcess, path = '/') {
    await this.open(shell);
    const menu = this.page.getByTestId('side-menu');
    await menu.or(this.title()).or(this.firstRun()).first().waitFor();
    if (await menu.isVisible()) {
      await chooseInDropdown(this.page, this.page.getByTestId('user-menu'), (menu) =>
        menu.locator('.ant-dropdown-menu-item-danger'),
      );
      await this.title().waitFor();
    }
    if (path !== '/') {
      await this.open(shell, path);
      // The guard answers the deep link with /login: type only once the sign-in form is the one shown.
      await this.page.waitForURL(/#\/login$/);
      await this.title().waitFor();
    }
  }

  async switchTo(label: 'English' | 'العربية') {
    await this.page.getByTestId('language-switch').getByText(label, { exact: true }).click();
  }

  async signIn(login: string, password: string, { remember = true }: { remember?: boolean } = {}) {
    await this.page.getByTestId('login').fill(login);
    await this.page.getByTestId('password').fill(password);
    const box = this.page.getByTestId('remember-me');
    if ((await box.isChecked()) !== remember) await box.click();
    await this.page.getByTestId('sign-in').click();
  }

  async createAdministrator(admin: {
    username: string;
    email: string;
    password: string;
    nameAr: string;
    nameEn: string;
  }) {
    await this.page.getByTestId('first-run-name-ar').fill(admin.nameAr);
    await this.page.getByTestId('first-run-name-en').fill(admin.nameEn);
    await this.page.getByTestId('first-run-username').fill(admin.username);
    await this.page.getByTestId('first-run-email').fill(admin.email);
    await this.page.getByTestId('first-run-password').fill(admin.password);
    await this.page.getByTestId('first-run-password-confirmation').fill(admin.password);
    await this.page.getByTestId('first-run-submit').click();
  }
}
