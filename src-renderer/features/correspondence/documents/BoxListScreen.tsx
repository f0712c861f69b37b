/**
 * The one list of the correspondence boxes (incoming, follow-ups, incoming tasks, drafts): the generic
 * server-side table over GET /correspondence/boxes/{box}, with the date range above it (default the last
 * 30 days, specification section 9), the completed / not completed views where the box has them, the
 * box's own columns, and a row that opens the document.
 *
 * The range filters on the box's date (BOX_DATE: registered, assigned, created…) and nothing else; the
 * range's label and placeholders name that date, and `boxDateColumn` shows it under the same name.
 *
 * A dashboard's figure opens a box with filters in the address (issue 30, `drillPath`): `fromDate` and
 * `toDate` (days) set the range, `view` the view, and any other parameter is a box field compared with
 * `equals` (`?codificationId=3&dueState=overdue`); a note above the list says so and offers the whole box.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, DatePicker, Flex, Segmented, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { OnBehalfTag } from '../../../components/Delegation';
import { useNavigate, useSearchParams } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import {
  BOX_DATE,
  BOX_VIEWS,
  DUE_STATES,
  OPEN_ENDED_BOXES,
  type Box,
  type BoxItem,
  type BoxView,
} from '../../../../src-shared/api/correspondence';
import {
  DataTable,
  DATE_FORMAT,
  formatDate,
  formatDateTime,
  type DataTableColumn,
} from '../../../components/DataTable';
import { defaultListFetcher } from '../../../components/data-table/useServerList';
import type { Filters } from '../../../../src-shared/filters';
import { localName } from '../../../lib/names';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { boxEndpoint, corrKeys } from './api';
import { dateRangeQuery, defaultDateRange, type DateRange } from './dateRange';
import { DueCell } from './DueTag';

/** The columns every box shows first: number, subject, sender, document date, priority. */
export function commonColumns(t: (key: string) => string, language: string): DataTableColumn<BoxItem>[] {
  return [
    {
      key: 'docNumber',
      title: 'correspondence:fields.docNumber',
      sortable: true,
      filter: { type: 'text' },
      render: (row) =>
        row.docNumber ? (
          <bdi className="corr-number">{row.docNumber}</bdi>
        ) : (
          <Typography.Text type="secondary">{t('document.noNumber')}</Typography.Text>
        ),
    },
    {
      key: 'subject',
      title: 'correspondence:fields.subject',
      sortable: true,
      filter: { type: 'text' },
      grow: true,
      // A delegate's row of their delegator says whose it is before its subject (no column of its own:
      // the lists fit 1280 px).
      render: (row) =>
        row.onBehalfOf ? (
          <>
            <OnBehalfTag person={row.onBehalfOf} /> <bdi>{row.subject}</bdi>
          </>
        ) : (
          row.subject
        ),
    },
    {
      key: 'sender',
      title: 'correspondence:fields.sender',
      ellipsis: true,
      width: 150,
      render: (row) => localName(row.sender, language),
    },
    {
      key: 'documentDate',
      title: 'correspondence:fields.documentDate',
      // The box date (received, due, task date) is each box's own column; the letter's date is a choice.
      hiddenByDefault: true,
      sortable: true,
      filter: { type: 'date' },
      render: (row) => <bdi>{formatDate(row.documentDate)}</bdi>,
    },
    {
      key: 'priorityLevel',
      title: 'correspondence:fields.priority',
      sortable: true,
      render: (row) => (row.priority ? <Tag>{localName(row.priority, language)}</Tag> : null),
    },
  ];
}

/**
 * The column of the box's own date — the date its range filters on and its default order —, headed with
 * that date's name (the range's label names it too).
 */
export function boxDateColumn(box: Box): DataTableColumn<BoxItem> {
  return {
    key: 'boxDate',
    title: `correspondence:boxDate.${BOX_DATE[box]}`,
    sortable: true,
    filter: { type: 'date' },
    render: (row) => <bdi>{formatDateTime(row.boxDate)}</bdi>,
  };
}

/**
 * The column of a row's due date and its state (an incoming letter's reply, an approval step, a task, a
 * follow-up date), sorted on the date and filtered on the state (DUE_STATES, the server's `dueState`).
 */
