/**
 * The inline PDF viewer, in Chromium, on PDFs Chromium itself printed (real fonts, a real Arabic text
 * layer): a clerk drops two PDFs on the add form, registers the letter, opens an attachment in the viewer
 * (pages drawn, thumbnails, page count), finds an Arabic word (highlighted, counted), rotates, and prints
 * to PDF (the print holds every page and nothing of the screen). Screenshots in both languages. Find
 * matches words as the server's search does (hamza, ta marbuta, alef maqsura, diacritics) and highlights
 * the glyphs of the word found; "fit width" fits the page to its pane when the viewer opens and whenever
 * the pane changes size (thumbnails, window), at 1280 and 1920 pixels, in Arabic and in English (the
 * pages made at that fit at once, not laid out at 100 % first, and the pane not moved when the toolbar
 * comes after the first page), and the pages' landmarks are named in the screen's language.
 */
import type { Page } from '@playwright/test';
import { expect, test, type WebShellProcess } from './fixtures';
import { ADMIN, Api, seedArchiveOffice } from './support/api';
import { chooseOption } from './support/select';
import { dropFiles } from './support/pdf';
import { AdminShell } from './pages/AdminScreens';
import { LoginPage } from './pages/LoginPage';
import { PAGES } from '../../src-shared/pages';
import { PDF_CHUNK } from '../../src-renderer/components/pdf/prefetch';
import type { SearchPage } from '../../src-shared/api/search';

const SCREENS = 'test-results/screens';
const PASSWORD = 'View#2025';

