/**
 * The approval boxes of outgoing letters and memos:
 * - awaiting approval (outbox/awaiting-approval, memos/awaiting-approval): what the author submitted that
 *   is still in its circuit, and beside it what came back to them (changes requested, rejected) — the
 *   specification's "requiring changes" list, with its count (`?list=changes` opens it: a dashboard's figure);
 * - requiring approval (…/requiring-approval): what waits for the caller's answer now.
 */
import { useState } from 'react';
import { Badge, Segmented, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { Box, BoxItem, DocumentState } from '../../../../src-shared/api/correspondence';
import type { DataTableColumn } from '../../../components/DataTable';
import { BoxListScreen, boxDateColumn, commonColumns } from './BoxListScreen';
import { approvalsApi, corrKeys } from './api';
import { FAMILIES, type Family } from './directions';
import { addresseesColumn } from './DraftsListScreen';

/** The approval status of a letter or memo, as a tag (section 4: new, approving, approved). */
export function ApprovalStatusTag({ state }: { state: DocumentState }) {
  const { t } = useTranslation('correspondence');
  const status = state === 'draft' ? 'new' : state === 'registered' ? 'approved' : state;
  const color: Record<string, string> = {
    new: 'default',
    approving: 'processing',
    approved: 'green',
    changesRequested: 'orange',
    rejected: 'red',
  };
  return (
    <Tag color={color[status]} data-testid={`status-${status}`}>
      {t(`approvalStatus.${status}`)}
    </Tag>
  );
}

function circuitColumns(t: (k: string) => string, language: string, box: Box): DataTableColumn<BoxItem>[] {
  return [
    ...commonColumns(t, language).filter((c) => c.key !== 'sender'),
    addresseesColumn(language),
    {
      key: 'state',
      title: 'correspondence:fields.status',
      render: (row) => <ApprovalStatusTag state={row.state} />,
    },
    boxDateColumn(box),
  ];
}

export function AwaitingApprovalScreen({ family }: { family: Family }) {
  const { t, i18n } = useTranslation('correspondence');
  const [params] = useSearchParams();
  const [which, setWhich] = useState<'awaiting' | 'changes'>(() =>
    params.get('list') === 'changes' ? 'changes' : 'awaiting',
  );
  const counts = useQuery({ queryKey: corrKeys.counts, queryFn: approvalsApi.counts, staleTime: 15_000 });
  const changes = family === 'out' ? counts.data?.outboxRequiringChanges : counts.data?.memosRequiringChanges;
  const box: Box =
    which === 'awaiting'
      ? family === 'out'
        ? 'awaiting-approval'
        : 'memos-awaiting-approval'
      : family === 'out'
        ? 'requiring-changes'
        : 'memos-requiring-changes';
  const spec = FAMILIES[family];
  return (
    <BoxListScreen
      box={box}
      testId="awaiting-list"
      columns={circuitColumns(t, i18n.language, box)}
      emptyKey={
        which === 'awaiting'
          ? 'correspondence:empty.awaitingApproval'
          : 'correspondence:empty.requiringChanges'
      }
      detailPath={(row) =>
        which === 'changes' ? spec.draftPath(row.documentId) : `${spec.awaitingPath}/${row.documentId}`
      }
      head={
        <Segmented<'awaiting' | 'changes'>
          value={which}
          onChange={setWhich}
          data-testid="awaiting-switch"
          aria-label={t('circuit.lists')}
          options={[
            { value: 'awaiting', label: t('circuit.awaiting') },
            {
              value: 'changes',
              label: (
                <span data-testid="requiring-changes-tab">
                  {t('circuit.requiringChanges')} <Badge count={changes ?? 0} size="small" color="orange" />
                </span>
              ),
            },
          ]}
        />
      }
    />
  );
}

export function RequiringApprovalScreen({ family }: { family: Family }) {
  const { t, i18n } = useTranslation('correspondence');
  const spec = FAMILIES[family];
  const box: Box = family === 'out' ? 'requiring-approval' : 'memos-requiring-approval';
  return (
    <BoxListScreen
      box={box}
      testId="requiring-list"
      columns={circuitColumns(t, i18n.language, box)}
      emptyKey="correspondence:empty.requiringApproval"
      detailPath={(row) => `${spec.requiringPath}/${row.documentId}`}
    />
  );
}
