/**
 * The organisation's settings for the letters it sends (issue 27): the stamp's corner, digits and
 * heading, the public address of the verification page its QR codes lead to, and the signing
 * certificate (a PKCS#12 file and its password, checked by the server and kept sealed: only its summary
 * comes back), and the SMTP server final letters are e-mailed through (its password kept sealed too: the
 * screen only knows whether one is set), with a test of the connection.
 */
import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Select,
  Space,
  Spin,
  Switch,
  Typography,
  Upload,
} from 'antd';
import {
  ApiOutlined,
  DeleteOutlined,
  MailOutlined,
  SafetyCertificateOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  DIGIT_STYLES,
  SMTP_SECURITY,
  STAMP_CORNERS,
  finalEndpoints as F,
  smtpRequestSchema,
  type LetterSettings,
  type LetterSettingsRequest,
  type SmtpCheck,
  type SmtpRequest,
} from '../../../../src-shared/api/final';
import { PAGES } from '../../../../src-shared/pages';
import { useCanOn } from '../../../app/permissions';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { LoadFailed } from '../../../components/LoadFailed';
import { formatDateTime } from '../../../components/DataTable';
import { call } from '../../../lib/call';
import { corrKeys } from '../documents/keys';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';

const KEY = ['correspondence', 'letter-settings'] as const;
/** The largest PKCS#12 file accepted (the server's limit, in bytes). */
const MAX_P12 = 64 * 1024;

type StampValues = Omit<LetterSettingsRequest, 'stampHeadingAr' | 'stampHeadingEn' | 'verifyBaseUrl'> & {
  stampHeadingAr?: string;
  stampHeadingEn?: string;
  verifyBaseUrl?: string;
};

export function Component() {
  const { t } = useTranslation('correspondence');
  const settings = useQuery({ queryKey: KEY, queryFn: () => call(F.letterSettings) });
  const mayEdit = useCanOn(PAGES.letterSettings, 'edit');
  return (
    <CorrespondenceScreen testId="letter-settings" subtitle={t('letterSettings.description')}>
      {settings.isLoading ? (
        <Spin />
      ) : !settings.data ? (
        <LoadFailed onRetry={() => void settings.refetch()} testId="letter-settings-failed" />
      ) : (
        <div className="corr-stack">
          <StampCard settings={settings.data} mayEdit={mayEdit} />
          <CertificateCard settings={settings.data} mayEdit={mayEdit} />
          <SmtpCard settings={settings.data} mayEdit={mayEdit} />
        </div>
      )}
    </CorrespondenceScreen>
  );
}

