/**
 * The reports (issue 30, PAGES.reports, docs/reports.md): volumes, overdue items, approval turnaround and
 * task completion over a period and filters (department, direction, codification), shown as a table paged
 * on the server, each cell in its type (numbers and days in the user's digits, days and months as dates).
 * With the page's `export` permission, Excel and PDF exports run as background jobs: the screen follows the
 * job's progress and downloads the file when it is ready.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Card, DatePicker, Flex, Progress, Segmented, Select, Table, Typography } from 'antd';
import { FileExcelOutlined, FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { DIRECTIONS, type Direction } from '../../../src-shared/api/correspondence';
import {
  REPORTS,
  type ExportFormat,
  type ReportCell,
  type ReportColumn,
  type ReportFilters,
  type ReportName,
} from '../../../src-shared/api/reports';
import { useCan } from '../../app/permissions';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { LoadFailed } from '../../components/LoadFailed';
import { DATE_FORMAT } from '../../components/DataTable';
import { DepartmentPicker } from '../../components/DepartmentPicker';
import { localName } from '../../lib/names';
import { dashboardKeys, dashboardsApi, lastYear, monthLabel } from '../../lib/dashboards-api';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format';
import { toast } from '../../lib/toast';
import './dashboards.css';

/** Rows per page of the table (the server answers at most 1000). */
const PAGE_SIZE = 50;

/** A cell in its column's type, in the interface language and the user's digits. */
export function formatCell(cell: ReportCell, type: ReportColumn['type'], language: string): string {
  if (cell === null || cell === '') return '';
  switch (type) {
    case 'number':
      return formatNumber(Number(cell), language);
    case 'days':
      return formatNumber(Number(cell), language, 1);
    case 'percent':
      return `${formatNumber(Number(cell), language, 1)}%`;
    case 'date':
      return formatDate(String(cell), language);
    case 'month':
      return monthLabel(String(cell), language);
    default:
      return String(cell);
  }
}

