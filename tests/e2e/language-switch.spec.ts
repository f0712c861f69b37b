/**
 * Switching the language on any screen leaves nothing in the other one: on every page of the demo's
 * administrator (who may open them all), on documents' details, on forms showing their errors and on the
 * sign-in form with its reason, the language is switched to English and back, and the page must not keep
 * a text of the other language's locale files (client and server words: the audit log's action names, the
 * options the server words, a form's errors, a message shown in place) — what a cache, a memo or a state
 * kept from before the switch would leave until a reload.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { LoginPage } from './pages/LoginPage';
import { MainLayout } from './pages/MainLayout';
import { openScreen, settle, signInAs } from './support/demo';
import { PAGES } from '../../src-shared/pages';

test.describe.configure({ mode: 'serial' });
test.use({ demo: true, viewport: { width: 1280, height: 800 } });

type Lang = 'ar' | 'en';

/** Every string of a language's locale files (the server's too), flattened. */
function localeStrings(lang: Lang): string[] {
  const root = resolve(import.meta.dirname, '../../locales', lang);
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const file of readdirSync(root))
    if (file.endsWith('.json')) walk(JSON.parse(readFileSync(join(root, file), 'utf8')));
  return out;
}

/**
 * What betrays a text of `lang` left on a screen of the other language: its strings without placeholders
 * (a text node that is exactly one), and the longer fixed parts of those with placeholders (a text node
 * that holds one). Strings both languages share (a name, a code) betray nothing.
 */
