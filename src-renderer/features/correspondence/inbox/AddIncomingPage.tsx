/**
 * Inbox — add an incoming letter (/correspondence/inbox/add), and continue a draft
 * (/correspondence/inbox/add?draft={id}). Every field of specification section 3 for an incoming
 * document; sender (external) and recipient department (internal) through the department picker;
 * related documents searched and linked; PDF attachments checked by content and size before they are
 * sent through `api:upload`. "Save draft" keeps it without a number; "Register" saves, attaches and
 * registers it, then shows the number the server gave.
 */
import { useEffect, useRef, useState } from 'react';
import { App, Button, Card, DatePicker, Form, Input, List, Result, Space, Typography, Upload } from 'antd';
import type { Rule } from 'antd/es/form';
import {
  DeleteOutlined,
  FilePdfOutlined,
  PaperClipOutlined,
  SaveOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import type { CreateDocumentRequest, Document } from '../../../../src-shared/api/correspondence';
import { DATE_FORMAT } from '../../../components/DataTable';
import { formatSize } from '../../../components/upload/transfer';
import { applyServerErrors } from '../../../lib/forms';
import { useCan } from '../../../lib/usePermission';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { RelatedSelect } from '../shared/RelatedSelect';
import { SettingSelect } from '../shared/SettingSelect';
import { corrKeys, documentsApi } from '../shared/api';
import { ATTACHMENT_MAX_BYTES } from '../shared/attachments';
import { pdfFileProblem } from '../../../components/upload/transfer';
import { DepartmentSelect } from '../shared/pickers';

interface IncomingFormValues {
  codificationId?: number | null;
  subject?: string;
  summary?: string;
  senderDepartmentId?: number | null;
  senderDocumentNumber?: string;
  receiver?: string;
  documentDate?: Dayjs | null;
  receivedDate?: Dayjs | null;
  recipientDepartmentId?: number | null;
  securityLevelId?: number | null;
  priorityId?: number | null;
  mediumId?: number | null;
  grouping?: string;
  relatedIds?: number[];
}

const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);
const day = (value: Dayjs | null | undefined) => (value ? value.format('YYYY-MM-DD') : null);

/** The form's values as the API's document fields. */
export function toDocumentFields(values: IncomingFormValues) {
  return {
    subject: values.subject?.trim() ?? '',
    summary: text(values.summary),
    senderDepartmentId: values.senderDepartmentId ?? null,
    senderDocumentNumber: text(values.senderDocumentNumber),
    receiver: text(values.receiver),
    documentDate: day(values.documentDate),
    receivedDate: day(values.receivedDate),
    recipientDepartmentId: values.recipientDepartmentId ?? null,
    codificationId: values.codificationId ?? null,
    securityLevelId: values.securityLevelId ?? null,
    priorityId: values.priorityId ?? null,
    mediumId: values.mediumId ?? null,
    grouping: text(values.grouping),
  };
}

/** A document's fields as the form's values (continuing a draft). */
function toFormValues(doc: Document): IncomingFormValues {
  return {
    codificationId: doc.codification?.id ?? null,
    subject: doc.subject,
    summary: doc.summary ?? '',
    senderDepartmentId: doc.sender?.id ?? null,
    senderDocumentNumber: doc.senderDocumentNumber ?? '',
    receiver: doc.receiver ?? '',
    documentDate: doc.documentDate ? dayjs(doc.documentDate) : null,
    receivedDate: doc.receivedDate ? dayjs(doc.receivedDate) : null,
    recipientDepartmentId: doc.recipientDepartment?.id ?? null,
    securityLevelId: doc.securityLevel?.id ?? null,
    priorityId: doc.priority?.id ?? null,
    mediumId: doc.medium?.id ?? null,
    grouping: doc.grouping ?? '',
    relatedIds: doc.related.map((r) => r.id),
  };
}

