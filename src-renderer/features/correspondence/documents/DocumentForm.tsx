/**
 * The one form of a correspondence document, for every direction (what differs is declared in
 * directions.ts): incoming mail (/correspondence/inbox/add, a draft continued with ?draft={id}), outgoing
 * letters (/correspondence/outbox/add, a draft at /correspondence/outbox/draft/{id}, a reply to an incoming
 * letter with ?replyTo={id}) and memos (/correspondence/memos/add, /correspondence/memos/draft/{id}).
 * Once what is typed is kept on this desk, the address also names that local draft (?local={id}): the
 * form reopened there — reloaded, with the server away or not — resumes it, its kept PDFs included.
 * "Save draft" keeps it without a number. Incoming is finished by "Register" (the archive office gives its
 * number); outgoing letters and memos by "Submit for approval", which shows the proposed circuit for the
 * author to adjust, then sends it. Attachments are PDFs checked by content and size before they are sent.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Card,
  Checkbox,
  DatePicker,
  Form,
  Input,
  List,
  Progress,
  Result,
  Space,
  Typography,
  Upload,
} from 'antd';
import type { Rule } from 'antd/es/form';
import {
  AuditOutlined,
  DeleteOutlined,
  EyeOutlined,
  FilePdfOutlined,
  LinkOutlined,
  PaperClipOutlined,
  SaveOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import dayjs from 'dayjs';
import type { CreateDocumentRequest, Document } from '../../../../src-shared/api/correspondence';
import { useSession } from '../../../app/session';
import { SAME_IN_EVERY_LANGUAGE } from '../../../app/locale';
import { localDrafts } from '../../../lib/local-drafts';
import { formatDateTime } from '../../../lib/format';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { usePdfPreview, warmPdfViewer } from '../../../components/pdf/PdfPreview';
import { fileSource } from '../../../lib/files';
import { DATE_FORMAT } from '../../../components/DataTable';
import { formatSize } from '../../../components/upload/transfer';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { useCan } from '../../../lib/usePermission';
import { useUploadLimit } from '../../../lib/upload-limit';
import { toast, userAction } from '../../../lib/toast';
import { CircuitDialog } from './CircuitDialog';
import { attachmentPath, corrKeys, documentsApi } from './api';
import { FAMILIES, type Family, type FormField } from './directions';
import { toDocumentFields, toFormValues, type DocumentFormValues } from './documentFields';
import { DepartmentSelect, DepartmentsSelect } from './pickers';
import { RelatedSelect } from './RelatedSelect';
import { SettingSelect } from './SettingSelect';
import { FileSelect } from './FileSelect';
import { useAttachmentQueue } from './useAttachmentQueue';
import { StickerAfterRegister } from './PaperActions';
import { useLocalDraft } from './useLocalDraft';

export { toDocumentFields, type DocumentFormValues } from './documentFields';

/**
 * The server's error on the older `grouping` (a file code it does not know) shown on the File field, which
 * is where the clerk chooses the file now.
 */
function fileErrorOnItsField(error: unknown): unknown {
  const errors = (error as { problem?: { errors?: Record<string, string[]> } } | null)?.problem?.errors;
  if (errors?.grouping && !errors.fileId) {
    errors.fileId = errors.grouping;
    delete errors.grouping;
  }
  return error;
}

