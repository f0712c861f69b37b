/**
 * The one generic list-and-form block of the correspondence settings (mediums, priorities, security
 * levels, codifications, main distribution departments). A declaration (declarations.ts) names the
 * endpoint and the fields; this block turns it into a server-side list (DataTable) with a column per
 * field and the status, an add/edit dialog with a control per field, and activate/deactivate — each
 * action shown only when the current page permissions allow it (`add`, `edit`, `activate`).
 */
import { useEffect, useState } from 'react';
import { App, Button, Form, Input, InputNumber, Modal, Select, Tag, Tooltip } from 'antd';
import type { Rule } from 'antd/es/form';
import { CheckCircleOutlined, EditOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Permission } from '../../../../src-shared/permissions';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { localName } from '../../../lib/names';
import { useCan } from '../../../lib/usePermission';
import { CorrespondenceScreen } from '../../../components/CorrespondenceScreen';
import { DepartmentSelect } from '../documents/pickers';
import { corrKeys, settingsApi, settingsEndpoint, type SettingsRow } from '../documents/api';
import { DIRECTIONS, type SettingsField, type SettingsListSpec } from './declarations';

/** The form rules of a field, worded with the specification's messages (section 5). */
function fieldRules(field: SettingsField, t: TFunction): Rule[] {
  const rules: Rule[] = [];
  if (field.required) rules.push({ required: true, whitespace: true, message: t('validation.required') });
  if (field.max) rules.push({ max: field.max, message: t('validation.maxLength', { max: field.max }) });
  if (field.pattern) {
    rules.push({ pattern: field.pattern, message: t(`validation.${field.patternMessage ?? 'invalid'}`) });
  }
  if (field.kind === 'level') {
    rules.push({ type: 'integer', min: 0, max: 1000, message: t('validation.number') });
  }
  return rules;
}

/** The control editing a field; Form.Item hands it `value` and `onChange`, passed on to the control. */
function FieldControl({
  field,
  testId,
  ...control
}: {
  field: SettingsField;
  testId: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  id?: string;
}) {
  const { t } = useTranslation('correspondence');
  const id = `${testId}-${field.name}`;
  switch (field.kind) {
    case 'level':
      return (
        <InputNumber
          {...(control as object)}
          min={0}
          max={1000}
          precision={0}
          className="corr-full"
          data-testid={id}
        />
      );
    case 'direction':
      return (
        <Select
          {...(control as object)}
          data-testid={id}
          options={DIRECTIONS.map((d) => ({ value: d, label: t(`direction.${d}`) }))}
        />
      );
    case 'department':
      return (
        <DepartmentSelect
          id={control.id}
          value={control.value as number | null | undefined}
          onChange={control.onChange}
          testId={id}
        />
      );
    case 'ltrText':
      return <Input {...(control as object)} dir="ltr" autoComplete="off" data-testid={id} />;
    default:
      return (
        <Input
          {...(control as object)}
          autoComplete="off"
          data-testid={id}
          dir={field.name === 'nameEn' ? 'ltr' : undefined}
        />
      );
  }
}

/** How a field's value shows in its column. */
function renderCell(field: SettingsField, row: SettingsRow, t: TFunction, language: string) {
  switch (field.kind) {
    case 'direction':
      return row.direction ? <Tag>{t(`direction.${row.direction}`)}</Tag> : null;
    case 'department':
      return localName(row.department, language);
    case 'ltrText':
      return <bdi dir="ltr">{String(row[field.name as keyof SettingsRow] ?? '')}</bdi>;
    default: {
      const text = String(row[field.name as keyof SettingsRow] ?? '');
      // Each name is shown in its own language whatever the interface's (and marked so).
      if (field.name === 'nameAr')
        return (
          <bdi lang="ar" dir="rtl">
            {text}
          </bdi>
        );
      if (field.name === 'nameEn')
        return (
          <bdi lang="en" dir="ltr">
            {text}
          </bdi>
        );
      return text;
    }
  }
}

