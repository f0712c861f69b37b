/**
 * /user/settings: the user's information, their display settings (date format, digits, home page: kept
 * with their account), changing the password, enabling two-factor (QR code, then a
 * code, then the recovery codes shown once), disabling it and regenerating recovery codes (with a code
 * or the password). Server field errors show under their fields.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Flex,
  Form,
  Input,
  Radio,
  Select,
  Space,
  Tag,
  Typography,
  type FormInstance,
} from 'antd';
import { PrinterOutlined, SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  authEndpoints,
  type PreferencesRequest,
  type RecoveryCodes,
  type TwoFactorSetup,
} from '../../../src-shared/api/auth';
import { PASSWORD_MIN } from '../../lib/limits';
import { getBridge } from '../../lib/bridge';
import { call } from '../../lib/call';
import { ApiError } from '../../lib/http';
import { toast } from '../../lib/toast';
import { useLocale } from '../../app/locale';
import { savePreferences, sessionActions, useSession } from '../../app/session';
import { RecoveryCodesDialog } from '../../components/RecoveryCodes';
import { StationCard } from './StationCard';
import { printSeparatorSheet } from '../../components/pdf/paper';
import { LABEL_SIZES, type LabelSize } from '../../../src-shared/paper-codes';
import type { Printers } from '../../../src-shared/ipc/contract';
import {
  applyPreferences,
  DATE_FORMAT,
  digitStyle,
  formatDate,
  formatNumber,
  setDigitStyle,
  type DigitStyle,
} from '../../lib/format';
import { DATE_FORMATS, type DateFormat } from '../../../src-shared/preferences';
import { useLocalisedForm } from '../../lib/forms';

/**
 * The user's own display settings, kept with their account (they follow the user to any desk): the date
 * format (the specification's mm/dd/yy by default, or a four-digit year), the digits of Arabic screens,
 * and the home page `/` leads to. Each applies at once and is saved; a save the server refuses puts the
 * setting back as it was.
 */
