/**
 * Inbox — drafts (/correspondence/inbox/draft): incoming letters saved without a number; a row opens the
 * add form to continue it, and a draft can be deleted (`delete` permission).
 */
import { App, Button, Tooltip } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { BoxItem } from '../../../../src-shared/api/correspondence';
import { formatDateTime, type DataTableColumn } from '../../../components/DataTable';
import { useCan } from '../../../lib/usePermission';
import { BoxListScreen, commonColumns } from '../shared/BoxListScreen';
import { corrKeys, documentsApi } from '../shared/api';
import { PAGES } from '../../../../src-shared/pages';

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('correspondence');
  const can = useCan();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const columns: DataTableColumn<BoxItem>[] = [
    ...commonColumns(t, i18n.language).filter((c) => c.key !== 'docNumber'),
    {
      key: 'createdAt',
      title: 'correspondence:fields.createdAt',
      sortable: true,
      filter: { type: 'date' },
      render: (row) => <bdi>{formatDateTime(row.createdAt)}</bdi>,
    },
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
      box="inbox-drafts"
      testId="drafts-list"
      columns={columns}
      emptyKey="correspondence:empty.drafts"
      defaultSort="-createdAt"
      detailPath={(row) => `/correspondence/inbox/add?draft=${row.documentId}`}
      toolbar={
        <Button icon={<PlusOutlined />} onClick={() => void navigate(PAGES.inboxAdd)}>
          {t('drafts.add')}
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
