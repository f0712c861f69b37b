/** First run: the server has no user yet, so the first administrator is created here (POST /setup). */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Flex, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '../../lib/limits';
import { sessionActions } from '../../app/session';
import { useShownMessage } from '../../app/locale';
import { followSignIn } from './signIn';
import { useLocalisedForm } from '../../lib/forms';

interface FirstRunValues {
  nameAr?: string;
  nameEn?: string;
  username: string;
  email: string;
  password: string;
  passwordConfirmation: string;
}

export function FirstRunForm() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const [form] = useLocalisedForm<FirstRunValues>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useShownMessage();
  const required = { required: true, whitespace: true, message: tc('validation.required') };

  const submit = async (values: FirstRunValues) => {
    setBusy(true);
    setProblem(null);
    try {
      const outcome = await sessionActions.createFirstAdministrator({
        username: values.username.trim(),
        email: values.email.trim(),
        password: values.password,
        ...(values.nameAr?.trim() ? { nameAr: values.nameAr.trim() } : {}),
        ...(values.nameEn?.trim() ? { nameEn: values.nameEn.trim() } : {}),
      });
      setProblem(followSignIn(outcome, navigate, form));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={8} data-testid="first-run">
      <Typography.Title level={4} className="form-title">
        {t('firstRun.title')}
      </Typography.Title>
      <Alert type="info" showIcon title={t('firstRun.intro')} />
      {problem && (
        <Alert type="error" showIcon title={problem} role="alert" data-testid="first-run-problem" />
      )}
      <Form<FirstRunValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => void submit(v)}
        onFinishFailed={() => setProblem(null)}
      >
        <Flex gap={12} wrap>
          <Form.Item name="nameAr" label={t('firstRun.nameAr')} className="grow">
            <Input dir="rtl" lang="ar" data-testid="first-run-name-ar" />
          </Form.Item>
          <Form.Item name="nameEn" label={t('firstRun.nameEn')} className="grow">
            <Input dir="ltr" data-testid="first-run-name-en" />
          </Form.Item>
        </Flex>
        <Form.Item
          name="username"
          label={t('firstRun.username')}
          rules={[
            required,
            { min: 3, message: tc('validation.minLength', { min: 3 }) },
            { max: 64, message: tc('validation.maxLength', { max: 64 }) },
            { pattern: /^[\p{L}\p{N}._-]+$/u, message: tc('validation.username') },
          ]}
        >
          <Input dir="ltr" autoComplete="username" data-testid="first-run-username" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('firstRun.email')}
          rules={[required, { type: 'email', message: tc('validation.email') }]}
        >
          <Input dir="ltr" autoComplete="email" data-testid="first-run-email" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('firstRun.password')}
          rules={[
            required,
            { min: PASSWORD_MIN, message: tc('validation.minLength', { min: PASSWORD_MIN }) },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="first-run-password" />
        </Form.Item>
        <Form.Item
          name="passwordConfirmation"
          label={t('firstRun.passwordConfirmation')}
          dependencies={['password']}
          rules={[
            required,
            ({ getFieldValue }) => ({
              validator: (_rule, value) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(tc('validation.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="first-run-password-confirmation" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="first-run-submit">
          {t('firstRun.submit')}
        </Button>
      </Form>
    </Flex>
  );
}
