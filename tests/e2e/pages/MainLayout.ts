/** Page object of the main layout: side menu, header, user menu, the page, no-access. */
import { expect, type Page } from '@playwright/test';
import { chooseInDropdown } from '../support/dropdown';

export class MainLayout {
  constructor(readonly page: Page) {}

  readonly html = () => this.page.locator('html');
  readonly menu = () => this.page.getByTestId('side-menu');
  readonly pageTitle = () => this.page.getByTestId('page-title');
  readonly headerTitle = () => this.page.getByTestId('header-title');
  readonly noAccess = () => this.page.getByTestId('no-access');

  /** The hash path of the current screen. */
  path(): string {
    return new URL(this.page.url()).hash.replace(/^#/, '') || '/';
  }

  /** Waits until the hash path is exactly `path`. */
  async expectPath(path: string) {
    await expect.poll(() => this.path()).toBe(path);
  }

  async openMenuSection(name: string) {
    await this.menu().getByRole('menuitem', { name }).first().click();
  }

  async go(path: string) {
    await this.page.evaluate((p) => (window.location.hash = p), path);
  }

  async toggleLanguage() {
    await this.page.getByTestId('language-toggle').click();
  }

  async openUserMenu() {
    await this.page.getByTestId('user-menu').click();
  }

  async logout() {
    await chooseInDropdown(this.page, this.page.getByTestId('user-menu'), (menu) =>
      menu.locator('.ant-dropdown-menu-item-danger'),
    );
  }
}
