/**
 * Inbox — incoming correspondence (/correspondence/inbox/incoming): the incoming box with its date range
 * (last 30 days by default), completed / not completed views, the receiving department and how it
 * received the letter (Main / Knowledge), and distributed / completed states; a row opens the document.
 */
import { useTranslation } from 'react-i18next';
import type { BoxItem } from '../../../../src-shared/api/correspondence';
import { formatDate, type DataTableColumn } from '../../../components/DataTable';
import { localName } from '../../admin/names';
import { BoxListScreen, commonColumns, DistributionTypeTag, StateTags } from '../shared/BoxListScreen';

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('correspondence');
  const columns: DataTableColumn<BoxItem>[] = [
    ...commonColumns(t, i18n.language),
    {
      key: 'receivedDate',
      title: 'correspondence:fields.receivedDate',
      sortable: true,
      filter: { type: 'date' },
      render: (row) => <bdi>{formatDate(row.receivedDate)}</bdi>,
    },
    {
      key: 'distributionType',
      title: 'correspondence:fields.receivedAs',
      filter: {
        type: 'enum',
        options: [
          { value: 'forAction', label: 'correspondence:distributionType.forAction' },
          { value: 'forKnowledge', label: 'correspondence:distributionType.forKnowledge' },
        ],
      },
      render: (row) =>
        row.distribution ? (
          <span>
            {localName(row.distribution.department, i18n.language)}{' '}
            <DistributionTypeTag type={row.distribution.type} />
          </span>
        ) : (
          <span className="corr-muted">{t('document.archiveOffice')}</span>
        ),
    },
    {
      key: 'completed',
      title: 'correspondence:fields.state',
      filter: { type: 'boolean' },
      render: (row) => <StateTags distributed={row.distributed} completed={row.completed} />,
    },
  ];
  return (
    <BoxListScreen
      box="incoming"
      testId="incoming-list"
      columns={columns}
      emptyKey="correspondence:empty.inbox"
      views
      detailPath={(row) => `/correspondence/inbox/incoming/${row.documentId}`}
    />
  );
}
