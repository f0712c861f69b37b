/**
 * Administration — backups (/auth/backups, issue 29; docs/backups.md): "Back up now" asks the running
 * server to write a backup of itself into its BACKUP_DIR (the request waits until the backup is written),
 * and the list of the backups there — time, size, files, the last verification — each with "Verify",
 * which hashes its files again against its manifest. Everything goes through the API client: the server
 * chooses the folders; the screen names a backup only by the name the list gave it.
 */
import { Alert, Button, Space, Table, Tag, Typography } from 'antd';
import { CloudDownloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { backupEndpoints as E, type BackupSummary } from '../../../src-shared/api/backups';
import type { Permission } from '../../../src-shared/permissions';
import { LoadFailed } from '../../components/LoadFailed';
import { call } from '../../lib/call';
import { formatDateTime, formatNumber, formatSize } from '../../lib/format';
import { useCan } from '../../lib/usePermission';
import { AdminScreen } from './AdminScreen';

const KEY = ['admin', 'backups'] as const;

export function BackupsPage({ permissions }: { permissions?: readonly Permission[] } = {}) {
  const { t } = useTranslation('admin');
  const can = useCan(permissions);
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: () => call(E.list) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: KEY });
  const make = useMutation({ mutationFn: () => call(E.create), onSuccess: refresh });
  const verify = useMutation({
    mutationFn: (name: string) => call(E.verify, { params: { name } }),
    onSuccess: refresh,
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
                key: 'actions',
                title: '',
                render: (_, b) =>
                  b.state === 'complete' ? (
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
