/**
 * The generic server-side table: the filter model as pure functions (it must produce exactly API.md's
 * `filters` JSON, which the server parses with `filtersSchema`), and DataTable itself against a fake
 * fetcher — the query it sends for paging, sorting, search and a column filter, and its empty state.
 */
import { describe, expect, it, beforeAll, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { filtersSchema, listQuerySchema } from '../../src-shared/filters';
import {
  MATCH_MODES_BY_TYPE,
  buildFilters,
  buildListQuery,
  emptyColumnFilter,
  isColumnFilterActive,
  matchModesFor,
  mergeFilters,
  parseSort,
  sortParam,
} from '../../src-renderer/components/data-table/filterModel';
import { DataTable, type DataTableColumn, type ListPage } from '../../src-renderer/components/DataTable';
import { initI18n } from '../../src-renderer/lib/i18n';

describe('filter model', () => {
  it('offers the specification match modes by value kind, the first being the default', () => {
    expect(MATCH_MODES_BY_TYPE.text).toEqual([
      'contains',
      'startsWith',
      'endsWith',
      'notContains',
      'equals',
      'notEquals',
    ]);
    expect(MATCH_MODES_BY_TYPE.number).toEqual(['equals', 'notEquals', 'lt', 'lte', 'gt', 'gte']);
    expect(MATCH_MODES_BY_TYPE.date).toEqual(['dateIs', 'dateIsNot', 'dateBefore', 'dateAfter']);
    expect(emptyColumnFilter('date')).toEqual({
      operator: 'and',
      constraints: [{ matchMode: 'dateIs', value: null }],
    });
    expect(matchModesFor('text', ['equals'])).toEqual(['equals']);
    expect(matchModesFor('text', [])).toBe(MATCH_MODES_BY_TYPE.text);
  });

  it('builds exactly the filters JSON of API.md', () => {
    const filters = buildFilters({
      username: {
        operator: 'or',
        constraints: [
          { matchMode: 'startsWith', value: ' adm ' },
          { matchMode: 'endsWith', value: 'in' },
        ],
      },
      active: { operator: 'and', constraints: [{ matchMode: 'equals', value: false }] },
      createdAt: { operator: 'and', constraints: [{ matchMode: 'dateAfter', value: '2025-01-31' }] },
      id: { operator: 'and', constraints: [{ matchMode: 'gte', value: 0 }] },
    });
    expect(filters).toEqual({
      username: {
        operator: 'or',
        constraints: [
          { value: 'adm', matchMode: 'startsWith' },
          { value: 'in', matchMode: 'endsWith' },
        ],
      },
      active: { operator: 'and', constraints: [{ value: false, matchMode: 'equals' }] },
      createdAt: { operator: 'and', constraints: [{ value: '2025-01-31', matchMode: 'dateAfter' }] },
      id: { operator: 'and', constraints: [{ value: 0, matchMode: 'gte' }] },
    });
    // What the server parses is what was built.
    expect(filtersSchema.parse(filters)).toEqual(filters);
  });

  it('drops blank constraints and empty fields, and answers undefined when nothing remains', () => {
    expect(
      buildFilters({
        email: {
          operator: 'and',
          constraints: [
            { matchMode: 'contains', value: '  ' },
            { matchMode: 'equals', value: null },
          ],
        },
        nameAr: {
          operator: 'or',
          constraints: [
            { matchMode: 'contains', value: '' },
            { matchMode: 'contains', value: 'أحمد' },
          ],
        },
      }),
    ).toEqual({ nameAr: { operator: 'or', constraints: [{ value: 'أحمد', matchMode: 'contains' }] } });
    expect(buildFilters({ email: emptyColumnFilter('text') })).toBeUndefined();
    expect(buildFilters({})).toBeUndefined();
    expect(isColumnFilterActive(emptyColumnFilter('text'))).toBe(false);
    expect(
      isColumnFilterActive({ operator: 'and', constraints: [{ matchMode: 'equals', value: false }] }),
    ).toBe(true);
  });

  it('keeps at most ten constraints per field, the server limit', () => {
    const constraints = Array.from({ length: 12 }, (_, i) => ({
      matchMode: 'contains' as const,
      value: `v${i}`,
    }));
    expect(buildFilters({ q: { operator: 'or', constraints } })!.q!.constraints).toHaveLength(10);
  });

  it('merges a screen filter with the user filters', () => {
    const user = {
      action: {
        operator: 'and' as const,
        constraints: [{ value: 'users', matchMode: 'startsWith' as const }],
      },
    };
    const fixed = {
      at: {
        operator: 'and' as const,
        constraints: [{ value: '2025-01-01', matchMode: 'dateAfter' as const }],
      },
    };
    expect(mergeFilters(user, fixed)).toEqual({ ...user, ...fixed });
    expect(mergeFilters(undefined, fixed)).toBe(fixed);
    expect(mergeFilters(user, undefined)).toBe(user);
    const sameField = {
      action: { operator: 'and' as const, constraints: [{ value: 'x', matchMode: 'endsWith' as const }] },
    };
    expect(mergeFilters(user, sameField)!.action!.constraints).toHaveLength(2);
    const userOr = { action: { operator: 'or' as const, constraints: user.action.constraints } };
    expect(mergeFilters(userOr, sameField)).toEqual(sameField);
  });

  it('writes and reads sort=field|-field', () => {
    expect(sortParam('username', 'ascend')).toBe('username');
    expect(sortParam('createdAt', 'descend')).toBe('-createdAt');
    expect(sortParam('createdAt', null)).toBeUndefined();
    expect(sortParam(undefined, 'ascend')).toBeUndefined();
    expect(parseSort('-createdAt')).toEqual({ field: 'createdAt', order: 'descend' });
    expect(parseSort('id')).toEqual({ field: 'id', order: 'ascend' });
    expect(parseSort(undefined)).toBeNull();
  });

  it('builds the list query the server accepts, omitting empty parts', () => {
    expect(buildListQuery({ page: 1, pageSize: 20 })).toEqual({ page: 1, pageSize: 20 });
    const filters = {
      email: { operator: 'and' as const, constraints: [{ value: 'x', matchMode: 'contains' as const }] },
    };
    const query = buildListQuery({ page: 2, pageSize: 50, sort: '-id', q: '  sara ', filters });
    expect(query).toEqual({
      page: 2,
      pageSize: 50,
      sort: '-id',
      q: 'sara',
      filters: JSON.stringify(filters),
    });
    // On the wire the query string carries text: parse it as the server does.
    const wire = Object.fromEntries(new URLSearchParams(query as Record<string, string>));
    expect(listQuerySchema.strict().parse(wire)).toMatchObject({
      page: 2,
      pageSize: 50,
      sort: '-id',
      q: 'sara',
    });
    expect(buildListQuery({ page: 1, pageSize: 20, q: '   ', filters: {} })).toEqual({
      page: 1,
      pageSize: 20,
    });
  });
});

interface Row {
  id: number;
  username: string;
  active: boolean;
}

const columns: DataTableColumn<Row>[] = [
  { key: 'id', title: 'table:actions', sortable: true },
  { key: 'username', title: 'table:search.label', sortable: true, filter: { type: 'text' } },
  { key: 'active', title: 'table:filter.yes', render: (r) => (r.active ? 'on' : 'off') },
];

function renderTable(
  fetcher: (path: string, query: Record<string, string | number>) => Promise<ListPage<Row>>,
  extra = {},
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DataTable<Row>
        queryKey={['test', 'rows']}
        endpoint="/things"
        columns={columns}
        rowKey={(r) => r.id}
        emptyMessageKey="table:loadFailed"
        rowActions={(r) => <button type="button">act {r.id}</button>}
        defaultSort="-id"
        fetcher={fetcher}
        {...extra}
      />
    </QueryClientProvider>,
  );
}

