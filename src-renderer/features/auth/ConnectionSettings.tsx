/**
 * Connection settings on the login screen: this computer's server, or the organisation's server URL
 * (http or https). Changing it ends the current session (a session belongs to its server).
 */
import { useEffect, useState } from 'react';
import { Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { getBridge } from '../../lib/bridge';
import { toast } from '../../lib/toast';
import { refreshSession } from '../../app/session';
import { useLocalisedForm } from '../../lib/forms';

interface ConnectionValues {
  where: 'local' | 'server';
  serverUrl?: string;
}

/** Whether a text is an http(s) URL without credentials (what main accepts). */
export function isServerUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      !url.username &&
      !url.password &&
      !!url.hostname
    );
  } catch {
    return false;
  }
}

export function ConnectionSettings({
  open,
  onClose,
}: {
  open: boolean;
  onClose: (changed: boolean) => void;
}) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  const [form] = useLocalisedForm<ConnectionValues>();
  const [saving, setSaving] = useState(false);
  const [localAvailable, setLocalAvailable] = useState(true);
  const where = Form.useWatch('where', form);

  useEffect(() => {
    if (!open) return;
    void getBridge()
      .connectionGet()
      .then((result) => {
        if (!result.ok) return;
        setLocalAvailable(result.data.localAvailable);
        form.setFieldsValue({
          where: result.data.serverUrl ? 'server' : 'local',
          serverUrl: result.data.serverUrl ?? '',
        });
      });
  }, [open, form]);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const result = await getBridge().connectionSet({
        serverUrl: values.where === 'server' ? (values.serverUrl ?? '').trim() : null,
      });
      if (!result.ok) {
        toast({
          severity: 'error',
          detail: tc(result.error.code, { defaultValue: tc('errors.unexpected') }),
        });
        return;
      }
      await refreshSession();
      if (result.data.reachable) toast({ severity: 'success', detail: t('connection.saved') });
      else if (result.data.apiBaseUrl === null)
        toast({ severity: 'warn', detail: t('connection.restartNeeded') });
      else toast({ severity: 'warn', detail: t('connection.unreachable') });
      onClose(true);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('connection.title')}
      okText={tc('actions.save')}
      cancelText={tc('actions.cancel')}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={() => onClose(false)}
      destroyOnHidden
      data-testid="connection-dialog"
    >
      <Form<ConnectionValues> form={form} layout="vertical" initialValues={{ where: 'local' }}>
        <Form.Item name="where" label={t('connection.where')}>
          <Radio.Group>
            <Space direction="vertical">
              <Radio value="local" data-testid="connection-local">
                {t('connection.local')}
              </Radio>
              <Radio value="server" data-testid="connection-server">
                {t('connection.server')}
              </Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
        {where === 'server' ? (
          <Form.Item
            name="serverUrl"
            label={t('connection.url')}
            rules={[
              { required: true, whitespace: true, message: tc('validation.required') },
              {
                validator: (_rule, value: string | undefined) =>
                  !value || isServerUrl(value.trim())
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('connection.invalidUrl'))),
              },
            ]}
          >
            <Input dir="ltr" placeholder="https://sijill.example.org" data-testid="connection-url" />
          </Form.Item>
        ) : null}
        {where === 'local' && !localAvailable ? (
          <Typography.Text type="secondary">{t('connection.restartNeeded')}</Typography.Text>
        ) : null}
      </Form>
    </Modal>
  );
}
