/**
 * The public verification page in a real browser, without the Sijill server: a tiny node:http server
 * serves the page (src-server/modules/final/verify-page.ts) with its headers and its script. The
 * reader's PDF is hashed in the browser and compared; the page's CSP is never broken. Self-contained:
 * it uses no web shell (plain @playwright/test, not ./fixtures); the page's server is
 * tests/e2e/support/verify-page-server.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n' +
    'trailer <</Root 1 0 R>>\n%%EOF\n',
);
const OTHER_PDF = Buffer.concat([PDF, Buffer.from('% one more byte\n')]);
const SCREENSHOTS = resolve(ROOT, 'test-results');

let server: ChildProcess;
let base = '';

test.beforeAll(async () => {
  server = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/support/verify-page-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, VERIFY_SHA256: createHash('sha256').update(PDF).digest('hex') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (!base) {
    base = /verify page server: (\S+)/.exec(output)?.[1] ?? '';
    if (server.exitCode !== null || Date.now() > deadline)
      throw new Error(`no verify page server:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

test.afterAll(() => {
  server.kill();
});

/** Records CSP violations (events in the page, and the console's reports) for the test to check. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return violations;
}

const file = (name: string, buffer: Buffer) => ({ name, mimeType: 'application/pdf', buffer });

test('English: the file held is identical, then a different one differs', async ({ page }) => {
  const violations = watchCsp(page);
  await page.goto(`${base}/verify/good?lang=en`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'This letter was issued by Ministry of Municipal and Rural Affairs',
  );
  // The file input is reached by keyboard, and its button then shows the focus.
  await page.getByRole('link', { name: 'العربية' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.locator('#compare-file')).toBeFocused();
  expect(await page.locator('label.button').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe(
    'solid',
  );
  const result = page.locator('#compare-result');
  await page.getByLabel("Choose the letter's PDF file").setInputFiles(file('letter.pdf', PDF));
  await expect(result).toContainText('The file you hold is identical to the issued letter.');
  await expect(result).toHaveAttribute('data-state', 'match');
  await page.getByLabel("Choose the letter's PDF file").setInputFiles(file('letter (edited).pdf', OTHER_PDF));
  await expect(result).toContainText('This file differs from the issued letter.');
  await expect(result).toHaveAttribute('data-state', 'mismatch');
  await expect(result).toContainText(createHash('sha256').update(OTHER_PDF).digest('hex'));
  expect(violations).toEqual([]);
});

test('Arabic: right to left, and a file dropped on the page is checked too', async ({ page }) => {
  const violations = watchCsp(page);
  await page.goto(`${base}/verify/good`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  // The page really lays out right to left: the heading starts at the right.
  const heading = page.getByRole('heading', { level: 1 });
  expect(await heading.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  await expect(heading).toContainText('صدر هذا الخطاب عن');
  // The fingerprint stays a left-to-right piece.
  expect(await page.locator('dd .hash').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');

  const result = page.locator('#compare-result');
  await page.getByLabel('اختر ملف الخطاب (PDF)').setInputFiles(file('خطاب.pdf', PDF));
  await expect(result).toContainText('الملف الذي لديك مطابق تماماً للخطاب الصادر.');

  // Drop: a DataTransfer carrying a file, dropped on the zone.
  const drop = await page.evaluateHandle(
    (bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'other.pdf', { type: 'application/pdf' }));
      return transfer;
    },
    [...OTHER_PDF],
  );
  await page.locator('#compare-zone').dispatchEvent('drop', { dataTransfer: drop });
  await expect(result).toContainText('هذا الملف يختلف عن الخطاب الصادر.');
  expect(violations).toEqual([]);
});

test('cancelled: a match is still reported, with the cancellation warning kept', async ({ page }) => {
  const violations = watchCsp(page);
  await page.goto(`${base}/verify/cancelled?lang=en`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This letter has been CANCELLED');
  await page.getByLabel("Choose the letter's PDF file").setInputFiles(file('letter.pdf', PDF));
  const result = page.locator('#compare-result');
  await expect(result).toContainText('The file you hold is identical to the issued letter.');
  await expect(result).toContainText('this letter has been cancelled and must not be relied upon');
  expect(violations).toEqual([]);
});

test('unknown and too many: short pages; the language link switches', async ({ page }) => {
  const violations = watchCsp(page);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.goto(`${base}/verify/nothing`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('لا يوجد خطاب يطابق هذا الرابط');
  await expect(page.locator('#compare')).toHaveCount(0);
  await page.getByRole('link', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('No letter matches this link');
  await page.goto(`${base}/verify/busy`);
  await expect(page.locator('main')).toContainText('يُرجى المحاولة مرة أخرى بعد ٣٠ ثانية.');
  await page.setViewportSize({ width: 390, height: 600 });
  await page.screenshot({ path: `${SCREENSHOTS}/verify-page-busy-ar-390.png` });
  expect(violations).toEqual([]);
});

test('screenshots of the found page: Arabic and English, phone and desktop', async ({ page }) => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const lang of ['ar', 'en'] as const) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(`${base}/verify/good?lang=${lang}`);
      await page.locator('#compare-file').setInputFiles(file('letter.pdf', PDF));
      await expect(page.locator('#compare-result')).toHaveAttribute('data-state', 'match');
      await page.screenshot({ path: `${SCREENSHOTS}/verify-page-${lang}-${width}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const lang of ['ar', 'en'] as const) {
    await page.goto(`${base}/verify/cancelled?lang=${lang}`);
    await page.locator('#compare-file').setInputFiles(file('edited.pdf', OTHER_PDF));
    await expect(page.locator('#compare-result')).toHaveAttribute('data-state', 'mismatch');
    await page.screenshot({ path: `${SCREENSHOTS}/verify-page-cancelled-${lang}-390.png`, fullPage: true });
  }
});
