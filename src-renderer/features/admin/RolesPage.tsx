/**
 * Administration — roles (/auth/roles): the list, add and edit (names, active, two-factor required),
 * activate/deactivate, and the page-permission matrix of each role. The built-in administrator role
 * holds everything and cannot be deactivated, so those actions are not offered on it.
 */
import { useEffect, useState } from 'react';
import { App, Button, Form, Input, Modal, Switch, Tag, Tooltip } from 'antd';
import {
  CheckCircleOutlined,
  EditOutlined,
  PlusOutlined,
  SafetyCertificateOutlined,
  StopOutlined,
  TableOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createRoleRequestSchema, type CreateRoleRequest, type Role } from '../../../src-shared/api/admin';
import type { Permission } from '../../../src-shared/permissions';
import { DataTable, formatDate, type DataTableColumn } from '../../components/DataTable';
import { AdminScreen } from './AdminScreen';
import { ENDPOINTS, adminApi, adminKeys } from '../../lib/admin-api';
import { applyServerErrors, zodRule, useLocalisedForm } from '../../lib/forms';
import { localName } from '../../lib/names';
import { PermissionMatrixModal } from './PermissionMatrix';
import { useCan } from '../../lib/usePermission';

const fields = createRoleRequestSchema.shape;

/** Adds a role (no `role`) or edits one; `active` changes go through the activate call. */
export function RoleFormModal({
  open,
  role,
  onClose,
  onDone,
}: {
  open: boolean;
  role: Role | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const [form] = useLocalisedForm<CreateRoleRequest>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      role
        ? {
            nameAr: role.nameAr,
            nameEn: role.nameEn,
            requireTwoFactor: role.requireTwoFactor,
            active: role.active,
          }
        : { nameAr: '', nameEn: '', requireTwoFactor: false, active: true },
    );
  }, [open, role, form]);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const names = { nameAr: values.nameAr.trim(), nameEn: values.nameEn.trim() };
      if (role) {
        await adminApi.updateRole(role.id, { ...names, requireTwoFactor: values.requireTwoFactor });
        if (values.active !== role.active) await adminApi.setRoleActive(role.id, values.active);
      } else {
        await adminApi.createRole({
          ...names,
          requireTwoFactor: values.requireTwoFactor,
          active: values.active,
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
      title={role ? t('roles.editTitle', { name: localName(role, i18n.language) }) : t('roles.addTitle')}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      width={560}
      okButtonProps={{ 'data-testid': 'role-form-save' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" data-testid="role-form">
        <Form.Item name="nameAr" label={t('fields.nameAr')} required rules={[zodRule(fields.nameAr, t)]}>
          <Input dir="rtl" data-testid="role-name-ar" />
        </Form.Item>
        <Form.Item name="nameEn" label={t('fields.nameEn')} required rules={[zodRule(fields.nameEn, t)]}>
          <Input dir="ltr" data-testid="role-name-en" />
        </Form.Item>
        <div className="admin-form-row">
          <Form.Item name="active" label={t('fields.active')} valuePropName="checked">
            <Switch disabled={!!role?.isSystem} data-testid="role-active" />
          </Form.Item>
          <Form.Item
            name="requireTwoFactor"
            label={t('roles.fields.requireTwoFactor')}
            valuePropName="checked"
            extra={t('roles.requireTwoFactorHint')}
          >
            <Switch data-testid="role-two-factor" />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}

/** The roles screen. `permissions` overrides the current page permissions (tests, embedding). */
export function RolesPage({ permissions }: { permissions?: readonly Permission[] } = {}) {
  const { t, i18n } = useTranslation('admin');
  const can = useCan(permissions);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Role | null | 'new'>(null);
  const [matrixFor, setMatrixFor] = useState<Role | null>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.roles });

  const confirmActive = (role: Role) => {
    const activate = !role.active;
    const name = localName(role, i18n.language);
    modal.confirm({
      title: t(activate ? 'roles.activateTitle' : 'roles.deactivateTitle', { name }),
      content: t(activate ? 'roles.activateBody' : 'roles.deactivateBody', { count: role.userCount }),
      okText: t(activate ? 'actions.activate' : 'actions.deactivate'),
      okButtonProps: { danger: !activate },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await adminApi.setRoleActive(role.id, activate);
        refresh();
      },
    });
  };

  const columns: DataTableColumn<Role>[] = [
    {
      key: 'nameAr',
      title: 'admin:fields.nameAr',
      sortable: true,
      filter: { type: 'text' },
      render: (r) => (
        <>
          {/* Each name is data in its own language, marked for screen readers and checks. */}
          <span lang="ar">{r.nameAr}</span>{' '}
          {r.isSystem && (
            <Tag icon={<SafetyCertificateOutlined />} color="gold">
              {t('roles.system')}
            </Tag>
          )}
        </>
      ),
    },
    {
      key: 'nameEn',
      title: 'admin:fields.nameEn',
      sortable: true,
      filter: { type: 'text' },
      ellipsis: true,
      width: 240,
      render: (r) => (
        <bdi lang="en" dir="ltr">
          {r.nameEn}
        </bdi>
      ),
    },
    {
      key: 'active',
      title: 'admin:roles.columns.status',
      sortable: true,
      filter: { type: 'boolean' },
      render: (r) =>
        r.active ? <Tag color="green">{t('status.active')}</Tag> : <Tag>{t('status.inactive')}</Tag>,
    },
    {
      key: 'requireTwoFactor',
      title: 'admin:roles.columns.requireTwoFactor',
      sortable: true,
      filter: { type: 'boolean' },
      render: (r) =>
        r.requireTwoFactor ? (
          <Tag color="blue">{t('roles.required')}</Tag>
        ) : (
          <span className="admin-muted">{t('roles.optional')}</span>
        ),
    },
    { key: 'userCount', title: 'admin:roles.columns.userCount', align: 'center' },
    {
      key: 'createdAt',
      title: 'admin:roles.columns.createdAt',
      sortable: true,
      filter: { type: 'date' },
      render: (r) => <bdi>{formatDate(r.createdAt)}</bdi>,
    },
  ];

  const rowActions = (role: Role) => {
    const name = localName(role, i18n.language);
    return (
      <>
        <Button
          type="text"
          icon={<TableOutlined />}
          onClick={() => setMatrixFor(role)}
          data-testid={`role-permissions-${role.nameEn}`}
        >
          {t('roles.permissions')}
        </Button>
        {can('edit') && (
          <Tooltip title={t('actions.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={t('actions.editNamed', { name })}
              onClick={() => setEditing(role)}
              data-testid={`role-edit-${role.nameEn}`}
            />
          </Tooltip>
        )}
        {can('activate') && !(role.isSystem && role.active) && (
          <Tooltip title={t(role.active ? 'actions.deactivate' : 'actions.activate')}>
            <Button
              type="text"
              danger={role.active}
              icon={role.active ? <StopOutlined /> : <CheckCircleOutlined />}
              aria-label={t(role.active ? 'actions.deactivateNamed' : 'actions.activateNamed', { name })}
              onClick={() => confirmActive(role)}
              data-testid={`role-active-${role.nameEn}`}
            />
          </Tooltip>
        )}
      </>
    );
  };

  return (
    <AdminScreen title={t('roles.title')} description={t('roles.description')} testId="admin-roles">
      <DataTable<Role>
        testId="roles-table"
        queryKey={adminKeys.roles}
        endpoint={ENDPOINTS.roles}
        columns={columns}
        rowKey={(r) => r.id}
        defaultSort="id"
        emptyMessageKey="admin:roles.empty"
        rowActions={rowActions}
        toolbar={
          can('add') && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="role-add"
            >
              {t('roles.add')}
            </Button>
          )
        }
      />
      <RoleFormModal
        open={editing !== null}
        role={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onDone={() => {
          setEditing(null);
          // Also refreshes the role pickers: their key lives under the roles key.
          refresh();
        }}
      />
      <PermissionMatrixModal role={matrixFor} readOnly={!can('edit')} onClose={() => setMatrixFor(null)} />
    </AdminScreen>
  );
}
