/**
 * Employee Centre — jobs (/ec/jobs): the server-side list, add and edit (names in both languages, the
 * manager flag), activate and deactivate. Actions show only with the page's `add`, `edit`, `activate`.
 */
import { useEffect, useState } from 'react';
import { App, Button, Form, Input, Modal, Switch, Tag, Tooltip } from 'antd';
import { CheckCircleOutlined, EditOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createJobRequestSchema, type Job } from '../../../src-shared/api/directory';
import type { Permission } from '../../../src-shared/permissions';
import { DataTable, formatDate, type DataTableColumn } from '../../components/DataTable';
import {
  DIRECTORY_ENDPOINTS,
  directoryApi,
  directoryKeys,
  localName,
  otherName,
} from '../../lib/directory-api';
import { DirectoryScreen } from './DirectoryScreen';
import { applyServerErrors, directoryRule } from './forms';
import { useDirectoryCan } from './usePermission';
import { useLocalisedForm } from '../../lib/forms';

const fields = createJobRequestSchema.shape;

/** The jobs screen. `permissions` overrides the current page permissions (tests). */
export function JobsPage({ permissions }: { permissions?: readonly Permission[] } = {}) {
  const { t, i18n } = useTranslation('directory');
  const can = useDirectoryCan(permissions);
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Job | 'new' | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: directoryKeys.all });
  const nameField = i18n.language === 'en' ? 'nameEn' : 'nameAr';

  const confirmActive = (job: Job) => {
    const activate = !job.active;
    const name = localName(job, i18n.language);
    modal.confirm({
      title: t(activate ? 'jobs.activateTitle' : 'jobs.deactivateTitle', { name }),
      content: t(activate ? 'jobs.activateBody' : 'jobs.deactivateBody'),
      okText: t(activate ? 'actions.activate' : 'actions.deactivate'),
      okButtonProps: { danger: !activate },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await directoryApi.setJobActive(job.id, activate);
        refresh();
      },
    });
  };

  const columns: DataTableColumn<Job>[] = [
    {
      key: nameField,
      title: 'directory:jobs.columns.name',
      sortable: true,
      filter: { type: 'text' },
      render: (j) => <span data-testid={`job-name-${j.id}`}>{localName(j, i18n.language)}</span>,
    },
    {
      key: i18n.language === 'en' ? 'nameAr' : 'nameEn',
      title: 'directory:jobs.columns.otherName',
      ellipsis: true,
      width: 240,
      render: (j) => {
        const other = otherName(j, i18n.language);
        return (
          <span lang={other.lang} dir={other.dir} className="directory-muted">
            {other.text}
          </span>
        );
      },
    },
    {
      key: 'isManager',
      title: 'directory:jobs.columns.isManager',
      sortable: true,
      filter: { type: 'boolean' },
      render: (j) =>
        j.isManager ? <Tag color="gold">{t('yes')}</Tag> : <span className="directory-muted">{t('no')}</span>,
    },
    { key: 'employeeCount', title: 'directory:jobs.columns.employees', align: 'end' },
    {
      key: 'active',
      title: 'directory:jobs.columns.status',
      sortable: true,
      filter: { type: 'boolean' },
      render: (j) =>
        j.active ? <Tag color="green">{t('status.active')}</Tag> : <Tag>{t('status.inactive')}</Tag>,
    },
    {
      key: 'createdAt',
      title: 'directory:jobs.columns.createdAt',
      sortable: true,
      filter: { type: 'date' },
      render: (j) => <bdi>{formatDate(j.createdAt)}</bdi>,
    },
  ];

  const rowActions = (job: Job) => {
    const name = localName(job, i18n.language);
    return (
      <>
        {can('edit') && (
          <Tooltip title={t('actions.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              aria-label={t('actions.editNamed', { name })}
              onClick={() => setEditing(job)}
              data-testid={`job-edit-${job.id}`}
            />
          </Tooltip>
        )}
        {can('activate') && (
          <Tooltip title={t(job.active ? 'actions.deactivate' : 'actions.activate')}>
            <Button
              type="text"
              danger={job.active}
              icon={job.active ? <StopOutlined /> : <CheckCircleOutlined />}
              aria-label={`${t(job.active ? 'actions.deactivate' : 'actions.activate')} ${name}`}
              onClick={() => confirmActive(job)}
              data-testid={`job-active-${job.id}`}
            />
          </Tooltip>
        )}
      </>
    );
  };

  return (
    <DirectoryScreen title={t('jobs.title')} description={t('jobs.description')} testId="directory-jobs">
      <DataTable<Job>
        testId="jobs-table"
        queryKey={directoryKeys.jobs}
        endpoint={DIRECTORY_ENDPOINTS.jobs}
        columns={columns}
        rowKey={(j) => j.id}
        defaultSort={nameField}
        emptyMessageKey="directory:empty.jobs"
        rowActions={can('edit') || can('activate') ? rowActions : undefined}
        toolbar={
          can('add') && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="job-add"
            >
              {t('jobs.add')}
            </Button>
          )
        }
      />
      <JobFormModal
        job={editing}
        onClose={() => setEditing(null)}
        onDone={() => {
          setEditing(null);
          refresh();
        }}
      />
    </DirectoryScreen>
  );
}

interface JobValues {
  nameAr: string;
  nameEn: string;
  isManager: boolean;
}

/** Adds (`'new'`) or edits a job. */
function JobFormModal({
  job,
  onClose,
  onDone,
}: {
  job: Job | 'new' | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('directory');
  const [form] = useLocalisedForm<JobValues>();
  const [saving, setSaving] = useState(false);
  const editing = job !== null && job !== 'new' ? job : null;

  useEffect(() => {
    if (job === null) return;
    form.resetFields();
    form.setFieldsValue(
      editing
        ? { nameAr: editing.nameAr, nameEn: editing.nameEn, isManager: editing.isManager }
        : { nameAr: '', nameEn: '', isManager: false },
    );
  }, [job, editing, form]);

  const save = async () => {
    const values = await form.validateFields();
    const body = { nameAr: values.nameAr.trim(), nameEn: values.nameEn.trim(), isManager: values.isManager };
    setSaving(true);
    try {
      if (editing) await directoryApi.updateJob(editing.id, body);
      else await directoryApi.createJob({ ...body, active: true });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={job !== null}
      title={editing ? t('jobs.editTitle', { name: localName(editing, i18n.language) }) : t('jobs.addTitle')}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'job-form-save' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" data-testid="job-form">
        <div className="directory-form-row">
          <Form.Item
            name="nameAr"
            label={t('jobs.fields.nameAr')}
            required
            rules={[directoryRule(fields.nameAr, t)]}
          >
            <Input dir="rtl" lang="ar" data-testid="job-name-ar" />
          </Form.Item>
          <Form.Item
            name="nameEn"
            label={t('jobs.fields.nameEn')}
            required
            rules={[directoryRule(fields.nameEn, t)]}
          >
            <Input dir="ltr" lang="en" data-testid="job-name-en" />
          </Form.Item>
        </div>
        <Form.Item name="isManager" label={t('jobs.fields.isManager')} valuePropName="checked">
          <Switch data-testid="job-is-manager" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The route module of /ec/jobs. */
export function Component() {
  return <JobsPage />;
}
