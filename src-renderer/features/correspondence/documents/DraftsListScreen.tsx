/**
 * The drafts of a family (/correspondence/inbox/draft, outbox/draft, memos/draft): documents saved
 * without a number by their author; a row opens the form to continue it, and a draft can be deleted
 * (`delete` permission).
 */
import { App, Button, Tooltip } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Box, BoxItem } from '../../../../src-shared/api/correspondence';
import type { DataTableColumn } from '../../../components/DataTable';
import { localName, nameList } from '../../../lib/names';
import { useCan } from '../../../lib/usePermission';
import { BoxListScreen, boxDateColumn, commonColumns } from './BoxListScreen';
import { corrKeys, documentsApi } from './api';
import { FAMILIES, type Family } from './directions';
import { LocalDraftsCard } from './LocalDraftsCard';

const DRAFT_BOX: Record<Family, Box> = { in: 'inbox-drafts', out: 'outbox-drafts', memo: 'memo-drafts' };

/** Who a letter or memo goes to, as one line. */
export function addresseesColumn(language: string): DataTableColumn<BoxItem> {
  return {
    key: 'addressees',
    title: 'correspondence:fields.addressees',
    ellipsis: true,
    width: 200,
    render: (row) =>
      nameList(
        row.addressees.map((a) => localName(a, language)),
        language,
      ),
  };
}

export function DraftsListScreen({ family }: { family: Family }) {
  const { t, i18n } = useTranslation('correspondence');
  const can = useCan();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const spec = FAMILIES[family];
  const columns: DataTableColumn<BoxItem>[] = [
    ...commonColumns(t, i18n.language).filter(
      (c) => c.key !== 'docNumber' && (family === 'in' || c.key !== 'sender'),
    ),
    ...(family === 'in' ? [] : [addresseesColumn(i18n.language)]),
    boxDateColumn(DRAFT_BOX[family]),
  ];
  const confirmDelete = (row: BoxItem) =>
    modal.confirm({
      title: t('drafts.deleteTitle', { subject: row.subject }),
      okText: t('actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await documentsApi.removeDraft(row.documentId);
        void queryClient.invalidateQueries({ queryKey: corrKeys.boxes });
      },
    });
  return (
    <BoxListScreen
      box={DRAFT_BOX[family]}
      testId="drafts-list"
      columns={columns}
      emptyKey="correspondence:empty.drafts"
      detailPath={(row) => spec.draftPath(row.documentId)}
      above={<LocalDraftsCard family={family} />}
      toolbar={
        <Button icon={<PlusOutlined />} onClick={() => void navigate(spec.addPath)}>
          {t(`drafts.add_${family}`)}
        </Button>
      }
      rowActions={
        can('delete')
          ? (row) => (
              <Tooltip title={t('actions.delete')}>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('drafts.deleteNamed', { subject: row.subject })}
                  onClick={() => confirmDelete(row)}
                />
              </Tooltip>
            )
          : undefined
      }
    />
  );
}
