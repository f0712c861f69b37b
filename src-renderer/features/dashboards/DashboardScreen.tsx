/**
 * The frame of the three dashboards (issue 30, docs/dashboards.md): a period picker and, where the
 * dashboard counts by department, a department filter; the figures as cards and the charts (Chart), each
 * opening the list of documents behind it (drillPath: a box or the search page with its filters); when it
 * was counted; and a print of the figures, charts and their tables without the menus.
 */
import { useState } from 'react';
import { Button, Card, DatePicker, Flex, Skeleton, Statistic, Typography } from 'antd';
import { PrinterOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import type { DashboardQuery, Drill, Figure } from '../../../src-shared/api/dashboards';
import { Chart } from '../../components/charts/Chart';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { LoadFailed } from '../../components/LoadFailed';
import { DATE_FORMAT } from '../../components/DataTable';
import { DepartmentPicker } from '../../components/DepartmentPicker';
import { dashboardKeys, dashboardsApi, drillPath, type DashboardName } from '../../lib/dashboards-api';
import { formatDate, formatDateTime, formatNumber } from '../../lib/format';
import './dashboards.css';

/** A figure as a card that opens its list. */
function FigureCard({ figure, onDrill }: { figure: Figure; onDrill: (drill: Drill) => void }) {
  const { t, i18n } = useTranslation('dashboards');
  const days = figure.unit === 'days';
  const label = t(`figure.${figure.key}`, { defaultValue: figure.key });
  const value = formatNumber(figure.value, i18n.language, days ? 1 : 0);
  return (
    <Card
      size="small"
      hoverable
      className="dash-figure"
      role="link"
      tabIndex={0}
      aria-label={`${label}: ${value}${days ? ` ${t('unit.days')}` : ''}`}
      onClick={() => onDrill(figure.drill)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onDrill(figure.drill);
        }
      }}
      data-testid={`figure-${figure.key}`}
    >
      <Statistic
        title={label}
        value={value}
        suffix={days ? t('unit.days') : undefined}
        valueRender={() => <bdi data-testid={`figure-value-${figure.key}`}>{value}</bdi>}
      />
    </Card>
  );
}

/** A dashboard screen; `byDepartment` offers the department filter. */
export function DashboardScreen({
  name,
  testId,
  byDepartment,
}: {
  name: DashboardName;
  testId: string;
  byDepartment: boolean;
}) {
  const { t, i18n } = useTranslation('dashboards');
  const navigate = useNavigate();
  const [query, setQuery] = useState<DashboardQuery>({});
  const answer = useQuery({
    queryKey: dashboardKeys.dashboard(name, query),
    queryFn: () => dashboardsApi.dashboard(name, query),
    placeholderData: keepPreviousData,
  });
  const data = answer.data;
  const onDrill = (drill: Drill) => void navigate(drillPath(drill));
  // The period asked for, else the one the server settled on (its default).
  const period =
    query.from && query.to
      ? [dayjs(query.from), dayjs(query.to)]
      : data
        ? [dayjs(data.from), dayjs(data.to)]
        : null;

  return (
    <div className="print-only-block dashboard-print">
      <CorrespondenceScreen
        testId={testId}
        subtitle={
          data ? (
            <span data-testid="dash-as-of">
              {t('asOf', {
                from: formatDate(data.from, i18n.language),
                to: formatDate(data.to, i18n.language),
                time: formatDateTime(data.asOf, i18n.language),
              })}
            </span>
          ) : null
        }
        extra={
          <Flex gap={8} wrap align="center" className="no-print">
            <DatePicker.RangePicker
              aria-label={t('period')}
              format={DATE_FORMAT}
              placeholder={[t('from'), t('to')]}
              value={period as [Dayjs, Dayjs] | null}
              onChange={(values) => {
                const [from, to] = (values ?? [null, null]) as [Dayjs | null, Dayjs | null];
                setQuery((q) => ({
                  ...q,
                  from: from ? from.format('YYYY-MM-DD') : undefined,
                  to: to ? to.format('YYYY-MM-DD') : undefined,
                }));
              }}
              data-testid="dash-period"
            />
            {byDepartment ? (
              <div className="dash-department" title={t('department')}>
                <DepartmentPicker
                  value={query.departmentId ?? null}
                  onChange={(v) =>
                    setQuery((q) => ({ ...q, departmentId: typeof v === 'number' ? v : undefined }))
                  }
                  placeholder={t(name === 'organisation' ? 'everyDepartment' : 'allDepartments')}
                  aria-label={t('department')}
                  data-testid="dash-department"
                />
              </div>
            ) : null}
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void answer.refetch()}
              loading={answer.isFetching}
              aria-label={t('refresh')}
              data-testid="dash-refresh"
            />
            <Button icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="dash-print">
              {t('print')}
            </Button>
          </Flex>
        }
      >
        {answer.isError && !data ? (
          <LoadFailed onRetry={() => void answer.refetch()} />
        ) : !data ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : (
          <Flex vertical gap={16}>
            <div className="dash-figures" data-testid="dash-figures">
              {data.figures.map((f) => (
                <FigureCard key={f.key} figure={f} onDrill={onDrill} />
              ))}
            </div>
            <div className="dash-charts" data-testid="dash-charts">
              {data.charts.map((c) => (
                <Chart key={c.key} chart={c} onDrill={onDrill} />
              ))}
            </div>
            <Typography.Text type="secondary" className="no-print">
              {t('drillHint')}
            </Typography.Text>
          </Flex>
        )}
      </CorrespondenceScreen>
    </div>
  );
}