/** Attaches `pdf` to a new incoming draft, through the API as the administrator; answers the draft's id. */
async function draftWith(api: Api, apiBaseUrl: string, pdf: Buffer, name: string): Promise<number> {
  const draft = await api.ok<{ id: number }>('POST', '/correspondence/documents', {
    direction: 'in',
    subject: `مرفق ${name}`,
  });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), name);
  const uploaded = await fetch(`${apiBaseUrl}/correspondence/documents/${draft.id}/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.accessToken}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);
  return draft.id;
}

/** Signs in as the administrator (whoever the file's shell had signed in) and opens a draft's form. */
async function openDraftAsAdmin(page: Page, shell: WebShellProcess, id: number): Promise<AdminShell> {
  await new LoginPage(page).openSignedOut(shell);
  const app = new AdminShell(page);
  await app.signIn(ADMIN.username, ADMIN.password);
  await app.goTo(shell.url, `${PAGES.inboxAdd}?draft=${id}`);
  return app;
}

/** The screen's language, switched to `lang` when it is the other one. */
async function useLanguage(page: Page, app: AdminShell, lang: 'ar' | 'en') {
  if ((await page.locator('html').getAttribute('lang')) !== lang) await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

/**
 * Watches the next opening of the viewer from before the click: every scale pdf.js gives its pages (the
 * `--scale-factor` it sets on its viewer element, as it sets it) and, at every frame until the toolbar
 * has come, where the page pane's top is. Read with `openingSeen`.
 */
async function watchOpening(page: Page) {
  await page.evaluate(() => {
    const seen = { scales: [] as string[], paneTops: [] as number[], toolbarCame: false };
    (window as unknown as { opening: typeof seen }).opening = seen;
    const note = (scale: string | undefined) => {
      if (scale && scale !== seen.scales.at(-1)) seen.scales.push(scale);
    };
    // A batch of records may hold several changes: each record's old value is the one before it.
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target as HTMLElement;
        if (!el.classList.contains('pdfViewer')) continue;
        note(/--scale-factor:\s*([^;]+)/.exec(r.oldValue ?? '')?.[1]?.trim());
      }
      const viewer = document.querySelector<HTMLElement>('.pdfViewer');
      note(viewer?.style.getPropertyValue('--scale-factor').trim());
    }).observe(document.body, {
      subtree: true,
      attributes: true,
      attributeOldValue: true,
      attributeFilter: ['style'],
    });
    const frame = () => {
      const pane = document.querySelector('[data-testid="pdf-pages"]');
      if (pane) seen.paneTops.push(Math.round(pane.getBoundingClientRect().top));
      if (document.querySelector('[data-testid="pdf-find"]')) seen.toolbarCame = true;
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

async function openingSeen(page: Page) {
  return page.evaluate(
    () =>
      (window as unknown as { opening: { scales: string[]; paneTops: number[]; toolbarCame: boolean } })
        .opening,
  );
}

/** A PDF of `pages` pages printed by Chromium from Arabic (and some English) text. */
async function arabicPdf(page: Page, pages: number, title: string): Promise<Buffer> {
  const html = Array.from(
    { length: pages },
    (_, i) => `<section style="page-break-after: always; padding: 40px; font-size: 20px">
      <h1>${title} — صفحة ${i + 1}</h1>
      <p>تفيد الوزارة بأن اجتماع اللجنة الفنية سيعقد يوم الأحد القادم لمناقشة الميزانية التشغيلية.</p>
      <p>Budget review meeting, page ${i + 1}.</p></section>`,
  ).join('');
  const scratch = await page.context().newPage();
  await scratch.setContent(`<html dir="rtl" lang="ar"><body>${html}</body></html>`);
  const pdf = await scratch.pdf({ format: 'A4' });
  await scratch.close();
  return pdf;
}

test('a clerk drops two PDFs, opens one, finds an Arabic word, rotates and prints it', async ({
  page,
  shell,
}) => {
  test.setTimeout(240_000);
  const api = await Api.administrator(shell.apiBaseUrl);
  await seedArchiveOffice(api, {
    roleName: 'Archive Clerk',
    pages: {
      [PAGES.inboxAdd]: ['add'],
      [PAGES.inboxDrafts]: ['add', 'edit', 'delete'],
      [PAGES.incoming]: ['edit', 'distribute'],
    },
    username: 'clerk',
    password: PASSWORD,
  });
  const letter = await arabicPdf(page, 3, 'خطاب وزارة الصحة');
  const annex = await arabicPdf(page, 2, 'مرفق الميزانية');

  const app = new AdminShell(page);
  await app.open(shell.url);
  await app.signIn('clerk', PASSWORD);
  await app.goTo(shell.url, PAGES.inboxAdd);
  await chooseOption(page, page.getByTestId('field-codification'), 'وارد عام');
  await page.getByTestId('field-subject').fill('دعوة لاجتماع اللجنة الفنية');
  await chooseOption(page, page.getByTestId('field-sender'), 'وزارة الصحة');
  await chooseOption(page, page.getByTestId('field-recipient'), 'الشؤون المالية');
  const date = new Date().toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: '2-digit' });
  const dateInput = page
    .getByTestId('field-document-date')
    .locator('input')
    .first()
    .or(page.locator('input[data-testid="field-document-date"]'));
  await dateInput.first().click();
  await dateInput.first().fill(date);
  await page.keyboard.press('Enter');
  await dropFiles(page, 'attachment-drop', [
    { name: 'letter.pdf', bytes: letter },
    { name: 'annex.pdf', bytes: annex },
  ]);
  await expect(page.getByTestId('attachment-row')).toHaveCount(2);
  await page.getByTestId('register').click();
  await page.getByTestId('registered-open').click();
  await expect(page.getByTestId('attachments-panel').getByTestId('attachment-row')).toHaveCount(2);

  // The viewer opens the letter: pages, page count, thumbnails.
  await page
    .getByTestId('attachments-panel')
    .getByTestId('attachment-row')
    .filter({ hasText: 'letter.pdf' })
    .getByTestId('attachment-open')
    .click();
  const viewer = page.getByTestId('pdf-viewer');
  await expect(viewer.getByTestId('pdf-page-count')).toContainText('3');
  await expect(viewer.locator('.page canvas').first()).toBeVisible();
  await expect(viewer.getByTestId('pdf-thumbnails').locator('canvas').first()).toBeVisible();
  await expect(viewer.locator('[dir="ltr"]').first()).toBeVisible();

  // Find an Arabic word: every page has it once in its paragraph.
  await viewer
    .locator('input[data-testid="pdf-find"], [data-testid="pdf-find"] input')
    .first()
    .fill('الميزانية');
  await expect(viewer.getByTestId('pdf-matches')).toContainText(/1 من [1-9]/);
  await expect(viewer.locator('.textLayer .highlight').first()).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/pdf-viewer-find-ar.png` });

  // Rotate: the page turns on its side.
  const before = await viewer.locator('.page').first().boundingBox();
  await viewer.getByTestId('pdf-rotate').click();
  await expect
    .poll(async () => {
      const after = await viewer.locator('.page').first().boundingBox();
      return after && before ? after.width > after.height === before.height > before.width : false;
    })
    .toBe(true);

  // Print to PDF: the print holds the three pages and nothing of the screen.
  await page.evaluate(() => {
    (window as unknown as { print: () => void }).print = () => {
      document.body.dataset.printed = String(document.querySelectorAll('#pdfv-print img').length);
    };
  });
  await viewer.getByTestId('pdf-print').click();
  await expect(page.locator('body')).toHaveAttribute('data-printed', '3');
  const printed = await page.pdf({ format: 'A4' });
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const printedDoc = await pdfjs.getDocument({ data: new Uint8Array(printed) }).promise;
  expect(printedDoc.numPages).toBe(3);
  // The print is the pages only: none of the screen's text.
  const firstPrinted = await (await printedDoc.getPage(1)).getTextContent();
  expect(firstPrinted.items.length).toBe(0);
  await printedDoc.destroy();
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  await expect(page.locator('#pdfv-print')).toHaveCount(0);

  // The same viewer in English.
  await page.locator('.ant-modal-close').click();
  await expect(page.getByTestId('pdf-viewer')).toHaveCount(0);
  await app.switchLanguage();
  await page
    .getByTestId('attachments-panel')
    .getByTestId('attachment-row')
    .filter({ hasText: 'annex.pdf' })
    .getByTestId('attachment-open')
    .click();
  await expect(page.getByTestId('pdf-viewer').getByTestId('pdf-page-count')).toContainText('of 2');
  await page
    .getByTestId('pdf-viewer')
    .locator('input[data-testid="pdf-find"], [data-testid="pdf-find"] input')
    .first()
    .fill('Budget');
  await expect(page.getByTestId('pdf-viewer').getByTestId('pdf-matches')).toContainText(/1 of [1-9]/);
  await page.screenshot({ path: `${SCREENS}/pdf-viewer-en.png` });

  // The same scan dropped on a new letter: the form says which document already holds it (by content,
  // whatever its name) and links that document instead of attaching the file again.
  const number = (await page.getByTestId('doc-number').textContent())!.trim();
  await page.locator('.ant-modal-close').click();
  await app.goTo(shell.url, PAGES.inboxAdd);
  await dropFiles(page, 'attachment-drop', [{ name: 'scan-0042.pdf', bytes: letter }]);
  const row = page.getByTestId('attachment-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('attachment-already-in')).toContainText(`already in ${number}`);
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/attachment-already-in-en.png` });
  await app.switchLanguage();
  await expect(row.getByTestId('attachment-already-in')).toContainText(`موجود من قبل في ${number}`);
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/attachment-already-in-ar.png` });
  await row.getByTestId('attachment-link-instead').click();
  await expect(page.getByTestId('attachment-row')).toHaveCount(0);
  await expect(page.getByTestId('field-related')).toContainText(number);
});