/** The form screen of a family; `draftId` continues a draft (else ?draft= for incoming). */
export function DocumentForm({ family, draftId: givenDraftId }: { family: Family; draftId?: number }) {
  const uploadLimit = useUploadLimit();
  const spec = FAMILIES[family];
  const { t, i18n } = useTranslation('correspondence');
  const can = useCan();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [createdId, setCreatedId] = useState<number | null>(null);
  const draftId = givenDraftId ?? (Number(params.get('draft')) || createdId || null);
  const replyTo = Number(params.get('replyTo')) || null;
  // Local drafts (issue 14): the form keeps what is typed on this desk as it is typed, server or not.
  const session = useSession();
  const offline = session.offline;
  const [form] = useLocalisedForm<DocumentFormValues>();
  // "No reply needed" turns the reply's date off.
  const noReply = !!Form.useWatch('noReply', form);
  const finishing = useRef(false);
  const [finished, setFinished] = useState<Document | null>(null);
  const [circuitFor, setCircuitFor] = useState<Document | null>(null);
  // Sending what the form holds (the draft, its files, the finish). Tried whatever the browser says of the
  // network: a server away is the save's own concern (it keeps the draft on this desk).
  const sending = useMutation({
    mutationFn: ({ finish, values }: { finish: boolean; values: DocumentFormValues }) => send(finish, values),
    networkMode: 'always',
  });
  const busy = sending.isPending ? (sending.variables?.finish ? 'finish' : 'draft') : null;
  const preview = usePdfPreview();

  const draft = useQuery({
    queryKey: corrKeys.document(draftId ?? 0),
    queryFn: () => documentsApi.get(draftId!),
    enabled: draftId !== null,
    // The form is seeded from it: a change of language does not read it again over the user's typing.
    meta: SAME_IN_EVERY_LANGUAGE,
  });
  // A reply starts from the incoming letter: related to it, addressed to its sender.
  const original = useQuery({
    queryKey: corrKeys.document(replyTo ?? 0),
    queryFn: () => documentsApi.get(replyTo!),
    enabled: replyTo !== null && draftId === null,
  });
  // The address names the local draft the form is writing (?local=<id>): see useLocalDraft.
  const local = useLocalDraft({
    form,
    family,
    spec,
    draftId,
    draft,
    localParam: params.get('local'),
    setParams,
  });
  const { localId, resumeLocal, localFiles, setLocalFiles, mounted } = local;
  const queue = useAttachmentQueue({ form, draftId, uploadLimit, local });
  const { pending, holders, linkedInstead, progress, documentList } = queue;
  useEffect(() => {
    if (draft.data && !resumeLocal) form.setFieldsValue(toFormValues(draft.data));
  }, [draft.data, resumeLocal, form]);
  useEffect(() => {
    if (draftId === null) {
      form.resetFields();
      form.setFieldsValue(family === 'in' ? { receivedDate: dayjs() } : { documentDate: dayjs() });
    }
  }, [draftId, form, family]);
  // Seeded once per letter replied to: a change of language (a new `t`) does not undo the user's typing.
  const repliedTo = useRef<number | null>(null);
  useEffect(() => {
    if (!original.data || draftId !== null || repliedTo.current === original.data.id) return;
    repliedTo.current = original.data.id;
    form.setFieldsValue({
      subject: t('reply.subject', { subject: original.data.subject }),
      relatedIds: [original.data.id],
      recipientIds: original.data.sender ? [original.data.sender.id] : [],
    });
  }, [original.data, draftId, form, t]);

  // Required always (subject) or only when finishing (the family's required fields).
  const requiredRule = (always = false): Rule => ({
    validator: async (_rule, value: unknown) => {
      if (!always && !finishing.current) return;
      const blank =
        value === undefined ||
        value === null ||
        (typeof value === 'string' && !value.trim()) ||
        (Array.isArray(value) && value.length === 0);
      if (blank) throw new Error(t('validation.required'));
    },
  });
  const maxRule = (max: number): Rule => ({ max, message: t('validation.maxLength', { max }) });
  const needed = (field: FormField) => spec.required.includes(field);
  const rulesOf = (field: FormField, max?: number): Rule[] => [
    ...(needed(field) ? [requiredRule()] : []),
    ...(max ? [maxRule(max)] : []),
  ];

  /** Saves the draft (creating it the first time) with its attachments; answers it. */
  const saveDraft = async (values: DocumentFormValues): Promise<Document> => {
    const fields = toDocumentFields(values, family);
    let doc: Document;
    // The desk's copy may already have become a server draft (sent by itself while the form was open):
    // claim it, so it is not sent again meanwhile, and update that draft rather than make a second.
    let serverId = draftId;
    if (localId.current) {
      const claimed = await localDrafts.claim(localId.current).catch(() => null);
      serverId ??= claimed?.serverId ?? null;
    }
    if (serverId !== null && serverId !== draftId) {
      doc = await documentsApi.update(serverId, fields);
      const before = new Set(doc.related.map((r) => r.id));
      const added = (values.relatedIds ?? []).filter((id) => !before.has(id));
      if (added.length > 0) await documentsApi.relate(serverId, added);
    } else if (draftId) {
      doc = await documentsApi.update(draftId, fields);
      const before = new Set(draft.data?.related.map((r) => r.id));
      const added = (values.relatedIds ?? []).filter((id) => !before.has(id));
      if (added.length > 0) await documentsApi.relate(draftId, added);
    } else {
      const body: CreateDocumentRequest = {
        direction: spec.direction,
        ...fields,
        relatedIds: values.relatedIds ?? [],
        register: false,
      };
      doc = await documentsApi.create(body);
    }
    const sent = await queue.sendAll(doc.id);
    const saved = sent ? await documentsApi.get(doc.id) : doc;
    // The server has it all now: the desk's copy records the server's id and version.
    if (localId.current) {
      await localDrafts.settled(localId.current, saved.id, saved.version).catch(() => {});
      local.keptFiles.current.clear();
    }
    return saved;
  };

  /** Saving while the server is away: kept on this desk, sent by itself when the server is back. */
  const keepUntilOnline = async () => {
    // Released: the form no longer sends it itself, the desk sends it when the server is back.
    await local.saveLocally(true);
    toast({ severity: 'info', detail: t('local.keptOffline') });
  };

  /**
   * Saving is one user action however many calls it makes (the draft, its related documents, each file,
   * the registration): one toast at most. Finishing shows its outcome itself (the "registered" heading,
   * or the circuit dialog and then "sent for approval"), so only a failure or advice is toasted then.
   */
  const save = (finish: boolean) => userAction(() => saveNow(finish), { outcomeShown: finish });

  const saveNow = async (finish: boolean) => {
    // This save writes what the form holds: a keep-on-the-desk still waiting for its moment would only
    // mark the draft as changed again after it has been sent (and a pass would send it twice).
    local.cancelAutosave();
    finishing.current = finish;
    try {
      await form.validateFields();
    } catch {
      return;
    } finally {
      finishing.current = false;
    }
    const values = form.getFieldsValue(true) as DocumentFormValues;
    if (offline && !finish) {
      await keepUntilOnline();
      return;
    }
    await sending.mutateAsync({ finish, values });
  };

  /** Sends the form's values to the server (the drafts' sync when files are kept on this desk). */
  const send = async (finish: boolean, values: DocumentFormValues) => {
    // A local draft with files kept on this desk is sent by the drafts' sync (which holds those files).
    if (localId.current && localFiles.length > 0) {
      const id = await local.saveLocally(true);
      await localDrafts.sync();
      const sent = await localDrafts.get(id);
      if (sent.state === 'synced' && sent.serverId) {
        void queryClient.invalidateQueries({ queryKey: corrKeys.all });
        // The sync sent every file kept on this desk, those chosen in this form among them.
        setLocalFiles([]);
        queue.dropSentByDesk();
        if (mounted.current) void navigate(local.draftAddress(sent.serverId), { replace: true });
      } else {
        toast({ severity: 'warn', detail: sent.error ?? t('local.notSentYet') });
      }
      return;
    }
    try {
      let doc = await saveDraft(values);
      if (finish && spec.finish === 'register') {
        doc = await documentsApi.register(doc.id);
        setFinished(doc);
      } else if (finish) {
        setCircuitFor(doc);
      }
      if (!draftId && !finished && mounted.current) {
        if (family === 'in')
          setParams(
            { draft: String(doc.id), ...(localId.current ? { local: localId.current } : {}) },
            { replace: true },
          );
        else if (!finish) void navigate(local.draftAddress(doc.id), { replace: true });
        else setCreatedId(doc.id);
      }
      void queryClient.invalidateQueries({ queryKey: corrKeys.all });
    } catch (error) {
      if (
        (error as { code?: string }).code === 'ipc.serverUnreachable' ||
        (error as { status?: number }).status === 502
      )
        await keepUntilOnline().catch(() => {});
      else applyServerErrors(form, fileErrorOnItsField(error));
    }
  };

  const hasFiles = (draft.data?.attachments.length ?? 0) > 0 || pending.length > 0;
  useEffect(() => {
    if (hasFiles) warmPdfViewer();
  }, [hasFiles]);

  if (finished) {
    const submitted = finished.state !== 'registered';
    return (
      <CorrespondenceScreen testId={spec.screenTestId}>
        <Card>
          <Result
            status="success"
            title={submitted ? t('circuit.submittedTitle') : t('add.registeredTitle')}
            subTitle={
              submitted ? (
                <span data-testid="submitted-note">{t('circuit.submittedNote')}</span>
              ) : (
                <Space direction="vertical" align="center">
                  <span data-testid="registered-number">
                    {t('add.registeredNumber')} <bdi className="corr-number">{finished.docNumber}</bdi>
                  </span>
                  <StickerAfterRegister doc={finished} />
                </Space>
              )
            }
            extra={[
              <Button
                key="open"
                type="primary"
                onClick={() =>
                  void navigate(
                    submitted ? `${spec.awaitingPath}/${finished.id}` : `${spec.listPath}/${finished.id}`,
                  )
                }
                data-testid="registered-open"
              >
                {t('add.openDocument')}
              </Button>,
              <Button
                key="another"
                onClick={() => {
                  setFinished(null);
                  setCreatedId(null);
                  if (family === 'in') setParams({}, { replace: true });
                  else void navigate(spec.addPath);
                  form.resetFields();
                }}
              >
                {t(`add.another_${family}`)}
              </Button>,
            ]}
          />
        </Card>
      </CorrespondenceScreen>
    );
  }

  const attachments = draft.data?.attachments ?? [];
  /** Opens an attachment in the viewer: a saved one from the file source, a chosen one from its bytes. */
  const show = async (row: { key: string; name: string; saved: number | null }) => {
    if (row.saved !== null && draftId)
      preview.show({
        fileName: row.name,
        source: fileSource(attachmentPath(draftId, row.saved)),
      });
    else {
      const file = pending[Number(row.key.slice(1))];
      if (file)
        preview.show({ fileName: row.name, source: { data: new Uint8Array(await file.arrayBuffer()) } });
    }
  };
  const returned = draft.data?.approval?.steps
    .flatMap((s) => s.members)
    .filter((m) => m.decision === 'changesRequested' || m.decision === 'rejected');
  const field = (name: FormField) => {
    switch (name) {
      case 'senderDepartmentId':
        return (
          <Form.Item key={name} name={name} label={t('fields.sender')} required rules={rulesOf(name)}>
            <DepartmentSelect
              type="external"
              testId="field-sender"
              placeholder={t('form.senderPlaceholder')}
            />
          </Form.Item>
        );
      case 'senderDocumentNumber':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t('fields.senderDocumentNumber')}
            rules={rulesOf(name, 100)}
          >
            <Input dir="auto" data-testid="field-sender-number" />
          </Form.Item>
        );
      case 'recipientDepartmentId':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t('fields.recipientDepartment')}
            required
            rules={rulesOf(name)}
          >
            <DepartmentSelect
              type="internal"
              testId="field-recipient"
              placeholder={t('form.recipientPlaceholder')}
            />
          </Form.Item>
        );
      case 'receiver':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t(family === 'out' ? 'fields.addressee' : 'fields.receiver')}
            rules={rulesOf(name, 200)}
          >
            <Input data-testid="field-receiver" />
          </Form.Item>
        );
      case 'departmentId':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t('fields.senderDepartment')}
            extra={t('form.departmentDefault')}
            rules={rulesOf(name)}
          >
            <DepartmentSelect
              type="internal"
              testId="field-department"
              placeholder={t('form.ownDepartment')}
            />
          </Form.Item>
        );
      case 'recipientIds':
        return (
          <Form.Item
            key={name}
            name={name}
            label={t(family === 'out' ? 'fields.receivers' : 'fields.recipientDepartments')}
            required
            rules={rulesOf(name)}
            className="corr-form-wide"
          >
            <DepartmentsSelect
              type={spec.recipients ?? undefined}
              testId="field-recipients"
              placeholder={t(family === 'out' ? 'form.receiversPlaceholder' : 'form.recipientsPlaceholder')}
            />
          </Form.Item>
        );
      default:
        return null;
    }
  };

  return (
    <CorrespondenceScreen
      testId={spec.screenTestId}
      title={draftId ? t(`add.draftTitle_${family}`) : undefined}
      subtitle={t(`add.description_${family}`)}
    >
      {returned && returned.length > 0 && draft.data && (
        <Card size="small" className="corr-card corr-returned" data-testid="returned-note">
          <Typography.Text strong>
            {t(draft.data.state === 'rejected' ? 'circuit.rejectedNote' : 'circuit.changesNote')}
          </Typography.Text>
          {returned.map((m) => (
            <Typography.Paragraph key={m.userId} className="corr-timeline-notes">
              <bdi>{i18n.language === 'ar' ? m.nameAr : m.nameEn}</bdi>: {m.comment}
            </Typography.Paragraph>
          ))}
        </Card>
      )}
      <Form
        form={form}
        layout="vertical"
        onValuesChange={local.onValuesChange}
        data-testid={spec.formTestId}
        disabled={draftId !== null && draft.isLoading}
      >
        <Card title={t(`add.sections.document_${family}`)} className="corr-card">
          <div className="corr-form-grid">
            <Form.Item
              name="codificationId"
              label={t('fields.codification')}
              required
              rules={rulesOf('codificationId')}
            >
              <SettingSelect
                list="codifications"
                direction={spec.direction}
                testId="field-codification"
                name="codificationId"
                required
              />
            </Form.Item>
            <Form.Item
              name="documentDate"
              label={t('fields.documentDate')}
              required={needed('documentDate')}
              rules={rulesOf('documentDate')}
            >
              <DatePicker format={DATE_FORMAT} className="corr-full" data-testid="field-document-date" />
            </Form.Item>
            {family === 'in' && (
              <Form.Item name="receivedDate" label={t('fields.receivedDate')}>
                <DatePicker format={DATE_FORMAT} className="corr-full" data-testid="field-received-date" />
              </Form.Item>
            )}
            {family === 'in' && (
              <Form.Item label={t('due.dueOn')} extra={t('due.formHint')}>
                <Space wrap>
                  <Form.Item name="replyDueOn" noStyle>
                    <DatePicker
                      format={DATE_FORMAT}
                      data-testid="field-reply-due"
                      aria-label={t('due.dueOn')}
                      disabled={noReply}
                    />
                  </Form.Item>
                  <Form.Item name="noReply" valuePropName="checked" noStyle>
                    <Checkbox data-testid="field-no-reply">{t('due.noReplyNeeded')}</Checkbox>
                  </Form.Item>
                </Space>
              </Form.Item>
            )}
            <Form.Item
              name="subject"
              label={t('fields.subject')}
              required
              rules={[requiredRule(true), maxRule(500)]}
              className="corr-form-wide"
            >
              <Input data-testid="field-subject" />
            </Form.Item>
            <Form.Item
              name="summary"
              label={t(family === 'in' ? 'fields.summary' : 'fields.body')}
              className="corr-form-wide"
              rules={[maxRule(10000)]}
            >
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} data-testid="field-summary" />
            </Form.Item>
          </div>
        </Card>
        <Card title={t(`add.sections.parties_${family}`)} className="corr-card">
          <div className="corr-form-grid">{spec.parties.map(field)}</div>
        </Card>
        <Card title={t('add.sections.classification')} className="corr-card">
          <div className="corr-form-grid">
            <Form.Item name="securityLevelId" label={t('fields.securityLevel')}>
              <SettingSelect list="security-levels" testId="field-security-level" />
            </Form.Item>
            <Form.Item name="priorityId" label={t('fields.priority')}>
              <SettingSelect list="priorities" testId="field-priority" />
            </Form.Item>
            <Form.Item name="mediumId" label={t(family === 'in' ? 'fields.medium' : 'fields.mediumOut')}>
              <SettingSelect list="mediums" testId="field-medium" />
            </Form.Item>
            <Form.Item name="fileId" label={t('fields.grouping')}>
              <FileSelect testId="field-file" initial={draft.data?.file ?? null} />
            </Form.Item>
            {/* An older local draft's file code (see FileSelect): kept and sent until a file is chosen. */}
            <Form.Item name="grouping" hidden>
              <Input />
            </Form.Item>
            <Form.Item name="relatedIds" label={t('fields.related')} className="corr-form-wide">
              <RelatedSelect
                excludeId={draftId ?? undefined}
                testId="field-related"
                initial={[
                  ...(draft.data?.related ?? (original.data ? [{ ...original.data }] : [])),
                  ...linkedInstead,
                ]}
              />
            </Form.Item>
          </div>
        </Card>
        <Card title={t('fields.attachments')} className="corr-card">
          {/* Drop PDFs here from the desktop or a scanner's folder, or choose them (several at once). */}
          <Upload.Dragger
            accept="application/pdf,.pdf"
            multiple
            showUploadList={false}
            beforeUpload={(file) => queue.chooseFile(file)}
            className="corr-drop"
          >
            <div data-testid="attachment-drop" className="corr-drop-inner">
              <PaperClipOutlined className="corr-drop-icon" />
              <Typography.Text>{t('add.dropFiles')}</Typography.Text>
              <Button icon={<PaperClipOutlined />} data-testid="attachment-choose">
                {t('add.chooseFile')}
              </Button>
            </div>
          </Upload.Dragger>
          <Typography.Paragraph type="secondary" className="corr-hint">
            {t('add.attachmentHint', { maxSize: formatSize(uploadLimit, i18n.language) })}
          </Typography.Paragraph>
          <List
            size="small"
            locale={{ emptyText: t('empty.attachments') }}
            dataSource={[
              ...attachments.map((a) => ({
                key: `a${a.id}`,
                name: a.fileName,
                size: a.size,
                saved: a.id as number | null,
                file: null as File | null,
              })),
              ...pending.map((f, i) => ({
                key: `p${i}`,
                name: f.name,
                size: f.size,
                saved: null as number | null,
                file: f as File | null,
              })),
              ...localFiles.map((f) => ({
                key: `l${f.id}`,
                name: f.name,
                size: f.size,
                saved: null as number | null,
                file: null as File | null,
              })),
            ]}
            renderItem={(row) => (
              <List.Item
                data-testid="attachment-row"
                actions={[
                  <Button
                    key="open"
                    type="text"
                    hidden={row.key.startsWith('l')}
                    icon={<EyeOutlined />}
                    aria-label={t('detail.open', { name: row.name })}
                    data-testid="attachment-open"
                    onClick={() => void show(row)}
                  />,
                  <Button
                    key="remove"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('add.removeFile', { name: row.name })}
                    onClick={async () => {
                      if (row.saved !== null && draftId) {
                        await documentsApi.removeAttachment(draftId, row.saved);
                        void draft.refetch();
                      } else if (row.key.startsWith('l')) {
                        const fileId = row.key.slice(1);
                        if (localId.current) {
                          const left = await localDrafts.removeFile(localId.current, fileId);
                          setLocalFiles(left.fileList);
                        }
                      } else {
                        queue.removePending(row.key, row.file);
                      }
                    }}
                  />,
                ]}
              >
                <span className="corr-attachment">
                  <FilePdfOutlined />
                  <bdi>{row.name}</bdi>
                  <Typography.Text type="secondary">{formatSize(row.size, i18n.language)}</Typography.Text>
                  {row.key.startsWith('l') ? (
                    <Typography.Text type="warning" data-testid="attachment-kept-locally">
                      {t('local.keptFile')}
                    </Typography.Text>
                  ) : null}
                  {row.saved === null &&
                    !row.key.startsWith('l') &&
                    (row.file && progress.has(row.file) ? (
                      <Progress
                        percent={progress.get(row.file)}
                        size="small"
                        className="corr-upload-progress"
                        data-testid="attachment-progress"
                      />
                    ) : (
                      <Typography.Text type="warning">
                        {t(
                          offline && row.file && local.kept.has(row.file)
                            ? 'local.keptFile'
                            : 'add.notSentYet',
                        )}
                      </Typography.Text>
                    ))}
                  {row.file && holders.has(row.file) && (
                    <span className="corr-already-in" data-testid="attachment-already-in">
                      <Typography.Text type="secondary">
                        {t('add.alreadyIn', { documents: documentList(holders.get(row.file)!) })}
                      </Typography.Text>
                      <Button
                        size="small"
                        icon={<LinkOutlined />}
                        data-testid="attachment-link-instead"
                        onClick={() => queue.linkInstead(row.file!)}
                      >
                        {t('add.linkInstead')}
                      </Button>
                    </span>
                  )}
                </span>
              </List.Item>
            )}
          />
        </Card>
        <Space className="corr-form-actions" wrap>
          <Button
            icon={<SaveOutlined />}
            loading={busy === 'draft'}
            disabled={busy !== null}
            onClick={() => void save(false)}
            data-testid="save-draft"
          >
            {t('add.saveDraft')}
          </Button>
          {spec.finish === 'register' && can('add') && (
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={busy === 'finish'}
              onClick={() => void save(true)}
              data-testid="register"
              disabled={busy !== null || offline}
            >
              {t('add.register')}
            </Button>
          )}
          {spec.finish === 'submit' && (
            <Button
              type="primary"
              icon={<AuditOutlined />}
              loading={busy === 'finish'}
              onClick={() => void save(true)}
              data-testid="submit-for-approval"
              disabled={busy !== null || offline}
            >
              {t('circuit.submit')}
            </Button>
          )}
          {offline ? (
            <Typography.Text type="warning" data-testid="needs-server">
              {t(spec.finish === 'register' ? 'local.registerNeedsServer' : 'local.submitNeedsServer')}
            </Typography.Text>
          ) : null}
          {local.localSavedAt ? (
            <Typography.Text type="secondary" data-testid="local-saved">
              {t('local.savedAt', { time: formatDateTime(local.localSavedAt) })}
            </Typography.Text>
          ) : null}
          {draftId !== null && family !== 'in' && draft.data && draft.data.state !== 'draft' && (
            <Link to={`${spec.awaitingPath}/${draftId}`}>{t('circuit.viewCircuit')}</Link>
          )}
        </Space>
      </Form>
      {preview.dialog}
      {circuitFor && (
        <CircuitDialog
          doc={circuitFor}
          onClose={() => setCircuitFor(null)}
          onSubmitted={(doc) => {
            setCircuitFor(null);
            setFinished(doc);
            void queryClient.invalidateQueries({ queryKey: corrKeys.all });
          }}
        />
      )}
    </CorrespondenceScreen>
  );
}
