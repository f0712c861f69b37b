/**
 * Records management — Retention schedules (/records/schedules, issue 31): for each codification, how
 * many years its documents are kept after their file closes, what happens then (destroy, transfer to the
 * archives, keep permanently) and the legal reference that says so. Setting one (edit) and removing one
 * (delete). A file may override them with its own retention (the Files screen).
 */
import { useState } from 'react';
import { Button, Card, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import type { ButtonProps } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  RETENTION_ACTIONS,
  type RetentionAction,
  type RetentionSchedule,
  type ScheduleRequest,
} from '../../../src-shared/api/records';
import type { SettingOption } from '../../../src-shared/api/correspondence';
import { PAGES } from '../../../src-shared/pages';
import { useCanOn } from '../../app/permissions';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { formatDateTime } from '../../components/DataTable';
import { LoadFailed } from '../../components/LoadFailed';
import { applyServerErrors, useLocalisedForm } from '../../lib/forms';
import { formatNumber } from '../../lib/format';
import { localName } from '../../lib/names';
import { recordsApi, recordsKeys } from '../../lib/records-api';
import './records.css';

/** A codification with its schedule, when it has one. */
interface Row {
  codification: SettingOption;
  schedule: RetentionSchedule | null;
}

export function Component() {
  const { t, i18n } = useTranslation('records');
  const queryClient = useQueryClient();
  const mayEdit = useCanOn(PAGES.retentionSchedules, 'edit');
  const mayDelete = useCanOn(PAGES.retentionSchedules, 'delete');
  const schedules = useQuery({ queryKey: recordsKeys.schedules, queryFn: recordsApi.schedules });
  const codifications = useQuery({
    queryKey: recordsKeys.codifications,
    queryFn: recordsApi.codifications,
  });
  const [editing, setEditing] = useState<Row | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: recordsKeys.all });
  const remove = useMutation({
    mutationFn: (codificationId: number) => recordsApi.deleteSchedule(codificationId),
    onSettled: refresh,
  });
  if (schedules.isError || codifications.isError)
    return (
      <LoadFailed
        onRetry={() => {
          void schedules.refetch();
          void codifications.refetch();
        }}
      />
    );
  const byCodification = new Map((schedules.data ?? []).map((s) => [s.codification.id, s]));
  const rows: Row[] = (codifications.data ?? []).map((c) => ({
    codification: c,
    schedule: byCodification.get(c.id) ?? null,
  }));
  return (
    <CorrespondenceScreen testId="retention-schedules" subtitle={t('schedules.description')}>
      <Card size="small">
        <Table<Row>
          size="small"
          rowKey={(r) => r.codification.id}
          loading={schedules.isLoading || codifications.isLoading}
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: t('schedules.empty') }}
          data-testid="schedules-table"
          columns={[
            {
              key: 'codification',
              title: t('schedules.columns.codification'),
              render: (_, r) => (
                <span>
                  {localName(r.codification, i18n.language)}{' '}
                  {r.codification.prefix && <bdi className="corr-number">({r.codification.prefix})</bdi>}
                </span>
              ),
            },
            {
              key: 'years',
              title: t('schedules.columns.years'),
              render: (_, r) =>
                r.schedule ? (
                  t('years', { count: r.schedule.years, n: formatNumber(r.schedule.years) })
                ) : (
                  <Tag>{t('schedules.none')}</Tag>
                ),
            },
            {
              key: 'action',
              title: t('schedules.columns.action'),
              render: (_, r) => (r.schedule ? t(`actions.${r.schedule.action}`) : '—'),
            },
            {
              key: 'reference',
              title: t('schedules.columns.reference'),
              className: 'records-grow',
              render: (_, r) => (r.schedule ? <bdi>{r.schedule.legalReference}</bdi> : '—'),
            },
            {
              key: 'updated',
              title: t('schedules.columns.updated'),
              render: (_, r) => (r.schedule ? <bdi>{formatDateTime(r.schedule.updatedAt)}</bdi> : '—'),
            },
            {
              key: 'actions',
              title: '',
              render: (_, r) => (
                <Space size={4}>
                  {mayEdit && (
                    <Button
                      size="small"
                      onClick={() => setEditing(r)}
                      data-testid={`schedule-set-${r.codification.prefix ?? r.codification.id}`}
                    >
                      {r.schedule ? t('edit') : t('schedules.set')}
                    </Button>
                  )}
                  {mayDelete && r.schedule && (
                    <Popconfirm
                      title={t('schedules.removeConfirm')}
                      okText={t('schedules.remove')}
                      cancelText={t('cancel')}
                      onConfirm={() => remove.mutate(r.codification.id)}
                    >
                      <Button size="small" danger>
                        {t('schedules.remove')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {editing && (
        <ScheduleDialog
          row={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
    </CorrespondenceScreen>
  );
}

function ScheduleDialog({ row, onClose, onSaved }: { row: Row; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation('records');
  const [form] = useLocalisedForm<ScheduleRequest>();
  const save = useMutation({
    mutationFn: (v: ScheduleRequest) =>
      recordsApi.putSchedule(row.codification.id, { ...v, legalReference: v.legalReference.trim() }),
    onSuccess: onSaved,
    onError: (error) => applyServerErrors(form, error),
  });
  return (
    <Modal
      open
      title={t('schedules.setTitle', { name: localName(row.codification, i18n.language) })}
      okText={t('save')}
      cancelText={t('cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'schedule-save' } as ButtonProps}
      onOk={() => void form.validateFields().then((v) => save.mutate(v))}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<ScheduleRequest>
        form={form}
        layout="vertical"
        initialValues={
          row.schedule
            ? {
                years: row.schedule.years,
                action: row.schedule.action,
                legalReference: row.schedule.legalReference,
              }
            : { action: 'destroy' as RetentionAction }
        }
      >
        <div className="records-form-grid">
          <Form.Item
            name="years"
            label={t('schedules.columns.years')}
            rules={[{ required: true, message: t('required') }]}
          >
            <InputNumber min={0} max={200} className="records-full" data-testid="schedule-years" />
          </Form.Item>
          <Form.Item
            name="action"
            label={t('schedules.columns.action')}
            rules={[{ required: true, message: t('required') }]}
          >
            <Select<RetentionAction>
              data-testid="schedule-action"
              options={RETENTION_ACTIONS.map((a) => ({ value: a, label: t(`actions.${a}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="legalReference"
            label={t('schedules.columns.reference')}
            className="records-wide"
            rules={[{ required: true, whitespace: true, message: t('required') }, { max: 500 }]}
          >
            <Input.TextArea autoSize={{ minRows: 2 }} data-testid="schedule-reference" />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}
