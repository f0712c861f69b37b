/**
 * A document's timeline (antd Timeline): every event in the interface language, with its specifics
 * (department and purpose, tasker, number, file, the kind of an addition after approval; a link made
 * after approval says so), who did it and when; a sending for approval says whether it is the first, and
 * no internal version number is shown.
 */
import { Tag, Timeline as AntTimeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TimelineEntry } from '../../../../src-shared/api/correspondence';
import { pageRuns } from '../../../../src-shared/paper-codes';
import { formatDate, formatDateTime } from '../../../components/DataTable';
import { Ltr, Sentence } from '../../../components/Bidi';
import { formatNumber } from '../../../lib/format';
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
  finalMade: 'green',
  finalFailed: 'orange',
  finalCancelled: 'red',
  emailSent: 'green',
  emailFailed: 'orange',
  replyDueChanged: 'blue',
  replyDone: 'green',
  replyClosed: 'green',
};

/**
 * A batch's pages as a clerk reads them: `3–5, 8` — each range kept left to right (an en dash between
 * two numbers would be turned around in an Arabic sentence), the list in the sentence's own direction.
 */
function PageRanges({ pages, language }: { pages: readonly unknown[]; language: string }) {
  const ranges = pageRuns(pages.filter((p): p is number => typeof p === 'number')).map(([start, end]) =>
    start === end ? formatNumber(start) : `${formatNumber(start)}–${formatNumber(end)}`,
  );
  const comma = language === 'ar' ? '، ' : ', ';
  return (
    <>
      {ranges.map((range, n) => (
        <span key={range}>
          {n > 0 && comma}
          <Ltr>{range}</Ltr>
        </span>
      ))}
    </>
  );
}

const str = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The i18n key of an event: a sending for approval after the first says so, as does one that resumes. */
function eventKey(entry: TimelineEntry, earlierSubmissions: number): string {
  // A distribution says its purpose in the sentence: "distributed to Finance for action".
  if (
    entry.event === 'distributed' &&
    (entry.details.type === 'forAction' || entry.details.type === 'forKnowledge')
  )
    return `timeline.distributed_${entry.details.type}`;
  // A sticker or cover sheet printed again says which copy it is: a second paper is never unnoticed.
  if (
    (entry.event === 'stickerPrinted' || entry.event === 'coverSheetPrinted') &&
    typeof entry.details.copy === 'number' &&
    entry.details.copy > 1
  )
    return `timeline.${entry.event}_reprint`;
  // A final letter made without a certificate says it is not signed.
  if (entry.event === 'finalMade' && entry.details.signed === false) return 'timeline.finalMade_unsigned';
  // The reply's events are the due block's (a date removed says no reply is needed).
  if (entry.event === 'replyDueChanged')
    return entry.details.to ? 'due.timeline.replyDueChanged' : 'due.timeline.replyDueRemoved';
  if (entry.event === 'replyDone' || entry.event === 'replyClosed') return `due.timeline.${entry.event}`;
  if (entry.event !== 'submitted') return `timeline.${entry.event}`;
  if (entry.details.resumed === true) return 'timeline.resumed';
  return earlierSubmissions > 0 ? 'timeline.resubmitted' : 'timeline.submitted';
}

/**
 * The sentence of one event, in the interface language, each value isolated from its words (a number or
 * a file name stays whole and left to right in an Arabic sentence, an Arabic name keeps its order in an
 * English one). `earlierSubmissions`: how many times the document was sent for approval before it.
 */
export function TimelineText({
  entry,
  earlierSubmissions = 0,
}: {
  entry: TimelineEntry;
  earlierSubmissions?: number;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const language = i18n.language;
  const d = entry.details;
  const named = (prefix: string) =>
    localName({ nameAr: str(d[`${prefix}NameAr`]), nameEn: str(d[`${prefix}NameEn`]) }, language);
  const date = formatDate(str(d.taskDate ?? d.dispatchDate)) || str(d.taskDate ?? d.dispatchDate);
  return (
    <Sentence
      t={t}
      i18nKey={eventKey(entry, earlierSubmissions)}
      count={typeof d.voided === 'number' ? d.voided : 0}
      values={{
        department: named('department'),
        employee: named('employee'),
        number: <bdi className="corr-number">{str(d.docNumber)}</bdi>,
        fileName: <Ltr>{str(d.fileName)}</Ltr>,
        date: <Ltr>{date}</Ltr>,
        step: <Ltr>{formatNumber(Number(d.step ?? 0))}</Ltr>,
        kind: typeof d.kind === 'string' ? t(`additions.kind.${d.kind}`) : '',
        copy: <Ltr>{formatNumber(Number(d.copy ?? 1))}</Ltr>,
        reason: <bdi>{str(d.reason)}</bdi>,
        address: <Ltr>{str(d.address)}</Ltr>,
        // approverReplaced: the inactive approver and who took their place.
        from: <bdi>{localName(personOf(d.from), language)}</bdi>,
        to: <bdi>{localName(personOf(d.to), language)}</bdi>,
        dueOn: <Ltr>{formatDate(str(d.to)) || str(d.to)}</Ltr>,
        note: <bdi>{str(d.note)}</bdi>,
      }}
    />
  );
}

/** A person named in an event's details (`{ nameAr, nameEn }`), when it is one. */
function personOf(value: unknown): { nameAr: string; nameEn: string } | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  return typeof v.nameAr === 'string' && typeof v.nameEn === 'string'
    ? { nameAr: v.nameAr, nameEn: v.nameEn }
    : null;
}

/** The timeline of a document, oldest first. */
export function DocumentTimeline({ entries }: { entries: readonly TimelineEntry[] }) {
  const { t, i18n } = useTranslation('correspondence');
  if (entries.length === 0) return <Typography.Text type="secondary">{t('empty.timeline')}</Typography.Text>;
  let submissions = 0;
  return (
    <AntTimeline
      data-testid="timeline"
      items={entries.map((entry) => {
        const earlier = submissions;
        if (entry.event === 'submitted') submissions++;
        return {
          key: entry.id,
          color: COLORS[entry.event] ?? 'gray',
          content: (
            <div data-testid={`timeline-${entry.event}`}>
              <span className="corr-timeline-text">
                <TimelineText entry={entry} earlierSubmissions={earlier} />
              </span>
              {entry.details.afterApproval === true && (
                <Tag color="purple" data-testid="timeline-after-approval">
                  {t('additions.title')}
                </Tag>
              )}
              {typeof entry.details.batch === 'string' && Array.isArray(entry.details.pages) && (
                <span className="corr-timeline-notes" data-testid="timeline-batch">
                  <Sentence
                    t={t}
                    i18nKey="timeline.fromBatch"
                    count={entry.details.pages.length}
                    values={{
                      batch: <Ltr>{entry.details.batch}</Ltr>,
                      pages: <PageRanges pages={entry.details.pages as unknown[]} language={i18n.language} />,
                    }}
                  />
                </span>
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
                {entry.actor ? localName(entry.actor, i18n.language) : t('timeline.system')}
                {personOf(entry.details.onBehalfOf) && (
                  <span data-testid="timeline-on-behalf">
                    {' '}
                    (
                    {t('timeline.onBehalfOf', {
                      name: localName(personOf(entry.details.onBehalfOf), i18n.language),
                    })}
                    )
                  </span>
                )}{' '}
                · <bdi>{formatDateTime(entry.at)}</bdi>
              </span>
            </div>
          ),
        };
      })}
    />
  );
}
