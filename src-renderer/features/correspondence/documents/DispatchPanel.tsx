/**
 * The dispatch of an approved outgoing letter: how and when it left and whether it was delivered; the
 * archive office holding it records it (and corrects it, e.g. when the delivery is confirmed later).
 */
import { useState } from 'react';
import { Button, Card, DatePicker, Descriptions, Form, Modal, Switch, Tag, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import type { DispatchRequest, Document } from '../../../../src-shared/api/correspondence';
import { DATE_FORMAT, formatDate, formatDateTime } from '../../../components/DataTable';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { localName } from '../../../lib/names';
import { documentsApi } from './api';
import { SettingSelect } from './SettingSelect';

interface DispatchValues {
  mediumId?: number | null;
  dispatchDate?: Dayjs | null;
  delivered?: boolean;
}

export function DispatchPanel({ doc, onChanged }: { doc: Document; onChanged: () => void }) {
  const { t, i18n } = useTranslation('correspondence');
  const [open, setOpen] = useState(false);
  const [form] = useLocalisedForm<DispatchValues>();
  // Tried whatever the browser says of the network (as before): the server answers or the call fails.
  const dispatch = useMutation({
    mutationFn: ({ id, body }: { id: number; body: DispatchRequest }) => documentsApi.dispatch(id, body),
    networkMode: 'always',
  });
  if (doc.direction !== 'out' || doc.state !== 'approved') return null;
  const d = doc.dispatch;

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await dispatch.mutateAsync({
        id: doc.id,
        body: {
          mediumId: values.mediumId!,
          dispatchDate: values.dispatchDate!.format('YYYY-MM-DD'),
          delivered: !!values.delivered,
        },
      });
      setOpen(false);
      onChanged();
    } catch (error) {
      applyServerErrors(form, error);
    }
  };

  return (
    <Card
      size="small"
      title={t('dispatch.title')}
      data-testid="dispatch-panel"
      extra={
        d ? (
          <Tag color="green" data-testid="tag-dispatched">
            {t('dispatch.dispatched')}
          </Tag>
        ) : (
          <Tag color="orange" data-testid="tag-awaiting-dispatch">
            {t('dispatch.awaiting')}
          </Tag>
        )
      }
    >
      {d ? (
        <Descriptions
          size="small"
          column={1}
          items={[
            {
              key: 'medium',
              label: t('fields.mediumOut'),
              children: d.medium ? localName(d.medium, i18n.language) : '—',
            },
            { key: 'date', label: t('dispatch.date'), children: <bdi>{formatDate(d.date)}</bdi> },
            {
              key: 'delivered',
              label: t('dispatch.delivered'),
              children: d.delivered ? t('dispatch.yes') : t('dispatch.no'),
            },
            {
              key: 'by',
              label: t('dispatch.by'),
              children: (
                <span>
                  {d.dispatchedBy ? localName(d.dispatchedBy, i18n.language) : '—'} ·{' '}
                  <bdi>{formatDateTime(d.dispatchedAt)}</bdi>
                </span>
              ),
            },
          ]}
        />
      ) : (
        <Typography.Text type="secondary">{t('dispatch.notYet')}</Typography.Text>
      )}
      {doc.abilities.dispatch && (
        <Button
          icon={<SendOutlined />}
          className="corr-form-actions"
          onClick={() => {
            form.setFieldsValue({
              mediumId: d?.medium?.id ?? doc.medium?.id ?? null,
              dispatchDate: d?.date ? dayjs(d.date) : dayjs(),
              delivered: d?.delivered ?? false,
            });
            setOpen(true);
          }}
          data-testid="record-dispatch"
        >
          {d ? t('dispatch.correct') : t('dispatch.record')}
        </Button>
      )}
      <Modal
        open={open}
        title={t('dispatch.record')}
        okText={t('actions.save')}
        cancelText={t('actions.cancel')}
        confirmLoading={dispatch.isPending}
        onCancel={() => setOpen(false)}
        onOk={() => void save()}
        data-testid="dispatch-dialog"
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="mediumId"
            label={t('fields.mediumOut')}
            rules={[{ required: true, message: t('validation.required') }]}
          >
            <SettingSelect list="mediums" testId="dispatch-medium" />
          </Form.Item>
          <Form.Item
            name="dispatchDate"
            label={t('dispatch.date')}
            rules={[{ required: true, message: t('validation.required') }]}
          >
            <DatePicker format={DATE_FORMAT} className="corr-full" data-testid="dispatch-date" />
          </Form.Item>
          <Form.Item name="delivered" label={t('dispatch.delivered')} valuePropName="checked">
            <Switch data-testid="dispatch-delivered" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
