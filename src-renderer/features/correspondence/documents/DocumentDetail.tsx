/**
 * One document of any family (incoming, outgoing, memo) for the ten detail screens named by
 * `DetailContext` (incoming, follow-ups, incoming tasks, outgoing, the outbox and memo approval boxes,
 * approved memos, search): the family's fields, attachments and additions after approval, related
 * documents, the approval panel (not on incoming mail), dispatch, distribution and tasks (once filed, not
 * on outgoing mail), follow / unfollow, the timeline, and who read it (holders of the audit page). The context only picks the way back; the server
 * decides who may do what, and an action shows where the page permissions and the user's part allow it.
 */
import { Button, Card, Descriptions, List, Result, Space, Spin } from 'antd';
import { RollbackOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { formatDate, formatDateTime } from '../../../components/DataTable';
import { localName, nameList } from '../../../lib/names';
import { fileTitle } from '../../../lib/records-api';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { StateTags } from './BoxListScreen';
import { DocumentTimeline } from './Timeline';
import { corrKeys, documentsApi } from './api';
import { PAGES } from '../../../../src-shared/pages';
import { useCanOn } from '../../../app/permissions';
import { ApprovalPanel } from './ApprovalPanel';
import { ApprovalStatusTag } from './CircuitListScreens';
import { DispatchPanel } from './DispatchPanel';
import { ReplyDueCard } from './ReplyDueCard';
import { documentPath, familyOf, type Family } from './directions';
import { LoadFailed } from '../../../components/LoadFailed';
import { isReading } from '../search/AttachmentText';
import '../search/search.css';
import { Attachments } from './Attachments';
import { DistributionPanel } from './DistributionPanel';
import { FollowButton } from './FollowButton';
import { PaperMenu } from './PaperActions';
import { FinalLetterPanel } from './FinalLetterPanel';
import { TasksPanel } from './TasksPanel';
import { ReadsPanel } from './ReadsPanel';
import { useMemo } from 'react';

/** Which list the detail was opened from (its back link). */
export type DetailContext =
  | 'incoming'
  | 'follow-ups'
  | 'incoming-tasks'
  | 'outgoing'
  | 'outbox-awaiting'
  | 'outbox-requiring'
  | 'approved-memos'
  | 'memos-awaiting'
  | 'memos-requiring'
  | 'search';

/** The `failed` prop of a panel whose query failed with nothing to show. */
function failedOf(query: { isError: boolean; data?: unknown; refetch: () => unknown }) {
  return query.isError && !query.data ? { failed: { retry: () => void query.refetch() } } : {};
}

const BACK: Record<DetailContext, string> = {
  incoming: PAGES.incoming,
  'follow-ups': PAGES.followUps,
  'incoming-tasks': PAGES.incomingTasks,
  outgoing: PAGES.outgoing,
  'outbox-awaiting': PAGES.outboxAwaitingApproval,
  'outbox-requiring': PAGES.outboxRequiringApproval,
  'approved-memos': PAGES.approvedMemos,
  'memos-awaiting': PAGES.memosAwaitingApproval,
  'memos-requiring': PAGES.memosRequiringApproval,
  search: PAGES.search,
};

/** Which fields the detail shows for each family (the rest are the incoming letter's). */
const FAMILY_FIELDS: Record<Family, readonly string[]> = {
  in: [
    'docNumber',
    'codification',
    'year',
    'direction',
    'sender',
    'senderDocumentNumber',
    'documentDate',
    'receivedDate',
    'recipientDepartment',
    'receiver',
    'department',
    'securityLevel',
    'priority',
    'medium',
    'grouping',
    'registered',
    'summary',
  ],
  out: [
    'docNumber',
    'codification',
    'year',
    'direction',
    'department',
    'recipients',
    'receiver',
    'documentDate',
    'securityLevel',
    'priority',
    'medium',
    'grouping',
    'createdBy',
    'approvedAt',
    'summary',
  ],
  memo: [
    'docNumber',
    'codification',
    'year',
    'direction',
    'department',
    'recipients',
    'documentDate',
    'securityLevel',
    'priority',
    'medium',
    'grouping',
    'createdBy',
    'approvedAt',
    'summary',
  ],
};

/** The detail screen of one incoming document. */
export function DocumentDetail({ id, context }: { id: number; context: DetailContext }) {
  const { t, i18n } = useTranslation('correspondence');
  const queryClient = useQueryClient();
  // This opening's token: the screen's fetches of the document (refreshes, polling) are one opening for
  // the server's record of who read it.
  const readToken = useMemo(() => (id ? crypto.randomUUID() : ''), [id]);
  const mayAudit = useCanOn(PAGES.audit, 'view');
  const doc = useQuery({
    queryKey: corrKeys.document(id),
    queryFn: () => documentsApi.get(id, readToken),
    // While the server reads an attachment's text, the list shows its progress until it is done.
    refetchInterval: (query) => (query.state.data?.attachments.some(isReading) ? 2000 : false),
  });
  const navigate = useNavigate();
  const location = useLocation();
  const backState = (location.state as { back?: unknown } | null)?.back;
  // Back from a search result returns to the same results (query, filters and page).
  const backTo = context === 'search' && typeof backState === 'string' ? backState : BACK[context];
  const mayReply = useCanOn(PAGES.outboxAdd, 'add');
  const distribution = useQuery({
    queryKey: corrKeys.distribution(id),
    queryFn: () => documentsApi.distribution(id),
    enabled: doc.isSuccess,
  });
  const tasks = useQuery({
    queryKey: corrKeys.tasks(id),
    queryFn: () => documentsApi.tasks(id),
    enabled: doc.isSuccess,
  });
  const timeline = useQuery({
    queryKey: corrKeys.timeline(id),
    queryFn: () => documentsApi.timeline(id),
    enabled: doc.isSuccess,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: corrKeys.document(id) });
    void queryClient.invalidateQueries({ queryKey: corrKeys.boxes });
    void queryClient.invalidateQueries({ queryKey: ['calendar'] });
    void queryClient.invalidateQueries({ queryKey: corrKeys.timeline(id) });
  };

  if (doc.isLoading) return <Spin className="corr-spin" />;
  // Not found (or not the caller's to see) is a 404 page; anything else (the server away) could not load.
  const status = (doc.error as { status?: number } | null)?.status;
  if (!doc.data && doc.isError && status !== 404 && status !== 403) {
    return (
      <CorrespondenceScreen testId="document-detail">
        <Card>
          <LoadFailed onRetry={() => void doc.refetch()} testId="document-failed" />
        </Card>
      </CorrespondenceScreen>
    );
  }
  if (!doc.data) {
    return (
      <CorrespondenceScreen testId="document-detail">
        <Result
          status="404"
          title={t('empty.documents')}
          extra={<Link to={backTo}>{t('detail.back')}</Link>}
        />
      </CorrespondenceScreen>
    );
  }
  const d = doc.data;
  const name = (ref: { nameAr: string; nameEn: string } | null) =>
    ref ? localName(ref, i18n.language) : '—';
  const fields: { key: string; label: string; value: React.ReactNode; wide?: boolean }[] = [
    {
      key: 'docNumber',
      label: t('fields.docNumber'),
      value: d.docNumber ? (
        <bdi className="corr-number" data-testid="doc-number">
          {d.docNumber}
        </bdi>
      ) : (
        t('document.noNumber')
      ),
    },
    {
      key: 'codification',
      label: t('fields.codification'),
      value: d.codification ? `${name(d.codification)} (${d.codification.prefix})` : '—',
    },
    { key: 'year', label: t('fields.year'), value: d.year ?? '—' },
    { key: 'direction', label: t('fields.direction'), value: t(`direction.${d.direction}`) },
    { key: 'sender', label: t('fields.sender'), value: name(d.sender) },
    {
      key: 'senderDocumentNumber',
      label: t('fields.senderDocumentNumber'),
      value: d.senderDocumentNumber ? <bdi>{d.senderDocumentNumber}</bdi> : '—',
    },
    {
      key: 'documentDate',
      label: t('fields.documentDate'),
      value: <bdi>{formatDate(d.documentDate) || '—'}</bdi>,
    },
    {
      key: 'receivedDate',
      label: t('fields.receivedDate'),
      value: <bdi>{formatDate(d.receivedDate) || '—'}</bdi>,
    },
    {
      key: 'recipientDepartment',
      label: t('fields.recipientDepartment'),
      value: name(d.recipientDepartment),
    },
    {
      key: 'receiver',
      label: d.direction === 'out' ? t('fields.addressee') : t('fields.receiver'),
      value: d.receiver || '—',
    },
    {
      key: 'department',
      label: d.direction === 'in' ? t('fields.department') : t('fields.senderDepartment'),
      value: name(d.department),
    },
    {
      key: 'recipients',
      label: d.direction === 'out' ? t('fields.receivers') : t('fields.recipientDepartments'),
      value: d.recipients.length
        ? nameList(
            d.recipients.map((r) => name(r)),
            i18n.language,
          )
        : '—',
      wide: true,
    },
    { key: 'createdBy', label: t('fields.author'), value: name(d.createdBy) },
    {
      key: 'approvedAt',
      label: t('fields.approvedAt'),
      value: d.approval?.approvedAt ? <bdi>{formatDateTime(d.approval.approvedAt)}</bdi> : '—',
    },
    { key: 'securityLevel', label: t('fields.securityLevel'), value: name(d.securityLevel) },
    { key: 'priority', label: t('fields.priority'), value: name(d.priority) },
    {
      key: 'medium',
      label: d.direction === 'in' ? t('fields.medium') : t('fields.mediumOut'),
      value: name(d.medium),
    },
    {
      key: 'grouping',
      label: t('fields.grouping'),
      value: d.file ? (
        <bdi data-testid="detail-file">
          {d.file.code} — {fileTitle(d.file, i18n.language)}
        </bdi>
      ) : (
        '—'
      ),
    },
    {
      key: 'registered',
      label: t('fields.registeredAt'),
      value: d.registeredAt ? <bdi>{formatDateTime(d.registeredAt)}</bdi> : '—',
    },
    {
      key: 'summary',
      label: d.direction === 'in' ? t('fields.summary') : t('fields.body'),
      // Its own direction: an Arabic summary keeps its full stop at its end on an English screen.
      value: (
        <span className="corr-timeline-notes" dir="auto">
          {d.summary || '—'}
        </span>
      ),
      wide: true,
    },
  ];
  const family = familyOf(d.direction);
  const shown = fields.filter((f) => FAMILY_FIELDS[family].includes(f.key));
  const filed = d.state === 'registered' || d.state === 'approved';
  return (
    <CorrespondenceScreen
      testId="document-detail"
      title={
        <Space wrap>
          {d.docNumber && <bdi className="corr-number">{d.docNumber}</bdi>}
          <bdi data-testid="doc-subject">{d.subject}</bdi>
        </Space>
      }
      subtitle={<Link to={backTo}>{t('detail.back')}</Link>}
      extra={
        <>
          {family !== 'in' && <ApprovalStatusTag state={d.state} />}
          {family !== 'out' && filed && <StateTags distributed={d.distributed} completed={d.completed} />}
          {family === 'in' && filed && mayReply && (
            <Button
              icon={<RollbackOutlined />}
              onClick={() => void navigate(`${PAGES.outboxAdd}?replyTo=${d.id}`)}
              data-testid="reply"
            >
              {t('reply.action')}
            </Button>
          )}
          {filed && <FollowButton doc={d} onChanged={refresh} />}
          <PaperMenu doc={d} onPrinted={refresh} />
        </>
      }
    >
      <div className="corr-detail-grid">
        <div className="corr-stack">
          <Card size="small" title={t('detail.fields')}>
            <Descriptions
              size="small"
              column={{ xs: 1, md: 2 }}
              items={shown.map((f) => ({
                key: f.key,
                label: f.label,
                // A text value in its own direction (a reference number, an English name in Arabic).
                children: typeof f.value === 'string' ? <bdi>{f.value}</bdi> : f.value,
                span: f.wide ? 'filled' : 1,
              }))}
            />
          </Card>
          <Card size="small" title={t('fields.attachments')} data-testid="attachments-panel">
            <Attachments doc={d} onChanged={refresh} />
          </Card>
          <Card size="small" title={t('fields.related')}>
            <List
              size="small"
              locale={{ emptyText: t('empty.related') }}
              dataSource={d.related}
              renderItem={(r) => (
                <List.Item>
                  <Link to={documentPath(r.direction, r.state, r.id)}>
                    {r.docNumber ? <bdi className="corr-number">{r.docNumber}</bdi> : t('document.noNumber')}{' '}
                    — <bdi>{r.subject}</bdi>
                  </Link>
                </List.Item>
              )}
            />
          </Card>
        </div>
        <div className="corr-stack">
          {family !== 'in' && <ApprovalPanel doc={d} onChanged={refresh} />}
          <FinalLetterPanel doc={d} onChanged={refresh} />
          <DispatchPanel doc={d} onChanged={refresh} />
          <ReplyDueCard doc={d} onChanged={refresh} />
          {family !== 'out' && filed && (
            <>
              <DistributionPanel
                doc={d}
                distributions={distribution.data ?? []}
                onChanged={refresh}
                {...failedOf(distribution)}
              />
              <TasksPanel
                doc={d}
                tasks={tasks.data ?? []}
                distributions={distribution.data ?? []}
                onChanged={refresh}
                {...failedOf(tasks)}
              />
            </>
          )}
          {mayAudit && <ReadsPanel documentId={d.id} />}
          <Card size="small" title={t('detail.timeline')} data-testid="timeline-panel">
            {timeline.isError && !timeline.data ? (
              <LoadFailed onRetry={() => void timeline.refetch()} testId="timeline-failed" />
            ) : (
              <DocumentTimeline entries={timeline.data ?? []} />
            )}
          </Card>
        </div>
      </div>
    </CorrespondenceScreen>
  );
}
