/**
 * The department dialogs: add a main department, add one under a node, edit (names, parent — moving it
 * —, entity flag, archive type, e-mail address) and configure (archive office, manager, secretary office). They validate
 * with the server's schemas and show its field errors inline (a move into its own subtree is refused by
 * the server with 422; the picker does not offer it in the first place).
 */
import { useEffect, useState } from 'react';
import { Form, Input, Modal, Select, Spin, Switch, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ARCHIVE_TYPES,
  createDepartmentRequestSchema,
  type ArchiveType,
  type Department,
  type DepartmentTreeNode,
  type DepartmentType,
} from '../../../src-shared/api/directory';
import { DepartmentPicker } from '../../components/DepartmentPicker';
import { EmployeePicker } from '../../components/EmployeePicker';
import { directoryApi, directoryKeys, localName } from '../../lib/directory-api';
import { applyServerErrors, directoryRule } from './forms';
import { useLocalisedForm } from '../../lib/forms';

const fields = createDepartmentRequestSchema.shape;

/** What the form does: a main department of a type, one under a parent, or editing one. */
export type DepartmentFormMode =
  | { kind: 'main'; type: DepartmentType }
  | { kind: 'child'; parent: DepartmentTreeNode }
  | { kind: 'edit'; id: number };

interface DepartmentValues {
  nameAr: string;
  nameEn: string;
  parentId: number | null;
  isEntity: boolean;
  archiveType: ArchiveType;
  email?: string;
}

/** Adds or edits a department; `onDone` gets the saved one. */
export function DepartmentFormModal({
  mode,
  onClose,
  onDone,
}: {
  mode: DepartmentFormMode | null;
  onClose: () => void;
  onDone: (saved: Department) => void;
}) {
  const { t, i18n } = useTranslation('directory');
  const [form] = useLocalisedForm<DepartmentValues>();
  const [saving, setSaving] = useState(false);
  const editId = mode?.kind === 'edit' ? mode.id : null;
  const existing = useQuery({
    queryKey: directoryKeys.department(editId ?? 0),
    queryFn: () => directoryApi.department(editId!),
    enabled: editId !== null,
  });
  const editing = editId !== null ? existing.data : undefined;
  const type: DepartmentType =
    mode?.kind === 'main'
      ? mode.type
      : mode?.kind === 'child'
        ? mode.parent.type
        : (editing?.type ?? 'internal');

  useEffect(() => {
    if (!mode) return;
    form.resetFields();
    if (mode.kind === 'edit') {
      if (!editing) return;
      form.setFieldsValue({
        nameAr: editing.nameAr,
        nameEn: editing.nameEn,
        parentId: editing.parentId,
        isEntity: editing.isEntity,
        archiveType: editing.archiveType,
        email: editing.email ?? '',
      });
    } else {
      form.setFieldsValue({
        nameAr: '',
        nameEn: '',
        parentId: mode.kind === 'child' ? mode.parent.id : null,
        isEntity: mode.kind === 'main' && mode.type === 'external',
        archiveType: 'none',
        email: '',
      });
    }
  }, [mode, editing, form]);

  const save = async () => {
    const values = await form.validateFields();
    const body = {
      nameAr: values.nameAr.trim(),
      nameEn: values.nameEn.trim(),
      parentId: values.parentId ?? null,
      isEntity: values.isEntity,
      archiveType: values.archiveType,
      email: values.email?.trim() ? values.email.trim() : null,
    };
    setSaving(true);
    try {
      const saved =
        mode?.kind === 'edit'
          ? await directoryApi.updateDepartment(mode.id, body)
          : await directoryApi.createDepartment({ ...body, type });
      onDone(saved);
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };

  const title =
    mode?.kind === 'main'
      ? t(mode.type === 'external' ? 'departments.addMainExternal' : 'departments.addMainTitle')
      : mode?.kind === 'child'
        ? t('departments.addChildTitle', { name: localName(mode.parent, i18n.language) })
        : t('departments.editTitle', { name: localName(editing, i18n.language) });

  return (
    <Modal
      open={mode !== null}
      title={title}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      width={600}
      okButtonProps={{ 'data-testid': 'department-form-save' } as Record<string, string>}
    >
      {mode?.kind === 'edit' && !editing ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" data-testid="department-form">
          <div className="directory-form-row">
            <Form.Item
              name="nameAr"
              label={t('departments.fields.nameAr')}
              required
              rules={[directoryRule(fields.nameAr, t)]}
            >
              <Input dir="rtl" lang="ar" data-testid="department-name-ar" />
            </Form.Item>
            <Form.Item
              name="nameEn"
              label={t('departments.fields.nameEn')}
              required
              rules={[directoryRule(fields.nameEn, t)]}
            >
              <Input dir="ltr" lang="en" data-testid="department-name-en" />
            </Form.Item>
          </div>
          <Form.Item name="parentId" label={t('departments.fields.parent')}>
            <DepartmentPicker
              type={type}
              excludeId={editId ?? undefined}
              placeholder={t('departments.fields.parentNone')}
              data-testid="department-parent"
            />
          </Form.Item>
          <div className="directory-form-row">
            <Form.Item name="archiveType" label={t('departments.fields.archiveType')}>
              <Select
                data-testid="department-archive-type"
                options={ARCHIVE_TYPES.map((a) => ({ value: a, label: t(`departments.archiveTypes.${a}`) }))}
              />
            </Form.Item>
            <Form.Item name="isEntity" label={t('departments.fields.isEntity')} valuePropName="checked">
              <Switch data-testid="department-is-entity" />
            </Form.Item>
          </div>
          <Form.Item
            name="email"
            label={t('departments.fields.email')}
            extra={type === 'external' ? t('departments.emailHint') : undefined}
            rules={[directoryRule(fields.email, t, { optional: true })]}
            normalize={(v: string) => v.trim()}
          >
            <Input dir="ltr" type="email" maxLength={254} autoComplete="off" data-testid="department-email" />
          </Form.Item>
          <Typography.Text type="secondary">{t(`departments.types.${type}`)}</Typography.Text>
        </Form>
      )}
    </Modal>
  );
}

