/**
 * The one generic server-side list of Sijill (STYLE.md: no copy-pasted CRUD). A screen declares its
 * columns as data — field, title key, sortable, filter kind with its match modes, render — and gets
 * paging, `sort=field|-field`, a global search box (`q`), per-column filters in the specification's
 * model (`filters=<json>`, section 9), the screen's empty-state message, a toolbar slot and a row
 * actions slot. Everything is fetched through react-query under the screen's query key, so a change
 * elsewhere refreshes the table by invalidating that key. Layout uses logical properties only.
 */
import { useEffect, useState, type Key, type ReactNode } from 'react';
import {
  Button,
  Checkbox,
  Dropdown,
  Empty,
  Flex,
  Input,
  InputNumber,
  Pagination,
  Result,
  Space,
  Table,
  Tooltip,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { ClearOutlined, ReloadOutlined, TableOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Filters } from '../../src-shared/filters';
import { ColumnFilter } from './data-table/ColumnFilter';
import { isColumnFilterActive, parseSort, sortParam } from './data-table/filterModel';
import type { DataTableColumn } from './data-table/types';
import { useServerList, type ListFetcher } from './data-table/useServerList';
import { pagerTotal } from './data-table/paging';
import { useColumnChoice } from './data-table/useColumnChoice';
import { formatNumber } from '../lib/format';
import './data-table/data-table.css';

export type { DataTableColumn, ColumnFilterSpec, FilterOption, ListPage } from './data-table/types';
export { formatDate, formatDateTime, DATE_FORMAT } from './data-table/format';

export interface DataTableProps<T> {
  /** Cache key prefix of the list; invalidate it after a change to refresh the table. */
  queryKey: readonly unknown[];
  /** The list's API path (API.md list convention), e.g. `/auth/users`. */
  endpoint: string;
  columns: DataTableColumn<T>[];
  /** The row's unique key. */
  rowKey: (row: T) => Key;
  /** i18n key (with namespace) of the message shown when the list is empty, e.g. `admin:users.empty`. */
  emptyMessageKey: string;
  /** Actions above the table (e.g. "Add user"), placed at the inline end of the toolbar. */
  toolbar?: ReactNode;
  /** Per-row actions, shown in a last column. */
  rowActions?: (row: T) => ReactNode;
  /** Shows the global search box (`q`); on by default. */
  searchable?: boolean;
  /** Initial sort, `field` or `-field`. */
  defaultSort?: string;
  defaultPageSize?: number;
  /** Filters the screen imposes besides the column filters (e.g. a date range control). */
  fixedFilters?: Filters;
  /** Replaces the http GET (tests, or a list with a special fetch). */
  fetcher?: ListFetcher<T>;
  /** Called when a row is clicked (e.g. to open a details drawer). */
  onRowClick?: (row: T) => void;
  /** Test id of the table's wrapper. */
  testId?: string;
}

const SEARCH_DEBOUNCE_MS = 350;

/**
 * A column's cell renderer: its own `render` (or antd's default), and for a column with `ellipsis` and a
 * width, that content held to one line of the width with its full text as a tooltip (a wide table
 * scrolls at its content's width, where antd's own ellipsis does not hold a column to its width).
 */
function boundedCell<T extends object>(col: DataTableColumn<T>) {
  if (!(col.ellipsis && col.width !== undefined))
    return col.render ? (_: unknown, row: T) => col.render!(row) : undefined;
  return (_: unknown, row: T) => {
    const content = col.render ? col.render(row) : (row as Record<string, unknown>)[col.key];
    const text = typeof content === 'string' || typeof content === 'number' ? String(content) : undefined;
    return (
      <div className="dt-ellipsis" style={{ maxInlineSize: col.width }} title={text}>
        {content as ReactNode}
      </div>
    );
  };
}

/** A server-side table: declare the columns, the endpoint and the empty message; it does the rest. */
export function DataTable<T extends object>({
  queryKey,
  endpoint,
  columns,
  rowKey,
  emptyMessageKey,
  toolbar,
  rowActions,
  searchable = true,
  defaultSort,
  defaultPageSize = 20,
  fixedFilters,
  fetcher,
  onRowClick,
  testId = 'data-table',
}: DataTableProps<T>) {
  const { t } = useTranslation('table');
  const list = useServerList<T>({ queryKey, endpoint, defaultSort, defaultPageSize, fixedFilters, fetcher });
  const [searchText, setSearchText] = useState('');
  const [openFilter, setOpenFilter] = useState<string | null>(null);
  const choice = useColumnChoice(
    endpoint,
    columns.filter((c) => c.hiddenByDefault).map((c) => c.key),
  );
  // The first column names the row: it is always shown.
  const shownColumns = columns.filter((col, i) => i === 0 || !choice.hidden.has(col.key));

  // The search box asks the server only once typing pauses.
  const { setQ, q } = list;
  useEffect(() => {
    if (searchText.trim() === q) return;
    const timer = setTimeout(() => setQ(searchText.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchText, q, setQ]);

  const sorted = parseSort(list.sort);
  const anyFilter = list.q !== '' || Object.values(list.filterState).some(isColumnFilterActive);

  // Rebuilt each render: cheap, and it always reflects the current sort, filters and open dropdown.
  const antColumns: ColumnsType<T> = (() => {
    const mapped: ColumnsType<T> = shownColumns.map((col) => {
      const title = t(col.title);
      const filterField = col.filter?.field ?? col.key;
      return {
        key: col.key,
        dataIndex: col.key,
        title,
        width: col.width,
        align: col.align,
        // With a width, boundedCell holds the content instead (see there).
        ellipsis: col.ellipsis && col.width === undefined,
        sorter: col.sortable ? true : undefined,
        sortOrder: col.sortable ? (sorted?.field === col.key ? sorted.order : null) : undefined,
        showSorterTooltip: col.sortable ? { title: t('sort.tooltip') } : undefined,
        render: boundedCell(col),
        ...(col.filter
          ? {
              filtered: isColumnFilterActive(list.filterState[filterField]),
              filterDropdownProps: {
                open: openFilter === col.key,
                onOpenChange: (open: boolean) => setOpenFilter(open ? col.key : null),
              },
              filterDropdown: ({ close }: { close: () => void }) =>
                openFilter === col.key ? (
                  <ColumnFilter
                    columnKey={col.key}
                    columnTitle={title}
                    spec={col.filter!}
                    applied={list.filterState[filterField]}
                    onApply={(state) => list.setColumnFilter(filterField, state)}
                    close={() => {
                      setOpenFilter(null);
                      close();
                    }}
                  />
                ) : null,
            }
          : {}),
      };
    });
    if (rowActions) {
      mapped.push({
        key: '__actions',
        title: t('actions'),
        align: 'end',
        // Pinned to the inline end, so the actions stay reachable when a wide table scrolls.
        fixed: 'end',
        render: (_: unknown, row: T) => (
          <Flex
            gap={4}
            justify="end"
            wrap
            className="data-table-row-actions"
            onClick={(e) => e.stopPropagation()}
          >
            {rowActions(row)}
          </Flex>
        ),
      });
    }
    return mapped;
  })();

  // A big list may say only that it holds more than `total` rows: the pager then offers the pages known
  // to exist (and the next one whenever the page read has a `next`), and the jump box any page number.
  const exact = list.data?.totalExact !== false;
  const shownTotal = list.data?.total ?? 0;
  const knownRows = Math.max(
    pagerTotal(list.data),
    list.data?.next ? list.data.page * list.data.pageSize + 1 : 0,
  );
  const lastPage = Math.max(1, Math.ceil(knownRows / list.pageSize));
  const pastEnd = !list.isError && list.page > 1 && list.data !== undefined && list.data.items.length === 0;

  const empty = list.isError ? (
    <Result
      status="warning"
      title={t('loadFailed')}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()}>
          {t('retry')}
        </Button>
      }
    />
  ) : pastEnd ? (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={<span data-testid={`${testId}-past-end`}>{t('pagination.pastEnd')}</span>}
    >
      <Button onClick={() => list.setPaging(1, list.pageSize)}>{t('pagination.first')}</Button>
    </Empty>
  ) : (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <span data-testid={`${testId}-empty`}>{t(anyFilter ? 'noMatches' : emptyMessageKey)}</span>
      }
    />
  );

  return (
    <div className="data-table" data-testid={testId}>
      <Flex className="data-table-toolbar" gap={8} wrap justify="space-between" align="center">
        <Flex gap={8} align="center" wrap>
          {searchable && (
            <Input.Search
              className="data-table-search"
              aria-label={t('search.label')}
              placeholder={t('search.placeholder')}
              allowClear
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              onSearch={(value) => {
                setSearchText(value);
                setQ(value.trim());
              }}
              data-testid={`${testId}-search`}
            />
          )}
          {anyFilter && (
            <Tooltip title={t('clearAll')}>
              <Button
                icon={<ClearOutlined />}
                onClick={() => {
                  setSearchText('');
                  list.clearFilters();
                }}
                data-testid={`${testId}-clear`}
              >
                {t('clearAll')}
              </Button>
            </Tooltip>
          )}
        </Flex>
        <Flex gap={8} align="center" wrap className="data-table-actions">
          {columns.length > 3 && (
            <Dropdown
              trigger={['click']}
              menu={{
                items: columns.slice(1).map((col) => ({
                  key: col.key,
                  label: (
                    <Checkbox
                      checked={!choice.hidden.has(col.key)}
                      data-testid={`${testId}-column-${col.key}`}
                    >
                      {t(col.title)}
                    </Checkbox>
                  ),
                })),
                onClick: ({ key, domEvent }) => {
                  domEvent.preventDefault();
                  choice.toggle(key);
                },
              }}
            >
              <Button
                icon={<TableOutlined />}
                aria-label={t('columns.choose')}
                data-testid={`${testId}-columns`}
              >
                {t('columns.label')}
              </Button>
            </Dropdown>
          )}
          {toolbar}
        </Flex>
      </Flex>
      <Table<T>
        rowKey={rowKey}
        columns={antColumns}
        dataSource={list.data?.items ?? []}
        loading={list.isFetching}
        pagination={false}
        locale={{ emptyText: empty }}
        size="small"
        // As wide as the page, long texts wrapping, and scrolling sideways only when the columns cannot
        // fit even wrapped (x: true is width auto, at least 100%; auto layout lets cells wrap).
        scroll={{ x: true }}
        tableLayout="auto"
        // A wide table keeps its horizontal scroll bar at the bottom of the window, not under the last row.
        sticky={{ offsetHeader: 0 }}
        onRow={
          onRowClick
            ? (row) => ({ onClick: () => onRowClick(row), className: 'data-table-clickable' })
            : undefined
        }
        onChange={(_pagination, _filters, sorter, extra) => {
          if (extra.action === 'sort') {
            const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
            list.setSort(sortParam(s?.columnKey ? String(s.columnKey) : undefined, s?.order) ?? defaultSort);
          }
        }}
      />
      <Flex className="data-table-pager" gap={8} wrap justify="end" align="center">
        <Pagination
          current={list.page}
          pageSize={list.pageSize}
          total={knownRows}
          showSizeChanger
          pageSizeOptions={[10, 20, 50, 100]}
          showTotal={(_total, [from, to]) =>
            t(exact ? 'pagination.range' : 'pagination.rangeMore', {
              from: formatNumber(from),
              to: formatNumber(to),
              total: formatNumber(shownTotal),
            })
          }
          onChange={(page, size) => list.setPaging(page, size)}
          data-testid={`${testId}-pagination`}
        />
        {(lastPage > 1 || !exact) && (
          <PageJumper
            lastPage={exact ? lastPage : undefined}
            onJump={(page) => list.setPaging(page, list.pageSize)}
            testId={`${testId}-jump`}
          />
        )}
      </Flex>
    </div>
  );
}

/**
 * Goes to a page by its number: any page when the list only knows it holds more rows than it counted (a
 * far page is slower to read than the next one, but it is reachable), else up to the last.
 */
function PageJumper({
  lastPage,
  onJump,
  testId,
}: {
  lastPage?: number;
  onJump: (page: number) => void;
  testId: string;
}) {
  const { t } = useTranslation('table');
  const [value, setValue] = useState<number | null>(null);
  const go = () => {
    if (value === null || !Number.isInteger(value) || value < 1) return;
    onJump(lastPage ? Math.min(value, lastPage) : value);
    setValue(null);
  };
  return (
    <Space.Compact>
      <InputNumber<number>
        min={1}
        max={lastPage}
        precision={0}
        value={value}
        onChange={setValue}
        onPressEnter={go}
        placeholder={t('pagination.page')}
        aria-label={t('pagination.goTo')}
        className="data-table-jump"
        data-testid={testId}
      />
      <Button onClick={go} data-testid={`${testId}-go`}>
        {t('pagination.go')}
      </Button>
    </Space.Compact>
  );
}
