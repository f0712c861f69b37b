/**
 * A page whose code cannot be fetched (the web shell's network fails under the jobs page's chunk, every
 * time): the administrator sees, in Arabic and in English, that the page could not be loaded, inside the
 * main layout whose menu is still there, and "Try again" once the network is back shows the page. A chunk
 * whose first fetch fails and whose second succeeds shows the page with no error at all. Screenshots in
 * test-results/screens/route-error-*.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';
import { MainLayout } from './pages/MainLayout';
import { signInAs } from './support/demo';
import { PAGES } from '../../src-shared/pages';
import { FIRST_TRY_FAILED } from '../../src-renderer/app/load-twice';

test.use({ demo: true });

const SCREENS = resolve(import.meta.dirname, '../../test-results/screens');
mkdirSync(SCREENS, { recursive: true });

/** The jobs page's own chunk as the build names it (JobsPage-<hash>.js). */
const JOBS_CHUNK = /\/JobsPage-[\w-]+\.js$/;

const WORDS = {
  ar: {
    loadTitle: 'تعذر تحميل هذه الصفحة',
    loadMessage: 'تحقق من الاتصال ثم أعد المحاولة.',
    retry: 'إعادة المحاولة',
    home: 'العودة إلى الصفحة الرئيسية',
    jobs: 'الوظائف',
  },
  en: {
    loadTitle: 'This page could not be loaded',
    loadMessage: 'Check the connection and try again.',
    retry: 'Try again',
    home: 'Back to the home page',
    jobs: 'Jobs',
  },
} as const;

/**
 * Fails the jobs chunk's fetches as a lost connection does — every one (`always`), or those of the first
 * try only: until the page says the first try failed (the second follows after a pause). A first try may
 * fetch the chunk twice (Vite's modulepreload link and the import), or once (the import joins the link's
 * fetch), so the first try is told by the page's word rather than by a count. Every fetch is counted.
 */
async function failJobsChunk(page: Page, mode: 'always' | 'first try') {
  const fetches: Request[] = [];
  let firstTryFailed = false;
  page.on('console', (message) => {
    if (message.text().startsWith(FIRST_TRY_FAILED)) firstTryFailed = true;
  });
  await page.route(JOBS_CHUNK, async (route) => {
    fetches.push(route.request());
    if (mode === 'always' || !firstTryFailed) await route.abort('internetdisconnected');
    else await route.continue();
  });
  return fetches;
}

for (const lang of ['ar', 'en'] as const) {
  test(`a page whose code cannot be fetched says so inside the layout, and Try again shows it (${lang})`, async ({
    page,
    shell,
  }) => {
    const words = WORDS[lang];
    await signInAs(page, shell, 'admin', lang);
    const main = new MainLayout(page);
    const fetches = await failJobsChunk(page, 'always');
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    await main.go(PAGES.jobs);
    const error = page.getByTestId('route-error');
    await expect(error).toBeVisible();
    await expect(error).toHaveAttribute('data-kind', 'chunk');
    await expect(error).toContainText(words.loadTitle);
    await expect(error).toContainText(words.loadMessage);
    await expect(page.getByTestId('route-error-retry')).toHaveText(words.retry);
    await expect(page.getByTestId('route-error-home')).toHaveText(words.home);
    // The layout around it: the menu, the header, the footer; the error in the page's area.
    await expect(main.menu()).toBeVisible();
    await expect(page.locator('.main-content [data-testid="route-error"]')).toBeVisible();
    await expect(page.locator('.ant-layout-footer')).toBeVisible();
    await expect(main.html()).toHaveAttribute('lang', lang);
    // Fetched twice (the second try after the pause), logged, and nothing of the error on the screen.
    expect(fetches.length).toBeGreaterThanOrEqual(2);
    expect(errors.some((text) => text.includes('A route failed'))).toBe(true);
    await expect(page.locator('body')).not.toContainText('dynamically imported module');
    await expect(page.locator('body')).not.toContainText('Unexpected Application Error');
    await page.screenshot({ path: `${SCREENS}/route-error-${lang}.png` });

    // The network is back: Try again loads the document anew, and the page with it.
    await page.unroute(JOBS_CHUNK);
    await page.getByTestId('route-error-retry').click();
    await expect(page.getByTestId('page-title')).toHaveText(words.jobs);
    await expect(error).toHaveCount(0);
    await main.expectPath(PAGES.jobs);
  });
}

test('a page whose code fails to arrive once is shown on the second try, with no error', async ({
  page,
  shell,
}) => {
  await signInAs(page, shell, 'admin', 'en');
  const main = new MainLayout(page);
  const fetches = await failJobsChunk(page, 'first try');
  // The error page logs what it shows: a failure shown for a moment (and cleared by a later navigation)
  // would be seen here.
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });

  await main.go(PAGES.jobs);
  await expect(page.getByTestId('page-title')).toHaveText(WORDS.en.jobs);
  await expect(page.getByTestId('route-error')).toHaveCount(0);
  // The first try's fetch failed, the second try's arrived.
  expect(fetches.length).toBeGreaterThanOrEqual(2);
  expect(fetches[0]!.failure()?.errorText).toBeTruthy();
  expect(await fetches.at(-1)!.response()).toBeTruthy();
  expect(errors.filter((text) => text.includes('A route failed'))).toEqual([]);
});
