/**
 * Inbox — incoming tasks (/correspondence/inbox/incoming-tasks): the tasks given to the user (and, for a
 * manager or secretary, to their department), with the task date, its state (new, in progress,
 * completed) and overdue ones marked; a row opens the document's task view. The date range is on when
 * the task was given (its own column), not on the task date it is due by.
 */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BoxItem } from '../../../../src-shared/api/correspondence';
import { formatDate, type DataTableColumn } from '../../../components/DataTable';
import { localName } from '../../../lib/names';
import { BoxListScreen, boxDateColumn, commonColumns } from '../documents/BoxListScreen';
import { TaskStateTag } from '../documents/TaskStateTag';
import { onBehalfColumn } from '../../../components/Delegation';

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('correspondence');
  const columns: DataTableColumn<BoxItem>[] = [
    ...commonColumns(t, i18n.language),
    boxDateColumn('incoming-tasks'),
    {
      key: 'taskDate',
      title: 'correspondence:fields.taskDate',
      sortable: true,
      filter: { type: 'date' },
      render: (row) => (
        <span className={row.overdue ? 'corr-overdue' : undefined}>
          <bdi>{formatDate(row.task?.taskDate)}</bdi>{' '}
          {row.overdue && <Tag color="red">{t('state.overdue')}</Tag>}
        </span>
      ),
    },
    {
      key: 'taskState',
      title: 'correspondence:fields.taskState',
      filter: {
        type: 'enum',
        options: [
          { value: 'new', label: 'correspondence:taskState.new' },
          { value: 'inProgress', label: 'correspondence:taskState.inProgress' },
          { value: 'completed', label: 'correspondence:taskState.completed' },
        ],
      },
      render: (row) => (row.task ? <TaskStateTag state={row.task.state} /> : null),
    },
    {
      key: 'tasker',
      title: 'correspondence:fields.tasker',
      ellipsis: true,
      width: 160,
      render: (row) => (row.task ? localName(row.task.tasker, i18n.language) : null),
    },
    onBehalfColumn(),
  ];
  return (
    <BoxListScreen
      box="incoming-tasks"
      testId="tasks-list"
      columns={columns}
      emptyKey="correspondence:empty.tasks"
      views
      detailPath={(row) => `/correspondence/inbox/incoming-tasks/${row.documentId}`}
    />
  );
}
