/**
 * Administration — backups (/auth/backups, issue 29; docs/backups.md): "Back up now" asks the running
 * server to write a backup of itself into its BACKUP_DIR (the request waits until the backup is written;
 * the server then removes the older ones its retention rule lets go), the rule itself, and the list of the
 * backups there — time, size, files, the last verification, what the rule does with each — each with
 * "Verify", which hashes its files again against its manifest, and "Delete" (after a confirmation; never
 * offered for the newest). Everything goes through the API client: the server chooses the folders; the
 * screen names a backup only by the name the list gave it.
 */
import { Alert, App, Button, Space, Table, Tag, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import { CloudDownloadOutlined, DeleteOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  backupEndpoints as E,
  type BackupRetention,
  type BackupRetentionRule,
  type BackupSummary,
} from '../../../src-shared/api/backups';
import type { Permission } from '../../../src-shared/permissions';
import { LoadFailed } from '../../components/LoadFailed';
import { call } from '../../lib/call';
import { formatDateTime, formatNumber, formatSize } from '../../lib/format';
import { useCan } from '../../lib/usePermission';
import { AdminScreen } from './AdminScreen';

const KEY = ['admin', 'backups'] as const;

const RETENTION_COLOURS: Record<BackupRetention, string | undefined> = {
  newest: 'blue',
  last: undefined,
  monthly: 'purple',
  expired: 'orange',
  outside: undefined,
};

/** The retention rule in words: "Kept: the 7 newest backups, and the newest of each of the 12 latest months…". */
function RetentionRule({ rule }: { rule: BackupRetentionRule }) {
  const { t } = useTranslation('admin');
  const last = t('backups.retention.last', { count: rule.keepLast, n: formatNumber(rule.keepLast) });
  const months = t('backups.retention.months', {
    count: rule.keepMonthly,
    n: formatNumber(rule.keepMonthly),
  });
  return (
    <Typography.Text type="secondary" data-testid="backup-retention-rule">
      {rule.keepMonthly > 0
        ? t('backups.retention.rule', { last, months })
        : t('backups.retention.ruleLastOnly', { last })}
    </Typography.Text>
  );
}

export function BackupsPage({ permissions }: { permissions?: readonly Permission[] } = {}) {
  const { t } = useTranslation('admin');
  const can = useCan(permissions);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => call(E.list) });
  const rule = useQuery({ queryKey: [...KEY, 'retention'], queryFn: () => call(E.retention) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: KEY });
  const make = useMutation({ mutationFn: () => call(E.create), onSuccess: refresh });
  const verify = useMutation({
    mutationFn: (name: string) => call(E.verify, { params: { name } }),
    onSuccess: refresh,
  });
  const confirmRemove = (b: BackupSummary) =>
    modal.confirm({
      title: t('backups.deleteTitle', { time: b.createdAt ? formatDateTime(b.createdAt) : b.name }),
      content: t('backups.deleteBody'),
      okText: t('backups.delete'),
      okButtonProps: { danger: true, 'data-testid': 'backup-delete-confirm' } as ButtonProps,
      cancelText: t('actions.cancel'),
      onOk: async () => {
        try {
          await call(E.remove, { params: { name: b.name } });
        } catch {
          // the http helper toasted the server's reason (the newest, unfinished, …); the list says the rest
        }
        refresh();
      },
    });

  return (
    <AdminScreen title={t('backups.title')} description={t('backups.description')} testId="admin-backups">
      <Space direction="vertical" size="middle" className="backups-body">
        {can('add') && (
          <Space wrap>
            <Button
              type="primary"
              icon={<CloudDownloadOutlined />}
              loading={make.isPending}
              onClick={() => make.mutate()}
              data-testid="backup-now"
            >
              {make.isPending ? t('backups.making') : t('backups.now')}
            </Button>
            <Typography.Text type="secondary">{t('backups.nowHint')}</Typography.Text>
          </Space>
        )}
        {rule.data && <RetentionRule rule={rule.data} />}
        {list.isError ? (
          <LoadFailed onRetry={() => void list.refetch()} />
        ) : (
          <Table<BackupSummary>
            size="small"
            rowKey="name"
            loading={list.isLoading}
            dataSource={list.data ?? []}
            pagination={false}
            locale={{ emptyText: t('backups.empty') }}
            data-testid="backups-table"
            columns={[
              {
                key: 'createdAt',
                title: t('backups.columns.createdAt'),
                render: (_, b) =>
                  b.createdAt ? (
                    <bdi>{formatDateTime(b.createdAt)}</bdi>
                  ) : (
                    <Tag color="orange">{t('backups.unfinished')}</Tag>
                  ),
              },
              {
                key: 'size',
                title: t('backups.columns.size'),
                render: (_, b) => <bdi>{formatSize(b.size)}</bdi>,
              },
              {
                key: 'files',
                title: t('backups.columns.files'),
                render: (_, b) => <bdi>{formatNumber(b.files)}</bdi>,
              },
              {
                key: 'database',
                title: t('backups.columns.database'),
                render: (_, b) => (b.database ? t(`backups.database.${b.database}`) : '—'),
              },
              {
                key: 'verification',
                title: t('backups.columns.verified'),
                render: (_, b) =>
                  b.verification ? (
                    <span data-testid={`backup-state-${b.name}`}>
                      <Tag color={b.verification.whole ? 'green' : 'red'}>
                        {b.verification.whole
                          ? t('backups.whole')
                          : t('backups.damaged', { count: b.verification.problems })}
                      </Tag>{' '}
                      <bdi>{formatDateTime(b.verification.at)}</bdi>
                    </span>
                  ) : (
                    <Tag data-testid={`backup-state-${b.name}`}>{t('backups.notVerified')}</Tag>
                  ),
              },
              {
                key: 'retention',
                title: t('backups.columns.retention'),
                render: (_, b) =>
                  b.state === 'complete' ? (
                    <Tag color={RETENTION_COLOURS[b.retention]} data-testid={`backup-retention-${b.name}`}>
                      {t(`backups.retention.${b.retention}`)}
                    </Tag>
                  ) : null,
              },
              {
                key: 'actions',
                title: '',
                render: (_, b) =>
                  b.state === 'complete' ? (
                    <Space size="small">
                      <Button
                        size="small"
                        icon={<SafetyCertificateOutlined />}
                        loading={verify.isPending && verify.variables === b.name}
                        disabled={verify.isPending && verify.variables !== b.name}
                        onClick={() => verify.mutate(b.name)}
                        data-testid={`backup-verify-${b.name}`}
                      >
                        {t('backups.verify')}
                      </Button>
                      {can('delete') && b.retention !== 'newest' && b.retention !== 'outside' && (
                        <Button
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('backups.deleteNamed', {
                            time: b.createdAt ? formatDateTime(b.createdAt) : b.name,
                          })}
                          onClick={() => confirmRemove(b)}
                          data-testid={`backup-delete-${b.name}`}
                        >
                          {t('backups.delete')}
                        </Button>
                      )}
                    </Space>
                  ) : null,
              },
            ]}
          />
        )}
        {(list.data ?? []).some((b) => b.hasSecret) && (
          <Alert type="warning" showIcon message={t('backups.secretNote')} />
        )}
      </Space>
    </AdminScreen>
  );
}
