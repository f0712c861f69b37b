/**
 * The user's calendar (/user/calendar): their tasks (by task date) and the documents they follow (by
 * follow-up date), by month (antd Calendar), week and day. In Arabic each day shows its Hijri date beside
 * the Gregorian one (Intl's Umm al-Qura calendar). An entry opens its task or follow-up.
 */
import { useMemo, useState } from 'react';
import { Badge, Button, Calendar, Card, Empty, Flex, List, Segmented, Tag, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { calendarApi, calendarKeys, type CalendarEntry } from './api';
import { DATE_FORMAT, formatNumber, localizeDate } from '../../lib/format';
import { formatHijri, hijriSpan } from './hijri';
import './calendar.css';
import { LoadFailed } from '../../components/LoadFailed';

export type CalendarView = 'month' | 'week' | 'day';

const ISO_DAY = 'YYYY-MM-DD';

/** The first and last day a view shows around `anchor` (a month view spans whole weeks). */
export function viewRange(view: CalendarView, anchor: Dayjs): { from: Dayjs; to: Dayjs } {
  if (view === 'day') return { from: anchor.startOf('day'), to: anchor.startOf('day') };
  if (view === 'week') return { from: anchor.startOf('week'), to: anchor.endOf('week').startOf('day') };
  return {
    from: anchor.startOf('month').startOf('week'),
    to: anchor.endOf('month').endOf('week').startOf('day'),
  };
}

/** Where an entry leads: a task to its task page, a follow-up to its follow-up page. */
export function entryPath(entry: CalendarEntry): string {
  return entry.kind === 'task'
    ? `/correspondence/inbox/incoming-tasks/${entry.documentId}`
    : `/correspondence/inbox/follow-ups/${entry.documentId}`;
}

/** The Gregorian date of a day, with the Hijri one beside it in Arabic. */
export function DayLabel({ day, format }: { day: Dayjs; format: string }) {
  const { i18n } = useTranslation();
  return (
    <span className="cal-day-label">
      <bdi>{localizeDate(day.locale(i18n.language).format(format), i18n.language)}</bdi>
      {i18n.language === 'ar' && (
        <span className="cal-hijri" data-testid="hijri-date">
          {formatHijri(day.toDate(), 'full')}
        </span>
      )}
    </span>
  );
}

/** One entry as a small line: kind, subject, and its state or overdue mark. */
function EntryLine({ entry, compact }: { entry: CalendarEntry; compact?: boolean }) {
  const { t } = useTranslation('calendar');
  const navigate = useNavigate();
  const color = entry.overdue ? 'red' : entry.kind === 'task' ? 'blue' : 'gold';
  return (
    <button
      type="button"
      className={`cal-entry cal-entry-${entry.kind}${entry.overdue ? ' cal-entry-overdue' : ''}`}
      onClick={() => void navigate(entryPath(entry))}
      data-testid={`cal-entry-${entry.kind}-${entry.documentId}`}
      title={entry.subject}
    >
      <Badge color={color} />
      <span className="cal-entry-text">
        {!compact && <Tag color={color}>{t(`kind.${entry.kind}`)}</Tag>}
        {/* The subject in its own direction: an Arabic one in the English calendar is cut at its end. */}
        <span className="cal-entry-subject one-line">{entry.subject}</span>
      </span>
      {!compact && entry.taskState && <Tag>{t(`state.${entry.taskState}`)}</Tag>}
      {!compact && entry.overdue && <Tag color="red">{t('overdue')}</Tag>}
    </button>
  );
}

/** A list of days (week or day view), each with its entries. */
function DayList({ days, byDay }: { days: Dayjs[]; byDay: Map<string, CalendarEntry[]> }) {
  const { t } = useTranslation('calendar');
  const today = dayjs().format(ISO_DAY);
  return (
    <div className="cal-days">
      {days.map((day) => {
        const key = day.format(ISO_DAY);
        const entries = byDay.get(key) ?? [];
        return (
          <Card
            key={key}
            size="small"
            className={key === today ? 'cal-today' : undefined}
            title={<DayLabel day={day} format={`dddd ${DATE_FORMAT}`} />}
            data-testid={`cal-day-${key}`}
          >
            {entries.length === 0 ? (
              <Typography.Text type="secondary">{t('nothing')}</Typography.Text>
            ) : (
              <List
                size="small"
                dataSource={entries}
                renderItem={(entry) => (
                  <List.Item>
                    <EntryLine entry={entry} />
                  </List.Item>
                )}
              />
            )}
          </Card>
        );
      })}
    </div>
  );
}

/** The calendar screen. */
export function Component() {
  const { t, i18n } = useTranslation('calendar');
  const [view, setView] = useState<CalendarView>('month');
  const [anchor, setAnchor] = useState<Dayjs>(() => dayjs().startOf('day'));
  const arabic = i18n.language === 'ar';
  const { from, to } = viewRange(view, anchor.locale(i18n.language));
  const fromIso = from.format(ISO_DAY);
  const toIso = to.format(ISO_DAY);
  const entries = useQuery({
    queryKey: calendarKeys.range(fromIso, toIso),
    queryFn: () => calendarApi.entries(fromIso, toIso),
  });

  const byDay = useMemo(() => {
    const map = new Map<string, CalendarEntry[]>();
    for (const entry of entries.data ?? []) {
      const list = map.get(entry.date) ?? [];
      list.push(entry);
      map.set(entry.date, list);
    }
    return map;
  }, [entries.data]);

  const unit = view === 'month' ? 'month' : view === 'week' ? 'week' : 'day';
  const days: Dayjs[] = [];
  if (view !== 'month') {
    for (let d = from; !d.isAfter(to); d = d.add(1, 'day')) days.push(d);
  }

  const title = localizeDate(
    view === 'month'
      ? anchor.locale(i18n.language).format('MMMM YYYY')
      : view === 'week'
        ? `${from.format(DATE_FORMAT)} – ${to.format(DATE_FORMAT)}`
        : anchor.locale(i18n.language).format(`dddd ${DATE_FORMAT}`),
  );
  const hijriTitle = arabic
    ? view === 'month'
      ? hijriSpan(anchor.startOf('month').toDate(), anchor.endOf('month').toDate())
      : view === 'week'
        ? hijriSpan(from.toDate(), to.toDate())
        : formatHijri(anchor.toDate(), 'full')
    : null;

  return (
    <CorrespondenceScreen testId="calendar">
      <Card>
        <Flex className="cal-toolbar" justify="space-between" align="center" gap={12} wrap>
          <Flex gap={8} align="center">
            {/* Previous/next point along the reading direction: the icons mirror in Arabic. */}
            <Button
              icon={arabic ? <RightOutlined /> : <LeftOutlined />}
              aria-label={t('previous')}
              onClick={() => setAnchor((a) => a.subtract(1, unit))}
              data-testid="cal-previous"
            />
            <Button onClick={() => setAnchor(dayjs().startOf('day'))} data-testid="cal-today">
              {t('today')}
            </Button>
            <Button
              icon={arabic ? <LeftOutlined /> : <RightOutlined />}
              aria-label={t('next')}
              onClick={() => setAnchor((a) => a.add(1, unit))}
              data-testid="cal-next"
            />
            <div className="cal-title">
              <Typography.Title level={4} className="cal-title-text" data-testid="cal-title">
                <bdi>{title}</bdi>
              </Typography.Title>
              {hijriTitle && (
                <Typography.Text type="secondary" data-testid="cal-hijri-title">
                  {hijriTitle}
                </Typography.Text>
              )}
            </div>
          </Flex>
          <Flex gap={12} align="center" wrap>
            <span className="cal-legend">
              <Badge color="blue" text={t('kind.task')} />
              <Badge color="gold" text={t('kind.followUp')} />
              <Badge color="red" text={t('overdue')} />
            </span>
            <Segmented<CalendarView>
              value={view}
              onChange={setView}
              aria-label={t('views.label')}
              options={[
                { value: 'month', label: t('views.month') },
                { value: 'week', label: t('views.week') },
                { value: 'day', label: t('views.day') },
              ]}
              data-testid="cal-view"
            />
          </Flex>
        </Flex>
        {view === 'month' ? (
          <Calendar
            className="cal-month"
            value={anchor}
            headerRender={() => null}
            onSelect={(date, info) => {
              setAnchor(date.startOf('day'));
              if (info.source === 'date') setView('day');
            }}
            fullCellRender={(date, info) => {
              if (info.type !== 'date') return info.originNode;
              const key = date.format(ISO_DAY);
              const dayEntries = byDay.get(key) ?? [];
              const outside = date.month() !== anchor.month();
              return (
                <div
                  className={`cal-cell${outside ? ' cal-cell-outside' : ''}${key === dayjs().format(ISO_DAY) ? ' cal-cell-today' : ''}`}
                  data-testid={`cal-cell-${key}`}
                >
                  <div className="cal-cell-head">
                    <span className="cal-cell-day">{formatNumber(date.date())}</span>
                    {arabic && <span className="cal-cell-hijri">{formatHijri(date.toDate(), 'day')}</span>}
                  </div>
                  <div className="cal-cell-entries">
                    {dayEntries.slice(0, 3).map((entry) => (
                      <EntryLine key={entry.key} entry={entry} compact />
                    ))}
                    {dayEntries.length > 3 && (
                      <span className="cal-more">{t('more', { count: dayEntries.length - 3 })}</span>
                    )}
                  </div>
                </div>
              );
            }}
          />
        ) : (
          <DayList days={days} byDay={byDay} />
        )}
        {entries.isError && !entries.data ? (
          <LoadFailed onRetry={() => void entries.refetch()} testId="cal-failed" />
        ) : null}
        {!entries.isLoading && !entries.isError && (entries.data ?? []).length === 0 && (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={<span data-testid="cal-empty">{t('empty')}</span>}
          />
        )}
      </Card>
    </CorrespondenceScreen>
  );
}
