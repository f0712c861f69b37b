/** Page object of the start page. */
import type { Page } from '@playwright/test';

export class StartPage {
  constructor(readonly page: Page) {}

  readonly title = () => this.page.getByTestId('start-title');
  readonly info = () => this.page.getByTestId('app-info');
  readonly html = () => this.page.locator('html');

  async switchTo(label: 'English' | 'العربية') {
    await this.page.getByTestId('language-switch').getByText(label, { exact: true }).click();
  }
}
