/**
 * The data side of a server-side table: holds page, page size, sort, search text and column filters,
 * turns them into docs/api.md's list query, and fetches through react-query (keeping the previous page on
 * screen while the next loads, so the table does not flash empty).
 */
import { useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Filters } from '../../../src-shared/filters';
import { http } from '../../lib/http';
import { buildFilters, buildListQuery, mergeFilters, type FilterState, type ListParams } from './filterModel';
import { PageCursors } from './paging';
import type { ListPage } from './types';

/** Fetches one page; the default goes through the http helpers (GET, so no success toast). */
export type ListFetcher<T> = (path: string, query: Record<string, string | number>) => Promise<ListPage<T>>;

export const defaultListFetcher = <T>(path: string, query: Record<string, string | number>) =>
  http.get<ListPage<T>>(path, { query });

export interface ServerListOptions<T> {
  /** The list's cache key prefix; invalidate it after a change (e.g. `['admin', 'users']`). */
  queryKey: readonly unknown[];
  /** The API path of the list, e.g. `/auth/users`. */
  endpoint: string;
  defaultSort?: string;
  defaultPageSize?: number;
  /** Filters the screen imposes (e.g. a date range above the table), merged with the user's. */
  fixedFilters?: Filters;
  fetcher?: ListFetcher<T>;
}

/** State and data of a server-side list. */
export function useServerList<T>({
  queryKey,
  endpoint,
  defaultSort,
  defaultPageSize = 20,
  fixedFilters,
  fetcher = defaultListFetcher as ListFetcher<T>,
}: ServerListOptions<T>) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(defaultPageSize);
  const [sort, setSortState] = useState<string | undefined>(defaultSort);
  const [q, setQState] = useState('');
  const [filterState, setFilterState] = useState<FilterState>({});

  const params: ListParams = useMemo(
    () => ({ page, pageSize, sort, q, filters: mergeFilters(buildFilters(filterState), fixedFilters) }),
    [page, pageSize, sort, q, filterState, fixedFilters],
  );
  const query = useMemo(() => buildListQuery(params), [params]);
  // The cursors of the pages read belong to one query: the list's key (which carries what the screen adds,
  // such as a date range) and everything asked but the page.
  const cursors = useRef(new PageCursors());
  const { page: _page, pageSize: _pageSize, ...asked } = query;
  const identity = JSON.stringify([queryKey, asked]);

  const result = useQuery({
    queryKey: [...queryKey, 'list', query],
    queryFn: async () => {
      const after = cursors.current.nearest(identity, page, pageSize);
      const data = await fetcher(endpoint, after ? { ...query, after } : query);
      cursors.current.remember(identity, data);
      return data;
    },
    placeholderData: keepPreviousData,
  });

  // Any change of what is asked for starts again from the first page.
  const setSort = (next: string | undefined) => {
    setSortState(next);
    setPage(1);
  };
  const setQ = (next: string) => {
    setQState(next);
    setPage(1);
  };
  const setColumnFilter = (field: string, state: FilterState[string] | undefined) => {
    setFilterState((s) => {
      const next = { ...s };
      if (state) next[field] = state;
      else delete next[field];
      return next;
    });
    setPage(1);
  };
  const clearFilters = () => {
    setFilterState({});
    setQState('');
    setPage(1);
  };
  const setPaging = (nextPage: number, nextSize: number) => {
    setPage(nextSize !== pageSize ? 1 : nextPage);
    setPageSize(nextSize);
  };

  return {
    ...result,
    page,
    pageSize,
    sort,
    q,
    filterState,
    query,
    setSort,
    setQ,
    setColumnFilter,
    clearFilters,
    setPaging,
  };
}
