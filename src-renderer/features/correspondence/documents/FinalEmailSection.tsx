/**
 * Sending an outgoing letter's final PDF by e-mail (issue 27), inside the final letter's card: the
 * dispatches made so far (address, sent / not sent / sending, when, why it failed) — asked again every two
 * seconds while one is being sent —, a failed one sent again, and the "Send by e-mail" dialog of its
 * archive office: the letter's receivers with their address from the directory, plus typed addresses.
 * Nothing is sent but by the clerk's own action.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, MailOutlined, PlusOutlined, RedoOutlined } from '@ant-design/icons';
import type { Rule } from 'antd/es/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Document } from '../../../../src-shared/api/correspondence';
import { emailField } from '../../../../src-shared/api/fields';
import {
  finalEndpoints as F,
  type EmailDispatch,
  type EmailDispatches,
  type SendEmailRequest,
} from '../../../../src-shared/api/final';
import { formatDateTime } from '../../../components/DataTable';
import { Ltr } from '../../../components/Bidi';
import { call } from '../../../lib/call';
import { useLocalisedForm } from '../../../lib/forms';
import { localName } from '../../../lib/names';
import { corrKeys } from './keys';

/** The server's limit of addresses in one sending. */
export const MAX_RECIPIENTS = 20;

const emailKey = corrKeys.finalEmail;

const STATE_COLORS: Record<EmailDispatch['state'], string> = {
  queued: 'blue',
  sent: 'green',
  failed: 'orange',
};

