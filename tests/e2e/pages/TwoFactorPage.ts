/** Page object of /login/two-factor. */
import type { Page } from '@playwright/test';

export class TwoFactorPage {
  constructor(readonly page: Page) {}

  readonly root = () => this.page.getByTestId('two-factor');
  readonly qr = () => this.page.getByTestId('totp-qr');
  readonly skipButton = () => this.page.getByTestId('two-factor-skip');
  readonly recoveryCodes = () => this.page.getByTestId('recovery-codes');

  /** The enrolment key shown under the QR code. */
  async secret(): Promise<string> {
    const text = (await this.page.getByTestId('totp-secret').innerText()).trim();
    return text.replace(/\s+/g, '');
  }

  async enter(code: string) {
    await this.page.getByTestId('two-factor-code').fill(code);
    await this.page.getByTestId('two-factor-verify').click();
  }

  async skip() {
    await this.skipButton().click();
  }

  /** Reads the recovery codes shown once after enrolling, and closes the dialog. */
  async takeRecoveryCodes(): Promise<string[]> {
    await this.recoveryCodes().waitFor();
    const codes = await this.recoveryCodes().locator('.recovery-code').allInnerTexts();
    await this.page.getByTestId('recovery-done').click();
    return codes.map((c) => c.trim());
  }
}
