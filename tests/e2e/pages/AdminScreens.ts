/**
 * Page objects of the administration screens (users, roles with the permission matrix) and the few
 * shell steps an administration story needs (sign in, skip the two-factor offer, sign out, the menu).
 * Locators use test ids and accessible names, so the same steps run in Arabic and in English.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { chooseInDropdown } from '../support/dropdown';
import { chooseOption } from '../support/select';

/** Signing in and out, and the side menu, as a clerk sees them. */
export class AdminShell {
  constructor(readonly page: Page) {}

  readonly menu = () => this.page.getByTestId('side-menu');

  /** Opens the client (optionally on a route) and waits for the sign-in form or the main layout. */
  async open(baseUrl: string, route = '/') {
    await this.page.goto(`${baseUrl}#${route}`);
  }

  /** Signs in with the form, skipping the two-factor enrolment offer if it shows. */
  async signIn(login: string, password: string) {
    await this.page.getByTestId('login').fill(login);
    await this.page.getByTestId('password').fill(password);
    await this.page.getByTestId('sign-in').click();
    const skip = this.page.getByTestId('two-factor-skip');
    await expect(this.menu().or(skip)).toBeVisible();
    if (await skip.isVisible()) await skip.click();
    await expect(this.menu()).toBeVisible();
  }

  async signOut() {
    await chooseInDropdown(this.page, this.page.getByTestId('user-menu'), (menu) =>
      menu.getByRole('menuitem').last(),
    );
    await expect(this.page.getByTestId('sign-in-form')).toBeVisible();
  }

  /** Goes to a route of the main layout (the guard checks it like a deep link). */
  async goTo(baseUrl: string, route: string) {
    await this.page.goto(`${baseUrl}#${route}`);
  }

  /** The visible names of the menu: sections and their pages (every section opened). */
  async menuEntries(): Promise<string[]> {
    const titles = this.menu().locator('.ant-menu-submenu-title');
    for (let i = 0; i < (await titles.count()); i += 1) {
      const submenu = titles.nth(i).locator('..');
      if (!(await submenu.getAttribute('class'))?.includes('ant-menu-submenu-open'))
        await titles.nth(i).click();
    }
    const texts = await this.menu().locator('.ant-menu-title-content').allInnerTexts();
    return texts.map((s) => s.trim()).filter(Boolean);
  }

  async switchLanguage() {
    await this.page.getByTestId('language-toggle').click();
  }

  /**
   * Waits for the toasts to go by themselves (3 s each, renewed when said again, and one raised over a
   * dialog shown only once it closes), so a screenshot shows the screen, not the last message. A toast
   * that stays is a defect: the failure says which.
   */
  async closeToasts() {
    await this.page.mouse.move(0, 0);
    const toasts = this.page.locator('.ant-notification-notice');
    try {
      await expect
        .poll(async () => (await toasts.allInnerTexts()).join(' | '), {
          message: 'a toast stayed on screen',
          // 3 s each, on a machine whose two cores also run the other suites.
          timeout: 25_000,
        })
        .toBe('');
    } catch (error) {
      // A toast's time runs on animation frames (antd): say whether the page still had them, and
      // whether it was visible, so a stalled browser is told apart from a toast that never closes.
      const state = await this.page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            const timer = setTimeout(() => resolve(`${document.visibilityState}, no animation frame`), 1000);
            requestAnimationFrame(() => {
              clearTimeout(timer);
              resolve(`${document.visibilityState}, animation frames running`);
            });
          }),
      );
      throw new Error(`${(error as Error).message}\n(the page: ${state})`, { cause: error });
    }
  }
}

/** Picks an option of an antd Select by its visible label (no typing: these lists are short). */
const choose = (page: Page, select: Locator, label: string) =>
  chooseOption(page, select, label, { type: false });

/** /auth/roles and the matrix dialog. */
export class AdminRolesScreen {
  constructor(readonly page: Page) {}

  readonly screen = () => this.page.getByTestId('admin-roles');
  readonly table = () => this.page.getByTestId('roles-table');
  readonly matrix = () => this.page.getByTestId('permission-matrix');

  async addRole(role: { nameAr: string; nameEn: string }) {
    await this.page.getByTestId('role-add').click();
    const form = this.page.getByTestId('role-form');
    await form.getByTestId('role-name-ar').fill(role.nameAr);
    await form.getByTestId('role-name-en').fill(role.nameEn);
    await this.page.getByTestId('role-form-save').click();
    await expect(form).toBeHidden();
    await expect(this.table().getByText(role.nameEn)).toBeVisible();
  }

  async openMatrix(nameEn: string) {
    await this.page.getByTestId(`role-permissions-${nameEn}`).click();
    await expect(this.matrix().locator('.ant-table-row').first()).toBeVisible();
  }

  /** A cell of the matrix, by page path and permission. */
  cell(path: string, permission: string) {
    return this.matrix().getByTestId(`matrix-cell-${path}-${permission}`);
  }

  async grant(path: string, permission: string) {
    await this.cell(path, permission).check();
  }

  async saveMatrix() {
    await this.page.getByTestId('matrix-save').click();
    await expect(this.matrix()).toBeHidden();
  }
}

/** /auth/users and its dialogs. */
export class AdminUsersScreen {
  constructor(readonly page: Page) {}

  readonly screen = () => this.page.getByTestId('admin-users');
  readonly table = () => this.page.getByTestId('users-table');
  row = (username: string) => this.table().locator('tr.ant-table-row').filter({ hasText: username });

  async addUser(user: {
    username: string;
    email: string;
    nameAr: string;
    nameEn: string;
    role: string;
    password: string;
  }) {
    await this.page.getByTestId('user-add').click();
    const form = this.page.getByTestId('user-form');
    await form.getByTestId('user-username').fill(user.username);
    await form.getByTestId('user-email').fill(user.email);
    await form.getByTestId('user-name-ar').fill(user.nameAr);
    await form.getByTestId('user-name-en').fill(user.nameEn);
    await choose(this.page, form.getByTestId('user-role'), user.role);
    await form.getByTestId('user-password').fill(user.password);
    await form.getByTestId('user-password-confirmation').fill(user.password);
    await this.page.getByTestId('user-form-save').click();
    await expect(form).toBeHidden();
    await expect(this.row(user.username)).toBeVisible();
  }

  /** Resets a user's password and answers the temporary one shown. */
  async resetPassword(username: string): Promise<string> {
    // The side menu's entries are menu items too: only the open dropdown's count.
    await chooseInDropdown(this.page, this.page.getByTestId(`user-more-${username}`), (menu) =>
      menu.getByRole('menuitem').nth(1),
    );
    await this.page.locator('.ant-modal-confirm .ant-btn-primary').click();
    const secret = this.page.getByTestId('temporary-password');
    await expect(secret).toBeVisible();
    const text = (await secret.innerText()).trim();
    await this.page.locator('.ant-modal-footer .ant-btn-primary:visible').click();
    await expect(secret).toBeHidden();
    return text;
  }

  async search(text: string) {
    await this.table().getByTestId('users-table-search').fill(text);
  }
}
