/** A first-time user opens Sijill: Arabic right to left, switches to English, and the choice is kept. */
import { expect, test } from './fixtures';
import { StartPage } from './pages/StartPage';

test('the client opens in Arabic, switches to English and keeps the choice across a reload', async ({ page, shell }) => {
  const start = new StartPage(page);
  await page.goto(shell.url);

  await expect(start.html()).toHaveAttribute('dir', 'rtl');
  await expect(start.html()).toHaveAttribute('lang', 'ar');
  await expect(start.title()).toHaveText('مرحبًا بك في سجل');
  await expect(start.info()).toContainText('واجهة الويب');
  await expect(page.locator('.ant-segmented').first()).toHaveCSS('direction', 'rtl');

  await start.switchTo('English');
  await expect(start.html()).toHaveAttribute('dir', 'ltr');
  await expect(start.html()).toHaveAttribute('lang', 'en');
  await expect(start.title()).toHaveText('Welcome to Sijill');
  await expect(start.info()).toContainText('Web shell');

  await page.reload();
  await expect(start.title()).toHaveText('Welcome to Sijill');
  await expect(start.html()).toHaveAttribute('dir', 'ltr');

  await start.switchTo('العربية');
  await expect(start.html()).toHaveAttribute('dir', 'rtl');
  await page.reload();
  await expect(start.title()).toHaveText('مرحبًا بك في سجل');
});

test('the page carries a strict content security policy and the app info comes through the bridge', async ({ page, shell }) => {
  const response = await page.goto(shell.url);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain('unsafe-eval');
  await expect(page.getByTestId('app-info')).toContainText(shell.apiBaseUrl);
});
