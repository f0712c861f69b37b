/**
 * One document of any family (incoming, outgoing, memo) for the ten detail screens named by
 * `DetailContext` (incoming, follow-ups, incoming tasks, outgoing, the outbox and memo approval boxes,
 * approved memos, search): the family's fields, attachments and additions after approval, related
 * documents, the approval panel (not on incoming mail), dispatch, distribution and tasks (once filed, not
 * on outgoing mail), follow / unfollow and the timeline. The context only picks the way back; the server
 * decides who may do what, and an action shows where the page permissions and the user's part allow it.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Empty,
  Flex,
  Form,
  Input,
  List,
  Modal,
  Radio,
  Result,
  Select,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import {
  DownloadOutlined,
  EyeOutlined,
  FilePdfOutlined,
  MinusCircleOutlined,
  PlusOutlined,
  RollbackOutlined,
  SendOutlined,
  StarFilled,
  StarOutlined,
  UndoOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { Dayjs } from 'dayjs';
import {
  ADDITION_KINDS,
  type AdditionKind,
  type Attachment,
  type DistributionType,
  type Distribution,
  type Document,
  type Task,
} from '../../../../src-shared/api/correspondence';
import { DATE_FORMAT, formatDate, formatDateTime } from '../../../components/DataTable';
import { formatSize, pdfFileProblem, saveDownloaded } from '../../../components/upload/transfer';
import { useUploadLimit } from '../../../lib/upload-limit';
import { useSession } from '../../../app/session';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { localName, nameList } from '../../../lib/names';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { DistributionTypeTag, StateTags } from './BoxListScreen';
import { DocumentTimeline } from './Timeline';
import { TaskStateTag } from './TaskStateTag';
import { corrKeys, documentsApi, settingsApi } from './api';
import { DepartmentSelect, EmployeePicker } from './pickers';
import { PAGES } from '../../../../src-shared/pages';
import { useCanOn } from '../../../app/permissions';
import { usePdfPreview, warmPdfViewer } from '../../../components/pdf/PdfPreview';
import { PdfPickButton } from '../../../components/upload/PdfPickButton';
import { fileSource } from '../../../lib/files';
import { ApprovalPanel } from './ApprovalPanel';
import { ApprovalStatusTag } from './CircuitListScreens';
import { DispatchPanel } from './DispatchPanel';
import { documentPath, familyOf, type Family } from './directions';
import { LoadFailed } from '../../../components/LoadFailed';
import { AttachmentTextStatus, isReading } from '../search/AttachmentText';
import '../search/search.css';

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

const day = (value: Dayjs | null | undefined) => (value ? value.format('YYYY-MM-DD') : null);

/** An addition after approval, sent by the archive office holding the document: its kind, then the PDF. */
function AddAfterApproval({ doc, onAdded }: { doc: Document; onAdded: () => void }) {
  const { t, i18n } = useTranslation('correspondence');
  const uploadLimit = useUploadLimit();
  const [kind, setKind] = useState<AdditionKind>('signedCopy');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const send = async (file: File) => {
    setProblem(null);
    const failed = await pdfFileProblem(file, uploadLimit, i18n.language);
    if (failed) return setProblem(failed);
    setSending(true);
    try {
      await documentsApi.addAfterApproval(doc.id, kind, file);
      onAdded();
    } catch {
      // the transfer helper toasted the server's message
    } finally {
      setSending(false);
    }
  };
  return (
    <Flex vertical gap={8} className="corr-additions-add">
      <Flex gap={8} wrap align="center">
        <Select<AdditionKind>
          value={kind}
          onChange={setKind}
          options={ADDITION_KINDS.map((k) => ({ value: k, label: t(`additions.kind.${k}`) }))}
          aria-label={t('additions.kindLabel')}
          className="corr-additions-kind"
          data-testid="addition-kind"
        />
        <PdfPickButton
          onFile={(file) => void send(file)}
          icon={<PlusOutlined />}
          loading={sending}
          testId="addition-upload"
        >
          {t('additions.add')}
        </PdfPickButton>
      </Flex>
      {problem && (
        <Alert
          type="error"
          showIcon
          title={problem}
          closable
          onClose={() => setProblem(null)}
          data-testid="addition-error"
        />
      )}
    </Flex>
  );
}

/**
 * The attachments with open (a Blob URL in a frame) and save: the document's content, then — on an
 * approved letter or memo — what was added after its approval, apart, with its kind (and, for its archive
 * office, adding one).
 */