test('a long scanned PDF opens at its first page without the whole file crossing to the page', async ({
  page,
  shell,
}) => {
  test.setTimeout(180_000);
  // 60 pages, each with a noise image (a scan does not compress): about 3 MB.
  const scratch = await page.context().newPage();
  await scratch.setContent(
    `<html dir="rtl" lang="ar"><body>${Array.from(
      { length: 60 },
      (_, i) => `<section style="page-break-after: always; padding: 40px">
        <h1>محضر مطوّل — صفحة ${i + 1}</h1><canvas width="200" height="200" style="width: 60%"></canvas></section>`,
    ).join('')}</body></html>`,
  );
  await scratch.evaluate(`for (const c of document.querySelectorAll('canvas')) {
    const ctx = c.getContext('2d');
    const img = ctx.createImageData(c.width, c.height);
    for (let k = 0; k < img.data.length; k++) img.data[k] = k % 4 === 3 ? 255 : (Math.random() * 256) | 0;
    ctx.putImageData(img, 0, 0);
  }`);
  const pdf = await scratch.pdf({ format: 'A4' });
  await scratch.close();
  expect(pdf.length).toBeGreaterThan(2 * 1024 * 1024);

  const api = await Api.administrator(shell.apiBaseUrl);
  const draft = await api.ok<{ id: number }>('POST', '/correspondence/documents', {
    direction: 'in',
    subject: 'محضر مطوّل',
  });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'long.pdf');
  const uploaded = await fetch(`${shell.apiBaseUrl}/correspondence/documents/${draft.id}/attachments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.accessToken}` },
    body: form,
  });
  expect(uploaded.status).toBe(201);

  // What crosses from the file source to the page: only ranges; and the ranges asked for.
  let received = 0;
  const ranges: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/files/')) received += Number(response.headers()['content-length'] ?? 0);
  });
  page.on('request', (request) => {
    if (request.url().includes('/files/')) ranges.push(request.headers()['range'] ?? 'whole');
  });
  // The file's first and last pieces (components/pdf/prefetch.ts).
  const [head, tail] = [`bytes=0-${2 * PDF_CHUNK - 1}`, `bytes=-${2 * PDF_CHUNK}`];
  const ends = (asked: string[]) => asked.filter((r) => r === head || r === tail).sort();
  // The shell keeps the clerk of the test before signed in: sign out, then in as the administrator.
  await new LoginPage(page).openSignedOut(shell);
  const app = new AdminShell(page);
  await app.signIn(ADMIN.username, ADMIN.password);
  await app.goTo(shell.url, `${PAGES.inboxAdd}?draft=${draft.id}`);
  await page.getByTestId('attachment-open').first().click();
  const viewer = page.getByTestId('pdf-viewer');
  await expect(viewer.getByTestId('pdf-page-count')).toContainText('60');
  await expect(viewer.locator('.page[data-page-number="1"] canvas')).toBeVisible();
  expect(received).toBeGreaterThan(0);
  expect(received).toBeLessThan(pdf.length / 2);
  // The dialog opened the file in pdf.js with the click and the viewer took that opening over: the file's
  // ends were read once (not once by the dialog and again by the viewer), and nothing was read whole.
  expect(ranges).not.toContain('whole');
  expect(ends(ranges)).toEqual([tail, head].sort());
  // Opened again, it is read afresh (what an opening read is not kept past its viewer) and shown again.
  await page.locator('.ant-modal-close').click();
  await expect(viewer).toHaveCount(0);
  ranges.length = 0;
  await page.getByTestId('attachment-open').first().click();
  await expect(viewer.getByTestId('pdf-page-count')).toContainText('60');
  await expect(viewer.locator('.page[data-page-number="1"] canvas')).toBeVisible();
  expect(ends(ranges)).toEqual([tail, head].sort());
});