interface ConfigureValues {
  archiveOfficeId: number | null;
  managerEmployeeId: number | null;
  secretaryEmployeeId: number | null;
}

/** Configures a department: its archive office, manager and secretary office. */
export function ConfigureDepartmentModal({
  departmentId,
  onClose,
  onDone,
}: {
  departmentId: number | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('directory');
  const [form] = useLocalisedForm<ConfigureValues>();
  const [saving, setSaving] = useState(false);
  const current = useQuery({
    queryKey: directoryKeys.department(departmentId ?? 0),
    queryFn: () => directoryApi.department(departmentId!),
    enabled: departmentId !== null,
  });
  const dept = current.data;

  useEffect(() => {
    if (departmentId === null || !dept) return;
    form.resetFields();
    form.setFieldsValue({
      archiveOfficeId: dept.archiveOfficeId,
      managerEmployeeId: dept.managerEmployeeId,
      secretaryEmployeeId: dept.secretaryOffice?.active ? dept.secretaryOffice.secretary.id : null,
    });
  }, [departmentId, dept, form]);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await directoryApi.configureDepartment(departmentId!, {
        archiveOfficeId: values.archiveOfficeId ?? null,
        managerEmployeeId: values.managerEmployeeId ?? null,
        secretaryEmployeeId: values.secretaryEmployeeId ?? null,
      });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={departmentId !== null}
      title={t('departments.configureTitle', { name: localName(dept, i18n.language) })}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      width={560}
      okButtonProps={{ 'data-testid': 'department-configure-save' } as Record<string, string>}
    >
      {!dept ? (
        <Spin />
      ) : (
        <Form form={form} layout="vertical" data-testid="department-configure-form">
          <Form.Item
            name="archiveOfficeId"
            label={t('departments.fields.archiveOffice')}
            extra={t('departments.archiveOfficeHint')}
          >
            <DepartmentPicker type="internal" data-testid="department-archive-office" />
          </Form.Item>
          <Form.Item name="managerEmployeeId" label={t('departments.fields.manager')}>
            <EmployeePicker current={dept.manager} data-testid="department-manager" />
          </Form.Item>
          <Form.Item
            name="secretaryEmployeeId"
            label={t('departments.fields.secretary')}
            extra={t('departments.secretaryHint')}
          >
            <EmployeePicker
              current={dept.secretaryOffice?.secretary ?? null}
              data-testid="department-secretary"
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
