/**
 * Inbox — incoming tasks (/correspondence/inbox/incoming-tasks): the tasks given to the user (and, for a
 * manager or secretary, to their department), with the task date, its state (new, in progress,
 * completed) and overdue ones marked; a row opens the document's task view. The date range is on when
 * the task was given (its own column), not on the task date it is due by.
 */
import { useTranslation } from 'react-i18next';
import type { BoxItem } from '../../../../src-shared/api/correspondence';
import type { DataTableColumn } from '../../../components/DataTable';
import { localName } from '../../../lib/names';
import { BoxListScreen, boxDateColumn, commonColumns, dueColumn } from '../documents/BoxListScreen';
import { TaskStateTag } from '../documents/TaskStateTag';

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('correspondence');
  const columns: DataTableColumn<BoxItem>[] = [
    ...commonColumns(t, i18n.language),
    boxDateColumn('incoming-tasks'),
    // The task date is the date the task is due by: the due column, with its state in words.
    { ...dueColumn(), title: 'correspondence:fields.taskDate' },
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