/** Lines of a letter in which each word searched for is written one way, and typed another. */
const FIND_LETTER = [
  'أعلنت الإدارة العامة للشؤون المالية عن مسؤولية المستشفى',
  'مُحَمَّدٌ يُدِيرُ الاجتماعَ في القاعة الكبرى',
  'تقرير الإدارة المالية إلى المستشفى الجامعي',
  'Budget review for the hospital',
];

/** What is typed, the word as the letter writes it (where the first match is), and how many there are. */
const FIND_CASES = [
  { query: 'الادارة', word: 'الإدارة', count: 2 }, // hamza under the alef, typed without
  { query: 'الاداره', word: 'الإدارة', count: 2 }, // and ta marbuta typed as ha
  { query: 'مسئولية', word: 'مسؤولية', count: 1 }, // hamza on ya for hamza on waw
  { query: 'المستشفي', word: 'المستشفى', count: 2 }, // ya for alef maqsura
  { query: 'محمد', word: 'مُحَمَّدٌ', count: 1 }, // the letter's diacritics
  { query: 'الاجْتِمَاع', word: 'الاجتماعَ', count: 1 }, // the query's diacritics
  { query: 'المالية', word: 'المالية', count: 2 }, // after a word whose last letters share a glyph run
  { query: 'BUDGET', word: 'Budget', count: 1 },
];

/** The letters of a text, whatever their form, order and marks: what a highlight covers, compared. */
const letters = (text: string) =>
  [
    ...text
      .normalize('NFKC')
      .replace(/[\s\p{Cc}\p{Mn}]/gu, '')
      .toLowerCase(),
  ]
    .sort()
    .join('');

