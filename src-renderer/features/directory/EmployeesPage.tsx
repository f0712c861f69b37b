/**
 * Employee Centre — employees (/ec/employees): the dashboard on top (totals; counts by department, job
 * and type; recent hires), then the server-side list with the specification's match-mode filters, names
 * in the interface language's script; a row opens the employee's view; add and edit open the same
 * drawer with the four tabs. Actions show only with the page's `add`, `edit`, `activate`.
 */
import { lazy, Suspense, useState } from 'react';
import { App, Button, Card, Col, Empty, Row, Statistic, Tag, Tooltip } from 'antd';
import {
  CheckCircleOutlined,
  EditOutlined,
  EyeOutlined,
  StopOutlined,
  UserAddOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  EMPLOYEE_TYPES,
  type EmployeeDashboard,
  type EmployeeListItem,
} from '../../../src-shared/api/directory';
import type { Permission } from '../../../src-shared/permissions';
import { DataTable, formatDate, type DataTableColumn } from '../../components/DataTable';
import { DIRECTORY_ENDPOINTS, directoryApi, directoryKeys, localName } from '../../lib/directory-api';
import { DirectoryScreen } from './DirectoryScreen';
import type { EmployeeDrawerState } from './EmployeeDrawer';
import { useDirectoryCan } from './usePermission';
import { formatNumber } from '../../lib/format';

/**
 * The drawer (forms, uploads, pickers) is most of this screen's code and is needed only once a row or
 * "add" is clicked: loaded then, so the list — often the first page after sign-in — appears sooner.
 */
import { LoadFailed } from '../../components/LoadFailed';
import { Ltr } from '../../components/Bidi';

const EmployeeDrawer = lazy(() => import('./EmployeeDrawer').then((m) => ({ default: m.EmployeeDrawer })));

/** A short ranked list of a dashboard card. */
function CountList({
  rows,
  testId,
  dates,
}: {
  rows: { key: string | number; name: string; count: number }[];
  testId: string;
  /** Shown instead of the count (recent hires: the hire date). */
  dates?: Record<string, string | null>;
}) {
  const { t } = useTranslation('directory');
  if (rows.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('employees.dashboard.none')} />;
  return (
    <ul className="directory-count-list" data-testid={testId}>
      {rows.slice(0, 6).map((r) => (
        <li key={r.key}>
          <span className="directory-count-name one-line">{r.name}</span>
          <bdi className={dates ? 'directory-muted' : undefined}>
            {dates ? (dates[r.key] ? formatDate(dates[r.key]!) : '—') : formatNumber(r.count)}
          </bdi>
        </li>
      ))}
    </ul>
  );
}

