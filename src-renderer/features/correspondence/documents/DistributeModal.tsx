/** A document detail's distribute dialog. */
import { useEffect } from 'react';
import { Button, Flex, Form, Input, Modal, Radio, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type {
  DistributeRequest,
  DistributionType,
  Document,
} from '../../../../src-shared/api/correspondence';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { localName } from '../../../lib/names';
import { corrKeys, documentsApi, settingsApi } from './api';
import { DepartmentSelect } from './pickers';

interface DistributeRow {
  departmentId?: number | null;
  type: DistributionType;
  notes?: string;
}

/** The distribute dialog: rows of department, purpose (for action or for information) and notes; main distribution adds rows. */
export function DistributeModal({
  doc,
  open,
  onClose,
  onDone,
}: {
  doc: Document;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [form] = useLocalisedForm<{ items: DistributeRow[] }>();
  // Tried whatever the browser says of the network (as before): the server answers or the call fails.
  const distribute = useMutation({
    mutationFn: ({ id, body }: { id: number; body: DistributeRequest }) => documentsApi.distribute(id, body),
    networkMode: 'always',
  });
  const main = useQuery({
    queryKey: corrKeys.settingsOptions('main-distribution'),
    queryFn: () => settingsApi.options('main-distribution'),
    enabled: open,
  });
  useEffect(() => {
    if (open) form.setFieldsValue({ items: [{ type: 'forAction', departmentId: null, notes: '' }] });
  }, [open, form]);
  const addDepartment = (departmentId: number) => {
    const items = (form.getFieldValue('items') as DistributeRow[] | undefined) ?? [];
    if (items.some((i) => i.departmentId === departmentId)) return;
    const blank = items.findIndex((i) => !i.departmentId);
    const row: DistributeRow = { departmentId, type: 'forKnowledge', notes: '' };
    form.setFieldsValue({
      items: blank >= 0 ? items.map((r, i) => (i === blank ? { ...r, departmentId } : r)) : [...items, row],
    });
  };
  const save = async () => {
    const { items } = await form.validateFields();
    try {
      await distribute.mutateAsync({
        id: doc.id,
        body: {
          items: items.map((i) => ({
            departmentId: i.departmentId!,
            type: i.type,
            notes: i.notes?.trim() || null,
          })),
        },
      });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    }
  };
  return (
    <Modal
      open={open}
      title={t('distribution.title')}
      okText={t('distribution.send')}
      cancelText={t('actions.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={distribute.isPending}
      width={760}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'distribute-save' } as Record<string, string>}
    >
      {(main.data ?? []).length > 0 && (
        <div className="corr-main-distribution">
          <Typography.Text type="secondary">{t('distribution.fromMain')}</Typography.Text>
          <Flex gap={6} wrap>
            {(main.data ?? []).map((m) =>
              m.department ? (
                <Button
                  key={m.id}
                  size="small"
                  icon={<PlusOutlined />}
                  onClick={() => addDepartment(m.department!.id)}
                >
                  {localName(m.department, i18n.language)}
                </Button>
              ) : null,
            )}
          </Flex>
        </div>
      )}
      <Form form={form} layout="vertical" data-testid="distribute-form">
        <Form.List name="items">
          {(rows, { add, remove }) => (
            <>
              {rows.map((row, index) => (
                <div key={row.key} className="corr-distribute-row" data-testid={`distribute-row-${index}`}>
                  <Form.Item
                    name={[row.name, 'departmentId']}
                    label={t('fields.department')}
                    rules={[{ required: true, message: t('validation.required') }]}
                  >
                    <DepartmentSelect type="internal" testId={`distribute-department-${index}`} />
                  </Form.Item>
                  <Form.Item name={[row.name, 'type']} label={t('distribution.type')}>
                    <Radio.Group
                      optionType="button"
                      data-testid={`distribute-type-${index}`}
                      options={[
                        { value: 'forAction', label: t('distributionType.forAction') },
                        { value: 'forKnowledge', label: t('distributionType.forKnowledge') },
                      ]}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[row.name, 'notes']}
                    label={t('fields.notes')}
                    rules={[{ max: 2000, message: t('validation.maxLength', { max: 2000 }) }]}
                  >
                    <Input data-testid={`distribute-notes-${index}`} />
                  </Form.Item>
                  <Button
                    type="text"
                    icon={<MinusCircleOutlined />}
                    aria-label={t('distribution.removeRow')}
                    onClick={() => remove(row.name)}
                    disabled={rows.length === 1}
                    className="corr-row-remove"
                  />
                </div>
              ))}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                onClick={() => add({ type: 'forAction', notes: '' })}
                data-testid="distribute-add-row"
              >
                {t('distribution.addRow')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
