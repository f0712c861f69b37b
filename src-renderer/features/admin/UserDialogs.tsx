/**
 * The dialogs of the users screen (specification section 2: add, edit, change password, reset
 * password). Each validates with the server's field schemas and shows the server's field errors inline.
 */
import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal, Select, Switch, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  createUserRequestSchema,
  type CreateUserRequest,
  type UpdateUserRequest,
  type User,
} from '../../../src-shared/api/admin';
import { PASSWORD_MIN } from '../../../src-shared/api/fields';
import { LOCALES } from '../../../src-shared/locale';
import { adminApi, adminKeys } from '../../lib/admin-api';
import { applyServerErrors, confirmationRule, zodRule, useLocalisedForm } from '../../lib/forms';
import { localName } from '../../lib/names';

const fields = createUserRequestSchema.shape;

/** The roles a user may be given (active ones, plus the user's current one). */
function useRoleOptions(current?: User['role']) {
  const { i18n } = useTranslation();
  const roles = useQuery({ queryKey: adminKeys.roleOptions, queryFn: adminApi.roleOptions });
  const options = (roles.data?.items ?? [])
    .filter((r) => r.active || r.id === current?.id)
    .map((r) => ({ value: r.id, label: localName(r, i18n.language) }));
  // Without access to the roles list, the user's own role is still shown by name.
  if (current && !options.some((o) => o.value === current.id)) {
    options.push({ value: current.id, label: localName(current, i18n.language) });
  }
  return { loading: roles.isLoading, options };
}

type UserFormValues = Omit<CreateUserRequest, 'roleId' | 'securityLevelId'> & {
  roleId?: number;
  /** The security clearance; null: the lowest level (the default). */
  securityLevelId?: number | null;
};

/** The security levels a user may be cleared for, lowest first, as picker options. */
function useClearanceOptions() {
  const { i18n } = useTranslation();
  const levels = useQuery({ queryKey: adminKeys.clearanceOptions, queryFn: adminApi.clearanceOptions });
  return {
    loading: levels.isLoading,
    options: (levels.data ?? []).map((l) => ({ value: l.id, label: localName(l, i18n.language) })),
  };
}

