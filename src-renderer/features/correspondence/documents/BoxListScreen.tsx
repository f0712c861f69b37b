/**
 * The one list of the correspondence boxes (incoming, follow-ups, incoming tasks, drafts): the generic
 * server-side table over GET /correspondence/boxes/{box}, with the date range above it (default the last
 * 30 days, specification section 9), the completed / not completed views where the box has them, the
 * box's own columns, and a row that opens the document.
 *
 * The range filters on the box's date (BOX_DATE: registered, assigned, created…) and nothing else; the
 * range's label and placeholders name that date, and `boxDateColumn` shows it under the same name.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { DatePicker, Flex, Segmented, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { OnBehalfTag } from '../../../components/Delegation';
import { useNavigate } from 'react-router-dom';
import type { Dayjs } from 'dayjs';
import {
  BOX_DATE,
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

/**
 * A box screen. `columns` follow the common ones and hold `boxDateColumn(box)` (added at the end when a
 * screen does not place it) and a due date column (`dueColumn()`, added after it likewise);
 * `detailPath` opens a row.
 */
export function BoxListScreen({
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
}: {
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
}) {
  const { t } = useTranslation('correspondence');
  const navigate = useNavigate();
  const dateKind = BOX_DATE[box];
  const shown = useMemo(() => {
    const withDate = columns.some((c) => c.key === 'boxDate') ? columns : [...columns, boxDateColumn(box)];
    return withDate.some((c) => c.key === 'dueDate') ? withDate : [...withDate, dueColumn()];
  }, [columns, box]);
  // The last 30 days, but for what is still to do (follow-ups, approvals): no bound until one is picked.
  const [range, setRange] = useState<DateRange | null>(() =>
    OPEN_ENDED_BOXES.has(box) ? null : defaultDateRange(),
  );
  const [view, setView] = useState<BoxView>('all');
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
      {above}
      <DataTable<BoxItem>
        testId={`${testId}-table`}
        key={box}
        queryKey={[...corrKeys.box(box), extra]}
        endpoint={boxEndpoint(box)}
        fetcher={(path, query) => defaultListFetcher<BoxItem>(path, { ...query, ...extra })}
        columns={shown}
        rowKey={(row) => row.key}
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
