/**
 * Administration — users (/auth/users): the server-side list with filters, and add, edit, change
 * password, reset password (the temporary password shown once) and activate/deactivate. Actions show
 * only when the current page permissions allow them (`add`, `edit`, `activate`); what a user read
 * (UserReadsDrawer) shows to holders of the audit page's `view`, as the server requires.
 */
import { useState } from 'react';
import { App, Button, Dropdown, Space, Tag, Tooltip } from 'antd';
import {
  CheckCircleOutlined,
  EditOutlined,
  KeyOutlined,
  LockOutlined,
  MoreOutlined,
  ReadOutlined,
  SafetyOutlined,
  StopOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../src-shared/api/admin';
import { PAGES } from '../../../src-shared/pages';
import type { Permission } from '../../../src-shared/permissions';
import { useCanOn } from '../../app/permissions';
import { DataTable, formatDate, formatDateTime, type DataTableColumn } from '../../components/DataTable';
import { AdminScreen } from './AdminScreen';
import { ENDPOINTS, adminApi, adminKeys } from '../../lib/admin-api';
import { localName } from '../../lib/names';
import { useCan } from '../../lib/usePermission';
import { TemporaryPasswordModal, UserFormModal, UserPasswordModal } from './UserDialogs';
import { UserReadsDrawer } from './UserReadsDrawer';

/** The users screen. `permissions` overrides the current page permissions (tests, embedding). */
export function UsersPage({ permissions }: { permissions?: readonly Permission[] } = {}) {
  const { t, i18n } = useTranslation('admin');
  const can = useCan(permissions);
  const mayAudit = useCanOn(PAGES.audit, 'view');
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<User | null | 'new'>(null);
  const [passwordFor, setPasswordFor] = useState<User | null>(null);
  const [readsOf, setReadsOf] = useState<User | null>(null);
  const [temporary, setTemporary] = useState<{ username: string; temporaryPassword: string } | null>(null);
  const roles = useQuery({ queryKey: adminKeys.roleOptions, queryFn: adminApi.roleOptions });
  const nameField = i18n.language === 'en' ? 'nameEn' : 'nameAr';

  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.users });

  const confirmActive = (user: User) => {
    const activate = !user.active;
    modal.confirm({
      title: t(activate ? 'users.activateTitle' : 'users.deactivateTitle', { name: user.username }),
      content: t(activate ? 'users.activateBody' : 'users.deactivateBody'),
      okText: t(activate ? 'actions.activate' : 'actions.deactivate'),
      okButtonProps: { danger: !activate },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await adminApi.setUserActive(user.id, activate);
        refresh();
      },
    });
  };

  const confirmReset = (user: User) => {
    modal.confirm({
      title: t('users.resetTitle', { name: user.username }),
      content: t('users.resetBody'),
      okText: t('actions.resetPassword'),
      cancelText: t('actions.cancel'),
      onOk: async () => {
        const { temporaryPassword } = await adminApi.resetUserPassword(user.id);
        setTemporary({ username: user.username, temporaryPassword });
      },
    });
  };

  const columns: DataTableColumn<User>[] = [
    {
      key: 'username',
      title: 'admin:users.columns.username',
      sortable: true,
      filter: { type: 'text' },
      render: (u) => <bdi dir="ltr">{u.username}</bdi>,
    },
    {
      key: nameField,
      title: 'admin:users.columns.name',
      sortable: true,
      filter: { type: 'text' },
      grow: true,
    },
    {
      key: 'email',
      title: 'admin:users.columns.email',
      sortable: true,
      filter: { type: 'text' },
      ellipsis: true,
      width: 220,
      render: (u) => <bdi dir="ltr">{u.email}</bdi>,
    },
    {
      key: 'role',
      title: 'admin:users.columns.role',
      filter: {
        type: 'enum',
        field: 'roleId',
        options: (roles.data?.items ?? []).map((r) => ({ value: r.id, label: localName(r, i18n.language) })),
      },
      width: 140,
      render: (u) => localName(u.role, i18n.language),
    },
    {
      key: 'active',
      title: 'admin:users.columns.status',
      sortable: true,
      filter: { type: 'boolean' },
      // Two-factor rides along with the status: one column fewer keeps the list within the screen.
      render: (u) => (
        <Space size={4} wrap={false}>
          {u.active ? <Tag color="green">{t('status.active')}</Tag> : <Tag>{t('status.inactive')}</Tag>}
          {u.useTotp && (
            <Tooltip title={t('users.twoFactorOn')}>
              <Tag
                icon={<SafetyOutlined />}
                color="blue"
                aria-label={t('users.twoFactorOn')}
                data-testid="two-factor-on"
              />
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      key: 'clearance',
      title: 'admin:users.columns.clearance',
      width: 140,
      render: (u) =>
        u.clearance ? (
          <Tag>{localName(u.clearance, i18n.language)}</Tag>
        ) : (
          <span className="admin-muted">{t('users.clearanceDefault')}</span>
        ),
    },
    {
      key: 'lastSignInAt',
      title: 'admin:users.columns.lastSignIn',
      hiddenByDefault: true,
      render: (u) =>
        u.lastSignInAt ? <bdi>{formatDateTime(u.lastSignInAt)}</bdi> : <span className="admin-muted">—</span>,
    },
    {
      key: 'createdAt',
      title: 'admin:users.columns.createdAt',
      sortable: true,
      filter: { type: 'date' },
      render: (u) => <bdi>{formatDate(u.createdAt)}</bdi>,
    },
  ];

  const rowActions = (user: User) => {
    // What the user read sits in the row's menu (one more button would push the list past 1280 px),
    // after the password entries and before (de)activation, which stays last.
    const more = [
      ...(can('edit')
        ? [
            {
              key: 'password',
              icon: <LockOutlined />,
              label: t('actions.changePassword'),
              onClick: () => setPasswordFor(user),
            },
            {
              key: 'reset',
              icon: <KeyOutlined />,
              label: t('actions.resetPassword'),
              onClick: () => confirmReset(user),
            },
          ]
        : []),
      ...(mayAudit
        ? [
            {
              key: 'reads',
              icon: <ReadOutlined />,
              label: <span data-testid={`user-reads-${user.username}`}>{t('reads.open')}</span>,
              onClick: () => setReadsOf(user),
            },
          ]
        : []),
      ...(can('activate')
        ? [
            {
              key: 'active',
              icon: user.active ? <StopOutlined /> : <CheckCircleOutlined />,
              label: t(user.active ? 'actions.deactivate' : 'actions.activate'),
              danger: user.active,
              onClick: () => confirmActive(user),
            },
          ]
        : []),
    ];
    return (
      <>
        {can('edit') && (
          <Tooltip title={t('actions.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={t('actions.editNamed', { name: user.username })}
              onClick={() => setEditing(user)}
              data-testid={`user-edit-${user.username}`}
            />
          </Tooltip>
        )}
        {more.length > 0 && (
          <Dropdown menu={{ items: more }} trigger={['click']}>
            <Button
              type="text"
              icon={<MoreOutlined />}
              aria-label={t('actions.moreNamed', { name: user.username })}
              data-testid={`user-more-${user.username}`}
            />
          </Dropdown>
        )}
      </>
    );
  };

  return (
    <AdminScreen title={t('users.title')} description={t('users.description')} testId="admin-users">
      <DataTable<User>
        testId="users-table"
        queryKey={adminKeys.users}
        endpoint={ENDPOINTS.users}
        columns={columns}
        rowKey={(u) => u.id}
        defaultSort="-createdAt"
        emptyMessageKey="admin:users.empty"
        rowActions={can('edit') || can('activate') || mayAudit ? rowActions : undefined}
        toolbar={
          can('add') && (
            <Button
              type="primary"
              icon={<UserAddOutlined />}
              onClick={() => setEditing('new')}
              data-testid="user-add"
            >
              {t('users.add')}
            </Button>
          )
        }
      />
      <UserFormModal
        open={editing !== null}
        user={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onDone={() => {
          setEditing(null);
          refresh();
        }}
      />
      <UserPasswordModal user={passwordFor} onClose={() => setPasswordFor(null)} />
      <TemporaryPasswordModal result={temporary} onClose={() => setTemporary(null)} />
      <UserReadsDrawer user={readsOf} onClose={() => setReadsOf(null)} />
    </AdminScreen>
  );
}