function StampCard({ settings, mayEdit }: { settings: LetterSettings; mayEdit: boolean }) {
  const { t } = useTranslation('correspondence');
  const queryClient = useQueryClient();
  const [form] = useLocalisedForm<StampValues>();
  useEffect(() => {
    form.setFieldsValue({
      stampCorner: settings.stampCorner,
      stampDigits: settings.stampDigits,
      stampHeadingAr: settings.stampHeadingAr ?? '',
      stampHeadingEn: settings.stampHeadingEn ?? '',
      verifyBaseUrl: settings.verifyBaseUrl ?? '',
    });
  }, [form, settings]);
  const save = useMutation({
    mutationFn: (body: LetterSettingsRequest) => call(F.saveLetterSettings, { body }),
    onSuccess: (data) => {
      queryClient.setQueryData(KEY, data);
      // The letters' verification links follow the public address.
      void queryClient.invalidateQueries({ predicate: (q) => corrKeys.isFinal(q.queryKey) });
    },
  });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const blank = (s: string | undefined) => (s?.trim() ? s.trim() : null);
    try {
      await save.mutateAsync({
        stampCorner: v.stampCorner,
        stampDigits: v.stampDigits,
        stampHeadingAr: blank(v.stampHeadingAr),
        stampHeadingEn: blank(v.stampHeadingEn),
        verifyBaseUrl: blank(v.verifyBaseUrl),
      });
    } catch (error) {
      applyServerErrors(form, error);
    }
  };
  return (
    <Card size="small" title={t('letterSettings.stamp')} data-testid="letter-stamp-card">
      <Form form={form} layout="vertical" disabled={!mayEdit} className="corr-letter-form">
        <Form.Item name="stampCorner" label={t('letterSettings.corner')}>
          <Radio.Group
            optionType="button"
            options={STAMP_CORNERS.map((c) => ({ value: c, label: t(`letterSettings.corners.${c}`) }))}
            data-testid="letter-corner"
          />
        </Form.Item>
        <Form.Item name="stampDigits" label={t('letterSettings.digits')}>
          <Radio.Group
            optionType="button"
            options={DIGIT_STYLES.map((d) => ({ value: d, label: t(`letterSettings.digitStyles.${d}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="stampHeadingAr"
          label={t('letterSettings.headingAr')}
          extra={t('letterSettings.headingHint')}
        >
          <Input maxLength={60} dir="rtl" lang="ar" placeholder="صادر" />
        </Form.Item>
        <Form.Item name="stampHeadingEn" label={t('letterSettings.headingEn')}>
          <Input maxLength={60} dir="ltr" lang="en" placeholder="Outgoing" />
        </Form.Item>
        <Form.Item
          name="verifyBaseUrl"
          label={t('letterSettings.verifyBaseUrl')}
          extra={t('letterSettings.verifyBaseUrlHint')}
          rules={[{ type: 'url', message: t('letterSettings.badAddress') }]}
        >
          <Input
            maxLength={200}
            dir="ltr"
            placeholder="https://sijill.example.gov"
            data-testid="letter-verify-url"
          />
        </Form.Item>
        {mayEdit && (
          <Button
            type="primary"
            onClick={() => void submit()}
            loading={save.isPending}
            data-testid="letter-save"
          >
            {t('letterSettings.save')}
          </Button>
        )}
      </Form>
    </Card>
  );
}

/** Reads a chosen file as base64 (the certificate goes in a JSON body). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function CertificateCard({ settings, mayEdit }: { settings: LetterSettings; mayEdit: boolean }) {
  const { t, i18n } = useTranslation('correspondence');
  const queryClient = useQueryClient();
  const [form] = useLocalisedForm<{ password?: string }>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const set = useMutation({
    mutationFn: async ({ chosen, password }: { chosen: File; password: string }) =>
      call(F.setCertificate, { body: { pkcs12: await base64Of(chosen), password } }),
    onSuccess: (data) => {
      queryClient.setQueryData(KEY, data);
      setFile(null);
      form.resetFields();
    },
  });
  const remove = useMutation({
    mutationFn: () => call(F.removeCertificate),
    onSuccess: (data) => queryClient.setQueryData(KEY, data),
  });
  const upload = async () => {
    if (!file) {
      setFileError(t('letterSettings.chooseFile'));
      return;
    }
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    try {
      await set.mutateAsync({ chosen: file, password: v.password ?? '' });
    } catch (error) {
      // The certificate's problem (wrong password, expired…) is said by the server, in the toast.
      applyServerErrors(form, error);
    }
  };
  const c = settings.certificate;
  return (
    <Card
      size="small"
      title={t('letterSettings.certificate')}
      data-testid="letter-certificate-card"
      extra={<SafetyCertificateOutlined />}
    >
      {c ? (
        <Descriptions
          size="small"
          column={1}
          data-testid="certificate-summary"
          items={[
            { key: 's', label: t('letterSettings.subject'), children: <bdi>{c.subject}</bdi> },
            { key: 'i', label: t('letterSettings.issuer'), children: <bdi>{c.issuer}</bdi> },
            {
              key: 'v',
              label: t('letterSettings.validity'),
              children: `${formatDateTime(c.notBefore, i18n.language)} — ${formatDateTime(c.notAfter, i18n.language)}`,
            },
            {
              key: 'f',
              label: t('letterSettings.fingerprint'),
              children: (
                <Typography.Text code className="corr-hash" dir="ltr">
                  {c.sha256Fingerprint}
                </Typography.Text>
              ),
            },
          ]}
        />
      ) : (
        <Alert
          type="info"
          showIcon
          message={t('letterSettings.noCertificate')}
          data-testid="certificate-none"
        />
      )}
      {mayEdit && (
        <Form form={form} layout="vertical" className="corr-letter-form">
          <Form.Item
            label={c ? t('letterSettings.replace') : t('letterSettings.upload')}
            validateStatus={fileError ? 'error' : undefined}
            help={fileError ?? t('letterSettings.uploadHint')}
          >
            <Upload
              accept=".p12,.pfx,application/x-pkcs12"
              maxCount={1}
              beforeUpload={(chosen) => {
                if (chosen.size > MAX_P12) {
                  setFileError(t('letterSettings.tooBig'));
                  return Upload.LIST_IGNORE;
                }
                setFile(chosen);
                setFileError(null);
                return false;
              }}
              onRemove={() => setFile(null)}
              fileList={file ? [{ uid: 'p12', name: file.name, status: 'done' }] : []}
            >
              <Button icon={<UploadOutlined />} data-testid="certificate-choose">
                {t('letterSettings.chooseFile')}
              </Button>
            </Upload>
          </Form.Item>
          <Form.Item name="password" label={t('letterSettings.password')}>
            <Input.Password autoComplete="off" maxLength={200} data-testid="certificate-password" />
          </Form.Item>
          <Button
            type="primary"
            onClick={() => void upload()}
            loading={set.isPending}
            data-testid="certificate-upload"
          >
            {t('letterSettings.setCertificate')}
          </Button>{' '}
          {c && (
            <Popconfirm
              title={t('letterSettings.removeConfirm')}
              onConfirm={() => remove.mutateAsync().catch(() => undefined)}
            >
              <Button danger icon={<DeleteOutlined />} data-testid="certificate-remove">
                {t('letterSettings.remove')}
              </Button>
            </Popconfirm>
          )}
        </Form>
      )}
    </Card>
  );
}

interface SmtpValues {
  host?: string;
  port?: number;
  security: SmtpRequest['security'];
  username?: string;
  password?: string;
  clearPassword?: boolean;
  fromAddress?: string;
  fromName?: string;
  allowSelfSigned: boolean;
}

const smtpFields = smtpRequestSchema.shape;

/** An antd rule checking a field with the server's schema; `message` says what is wrong. */
const schemaRule = (schema: { safeParse(v: unknown): { success: boolean } }, message: string) => ({
  validator: async (_rule: unknown, value: unknown) => {
    if (!schema.safeParse(value).success) throw new Error(message);
  },
});

function SmtpCard({ settings, mayEdit }: { settings: LetterSettings; mayEdit: boolean }) {
  const { t } = useTranslation('correspondence');
  const queryClient = useQueryClient();
  const [form] = useLocalisedForm<SmtpValues>();
  const [check, setCheck] = useState<SmtpCheck | null>(null);
  const smtp = settings.smtp;
  useEffect(() => {
    form.setFieldsValue({
      host: smtp?.host ?? '',
      port: smtp?.port ?? 587,
      security: smtp?.security ?? 'starttls',
      username: smtp?.username ?? '',
      password: '',
      clearPassword: false,
      fromAddress: smtp?.fromAddress ?? '',
      fromName: smtp?.fromName ?? '',
      allowSelfSigned: smtp?.allowSelfSigned ?? false,
    });
  }, [form, smtp]);
  const allowSelfSigned = Form.useWatch('allowSelfSigned', form);
  const clearPassword = Form.useWatch('clearPassword', form);
  const save = useMutation({
    mutationFn: (body: SmtpRequest) => call(F.saveSmtp, { body }),
    onSuccess: (data) => {
      queryClient.setQueryData(KEY, data);
      // Letters' e-mail sections say whether e-mail is set up: they ask again.
      void queryClient.invalidateQueries({ predicate: (q) => corrKeys.isFinalEmail(q.queryKey) });
      setCheck(null);
    },
  });
  const remove = useMutation({
    mutationFn: () => call(F.removeSmtp),
    onSuccess: (data) => {
      queryClient.setQueryData(KEY, data);
      void queryClient.invalidateQueries({ predicate: (q) => corrKeys.isFinalEmail(q.queryKey) });
      setCheck(null);
    },
  });
  const test = useMutation({
    mutationFn: () => call(F.checkSmtp),
    onSuccess: (data) => setCheck(data),
  });
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const blank = (s: string | undefined) => (s?.trim() ? s.trim() : null);
    // An empty password field keeps the stored one; "clear" removes it.
    const password = v.clearPassword ? null : v.password ? v.password : smtp?.passwordSet ? undefined : null;
    try {
      await save.mutateAsync({
        host: v.host?.trim() ?? '',
        port: v.port ?? 0,
        security: v.security,
        username: blank(v.username),
        ...(password === undefined ? {} : { password }),
        fromAddress: v.fromAddress?.trim() ?? '',
        fromName: blank(v.fromName),
        allowSelfSigned: v.allowSelfSigned,
      });
    } catch (error) {
      applyServerErrors(form, error);
    }
  };
  return (
    <Card
      size="small"
      title={t('letterSettings.smtp.title')}
      data-testid="letter-smtp-card"
      extra={<MailOutlined />}
    >
      <Typography.Paragraph type="secondary">{t('letterSettings.smtp.hint')}</Typography.Paragraph>
      {!smtp && (
        <Alert type="info" showIcon message={t('letterSettings.smtp.none')} data-testid="smtp-none" />
      )}
      <Form form={form} layout="vertical" disabled={!mayEdit} className="corr-letter-form">
        <Space wrap align="start">
          <Form.Item
            name="host"
            label={t('letterSettings.smtp.host')}
            rules={[schemaRule(smtpFields.host, t('letterSettings.smtp.badHost'))]}
          >
            <Input dir="ltr" maxLength={253} placeholder="smtp.example.gov" data-testid="smtp-host" />
          </Form.Item>
          <Form.Item
            name="port"
            label={t('letterSettings.smtp.port')}
            rules={[schemaRule(smtpFields.port, t('letterSettings.smtp.badPort'))]}
          >
            <InputNumber min={1} max={65535} precision={0} dir="ltr" data-testid="smtp-port" />
          </Form.Item>
        </Space>
        <Form.Item name="security" label={t('letterSettings.smtp.security')}>
          <Select
            data-testid="smtp-security"
            options={SMTP_SECURITY.map((s) => ({
              value: s,
              label: t(`letterSettings.smtp.securities.${s}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="username"
          label={t('letterSettings.smtp.username')}
          extra={t('letterSettings.smtp.usernameHint')}
        >
          <Input dir="ltr" maxLength={320} autoComplete="off" data-testid="smtp-username" />
        </Form.Item>
        <Form.Item name="password" label={t('letterSettings.smtp.password')}>
          <Input.Password
            dir="ltr"
            maxLength={1024}
            autoComplete="new-password"
            disabled={!mayEdit || clearPassword === true}
            placeholder={smtp?.passwordSet ? t('letterSettings.smtp.passwordUnchanged') : undefined}
            data-testid="smtp-password"
          />
        </Form.Item>
        {smtp?.passwordSet && (
          <Form.Item name="clearPassword" valuePropName="checked">
            <Checkbox data-testid="smtp-clear-password">{t('letterSettings.smtp.clearPassword')}</Checkbox>
          </Form.Item>
        )}
        <Form.Item
          name="fromAddress"
          label={t('letterSettings.smtp.fromAddress')}
          rules={[schemaRule(smtpFields.fromAddress, t('final.email.badAddress'))]}
        >
          <Input dir="ltr" type="email" maxLength={254} data-testid="smtp-from-address" />
        </Form.Item>
        <Form.Item name="fromName" label={t('letterSettings.smtp.fromName')}>
          <Input maxLength={200} data-testid="smtp-from-name" />
        </Form.Item>
        <Form.Item
          name="allowSelfSigned"
          label={t('letterSettings.smtp.allowSelfSigned')}
          valuePropName="checked"
          extra={
            allowSelfSigned ? (
              <Typography.Text type="warning">
                {t('letterSettings.smtp.allowSelfSignedWarning')}
              </Typography.Text>
            ) : undefined
          }
        >
          <Switch data-testid="smtp-allow-self-signed" />
        </Form.Item>
      </Form>
      {check && (
        <Alert
          type={check.ok ? 'success' : 'error'}
          showIcon
          data-testid="smtp-check-result"
          message={check.ok ? t('letterSettings.smtp.checkOk') : t('letterSettings.smtp.checkFailed')}
          description={
            check.ok ? undefined : (
              <bdi dir="ltr">
                {check.error}
                {check.code ? ` (${check.code})` : ''}
              </bdi>
            )
          }
        />
      )}
      {mayEdit && (
        <Space wrap>
          <Button
            type="primary"
            onClick={() => void submit()}
            loading={save.isPending}
            data-testid="smtp-save"
          >
            {t('letterSettings.smtp.save')}
          </Button>
          {smtp && (
            <Button
              icon={<ApiOutlined />}
              title={t('letterSettings.smtp.checkHint')}
              onClick={() => test.mutate()}
              loading={test.isPending}
              data-testid="smtp-check"
            >
              {t('letterSettings.smtp.check')}
            </Button>
          )}
          {smtp && (
            <Popconfirm
              title={t('letterSettings.smtp.removeConfirm')}
              onConfirm={() => remove.mutateAsync().catch(() => undefined)}
            >
              <Button danger icon={<DeleteOutlined />} data-testid="smtp-remove">
                {t('letterSettings.smtp.remove')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      )}
    </Card>
  );
}