/** The header cell of a column, by its visible title. */
function headerOf(title: string): HTMLElement {
  const cell = screen.getAllByRole('columnheader').find((th) => th.textContent === title);
  if (!cell) throw new Error(`no column ${title}`);
  return cell;
}

describe('DataTable', () => {
  beforeAll(async () => {
    await initI18n('en');
  });

  it('asks the endpoint for the first page with the default sort and renders rows and row actions', async () => {
    const fetcher = vi.fn(async () => ({
      items: [
        { id: 2, username: 'sara', active: true },
        { id: 1, username: 'admin', active: false },
      ],
      total: 2,
      page: 1,
      pageSize: 20,
    }));
    renderTable(fetcher);
    expect(await screen.findByText('sara')).toBeTruthy();
    expect(fetcher).toHaveBeenCalledWith('/things', { page: 1, pageSize: 20, sort: '-id' });
    expect(screen.getByText('off')).toBeTruthy();
    expect(screen.getByText('act 1')).toBeTruthy();
    expect(screen.getByText('1–2 of 2')).toBeTruthy();
  });

  it('sorts on a header click and sends the search text as q', async () => {
    const fetcher = vi.fn(async () => ({
      items: [{ id: 1, username: 'admin', active: true }],
      total: 1,
      page: 1,
      pageSize: 20,
    }));
    renderTable(fetcher);
    await screen.findByText('admin');
    fireEvent.click(headerOf('Search').querySelector('.ant-table-column-sorters')!);
    await waitFor(() =>
      expect(fetcher).toHaveBeenLastCalledWith('/things', { page: 1, pageSize: 20, sort: 'username' }),
    );
    fireEvent.change(screen.getByLabelText('Search', { selector: 'input' }), { target: { value: 'adm' } });
    await waitFor(
      () =>
        expect(fetcher).toHaveBeenLastCalledWith('/things', {
          page: 1,
          pageSize: 20,
          sort: 'username',
          q: 'adm',
        }),
      {
        timeout: 2000,
      },
    );
  });

  it('applies a column filter as the filters JSON', async () => {
    const fetcher = vi.fn(async () => ({
      items: [{ id: 1, username: 'admin', active: true }],
      total: 1,
      page: 1,
      pageSize: 20,
    }));
    renderTable(fetcher);
    await screen.findByText('admin');
    const header = headerOf('Search');
    fireEvent.click(header.querySelector('.ant-table-filter-trigger')!);
    const panel = await screen.findByTestId('filter-panel-username');
    fireEvent.change(within(panel).getByLabelText('Value for Search'), { target: { value: 'ad' } });
    fireEvent.click(within(panel).getByTestId('filter-apply'));
    await waitFor(() =>
      expect(fetcher).toHaveBeenLastCalledWith('/things', {
        page: 1,
        pageSize: 20,
        sort: '-id',
        filters: JSON.stringify({
          username: { operator: 'and', constraints: [{ value: 'ad', matchMode: 'contains' }] },
        }),
      }),
    );
    // With a filter on, the empty text says nothing matches and a clear button resets everything.
    expect(await screen.findByTestId('data-table-clear')).toBeTruthy();
  });

  it('shows the screen empty-state message', async () => {
    renderTable(async () => ({ items: [], total: 0, page: 1, pageSize: 20 }));
    expect(
      await screen.findByText('The list could not be loaded', {
        selector: '[data-testid="data-table-empty"]',
      }),
    ).toBeTruthy();
  });
});
