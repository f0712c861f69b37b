/** A task's state as a coloured tag: new, in progress, completed. */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TaskState } from '../../../../src-shared/api/correspondence';

const COLORS: Record<TaskState, string> = { new: 'blue', inProgress: 'gold', completed: 'green' };

/** The tag of a task state. */
export function TaskStateTag({ state }: { state: TaskState }) {
  const { t } = useTranslation('correspondence');
  return (
    <Tag color={COLORS[state]} data-testid={`task-state-${state}`}>
      {t(`taskState.${state}`)}
    </Tag>
  );
}
