/**
 * /login/two-factor: the second step of a sign-in. When enrolling (`setup`), the QR code to scan with an
 * authenticator app (and the key to type instead); then the code (a TOTP code or a recovery code),
 * verify, and "skip for now" where the server offers it. A wrong code: 'Invalid Code' / 'Please enter a
 * valid code'.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, Input, Skeleton, Typography } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { getBridge } from '../../lib/bridge';
import { toast } from '../../lib/toast';
import { i18n } from '../../lib/i18n';
import { refreshSession, sessionActions, useSession } from '../../app/session';
import { LOGIN_PATH } from '../../app/guard';
import { RecoveryCodesDialog } from '../../components/RecoveryCodes';
import { followSignIn } from './signIn';
import { SAME_IN_EVERY_LANGUAGE } from '../../app/locale';
import { useLocalisedForm } from '../../lib/forms';

/** A key's length of characters, unseen: the line the key will take while it is asked for. */
const SECRET_PLACEHOLDER = '\u2007'.repeat(32);
export function Component() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const [form] = useLocalisedForm<{ code: string }>();
  const [busy, setBusy] = useState<'verify' | 'skip' | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  // A refused code, said in place ('Invalid Code', 'Please enter a valid code') until the next attempt.
  const [invalid, setInvalid] = useState(false);
  const step = session.twoFactor;
  const enrolling = step?.mode === 'setup';

  const material = useQuery({
    queryKey: ['session:two-factor-setup'],
    enabled: enrolling,
    staleTime: Infinity,
    gcTime: 0,
    // Asked again, the server would issue another key than the one the user may have scanned.
    meta: SAME_IN_EVERY_LANGUAGE,
    queryFn: async () => {
      const result = await getBridge().sessionTwoFactorSetup();
      if (!result.ok) throw new Error(result.error.code);
      if (result.data.result === 'rejected') throw new Error(result.data.detail || 'errors.unexpected');
      return result.data;
    },
  });

  const verify = async ({ code }: { code: string }) => {
    setBusy('verify');
    setInvalid(false);
    try {
      const outcome = await sessionActions.verifyCode(code.replace(/\s+/g, ''));
      if (outcome.result === 'rejected' && outcome.status === 401) {
        // The challenge expired or was used up: sign in again.
        toast({ severity: 'error', detail: outcome.detail || tc('session.noChallenge') });
        navigate(LOGIN_PATH, { replace: true });
        return;
      }
      if (outcome.result === 'rejected' && outcome.status < 500 && outcome.status !== 429) {
        setInvalid(true);
        return;
      }
      if (outcome.result === 'signedIn' && outcome.recoveryCodes) {
        // Enrolled during sign-in: the recovery codes are shown once before going on.
        setRecoveryCodes(outcome.recoveryCodes);
        return;
      }
      followSignIn(outcome, navigate);
    } finally {
      setBusy(null);
    }
  };

  const skip = async () => {
    setBusy('skip');
    try {
      followSignIn(await sessionActions.skipTwoFactor(), navigate);
    } finally {
      setBusy(null);
    }
  };

  const backToSignIn = async () => {
    await sessionActions.logout();
    navigate(LOGIN_PATH, { replace: true });
  };

  return (
    <Flex vertical gap={12} data-testid="two-factor">
      <Typography.Title level={4} className="form-title">
        <SafetyOutlined /> {enrolling ? t('twoFactor.setupTitle') : t('twoFactor.title')}
      </Typography.Title>
      {enrolling ? (
        <>
          <Typography.Paragraph>{t('twoFactor.setupIntro')}</Typography.Paragraph>
          {material.isError ? (
            <Alert
              type="error"
              showIcon
              title={tc(material.error.message, { defaultValue: i18n.t('errors.unexpected') })}
            />
          ) : (
            // While the key is asked for, its place is held at the size it will have (the code's box,
            // the label, a line for the key): the buttons below do not move when it arrives, where a
            // click meant for "Skip for now" would otherwise land on what moved into its place.
            <Flex vertical align="center" gap={8} data-testid="totp-material" aria-busy={material.isPending}>
              {material.isPending ? (
                <div className="qr-image qr-placeholder" data-testid="totp-qr-placeholder">
                  <Skeleton.Node active className="qr-placeholder-node">
                    <span />
                  </Skeleton.Node>
                </div>
              ) : (
                <img
                  src={material.data.qrDataUrl}
                  alt={t('twoFactor.qrAlt')}
                  width={200}
                  height={200}
                  className="qr-image"
                  data-testid="totp-qr"
                />
              )}
              <Typography.Text type="secondary">{t('twoFactor.secretLabel')}</Typography.Text>
              {material.isPending ? (
                <Typography.Text code copyable dir="ltr" className="totp-secret totp-secret-placeholder">
                  {SECRET_PLACEHOLDER}
                </Typography.Text>
              ) : (
                <Typography.Text code copyable dir="ltr" className="totp-secret" data-testid="totp-secret">
                  {material.data.secret}
                </Typography.Text>
              )}
            </Flex>
          )}
        </>
      ) : (
        <Typography.Paragraph>{t('twoFactor.intro')}</Typography.Paragraph>
      )}
      {invalid && (
        <Alert
          type="error"
          showIcon
          title={t('twoFactor.invalidTitle')}
          description={t('twoFactor.invalidDetail')}
          role="alert"
          data-testid="two-factor-problem"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void verify(v)}
        onFinishFailed={() => setInvalid(false)}
      >
        <Form.Item
          name="code"
          label={t('twoFactor.code')}
          extra={enrolling ? undefined : t('twoFactor.recoveryHint')}
          rules={[{ required: true, whitespace: true, message: tc('validation.required') }]}
        >
          <Input
            dir="ltr"
            inputMode="text"
            autoComplete="one-time-code"
            autoFocus
            maxLength={32}
            className="code-input"
            data-testid="two-factor-code"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={busy === 'verify'}
          data-testid="two-factor-verify"
        >
          {t('twoFactor.verify')}
        </Button>
      </Form>
      {step?.canSkip ? (
        <Button block onClick={() => void skip()} loading={busy === 'skip'} data-testid="two-factor-skip">
          {t('twoFactor.skip')}
        </Button>
      ) : null}
      <Button type="link" onClick={() => void backToSignIn()} data-testid="two-factor-back">
        {t('twoFactor.back')}
      </Button>
      <RecoveryCodesDialog
        codes={recoveryCodes}
        onClose={() => {
          setRecoveryCodes(null);
          void refreshSession().then(() => followSignIn({ result: 'signedIn' }, navigate));
        }}
      />
    </Flex>
  );
}
