/**
 * A due date and its state as one tag: the colour says it at a glance, the icon and the words say it
 * without colour (overdue by N days, due soon, on time, done). Nothing for a row with no due date.
 */
import { Flex, Tag } from 'antd';
import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  ExclamationCircleOutlined,
  FieldTimeOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { DueState } from '../../../../src-shared/api/correspondence';
import { formatDate } from '../../../components/DataTable';
import { dueTagSpec, type DueIcon } from './dueState';

const ICONS: Record<DueIcon, React.ReactNode> = {
  overdue: <ExclamationCircleOutlined />,
  soon: <FieldTimeOutlined />,
  onTime: <ClockCircleOutlined />,
  done: <CheckCircleOutlined />,
};

/**
 * The state's tag alone. `compact` (a box's cell) says the state in one word, the late days as a number
 * ("Overdue · 12"), the whole sentence in its tooltip and accessible name.
 */
export function DueStateTag({
  state,
  overdueDays,
  compact = false,
}: {
  state: DueState;
  overdueDays: number | null;
  compact?: boolean;
}) {
  const { t } = useTranslation('correspondence');
  const spec = dueTagSpec(state, overdueDays);
  if (!spec) return null;
  const sentence = t(spec.labelKey, spec.values);
  const short =
    state === 'overdue' && overdueDays
      ? t('due.short.overdue', { count: overdueDays })
      : t(`due.filter.${state}`);
  return (
    <Tag
      color={spec.color}
      icon={ICONS[spec.icon]}
      data-testid={`due-${state}`}
      {...(compact ? { title: sentence, 'aria-label': sentence } : {})}
    >
      {compact ? short : sentence}
    </Tag>
  );
}

/** A box's due cell: the date and its state. */
export function DueCell({
  dueDate,
  state,
  overdueDays,
}: {
  dueDate: string | null;
  state: DueState;
  overdueDays: number | null;
}) {
  if (!dueDate) return null;
  return (
    <Flex gap={4} vertical align="start">
      <bdi>{formatDate(dueDate)}</bdi>
      <DueStateTag state={state} overdueDays={overdueDays} compact />
    </Flex>
  );
}