function telltales(lang: Lang): { whole: string[]; parts: string[] } {
  const other = new Set(localeStrings(lang === 'ar' ? 'en' : 'ar').map((s) => s.trim()));
  const mine = localeStrings(lang).filter((s) => !other.has(s.trim()));
  const script = lang === 'ar' ? /[\u0600-\u06FF]/ : /[A-Za-z]{3}/;
  const whole = mine.filter((s) => !/{{|<\w/.test(s) && script.test(s)).map((s) => s.trim());
  const parts = mine
    .filter((s) => /{{|<\w/.test(s))
    .flatMap((s) => s.split(/{{[^}]*}}|<\/?\w+>/))
    .map((p) => p.trim())
    .filter((p) => p.split(/\s+/).length >= 3 && script.test(p));
  return { whole: [...new Set(whole)], parts: [...new Set(parts)] };
}

const TELLTALES: Record<Lang, { whole: string[]; parts: string[] }> = {
  ar: telltales('ar'),
  en: telltales('en'),
};

/** The texts of `lang` still on the page (text, placeholders, titles, labels), where they are. */
async function leftovers(page: Page, lang: Lang): Promise<string[]> {
  return page.evaluate(({ whole, parts }) => {
    const wholeSet = new Set(whole);
    const found: string[] = [];
    const where = (el: Element) => el.closest('[data-testid]')?.getAttribute('data-testid') ?? el.tagName;
    // The language switch names the other language in its own words, and a list's Arabic and English
    // names columns show each name in its own (lang="…"): rightly so.
    const skip = (el: Element) => !!el.closest('[lang]:not(html), script, style, input, textarea');
    const visible = (el: Element) => {
      const s = getComputedStyle(el);
      return s.visibility !== 'hidden' && s.display !== 'none' && el.getClientRects().length > 0;
    };
    const test = (text: string, el: Element) => {
      const t = text.replace(/\s+/g, ' ').trim();
      if (!t) return;
      if (wholeSet.has(t)) found.push(`${where(el)}: "${t}"`);
      else for (const p of parts) if (t.includes(p)) found.push(`${where(el)}: "${t}" (holds "${p}")`);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || skip(el) || !visible(el)) continue;
      test(node.textContent ?? '', el);
    }
    for (const el of document.querySelectorAll('[placeholder], [title], [aria-label], input[placeholder]')) {
      // antd's select names its clear button 'Clear' in every language (rc-select's default label).
      if (el.closest('[lang]:not(html)') || !visible(el) || el.classList.contains('anticon')) continue;
      if (el.classList.contains('ant-select-clear')) continue;
      for (const attr of ['placeholder', 'title', 'aria-label']) {
        const value = el.getAttribute(attr);
        if (value) test(value, el);
      }
    }
    return [...new Set(found)];
  }, TELLTALES[lang]);
}

/** Switches the language from the header and waits until no text of the old one is left. */
async function switchAndCheck(page: Page, where: string, found: string[]) {
  const main = new MainLayout(page);
  const from = (await main.html().getAttribute('lang')) as Lang;
  const to: Lang = from === 'ar' ? 'en' : 'ar';
  await main.toggleLanguage();
  await expect(main.html()).toHaveAttribute('lang', to);
  await settle(page);
  // What the screen reads again arrives after the switch: wait for it, then say what stayed.
  await expect
    .poll(async () => (await leftovers(page, from)).length, { timeout: 15_000 })
    .toBe(0)
    .catch(() => undefined);
  for (const left of await leftovers(page, from)) found.push(`${where} (${from} → ${to}): ${left}`);
}

/** Every page of the page tree, in the order of the menu. */
const EVERY_PAGE = Object.values(PAGES);

test('switching the language on every screen leaves no text of the other language', async ({
  page,
  shell,
}) => {
  test.setTimeout(1_200_000);
  const found: string[] = [];
  await signInAs(page, shell, 'admin', 'ar');
  // Each screen is switched once, from the language the previous one was left in: Arabic to English on
  // one, English to Arabic on the next.
  for (const path of EVERY_PAGE) {
    await openScreen(page, path);
    await switchAndCheck(page, path, found);
  }
  // A document of each kind, opened from its box: its fields, panels and timeline.
  for (const box of [PAGES.incoming, PAGES.outgoing, PAGES.approvedMemos, PAGES.incomingTasks]) {
    await openScreen(page, box);
    await page.locator('.data-table tbody tr.ant-table-row').first().click();
    await expect(page.getByTestId('timeline')).toBeVisible();
    await settle(page);
    await switchAndCheck(page, `${box} (first document)`, found);
  }
  // The audit log read in one language, then its entry opened after the switch (the drawer covers the
  // switch while it is open).
  await openScreen(page, PAGES.audit);
  await switchAndCheck(page, PAGES.audit, found);
  await page.locator('.data-table tbody tr.ant-table-row').first().click();
  await expect(page.getByTestId('audit-details')).toBeVisible();
  await settle(page);
  const auditLang = (await new MainLayout(page).html().getAttribute('lang')) as Lang;
  for (const left of await leftovers(page, auditLang === 'ar' ? 'en' : 'ar'))
    found.push(`the audit entry: ${left}`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('audit-details')).toBeHidden();
  // A form showing what it lacks.
  await openScreen(page, PAGES.inboxAdd);
  await page.getByTestId('register').click();
  await expect(page.locator('.ant-form-item-explain-error').first()).toBeVisible();
  await switchAndCheck(page, 'the incoming form with its errors', found);

  // The sign-in form with a refusal and a field it lacks.
  const login = new LoginPage(page);
  await new MainLayout(page).logout();
  await expect(login.title()).toBeVisible();
  await login.signIn('admin', 'Wrong#pass1');
  await expect(page.getByTestId('sign-in-problem')).toBeVisible();
  await page.getByTestId('login').fill('');
  await page.getByTestId('sign-in').click();
  await expect(page.locator('.ant-form-item-explain-error').first()).toBeVisible();
  for (const to of ['English', 'العربية'] as const) {
    const from: Lang = to === 'English' ? 'ar' : 'en';
    await login.switchTo(to);
    await expect
      .poll(async () => (await leftovers(page, from)).length, { timeout: 15_000 })
      .toBe(0)
      .catch(() => undefined);
    for (const left of await leftovers(page, from)) found.push(`/login (→ ${to}): ${left}`);
  }
  expect(found, found.join('\n')).toEqual([]);
});
