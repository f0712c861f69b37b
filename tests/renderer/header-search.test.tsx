/**
 * The header's search box against a fake API whose answers the test lets go one by one: after a pause in
 * the typing the list of suggestions shows (an ARIA combobox), the arrows and Enter open the chosen
 * document, Enter with none chosen searches, Escape closes the list, nothing is asked under the least the
 * server wants, an answer for an earlier text is never shown, and no answer changes what the box holds.
 * In both languages.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes as RouterRoutes, useLocation } from 'react-router-dom';
import type * as HttpModuleValue from '../../src-renderer/lib/http';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import {
  HeaderSearch,
  SUGGEST_PAUSE_MS,
} from '../../src-renderer/features/correspondence/search/HeaderSearch';
import type { Suggestion } from '../../src-shared/api/search';
import { PAGES } from '../../src-shared/pages';
import { fakeHttp, renderScreen } from './admin-harness';

type HttpModule = typeof HttpModuleValue;
const holder = vi.hoisted(() => ({
  fake: null as unknown as { http: Record<string, (...args: unknown[]) => unknown> },
}));
vi.mock('../../src-renderer/lib/http', async (original) => ({
  ...(await original<HttpModule>()),
  http: {
    get: (...a: unknown[]) => holder.fake.http.get!(...a),
    post: (...a: unknown[]) => holder.fake.http.post!(...a),
    put: (...a: unknown[]) => holder.fake.http.put!(...a),
    patch: (...a: unknown[]) => holder.fake.http.patch!(...a),
    delete: (...a: unknown[]) => holder.fake.http.delete!(...a),
  },
}));

function suggestion(id: number, subject: string, kind: Suggestion['kind'] = 'subject'): Suggestion {
  return { documentId: id, kind, docNumber: `IN-2026-${id}`, subject, direction: 'in' };
}

/** An answer the test lets go when it chooses. */
interface Pending {
  q: string;
  answer: (items: Suggestion[]) => void;
}

let fake: ReturnType<typeof fakeHttp>;
let pending: Pending[];
/** When set, every question is answered at once with this. */
let answerAtOnce: ((q: string) => Suggestion[]) | null;

beforeEach(() => {
  pending = [];
  answerAtOnce = null;
  fake = fakeHttp({
    'GET /search/suggest': (_body, query) => {
      const q = (query as { q: string }).q;
      if (answerAtOnce) return answerAtOnce(q);
      return new Promise<Suggestion[]>((resolve) => pending.push({ q, answer: resolve }));
    },
  });
  holder.fake = fake as never;
});

function Where() {
  const location = useLocation();
  return (
    <span data-testid="where" data-back={(location.state as { back?: string } | null)?.back ?? ''}>
      {`${location.pathname}${location.search}`}
    </span>
  );
}

async function renderBox(lang: 'ar' | 'en' = 'en') {
  await initI18n(lang);
  await i18n.changeLanguage(lang);
  renderScreen(
    <MemoryRouter initialEntries={['/home']}>
      <HeaderSearch />
      <RouterRoutes>
        <Route path="*" element={<Where />} />
      </RouterRoutes>
    </MemoryRouter>,
  );
  return screen.getByRole('combobox') as HTMLInputElement;
}

const asked = () =>
  fake.calls.filter((c) => c.path === '/search/suggest').map((c) => (c.query as { q: string }).q);
const options = () => screen.queryAllByRole('option');
const where = () => screen.getByTestId('where');

/** Types `text` into the box, as the browser does: the input's value, then its input event. */
function type(box: HTMLInputElement, text: string) {
  fireEvent.change(box, { target: { value: text } });
}

/** Lets the answer to `q` go (the first one asked for it that is still waiting). */
async function answer(q: string, items: Suggestion[]) {
  await waitFor(() => expect(pending.some((p) => p.q === q)).toBe(true));
  const i = pending.findIndex((p) => p.q === q);
  const [p] = pending.splice(i, 1);
  await act(async () => p!.answer(items));
}

