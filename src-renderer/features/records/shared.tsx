/**
 * What the records screens share: the state tag of a file, a file's retention in words, and the table
 * frame (an antd Table whose cells keep their own direction and which fits 1280 px).
 */
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileState, RecordFile } from '../../../src-shared/api/records';
import { formatNumber } from '../../lib/format';
import './records.css';

const STATE_COLOR: Record<FileState, string> = {
  open: 'green',
  closed: 'default',
  destroyed: 'red',
  transferred: 'blue',
};

/** A file's state as a coloured tag. */
export function FileStateTag({ state }: { state: FileState }) {
  const { t } = useTranslation('records');
  return (
    <Tag color={STATE_COLOR[state]} data-testid={`file-state-${state}`}>
      {t(`fileStates.${state}`)}
    </Tag>
  );
}

/** "7 years, destroy" (or "permanent"); — when none applies. */
export function RetentionText({ retention }: { retention: RecordFile['retention'] }) {
  const { t } = useTranslation('records');
  if (!retention) return <>—</>;
  if (retention.action === 'permanent') return <>{t('actions.permanent')}</>;
  return (
    <>
      {t('retentionText', {
        years: t('years', { count: retention.years, n: formatNumber(retention.years) }),
        action: t(`actions.${retention.action}`),
      })}
    </>
  );
}
