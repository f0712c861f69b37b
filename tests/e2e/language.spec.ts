/**
 * Language: the client opens in Arabic, right to left; switching to English flips the direction and every
 * visible string, and the choice is kept across a reload. Walking the main screens in Arabic shows no raw
 * i18n key and no English word of the English locale.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { LoginPage } from './pages/LoginPage';
import { MainLayout } from './pages/MainLayout';
import { ADMIN, Api } from './support/api';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ shell }) => {
  // The administrator exists (and has had the two-factor offer) so the tests start at the sign-in form.
  await Api.administrator(shell.apiBaseUrl);
});

test('the client opens in Arabic, switches to English and keeps the choice across a reload', async ({
  page,
  shell,
}) => {
  const login = new LoginPage(page);
  await login.openSignedOut(shell);

  await expect(login.html()).toHaveAttribute('dir', 'rtl');
  await expect(login.html()).toHaveAttribute('lang', 'ar');
  await expect(login.title()).toHaveText('تسجيل الدخول');
  await expect(page.locator('.ant-segmented').first()).toHaveCSS('direction', 'rtl');

  await login.switchTo('English');
  await expect(login.html()).toHaveAttribute('dir', 'ltr');
  await expect(login.html()).toHaveAttribute('lang', 'en');
  await expect(login.title()).toHaveText('Sign in');
  await expect(page.getByText('Email or username')).toBeVisible();

  await page.reload();
  await expect(login.title()).toHaveText('Sign in');
  await expect(login.html()).toHaveAttribute('dir', 'ltr');

  await login.switchTo('العربية');
  await expect(login.html()).toHaveAttribute('dir', 'rtl');
  await page.reload();
  await expect(login.title()).toHaveText('تسجيل الدخول');
});

test('the page carries a strict content security policy and talks to main through the bridge', async ({
  page,
  shell,
}) => {
  const response = await page.goto(shell.url);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain('unsafe-eval');
  // The connection settings come from main over the bridge: this computer's server.
  const login = new LoginPage(page);
  await login.title().or(page.getByTestId('side-menu')).first().waitFor();
  if (await login.title().isVisible()) {
    await page.getByTestId('connection-settings').click();
    await expect(page.getByTestId('connection-local')).toBeChecked();
    await page.keyboard.press('Escape');
  }
});

/** Every English word (4+ letters) of the English locale files that the Arabic ones never use. */
function englishWords(): Set<string> {
  const root = resolve(import.meta.dirname, '../../locales');
  const collect = (lng: string) => {
    const texts: string[] = [];
    const walk = (value: unknown) => {
      if (typeof value === 'string') texts.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    for (const file of readdirSync(join(root, lng))) {
      if (file.endsWith('.json')) walk(JSON.parse(readFileSync(join(root, lng, file), 'utf8')));
    }
    return texts.join(' ');
  };
  const arabicText = collect('ar');
  const words = new Set<string>();
  for (const word of collect('en').match(/[A-Za-z]{4,}/g) ?? []) {
    if (!arabicText.includes(word)) words.add(word.toLowerCase());
  }
  return words;
}

/**
 * The visible text of the page in Arabic mode, without what is rightly not Arabic: elements marked with
 * another language (`lang="en"`: the name "English" of the language switch) and left-to-right isolates
 * (usernames, emails, keys, addresses).
 */
async function arabicModeText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const skip = (el: Element | null): boolean =>
      !!el?.closest(
        '[lang]:not([lang="ar"]), bdi[dir="ltr"], [dir="ltr"].ant-typography, input, textarea, script, style',
      );
    const parts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || skip(el)) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || el.getClientRects().length === 0)
        continue;
      parts.push(node.textContent ?? '');
    }
    // Attributes people read too: placeholders, titles, alternative texts, labels.
    for (const el of document.querySelectorAll('[placeholder], [title], [alt], [aria-label]')) {
      // antd's icons label themselves with their icon name ("user", "file-done"): decoration, not text.
      if (skip(el) || el.classList.contains('anticon')) continue;
      for (const attr of ['placeholder', 'title', 'alt', 'aria-label']) {
        const value = el.getAttribute(attr);
        if (value) parts.push(value);
      }
    }
    return parts.join(' \n ');
  });
}

function problemsIn(text: string, english: Set<string>): string[] {
  const problems: string[] = [];
  for (const key of text.match(/\b[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9]+)+\b/g) ?? [])
    problems.push(`raw key "${key}"`);
  for (const word of text.match(/[A-Za-z]{4,}/g) ?? []) {
    if (english.has(word.toLowerCase())) problems.push(`English word "${word}"`);
  }
  return problems;
}

test('walking the main screens in Arabic shows no raw key and no English text', async ({ page, shell }) => {
  const english = englishWords();
  const login = new LoginPage(page);
  const main = new MainLayout(page);
  const found: string[] = [];
  const check = async (where: string) => {
    await page.waitForTimeout(300); // let lazy chunks and queries settle
    for (const problem of problemsIn(await arabicModeText(page), english)) found.push(`${where}: ${problem}`);
  };

  await login.openSignedOut(shell);
  await check('/login');
  await page.getByTestId('sign-in').click();
  await check('/login (validation)');
  await page.getByTestId('connection-settings').click();
  await page.getByTestId('connection-server').click();
  await check('/login (connection settings)');
  await page.keyboard.press('Escape');

  await login.signIn(ADMIN.username, ADMIN.password);
  await expect(main.menu()).toBeVisible();
  // Open every section of the menu so all its entries are visible.
  for (const section of await main.menu().locator('.ant-menu-submenu-title').all()) {
    if ((await section.getAttribute('aria-expanded')) !== 'true') await section.click();
  }
  await check('main layout (menu open)');
  await main.openUserMenu();
  await check('user menu');
  await page.keyboard.press('Escape');

  for (const path of [
    '/ec/employees',
    '/correspondence/inbox/incoming',
    '/correspondence/outbox/awaiting-approval/7',
    '/correspondence/memos/draft',
    '/correspondence/settings/codifications',
    '/user/calendar',
    '/user/settings',
    '/no-access',
    '/auth/users',
    '/auth/roles',
    '/auth/pages',
    '/auth/audit',
  ]) {
    await main.go(path);
    await main.expectPath(path);
    await check(path);
  }
  expect(found, found.join('\n')).toEqual([]);
});

test('the language switch in the main layout flips direction and the menu', async ({ page, shell }) => {
  const login = new LoginPage(page);
  const main = new MainLayout(page);
  await login.open(shell, '/ec/employees');
  await main.menu().or(login.title()).first().waitFor();
  if (await login.title().isVisible()) await login.signIn(ADMIN.username, ADMIN.password);
  await expect(main.pageTitle()).toHaveText('الموظفون');
  await expect(main.html()).toHaveAttribute('dir', 'rtl');
  await expect(main.menu()).toHaveCSS('direction', 'rtl');

  await main.toggleLanguage();
  await expect(main.html()).toHaveAttribute('dir', 'ltr');
  await expect(main.pageTitle()).toHaveText('Employees');
  await expect(main.menu().getByText('Employee Center')).toBeVisible();
  await expect(page.getByTestId('copyright')).toContainText('© 2025 Sijill');
  await expect(page.getByTestId('employees-table-empty')).toContainText('No employees');

  await main.toggleLanguage();
  await expect(main.html()).toHaveAttribute('dir', 'rtl');
  await expect(main.menu().getByText('مركز الموظفين')).toBeVisible();
});
