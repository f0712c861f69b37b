/**
 * A big list in the generic table (issue 15): a total the server only counted up to a limit reads "more
 * than" in both languages (Arabic with its own digits and separators when the user chose them); the pager
 * still goes on past it, sends the cursor of the page it came from, and the jump box reaches any page
 * number. The cursor bookkeeping (which known position is nearest a page) is tested on its own.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DataTable, type DataTableColumn, type ListPage } from '../../src-renderer/components/DataTable';
import { PageCursors, pagerTotal } from '../../src-renderer/components/data-table/paging';
import { initI18n, i18n } from '../../src-renderer/lib/i18n';
import { setDigitStyle } from '../../src-renderer/lib/format';

interface Row {
  id: number;
  subject: string;
}
const columns: DataTableColumn<Row>[] = [{ key: 'subject', title: 'table:search.label' }];

/** A list of more than 10,000 rows, as a big box answers: a lower bound and a cursor on every page. */
function bigList() {
  return vi.fn(async (_path: string, query: Record<string, string | number>): Promise<ListPage<Row>> => {
    const page = Number(query.page);
    const pageSize = Number(query.pageSize);
    const from = (page - 1) * pageSize;
    return {
      items: Array.from({ length: pageSize }, (_, i) => ({
        id: from + i + 1,
        subject: `row ${from + i + 1}`,
      })),
      total: Math.max(10_000, page * pageSize),
      totalExact: false,
      page,
      pageSize,
      next: `cursor-${page}`,
    };
  });
}

function renderTable(fetcher: ReturnType<typeof bigList>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DataTable<Row>
        queryKey={['test', 'big']}
        endpoint="/big"
        columns={columns}
        rowKey={(r) => r.id}
        emptyMessageKey="table:loadFailed"
        searchable={false}
        fetcher={fetcher}
      />
    </QueryClientProvider>,
  );
}

describe('a capped total', () => {
  beforeAll(async () => {
    await initI18n('en');
  });
  afterEach(async () => {
    setDigitStyle('latn');
    await i18n.changeLanguage('en');
  });

  it('reads "more than" in English, and the pager and the jump box go past it', async () => {
    const fetcher = bigList();
    renderTable(fetcher);
    expect(await screen.findByText('1–20 of more than 10,000')).toBeTruthy();
    // The pages known to exist: 10,001 rows at least, so page 501 is the last one offered.
    expect(screen.getByTitle('501')).toBeTruthy();
    expect(screen.queryByTitle('502')).toBeNull();
    // Next sends the cursor of the page it came from.
    fireEvent.click(screen.getByTitle('Next Page'));
    await waitFor(() =>
      expect(fetcher).toHaveBeenLastCalledWith('/big', { page: 2, pageSize: 20, after: 'cursor-1' }),
    );
    expect(await screen.findByText('21–40 of more than 10,000')).toBeTruthy();
    // A jump past what was counted: any page number, from the nearest cursor known (page 2's end).
    fireEvent.change(screen.getByLabelText('Go to page'), { target: { value: '2500' } });
    fireEvent.click(screen.getByTestId('data-table-jump-go'));
    await waitFor(() =>
      expect(fetcher).toHaveBeenLastCalledWith('/big', { page: 2500, pageSize: 20, after: 'cursor-2' }),
    );
    expect(await screen.findByText('49,981–50,000 of more than 50,000')).toBeTruthy();
    // And on from there: the next page exists while the server gives a cursor.
    expect(screen.getByTitle('2501')).toBeTruthy();
    fireEvent.click(screen.getByTitle('Previous Page'));
    await waitFor(() =>
      expect(fetcher).toHaveBeenLastCalledWith('/big', { page: 2499, pageSize: 20, after: 'cursor-2500' }),
    );
  });

  it('reads «أكثر من» in Arabic, with Arabic-Indic digits and separators when chosen', async () => {
    await i18n.changeLanguage('ar');
    const { unmount } = renderTable(bigList());
    expect(await screen.findByText('1–20 من أكثر من 10,000')).toBeTruthy();
    unmount();
    setDigitStyle('arab');
    renderTable(bigList());
    expect(await screen.findByText('١–٢٠ من أكثر من ١٠٬٠٠٠')).toBeTruthy();
  });

  it('an exact total reads as before, with no "more than"', async () => {
    const fetcher = vi.fn(async () => ({
      items: [{ id: 1, subject: 'one' }],
      total: 1,
      totalExact: true,
      page: 1,
      pageSize: 20,
    }));
    renderTable(fetcher as unknown as ReturnType<typeof bigList>);
    expect(await screen.findByText('1–1 of 1')).toBeTruthy();
    expect(screen.queryByText(/more than/)).toBeNull();
  });
});

describe('page cursors', () => {
  it('counts a lower bound as one row more', () => {
    expect(pagerTotal({ total: 10_000, totalExact: false })).toBe(10_001);
    expect(pagerTotal({ total: 42, totalExact: true })).toBe(42);
    expect(pagerTotal({ total: 42 })).toBe(42);
    expect(pagerTotal(undefined)).toBe(0);
  });

  it('offers the cursor that passes over the fewest rows, and forgets them when the query changes', () => {
    const cursors = new PageCursors();
    const q = '["a"]';
    expect(cursors.nearest(q, 5, 20)).toBeUndefined();
    cursors.remember(q, { page: 1, pageSize: 20, next: 'end-of-1' });
    cursors.remember(q, { page: 9, pageSize: 20, next: 'end-of-9' });
    cursors.remember(q, { page: 10, pageSize: 20 }); // the last page: no cursor
    expect(cursors.nearest(q, 1, 20)).toBeUndefined(); // the top is nearest
    expect(cursors.nearest(q, 2, 20)).toBe('end-of-1');
    expect(cursors.nearest(q, 4, 20)).toBe('end-of-1');
    expect(cursors.nearest(q, 8, 20)).toBe('end-of-9'); // back from page 9's end
    expect(cursors.nearest(q, 10, 20)).toBe('end-of-9');
    // Page 9 again: its own cursor marks its end, not its start; page 1's is nearer than the top.
    expect(cursors.nearest(q, 9, 20)).toBe('end-of-1');
    // Another page size: positions are rows, so they still serve (row 180 ends page 18 of 10).
    expect(cursors.nearest(q, 19, 10)).toBe('end-of-9');
    // Another query: nothing known.
    expect(cursors.nearest('["b"]', 2, 20)).toBeUndefined();
    expect(cursors.nearest(q, 2, 20)).toBeUndefined();
  });
});
