/**
 * The one generic server-side list of Sijill (STYLE.md: no copy-pasted CRUD). A screen declares its
 * columns as data — field, title key, sortable, filter kind with its match modes, render — and gets
 * paging, `sort=field|-field`, a global search box (`q`), per-column filters in the specification's
 * model (`filters=<json>`, section 9), the screen's empty-state message, a toolbar slot and a row
 * actions slot. Everything is fetched through react-query under the screen's query key, so a change
 * elsewhere refreshes the table by invalidating that key. The columns share the width as columnLayout
 * says: the one that names the row (the subject, the name) takes the room, the others fit; each cell's
 * text is isolated in its own direction. Layout uses logical properties only.
 */
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type Key,
  type ReactNode,
  type RefObject,
} from 'react';
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
 * How the columns share the width (tableLayout auto, the browser's own algorithm, steered by what each
 * column declares — CSS Tables 3, "distributing width to columns"):
 * - the grow column (the subject, the name) has no width of its own: it is the one column the room left
 *   over goes to. Its text sits in a box that does not ask for its own width (`contain: inline-size`), on
 *   one line, cut at its end, never narrower than its minimum;
 * - a column with a `width` gets that width while the window has room, and gives way down to its
 *   content's narrowest (its text wrapping, or cut when it has `ellipsis`) when it has not;
 * - a column without one fits its content on one line (a width of 1px, which the browser widens to the
 *   content's narrowest, and that content does not wrap).
 * So at 1280 px nothing needs sideways scrolling unless the columns chosen cannot fit even at their
 * narrowest, and at 1920 px the subject has the room the others do not need.
 */
function columnLayout<T>(col: DataTableColumn<T>, grows: boolean) {
  if (grows) return { width: undefined, className: 'dt-grow-col' };
  if (col.width === undefined) return { width: 1, className: 'dt-fit' };
  return { width: col.width, className: undefined };
}

/**
 * A column's cell renderer: its own `render` (or the row's field as text), a text isolated in its own
 * direction; the grow column's and a bounded column's (`ellipsis` with a width) content held to one line
 * in its own direction (`dt-ellipsis`) with its full text as a tooltip.
 */
function cellRenderer<T extends object>(col: DataTableColumn<T>, grows: boolean) {
  const bounded = col.ellipsis && col.width !== undefined;
  return (_: unknown, row: T) => {
    const content = col.render ? col.render(row) : (row as Record<string, unknown>)[col.key];
    const text = typeof content === 'string' || typeof content === 'number' ? String(content) : undefined;
    // A text of either script, isolated from the table's direction (a name in the other language, a
    // number with spaces); an element is the column's own and isolates what it needs.
    if (!grows && !bounded) return text !== undefined ? <bdi>{text}</bdi> : (content as ReactNode);
    return (
      <div
        className={grows ? 'dt-ellipsis dt-grow' : 'dt-ellipsis'}
        style={bounded ? { maxInlineSize: col.width } : undefined}
        title={text}
      >
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
  const wrapper = useRef<HTMLDivElement>(null);
  useStickyHeaderWidth(wrapper);
  const [searchText, setSearchText] = useState('');
  const [openFilter, setOpenFilter] = useState<string | null>(null);
  const choice = useColumnChoice(
    endpoint,
    columns.filter((c) => c.hiddenByDefault).map((c) => c.key),
  );
  // The first column names the row: it is always shown.
  const shownColumns = columns.filter((col, i) => i === 0 || !choice.hidden.has(col.key));
  const growKey = (shownColumns.find((col) => col.grow) ?? shownColumns[0])?.key;

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
      const grows = col.key === growKey;
      return {
        key: col.key,
        dataIndex: col.key,
        title,
        ...columnLayout(col, grows),
        align: col.align,
        sorter: col.sortable ? true : undefined,
        sortOrder: col.sortable ? (sorted?.field === col.key ? sorted.order : null) : undefined,
        showSorterTooltip: col.sortable ? { title: t('sort.tooltip') } : undefined,
        render: cellRenderer(col, grows),
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
        // As wide as its buttons, in one row.
        width: 1,
        className: 'dt-fit',
        render: (_: unknown, row: T) => (
          <Flex gap={4} justify="end" className="data-table-row-actions" onClick={(e) => e.stopPropagation()}>
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
    <div className="data-table" data-testid={testId} ref={wrapper}>
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
        // As wide as the page, the columns sharing it as columnLayout says, and scrolling sideways only
        // when they cannot fit even at their narrowest (x: true is width auto, at least 100%).
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
 * Keeps the sticky header's table as wide as the body's. antd draws the header as a table of its own with
 * the body's measured column widths; while the body fits the window both are as wide as it, but when the
 * columns cannot fit at their narrowest the body grows past the window and the header, whose cells need
 * less, would share the window's width differently and stand askew over the rows.
 */
function useStickyHeaderWidth(wrapper: RefObject<HTMLDivElement | null>) {
  useLayoutEffect(() => {
    const root = wrapper.current;
    if (!root || typeof ResizeObserver === 'undefined') return;
    const sync = () => {
      const body = root.querySelector<HTMLTableElement>('.ant-table-body > table');
      const head = root.querySelector<HTMLTableElement>('.ant-table-header > table');
      if (!body || !head) return;
      const width = `${body.offsetWidth}px`;
      if (head.style.width !== width) head.style.width = width;
    };
    const observer = new ResizeObserver(sync);
    observer.observe(root);
    let watched: Element | null = null;
    const watch = () => {
      const body = root.querySelector('.ant-table-body > table');
      if (body !== watched) {
        if (watched) observer.unobserve(watched);
        if (body) observer.observe(body);
        watched = body;
      }
      sync();
    };
    // The body's table is replaced when the table changes from empty to rows: follow it.
    const mutations = new MutationObserver(watch);
    mutations.observe(root, { childList: true, subtree: true });
    watch();
    return () => {
      observer.disconnect();
      mutations.disconnect();
    };
  }, [wrapper]);
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
