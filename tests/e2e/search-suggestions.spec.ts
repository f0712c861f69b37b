/**
 * The header's search suggestions in Chromium at 1280 px, in Arabic and in English: a clerk types fast
 * (no delay between keys, several words with spaces) while suggestions are asked for and drawn, and the box
 * holds exactly what was typed with the caret at its end; the list shows the letter by its number and
 * subject; the arrows choose it and Enter opens it. A file of its own: search.spec.ts reads a scan by OCR
 * first, which takes minutes. Steady under `--repeat-each=5` (the tests of this file share one shell: the
 * office is seeded once). Screenshots in test-results/screens (search-suggestions-*.png).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test, type WebShellProcess } from './fixtures';
import { Api, registerIncoming, seedArchiveOffice } from './support/api';
import { AdminShell } from './pages/AdminScreens';
import { PAGES } from '../../src-shared/pages';

const SCREENS = 'test-results/screens';
const PASSWORD = 'Suggest#2026';
const USERNAME = 'suggester';

test.use({ viewport: { width: 1280, height: 800 } });

interface Letter {
  id: number;
  docNumber: string;
}

/** The letters of the office, seeded once for the shell all the tests of this file share. */
const seeded = new Map<string, Promise<{ ar: Letter; en: Letter }>>();

function seed(shell: WebShellProcess) {
  let letters = seeded.get(shell.url);
  if (!letters) {
    letters = (async () => {
      const admin = await Api.administrator(shell.apiBaseUrl);
      const office = await seedArchiveOffice(admin, {
        roleName: 'Suggestions Clerk',
        pages: {
          [PAGES.inboxAdd]: ['add'],
          [PAGES.inboxDrafts]: ['add', 'edit', 'delete'],
          [PAGES.incoming]: ['edit', 'distribute'],
          [PAGES.search]: ['view'],
        },
        username: USERNAME,
        password: PASSWORD,
      });
      const letter = (subject: string): Promise<Letter> => registerIncoming(office, subject);
      // Letters that share their first words, so the list changes as each word is typed.
      const ar = await letter('خطاب وارد من الجمعية الخيرية بشأن الاجتماع السنوي');
      await letter('خطاب وارد من الوزارة بشأن الميزانية');
      await letter('خطاب آخر لا صلة له');
      const en = await letter('Annual budget report of the finance committee');
      await letter('Annual budget review for the ministry');
      await letter('Annual leave rules');
      return { ar, en };
    })();
    seeded.set(shell.url, letters);
  }
  return letters;
}

/** Signs in (unless the shell still is) and puts the interface in `lang`. */
async function signInIn(page: Page, shell: WebShellProcess, lang: 'ar' | 'en') {
  const app = new AdminShell(page);
  await app.open(shell.url);
  // The shell keeps the session (main holds it): the tests after the first find the clerk signed in.
  const login = page.getByTestId('login');
  await expect(app.menu().or(login)).toBeVisible();
  if (await login.isVisible()) await app.signIn(USERNAME, PASSWORD);
  await app.goTo(shell.url, PAGES.incoming);
  if ((await page.locator('html').getAttribute('lang')) !== lang) await app.switchLanguage();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

/** What the box holds and where its caret is. */
const stateOf = (box: Locator) =>
  box.evaluate((el: HTMLInputElement) => ({
    value: el.value,
    start: el.selectionStart,
    end: el.selectionEnd,
  }));

/** The box holds exactly `typed`, the caret (no selection) at its end. */
async function expectTyped(box: Locator, typed: string) {
  expect(await stateOf(box)).toEqual({ value: typed, start: typed.length, end: typed.length });
}

/**
 * The texts suggestions were asked for, as the page sends them to the shell (its bridge's WebSocket, from
 * the page's first load: call before opening it).
 */
function watchAsked(page: Page): string[] {
  const asked: string[] = [];
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') return;
      const input = (JSON.parse(payload) as { input?: { path?: string; query?: { q?: string } } }).input;
      if (input?.path === '/search/suggest' && input.query?.q !== undefined) asked.push(input.query.q);
    }),
  );
  return asked;
}

