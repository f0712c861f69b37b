/**
 * Records management — Disposition (/records/disposition, issue 31): the closed files whose retention has
 * run out (a legal hold stops one), proposing a file's disposition (add), its approval by a second person
 * (approve: the proposer is told why they cannot), carrying it out (edit) or cancelling it before (add).
 * Carrying it out is a background job on the server: while one runs, its progress (not the list) is read
 * every second and its phase and percentage shown; a job stopped (a legal hold placed before it began, or a failure) says why,
 * and carrying it out again continues; once done, the certificate of a destruction or the BagIt package of
 * a transfer is there to download. The server enforces the four-eyes rule and the holds itself
 * (docs/records.md).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Card, Input, Modal, Popconfirm, Progress, Space, Table, Tag, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Disposition, DispositionViewState, DueFile } from '../../../src-shared/api/records';
import { PAGES } from '../../../src-shared/pages';
import { useCanOn } from '../../app/permissions';
import { useSession } from '../../app/session';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { formatDate, formatDateTime } from '../../components/DataTable';
import { LoadFailed } from '../../components/LoadFailed';
import { formatNumber } from '../../lib/format';
import { localName } from '../../lib/names';
import { fileTitle, recordsApi, recordsKeys } from '../../lib/records-api';
import { toast } from '../../lib/toast';
import { RetentionText } from './shared';

const STATE_COLOR: Record<DispositionViewState, string> = {
  proposed: 'gold',
  approved: 'blue',
  executing: 'processing',
  done: 'green',
  cancelled: 'default',
};

/** Its job waits or runs: its progress is read every second until it is done or stopped. */
const running = (d: Disposition) => d.job !== null && d.job.state !== 'failed';

/** Being carried out but stopped (its job failed, or none): carrying it out again continues it. */
const stoppedMidway = (d: Disposition) => d.state === 'executing' && !running(d);

/** Why a disposition's job stopped. */
function JobStopped({ d }: { d: Disposition }) {
  return (
    <Typography.Text type="danger" className="records-why" data-testid={`disposition-error-${d.file.code}`}>
      {d.job?.error}
    </Typography.Text>
  );
}

/**
 * The job of a disposition being carried out, followed every second (its progress, not the whole list):
 * its phase and percentage; once it has ended (done, or stopped), `onEnded` reads the lists again.
 */
function JobFollower({ d, onEnded }: { d: Disposition; onEnded: (d: Disposition, done: boolean) => void }) {
  const { t } = useTranslation('records');
  const progress = useQuery({
    queryKey: recordsKeys.progress(d.id),
    queryFn: () => recordsApi.progress(d.id),
    refetchInterval: 1000,
  });
  // An answer about an earlier job of the same disposition (kept from before it was carried out again) is
  // not this job's end.
  const earlier = progress.data?.job && d.job && progress.data.job.id < d.job.id;
  const now = (!earlier && progress.data) || { state: d.state, job: d.job };
  const ended = now.state !== 'executing' || now.job?.state === 'failed';
  useEffect(() => {
    if (ended) onEnded(d, now.state === 'done');
  }, [ended, d, now.state, onEnded]);
  const job = now.job;
  if (!job || ended) return null;
  return (
    <Space
      orientation="vertical"
      size={0}
      className="records-job"
      data-testid={`disposition-job-${d.file.code}`}
    >
      <Typography.Text type="secondary">
        {t(`disposition.phases.${job.phase}`, {
          done: formatNumber(job.done),
          total: formatNumber(job.total),
        })}
      </Typography.Text>
      <Progress
        percent={Math.round(job.percent)}
        size="small"
        status="active"
        format={(p) => `${formatNumber(p ?? 0)}%`}
      />
    </Space>
  );
}

