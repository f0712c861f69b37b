/**
 * "On this computer" (issue 14): the drafts of a family written on this desk that have not reached the
 * server — waiting, in conflict (changed on the server meanwhile) or refused by it — above the server's
 * drafts list. Each opens in its form, can be sent now or deleted from this computer; a conflict opens
 * both versions side by side for the clerk to choose. Nothing shows when nothing waits.
 */
import { useState } from 'react';
import { App, Button, Card, List, Modal, Space, Table, Tag, Typography, type ButtonProps } from 'antd';
import { CloudUploadOutlined, DeleteOutlined, DiffOutlined, EditOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { LocalDraftDetail, LocalDraftSummary } from '../../../../src-shared/ipc/contract';
import { formatDate, formatDateTime } from '../../../lib/format';
import { localDrafts, useLocalDraftCounts } from '../../../lib/local-drafts';
import { toast } from '../../../lib/toast';
import { corrKeys, localDraftKeys } from './keys';
import { FAMILIES, localDraftPath, type Family } from './directions';

const STATE_COLOR: Record<LocalDraftSummary['state'], string> = {
  pending: 'gold',
  synced: 'green',
  conflict: 'red',
  failed: 'volcano',
};
/** The fields a clerk compares as text (the others are choices made from lists). */
/** A compared value as the clerk reads it (dates in their language's form). */
const shown = (field: string, value: unknown) =>
  value == null || value === '' ? '—' : field.endsWith('Date') ? formatDate(String(value)) : String(value);
const TEXT_FIELDS = [
  'subject',
  'summary',
  'senderDocumentNumber',
  'receiver',
  'grouping',
  'documentDate',
  'receivedDate',
];

export function LocalDraftsCard({ family }: { family: Family }) {
  const { t } = useTranslation('correspondence');
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const spec = FAMILIES[family];
  const counts = useLocalDraftCounts();
  const list = useQuery({
    queryKey: localDraftKeys.list(counts.waiting, counts.conflicts, counts.failed),
    queryFn: localDrafts.list,
  });
  const [comparing, setComparing] = useState<LocalDraftDetail | null>(null);
  // Main's calls, not the network's: run whatever the browser says of the network (as before).
  const sync = useMutation({ mutationFn: () => localDrafts.sync(), networkMode: 'always' });
  const resolution = useMutation({
    mutationFn: ({ id, keep }: { id: string; keep: 'mine' | 'theirs' }) => localDrafts.resolve(id, keep),
    networkMode: 'always',
  });
  const busy = sync.isPending || resolution.isPending;
  const drafts = (list.data?.drafts ?? []).filter((d) => d.direction === spec.direction);
  if (drafts.length === 0) return null;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: localDraftKeys.all });
    void queryClient.invalidateQueries({ queryKey: corrKeys.boxes });
  };
  const sendNow = async () => {
    try {
      const after = await sync.mutateAsync();
      if (after.drafts.filter((d) => d.direction === spec.direction).length === 0)
        toast({ severity: 'success', detail: t('local.sent') });
    } catch (error) {
      toast({ severity: 'error', detail: t((error as Error).message, { ns: 'common' }) });
    } finally {
      refresh();
    }
  };
  const confirmDelete = (draft: LocalDraftSummary) =>
    modal.confirm({
      title: t('local.deleteTitle', { subject: draft.subject || t('local.noSubject') }),
      content: t('local.deleteNote'),
      okText: t('local.delete'),
      okButtonProps: { danger: true, 'data-testid': 'local-draft-delete-confirm' } as ButtonProps,
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await localDrafts.remove(draft.id);
        refresh();
      },
    });
  const resolve = async (keep: 'mine' | 'theirs') => {
    if (!comparing) return;
    try {
      await resolution.mutateAsync({ id: comparing.id, keep });
      toast({ severity: 'success', detail: t('local.resolved') });
      setComparing(null);
    } finally {
      refresh();
    }
  };

  return (
    <Card
      size="small"
      className="corr-card"
      title={t('local.title')}
      data-testid="local-drafts"
      extra={
        <Button
          size="small"
          icon={<CloudUploadOutlined />}
          loading={busy}
          onClick={() => void sendNow()}
          data-testid="local-drafts-send"
        >
          {t('local.sendNow')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('local.intro')}</Typography.Paragraph>
      <List
        size="small"
        dataSource={drafts}
        renderItem={(draft) => (
          <List.Item
            data-testid="local-draft"
            actions={[
              draft.state === 'conflict' ? (
                <Button
                  key="compare"
                  size="small"
                  danger
                  icon={<DiffOutlined />}
                  onClick={() => void localDrafts.get(draft.id).then(setComparing)}
                  data-testid="local-draft-compare"
                >
                  {t('local.compare')}
                </Button>
              ) : (
                <Button
                  key="open"
                  size="small"
                  icon={<EditOutlined />}
                  disabled={!draft.readable}
                  onClick={() => void navigate(localDraftPath(spec, draft.id, draft.serverId))}
                  data-testid="local-draft-open"
                >
                  {t('local.open')}
                </Button>
              ),
              <Button
                key="delete"
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('local.delete')}
                onClick={() => confirmDelete(draft)}
                data-testid="local-draft-delete"
              />,
            ]}
          >
            <Space wrap size={[8, 4]}>
              <Typography.Text strong>
                {draft.readable ? draft.subject || t('local.noSubject') : t('local.unreadable')}
              </Typography.Text>
              <Tag color={STATE_COLOR[draft.state]} data-testid="local-draft-state">
                {t(`local.states.${draft.state}`)}
              </Tag>
              {draft.files > 0 ? (
                <Typography.Text type="secondary">{t('local.files', { count: draft.files })}</Typography.Text>
              ) : null}
              <Typography.Text type="secondary">
                <bdi>{formatDateTime(draft.updatedAt)}</bdi>
              </Typography.Text>
              {draft.error ? <Typography.Text type="danger">{draft.error}</Typography.Text> : null}
            </Space>
          </List.Item>
        )}
      />
      <Modal
        open={comparing !== null}
        title={t('local.conflictTitle', { subject: comparing?.subject ?? '' })}
        onCancel={() => setComparing(null)}
        width={880}
        footer={[
          <Button
            key="theirs"
            loading={busy}
            onClick={() => void resolve('theirs')}
            data-testid="keep-theirs"
          >
            {t('local.keepTheirs')}
          </Button>,
          <Button
            key="mine"
            type="primary"
            loading={busy}
            onClick={() => void resolve('mine')}
            data-testid="keep-mine"
          >
            {t('local.keepMine')}
          </Button>,
        ]}
      >
        <Typography.Paragraph>{t('local.conflictIntro')}</Typography.Paragraph>
        {comparing ? (
          <Table
            size="small"
            pagination={false}
            rowKey="field"
            data-testid="conflict-table"
            dataSource={TEXT_FIELDS.map((field) => ({
              field,
              mine: comparing.fields[field],
              theirs: comparing.theirs?.[field],
            })).filter((row) => row.mine != null || row.theirs != null)}
            rowClassName={(row) =>
              String(row.mine ?? '') !== String(row.theirs ?? '') ? 'corr-conflict-row' : ''
            }
            columns={[
              { key: 'field', title: t('local.field'), render: (_, row) => t(`fields.${row.field}`) },
              {
                key: 'mine',
                title: t('local.mine'),
                render: (_, row) => <bdi data-testid={`mine-${row.field}`}>{shown(row.field, row.mine)}</bdi>,
              },
              {
                key: 'theirs',
                title: t('local.theirs'),
                render: (_, row) => (
                  <bdi data-testid={`theirs-${row.field}`}>{String(row.theirs ?? '—')}</bdi>
                ),
              },
            ]}
          />
        ) : null}
      </Modal>
    </Card>
  );
}
