/**
 * Administration — stalled approval circuits (/auth/stalled-circuits, issue 28): circuits whose pending
 * approver's account was deactivated (document, subject, step, the approver, since when), and putting an
 * active user who may see the document in their place (edit). The server checks clearance, and signing
 * authority for the signatory's step.
 */
import { useState } from 'react';
import { Button, Card, Modal, Table, Tag } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { delegationEndpoints as E, type StalledCircuit } from '../../../src-shared/api/delegations';
import { PAGES } from '../../../src-shared/pages';
import { useCanOn } from '../../app/permissions';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { formatDateTime } from '../../components/DataTable';
import { LoadFailed } from '../../components/LoadFailed';
import { call } from '../../lib/call';
import { PersonName, PersonSelect } from '../../components/Delegation';

const KEY = ['delegations', 'stalled'] as const;

export function Component() {
  const { t } = useTranslation('delegations');
  const queryClient = useQueryClient();
  const mayEdit = useCanOn(PAGES.stalledCircuits, 'edit');
  const list = useQuery({ queryKey: KEY, queryFn: () => call(E.stalled) });
  const [replacing, setReplacing] = useState<StalledCircuit | null>(null);
  const [userId, setUserId] = useState<number | undefined>();
  const replace = useMutation({
    mutationFn: ({ memberId, userId }: { memberId: number; userId: number }) =>
      call(E.replace, { params: { memberId }, body: { userId } }),
    onSuccess: () => {
      setReplacing(null);
      setUserId(undefined);
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  if (list.isError) return <LoadFailed onRetry={() => void list.refetch()} />;
  return (
    <CorrespondenceScreen testId="stalled-circuits" subtitle={t('stalled.description')}>
      <Card size="small">
        <Table<StalledCircuit>
          size="small"
          rowKey="memberId"
          loading={list.isLoading}
          dataSource={list.data ?? []}
          pagination={false}
          locale={{ emptyText: t('stalled.empty') }}
          data-testid="stalled-table"
          columns={[
            {
              key: 'docNumber',
              title: t('stalled.columns.docNumber'),
              render: (_, r) => (r.docNumber ? <bdi className="corr-number">{r.docNumber}</bdi> : '—'),
            },
            { key: 'subject', title: t('stalled.columns.subject'), dataIndex: 'subject' },
            {
              key: 'step',
              title: t('stalled.columns.step'),
              render: (_, r) => (
                <span>
                  <bdi>{r.step}</bdi> <Tag>{t(`stalled.kinds.${r.kind}`)}</Tag>
                </span>
              ),
            },
            {
              key: 'approver',
              title: t('stalled.columns.approver'),
              render: (_, r) => (
                <span>
                  <PersonName person={r.approver} /> <Tag color="red">{t('stalled.inactive')}</Tag>
                </span>
              ),
            },
            {
              key: 'since',
              title: t('stalled.columns.since'),
              render: (_, r) => <bdi>{formatDateTime(r.since)}</bdi>,
            },
            ...(mayEdit
              ? [
                  {
                    key: 'actions',
                    title: '',
                    render: (_: unknown, r: StalledCircuit) => (
                      <Button
                        size="small"
                        onClick={() => setReplacing(r)}
                        data-testid={`replace-${r.memberId}`}
                      >
                        {t('stalled.replace')}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      <Modal
        open={replacing !== null}
        title={t('stalled.replaceTitle')}
        okText={t('stalled.replace')}
        cancelText={t('cancel')}
        okButtonProps={{ disabled: userId === undefined, loading: replace.isPending }}
        onOk={() => {
          if (replacing && userId !== undefined) replace.mutate({ memberId: replacing.memberId, userId });
        }}
        onCancel={() => setReplacing(null)}
        destroyOnHidden
      >
        {replacing && (
          <PersonSelect
            testId="replace-user"
            value={userId}
            onChange={setUserId}
            excludeId={replacing.approver.id}
          />
        )}
      </Modal>
    </CorrespondenceScreen>
  );
}