export function FinalEmailSection({ doc, onChanged }: { doc: Document; onChanged?: () => void }) {
  const { t, i18n } = useTranslation('correspondence');
  const queryClient = useQueryClient();
  const dispatches = useQuery({
    queryKey: emailKey(doc.id),
    queryFn: () => call(F.emailDispatches, { params: { id: doc.id } }),
    // Sent in the background: asked again until none is still being sent.
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.state === 'queued') ? 2000 : false),
  });
  const retry = useMutation({
    mutationFn: (dispatchId: number) => call(F.retryEmail, { params: { id: doc.id, dispatchId } }),
    onSuccess: (data) => queryClient.setQueryData(emailKey(doc.id), data),
  });
  const [sending, setSending] = useState(false);
  const data = dispatches.data;
  // Once the last one being sent is sent (or not), the document's timeline has its entries: refreshed.
  const queued = data?.items.some((d) => d.state === 'queued') ?? false;
  const wasQueued = useRef(false);
  useEffect(() => {
    if (wasQueued.current && !queued) onChanged?.();
    wasQueued.current = queued;
  }, [queued, onChanged]);
  if (!data) return null;

  const errorText = (d: EmailDispatch) =>
    d.errorCode?.startsWith('final.')
      ? t(`final.email.errors.${d.errorCode.split('.').pop()}`, { defaultValue: d.error ?? '' })
      : d.error;

  return (
    <div data-testid="final-email">
      <Typography.Title level={5}>{t('final.email.title')}</Typography.Title>
      {data.mayManage && !data.smtpReady && (
        <Alert type="info" showIcon message={t('final.email.noSmtp')} data-testid="final-email-no-smtp" />
      )}
      {data.items.length === 0 ? (
        <Typography.Paragraph type="secondary">{t('final.email.none')}</Typography.Paragraph>
      ) : (
        <Table<EmailDispatch>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={data.items}
          data-testid="final-email-list"
          columns={[
            {
              key: 'address',
              title: t('final.email.address'),
              render: (_, d) => (
                <Space orientation="vertical" size={0}>
                  <Ltr>{d.address}</Ltr>
                  {d.department && (
                    <Typography.Text type="secondary">
                      {localName(d.department, i18n.language)}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              key: 'state',
              render: (_, d) => (
                <Space orientation="vertical" size={0}>
                  <Tag color={STATE_COLORS[d.state]} data-testid={`final-email-state-${d.id}`}>
                    {t(`final.email.state.${d.state}`)}
                  </Tag>
                  {d.state === 'failed' && (
                    <Typography.Text type="danger" data-testid={`final-email-error-${d.id}`}>
                      <bdi>{errorText(d)}</bdi>
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              key: 'at',
              render: (_, d) => (
                <Space orientation="vertical" size={0}>
                  <bdi>{formatDateTime(d.sentAt ?? d.createdAt, i18n.language)}</bdi>
                  {d.attempts > 1 && (
                    <Typography.Text type="secondary">
                      {t('final.email.attempts', { count: d.attempts })}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              key: 'actions',
              render: (_, d) =>
                data.mayManage && d.state === 'failed' ? (
                  <Button
                    size="small"
                    icon={<RedoOutlined />}
                    loading={retry.isPending && retry.variables === d.id}
                    onClick={() => retry.mutate(d.id)}
                    data-testid={`final-email-retry-${d.id}`}
                  >
                    {t('final.email.retry')}
                  </Button>
                ) : null,
            },
          ]}
        />
      )}
      {data.mayManage && (
        <Button
          icon={<MailOutlined />}
          disabled={!data.smtpReady}
          onClick={() => setSending(true)}
          data-testid="final-email-send"
        >
          {t('final.email.send')}
        </Button>
      )}
      {sending && (
        <SendEmailDialog
          docId={doc.id}
          receivers={data.receivers}
          onClose={() => setSending(false)}
          onSent={(answer) => {
            queryClient.setQueryData(emailKey(doc.id), answer);
            setSending(false);
          }}
        />
      )}
    </div>
  );
}

interface SendValues {
  receivers: { departmentId: number; checked: boolean; address?: string }[];
  others: { address?: string }[];
}

/** The addresses the form would send to, in its order (unchecked receivers and blank rows left out). */
export function recipientsOf(values: Partial<SendValues>): SendEmailRequest['recipients'] {
  const chosen = (values.receivers ?? [])
    .filter((r) => r.checked && r.address?.trim())
    .map((r) => ({ departmentId: r.departmentId, address: r.address!.trim() }));
  const typed = (values.others ?? [])
    .filter((o) => o.address?.trim())
    .map((o) => ({ address: o.address!.trim() }));
  return [...chosen, ...typed];
}

/** The "Send by e-mail" dialog: the receivers (their directory address prefilled, editable) and other addresses. */
export function SendEmailDialog({
  docId,
  receivers,
  onClose,
  onSent,
}: {
  docId: number;
  receivers: EmailDispatches['receivers'];
  onClose: () => void;
  onSent: (answer: EmailDispatches) => void;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [form] = useLocalisedForm<SendValues>();
  const [problem, setProblem] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (recipients: SendEmailRequest['recipients']) =>
      call(F.sendEmail, { params: { id: docId }, body: { recipients } }),
  });

  /**
   * An address: well formed, and not twice in what would be sent. A receiver's is checked when the
   * receiver is; a blank typed row is left out.
   */
  const addressRule =
    (included: (values: Partial<SendValues>, address: string) => boolean): Rule =>
    ({ getFieldsValue }) => ({
      validator: async (_rule, value: string | undefined) => {
        const values = getFieldsValue(true) as Partial<SendValues>;
        const address = value?.trim() ?? '';
        if (!included(values, address)) return;
        if (!address || !emailField.safeParse(address).success) throw new Error(t('final.email.badAddress'));
        const same = recipientsOf(values).filter((r) => r.address.toLowerCase() === address.toLowerCase());
        if (same.length > 1) throw new Error(t('final.email.duplicate'));
      },
    });

  const submit = async () => {
    setProblem(null);
    if (
      !(await form.validateFields().then(
        () => true,
        () => false,
      ))
    )
      return;
    // Every value, the receivers' departments (held by the form, not shown as fields) included.
    const recipients = recipientsOf(form.getFieldsValue(true) as SendValues);
    if (recipients.length === 0) return setProblem(t('final.email.chooseOne'));
    if (recipients.length > MAX_RECIPIENTS)
      return setProblem(t('final.email.tooMany', { max: MAX_RECIPIENTS }));
    try {
      onSent(await send.mutateAsync(recipients));
    } catch {
      // The server's refusal is said in the toast; the dialog stays open.
    }
  };

  return (
    <Modal
      open
      title={t('final.email.sendTitle')}
      okText={t('final.email.sendConfirm')}
      okButtonProps={{
        loading: send.isPending,
        ...({ 'data-testid': 'final-email-send-ok' } as Record<string, string>),
      }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      <Typography.Paragraph type="secondary">{t('final.email.sendText')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        data-testid="final-email-form"
        initialValues={{
          receivers: receivers.map((r) => ({
            departmentId: r.id,
            checked: r.email !== null,
            address: r.email ?? '',
          })),
          others: receivers.some((r) => r.email !== null) ? [] : [{ address: '' }],
        }}
        onValuesChange={() => setProblem(null)}
      >
        {receivers.length > 0 && <Typography.Text strong>{t('final.email.receivers')}</Typography.Text>}
        <Form.List name="receivers">
          {(fields) =>
            fields.map((field, i) => {
              const receiver = receivers[i]!;
              return (
                <Space key={field.key} align="start" wrap data-testid={`final-email-receiver-${receiver.id}`}>
                  <Form.Item name={[field.name, 'checked']} valuePropName="checked">
                    <Checkbox data-testid={`final-email-receiver-check-${receiver.id}`}>
                      {localName(receiver, i18n.language)}
                    </Checkbox>
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'address']}
                    dependencies={[['receivers', field.name, 'checked']]}
                    rules={[addressRule((v) => v.receivers?.[field.name]?.checked === true)]}
                    extra={receiver.email === null ? t('final.email.noReceiverEmail') : undefined}
                  >
                    <Input
                      dir="ltr"
                      type="email"
                      maxLength={254}
                      aria-label={t('final.email.address')}
                      data-testid={`final-email-receiver-address-${receiver.id}`}
                    />
                  </Form.Item>
                </Space>
              );
            })
          }
        </Form.List>
        <Typography.Text strong>{t('final.email.otherAddresses')}</Typography.Text>
        <Form.List name="others">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, i) => (
                <Space key={field.key} align="start">
                  <Form.Item
                    name={[field.name, 'address']}
                    rules={[addressRule((_values, address) => address !== '')]}
                  >
                    <Input
                      dir="ltr"
                      type="email"
                      maxLength={254}
                      aria-label={t('final.email.address')}
                      data-testid={`final-email-other-${i}`}
                    />
                  </Form.Item>
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('final.email.removeAddress')}
                    onClick={() => remove(field.name)}
                  />
                </Space>
              ))}
              <Form.Item>
                <Button
                  icon={<PlusOutlined />}
                  onClick={() => add({ address: '' })}
                  data-testid="final-email-add"
                >
                  {t('final.email.addAddress')}
                </Button>
              </Form.Item>
            </>
          )}
        </Form.List>
      </Form>
      {problem && <Alert type="error" showIcon message={problem} data-testid="final-email-problem" />}
    </Modal>
  );
}