function Attachments({ doc, onChanged }: { doc: Document; onChanged: () => void }) {
  const { t, i18n } = useTranslation('correspondence');
  const preview = usePdfPreview();
  // The viewer reads the file from our file source, a range at a time.
  const open = (a: Attachment) =>
    preview.show({
      source: fileSource(`/correspondence/documents/${doc.id}/attachments/${a.id}/content`),
      fileName: a.fileName,
      onDownload: () => void save(a),
    });
  const hasFiles = doc.attachments.length > 0;
  useEffect(() => {
    if (hasFiles) warmPdfViewer();
  }, [hasFiles]);
  const save = async (a: Attachment) => saveDownloaded(await documentsApi.downloadAttachment(doc.id, a.id));
  const content = doc.attachments.filter((a) => a.kind === 'content');
  const additions = doc.attachments.filter((a) => a.kind !== 'content');
  const row = (a: Attachment) => (
    <List.Item
      data-testid={a.kind === 'content' ? 'attachment-row' : 'addition-row'}
      actions={[
        <Button
          key="open"
          type="text"
          icon={<EyeOutlined />}
          onClick={() => open(a)}
          data-testid="attachment-open"
          aria-label={t('detail.open', { name: a.fileName })}
        />,
        <Button
          key="save"
          type="text"
          icon={<DownloadOutlined />}
          onClick={() => void save(a)}
          aria-label={t('detail.save', { name: a.fileName })}
        />,
      ]}
    >
      <span className="corr-attachment">
        <FilePdfOutlined />
        <bdi>{a.fileName}</bdi>
        {a.kind !== 'content' && <Tag color="purple">{t(`additions.kind.${a.kind}`)}</Tag>}
        <Typography.Text type="secondary">{formatSize(a.size, i18n.language)}</Typography.Text>
        {a.kind !== 'content' && (
          <Typography.Text type="secondary">
            <bdi>{formatDateTime(a.createdAt)}</bdi>
          </Typography.Text>
        )}
        <AttachmentTextStatus documentId={doc.id} attachment={a} />
      </span>
    </List.Item>
  );
  return (
    <>
      <List
        size="small"
        locale={{ emptyText: t('empty.attachments') }}
        dataSource={content}
        renderItem={row}
      />
      {(additions.length > 0 || doc.abilities.addAfterApproval) && (
        <div className="corr-additions" data-testid="additions-panel">
          <Typography.Text strong>{t('additions.title')}</Typography.Text>
          <Typography.Paragraph type="secondary" className="corr-hint">
            {t('additions.hint')}
          </Typography.Paragraph>
          {additions.length > 0 && <List size="small" dataSource={additions} renderItem={row} />}
          {doc.abilities.addAfterApproval && <AddAfterApproval doc={doc} onAdded={onChanged} />}
        </div>
      )}
      {preview.dialog}
    </>
  );
}

interface DistributeRow {
  departmentId?: number | null;
  type: DistributionType;
  notes?: string;
}