function DisplayCard() {
  const { t, i18n } = useTranslation('user');
  const { user, sections } = useSession();
  const preferences = user?.preferences ?? {};
  const [digits, setDigits] = useState<DigitStyle>(digitStyle());
  const [dateFormat, setDateFormat] = useState<DateFormat>(DATE_FORMAT);
  const [home, setHome] = useState<string>(preferences.homePage ?? '');
  /** Saves one after the other (quick clicks keep their order); a refusal undoes its own change. */
  const saving = useRef<Promise<void>>(Promise.resolve());
  const save = (change: PreferencesRequest, undo: () => void) => {
    saving.current = saving.current.then(
      () => savePreferences(change).catch(() => undo()), // the error was said (toast); the setting is as before
    );
  };
  const pages = (sections ?? []).flatMap((section) =>
    section.children.map((page) => ({
      value: page.path,
      label: `${i18n.language === 'ar' ? section.nameAr : section.nameEn} › ${
        i18n.language === 'ar' ? page.nameAr : page.nameEn
      }`,
    })),
  );
  const sample = new Date(2026, 10, 24);
  return (
    <Card title={t('display.title')} data-testid="display-card">
      <Flex vertical gap={16}>
        <Typography.Text type="secondary">{t('display.followsYou')}</Typography.Text>
        <Flex vertical gap={8}>
          <Typography.Text>{t('display.dateFormat')}</Typography.Text>
          <Radio.Group
            value={dateFormat}
            onChange={(e) => {
              const next = e.target.value as DateFormat;
              const before = dateFormat;
              setDateFormat(next);
              applyPreferences({ ...preferences, digits, dateFormat: next });
              save({ dateFormat: next }, () => {
                setDateFormat(before);
                applyPreferences(preferences);
              });
            }}
            data-testid="date-format"
          >
            <Flex vertical gap={4}>
              {DATE_FORMATS.map((format) => (
                <Radio key={format} value={format} data-testid={`date-format-${format}`}>
                  <bdi dir="ltr">{formatDate(sample, i18n.language, format)}</bdi>{' '}
                  {t(`display.formats.${format}`)}
                </Radio>
              ))}
            </Flex>
          </Radio.Group>
          <Typography.Text type="secondary">{t('display.dateHint')}</Typography.Text>
        </Flex>
        <Flex vertical gap={8}>
          <Typography.Text>{t('display.digits')}</Typography.Text>
          <Radio.Group
            value={digits}
            onChange={(e) => {
              const next = e.target.value as DigitStyle;
              const before = digits;
              setDigits(next);
              setDigitStyle(next);
              save({ digits: next }, () => {
                setDigits(before);
                setDigitStyle(before);
              });
            }}
            data-testid="digit-style"
          >
            <Radio value="latn" data-testid="digits-latn">
              <bdi>0123456789</bdi> {t('display.western')}
            </Radio>
            <Radio value="arab" data-testid="digits-arab">
              <bdi>٠١٢٣٤٥٦٧٨٩</bdi> {t('display.arabicIndic')}
            </Radio>
          </Radio.Group>
          <Typography.Text type="secondary" data-testid="digits-sample">
            {t('display.hint', { sample: formatNumber(1446, 'ar') })}
          </Typography.Text>
        </Flex>
        <Flex vertical gap={8}>
          <label htmlFor="home-page">{t('display.homePage')}</label>
          <Select
            id="home-page"
            className="user-home-page"
            value={home}
            options={[{ value: '', label: t('display.homeDefault') }, ...pages]}
            onChange={(value: string) => {
              const before = home;
              setHome(value);
              save({ homePage: value || null }, () => setHome(before));
            }}
            data-testid="home-page"
          />
          <Typography.Text type="secondary">{t('display.homeHint')}</Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}

/**
 * How registration stickers are printed: their size (kept with the account, like the display settings)
 * and, on the desktop, the printer they go to without a dialog (kept on this computer: a printer belongs
 * to the desk); the separator sheet for scanning batches is printed from here too.
 */
function PaperCard() {
  const { t } = useTranslation('user');
  const { user } = useSession();
  const [size, setSize] = useState<LabelSize>(user?.preferences.stickerSize ?? '70x35');
  const [printers, setPrinters] = useState<Printers | null>(null);
  const [printer, setPrinter] = useState<string | null>(null);
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    let live = true;
    void Promise.all([getBridge().printPrinters(), getBridge().settingsGet()]).then(([list, settings]) => {
      if (!live) return;
      if (list.ok) setPrinters(list.data);
      if (settings.ok) setPrinter(settings.data.stickerPrinter);
    });
    return () => {
      live = false;
    };
  }, []);
  return (
    <Card title={t('paper.title')} data-testid="paper-card">
      <Flex vertical gap={16}>
        <Flex vertical gap={8}>
          <Typography.Text>{t('paper.size')}</Typography.Text>
          <Radio.Group
            value={size}
            onChange={(e) => {
              const next = e.target.value as LabelSize;
              const before = size;
              setSize(next);
              void savePreferences({ stickerSize: next }).catch(() => setSize(before));
            }}
            data-testid="sticker-size"
          >
            <Flex vertical gap={4}>
              {LABEL_SIZES.map((value) => (
                <Radio key={value} value={value} data-testid={`sticker-size-${value}`}>
                  {t(`paper.sizes.${value}`)}
                </Radio>
              ))}
            </Flex>
          </Radio.Group>
        </Flex>
        {printers?.silent ? (
          <Flex vertical gap={8}>
            <label htmlFor="sticker-printer">{t('paper.printer')}</label>
            <Select
              id="sticker-printer"
              value={printer ?? ''}
              options={[
                { value: '', label: t('paper.printerDialog') },
                ...printers.printers.map((p) => ({ value: p.name, label: p.displayName })),
              ]}
              onChange={(value: string) => {
                setPrinter(value || null);
                void getBridge().settingsSet({ stickerPrinter: value || null });
              }}
              data-testid="sticker-printer"
            />
            <Typography.Text type="secondary">{t('paper.printerHint')}</Typography.Text>
          </Flex>
        ) : (
          <Typography.Text type="secondary" data-testid="sticker-printer-web">
            {t('paper.printerWeb')}
          </Typography.Text>
        )}
        <Flex vertical gap={8} align="start">
          <Button
            icon={<PrinterOutlined />}
            loading={printing}
            onClick={() => {
              setPrinting(true);
              void printSeparatorSheet()
                .catch(() => undefined)
                .finally(() => setPrinting(false));
            }}
            data-testid="print-separator"
          >
            {t('paper.separator')}
          </Button>
          <Typography.Text type="secondary">{t('paper.separatorHint')}</Typography.Text>
        </Flex>
      </Flex>
    </Card>
  );
}

