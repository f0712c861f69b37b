/**
 * Who read a document (issue 31): each opening, view, download and print of it, with who, when and from
 * which address, newest first — shown on the document's detail to holders of the audit page (the server
 * enforces the same permission on GET /correspondence/documents/{id}/reads).
 */
import { Card, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReadEntry } from '../../../../src-shared/api/reads';
import { formatDateTime } from '../../../components/DataTable';
import { LoadFailed } from '../../../components/LoadFailed';
import { documentsApi } from './api';

export function ReadsPanel({ documentId }: { documentId: number }) {
  const { t } = useTranslation('correspondence');
  const reads = useQuery({
    queryKey: ['correspondence', 'reads', documentId],
    queryFn: () => documentsApi.reads(documentId),
  });
  return (
    <Card size="small" title={t('reads.title')} data-testid="reads-panel">
      {reads.isError && !reads.data ? (
        <LoadFailed onRetry={() => void reads.refetch()} testId="reads-failed" />
      ) : (
        <Table<ReadEntry>
          size="small"
          rowKey="id"
          loading={reads.isLoading}
          dataSource={reads.data?.items ?? []}
          pagination={false}
          locale={{ emptyText: t('reads.empty') }}
          columns={[
            {
              key: 'at',
              title: t('reads.at'),
              render: (_, r) => <bdi>{formatDateTime(r.at)}</bdi>,
            },
            { key: 'who', title: t('reads.who'), render: (_, r) => <bdi>{r.username ?? '—'}</bdi> },
            {
              key: 'what',
              title: t('reads.what'),
              render: (_, r) => (
                <>
                  {t(`reads.actions.${r.action.slice('documents.'.length)}`)}
                  {r.fileName && (
                    <Typography.Text type="secondary">
                      {' — '}
                      <bdi>{r.fileName}</bdi>
                    </Typography.Text>
                  )}
                  {r.watermarked && <Tag>{t('reads.watermarked')}</Tag>}
                </>
              ),
            },
            { key: 'ip', title: t('reads.from'), render: (_, r) => <bdi dir="ltr">{r.ip ?? '—'}</bdi> },
          ]}
        />
      )}
    </Card>
  );
}
