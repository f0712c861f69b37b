/**
 * Administration — sections and pages (/auth/pages): the tree of sections and their pages, add a
 * section, add a page under a section, and edit either (names, path, icon, order, the permissions the
 * page offers). `view` is always offered (the server adds it): a page nobody can view is unreachable.
 */
import { useEffect, useMemo, useState, type Key } from 'react';
import {
  Button,
  Checkbox,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { EditOutlined, FolderAddOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createPageRequestSchema, type AdminPage, type AdminSection } from '../../../src-shared/api/admin';
import { PERMISSIONS, type Permission } from '../../../src-shared/permissions';
import { PAGE_ICONS, PageIcon } from '../../components/PageIcon';
import { AdminScreen } from './AdminScreen';
import { adminApi, adminKeys } from '../../lib/admin-api';
import { applyServerErrors, zodRule, useLocalisedForm } from '../../lib/forms';
import { localName } from '../../lib/names';
import { useCan } from '../../lib/usePermission';

const fields = createPageRequestSchema.shape;

interface PageFormValues {
  parentId: number | null;
  nameAr: string;
  nameEn: string;
  path: string;
  icon: string;
  order: number;
  availablePermissions: Permission[];
}

/** What the dialog is doing: adding a section, adding a page (under a section), or editing a node. */
export type PageDialog =
  { mode: 'addSection' } | { mode: 'addPage'; parentId: number | null } | { mode: 'edit'; node: AdminPage };

/** Adds or edits a section or a page. */
export function PageFormModal({
  dialog,
  sections,
  onClose,
  onDone,
}: {
  dialog: PageDialog | null;
  sections: readonly AdminSection[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('admin');
  const [form] = useLocalisedForm<PageFormValues>();
  const [saving, setSaving] = useState(false);
  const isSection =
    dialog?.mode === 'addSection' || (dialog?.mode === 'edit' && dialog.node.parentId === null);

  useEffect(() => {
    if (!dialog) return;
    form.resetFields();
    if (dialog.mode === 'edit') {
      const n = dialog.node;
      form.setFieldsValue({ ...n, availablePermissions: [...n.availablePermissions] });
    } else {
      const siblings =
        dialog.mode === 'addSection'
          ? sections
          : (sections.find((s) => s.id === dialog.parentId)?.children ?? []);
      const nextOrder = Math.min(10_000, Math.max(0, ...siblings.map((s) => s.order)) + 10);
      form.setFieldsValue({
        parentId: dialog.mode === 'addPage' ? dialog.parentId : null,
        nameAr: '',
        nameEn: '',
        path:
          dialog.mode === 'addPage' ? `${sections.find((s) => s.id === dialog.parentId)?.path ?? ''}/` : '/',
        icon: dialog.mode === 'addSection' ? 'FolderOutlined' : 'FileOutlined',
        order: nextOrder,
        availablePermissions: ['view'],
      });
    }
  }, [dialog, sections, form]);

  const save = async () => {
    if (!dialog) return;
    const values = await form.validateFields();
    const body = {
      nameAr: values.nameAr.trim(),
      nameEn: values.nameEn.trim(),
      path: values.path.trim(),
      icon: values.icon,
      order: values.order,
      availablePermissions: PERMISSIONS.filter(
        (p) => p === 'view' || values.availablePermissions.includes(p),
      ),
    };
    setSaving(true);
    try {
      if (dialog.mode === 'edit') await adminApi.updatePage(dialog.node.id, body);
      else
        await adminApi.createPage({ ...body, parentId: dialog.mode === 'addPage' ? values.parentId : null });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };

  const title =
    dialog?.mode === 'addSection'
      ? t('pages.addSectionTitle')
      : dialog?.mode === 'addPage'
        ? t('pages.addPageTitle')
        : t(isSection ? 'pages.editSectionTitle' : 'pages.editPageTitle', {
            name: dialog ? localName(dialog.node, i18n.language) : '',
          });

  return (
    <Modal
      open={dialog !== null}
      title={title}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      width={620}
      okButtonProps={{ 'data-testid': 'page-form-save' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" data-testid="page-form">
        {dialog?.mode === 'addPage' && (
          <Form.Item
            name="parentId"
            label={t('pages.fields.section')}
            required
            rules={[zodRule(fields.parentId.unwrap(), t)]}
          >
            <Select
              options={sections.map((s) => ({ value: s.id, label: localName(s, i18n.language) }))}
              onChange={(id: number) => {
                // Suggest the section's path as the prefix while the path is still untouched.
                const path = form.getFieldValue('path') as string;
                const prefix = sections.find((s) => s.id === id)?.path;
                if (prefix && (!path || sections.some((s) => `${s.path}/` === path) || path === '/')) {
                  form.setFieldValue('path', `${prefix}/`);
                }
              }}
              data-testid="page-section"
            />
          </Form.Item>
        )}
        <div className="admin-form-row">
          <Form.Item name="nameAr" label={t('fields.nameAr')} required rules={[zodRule(fields.nameAr, t)]}>
            <Input dir="rtl" data-testid="page-name-ar" />
          </Form.Item>
          <Form.Item name="nameEn" label={t('fields.nameEn')} required rules={[zodRule(fields.nameEn, t)]}>
            <Input dir="ltr" data-testid="page-name-en" />
          </Form.Item>
        </div>
        <Form.Item
          name="path"
          label={t('pages.fields.path')}
          required
          rules={[zodRule(fields.path, t)]}
          extra={t('pages.pathHint')}
        >
          <Input dir="ltr" data-testid="page-path" />
        </Form.Item>
        <div className="admin-form-row">
          <Form.Item
            name="icon"
            label={t('pages.fields.icon')}
            required
            rules={[zodRule(fields.icon.unwrap(), t)]}
          >
            <Select
              showSearch={{ optionFilterProp: 'value' }}
              data-testid="page-icon"
              options={Object.keys(PAGE_ICONS).map((name) => ({
                value: name,
                label: (
                  <Space>
                    <PageIcon name={name} />
                    <bdi dir="ltr">{name.replace(/Outlined$/, '')}</bdi>
                  </Space>
                ),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="order"
            label={t('pages.fields.order')}
            required
            rules={[zodRule(fields.order.unwrap(), t)]}
          >
            <InputNumber min={0} max={10_000} style={{ inlineSize: '100%' }} data-testid="page-order" />
          </Form.Item>
        </div>
        {!isSection && (
          <Form.Item
            name="availablePermissions"
            label={t('pages.fields.permissions')}
            extra={t('pages.permissionsHint')}
          >
            <Checkbox.Group
              data-testid="page-permissions"
              options={PERMISSIONS.map((p) => ({
                value: p,
                label: t(`permissions.${p}`),
                disabled: p === 'view',
              }))}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

type TreeRow = (AdminSection | (AdminPage & { children?: undefined })) & { key: number };

/** The sections and pages screen. `permissions` overrides the current page permissions. */
export function PagesPage({ permissions }: { permissions?: readonly Permission[] } = {}) {
  const { t, i18n } = useTranslation('admin');
  const can = useCan(permissions);
  const queryClient = useQueryClient();
  const tree = useQuery({ queryKey: adminKeys.pages, queryFn: adminApi.pagesTree });
  const [dialog, setDialog] = useState<PageDialog | null>(null);
  const sections = useMemo(() => tree.data?.pages ?? [], [tree.data]);
  const [expanded, setExpanded] = useState<readonly Key[] | null>(null);

  const rows: TreeRow[] = useMemo(
    () =>
      [...sections]
        .sort((a, b) => a.order - b.order)
        .map((s) => ({
          ...s,
          key: s.id,
          children: [...s.children].sort((a, b) => a.order - b.order).map((p) => ({ ...p, key: p.id })),
        })),
    [sections],
  );

  const columns: ColumnsType<TreeRow> = [
    {
      key: 'name',
      title: t('pages.columns.name'),
      render: (_, row) => (
        <Space>
          <PageIcon name={row.icon} />
          <span style={row.parentId === null ? { fontWeight: 600 } : undefined}>
            {localName(row, i18n.language)}
          </span>
          {row.parentId === null && <Tag>{t('pages.section')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'other',
      title: t(i18n.language === 'en' ? 'fields.nameAr' : 'fields.nameEn'),
      render: (_, row) =>
        // The other language's name is data: marked with its language and direction for readers and checks.
        i18n.language === 'en' ? (
          <bdi lang="ar" dir="rtl">
            {row.nameAr}
          </bdi>
        ) : (
          <bdi lang="en" dir="ltr">
            {row.nameEn}
          </bdi>
        ),
    },
    { key: 'path', title: t('pages.columns.path'), render: (_, row) => <bdi dir="ltr">{row.path}</bdi> },
    { key: 'order', title: t('pages.columns.order'), dataIndex: 'order', align: 'center', width: 80 },
    {
      key: 'permissions',
      title: t('pages.columns.permissions'),
      render: (_, row) =>
        row.parentId === null ? null : (
          <Space size={[4, 4]} wrap>
            {row.availablePermissions.map((p) => (
              <Tag key={p}>{t(`permissions.${p}`)}</Tag>
            ))}
          </Space>
        ),
    },
    ...(can('add') || can('edit')
      ? [
          {
            key: 'actions',
            title: t('table:actions'),
            align: 'end' as const,
            render: (_: unknown, row: TreeRow) => (
              <Space size={4}>
                {can('add') && row.parentId === null && (
                  <Tooltip title={t('pages.addPageTo', { name: localName(row, i18n.language) })}>
                    <Button
                      type="text"
                      icon={<PlusOutlined />}
                      aria-label={t('pages.addPageTo', { name: localName(row, i18n.language) })}
                      onClick={() => setDialog({ mode: 'addPage', parentId: row.id })}
                      data-testid={`page-add-under-${row.path}`}
                    />
                  </Tooltip>
                )}
                {can('edit') && (
                  <Tooltip title={t('actions.edit')}>
                    <Button
                      type="text"
                      icon={<EditOutlined />}
                      aria-label={t('actions.editNamed', { name: localName(row, i18n.language) })}
                      onClick={() => setDialog({ mode: 'edit', node: row })}
                      data-testid={`page-edit-${row.path}`}
                    />
                  </Tooltip>
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <AdminScreen title={t('pages.title')} description={t('pages.description')} testId="admin-pages">
      {can('add') && (
        <Space style={{ marginBlockEnd: 12 }} wrap>
          <Button
            type="primary"
            icon={<FolderAddOutlined />}
            onClick={() => setDialog({ mode: 'addSection' })}
            data-testid="section-add"
          >
            {t('pages.addSection')}
          </Button>
          <Button
            icon={<PlusOutlined />}
            onClick={() => setDialog({ mode: 'addPage', parentId: null })}
            disabled={sections.length === 0}
            data-testid="page-add"
          >
            {t('pages.addPage')}
          </Button>
        </Space>
      )}
      <Table<TreeRow>
        data-testid="pages-tree"
        rowKey="key"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={tree.isLoading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowKeys: expanded ?? rows.map((r) => r.key),
          onExpandedRowsChange: (keys) => setExpanded(keys),
        }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pages.empty')} /> }}
      />
      <PageFormModal
        dialog={dialog}
        sections={sections}
        onClose={() => setDialog(null)}
        onDone={() => {
          setDialog(null);
          void queryClient.invalidateQueries({ queryKey: adminKeys.pages });
        }}
      />
    </AdminScreen>
  );
}