export function dueColumn(): DataTableColumn<BoxItem> {
  return {
    key: 'dueDate',
    title: 'correspondence:due.column',
    sortable: true,
    filter: {
      type: 'enum',
      field: 'dueState',
      options: DUE_STATES.map((value) => ({ value, label: `correspondence:due.filter.${value}` })),
    },
    render: (row) => <DueCell dueDate={row.dueDate} state={row.dueState} overdueDays={row.overdueDays} />,
  };
}

/** The filters a dashboard's figure put in the address (null: none, the box as it opens). */
export interface BoxDrill {
  range: DateRange | null;
  view: BoxView | null;
  filters: Filters | undefined;
}

/** The parameters of the address that are not a box field (the approval screens' list switch). */
const NOT_FIELDS = new Set(['fromDate', 'toDate', 'view', 'list']);

/** Reads a dashboard's filters from the address: dates and view as they are, any other as a field `equals`. */
export function boxDrillFromParams(params: URLSearchParams): BoxDrill | null {
  const fields = [...params.keys()].filter((k) => !NOT_FIELDS.has(k));
  const from = params.get('fromDate');
  const to = params.get('toDate');
  const view = params.get('view');
  if (!from && !to && !view && fields.length === 0) return null;
  const filters: Filters = {};
  for (const k of fields) {
    const raw = params.get(k)!;
    const value = /^-?\d+$/.test(raw) ? Number(raw) : raw === 'true' ? true : raw === 'false' ? false : raw;
    filters[k] = { operator: 'and', constraints: [{ value, matchMode: 'equals' }] };
  }
  return {
    range: from || to ? { fromDate: dayjs(from ?? '2000-01-01'), toDate: to ? dayjs(to) : dayjs() } : null,
    view: (BOX_VIEWS as readonly string[]).includes(view ?? '') ? (view as BoxView) : null,
    filters: fields.length > 0 ? filters : undefined,
  };
}

/**
 * A box screen. `columns` follow the common ones and hold `boxDateColumn(box)` (added at the end when a
 * screen does not place it) and a due date column (`dueColumn()`, added after it likewise);
 * `detailPath` opens a row.
 */
export function BoxListScreen(props: BoxListProps) {
  const [params, setParams] = useSearchParams();
  const drill = useMemo(() => boxDrillFromParams(params), [params]);
  // A new address (another figure, or the whole box) starts the list afresh.
  return (
    <BoxList
      key={drill ? params.toString() : ''}
      {...props}
      drill={drill}
      onClearDrill={() => setParams({}, { replace: true })}
    />
  );
}

interface BoxListProps {
  box: Box;
  testId: string;
  columns: DataTableColumn<BoxItem>[];
  /** The specification's empty message (e.g. `correspondence:empty.inbox`). */
  emptyKey: string;
  /** Offers the completed / not completed views. */
  views?: boolean;
  detailPath: (row: BoxItem) => string;
  defaultSort?: string;
  toolbar?: ReactNode;
  rowActions?: (row: BoxItem) => ReactNode;
  /** The views' own words (outgoing: awaiting dispatch / dispatched). */
  viewLabels?: Partial<Record<BoxView, string>>;
  /** Shown before the views and the date range (e.g. a switch between two boxes of one page). */
  head?: ReactNode;
  /** Shown above the list (the drafts kept on this desk). */
  above?: ReactNode;
}

