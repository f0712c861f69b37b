/**
 * Records management — Legal holds (/records/holds, issue 31): holds placed on a file or on one document
 * with the reason (a case, an audit), who placed and who lifted them. While a hold is in force the server
 * refuses the deletion and the disposition of what it covers. Placing one (add), lifting it (delete).
 */
import { useState } from 'react';
import {
  Button,
  Card,
  Flex,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ButtonProps } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LegalHold } from '../../../src-shared/api/records';
import { PAGES } from '../../../src-shared/pages';
import { useCanOn } from '../../app/permissions';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { formatDateTime } from '../../components/DataTable';
import { LoadFailed } from '../../components/LoadFailed';
import { applyServerErrors, useLocalisedForm } from '../../lib/forms';
import { localName } from '../../lib/names';
import { DocumentPicker } from './DocumentPicker';
import { fileTitle, recordsApi, recordsKeys } from '../../lib/records-api';
import './records.css';

interface HoldFormValues {
  on: 'file' | 'document';
  fileId?: number;
  documentIds?: number[];
  reason?: string;
}

export function Component() {
  const { t, i18n } = useTranslation('records');
  const queryClient = useQueryClient();
  const mayPlace = useCanOn(PAGES.legalHolds, 'add');
  const mayLift = useCanOn(PAGES.legalHolds, 'delete');
  const [activeOnly, setActiveOnly] = useState(true);
  const list = useQuery({
    queryKey: recordsKeys.holds(activeOnly),
    queryFn: () => recordsApi.holds(activeOnly),
  });
  const [placing, setPlacing] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: recordsKeys.all });
  const lift = useMutation({ mutationFn: (id: number) => recordsApi.liftHold(id), onSettled: refresh });
  if (list.isError) return <LoadFailed onRetry={() => void list.refetch()} />;
  return (
    <CorrespondenceScreen
      testId="legal-holds"
      subtitle={t('holds.description')}
      extra={
        mayPlace && (
          <Button
            type="primary"
            icon={<LockOutlined />}
            onClick={() => setPlacing(true)}
            data-testid="hold-add"
          >
            {t('holds.place')}
          </Button>
        )
      }
    >
      <Card size="small">
        <Flex gap={8} align="center" className="records-toolbar">
          <Switch checked={activeOnly} onChange={setActiveOnly} data-testid="holds-active" />
          <span>{t('holds.activeOnly')}</span>
        </Flex>
        <Table<LegalHold>
          size="small"
          rowKey="id"
          loading={list.isLoading}
          dataSource={list.data ?? []}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          locale={{ emptyText: t('holds.empty') }}
          data-testid="holds-table"
          columns={[
            {
              key: 'target',
              title: t('holds.columns.target'),
              render: (_, h) => (
                <Space size={4}>
                  <Tag>{h.fileId !== null ? t('holds.onFile') : t('holds.onDocument')}</Tag>
                  <bdi className="corr-number">{h.target}</bdi>
                </Space>
              ),
            },
            {
              key: 'reason',
              title: t('holds.columns.reason'),
              className: 'records-grow',
              render: (_, h) => <bdi>{h.reason}</bdi>,
            },
            {
              key: 'placed',
              title: t('holds.columns.placed'),
              render: (_, h) => (
                <Space orientation="vertical" size={0}>
                  <span>{localName(h.placedBy, i18n.language) || '—'}</span>
                  <Typography.Text type="secondary">
                    <bdi>{formatDateTime(h.placedAt)}</bdi>
                  </Typography.Text>
                </Space>
              ),
            },
            {
              key: 'lifted',
              title: t('holds.columns.lifted'),
              render: (_, h) =>
                h.liftedAt ? (
                  <Space orientation="vertical" size={0}>
                    <span>{localName(h.liftedBy, i18n.language) || '—'}</span>
                    <Typography.Text type="secondary">
                      <bdi>{formatDateTime(h.liftedAt)}</bdi>
                    </Typography.Text>
                  </Space>
                ) : (
                  <Tag color="red">{t('holds.inForce')}</Tag>
                ),
            },
            {
              key: 'actions',
              title: '',
              render: (_, h) =>
                mayLift &&
                !h.liftedAt && (
                  <Popconfirm
                    title={t('holds.liftConfirm')}
                    okText={t('holds.lift')}
                    cancelText={t('cancel')}
                    onConfirm={() => lift.mutate(h.id)}
                  >
                    <Button size="small" data-testid={`hold-lift-${h.id}`}>
                      {t('holds.lift')}
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      </Card>
      {placing && (
        <PlaceHoldDialog
          onClose={() => setPlacing(false)}
          onPlaced={() => {
            setPlacing(false);
            refresh();
          }}
        />
      )}
    </CorrespondenceScreen>
  );
}

function PlaceHoldDialog({ onClose, onPlaced }: { onClose: () => void; onPlaced: () => void }) {
  const { t, i18n } = useTranslation('records');
  const [form] = useLocalisedForm<HoldFormValues>();
  const on = Form.useWatch('on', form) ?? 'file';
  const [q, setQ] = useState('');
  const files = useQuery({ queryKey: recordsKeys.files(q), queryFn: () => recordsApi.files(q) });
  const place = useMutation({
    // One hold per document chosen (each is lifted on its own).
    mutationFn: async (v: HoldFormValues) => {
      const reason = v.reason?.trim() ?? '';
      if (v.on === 'file') return void (await recordsApi.placeHold({ fileId: v.fileId!, reason }));
      for (const documentId of v.documentIds ?? []) await recordsApi.placeHold({ documentId, reason });
    },
    onSuccess: onPlaced,
    onError: (error) => applyServerErrors(form, error),
  });
  const required = { required: true, message: t('required') };
  return (
    <Modal
      open
      title={t('holds.place')}
      okText={t('holds.place')}
      cancelText={t('cancel')}
      okButtonProps={{ loading: place.isPending, 'data-testid': 'hold-save' } as ButtonProps}
      onOk={() => void form.validateFields().then((v) => place.mutate(v))}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<HoldFormValues> form={form} layout="vertical" initialValues={{ on: 'file' }}>
        <Form.Item name="on" label={t('holds.columns.target')}>
          <Radio.Group
            options={[
              { value: 'file', label: t('holds.onFile') },
              { value: 'document', label: t('holds.onDocument') },
            ]}
          />
        </Form.Item>
        {on === 'file' ? (
          <Form.Item name="fileId" label={t('holds.onFile')} rules={[required]}>
            <Select<number>
              showSearch
              filterOption={false}
              onSearch={setQ}
              loading={files.isFetching}
              data-testid="hold-file"
              options={(files.data ?? []).map((f) => ({
                value: f.id,
                label: `${f.code} — ${fileTitle(f, i18n.language)}`,
              }))}
            />
          </Form.Item>
        ) : (
          <Form.Item name="documentIds" label={t('holds.onDocument')} rules={[required]}>
            <DocumentPicker testId="hold-document" />
          </Form.Item>
        )}
        <Form.Item
          name="reason"
          label={t('holds.columns.reason')}
          rules={[{ ...required, whitespace: true }, { max: 1000 }]}
        >
          <Input.TextArea autoSize={{ minRows: 2 }} data-testid="hold-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
