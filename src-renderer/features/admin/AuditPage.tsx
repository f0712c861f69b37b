/**
 * Administration — the audit page (/auth/audit), two tabs. The audit log: who did what, to what, when and
 * from where, newest first. Filters: a date range above the table (merged into `filters` as `at` bounds),
 * and column filters on the action, the actor and the target; a row opens its details in a drawer. The
 * stored files' integrity (IntegrityPanel, `?tab=integrity`): the background check's findings, the tab's
 * label counting the open ones.
 */
import { useMemo, useState } from 'react';
import { Badge, DatePicker, Descriptions, Drawer, Tabs, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../../src-shared/api/admin';
import type { Filters } from '../../../src-shared/filters';
import type { Permission } from '../../../src-shared/permissions';
import { DATE_FORMAT, DataTable, formatDateTime, type DataTableColumn } from '../../components/DataTable';
import { useSearchParams } from 'react-router-dom';
import { AdminScreen } from './AdminScreen';
import { IntegrityPanel, useIntegrityPage } from './IntegrityPanel';
import { ENDPOINTS, adminKeys } from '../../lib/admin-api';
import { formatNumber } from '../../lib/format';

/**
 * The `at` bounds of a date range, inclusive of both whole days in the user's time zone: `gte` the
 * start of the first day and `lte` the end of the last, as instants (the server compares timestamps).
 */
export function auditRangeFilter(range: readonly [Dayjs | null, Dayjs | null] | null): Filters | undefined {
  const constraints = [];
  if (range?.[0])
    constraints.push({ value: range[0].startOf('day').toISOString(), matchMode: 'gte' as const });
  if (range?.[1]) constraints.push({ value: range[1].endOf('day').toISOString(), matchMode: 'lte' as const });
  return constraints.length > 0 ? { at: { operator: 'and', constraints } } : undefined;
}

/** The audit page's tabs; the integrity tab is named in the address (a notification opens it). */
type AuditTab = 'log' | 'integrity';

/** The audit screen. Reading it needs only `view`; it has no actions. */
export function AuditPage(_props: { permissions?: readonly Permission[] } = {}) {
  const { t } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const tab: AuditTab = params.get('tab') === 'integrity' ? 'integrity' : 'log';
  // The first page of findings, for the tab's count (the panel shares it from the cache).
  const open = useIntegrityPage().data?.open ?? 0;
  return (
    <AdminScreen title={t('audit.title')} description={t('audit.description')} testId="admin-audit">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'log' ? {} : { tab: key }, { replace: true })}
        destroyOnHidden
        items={[
          {
            key: 'log',
            label: <span data-testid="audit-tab-log">{t('audit.tabs.log')}</span>,
            children: <AuditLog />,
          },
          {
            key: 'integrity',
            label: (
              <span data-testid="audit-tab-integrity">
                {t('integrity.tab')}
                {open > 0 && (
                  <Badge
                    count={formatNumber(open)}
                    className="integrity-badge"
                    aria-label={t('integrity.open', { count: open, n: formatNumber(open) })}
                  />
                )}
              </span>
            ),
            children: <IntegrityPanel />,
          },
        ]}
      />
    </AdminScreen>
  );
}

/** The audit log's tab. */
function AuditLog() {
  const { t } = useTranslation('admin');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [selected, setSelected] = useState<AuditEntry | null>(null);
  const fixedFilters = useMemo(() => auditRangeFilter(range), [range]);

  const columns: DataTableColumn<AuditEntry>[] = [
    {
      key: 'at',
      title: 'admin:audit.columns.at',
      sortable: true,
      filter: { type: 'date' },
      render: (e) => <bdi>{formatDateTime(e.at)}</bdi>,
    },
    {
      key: 'action',
      title: 'admin:audit.columns.action',
      sortable: true,
      filter: { type: 'text', matchModes: ['startsWith', 'equals', 'contains', 'notEquals'] },
      render: (e) => e.actionName,
    },
    {
      key: 'actorUsername',
      title: 'admin:audit.columns.actor',
      filter: { type: 'text' },
      render: (e) =>
        e.actorUsername ? (
          <bdi dir="ltr">{e.actorUsername}</bdi>
        ) : (
          <span className="admin-muted">{t('audit.system')}</span>
        ),
    },
    {
      key: 'targetType',
      title: 'admin:audit.columns.target',
      sortable: true,
      filter: { type: 'text', matchModes: ['equals', 'notEquals'] },
      render: (e) =>
        e.targetType
          ? `${t(`audit.targets.${e.targetType}`, { defaultValue: e.targetType })} #${e.targetId ?? ''}`
          : '—',
    },
    {
      key: 'ip',
      title: 'admin:audit.columns.ip',
      sortable: true,
      filter: { type: 'text' },
      render: (e) => <bdi dir="ltr">{e.ip ?? '—'}</bdi>,
    },
  ];

  return (
    <>
      <DataTable<AuditEntry>
        testId="audit-table"
        queryKey={adminKeys.audit}
        endpoint={ENDPOINTS.audit}
        columns={columns}
        rowKey={(e) => e.id}
        defaultSort="-at"
        emptyMessageKey="admin:audit.empty"
        fixedFilters={fixedFilters}
        onRowClick={setSelected}
        toolbar={
          <DatePicker.RangePicker
            value={range}
            onChange={(value) => setRange(value as [Dayjs | null, Dayjs | null] | null)}
            format={DATE_FORMAT}
            allowEmpty={[true, true]}
            placeholder={[t('audit.from'), t('audit.to')]}
            aria-label={t('audit.range')}
            data-testid="audit-range"
          />
        }
      />
      <Drawer
        open={selected !== null}
        onClose={() => setSelected(null)}
        title={selected ? selected.actionName : ''}
        size="large"
        destroyOnHidden
        data-testid="audit-details"
      >
        {selected && (
          <Descriptions column={1} bordered size="small" className="admin-details">
            <Descriptions.Item label={t('audit.columns.at')}>
              <bdi>{formatDateTime(selected.at)}</bdi>
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.columns.action')}>
              {selected.actionName}{' '}
              <Typography.Text type="secondary" code>
                {selected.action}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.columns.actor')}>
              {selected.actorUsername ? <bdi dir="ltr">{selected.actorUsername}</bdi> : t('audit.system')}
              {selected.actorId !== null && (
                <Typography.Text type="secondary"> #{selected.actorId}</Typography.Text>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.columns.target')}>
              {selected.targetType
                ? `${t(`audit.targets.${selected.targetType}`, { defaultValue: selected.targetType })} #${selected.targetId ?? ''}`
                : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.columns.ip')}>
              <bdi dir="ltr">{selected.ip ?? '—'}</bdi>
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.details')}>
              {Object.keys(selected.details).length > 0 ? (
                <pre dir="ltr" data-testid="audit-details-json">
                  {JSON.stringify(selected.details, null, 2)}
                </pre>
              ) : (
                <span className="admin-muted">{t('audit.noDetails')}</span>
              )}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Drawer>
    </>
  );
}