/** The route's screen. */
export function Component() {
  const { t, i18n } = useTranslation('correspondence');
  const { message } = App.useApp();
  const can = useCan();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const draftId = Number(params.get('draft')) || null;
  const [form] = Form.useForm<IncomingFormValues>();
  const registering = useRef(false);
  const [busy, setBusy] = useState<'draft' | 'register' | null>(null);
  const [pending, setPending] = useState<File[]>([]);
  const [registered, setRegistered] = useState<Document | null>(null);

  const draft = useQuery({
    queryKey: corrKeys.document(draftId ?? 0),
    queryFn: () => documentsApi.get(draftId!),
    enabled: draftId !== null,
  });
  useEffect(() => {
    if (draft.data) form.setFieldsValue(toFormValues(draft.data));
  }, [draft.data, form]);
  useEffect(() => {
    if (draftId === null) {
      form.resetFields();
      form.setFieldsValue({ receivedDate: dayjs() });
    }
  }, [draftId, form]);

  // Required always (subject) or only when registering (the rest of REGISTER_REQUIRED).
  const requiredRule = (always = false): Rule => ({
    validator: async (_rule, value: unknown) => {
      if (!always && !registering.current) return;
      const blank = value === undefined || value === null || (typeof value === 'string' && !value.trim());
      if (blank) throw new Error(t('validation.required'));
    },
  });
  const maxRule = (max: number): Rule => ({ max, message: t('validation.maxLength', { max }) });

  const chooseFile = async (file: File) => {
    const problem = await pdfFileProblem(file, ATTACHMENT_MAX_BYTES, i18n.language);
    if (problem) {
      void message.error(problem);
    } else {
      setPending((files) => [...files, file]);
    }
    return Upload.LIST_IGNORE;
  };

  const save = async (register: boolean) => {
    registering.current = register;
    try {
      await form.validateFields();
    } catch {
      return;
    } finally {
      registering.current = false;
    }
    const values = form.getFieldsValue(true) as IncomingFormValues;
    setBusy(register ? 'register' : 'draft');
    try {
      const fields = toDocumentFields(values);
      let doc: Document;
      if (draftId) {
        doc = await documentsApi.update(draftId, fields);
        const before = new Set(draft.data?.related.map((r) => r.id));
        const added = (values.relatedIds ?? []).filter((id) => !before.has(id));
        if (added.length > 0) await documentsApi.relate(draftId, added);
      } else {
        const body: CreateDocumentRequest = {
          direction: 'in',
          ...fields,
          relatedIds: values.relatedIds ?? [],
          register: false,
        };
        doc = await documentsApi.create(body);
      }
      for (const file of pending) await documentsApi.uploadAttachment(doc.id, file);
      setPending([]);
      if (register) {
        doc = await documentsApi.register(doc.id);
        setRegistered(doc);
      } else if (!draftId) {
        setParams({ draft: String(doc.id) }, { replace: true });
      }
      void queryClient.invalidateQueries({ queryKey: corrKeys.all });
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setBusy(null);
    }
  };

  if (registered) {
    return (
      <CorrespondenceScreen testId="incoming-add">
        <Card>
          <Result
            status="success"
            title={t('add.registeredTitle')}
            subTitle={
              <span data-testid="registered-number">
                {t('add.registeredNumber')} <bdi className="corr-number">{registered.docNumber}</bdi>
              </span>
            }
            extra={[
              <Button
                key="open"
                type="primary"
                onClick={() => void navigate(`/correspondence/inbox/incoming/${registered.id}`)}
                data-testid="registered-open"
              >
                {t('add.openDocument')}
              </Button>,
              <Button
                key="another"
                onClick={() => {
                  setRegistered(null);
                  setParams({}, { replace: true });
                  form.resetFields();
                  form.setFieldsValue({ receivedDate: dayjs() });
                }}
              >
                {t('add.another')}
              </Button>,
            ]}
          />
        </Card>
      </CorrespondenceScreen>
    );
  }

  const attachments = draft.data?.attachments ?? [];
  return (
    <CorrespondenceScreen
      testId="incoming-add"
      title={draftId ? t('add.draftTitle') : undefined}
      subtitle={t('add.description')}
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="incoming-form"
        disabled={draftId !== null && draft.isLoading}
      >
        <Card title={t('add.sections.document')} className="corr-card">
          <div className="corr-form-grid">
            <Form.Item
              name="codificationId"
              label={t('fields.codification')}
              required
              rules={[requiredRule()]}
            >
              <SettingSelect list="codifications" direction="in" testId="field-codification" required />
            </Form.Item>
            <Form.Item name="documentDate" label={t('fields.documentDate')} required rules={[requiredRule()]}>
              <DatePicker format={DATE_FORMAT} className="corr-full" data-testid="field-document-date" />
            </Form.Item>
            <Form.Item name="receivedDate" label={t('fields.receivedDate')}>
              <DatePicker format={DATE_FORMAT} className="corr-full" data-testid="field-received-date" />
            </Form.Item>
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
              label={t('fields.summary')}
              className="corr-form-wide"
              rules={[maxRule(10000)]}
            >
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} data-testid="field-summary" />
            </Form.Item>
          </div>
        </Card>
        <Card title={t('add.sections.parties')} className="corr-card">
          <div className="corr-form-grid">
            <Form.Item name="senderDepartmentId" label={t('fields.sender')} required rules={[requiredRule()]}>
              <DepartmentSelect
                type="external"
                testId="field-sender"
                placeholder={t('form.senderPlaceholder')}
              />
            </Form.Item>
            <Form.Item
              name="senderDocumentNumber"
              label={t('fields.senderDocumentNumber')}
              rules={[maxRule(100)]}
            >
              <Input dir="auto" data-testid="field-sender-number" />
            </Form.Item>
            <Form.Item
              name="recipientDepartmentId"
              label={t('fields.recipientDepartment')}
              required
              rules={[requiredRule()]}
            >
              <DepartmentSelect
                type="internal"
                testId="field-recipient"
                placeholder={t('form.recipientPlaceholder')}
              />
            </Form.Item>
            <Form.Item name="receiver" label={t('fields.receiver')} rules={[maxRule(200)]}>
              <Input data-testid="field-receiver" />
            </Form.Item>
          </div>
        </Card>
        <Card title={t('add.sections.classification')} className="corr-card">
          <div className="corr-form-grid">
            <Form.Item name="securityLevelId" label={t('fields.securityLevel')}>
              <SettingSelect list="security-levels" testId="field-security-level" />
            </Form.Item>
            <Form.Item name="priorityId" label={t('fields.priority')}>
              <SettingSelect list="priorities" testId="field-priority" />
            </Form.Item>
            <Form.Item name="mediumId" label={t('fields.medium')}>
              <SettingSelect list="mediums" testId="field-medium" />
            </Form.Item>
            <Form.Item name="grouping" label={t('fields.grouping')} rules={[maxRule(200)]}>
              <Input data-testid="field-grouping" />
            </Form.Item>
            <Form.Item name="relatedIds" label={t('fields.related')} className="corr-form-wide">
              <RelatedSelect excludeId={draftId ?? undefined} testId="field-related" />
            </Form.Item>
          </div>
        </Card>
        <Card title={t('fields.attachments')} className="corr-card">
          <Upload
            accept="application/pdf,.pdf"
            multiple
            showUploadList={false}
            beforeUpload={(file) => chooseFile(file)}
          >
            <Button icon={<PaperClipOutlined />} data-testid="attachment-choose">
              {t('add.chooseFile')}
            </Button>
          </Upload>
          <Typography.Paragraph type="secondary" className="corr-hint">
            {t('add.attachmentHint', { maxSize: formatSize(20 * 1024 * 1024, i18n.language) })}
          </Typography.Paragraph>
          <List
            size="small"
            locale={{ emptyText: t('empty.attachments') }}
            dataSource={[
              ...attachments.map((a) => ({ key: `a${a.id}`, name: a.fileName, size: a.size, saved: a.id })),
              ...pending.map((f, i) => ({
                key: `p${i}`,
                name: f.name,
                size: f.size,
                saved: null as number | null,
              })),
            ]}
            renderItem={(row) => (
              <List.Item
                data-testid="attachment-row"
                actions={[
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
                      } else {
                        setPending((files) => files.filter((f, i) => `p${i}` !== row.key));
                      }
                    }}
                  />,
                ]}
              >
                <span className="corr-attachment">
                  <FilePdfOutlined />
                  <bdi>{row.name}</bdi>
                  <Typography.Text type="secondary">{formatSize(row.size, i18n.language)}</Typography.Text>
                  {row.saved === null && (
                    <Typography.Text type="warning">{t('add.notSentYet')}</Typography.Text>
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
          {can('add') && (
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={busy === 'register'}
              disabled={busy !== null}
              onClick={() => void save(true)}
              data-testid="register"
            >
              {t('add.register')}
            </Button>
          )}
        </Space>
      </Form>
    </CorrespondenceScreen>
  );
}
