/**
 * Outbox — outgoing (/correspondence/outbox/outgoing): approved letters, numbered at the signatory's
 * approval, held by the archive office that dispatches them; the not-completed view is what awaits
 * dispatch.
 */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BoxItem } from '../../../../src-shared/api/correspondence';
import type { DataTableColumn } from '../../../components/DataTable';
import { BoxListScreen, boxDateColumn, commonColumns } from '../documents/BoxListScreen';
import { addresseesColumn } from '../documents/DraftsListScreen';
import { FAMILIES } from '../documents/directions';

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('correspondence');
  const columns: DataTableColumn<BoxItem>[] = [
    ...commonColumns(t, i18n.language).filter((c) => c.key !== 'sender'),
    addresseesColumn(i18n.language),
    boxDateColumn('outgoing'),
    {
      key: 'completed',
      title: 'correspondence:fields.dispatch',
      render: (row) =>
        row.completed ? (
          <Tag color="green" data-testid="tag-dispatched">
            {t('dispatch.dispatched')}
          </Tag>
        ) : (
          <Tag color="orange" data-testid="tag-awaiting-dispatch">
            {t('dispatch.awaiting')}
          </Tag>
        ),
    },
  ];
  return (
    <BoxListScreen
      box="outgoing"
      testId="outgoing-list"
      columns={columns}
      emptyKey="correspondence:empty.outbox"
      views
      viewLabels={{ notCompleted: t('dispatch.awaiting'), completed: t('dispatch.dispatched') }}
      detailPath={(row) => `${FAMILIES.out.listPath}/${row.documentId}`}
    />
  );
}