/** The distribute dialog: rows of department, purpose (for action or for information) and notes; main distribution adds rows. */
function DistributeModal({
  doc,
  open,
  onClose,
  onDone,
}: {
  doc: Document;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [form] = useLocalisedForm<{ items: DistributeRow[] }>();
  const [saving, setSaving] = useState(false);
  const main = useQuery({
    queryKey: corrKeys.settingsOptions('main-distribution'),
    queryFn: () => settingsApi.options('main-distribution'),
    enabled: open,
  });
  useEffect(() => {
    if (open) form.setFieldsValue({ items: [{ type: 'forAction', departmentId: null, notes: '' }] });
  }, [open, form]);
  const addDepartment = (departmentId: number) => {
    const items = (form.getFieldValue('items') as DistributeRow[] | undefined) ?? [];
    if (items.some((i) => i.departmentId === departmentId)) return;
    const blank = items.findIndex((i) => !i.departmentId);
    const row: DistributeRow = { departmentId, type: 'forKnowledge', notes: '' };
    form.setFieldsValue({
      items: blank >= 0 ? items.map((r, i) => (i === blank ? { ...r, departmentId } : r)) : [...items, row],
    });
  };
  const save = async () => {
    const { items } = await form.validateFields();
    setSaving(true);
    try {
      await documentsApi.distribute(doc.id, {
        items: items.map((i) => ({
          departmentId: i.departmentId!,
          type: i.type,
          notes: i.notes?.trim() || null,
        })),
      });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('distribution.title')}
      okText={t('distribution.send')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      width={760}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'distribute-save' } as Record<string, string>}
    >
      {(main.data ?? []).length > 0 && (
        <div className="corr-main-distribution">
          <Typography.Text type="secondary">{t('distribution.fromMain')}</Typography.Text>
          <Flex gap={6} wrap>
            {(main.data ?? []).map((m) =>
              m.department ? (
                <Button
                  key={m.id}
                  size="small"
                  icon={<PlusOutlined />}
                  onClick={() => addDepartment(m.department!.id)}
                >
                  {localName(m.department, i18n.language)}
                </Button>
              ) : null,
            )}
          </Flex>
        </div>
      )}
      <Form form={form} layout="vertical" data-testid="distribute-form">
        <Form.List name="items">
          {(rows, { add, remove }) => (
            <>
              {rows.map((row, index) => (
                <div key={row.key} className="corr-distribute-row" data-testid={`distribute-row-${index}`}>
                  <Form.Item
                    name={[row.name, 'departmentId']}
                    label={t('fields.department')}
                    rules={[{ required: true, message: t('validation.required') }]}
                  >
                    <DepartmentSelect type="internal" testId={`distribute-department-${index}`} />
                  </Form.Item>
                  <Form.Item name={[row.name, 'type']} label={t('distribution.type')}>
                    <Radio.Group
                      optionType="button"
                      data-testid={`distribute-type-${index}`}
                      options={[
                        { value: 'forAction', label: t('distributionType.forAction') },
                        { value: 'forKnowledge', label: t('distributionType.forKnowledge') },
                      ]}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[row.name, 'notes']}
                    label={t('fields.notes')}
                    rules={[{ max: 2000, message: t('validation.maxLength', { max: 2000 }) }]}
                  >
                    <Input data-testid={`distribute-notes-${index}`} />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<MinusCircleOutlined />}
                    aria-label={t('distribution.removeRow')}
                    onClick={() => remove(row.name)}
                    disabled={rows.length === 1}
                    className="corr-row-remove"
                  />
                </div>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ type: 'forAction', notes: '' })}
                data-testid="distribute-add-row"
              >
                {t('distribution.addRow')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

/** The `failed` prop of a panel whose query failed with nothing to show. */
function failedOf(query: { isError: boolean; data?: unknown; refetch: () => unknown }) {
  return query.isError && !query.data ? { failed: { retry: () => void query.refetch() } } : {};
}

/** The distribution panel: who received it and how; the distribute action. */
function DistributionPanel({
  doc,
  distributions,
  onChanged,
  failed,
}: {
  doc: Document;
  distributions: Distribution[];
  onChanged: () => void;
  /** The distribution could not be loaded: say so, with a retry (never "not distributed"). */
  failed?: { retry: () => void };
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [open, setOpen] = useState(false);
  return (
    <Card
      size="small"
      title={t('distribution.panel')}
      data-testid="distribution-panel"
      extra={
        doc.abilities.distribute && (
          <Button
            size="small"
            type="primary"
            icon={<SendOutlined />}
            onClick={() => setOpen(true)}
            data-testid="distribute"
          >
            {t('distribution.distribute')}
          </Button>
        )
      }
    >
      {failed ? (
        <LoadFailed onRetry={failed.retry} testId="distribution-failed" />
      ) : distributions.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('state.notDistributed')} />
      ) : (
        <List
          size="small"
          dataSource={distributions}
          renderItem={(d) => (
            <List.Item data-testid={`distribution-${d.department.id}`}>
              <div className="corr-grow">
                <Flex gap={6} align="center" wrap>
                  <strong>{localName(d.department, i18n.language)}</strong>
                  <DistributionTypeTag type={d.type} />
                  {d.type === 'forAction' &&
                    (d.completed ? (
                      <Tag color="green">{t('state.completed')}</Tag>
                    ) : (
                      <Tag color="orange">{t('state.notCompleted')}</Tag>
                    ))}
                </Flex>
                {d.notes && <span className="corr-timeline-notes">{d.notes}</span>}
                <span className="corr-timeline-meta">
                  {d.distributedBy ? localName(d.distributedBy, i18n.language) : ''} ·{' '}
                  <bdi>{formatDateTime(d.distributedAt)}</bdi>
                </span>
              </div>
            </List.Item>
          )}
        />
      )}
      <DistributeModal
        doc={doc}
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

/** The assign dialog: which distribution, the tasker (EmployeePicker within that department), date, notes. */
function AssignTaskModal({
  doc,
  distributions: all,
  open,
  onClose,
  onDone,
}: {
  doc: Document;
  distributions: Distribution[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [form] = useLocalisedForm<{
    distributionId?: number;
    employeeId?: number | null;
    taskDate?: Dayjs | null;
    notes?: string;
  }>();
  const [saving, setSaving] = useState(false);
  // Only the distributions of departments the caller leads (what the server will accept).
  const distributions = useMemo(
    () => all.filter((d) => doc.abilities.assignTasksFor.includes(d.id)),
    [all, doc.abilities.assignTasksFor],
  );
  const distributionId = Form.useWatch('distributionId', form);
  const departmentId = distributions.find((d) => d.id === distributionId)?.department.id;
  useEffect(() => {
    if (open)
      form.setFieldsValue({
        distributionId: distributions.length === 1 ? distributions[0]!.id : undefined,
        employeeId: null,
        taskDate: null,
        notes: '',
      });
  }, [open, form, distributions]);
  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await documentsApi.assignTask(doc.id, {
        distributionId: values.distributionId!,
        employeeId: values.employeeId!,
        taskDate: day(values.taskDate),
        notes: values.notes?.trim() || null,
      });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };
  const required = [{ required: true, message: t('validation.required') }];
  return (
    <Modal
      open={open}
      title={t('tasks.assignTitle')}
      okText={t('tasks.assign')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'task-save' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" data-testid="task-form">
        <Form.Item name="distributionId" label={t('tasks.distribution')} rules={required}>
          <Select
            data-testid="task-distribution"
            options={distributions.map((d) => ({
              value: d.id,
              label: `${localName(d.department, i18n.language)} — ${t(`distributionType.${d.type}`)}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="employeeId" label={t('fields.tasker')} rules={required}>
          <EmployeePicker departmentId={departmentId} data-testid="task-tasker" />
        </Form.Item>
        <Form.Item name="taskDate" label={t('fields.taskDate')}>
          <DatePicker format={DATE_FORMAT} className="corr-full" data-testid="task-date" />
        </Form.Item>
        <Form.Item
          name="notes"
          label={t('fields.notes')}
          rules={[{ max: 2000, message: t('validation.maxLength', { max: 2000 }) }]}
        >
          <Input.TextArea autoSize={{ minRows: 2 }} data-testid="task-notes" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The tasks panel: every task with its state; the tasker starts and completes their own. */
function TasksPanel({
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
  const [moving, setMoving] = useState<number | null>(null);
  // Completing and reopening ask first, with a place for the result or the reason (shown in the timeline).
  const [confirming, setConfirming] = useState<{ task: Task; action: 'complete' | 'reopen' } | null>(null);
  const [note, setNote] = useState('');
  const move = async (task: Task, state: Task['state'], withNote?: string) => {
    setMoving(task.id);
    try {
      await documentsApi.moveTask(doc.id, task.id, state, withNote?.trim() || undefined);
      onChanged();
      return true;
    } catch {
      return false; // the http helper has shown why
    } finally {
      setMoving(null);
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

/** Follow (optionally until a date) or unfollow. */
function FollowButton({ doc, onChanged }: { doc: Document; onChanged: () => void }) {
  const { t } = useTranslation('correspondence');
  const [open, setOpen] = useState(false);
  const [dueDate, setDueDate] = useState<Dayjs | null>(null);
  if (doc.followed) {
    return (
      <Button
        icon={<StarFilled />}
        onClick={() => void documentsApi.unfollow(doc.id).then(onChanged)}
        data-testid="unfollow"
      >
        {t('follow.unfollow')}
      </Button>
    );
  }
  return (
    <>
      <Button icon={<StarOutlined />} onClick={() => setOpen(true)} data-testid="follow">
        {t('follow.follow')}
      </Button>
      <Modal
        open={open}
        title={t('follow.title')}
        okText={t('follow.follow')}
        cancelText={t('actions.cancel')}
        onCancel={() => setOpen(false)}
        onOk={async () => {
          await documentsApi.follow(doc.id, { dueDate: day(dueDate) });
          setOpen(false);
          onChanged();
        }}
      >
        <Form layout="vertical">
          <Form.Item label={t('fields.dueDate')}>
            <DatePicker
              format={DATE_FORMAT}
              value={dueDate}
              onChange={setDueDate}
              className="corr-full"
              data-testid="follow-date"
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
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
  const doc = useQuery({
    queryKey: corrKeys.document(id),
    queryFn: () => documentsApi.get(id),
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
    { key: 'grouping', label: t('fields.grouping'), value: d.grouping || '—' },
    {
      key: 'registered',
      label: t('fields.registeredAt'),
      value: d.registeredAt ? <bdi>{formatDateTime(d.registeredAt)}</bdi> : '—',
    },
    {
      key: 'summary',
      label: d.direction === 'in' ? t('fields.summary') : t('fields.body'),
      value: <span className="corr-timeline-notes">{d.summary || '—'}</span>,
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
          <DispatchPanel doc={d} onChanged={refresh} />
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
