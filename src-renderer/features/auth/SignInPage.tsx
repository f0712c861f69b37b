/**
 * /login: sign in with an email or username and a password (remember me), the connection settings, and —
 * on a server that has no user yet — the first-run form creating the first administrator instead.
 */
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Flex, Form, Input, Skeleton, Typography } from 'antd';
import { ApiOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '../../lib/limits';
import { getBridge } from '../../lib/bridge';
import { sessionActions, useSession } from '../../app/session';
import { useShownMessage } from '../../app/locale';
import { ConnectionSettings } from './ConnectionSettings';
import { FirstRunForm } from './FirstRunForm';
import { followSignIn } from './signIn';
import { useLocalisedForm } from '../../lib/forms';

interface SignInValues {
  login: string;
  password: string;
  rememberMe: boolean;
}

export const SETUP_STATUS_KEY = ['setup:status'] as const;

export function Component() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = useLocalisedForm<SignInValues>();
  const [busy, setBusy] = useState(false);
  const [connectionOpen, setConnectionOpen] = useState(false);
  // Why the last attempt failed, shown above the form until the next attempt (or a change of language).
  const [problem, setProblem] = useShownMessage();

  const setup = useQuery({
    queryKey: SETUP_STATUS_KEY,
    queryFn: async () => {
      const result = await getBridge().setupStatus();
      if (!result.ok) throw new Error(result.error.code);
      return result.data.result === 'ok' ? result.data.needed : false;
    },
    staleTime: 0,
    enabled: !session.signedIn,
  });

  if (session.signedIn) return <Navigate to="/" replace />;

  const submit = async (values: SignInValues) => {
    setBusy(true);
    setProblem(null);
    try {
      const outcome = await sessionActions.login({
        login: values.login.trim(),
        password: values.password,
        rememberMe: Boolean(values.rememberMe),
      });
      setProblem(followSignIn(outcome, navigate, form));
    } finally {
      setBusy(false);
    }
  };

  const connection = (
    <>
      <Button
        type="link"
        icon={<ApiOutlined />}
        onClick={() => setConnectionOpen(true)}
        data-testid="connection-settings"
        className="connection-link"
      >
        {t('connection.open')}
      </Button>
      <ConnectionSettings
        open={connectionOpen}
        onClose={(changed) => {
          setConnectionOpen(false);
          if (changed) void queryClient.invalidateQueries({ queryKey: SETUP_STATUS_KEY });
        }}
      />
    </>
  );

  if (setup.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (setup.isError) {
    return (
      <Flex vertical gap={16}>
        <Alert
          type="error"
          showIcon
          title={tc(setup.error.message, { defaultValue: tc('errors.unexpected') })}
        />
        <Button onClick={() => void setup.refetch()}>{t('signIn.retry')}</Button>
        {connection}
      </Flex>
    );
  }
  if (setup.data) {
    return (
      <>
        <FirstRunForm />
        {connection}
      </>
    );
  }

  return (
    <Flex vertical gap={8}>
      <Typography.Title level={4} className="form-title" data-testid="sign-in-title">
        {t('signIn.title')}
      </Typography.Title>
      {session.endedQuietly ? (
        <Alert type="info" showIcon title={t('signIn.sessionEnded')} data-testid="session-ended" />
      ) : null}
      {problem && <Alert type="error" showIcon title={problem} role="alert" data-testid="sign-in-problem" />}
      <Form<SignInValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ rememberMe: session.rememberMe !== 'false' }}
        onFinish={(values) => void submit(values)}
        // A new attempt stops showing the last one's reason, even when the form itself stops it.
        onFinishFailed={() => setProblem(null)}
        data-testid="sign-in-form"
      >
        <Form.Item
          name="login"
          label={t('signIn.login')}
          rules={[{ required: true, whitespace: true, message: tc('validation.required') }]}
        >
          <Input prefix={<UserOutlined />} autoComplete="username" autoFocus data-testid="login" dir="auto" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('signIn.password')}
          rules={[
            { required: true, message: tc('validation.required') },
            { min: PASSWORD_MIN, message: tc('validation.minLength', { min: PASSWORD_MIN }) },
          ]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" data-testid="password" />
        </Form.Item>
        <Form.Item name="rememberMe" valuePropName="checked">
          <Checkbox data-testid="remember-me">{t('signIn.rememberMe')}</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="sign-in">
          {t('signIn.submit')}
        </Button>
      </Form>
      {connection}
    </Flex>
  );
}
