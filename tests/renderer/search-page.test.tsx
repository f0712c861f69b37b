/**
 * The search page against a fake API: words or filters in the address run the search (filters alone list
 * what they keep, as a dashboard's figure opens them); neither shows the hint and asks nothing; words too
 * common to search by, and filters that keep nothing, each say so.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type * as HttpModuleValue from '../../src-renderer/lib/http';
import { initI18n } from '../../src-renderer/lib/i18n';
import { Component as SearchPage } from '../../src-renderer/features/correspondence/search/SearchPage';
import type { SearchHit, SearchPage as SearchAnswer } from '../../src-shared/api/search';
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

function hit(id: number): SearchHit {
  const subject = `Letter ${id} about the budget`;
  return {
    documentId: id,
    direction: 'in',
    state: 'registered',
    docNumber: `IN-2026-${id}`,
    senderDocumentNumber: null,
    subject,
    sender: null,
    documentDate: '2026-11-02',
    date: '2026-11-03T08:00:00.000Z',
    securityLevel: null,
    numberMatch: false,
    snippets: [
      { field: 'subject', text: subject, highlights: [], before: false, after: false, attachment: null },
    ],
  };
}

const answer = (items: SearchHit[], terms: string[][] = []): SearchAnswer => ({
  items,
  total: items.length,
  page: 1,
  pageSize: 20,
  totalExact: true,
  terms,
  ignored: [],
  missing: [],
  partial: false,
});

let fake: ReturnType<typeof fakeHttp>;
let found: SearchAnswer;

beforeAll(async () => {
  await initI18n('en');
});

beforeEach(() => {
  found = answer([hit(12), hit(11)]);
  fake = fakeHttp({
    'GET /search': () => found,
  });
  holder.fake = fake as never;
});

function open(address: string) {
  renderScreen(
    <MemoryRouter initialEntries={[address]}>
      <SearchPage />
    </MemoryRouter>,
  );
}

const searches = () => fake.calls.filter((c) => c.path === '/search');

describe('the search page', () => {
  it('lists what the filters in the address keep, without words', async () => {
    open('/search/documents?direction=in&fromDate=2026-11-01&toDate=2026-11-30&departmentId=3');
    const results = await screen.findByTestId('search-results');
    await waitFor(() => expect(within(results).getAllByTestId('search-hit')).toHaveLength(2));
    expect(searches()[0]!.query).toEqual({
      page: '1',
      pageSize: '20',
      direction: 'in',
      fromDate: '2026-11-01',
      toDate: '2026-11-30',
      departmentId: '3',
    });
    expect(screen.getByTestId('search-total').textContent).toBe('2 documents');
    expect(within(results).getAllByTestId('search-hit-link')[0]!.textContent).toBe(
      'Letter 12 about the budget',
    );
    expect(screen.queryByTestId('search-hint')).toBeNull();
    // The filters shown are those of the address, and can be cleared.
    expect(screen.getByTestId('search-clear-filters')).toBeTruthy();
  });

  it('says so when the filters keep nothing (not that the words are too common)', async () => {
    found = answer([]);
    open('/search/documents?state=draft');
    expect((await screen.findByTestId('search-empty')).textContent).toContain(
      'No document you may see matches these filters.',
    );
    expect(screen.queryByTestId('search-no-terms')).toBeNull();
  });

  it('shows the hint and asks nothing with neither words nor filters', async () => {
    open('/search/documents');
    expect(await screen.findByTestId('search-hint')).toBeTruthy();
    expect(searches()).toEqual([]);
  });

  it('searches the words with the filters', async () => {
    found = answer([hit(5)], [['budget']]);
    open('/search/documents?q=budget&direction=in');
    await waitFor(() => expect(screen.getAllByTestId('search-hit')).toHaveLength(1));
    expect(searches()[0]!.query).toMatchObject({ q: 'budget', direction: 'in' });
  });

  it('says the words are too common when nothing was left to search by', async () => {
    found = answer([]);
    open('/search/documents?q=the');
    expect(await screen.findByTestId('search-no-terms')).toBeTruthy();
  });
});