/** Adds a user (no `user`) or edits one. Calls `onDone` after a successful save. */
export function UserFormModal({
  open,
  user,
  onClose,
  onDone,
}: {
  open: boolean;
  user: User | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('admin');
  const [form] = useLocalisedForm<UserFormValues>();
  const [saving, setSaving] = useState(false);
  const editing = user !== null;
  const roles = useRoleOptions(user?.role);
  const clearances = useClearanceOptions();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      user
        ? {
            username: user.username,
            email: user.email,
            nameAr: user.nameAr,
            nameEn: user.nameEn,
            roleId: user.role.id,
            locale: user.locale,
            securityLevelId: user.clearance?.id ?? null,
          }
        : {
            username: '',
            email: '',
            nameAr: '',
            nameEn: '',
            roleId: undefined,
            securityLevelId: null,
            locale: 'ar',
            active: true,
            password: '',
            passwordConfirmation: '',
          },
    );
  }, [open, user, form]);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      if (user) {
        const body: UpdateUserRequest = {
          username: values.username.trim(),
          email: values.email.trim(),
          nameAr: values.nameAr.trim(),
          nameEn: values.nameEn.trim(),
          roleId: values.roleId,
          locale: values.locale,
          ...((values.securityLevelId ?? null) !== (user.clearance?.id ?? null)
            ? { securityLevelId: values.securityLevelId ?? null }
            : {}),
        };
        await adminApi.updateUser(user.id, body);
      } else {
        await adminApi.createUser({
          ...values,
          username: values.username.trim(),
          email: values.email.trim(),
          nameAr: values.nameAr.trim(),
          nameEn: values.nameEn.trim(),
          roleId: values.roleId!,
          securityLevelId: values.securityLevelId ?? null,
        });
      }
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
      title={editing ? t('users.editTitle', { name: user.username }) : t('users.addTitle')}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      width={640}
      okButtonProps={{ 'data-testid': 'user-form-save' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" data-testid="user-form" requiredMark>
        <div className="admin-form-row">
          <Form.Item
            name="username"
            label={t('users.fields.username')}
            required
            rules={[zodRule(fields.username, t)]}
          >
            <Input autoComplete="off" dir="ltr" data-testid="user-username" />
          </Form.Item>
          <Form.Item name="email" label={t('users.fields.email')} required rules={[zodRule(fields.email, t)]}>
            <Input type="email" autoComplete="off" dir="ltr" data-testid="user-email" />
          </Form.Item>
        </div>
        <div className="admin-form-row">
          <Form.Item name="nameAr" label={t('fields.nameAr')} required rules={[zodRule(fields.nameAr, t)]}>
            <Input dir="rtl" data-testid="user-name-ar" />
          </Form.Item>
          <Form.Item name="nameEn" label={t('fields.nameEn')} required rules={[zodRule(fields.nameEn, t)]}>
            <Input dir="ltr" data-testid="user-name-en" />
          </Form.Item>
        </div>
        <div className="admin-form-row">
          <Form.Item
            name="roleId"
            label={t('users.fields.role')}
            required
            rules={[zodRule(fields.roleId, t)]}
          >
            <Select
              loading={roles.loading}
              options={roles.options}
              placeholder={t('users.fields.rolePlaceholder')}
              showSearch={{ optionFilterProp: 'label' }}
              data-testid="user-role"
            />
          </Form.Item>
          <Form.Item
            name="securityLevelId"
            label={t('users.fields.clearance')}
            tooltip={t('users.fields.clearanceHint')}
          >
            <Select
              loading={clearances.loading}
              options={clearances.options}
              allowClear
              placeholder={t('users.fields.clearanceDefault')}
              data-testid="user-clearance"
            />
          </Form.Item>
          <Form.Item name="locale" label={t('users.fields.locale')}>
            <Select
              options={LOCALES.map((l) => ({ value: l, label: t(`locales.${l}`) }))}
              data-testid="user-locale"
            />
          </Form.Item>
        </div>
        {!editing && (
          <>
            <div className="admin-form-row">
              <Form.Item
                name="password"
                label={t('users.fields.password')}
                required
                rules={[zodRule(fields.password, t)]}
                extra={t('users.passwordHint', { min: PASSWORD_MIN })}
              >
                <Input.Password autoComplete="new-password" data-testid="user-password" />
              </Form.Item>
              <Form.Item
                name="passwordConfirmation"
                label={t('users.fields.passwordConfirmation')}
                required
                dependencies={['password']}
                rules={[confirmationRule('password', t)]}
              >
                <Input.Password autoComplete="new-password" data-testid="user-password-confirmation" />
              </Form.Item>
            </div>
            <Form.Item name="active" label={t('fields.active')} valuePropName="checked">
              <Switch data-testid="user-active" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

/** An administrator sets a user's password (PUT /auth/users/{id}/password); the user's sessions end. */
export function UserPasswordModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = useLocalisedForm<{ password: string; passwordConfirmation: string }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (user) form.setFieldsValue({ password: '', passwordConfirmation: '' });
  }, [user, form]);

  const save = async () => {
    if (!user) return;
    const values = await form.validateFields();
    setSaving(true);
    try {
      await adminApi.setUserPassword(user.id, values);
      onClose();
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={user !== null}
      title={t('users.changePasswordTitle', { name: user?.username ?? '' })}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'password-form-save' } as Record<string, string>}
    >
      <Alert type="info" showIcon className="admin-alert" title={t('users.passwordEndsSessions')} />
      <Form form={form} layout="vertical" data-testid="password-form" style={{ marginBlockStart: 16 }}>
        <Form.Item
          name="password"
          label={t('users.fields.newPassword')}
          required
          rules={[zodRule(fields.password, t)]}
          extra={t('users.passwordHint', { min: PASSWORD_MIN })}
        >
          <Input.Password autoComplete="new-password" data-testid="password-new" />
        </Form.Item>
        <Form.Item
          name="passwordConfirmation"
          label={t('users.fields.passwordConfirmation')}
          required
          dependencies={['password']}
          rules={[confirmationRule('password', t)]}
        >
          <Input.Password autoComplete="new-password" data-testid="password-confirmation" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Shows a freshly generated temporary password once, with a copy button. */
export function TemporaryPasswordModal({
  result,
  onClose,
}: {
  result: { username: string; temporaryPassword: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Modal
      open={result !== null}
      title={t('users.temporaryPasswordTitle', { name: result?.username ?? '' })}
      onOk={onClose}
      onCancel={onClose}
      okText={t('actions.done')}
      cancelButtonProps={{ style: { display: 'none' } }}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('users.temporaryPasswordOnce')} />
      <Typography.Paragraph
        className="admin-secret"
        style={{ marginBlockStart: 16 }}
        copyable={{
          text: result?.temporaryPassword ?? '',
          tooltips: [t('actions.copy'), t('actions.copied')],
        }}
        data-testid="temporary-password"
      >
        <bdi dir="ltr">{result?.temporaryPassword}</bdi>
      </Typography.Paragraph>
      <Typography.Text type="secondary">{t('users.temporaryPasswordHint')}</Typography.Text>
    </Modal>
  );
}
