/**
 * Employee Centre — secretary offices (/ec/secretary-offices): a department and its secretary (an
 * employee); list, add and edit. One office per department (the server answers 409 otherwise).
 */
import { useEffect, useState } from 'react';
import { Button, Form, Modal, Tag, Tooltip } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SecretaryOffice } from '../../../src-shared/api/directory';
import type { Permission } from '../../../src-shared/permissions';
import { DataTable, formatDate, type DataTableColumn } from '../../components/DataTable';
import { DepartmentPicker } from '../../components/DepartmentPicker';
import { EmployeePicker } from '../../components/EmployeePicker';
import { DIRECTORY_ENDPOINTS, directoryApi, directoryKeys, localName } from '../../lib/directory-api';
import { DirectoryScreen } from './DirectoryScreen';
import { applyServerErrors, requiredRule } from './forms';
import { useDirectoryCan } from './usePermission';
import { useLocalisedForm } from '../../lib/forms';

/** The secretary offices screen. `permissions` overrides the current page permissions (tests). */
export function SecretaryOfficesPage({ permissions }: { permissions?: readonly Permission[] } = {}) {
  const { t, i18n } = useTranslation('directory');
  const can = useDirectoryCan(permissions);
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<SecretaryOffice | 'new' | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: directoryKeys.all });

  const columns: DataTableColumn<SecretaryOffice>[] = [
    {
      key: 'department',
      title: 'directory:secretaryOffices.columns.department',
      sortable: true,
      filter: { type: 'text' },
      render: (o) => localName(o.department, i18n.language),
    },
    {
      key: 'secretary',
      title: 'directory:secretaryOffices.columns.secretary',
      sortable: true,
      filter: { type: 'text' },
      ellipsis: true,
      width: 240,
      render: (o) => localName(o.secretary, i18n.language),
    },
    {
      key: 'active',
      title: 'directory:secretaryOffices.columns.status',
      sortable: true,
      filter: { type: 'boolean' },
      render: (o) =>
        o.active ? <Tag color="green">{t('status.active')}</Tag> : <Tag>{t('status.inactive')}</Tag>,
    },
    {
      key: 'createdAt',
      title: 'directory:secretaryOffices.columns.createdAt',
      sortable: true,
      filter: { type: 'date' },
      render: (o) => <bdi>{formatDate(o.createdAt)}</bdi>,
    },
  ];

  return (
    <DirectoryScreen
      title={t('secretaryOffices.title')}
      description={t('secretaryOffices.description')}
      testId="directory-secretary-offices"
    >
      <DataTable<SecretaryOffice>
        testId="secretary-offices-table"
        queryKey={directoryKeys.secretaryOffices}
        endpoint={DIRECTORY_ENDPOINTS.secretaryOffices}
        columns={columns}
        rowKey={(o) => o.id}
        defaultSort="-createdAt"
        emptyMessageKey="directory:empty.secretaryOffices"
        rowActions={
          can('edit')
            ? (o) => (
                <Tooltip title={t('actions.edit')}>
                  <Button
                    type="text"
                    icon={<EditOutlined />}
                    aria-label={t('actions.editNamed', { name: localName(o.department, i18n.language) })}
                    onClick={() => setEditing(o)}
                    data-testid={`secretary-office-edit-${o.id}`}
                  />
                </Tooltip>
              )
            : undefined
        }
        toolbar={
          can('add') && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="secretary-office-add"
            >
              {t('secretaryOffices.add')}
            </Button>
          )
        }
      />
      <SecretaryOfficeModal
        office={editing}
        onClose={() => setEditing(null)}
        onDone={() => {
          setEditing(null);
          refresh();
        }}
      />
    </DirectoryScreen>
  );
}

interface OfficeValues {
  departmentId?: number;
  secretaryEmployeeId?: number;
}

/** Adds (`'new'`) or edits a secretary office. */
function SecretaryOfficeModal({
  office,
  onClose,
  onDone,
}: {
  office: SecretaryOffice | 'new' | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('directory');
  const [form] = useLocalisedForm<OfficeValues>();
  const [saving, setSaving] = useState(false);
  const editing = office !== null && office !== 'new' ? office : null;

  useEffect(() => {
    if (office === null) return;
    form.resetFields();
    form.setFieldsValue(
      editing ? { departmentId: editing.departmentId, secretaryEmployeeId: editing.secretaryEmployeeId } : {},
    );
  }, [office, editing, form]);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const body = { departmentId: values.departmentId!, secretaryEmployeeId: values.secretaryEmployeeId! };
      if (editing) await directoryApi.updateSecretaryOffice(editing.id, body);
      else await directoryApi.createSecretaryOffice({ ...body, active: true });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={office !== null}
      title={
        editing
          ? t('secretaryOffices.editTitle', { name: localName(editing.department, i18n.language) })
          : t('secretaryOffices.addTitle')
      }
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'secretary-office-save' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" data-testid="secretary-office-form">
        <Form.Item
          name="departmentId"
          label={t('secretaryOffices.fields.department')}
          rules={[requiredRule(t)]}
        >
          <DepartmentPicker type="internal" data-testid="secretary-office-department" />
        </Form.Item>
        <Form.Item
          name="secretaryEmployeeId"
          label={t('secretaryOffices.fields.secretary')}
          rules={[requiredRule(t)]}
        >
          <EmployeePicker current={editing?.secretary ?? null} data-testid="secretary-office-secretary" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The route module of /ec/secretary-offices. */
export function Component() {
  return <SecretaryOfficesPage />;
}
