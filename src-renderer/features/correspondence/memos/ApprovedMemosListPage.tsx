/**
 * Memos — approved memos (/correspondence/memos/approved-memos): memos numbered at their signatory's
 * approval, as their recipient departments received them (for action) and as their authors and the
 * archive office keep them; completed when every receiving department has completed its tasks.
 */
import { useTranslation } from 'react-i18next';
import type { BoxItem } from '../../../../src-shared/api/correspondence';
import type { DataTableColumn } from '../../../components/DataTable';
import { localName } from '../../../lib/names';
import { BoxListScreen, StateTags, boxDateColumn, commonColumns } from '../documents/BoxListScreen';
import { addresseesColumn } from '../documents/DraftsListScreen';
import { FAMILIES } from '../documents/directions';

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('correspondence');
  const columns: DataTableColumn<BoxItem>[] = [
    ...commonColumns(t, i18n.language).filter((c) => c.key !== 'sender'),
    addresseesColumn(i18n.language),
    {
      key: 'receivedBy',
      title: 'correspondence:fields.receivedBy',
      ellipsis: true,
      width: 180,
      render: (row) => (row.distribution ? localName(row.distribution.department, i18n.language) : '—'),
    },
    boxDateColumn('approved-memos'),
    {
      key: 'completed',
      title: 'correspondence:fields.state',
      width: 180,
      render: (row) => <StateTags distributed={row.distributed} completed={row.completed} />,
    },
  ];
  return (
    <BoxListScreen
      box="approved-memos"
      testId="approved-memos-list"
      columns={columns}
      emptyKey="correspondence:empty.approvedMemos"
      views
      detailPath={(row) => `${FAMILIES.memo.listPath}/${row.documentId}`}
    />
  );
}