/** The dashboard above the list. */
function EmployeeDashboardCards({
  data,
  failed,
  onRetry,
}: {
  data: EmployeeDashboard | undefined;
  /** The figures could not be loaded: say so (never "nothing to show yet"). */
  failed: boolean;
  onRetry: () => void;
}) {
  const { t, i18n } = useTranslation('directory');
  const lang = i18n.language;
  if (failed && !data)
    return (
      <Card size="small" className="directory-dashboard" data-testid="employee-dashboard">
        <LoadFailed onRetry={onRetry} testId="dashboard-failed" />
      </Card>
    );
  return (
    <div className="directory-dashboard" data-testid="employee-dashboard">
      <Row gutter={[12, 12]}>
        {(['total', 'active', 'withUser', 'departments', 'jobs'] as const).map((key) => (
          <Col key={key} xs={12} md={8} xl={4} flex="auto">
            <Card size="small">
              <Statistic
                title={t(`employees.dashboard.${key}`)}
                value={data ? data.totals[key === 'total' ? 'employees' : key] : '—'}
                formatter={(v) => (typeof v === 'number' ? formatNumber(v) : v)}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[12, 12]} style={{ marginBlockStart: 12 }}>
        <Col xs={24} md={12} xl={6}>
          <Card size="small" title={t('employees.dashboard.byDepartment')}>
            <CountList
              testId="dashboard-by-department"
              rows={(data?.byDepartment ?? []).map((r) => ({
                key: r.id,
                name: localName(r, lang),
                count: r.count,
              }))}
            />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Card size="small" title={t('employees.dashboard.byJob')}>
            <CountList
              testId="dashboard-by-job"
              rows={(data?.byJob ?? []).map((r) => ({ key: r.id, name: localName(r, lang), count: r.count }))}
            />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Card size="small" title={t('employees.dashboard.byType')}>
            <CountList
              testId="dashboard-by-type"
              rows={(data?.byType ?? []).map((r) => ({
                key: r.employeeType,
                name: t(`employees.types.${r.employeeType}`),
                count: r.count,
              }))}
            />
          </Card>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Card size="small" title={t('employees.dashboard.recentHires')}>
            <CountList
              testId="dashboard-recent-hires"
              rows={(data?.recentHires ?? []).map((e) => ({
                key: e.id,
                name: localName(e, lang),
                count: 0,
              }))}
              dates={Object.fromEntries((data?.recentHires ?? []).map((e) => [e.id, e.hireDate]))}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}

/** The employees screen. `permissions` overrides the current page permissions (tests). */
export function EmployeesPage({ permissions }: { permissions?: readonly Permission[] } = {}) {
  const { t, i18n } = useTranslation('directory');
  const can = useDirectoryCan(permissions);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [drawer, setDrawer] = useState<EmployeeDrawerState | null>(null);
  // Once loaded the drawer stays mounted, so it can animate closed.
  const [drawerUsed, setDrawerUsed] = useState(false);
  if (drawer && !drawerUsed) setDrawerUsed(true);
  const lang = i18n.language;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: directoryKeys.all });

  const dashboard = useQuery({ queryKey: directoryKeys.dashboard, queryFn: directoryApi.dashboard });
  const jobs = useQuery({
    queryKey: [...directoryKeys.jobOptions, i18n.language],
    queryFn: directoryApi.jobOptions,
  });
  const options = useQuery({
    queryKey: directoryKeys.departmentOptions('internal', true),
    queryFn: () => directoryApi.departmentOptions('internal', true),
  });
  const departments = options.data ?? [];

  const confirmActive = (e: EmployeeListItem) => {
    const activate = !e.active;
    const name = localName(e, lang);
    modal.confirm({
      title: t(activate ? 'employees.activateTitle' : 'employees.deactivateTitle', { name }),
      content: t(activate ? 'employees.activateBody' : 'employees.deactivateBody'),
      okText: t(activate ? 'actions.activate' : 'actions.deactivate'),
      okButtonProps: { danger: !activate },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await directoryApi.setEmployeeActive(e.id, activate);
        refresh();
      },
    });
  };

  const columns: DataTableColumn<EmployeeListItem>[] = [
    {
      key: 'name',
      title: 'directory:employees.columns.name',
      sortable: true,
      filter: { type: 'text' },
      render: (e) => <span data-testid={`employee-name-${e.id}`}>{localName(e, lang)}</span>,
    },
    {
      key: 'department',
      title: 'directory:employees.columns.department',
      filter: {
        type: 'enum',
        field: 'departmentId',
        options: departments.map((d) => ({ value: d.id, label: localName(d, lang) })),
      },
      ellipsis: true,
      width: 220,
      render: (e) => localName(e.department, lang),
    },
    {
      key: 'job',
      title: 'directory:employees.columns.job',
      filter: {
        type: 'enum',
        field: 'jobId',
        options: (jobs.data ?? []).map((j) => ({ value: j.id, label: localName(j, lang) })),
      },
      width: 160,
      render: (e) => (
        <>
          {localName(e.job, lang)} {e.job.isManager && <Tag color="gold">★</Tag>}
        </>
      ),
    },
    {
      key: 'employeeType',
      title: 'directory:employees.columns.type',
      // Counted in the dashboard above, shown in the drawer and the column chooser.
      hiddenByDefault: true,
      sortable: true,
      filter: {
        type: 'enum',
        options: EMPLOYEE_TYPES.map((type) => ({ value: type, label: `directory:employees.types.${type}` })),
      },
      render: (e) => t(`employees.types.${e.employeeType}`),
    },
    {
      key: 'phoneNumber',
      title: 'directory:employees.columns.phone',
      filter: { type: 'text' },
      render: (e) =>
        e.phoneNumber ? <Ltr>{e.phoneNumber}</Ltr> : <span className="directory-muted">—</span>,
    },
    {
      key: 'hireDate',
      title: 'directory:employees.columns.hireDate',
      // In the drawer and the column chooser: with the row actions, the list fits a 1280 px window.
      hiddenByDefault: true,
      sortable: true,
      filter: { type: 'date' },
      render: (e) =>
        e.hireDate ? <bdi>{formatDate(e.hireDate)}</bdi> : <span className="directory-muted">—</span>,
    },
    {
      key: 'hasUser',
      title: 'directory:employees.columns.account',
      filter: { type: 'boolean' },
      render: (e) =>
        e.userId ? <UserOutlined aria-label={t('yes')} /> : <span className="directory-muted">—</span>,
    },
    {
      key: 'active',
      title: 'directory:employees.columns.status',
      sortable: true,
      filter: { type: 'boolean' },
      render: (e) =>
        e.active ? <Tag color="green">{t('status.active')}</Tag> : <Tag>{t('status.inactive')}</Tag>,
    },
  ];

  const rowActions = (e: EmployeeListItem) => {
    const name = localName(e, lang);
    return (
      <>
        <Tooltip title={t('actions.view')}>
          <Button
            type="text"
            icon={<EyeOutlined />}
            aria-label={t('actions.viewNamed', { name })}
            onClick={() => setDrawer({ mode: 'view', id: e.id })}
          />
        </Tooltip>
        {can('edit') && (
          <Tooltip title={t('actions.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={t('actions.editNamed', { name })}
              onClick={() => setDrawer({ mode: 'edit', id: e.id })}
              data-testid={`employee-edit-${e.id}`}
            />
          </Tooltip>
        )}
        {can('activate') && (
          <Tooltip title={t(e.active ? 'actions.deactivate' : 'actions.activate')}>
            <Button
              type="text"
              danger={e.active}
              icon={e.active ? <StopOutlined /> : <CheckCircleOutlined />}
              aria-label={`${t(e.active ? 'actions.deactivate' : 'actions.activate')} ${name}`}
              onClick={() => confirmActive(e)}
            />
          </Tooltip>
        )}
      </>
    );
  };

  return (
    <DirectoryScreen
      title={t('employees.title')}
      description={t('employees.description')}
      testId="directory-employees"
      above={
        <EmployeeDashboardCards
          data={dashboard.data}
          failed={dashboard.isError}
          onRetry={() => void dashboard.refetch()}
        />
      }
    >
      <DataTable<EmployeeListItem>
        testId="employees-table"
        queryKey={directoryKeys.employees}
        endpoint={DIRECTORY_ENDPOINTS.employees}
        columns={columns}
        rowKey={(e) => e.id}
        defaultSort="name"
        emptyMessageKey="directory:empty.employees"
        onRowClick={(e) => setDrawer({ mode: 'view', id: e.id })}
        rowActions={rowActions}
        toolbar={
          can('add') && (
            <Button
              type="primary"
              icon={<UserAddOutlined />}
              onClick={() => setDrawer({ mode: 'new' })}
              data-testid="employee-add"
            >
              {t('employees.add')}
            </Button>
          )
        }
      />
      {drawerUsed && (
        <Suspense fallback={null}>
          <EmployeeDrawer
            state={drawer}
            canEdit={can('edit')}
            onClose={() => setDrawer(null)}
            onEdit={(id) => setDrawer({ mode: 'edit', id })}
            onSaved={() => {
              setDrawer(null);
              refresh();
            }}
          />
        </Suspense>
      )}
    </DirectoryScreen>
  );
}

/** The route module of /ec/employees. */
export function Component() {
  return <EmployeesPage />;
}