describe("the header's search box", () => {
  it('lists the suggestions for what was typed, as a combobox with its listbox', async () => {
    const box = await renderBox();
    expect(box.getAttribute('aria-expanded')).toBe('false');
    type(box, 'budget rep');
    await answer('budget rep', [
      suggestion(7, 'Budget report 2026', 'number'),
      suggestion(8, 'Budget reply'),
    ]);
    await waitFor(() => expect(options()).toHaveLength(2));
    const list = screen.getByRole('listbox', { name: 'Suggested documents' });
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(box.getAttribute('aria-controls')).toBe(list.id);
    expect(box.getAttribute('aria-activedescendant')).toBeNull();
    const first = options()[0]!;
    expect(within(first).getByTestId('header-suggestion-number').textContent).toBe('IN-2026-7');
    expect(within(first).getByTestId('header-suggestion-number').getAttribute('dir')).toBe('ltr');
    const subject = within(first).getByText('Budget report 2026');
    expect([subject.getAttribute('lang'), subject.getAttribute('dir')]).toEqual(['en', 'ltr']);
    expect(box.value).toBe('budget rep');
    // Asked once, for the text as it stood when the typing paused.
    expect(asked()).toEqual(['budget rep']);
  });

  it('opens the document chosen with the arrows and Enter (round past the ends)', async () => {
    const box = await renderBox();
    type(box, 'budget');
    await answer('budget', [
      suggestion(7, 'Budget report'),
      suggestion(8, 'Budget reply'),
      suggestion(9, 'Budget'),
    ]);
    await waitFor(() => expect(options()).toHaveLength(3));
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[0]!.id);
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[2]!.id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[1]!.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(where().textContent).toBe(`${PAGES.search}/8`));
    // Back from the document returns to where the box was used.
    expect(where().dataset.back).toBe('/home');
    expect(box.value).toBe('');
    expect(options()).toHaveLength(0);
  });

  it('searches what was typed when Enter is pressed with no suggestion chosen', async () => {
    const box = await renderBox();
    type(box, 'budget report');
    await answer('budget report', [suggestion(7, 'Budget report')]);
    await waitFor(() => expect(options()).toHaveLength(1));
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() =>
      expect(where().textContent).toBe(`${PAGES.search}?${new URLSearchParams({ q: 'budget report' })}`),
    );
    expect(options()).toHaveLength(0);
  });

  it('opens a suggestion by a click', async () => {
    const box = await renderBox();
    type(box, 'budget');
    await answer('budget', [suggestion(7, 'Budget report'), suggestion(8, 'Budget reply')]);
    await waitFor(() => expect(options()).toHaveLength(2));
    fireEvent.click(options()[1]!);
    await waitFor(() => expect(where().textContent).toBe(`${PAGES.search}/8`));
  });

  it('closes the list on Escape, on Tab and when the box is left, and keeps the text', async () => {
    const box = await renderBox();
    type(box, 'budget');
    await answer('budget', [suggestion(7, 'Budget report')]);
    await waitFor(() => expect(options()).toHaveLength(1));
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(options()).toHaveLength(0);
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.getAttribute('aria-activedescendant')).toBeNull();
    expect(box.value).toBe('budget');
    // Enter now searches: the suggestion the arrows were on is no longer chosen.
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(options()).toHaveLength(1);
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(options()).toHaveLength(0);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(options()).toHaveLength(1);
    fireEvent.blur(box);
    expect(options()).toHaveLength(0);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(where().textContent).toBe(`${PAGES.search}?q=budget`));
  });

  it('asks nothing under the least the server wants', async () => {
    answerAtOnce = () => [suggestion(1, 'Budget')];
    const box = await renderBox();
    // Each left standing well past the pause: neither is asked for (one letter, then one between blanks).
    type(box, 'b');
    await new Promise((r) => setTimeout(r, SUGGEST_PAUSE_MS * 3));
    type(box, ' b ');
    await new Promise((r) => setTimeout(r, SUGGEST_PAUSE_MS * 3));
    expect(asked()).toEqual([]);
    expect(options()).toHaveLength(0);
    type(box, ' bu');
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(asked()).toEqual([' bu']);
  });

  it('shows only the answer for what the box holds: an earlier answer arriving late is left unshown', async () => {
    const box = await renderBox();
    type(box, 'budget re');
    await waitFor(() => expect(asked()).toEqual(['budget re']));
    type(box, 'budget rep');
    await waitFor(() => expect(asked()).toEqual(['budget re', 'budget rep']));
    // The answer to the later text comes first, then the earlier one.
    await answer('budget rep', [suggestion(8, 'Budget reply')]);
    await waitFor(() => expect(options()).toHaveLength(1));
    await answer('budget re', [suggestion(7, 'Budget review'), suggestion(9, 'Budget request')]);
    await new Promise((r) => setTimeout(r, 50));
    expect(options().map((o) => o.textContent)).toEqual(['IN-2026-8Budget reply']);
    expect(box.value).toBe('budget rep');
    // Typed on, the list of the text before is not shown while the new one is asked for.
    type(box, 'budget repo');
    expect(options()).toHaveLength(0);
    await answer('budget repo', [suggestion(10, 'Budget report')]);
    await waitFor(() => expect(options().map((o) => o.textContent)).toEqual(['IN-2026-10Budget report']));
  });

  it('never changes what the box holds when an answer arrives, whatever is typed meanwhile', async () => {
    const box = await renderBox();
    type(box, 'budget ');
    await waitFor(() => expect(asked()).toEqual(['budget ']));
    // Typed on while the answer is on its way: a space at the end, then another word.
    type(box, 'budget  ');
    await answer('budget ', [suggestion(7, 'Budget report')]);
    expect(box.value).toBe('budget  ');
    type(box, 'budget  rep');
    await answer('budget  rep', [suggestion(7, 'Budget report')]);
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(box.value).toBe('budget  rep');
  });

  it('in Arabic: the subject in Arabic, the number left to right, the list named', async () => {
    const box = await renderBox('ar');
    type(box, 'خطاب وارد');
    await answer('خطاب وارد', [suggestion(4, 'خطاب وارد من الجمعية')]);
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(screen.getByRole('listbox', { name: 'مراسلات مقترحة' })).toBeTruthy();
    const subject = within(options()[0]!).getByText('خطاب وارد من الجمعية');
    expect([subject.getAttribute('lang'), subject.getAttribute('dir')]).toEqual(['ar', 'rtl']);
    expect(within(options()[0]!).getByTestId('header-suggestion-number').getAttribute('dir')).toBe('ltr');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(where().textContent).toBe(`${PAGES.search}/4`));
  });
});