/** An export being followed: its job's progress, then the download. */
function ExportProgress({ id, onFinished }: { id: number; onFinished: () => void }) {
  const { t } = useTranslation('dashboards');
  const downloaded = useRef(false);
  const job = useQuery({
    queryKey: dashboardKeys.export(id),
    queryFn: () => dashboardsApi.getExport(id),
    refetchInterval: (q) =>
      q.state.data?.state === 'done' || q.state.data?.state === 'failed' ? false : 1000,
  });
  const state = job.data?.state;
  useEffect(() => {
    if (state === 'done' && !downloaded.current) {
      downloaded.current = true;
      void dashboardsApi
        .downloadExport(id)
        .then(() => toast({ severity: 'success', detail: t('reports.exportReady') }))
        .finally(onFinished);
    }
    if (state === 'failed') {
      toast({ severity: 'error', detail: job.data?.error ?? t('reports.exportFailed') });
      onFinished();
    }
  }, [state, id, onFinished, job.data?.error, t]);
  return (
    <Flex gap={8} align="center" className="reports-export-progress" data-testid="report-export-progress">
      <Typography.Text type="secondary">{t(`reports.exportState.${state ?? 'queued'}`)}</Typography.Text>
      <Progress
        percent={Math.round(job.data?.progress ?? 0)}
        size="small"
        status={state === 'failed' ? 'exception' : 'active'}
        format={(p) => `${formatNumber(p ?? 0)}%`}
      />
    </Flex>
  );
}

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('dashboards');
  const { t: tc } = useTranslation('correspondence');
  const mayExport = useCan('export');
  const [report, setReport] = useState<ReportName>('volumes');
  const [filters, setFilters] = useState<ReportFilters>(lastYear);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState<number | null>(null);
  const offset = (page - 1) * PAGE_SIZE;
  const answer = useQuery({
    queryKey: dashboardKeys.report(report, filters, offset, PAGE_SIZE),
    queryFn: () => dashboardsApi.report(report, filters, offset, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const codifications = useQuery({
    queryKey: dashboardKeys.codifications,
    queryFn: dashboardsApi.codifications,
    staleTime: 60_000,
  });
  const start = useMutation({
    mutationFn: (format: ExportFormat) =>
      dashboardsApi.createExport({ report, format, filters, lang: i18n.language === 'en' ? 'en' : 'ar' }),
    onSuccess: ({ id }) => setExporting(id),
  });
  const change = (next: Partial<ReportFilters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  };
  const data = answer.data;
  const columns = data?.report === report ? data.columns : [];

  return (
    <div className="print-only-block dashboard-print">
      <CorrespondenceScreen
        testId="reports-page"
        subtitle={
          data ? (
            <span data-testid="report-as-of">{t('reports.asOf', { time: formatDateTime(data.asOf) })}</span>
          ) : null
        }
        extra={
          <Flex gap={8} wrap align="center" className="no-print">
            {exporting !== null ? (
              <ExportProgress id={exporting} onFinished={() => setExporting(null)} />
            ) : null}
            {mayExport ? (
              <>
                <Button
                  icon={<FileExcelOutlined />}
                  onClick={() => start.mutate('xlsx')}
                  loading={start.isPending && start.variables === 'xlsx'}
                  disabled={exporting !== null}
                  data-testid="report-export-xlsx"
                >
                  {t('reports.exportXlsx')}
                </Button>
                <Button
                  icon={<FilePdfOutlined />}
                  onClick={() => start.mutate('pdf')}
                  loading={start.isPending && start.variables === 'pdf'}
                  disabled={exporting !== null}
                  data-testid="report-export-pdf"
                >
                  {t('reports.exportPdf')}
                </Button>
              </>
            ) : null}
            <Button icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="report-print">
              {t('print')}
            </Button>
          </Flex>
        }
      >
        <Card size="small">
          <Flex vertical gap={12}>
            <Segmented<ReportName>
              value={report}
              onChange={(r) => {
                setReport(r);
                setPage(1);
              }}
              aria-label={t('reports.choose')}
              className="no-print"
              data-testid="report-choose"
              options={REPORTS.map((r) => ({ value: r, label: t(`reports.name.${r}`) }))}
            />
            {/* On paper, where the choice above is not printed, the report's name heads its table. */}
            <Typography.Title level={5} className="reports-print-title" data-testid="report-title">
              {t(`reports.name.${report}`)}
            </Typography.Title>
            <Flex gap={8} wrap align="center" className="reports-filters no-print">
              <DatePicker.RangePicker
                aria-label={t('period')}
                format={DATE_FORMAT}
                allowClear={false}
                placeholder={[t('from'), t('to')]}
                value={[dayjs(filters.from), dayjs(filters.to)]}
                onChange={(values) => {
                  const [from, to] = (values ?? [null, null]) as [Dayjs | null, Dayjs | null];
                  if (from && to) change({ from: from.format('YYYY-MM-DD'), to: to.format('YYYY-MM-DD') });
                }}
                data-testid="report-period"
              />
              <div className="reports-filter" title={t('department')}>
                <DepartmentPicker
                  value={filters.departmentId ?? null}
                  onChange={(v) => change({ departmentId: typeof v === 'number' ? v : undefined })}
                  placeholder={t('allDepartments')}
                  aria-label={t('department')}
                  data-testid="report-department"
                />
              </div>
              <Select<Direction>
                allowClear
                className="reports-filter"
                placeholder={t('reports.allDirections')}
                aria-label={t('reports.direction')}
                value={filters.direction}
                onChange={(v) => change({ direction: v ?? undefined })}
                options={DIRECTIONS.map((d) => ({ value: d, label: tc(`direction.${d}`) }))}
                data-testid="report-direction"
              />
              <Select<number>
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                className="reports-filter"
                placeholder={t('reports.allCodifications')}
                aria-label={t('reports.codification')}
                value={filters.codificationId}
                onChange={(v) => change({ codificationId: v ?? undefined })}
                options={(codifications.data ?? []).map((c) => ({
                  value: c.id,
                  label: localName(c, i18n.language),
                }))}
                data-testid="report-codification"
              />
            </Flex>
            {answer.isError && !data ? (
              <LoadFailed onRetry={() => void answer.refetch()} />
            ) : (
              <Table<{ key: number; cells: ReportCell[] }>
                size="small"
                loading={answer.isFetching}
                data-testid="report-table"
                rowKey="key"
                scroll={{ x: 'max-content' }}
                dataSource={(columns.length ? (data?.rows ?? []) : []).map((cells, i) => ({
                  key: offset + i,
                  cells,
                }))}
                locale={{ emptyText: t('reports.empty') }}
                columns={columns.map((c, ci) => ({
                  key: c.key,
                  title: t(`reports.column.${c.key}`, { defaultValue: c.key }),
                  align: c.type === 'text' || c.type === 'month' || c.type === 'date' ? 'start' : 'end',
                  render: (_: unknown, row: { cells: ReportCell[] }) => (
                    <bdi>{formatCell(row.cells[ci] ?? null, c.type, i18n.language)}</bdi>
                  ),
                }))}
                pagination={{
                  current: page,
                  pageSize: PAGE_SIZE,
                  total: data?.total ?? 0,
                  showSizeChanger: false,
                  hideOnSinglePage: true,
                  onChange: setPage,
                  showTotal: (total) => t('reports.total', { count: total, formatted: formatNumber(total) }),
                }}
              />
            )}
          </Flex>
        </Card>
      </CorrespondenceScreen>
    </div>
  );
}