test('find matches Arabic words in a PDF Chromium printed however they are typed, as server search does, and highlights the word', async ({
  page,
  shell,
}) => {
  test.setTimeout(240_000);
  const scratch = await page.context().newPage();
  await scratch.setContent(
    `<html dir="rtl" lang="ar"><body style="font-family: 'DejaVu Sans'; font-size: 20px; padding: 40px">${FIND_LETTER.map(
      (line) => `<p dir="auto">${line}</p>`,
    ).join('')}</body></html>`,
  );
  const pdf = await scratch.pdf({ format: 'A4' });
  await scratch.close();
  const api = await Api.administrator(shell.apiBaseUrl);
  const id = await draftWith(api, shell.apiBaseUrl, pdf, 'find.pdf');

  // The server's search finds the letter by each of these queries once it has read the file.
  for (const { query } of FIND_CASES)
    await expect
      .poll(
        async () =>
          (await api.ok<SearchPage>('GET', `/search?q=${encodeURIComponent(query)}`)).items.some(
            (hit) => hit.documentId === id,
          ),
        { timeout: 120_000, message: `server search for ${query}` },
      )
      .toBe(true);

  await openDraftAsAdmin(page, shell, id);
  await page.getByTestId('attachment-open').first().click();
  const viewer = page.getByTestId('pdf-viewer');
  await expect(viewer.locator('.page[data-page-number="1"] canvas')).toBeVisible();
  const find = viewer.locator('input[data-testid="pdf-find"], [data-testid="pdf-find"] input').first();
  const selected = async () =>
    letters((await viewer.locator('.textLayer .highlight.selected').allTextContents()).join(''));
  for (const { query, word, count } of FIND_CASES) {
    await find.fill(query);
    await expect(viewer.getByTestId('pdf-matches'), query).toHaveText(new RegExp(`^1 (من|of) ${count}$`));
    // The current match is the word's glyphs, all of them and nothing of its neighbours.
    await expect.poll(selected, { message: `highlight of ${query}` }).toBe(letters(word));
    if (count > 1) {
      await find.press('Enter');
      await expect(viewer.getByTestId('pdf-matches'), query).toHaveText(new RegExp(`^2 (من|of) ${count}$`));
      await expect.poll(selected, { message: `second highlight of ${query}` }).toBe(letters(word));
    }
  }
  await expect(viewer.locator('.textLayer .highlight')).not.toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/pdf-viewer-find-variants.png` });
  await find.fill('مناقصة');
  await expect(viewer.getByTestId('pdf-matches')).toHaveText(/غير موجود|Not found/);
  await expect(viewer.locator('.textLayer .highlight')).toHaveCount(0);
});

test("page 1 is read by pdf.js's worker once on the way to its first picture", async ({ page, shell }) => {
  test.setTimeout(180_000);
  const api = await Api.administrator(shell.apiBaseUrl);
  const id = await draftWith(api, shell.apiBaseUrl, await arabicPdf(page, 3, 'قراءة واحدة'), 'once.pdf');
  // Every operator list asked of the worker (pdf.js's message to it), by page and intent, from the start.
  await page.addInitScript(() => {
    const asked: string[] = [];
    (window as unknown as { opListsAsked: string[] }).opListsAsked = asked;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      const m = message as { action?: string; data?: { pageIndex?: number; intent?: number } } | null;
      if (m?.action === 'GetOperatorList')
        asked.push(`page ${m.data!.pageIndex! + 1} intent ${m.data!.intent}`);
      return (post as (...args: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
  });
  await openDraftAsAdmin(page, shell, id);
  await page.getByTestId('attachment-open').first().click();
  // What was asked by the frame page 1 is first seen drawn (the thumbnails, which draw page 1 again for
  // themselves, start after it).
  const asked = await page.evaluate(
    () =>
      new Promise<string[]>((done) => {
        const tick = () => {
          const first = document.querySelector('.pdfViewer .page[data-page-number="1"]');
          if (first?.getAttribute('data-loaded') && first.querySelector('canvas'))
            done([...(window as unknown as { opListsAsked: string[] }).opListsAsked]);
          else requestAnimationFrame(tick);
        };
        tick();
      }),
  );
  // One list for page 1, of the intent the viewer draws with (an early one of another intent, such as
  // getOperatorList's "oplist", would have the worker read the page and its images twice). Page 2, in
  // view below it, has its own.
  expect(asked.filter((a) => a.startsWith('page 1 '))).toHaveLength(1);
  await expect(page.getByTestId('pdf-viewer').getByTestId('pdf-page-count')).toContainText('3');
});

test('the page fits the width of its pane when the viewer opens and whenever the pane changes size, in both languages', async ({
  page,
  shell,
}) => {
  test.setTimeout(300_000);
  const api = await Api.administrator(shell.apiBaseUrl);
  const id = await draftWith(api, shell.apiBaseUrl, await arabicPdf(page, 3, 'ملء العرض'), 'fit.pdf');
  const app = await openDraftAsAdmin(page, shell, id);
  const viewer = page.getByTestId('pdf-viewer');
  /** How page 1 sits in its pane: no horizontal overflow, inside the pane, filling its width. */
  const fits = () =>
    viewer.getByTestId('pdf-pages').evaluate((pane) => {
      const first = pane.querySelector('.page[data-page-number="1"]')!.getBoundingClientRect();
      const box = pane.getBoundingClientRect();
      const inside = first.left >= box.left - 1 && first.right <= box.left + pane.clientWidth + 1;
      const fill = first.width / pane.clientWidth;
      return pane.scrollWidth <= pane.clientWidth && inside && fill > 0.9 && fill <= 1
        ? 'fits'
        : `overflow ${pane.scrollWidth - pane.clientWidth}px, page ${Math.round(first.width)}px in ${pane.clientWidth}px`;
    });
  const sizes = [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ];
  for (const lang of ['ar', 'en'] as const)
    for (const [i, size] of sizes.entries()) {
      await page.setViewportSize(size);
      await useLanguage(page, app, lang);
      await watchOpening(page);
      await page.getByTestId('attachment-open').first().click();
      await expect(viewer.locator('.page[data-page-number="1"] canvas')).toBeVisible();
      // The pages are made at the fit width at once (pdf.js does not lay them out at 100 % first), and
      // the page pane stays where it is when the toolbar comes (after the first page).
      await expect.poll(async () => (await openingSeen(page)).toolbarCame).toBe(true);
      const seen = await openingSeen(page);
      expect(seen.scales, `${lang} ${size.width}: the pages' scales on opening`).toHaveLength(1);
      expect(new Set(seen.paneTops), `${lang} ${size.width}: the pane's top`).toEqual(
        new Set([seen.paneTops[0]]),
      );
      // On opening, with the thumbnails beside the page.
      await expect(viewer.getByTestId('pdf-thumbnails').locator('canvas').first()).toBeVisible();
      await expect.poll(fits, { message: `${lang} ${size.width}: on opening` }).toBe('fits');
      // The pages' landmarks are named in the screen's language (not pdf.js's English).
      await expect(viewer.locator('.page[data-page-number="2"]')).toHaveAttribute(
        'aria-label',
        lang === 'ar' ? 'الصفحة 2' : 'Page 2',
      );
      if (size.width === 1280) await page.screenshot({ path: `${SCREENS}/pdf-viewer-fit-${lang}.png` });
      // Thumbnails hidden (a wider pane), then shown again (a narrower one).
      const thumbs = viewer.locator('button[aria-pressed]').first();
      await thumbs.click();
      await expect(viewer.getByTestId('pdf-thumbnails')).toHaveCount(0);
      await expect.poll(fits, { message: `${lang} ${size.width}: thumbnails hidden` }).toBe('fits');
      await thumbs.click();
      await expect(viewer.getByTestId('pdf-thumbnails')).toBeVisible();
      await expect.poll(fits, { message: `${lang} ${size.width}: thumbnails shown` }).toBe('fits');
      // The window (and the dialog with it) resized to the other size.
      await page.setViewportSize(sizes[1 - i]!);
      await expect.poll(fits, { message: `${lang} ${size.width}: window resized` }).toBe('fits');
      await page.locator('.ant-modal-close').click();
      await expect(viewer).toHaveCount(0);
    }
});
