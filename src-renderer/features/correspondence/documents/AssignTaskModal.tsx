/** A document detail's assign-a-task dialog. */
import { useEffect, useMemo } from 'react';
import { DatePicker, Form, Input, Modal, Select } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import type { CreateTaskRequest, Distribution, Document } from '../../../../src-shared/api/correspondence';
import { DATE_FORMAT } from '../../../components/DataTable';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { localName } from '../../../lib/names';
import { documentsApi } from './api';
import { EmployeePicker } from './pickers';
import { day } from './documentFields';

/** The assign dialog: which distribution, the tasker (EmployeePicker within that department), date, notes. */
export function AssignTaskModal({
  doc,
  distributions: all,
  open,
  onClose,
  onDone,
}: {
  doc: Document;
  distributions: Distribution[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [form] = useLocalisedForm<{
    distributionId?: number;
    employeeId?: number | null;
    taskDate?: Dayjs | null;
    notes?: string;
  }>();
  // Tried whatever the browser says of the network (as before): the server answers or the call fails.
  const assign = useMutation({
    mutationFn: ({ id, body }: { id: number; body: CreateTaskRequest }) => documentsApi.assignTask(id, body),
    networkMode: 'always',
  });
  // Only the distributions of departments the caller leads (what the server will accept).
  const distributions = useMemo(
    () => all.filter((d) => doc.abilities.assignTasksFor.includes(d.id)),
    [all, doc.abilities.assignTasksFor],
  );
  const distributionId = Form.useWatch('distributionId', form);
  const departmentId = distributions.find((d) => d.id === distributionId)?.department.id;
  useEffect(() => {
    if (open)
      form.setFieldsValue({
        distributionId: distributions.length === 1 ? distributions[0]!.id : undefined,
        employeeId: null,
        taskDate: null,
        notes: '',
      });
  }, [open, form, distributions]);
  const save = async () => {
    const values = await form.validateFields();
    try {
      await assign.mutateAsync({
        id: doc.id,
        body: {
          distributionId: values.distributionId!,
          employeeId: values.employeeId!,
          taskDate: day(values.taskDate),
          notes: values.notes?.trim() || null,
        },
      });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    }
  };
  const required = [{ required: true, message: t('validation.required') }];
  return (
    <Modal
      open={open}
      title={t('tasks.assignTitle')}
      okText={t('tasks.assign')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={assign.isPending}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'task-save' } as Record<string, string>}
    >
      <Form form={form} layout="vertical" data-testid="task-form">
        <Form.Item name="distributionId" label={t('tasks.distribution')} rules={required}>
          <Select
            data-testid="task-distribution"
            options={distributions.map((d) => ({
              value: d.id,
              label: `${localName(d.department, i18n.language)} — ${t(`distributionType.${d.type}`)}`,
            }))}
          />
        </Form.Item>
        <Form.Item name="employeeId" label={t('fields.tasker')} rules={required}>
          <EmployeePicker departmentId={departmentId} data-testid="task-tasker" />
        </Form.Item>
        <Form.Item name="taskDate" label={t('fields.taskDate')}>
          <DatePicker format={DATE_FORMAT} className="corr-full" data-testid="task-date" />
        </Form.Item>
        <Form.Item
          name="notes"
          label={t('fields.notes')}
          rules={[{ max: 2000, message: t('validation.maxLength', { max: 2000 }) }]}
        >
          <Input.TextArea autoSize={{ minRows: 2 }} data-testid="task-notes" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