/**
 * What the typist does after a chunk: go straight on, wait until the text is asked for (its answer then
 * comes while the next keys arrive), or wait until the list is drawn.
 */
type Then = 'nothing' | 'asked' | 'list';

/**
 * Types the chunks into the box as a fast typist does, with no delay between keys; after each chunk the
 * typist goes straight on, or waits until its text is asked for and goes on while the answer comes and is
 * drawn, or waits until the list is drawn. At every step the box holds what was typed, caret at the end.
 */
async function typeFast(page: Page, box: Locator, asked: string[], chunks: [string, Then][]) {
  let typed = '';
  for (const [text, then] of chunks) {
    await page.keyboard.type(text);
    typed += text;
    await expectTyped(box, typed);
    if (then === 'asked') await expect.poll(() => asked.includes(typed), { intervals: [10] }).toBe(true);
    if (then === 'list') await expect(page.getByRole('listbox')).toBeVisible();
    await expectTyped(box, typed);
  }
  return typed;
}

/** Chooses the option holding `docNumber` with the arrows (from none chosen) and checks it is the active one. */
async function chooseWithArrows(page: Page, box: Locator, docNumber: string) {
  const options = page.getByRole('option');
  const texts = await options.allInnerTexts();
  const index = texts.findIndex((t) => t.includes(docNumber));
  expect(index, `a suggestion with ${docNumber} among ${texts.join(' | ')}`).toBeGreaterThanOrEqual(0);
  for (let i = 0; i <= index; i += 1) await page.keyboard.press('ArrowDown');
  const chosen = options.nth(index);
  await expect(chosen).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await chosen.getAttribute('id'))!);
}

for (const lang of ['ar', 'en'] as const) {
  test(`a clerk types fast in the header's box and opens a suggested letter with the keyboard (${lang})`, async ({
    page,
    shell,
  }) => {
    const letters = await seed(shell);
    const letter = letters[lang];
    const asked = watchAsked(page);
    await signInIn(page, shell, lang);
    const box = page.getByRole('combobox', {
      name: lang === 'ar' ? 'البحث في المراسلات' : 'Search correspondence',
    });
    await box.click();
    const chunks: [string, Then][] =
      lang === 'ar'
        ? [
            ['خطاب وا', 'list'],
            ['رد من ا', 'asked'],
            ['لجمعية ا', 'nothing'],
            ['لخي', 'asked'],
            ['رية بشأن الاجت', 'list'],
          ]
        : [
            ['Annual bu', 'list'],
            ['dget re', 'asked'],
            ['port of ', 'nothing'],
            ['the fin', 'asked'],
            ['ance comm', 'list'],
          ];
    const typed = await typeFast(page, box, asked, chunks);

    // The list is for all that was typed: only the letter it leads to, by number and subject.
    const options = page.getByRole('option');
    await expect(options).toHaveCount(1);
    await expect(options.first()).toContainText(letter.docNumber);
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await expectTyped(box, typed);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SCREENS}/search-suggestions-${lang}.png` });

    // Escape closes the list and keeps the text; the arrow opens it again.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('listbox')).toBeHidden();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expectTyped(box, typed);
    await page.keyboard.press('ArrowDown');
    await expect(options).toHaveCount(1);

    // Typed on from the start of a new word, the list follows; the arrows choose, Enter opens.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    const again = await typeFast(page, box, asked, [
      [lang === 'ar' ? 'خطاب وارد من ا' : 'Annual budget re', 'list'],
    ]);
    await expect(options).toHaveCount(2);
    await expectTyped(box, again);
    await chooseWithArrows(page, box, letter.docNumber);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('doc-number')).toContainText(letter.docNumber);
    expect(page.url()).toContain(`${PAGES.search}/${letter.id}`);
  });
}
