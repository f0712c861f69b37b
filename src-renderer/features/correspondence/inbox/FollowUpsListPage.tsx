/**
 * Inbox — follow-ups (/correspondence/inbox/follow-ups): what the user must follow — action items of
 * their department not completed, and documents they chose to follow — with the due date, overdue ones
 * in red with a tag. No lower date bound by default: what is still to follow does not expire; a range the
 * user picks is on the registration date, shown beside the due date.
 */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BoxItem } from '../../../../src-shared/api/correspondence';
import { formatDate, type DataTableColumn } from '../../../components/DataTable';
import { BoxListScreen, boxDateColumn, commonColumns } from '../documents/BoxListScreen';

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('correspondence');
  const columns: DataTableColumn<BoxItem>[] = [
    ...commonColumns(t, i18n.language),
    boxDateColumn('follow-ups'),
    {
      key: 'dueDate',
      title: 'correspondence:fields.dueDate',
      sortable: true,
      filter: { type: 'date' },
      render: (row) => (
        <span
          className={row.overdue ? 'corr-overdue' : undefined}
          data-testid={row.overdue ? 'overdue' : undefined}
        >
          <bdi>{formatDate(row.dueDate)}</bdi> {row.overdue && <Tag color="red">{t('state.overdue')}</Tag>}
        </span>
      ),
    },
    {
      key: 'followReason',
      title: 'correspondence:fields.followReason',
      render: (row) => (row.followReason ? <Tag>{t(`followReason.${row.followReason}`)}</Tag> : null),
    },
  ];
  return (
    <BoxListScreen
      box="follow-ups"
      testId="follow-ups-list"
      columns={columns}
      emptyKey="correspondence:empty.followUps"
      defaultSort="dueDate"
      detailPath={(row) => `/correspondence/inbox/follow-ups/${row.documentId}`}
    />
  );
}
