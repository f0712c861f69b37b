/**
 * Who read a document (issue 31): each opening, view, download and print of it, with who, when and from
 * which address, newest first, a page at a time — shown on the document's detail to holders of the audit
 * page (the server enforces the same permission on GET /correspondence/documents/{id}/reads).
 */
import { useState } from 'react';
import { Card, Flex, List, Tag, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReadEntry } from '../../../../src-shared/api/reads';
import { formatDateTime } from '../../../components/DataTable';
import { LoadFailed } from '../../../components/LoadFailed';
import { READS_PAGE_SIZE, documentsApi } from './api';

export function ReadsPanel({ documentId }: { documentId: number }) {
  const { t } = useTranslation('correspondence');
  const [page, setPage] = useState(1);
  const reads = useQuery({
    queryKey: ['correspondence', 'reads', documentId, page],
    queryFn: () => documentsApi.reads(documentId, page),
    placeholderData: keepPreviousData,
  });
  return (
    <Card size="small" title={t('reads.title')} data-testid="reads-panel">
      {reads.isError && !reads.data ? (
        <LoadFailed onRetry={() => void reads.refetch()} testId="reads-failed" />
      ) : (
        // A list, not a table: the panel stands in the detail's narrow side column, where four columns
        // broke every line; each act reads "who — what" over "when · from where".
        <List<ReadEntry>
          size="small"
          loading={reads.isLoading}
          dataSource={reads.data?.items ?? []}
          // More than a page of reads: a small pager under the list (none for a single page).
          pagination={{
            current: page,
            pageSize: READS_PAGE_SIZE,
            total: reads.data?.total ?? 0,
            size: 'small',
            simple: true,
            hideOnSinglePage: true,
            onChange: setPage,
            align: 'center',
          }}
          locale={{ emptyText: t('reads.empty') }}
          renderItem={(r) => (
            <List.Item key={r.id} data-testid="read-entry">
              <Flex vertical gap={2} style={{ minInlineSize: 0 }}>
                <span>
                  <Typography.Text strong>
                    <bdi>{r.username ?? '—'}</bdi>
                  </Typography.Text>
                  {' — '}
                  {t(`reads.actions.${r.action.slice('documents.'.length)}`)}
                  {r.fileName && (
                    <Typography.Text type="secondary">
                      {' '}
                      <bdi>{r.fileName}</bdi>
                    </Typography.Text>
                  )}
                  {r.watermarked && <Tag style={{ marginInlineStart: 6 }}>{t('reads.watermarked')}</Tag>}
                </span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  <bdi>{formatDateTime(r.at)}</bdi>
                  {' · '}
                  {t('reads.from')} <bdi dir="ltr">{r.ip ?? '—'}</bdi>
                </Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
