/**
 * A document's timeline (antd Timeline): every event in the interface language, with its specifics
 * (department and Main/Knowledge, tasker, number, file, the kind of an addition after approval; a link
 * made after approval says so), who did it and when.
 */
import { Tag, Timeline as AntTimeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TimelineEntry } from '../../../../src-shared/api/correspondence';
import { formatDate, formatDateTime } from '../../../components/DataTable';
import { localName } from '../../../lib/names';

const COLORS: Partial<Record<TimelineEntry['event'], string>> = {
  registered: 'green',
  distributed: 'blue',
  taskAssigned: 'blue',
  taskStarted: 'gold',
  taskCompleted: 'green',
  completed: 'green',
  attachmentRemoved: 'red',
  unrelated: 'gray',
  submitted: 'blue',
  approved: 'green',
  numbered: 'green',
  dispatched: 'green',
  rejected: 'red',
  changesRequested: 'orange',
  circuitRestarted: 'orange',
  addedAfterApproval: 'purple',
};

const str = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The sentence of one event, in the interface language. */
export function timelineText(
  entry: TimelineEntry,
  t: (key: string, values?: Record<string, unknown>) => string,
  language: string,
): string {
  const d = entry.details;
  const named = (prefix: string) =>
    localName({ nameAr: str(d[`${prefix}NameAr`]), nameEn: str(d[`${prefix}NameEn`]) }, language);
  return t(`timeline.${entry.event}`, {
    department: named('department'),
    employee: named('employee'),
    type: d.type === 'forAction' || d.type === 'forKnowledge' ? t(`distributionType.${d.type}`) : '',
    number: str(d.docNumber),
    fileName: str(d.fileName),
    date: formatDate(str(d.taskDate ?? d.dispatchDate)) || str(d.taskDate ?? d.dispatchDate),
    version: str(d.version),
    step: str(d.step),
    count: typeof d.voided === 'number' ? d.voided : 0,
    kind: typeof d.kind === 'string' ? t(`additions.kind.${d.kind}`) : '',
  });
}

/** The timeline of a document, oldest first. */
export function DocumentTimeline({ entries }: { entries: readonly TimelineEntry[] }) {
  const { t, i18n } = useTranslation('correspondence');
  if (entries.length === 0) return <Typography.Text type="secondary">{t('empty.timeline')}</Typography.Text>;
  return (
    <AntTimeline
      data-testid="timeline"
      items={entries.map((entry) => ({
        key: entry.id,
        color: COLORS[entry.event] ?? 'gray',
        content: (
          <div data-testid={`timeline-${entry.event}`}>
            <span className="corr-timeline-text">{timelineText(entry, t, i18n.language)}</span>
            {entry.details.afterApproval === true && (
              <Tag color="purple" data-testid="timeline-after-approval">
                {t('additions.title')}
              </Tag>
            )}
            {typeof entry.details.notes === 'string' && entry.details.notes && (
              <span className="corr-timeline-notes">{entry.details.notes}</span>
            )}
            {typeof entry.details.comment === 'string' && entry.details.comment && (
              <span className="corr-timeline-notes" data-testid="timeline-comment">
                {entry.details.comment}
              </span>
            )}
            <span className="corr-timeline-meta">
              {entry.actor ? localName(entry.actor, i18n.language) : t('timeline.system')} ·{' '}
              <bdi>{formatDateTime(entry.at)}</bdi>
            </span>
          </div>
        ),
      }))}
    />
  );
}
