/**
 * The stored files' integrity (issue 31 part 6; docs/read-audit-and-integrity.md), the audit page's second
 * tab: what the background check found — stored files whose bytes no longer match the SHA-256 they were
 * stored under, or that the store no longer has — newest first, paged on the server (GET /auth/integrity),
 * each with the documents holding the file (named and linked when the viewer may see them) and whether a
 * later pass found it whole again. Above the list: how many are open, or that every file matched at the
 * last check, and when the check last went over every file and runs next.
 */
import { useState } from 'react';
import { Alert, Flex, Result, Table, Tag, Tooltip, Typography } from 'antd';
import { CheckCircleOutlined, ClockCircleOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { IntegrityFailure, IntegrityPage } from '../../../src-shared/api/reads';
import { useSession } from '../../app/session';
import { LoadFailed } from '../../components/LoadFailed';
import { adminApi, adminKeys } from '../../lib/admin-api';
import { documentScreenPath, mayViewIn } from '../../lib/document-links';
import { formatDateTime, formatNumber } from '../../lib/format';

const PAGE_SIZE = 20;

/** A page of the findings (the tab's label asks for the first page too, for its count). */
export function useIntegrityPage(page = 1, pageSize = PAGE_SIZE) {
  return useQuery({
    queryKey: [...adminKeys.integrity, page, pageSize],
    queryFn: () => adminApi.integrity(page, pageSize),
    placeholderData: keepPreviousData,
  });
}

/** When the check last went over every file, and when it runs next. */
function CheckTimes({ data }: { data: IntegrityPage }) {
  const { t } = useTranslation('admin');
  return (
    <Flex vertical gap={2} data-testid="integrity-times">
      <Typography.Text type="secondary">
        {data.lastPassAt ? (
          <>
            {t('integrity.lastPass')}{' '}
            <bdi data-testid="integrity-last-pass">{formatDateTime(data.lastPassAt)}</bdi>
          </>
        ) : (
          t('integrity.noPass')
        )}
      </Typography.Text>
      {data.nextRunAt && (
        <Typography.Text type="secondary">
          <ClockCircleOutlined /> {t('integrity.nextRun')} <bdi>{formatDateTime(data.nextRunAt)}</bdi>
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The documents holding a file: those the viewer sees by number and subject, the others counted. */
function HoldingDocuments({ failure }: { failure: IntegrityFailure }) {
  const { t } = useTranslation('admin');
  const mayView = mayViewIn(useSession().sections);
  const hidden = failure.documentIds.length - failure.documents.length;
  if (failure.documentIds.length === 0)
    return <Typography.Text type="secondary">{t('integrity.noDocuments')}</Typography.Text>;
  return (
    <Flex vertical gap={2} className="integrity-documents">
      {failure.documents.map((d) => {
        const path = documentScreenPath(d, mayView);
        const text = (
          <>
            {d.docNumber ? <bdi className="corr-number">{d.docNumber}</bdi> : t('reads.unnumbered')}
            {' — '}
            <bdi>{d.subject}</bdi>
          </>
        );
        return (
          <span key={d.id} className="integrity-document" title={d.subject}>
            {path ? (
              <Link to={path} data-testid="integrity-document">
                {text}
              </Link>
            ) : (
              text
            )}
          </span>
        );
      })}
      {hidden > 0 && (
        <Typography.Text type="secondary">
          {t('integrity.hiddenDocuments', { count: hidden, n: formatNumber(hidden) })}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The integrity tab. */
export function IntegrityPanel() {
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const list = useIntegrityPage(page, pageSize);

  if (list.isError && !list.data)
    return <LoadFailed onRetry={() => void list.refetch()} testId="integrity-failed" />;
  const data = list.data;

  const summary = !data ? null : data.open > 0 ? (
    <Alert
      type="error"
      showIcon
      data-testid="integrity-open"
      message={t('integrity.open', { count: data.open, n: formatNumber(data.open) })}
      description={
        <Flex vertical gap={6}>
          <span>{t('integrity.openHint')}</span>
          <CheckTimes data={data} />
        </Flex>
      }
    />
  ) : (
    <Result
      className="integrity-result"
      status={data.lastPassAt ? 'success' : 'info'}
      icon={data.lastPassAt ? <CheckCircleOutlined /> : <ClockCircleOutlined />}
      title={
        <span data-testid="integrity-empty">
          {data.lastPassAt ? t('integrity.allMatched') : t('integrity.notYet')}
        </span>
      }
      subTitle={<CheckTimes data={data} />}
    />
  );

  return (
    <Flex vertical gap={16} data-testid="integrity">
      <Typography.Text type="secondary">{t('integrity.description')}</Typography.Text>
      {summary}
      {data && data.total > 0 && (
        <Table<IntegrityFailure>
          size="small"
          rowKey="id"
          loading={list.isFetching}
          dataSource={data.items}
          data-testid="integrity-table"
          scroll={{ x: true }}
          pagination={{
            current: page,
            pageSize,
            total: data.total,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50, 100],
            onChange: (next, size) => {
              setPage(size === pageSize ? next : 1);
              setPageSize(size);
            },
            showTotal: (total, [from, to]) =>
              t('table:pagination.range', {
                from: formatNumber(from),
                to: formatNumber(to),
                total: formatNumber(total),
              }),
          }}
          columns={[
            {
              key: 'detectedAt',
              title: t('integrity.columns.detectedAt'),
              render: (_, f) => <bdi>{formatDateTime(f.detectedAt)}</bdi>,
            },
            {
              key: 'problem',
              title: t('integrity.columns.problem'),
              render: (_, f) => (
                <Tooltip title={t(`integrity.problemHints.${f.problem}`)}>
                  <Tag color={f.problem === 'missing' ? 'volcano' : 'red'} data-testid="integrity-problem">
                    {t(`integrity.problems.${f.problem}`)}
                  </Tag>
                </Tooltip>
              ),
            },
            {
              key: 'file',
              title: t('integrity.columns.file'),
              render: (_, f) => (
                <Typography.Text
                  code
                  copyable={{ text: f.sha256, tooltips: [t('actions.copy'), t('actions.copied')] }}
                  title={f.sha256}
                >
                  <bdi dir="ltr">{f.sha256.slice(0, 12)}…</bdi>
                </Typography.Text>
              ),
            },
            {
              key: 'documents',
              title: t('integrity.columns.documents'),
              render: (_, f) => <HoldingDocuments failure={f} />,
            },
            {
              key: 'store',
              title: t('integrity.columns.store'),
              render: (_, f) => t(`integrity.stores.${f.store}`, { defaultValue: f.store }),
            },
            {
              key: 'state',
              title: t('integrity.columns.state'),
              render: (_, f) =>
                f.resolvedAt ? (
                  <Tooltip title={<bdi>{formatDateTime(f.resolvedAt)}</bdi>}>
                    <Tag color="green">{t('integrity.resolved')}</Tag>
                  </Tooltip>
                ) : (
                  <Tag color="red">{t('integrity.unresolved')}</Tag>
                ),
            },
          ]}
        />
      )}
    </Flex>
  );
}
