/**
 * Inbox — incoming correspondence (/correspondence/inbox/incoming): the incoming box with its date range
 * on the registration date (last 30 days by default) beside the registration date's column, completed /
 * not completed views, the receiving department and how it received the letter (for action or for
 * information) — on the archive's own rows, every department it went to — and distributed / completed
 * states; a row opens the document. The received date (what the letter's envelope says) is a column the
 * user may show.
 */
import { useTranslation } from 'react-i18next';
import type { BoxItem } from '../../../../src-shared/api/correspondence';
import { formatDate, type DataTableColumn } from '../../../components/DataTable';
import { localName, nameList } from '../../../lib/names';
import {
  BoxListScreen,
  boxDateColumn,
  commonColumns,
  DistributionTypeTag,
  StateTags,
} from '../documents/BoxListScreen';

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('correspondence');
  const columns: DataTableColumn<BoxItem>[] = [
    ...commonColumns(t, i18n.language),
    boxDateColumn('incoming'),
    {
      key: 'receivedDate',
      title: 'correspondence:fields.receivedDate',
      hiddenByDefault: true,
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
      ellipsis: true,
      width: 180,
      render: (row) => {
        if (row.distribution)
          return (
            <span>
              {localName(row.distribution.department, i18n.language)}{' '}
              <DistributionTypeTag type={row.distribution.type} />
            </span>
          );
        // The archive's own row: where the letter went (action first), or that it has not gone yet.
        if (row.recipients.length === 0)
          return <span className="corr-muted">{t('state.notDistributed')}</span>;
        const names = row.recipients.map(
          (r) => `${localName(r.department, i18n.language)} (${t(`distributionType.${r.type}`)})`,
        );
        const shown = row.recipients.slice(0, 2).map((r) => localName(r.department, i18n.language));
        const more = row.recipients.length - shown.length;
        return (
          <span title={names.join('\n')} data-testid="recipients">
            {nameList(shown, i18n.language)}
            {more > 0 && <span className="corr-muted"> {t('recipientsMore', { count: more })}</span>}
          </span>
        );
      },
    },
    {
      key: 'completed',
      title: 'correspondence:fields.state',
      filter: { type: 'boolean' },
      // Its two tags side by side when there is room, one above the other when not.
      width: 180,
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