export function Component() {
  const { t, i18n } = useTranslation('records');
  const queryClient = useQueryClient();
  const me = useSession().user?.id ?? null;
  const mayPropose = useCanOn(PAGES.disposition, 'add');
  const mayApprove = useCanOn(PAGES.disposition, 'approve');
  const mayExecute = useCanOn(PAGES.disposition, 'edit');
  const due = useQuery({ queryKey: recordsKeys.due, queryFn: recordsApi.due });
  const list = useQuery({ queryKey: recordsKeys.dispositions, queryFn: recordsApi.dispositions });
  // A job followed to its end: said once when done, and the lists read again (its state, its download).
  const ended = useRef(new Set<number>());
  const onEnded = useCallback(
    (d: Disposition, done: boolean) => {
      // Once per job (a disposition stopped and carried out again has a new one).
      const key = d.job?.id ?? -d.id;
      if (ended.current.has(key)) return;
      ended.current.add(key);
      if (done) toast({ severity: 'success', detail: t('disposition.executed', { code: d.file.code }) });
      void queryClient.invalidateQueries({ queryKey: recordsKeys.all });
    },
    [queryClient, t],
  );
  const [proposing, setProposing] = useState<DueFile | null>(null);
  const [note, setNote] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: recordsKeys.all });
  const propose = useMutation({
    mutationFn: (file: DueFile) => recordsApi.propose({ fileId: file.id, note: note.trim() || null }),
    onSuccess: () => {
      setProposing(null);
      setNote('');
    },
    onSettled: refresh,
  });
  const step = useMutation({
    mutationFn: ({ id, what }: { id: number; what: 'approve' | 'cancel' | 'execute' }) =>
      recordsApi[what](id),
    onSettled: refresh,
  });
  const download = useMutation({
    mutationFn: ({ id, what }: { id: number; what: 'certificate' | 'package' }) =>
      recordsApi.download(id, what),
  });
  if (due.isError || list.isError)
    return (
      <LoadFailed
        onRetry={() => {
          void due.refetch();
          void list.refetch();
        }}
      />
    );
  const busy = (id: number, what: string) =>
    step.isPending && step.variables?.id === id && step.variables.what === what;

  return (
    <CorrespondenceScreen testId="disposition" subtitle={t('disposition.description')}>
      <Card size="small" title={t('disposition.due')} className="corr-card">
        <Table<DueFile>
          size="small"
          rowKey="id"
          loading={due.isLoading}
          dataSource={due.data ?? []}
          pagination={false}
          locale={{ emptyText: t('disposition.noneDue') }}
          data-testid="due-table"
          columns={[
            {
              key: 'code',
              title: t('files.columns.code'),
              render: (_, f) => <bdi className="corr-number">{f.code}</bdi>,
            },
            {
              key: 'title',
              title: t('files.columns.title'),
              className: 'records-grow',
              render: (_, f) => <bdi>{fileTitle(f, i18n.language)}</bdi>,
            },
            {
              key: 'closed',
              title: t('files.columns.closed'),
              render: (_, f) => (f.closedOn ? <bdi>{formatDate(f.closedOn)}</bdi> : '—'),
            },
            {
              key: 'retention',
              title: t('files.columns.retention'),
              render: (_, f) => <RetentionText retention={f.retention} />,
            },
            {
              key: 'dueOn',
              title: t('disposition.dueOn'),
              render: (_, f) => (f.retention?.dueOn ? <bdi>{formatDate(f.retention.dueOn)}</bdi> : '—'),
            },
            {
              key: 'documents',
              title: t('files.columns.documents'),
              align: 'end',
              render: (_, f) => <bdi>{formatNumber(f.documents)}</bdi>,
            },
            {
              key: 'actions',
              title: '',
              render: (_, f) =>
                f.holds > 0 ? (
                  <Tag color="red">{t('disposition.held')}</Tag>
                ) : f.disposition ? (
                  <Tag color={STATE_COLOR[f.disposition.state]}>
                    {t(`dispositionStates.${f.disposition.state}`)}
                  </Tag>
                ) : (
                  mayPropose && (
                    <Button size="small" onClick={() => setProposing(f)} data-testid={`propose-${f.code}`}>
                      {t('disposition.propose')}
                    </Button>
                  )
                ),
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('disposition.list')} className="corr-card">
        <Table<Disposition>
          size="small"
          rowKey="id"
          loading={list.isLoading}
          dataSource={list.data ?? []}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          locale={{ emptyText: t('disposition.empty') }}
          data-testid="dispositions-table"
          columns={[
            {
              key: 'file',
              title: t('disposition.file'),
              className: 'records-grow',
              render: (_, d) => (
                <span>
                  <bdi className="corr-number">{d.file.code}</bdi>{' '}
                  <bdi>{fileTitle(d.file, i18n.language)}</bdi>
                </span>
              ),
            },
            {
              key: 'action',
              title: t('schedules.columns.action'),
              render: (_, d) => t(`actions.${d.action}`),
            },
            {
              key: 'state',
              title: t('files.columns.state'),
              render: (_, d) => (
                <Space orientation="vertical" size={4}>
                  <Tag color={STATE_COLOR[d.state]} data-testid={`disposition-state-${d.file.code}`}>
                    {t(`dispositionStates.${d.state}`)}
                  </Tag>
                  {running(d) && <JobFollower d={d} onEnded={onEnded} />}
                  {d.job?.state === 'failed' && <JobStopped d={d} />}
                </Space>
              ),
            },
            {
              key: 'proposed',
              title: t('disposition.proposedBy'),
              render: (_, d) => (
                <Space orientation="vertical" size={0}>
                  <span>{localName(d.proposedBy, i18n.language) || '—'}</span>
                  <Typography.Text type="secondary">
                    <bdi>{formatDateTime(d.proposedAt)}</bdi>
                  </Typography.Text>
                </Space>
              ),
            },
            {
              key: 'approved',
              title: t('disposition.approvedBy'),
              render: (_, d) =>
                d.approvedBy ? (
                  <Space orientation="vertical" size={0}>
                    <span>{localName(d.approvedBy, i18n.language)}</span>
                    {d.approvedAt && (
                      <Typography.Text type="secondary">
                        <bdi>{formatDateTime(d.approvedAt)}</bdi>
                      </Typography.Text>
                    )}
                  </Space>
                ) : (
                  '—'
                ),
            },
            {
              key: 'actions',
              title: '',
              render: (_, d) => {
                const own = d.proposedBy?.id === me;
                return (
                  <Space size={4} wrap>
                    {d.state === 'proposed' && mayApprove && !own && (
                      <Button
                        size="small"
                        type="primary"
                        loading={busy(d.id, 'approve')}
                        onClick={() => step.mutate({ id: d.id, what: 'approve' })}
                        data-testid={`approve-${d.file.code}`}
                      >
                        {t('disposition.approve')}
                      </Button>
                    )}
                    {d.state === 'proposed' && mayApprove && own && (
                      <Typography.Text
                        type="secondary"
                        className="records-why"
                        data-testid={`own-proposal-${d.file.code}`}
                      >
                        {t('disposition.ownProposal')}
                      </Typography.Text>
                    )}
                    {d.state === 'approved' && mayExecute && (
                      <Popconfirm
                        title={t(
                          d.action === 'destroy'
                            ? 'disposition.destroyConfirm'
                            : 'disposition.transferConfirm',
                        )}
                        okText={t('disposition.execute')}
                        cancelText={t('cancel')}
                        okButtonProps={
                          { danger: d.action === 'destroy', 'data-testid': 'execute-confirm' } as ButtonProps
                        }
                        onConfirm={() => step.mutate({ id: d.id, what: 'execute' })}
                      >
                        <Button
                          size="small"
                          danger={d.action === 'destroy'}
                          loading={busy(d.id, 'execute')}
                          data-testid={`execute-${d.file.code}`}
                        >
                          {t('disposition.execute')}
                        </Button>
                      </Popconfirm>
                    )}
                    {stoppedMidway(d) && mayExecute && (
                      <Button
                        size="small"
                        danger={d.action === 'destroy'}
                        loading={busy(d.id, 'execute')}
                        onClick={() => step.mutate({ id: d.id, what: 'execute' })}
                        data-testid={`continue-${d.file.code}`}
                      >
                        {t('disposition.continue')}
                      </Button>
                    )}
                    {(d.state === 'proposed' || d.state === 'approved') && mayPropose && (
                      <Button
                        size="small"
                        loading={busy(d.id, 'cancel')}
                        onClick={() => step.mutate({ id: d.id, what: 'cancel' })}
                        data-testid={`cancel-${d.file.code}`}
                      >
                        {t('disposition.cancel')}
                      </Button>
                    )}
                    {d.state === 'done' && (
                      <Button
                        size="small"
                        icon={<DownloadOutlined />}
                        loading={download.isPending && download.variables?.id === d.id}
                        onClick={() =>
                          download.mutate({
                            id: d.id,
                            what: d.action === 'destroy' ? 'certificate' : 'package',
                          })
                        }
                        data-testid={`download-${d.file.code}`}
                      >
                        {d.action === 'destroy' ? t('disposition.certificate') : t('disposition.package')}
                      </Button>
                    )}
                  </Space>
                );
              },
            },
          ]}
        />
      </Card>
      <Modal
        open={proposing !== null}
        title={proposing ? t('disposition.proposeTitle', { code: proposing.code }) : ''}
        okText={t('disposition.propose')}
        cancelText={t('cancel')}
        okButtonProps={{ loading: propose.isPending, 'data-testid': 'propose-confirm' } as ButtonProps}
        onOk={() => proposing && propose.mutate(proposing)}
        onCancel={() => setProposing(null)}
        destroyOnHidden
      >
        {proposing && (
          <Space orientation="vertical" className="records-full">
            <Typography.Text>
              {t('disposition.proposeNote', {
                action: proposing.retention ? t(`actions.${proposing.retention.action}`) : '—',
                count: proposing.documents,
                n: formatNumber(proposing.documents),
              })}
            </Typography.Text>
            {proposing.retention && (
              <Typography.Text type="secondary">
                {t('schedules.columns.reference')}: <bdi>{proposing.retention.legalReference}</bdi>
              </Typography.Text>
            )}
            <Input.TextArea
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={1000}
              placeholder={t('disposition.notePlaceholder')}
              autoSize={{ minRows: 2 }}
              data-testid="propose-note"
            />
          </Space>
        )}
      </Modal>
    </CorrespondenceScreen>
  );
}
