/** A document detail's tasks panel. */
import { useState } from 'react';
import { Button, Card, Empty, Flex, Input, List, Modal, Tag } from 'antd';
import { UndoOutlined, UserAddOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Distribution, type Document, type Task } from '../../../../src-shared/api/correspondence';
import { formatDate } from '../../../components/DataTable';
import { useSession } from '../../../app/session';
import { localName } from '../../../lib/names';
import { TaskStateTag } from './TaskStateTag';
import { documentsApi } from './api';
import { LoadFailed } from '../../../components/LoadFailed';
import { AssignTaskModal } from './AssignTaskModal';

/** The tasks panel: every task with its state; the tasker starts and completes their own. */
export function TasksPanel({
  doc,
  tasks,
  distributions,
  onChanged,
  failed,
}: {
  doc: Document;
  tasks: Task[];
  distributions: Distribution[];
  onChanged: () => void;
  /** The tasks could not be loaded: say so, with a retry (never "no tasks"). */
  failed?: { retry: () => void };
}) {
  const { t, i18n } = useTranslation('correspondence');
  const session = useSession();
  const myEmployee = session.user?.employee?.id ?? null;
  const [open, setOpen] = useState(false);
  // Tried whatever the browser says of the network (as before): the server answers or the call fails.
  const moveTask = useMutation({
    mutationFn: (v: { id: number; taskId: number; state: Task['state']; note: string | undefined }) =>
      documentsApi.moveTask(v.id, v.taskId, v.state, v.note),
    networkMode: 'always',
  });
  /** The task whose state is being changed. */
  const moving = moveTask.isPending ? moveTask.variables.taskId : null;
  // Completing and reopening ask first, with a place for the result or the reason (shown in the timeline).
  const [confirming, setConfirming] = useState<{ task: Task; action: 'complete' | 'reopen' } | null>(null);
  const [note, setNote] = useState('');
  const move = async (task: Task, state: Task['state'], withNote?: string) => {
    try {
      await moveTask.mutateAsync({
        id: doc.id,
        taskId: task.id,
        state,
        note: withNote?.trim() || undefined,
      });
      onChanged();
      return true;
    } catch {
      return false; // the http helper has shown why
    }
  };
  const ask = (task: Task, action: 'complete' | 'reopen') => {
    setNote('');
    setConfirming({ task, action });
  };
  const myUserId = session.user?.id ?? null;
  const mayReopen = (task: Task) =>
    task.state === 'completed' &&
    ((myUserId !== null && task.assignedBy?.id === myUserId) ||
      doc.abilities.assignTasksFor.includes(task.department.id));
  const canAssign = doc.abilities.assignTasks;
  return (
    <Card
      size="small"
      title={t('tasks.panel')}
      data-testid="tasks-panel"
      extra={
        canAssign && (
          <Button
            size="small"
            icon={<UserAddOutlined />}
            onClick={() => setOpen(true)}
            data-testid="task-assign"
          >
            {t('tasks.assign')}
          </Button>
        )
      }
    >
      {failed ? (
        <LoadFailed onRetry={failed.retry} testId="tasks-failed" />
      ) : tasks.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty.tasks')} />
      ) : (
        <List
          size="small"
          dataSource={tasks}
          renderItem={(task) => {
            const mine = myEmployee !== null && task.tasker.id === myEmployee;
            return (
              <List.Item
                data-testid={`task-${task.id}`}
                actions={
                  mayReopen(task)
                    ? [
                        <Button
                          key="reopen"
                          size="small"
                          icon={<UndoOutlined />}
                          loading={moving === task.id}
                          onClick={() => ask(task, 'reopen')}
                          data-testid="task-reopen"
                        >
                          {t('tasks.reopen')}
                        </Button>,
                      ]
                    : mine
                      ? [
                          task.state === 'new' && (
                            <Button
                              key="start"
                              size="small"
                              loading={moving === task.id}
                              onClick={() => void move(task, 'inProgress')}
                              data-testid="task-start"
                            >
                              {t('tasks.start')}
                            </Button>
                          ),
                          task.state !== 'completed' && (
                            <Button
                              key="complete"
                              size="small"
                              type="primary"
                              loading={moving === task.id}
                              onClick={() => ask(task, 'complete')}
                              data-testid="task-complete"
                            >
                              {t('tasks.complete')}
                            </Button>
                          ),
                        ].filter(Boolean)
                      : []
                }
              >
                <div className="corr-grow">
                  <Flex gap={6} align="center" wrap>
                    <strong>{localName(task.tasker, i18n.language)}</strong>
                    <TaskStateTag state={task.state} />
                    {task.overdue && <Tag color="red">{t('state.overdue')}</Tag>}
                  </Flex>
                  <span className="corr-timeline-meta">
                    {localName(task.department, i18n.language)}
                    {task.taskDate && (
                      <>
                        {' · '}
                        {t('fields.taskDate')}:{' '}
                        <bdi className={task.overdue ? 'corr-overdue' : undefined}>
                          {formatDate(task.taskDate)}
                        </bdi>
                      </>
                    )}
                  </span>
                  {task.notes && <span className="corr-timeline-notes">{task.notes}</span>}
                </div>
              </List.Item>
            );
          }}
        />
      )}
      <Modal
        open={confirming !== null}
        title={confirming?.action === 'reopen' ? t('tasks.reopenTitle') : t('tasks.completeTitle')}
        okText={confirming?.action === 'reopen' ? t('tasks.reopenOk') : t('tasks.completeOk')}
        cancelText={t('tasks.cancel')}
        confirmLoading={confirming !== null && moving === confirming.task.id}
        onCancel={() => setConfirming(null)}
        onOk={async () => {
          if (!confirming) return;
          const state = confirming.action === 'reopen' ? 'inProgress' : 'completed';
          if (await move(confirming.task, state, note)) setConfirming(null);
        }}
        destroyOnHidden
      >
        {confirming && (
          <Flex vertical gap={8}>
            <strong>{localName(confirming.task.tasker, i18n.language)}</strong>
            <label htmlFor="task-note">
              {confirming.action === 'reopen' ? t('tasks.reopenNote') : t('tasks.completeNote')}
            </label>
            <Input.TextArea
              id="task-note"
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={2000}
              autoSize={{ minRows: 3, maxRows: 8 }}
              placeholder={confirming.action === 'complete' ? t('tasks.completeNotePlaceholder') : undefined}
              data-testid="task-note"
            />
          </Flex>
        )}
      </Modal>
      <AssignTaskModal
        doc={doc}
        distributions={distributions}
        open={open}
        onClose={() => setOpen(false)}
        onDone={() => {
          setOpen(false);
          onChanged();
        }}
      />
    </Card>
  );
}