/** Puts a failed call's field errors under the form's fields; toasts the rest. */
function showFailure<V>(error: unknown, form: FormInstance<V>, fields: readonly (keyof V & string)[]) {
  if (!(error instanceof ApiError)) throw error;
  const inline = Object.entries(error.fieldErrors).filter(([name]) =>
    (fields as readonly string[]).includes(name),
  );
  if (inline.length > 0)
    form.setFields(
      inline.map(([name, errors]) => ({ name: name as keyof V & string, errors })) as Parameters<
        FormInstance<V>['setFields']
      >[0],
    );
  else toast({ severity: 'error', detail: error.message });
}

export function Component() {
  const { t } = useTranslation('user');
  const { locale } = useLocale();
  const { user } = useSession();
  return (
    <div className="page">
      <Typography.Title level={3} className="page-title" data-testid="page-title">
        {t('title')}
      </Typography.Title>
      <Flex vertical gap={16}>
        <Card title={t('info.title')}>
          {user ? (
            <Descriptions column={{ xs: 1, md: 2 }} data-testid="user-info">
              <Descriptions.Item label={t('info.name')}>
                {locale === 'ar' ? user.nameAr : user.nameEn}
              </Descriptions.Item>
              <Descriptions.Item label={t('info.username')}>
                <bdi dir="ltr">{user.username}</bdi>
              </Descriptions.Item>
              <Descriptions.Item label={t('info.email')}>
                <bdi dir="ltr">{user.email}</bdi>
              </Descriptions.Item>
              <Descriptions.Item label={t('info.role')}>
                {locale === 'ar' ? user.role.nameAr : user.role.nameEn}
              </Descriptions.Item>
              <Descriptions.Item label={t('info.twoFactor')}>
                {user.useTotp ? (
                  <Tag color="green">{t('twoFactor.on')}</Tag>
                ) : (
                  <Tag>{t('twoFactor.off')}</Tag>
                )}
              </Descriptions.Item>
            </Descriptions>
          ) : null}
        </Card>
        <DisplayCard />
        <PaperCard />
        <PasswordCard />
        <TwoFactorCard />
        <StationCard />
      </Flex>
    </div>
  );
}

interface PasswordValues {
  oldPassword: string;
  password: string;
  passwordConfirmation: string;
}