function BoxList({
  drill,
  onClearDrill,
  box,
  testId,
  columns,
  emptyKey,
  views = false,
  detailPath,
  defaultSort = '-boxDate',
  toolbar,
  rowActions,
  viewLabels,
  head,
  above,
}: BoxListProps & { drill: BoxDrill | null; onClearDrill: () => void }) {
  const { t } = useTranslation('correspondence');
  const navigate = useNavigate();
  const dateKind = BOX_DATE[box];
  const shown = useMemo(() => {
    const withDate = columns.some((c) => c.key === 'boxDate') ? columns : [...columns, boxDateColumn(box)];
    return withDate.some((c) => c.key === 'dueDate') ? withDate : [...withDate, dueColumn()];
  }, [columns, box]);
  // The last 30 days, but for what is still to do (follow-ups, approvals): no bound until one is picked.
  // A dashboard's list has no range unless it names one (a figure may count older items).
  const [range, setRange] = useState<DateRange | null>(() =>
    drill ? drill.range : OPEN_ENDED_BOXES.has(box) ? null : defaultDateRange(),
  );
  const [view, setView] = useState<BoxView>(drill?.view ?? 'all');
  const extra = useMemo(
    () => ({ ...dateRangeQuery(range), ...(views ? { view } : {}) }),
    [range, view, views],
  );

  return (
    <CorrespondenceScreen
      testId={testId}
      extra={
        <Flex gap={8} wrap align="center">
          {head}
          {views && (
            <Segmented<BoxView>
              value={view}
              onChange={setView}
              aria-label={t('views.label')}
              data-testid={`${testId}-view`}
              options={[
                { value: 'all', label: viewLabels?.all ?? t('views.all') },
                { value: 'notCompleted', label: viewLabels?.notCompleted ?? t('views.notCompleted') },
                { value: 'completed', label: viewLabels?.completed ?? t('views.completed') },
              ]}
            />
          )}
          <Typography.Text
            type="secondary"
            id={`${testId}-range-label`}
            data-testid={`${testId}-range-label`}
          >
            {t(`dateRange.${dateKind}.between`)}
          </Typography.Text>
          <DatePicker.RangePicker
            aria-label={t(`dateRange.${dateKind}.between`)}
            format={DATE_FORMAT}
            allowEmpty={[true, true]}
            placeholder={[t(`dateRange.${dateKind}.from`), t(`dateRange.${dateKind}.to`)]}
            value={range ? [range.fromDate, range.toDate] : null}
            onChange={(values) => {
              const [from, to] = (values ?? [null, null]) as [Dayjs | null, Dayjs | null];
              setRange(from && to ? { fromDate: from, toDate: to } : null);
            }}
            data-testid={`${testId}-range`}
          />
        </Flex>
      }
    >
      {drill ? (
        <Alert
          type="info"
          showIcon
          className="box-drill-note"
          data-testid={`${testId}-drill`}
          message={t('dashboards:drill.note')}
          action={
            <Button size="small" onClick={onClearDrill} data-testid={`${testId}-drill-clear`}>
              {t('dashboards:drill.clear')}
            </Button>
          }
        />
      ) : null}
      {above}
      <DataTable<BoxItem>
        testId={`${testId}-table`}
        key={box}
        queryKey={[...corrKeys.box(box), extra]}
        endpoint={boxEndpoint(box)}
        fetcher={(path, query) => defaultListFetcher<BoxItem>(path, { ...query, ...extra })}
        columns={shown}
        rowKey={(row) => row.key}
        fixedFilters={drill?.filters}
        defaultSort={defaultSort}
        emptyMessageKey={emptyKey}
        onRowClick={(row) => void navigate(detailPath(row))}
        toolbar={toolbar}
        rowActions={rowActions}
      />
    </CorrespondenceScreen>
  );
}

/** Distributed / not distributed, and completed / not completed, as tags. */
export function StateTags({ distributed, completed }: { distributed: boolean; completed: boolean }) {
  const { t } = useTranslation('correspondence');
  return (
    <Flex gap={4} wrap>
      {distributed ? (
        <Tag color="blue" data-testid="tag-distributed">
          {t('state.distributed')}
        </Tag>
      ) : (
        <Tag data-testid="tag-not-distributed">{t('state.notDistributed')}</Tag>
      )}
      {completed ? (
        <Tag color="green" data-testid="tag-completed">
          {t('state.completed')}
        </Tag>
      ) : (
        <Tag color="orange" data-testid="tag-not-completed">
          {t('state.notCompleted')}
        </Tag>
      )}
    </Flex>
  );
}

/** A distribution's purpose: forAction → For action (للإجراء), forKnowledge → For information (للعلم). */
export function DistributionTypeTag({ type }: { type: 'forAction' | 'forKnowledge' }) {
  const { t } = useTranslation('correspondence');
  return (
    <Tag color={type === 'forAction' ? 'geekblue' : 'default'} data-testid={`type-${type}`}>
      {t(`distributionType.${type}`)}
    </Tag>
  );
}