/** The add/edit dialog of a settings list, its controls declared by the list's fields. */
function SettingsFormModal({
  spec,
  row,
  open,
  onClose,
  onDone,
}: {
  spec: SettingsListSpec;
  row: SettingsRow | null;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('correspondence');
  const [form] = useLocalisedForm<Record<string, unknown>>();
  // Tried whatever the browser says of the network (as before): the server answers or the call fails.
  const saving = useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Record<string, unknown> }) =>
      id !== null ? settingsApi.update(spec.list, id, body) : settingsApi.create(spec.list, body),
    networkMode: 'always',
  });
  const listName = t(`settings.lists.${spec.key}.item`);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (row) {
      form.setFieldsValue(
        Object.fromEntries(
          spec.fields.map((f) => [
            f.name,
            f.kind === 'department' ? row.department?.id : (row[f.name as keyof SettingsRow] ?? undefined),
          ]),
        ),
      );
    }
  }, [open, row, form, spec]);

  const save = async () => {
    const values = await form.validateFields();
    const body = Object.fromEntries(
      spec.fields
        .map((f) => {
          const value = values[f.name];
          return [f.name, typeof value === 'string' ? value.trim() : value];
        })
        .filter(([, value]) => value !== undefined && value !== null),
    );
    try {
      await saving.mutateAsync({ id: row ? row.id : null, body });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    }
  };

  return (
    <Modal
      open={open}
      title={row ? t('settings.editTitle', { item: listName }) : t('settings.addTitle', { item: listName })}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': `${spec.testId}-save` } as Record<string, string>}
    >
      <Form form={form} layout="vertical" data-testid={`${spec.testId}-form`}>
        {spec.fields.map((field) => (
          <Form.Item
            key={field.name}
            name={field.name}
            label={t(`settings.fields.${field.label}`)}
            required={field.required}
            rules={fieldRules(field, t)}
          >
            <FieldControl field={field} testId={spec.testId} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

/** A settings list screen built from its declaration. `permissions` overrides the page's (tests). */
export function SettingsListScreen({
  spec,
  permissions,
}: {
  spec: SettingsListSpec;
  permissions?: readonly Permission[];
}) {
  const { t, i18n } = useTranslation('correspondence');
  const can = useCan(permissions);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<SettingsRow | 'new' | null>(null);
  const queryKey = corrKeys.settings(spec.list);
  const refresh = () => void queryClient.invalidateQueries({ queryKey });

  const rowName = (row: SettingsRow) =>
    spec.fields.some((f) => f.name === 'nameAr')
      ? localName(row, i18n.language)
      : localName(row.department, i18n.language);

  const confirmActive = (row: SettingsRow) => {
    const activate = !row.active;
    modal.confirm({
      title: t(activate ? 'settings.activateTitle' : 'settings.deactivateTitle', { name: rowName(row) }),
      okText: t(activate ? 'actions.activate' : 'actions.deactivate'),
      okButtonProps: { danger: !activate },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await settingsApi.setActive(spec.list, row.id, activate);
        refresh();
      },
    });
  };

  const columns: DataTableColumn<SettingsRow>[] = [
    ...spec.fields.map((field, index): DataTableColumn<SettingsRow> => ({
      key: field.kind === 'department' ? 'department' : field.name,
      // The first field (the name, the department) takes the room; a second name is held to a width.
      ...(index > 0 && field.kind === 'text' ? { ellipsis: true, width: 240 } : {}),
      title: `correspondence:settings.fields.${field.label}`,
      sortable: field.sortable ?? true,
      filter:
        field.kind === 'level'
          ? { type: 'number' }
          : field.kind === 'direction'
            ? {
                type: 'enum',
                options: DIRECTIONS.map((d) => ({ value: d, label: `correspondence:direction.${d}` })),
              }
            : field.kind === 'department'
              ? undefined
              : { type: 'text', ...(field.matchModes ? { matchModes: field.matchModes } : {}) },
      render: (row) => renderCell(field, row, t, i18n.language),
    })),
    {
      key: 'active',
      title: 'correspondence:settings.fields.status',
      sortable: true,
      filter: { type: 'boolean' },
      render: (row) =>
        row.active ? <Tag color="green">{t('status.active')}</Tag> : <Tag>{t('status.inactive')}</Tag>,
    },
  ];

  const rowActions = (row: SettingsRow) => (
    <>
      {can('edit') && (
        <Tooltip title={t('actions.edit')}>
          <Button
            type="text"
            icon={<EditOutlined />}
            aria-label={t('actions.editNamed', { name: rowName(row) })}
            onClick={() => setEditing(row)}
            data-testid={`${spec.testId}-edit-${row.id}`}
          />
        </Tooltip>
      )}
      {can('activate') && (
        <Tooltip title={t(row.active ? 'actions.deactivate' : 'actions.activate')}>
          <Button
            type="text"
            danger={row.active}
            icon={row.active ? <StopOutlined /> : <CheckCircleOutlined />}
            aria-label={t(row.active ? 'actions.deactivateNamed' : 'actions.activateNamed', {
              name: rowName(row),
            })}
            onClick={() => confirmActive(row)}
            data-testid={`${spec.testId}-active-${row.id}`}
          />
        </Tooltip>
      )}
    </>
  );

  return (
    <CorrespondenceScreen testId={spec.testId} subtitle={t(`settings.lists.${spec.key}.description`)}>
      <DataTable<SettingsRow>
        testId={`${spec.testId}-table`}
        queryKey={queryKey}
        endpoint={settingsEndpoint(spec.list)}
        columns={columns}
        rowKey={(row) => row.id}
        defaultSort={spec.defaultSort}
        emptyMessageKey={`correspondence:settings.lists.${spec.key}.empty`}
        rowActions={can('edit') || can('activate') ? rowActions : undefined}
        toolbar={
          can('add') && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid={`${spec.testId}-add`}
            >
              {t('settings.add', { item: t(`settings.lists.${spec.key}.item`) })}
            </Button>
          )
        }
      />
      <SettingsFormModal
        spec={spec}
        open={editing !== null}
        row={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onDone={() => {
          setEditing(null);
          refresh();
        }}
      />
    </CorrespondenceScreen>
  );
}