function PasswordCard() {
  const { t } = useTranslation('user');
  const { t: tc } = useTranslation();
  const [form] = useLocalisedForm<PasswordValues>();
  const [busy, setBusy] = useState(false);
  const required = { required: true, message: tc('validation.required') };
  const submit = async (values: PasswordValues) => {
    setBusy(true);
    try {
      // Through main: the server ends every session and answers a fresh token for this one, kept in main.
      const result = await getBridge().sessionChangePassword(values);
      if (!result.ok) {
        toast({
          severity: 'error',
          detail: tc(result.error.code, { defaultValue: tc('errors.unexpected') }),
        });
      } else if (result.data.result === 'ok') {
        form.resetFields();
        toast({ severity: 'success', detail: result.data.returnMessage || t('password.changed') });
      } else {
        const fields = Object.entries(result.data.errors ?? {}).filter(([name]) =>
          ['oldPassword', 'password', 'passwordConfirmation'].includes(name),
        );
        if (fields.length > 0) {
          form.setFields(fields.map(([name, errors]) => ({ name: name as keyof PasswordValues, errors })));
        } else if (result.data.status !== 401) {
          toast({ severity: 'error', detail: result.data.detail || tc('errors.unexpected') });
        }
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('password.title')}>
      <Form<PasswordValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void submit(v)}
        className="narrow-form"
        data-testid="password-form"
      >
        <Form.Item name="oldPassword" label={t('password.old')} rules={[required]}>
          <Input.Password autoComplete="current-password" data-testid="old-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password.new')}
          rules={[
            required,
            { min: PASSWORD_MIN, message: tc('validation.minLength', { min: PASSWORD_MIN }) },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="new-password" />
        </Form.Item>
        <Form.Item
          name="passwordConfirmation"
          label={t('password.confirmation')}
          dependencies={['password']}
          rules={[
            required,
            ({ getFieldValue }) => ({
              validator: (_r, value) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(tc('validation.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="new-password-confirmation" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="change-password">
          {t('password.submit')}
        </Button>
      </Form>
    </Card>
  );
}

function TwoFactorCard() {
  const { t } = useTranslation('user');
  const { user } = useSession();
  const [codes, setCodes] = useState<string[] | null>(null);
  if (!user) return null;
  return (
    <Card
      title={
        <span>
          <SafetyOutlined /> {t('twoFactor.title')}
        </span>
      }
      data-testid="two-factor-card"
    >
      {user.useTotp ? (
        <Flex vertical gap={24}>
          <Alert type="success" showIcon title={t('twoFactor.enabled')} />
          <ProofForm kind="recovery" onDone={(answer) => setCodes((answer as RecoveryCodes).recoveryCodes)} />
          {user.twoFactorRequired ? (
            <Alert type="info" showIcon title={t('twoFactor.requiredByRole')} />
          ) : (
            <ProofForm kind="disable" onDone={() => void sessionActions.refreshProfile()} />
          )}
        </Flex>
      ) : (
        <EnableTwoFactor onEnabled={(recovery) => setCodes(recovery)} />
      )}
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />
    </Card>
  );
}

function EnableTwoFactor({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation('user');
  const { t: tc } = useTranslation();
  const [form] = useLocalisedForm<{ code: string }>();
  const [material, setMaterial] = useState<TwoFactorSetup | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setBusy(true);
    try {
      setMaterial(await call(authEndpoints.twoFactorSetup));
    } catch {
      // the http helper toasted it
    } finally {
      setBusy(false);
    }
  };
  const confirm = async ({ code }: { code: string }) => {
    setBusy(true);
    try {
      const answer = await call(
        authEndpoints.twoFactorEnable,
        { body: { code: code.replace(/\s+/g, '') } },
        { suppressErrorToast: true },
      );
      setMaterial(null);
      form.resetFields();
      onEnabled(answer.recoveryCodes);
      await sessionActions.refreshProfile();
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
        form.setFields([{ name: 'code', errors: [tc('twoFactor.invalidDetail', { ns: 'auth' })] }]);
        toast({
          severity: 'error',
          summary: tc('twoFactor.invalidTitle', { ns: 'auth' }),
          detail: tc('twoFactor.invalidDetail', { ns: 'auth' }),
        });
      } else if (error instanceof ApiError && error.status !== 401) {
        toast({ severity: 'error', detail: error.message });
      }
    } finally {
      setBusy(false);
    }
  };

  if (!material) {
    return (
      <Flex vertical gap={12} align="start">
        <Typography.Paragraph>{t('twoFactor.offIntro')}</Typography.Paragraph>
        <Button type="primary" onClick={() => void start()} loading={busy} data-testid="enable-two-factor">
          {t('twoFactor.enable')}
        </Button>
      </Flex>
    );
  }
  return (
    <Flex vertical gap={12}>
      <Typography.Paragraph>{t('twoFactor.scan')}</Typography.Paragraph>
      <Flex gap={24} wrap align="center">
        <img
          src={material.qrDataUrl}
          alt={t('twoFactor.qrAlt')}
          width={200}
          height={200}
          className="qr-image"
          data-testid="settings-totp-qr"
        />
        <Flex vertical gap={4}>
          <Typography.Text type="secondary">{t('twoFactor.secretLabel')}</Typography.Text>
          <Typography.Text code copyable dir="ltr" className="totp-secret" data-testid="settings-totp-secret">
            {material.secret}
          </Typography.Text>
        </Flex>
      </Flex>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void confirm(v)}
        className="narrow-form"
      >
        <Form.Item
          name="code"
          label={t('twoFactor.code')}
          rules={[{ required: true, whitespace: true, message: tc('validation.required') }]}
        >
          <Input dir="ltr" autoComplete="one-time-code" maxLength={32} data-testid="enable-code" />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="enable-confirm">
            {t('twoFactor.confirm')}
          </Button>
          <Button onClick={() => setMaterial(null)}>{tc('actions.cancel')}</Button>
        </Space>
      </Form>
    </Flex>
  );
}

/** A code or the password, for disabling two-factor or getting new recovery codes. */
function ProofForm({ kind, onDone }: { kind: 'disable' | 'recovery'; onDone: (answer: unknown) => void }) {
  const { t } = useTranslation('user');
  const { t: tc } = useTranslation();
  const [form] = useLocalisedForm<{ by: 'code' | 'password'; code?: string; password?: string }>();
  const by = Form.useWatch('by', form) ?? 'code';
  const [busy, setBusy] = useState(false);
  const endpoint = kind === 'disable' ? authEndpoints.twoFactorDisable : authEndpoints.recoveryCodes;
  const submit = async (values: { by: 'code' | 'password'; code?: string; password?: string }) => {
    setBusy(true);
    try {
      const body =
        values.by === 'code'
          ? { code: (values.code ?? '').replace(/\s+/g, '') }
          : { password: values.password };
      const answer: unknown = await call(endpoint, { body }, { suppressErrorToast: true });
      form.resetFields();
      onDone(answer);
    } catch (error) {
      showFailure(error, form, ['code', 'password']);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ by: 'code' }}
      onFinish={(v) => void submit(v)}
      className="narrow-form"
      data-testid={`${kind}-form`}
    >
      <Typography.Title level={5}>
        {kind === 'disable' ? t('twoFactor.disableTitle') : t('twoFactor.recoveryTitle')}
      </Typography.Title>
      <Form.Item name="by" label={t('twoFactor.proveWith')}>
        <Radio.Group>
          <Radio value="code">{t('twoFactor.withCode')}</Radio>
          <Radio value="password">{t('twoFactor.withPassword')}</Radio>
        </Radio.Group>
      </Form.Item>
      {by === 'code' ? (
        <Form.Item
          name="code"
          label={t('twoFactor.code')}
          rules={[{ required: true, whitespace: true, message: tc('validation.required') }]}
        >
          <Input dir="ltr" autoComplete="one-time-code" maxLength={32} data-testid={`${kind}-code`} />
        </Form.Item>
      ) : (
        <Form.Item
          name="password"
          label={t('password.current')}
          rules={[{ required: true, message: tc('validation.required') }]}
        >
          <Input.Password autoComplete="current-password" data-testid={`${kind}-password`} />
        </Form.Item>
      )}
      <Button danger={kind === 'disable'} htmlType="submit" loading={busy} data-testid={`${kind}-submit`}>
        {kind === 'disable' ? t('twoFactor.disable') : t('twoFactor.regenerate')}
      </Button>
    </Form>
  );
}
