/**
 * Records management — Files (/records/files, issue 31): the files documents belong to, with their code,
 * titles, department, opening and closing days, state, the retention that applies, and how many documents
 * and legal holds they carry. Opening a file (add), changing it and its own retention over the
 * codifications' schedules (edit), closing and reopening it (edit), and its documents, into which a
 * document can be moved (edit). The server checks each rule (docs/records.md).
 */
import { useState } from 'react';
import {
  Button,
  Card,
  DatePicker,
  Drawer,
  Flex,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Select,
  Space,
  Table,
  Typography,
} from 'antd';
import type { ButtonProps } from 'antd';
import { FolderAddOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import {
  FILE_STATES,
  RETENTION_ACTIONS,
  type RecordFile,
  type RetentionAction,
} from '../../../src-shared/api/records';
import { PAGES } from '../../../src-shared/pages';
import { useCanOn } from '../../app/permissions';
import { CorrespondenceScreen } from '../../components/CorrespondenceScreen';
import { DATE_FORMAT, formatDate } from '../../components/DataTable';
import { LoadFailed } from '../../components/LoadFailed';
import { applyServerErrors, useLocalisedForm } from '../../lib/forms';
import { localName } from '../../lib/names';
import { formatNumber } from '../../lib/format';
import { DepartmentPicker } from '../../components/DepartmentPicker';
import { DocumentPicker } from './DocumentPicker';
import { fileTitle, recordsApi, recordsKeys } from '../../lib/records-api';
import { FileStateTag, RetentionText } from './shared';

interface FileFormValues {
  code?: string;
  titleAr?: string;
  titleEn?: string;
  departmentId?: number | null;
  openedOn?: Dayjs | null;
  retentionYears?: number | null;
  retentionAction?: RetentionAction | null;
  retentionReference?: string;
}

const day = (d: Dayjs | null | undefined) => (d ? d.format('YYYY-MM-DD') : undefined);

export function Component() {
  const { t, i18n } = useTranslation('records');
  const queryClient = useQueryClient();
  const mayAdd = useCanOn(PAGES.recordFiles, 'add');
  const mayEdit = useCanOn(PAGES.recordFiles, 'edit');
  const [search, setSearch] = useState('');
  const [state, setState] = useState<string | undefined>();
  const list = useQuery({
    queryKey: recordsKeys.files(search, state),
    queryFn: () => recordsApi.files(search, state),
  });
  const [editing, setEditing] = useState<RecordFile | 'new' | null>(null);
  const [showing, setShowing] = useState<RecordFile | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: recordsKeys.all });
  const closing = useMutation({
    mutationFn: ({ file, reopen }: { file: RecordFile; reopen: boolean }) =>
      reopen ? recordsApi.reopenFile(file.id) : recordsApi.closeFile(file.id),
    onSettled: refresh,
  });

  if (list.isError) return <LoadFailed onRetry={() => void list.refetch()} />;
  return (
    <CorrespondenceScreen
      testId="record-files"
      subtitle={t('files.description')}
      extra={
        mayAdd && (
          <Button
            type="primary"
            icon={<FolderAddOutlined />}
            onClick={() => setEditing('new')}
            data-testid="file-add"
          >
            {t('files.add')}
          </Button>
        )
      }
    >
      <Card size="small">
        <Flex gap={8} wrap className="records-toolbar">
          <Input.Search
            allowClear
            placeholder={t('files.search')}
            onSearch={(v) => setSearch(v.trim())}
            className="records-search"
            data-testid="files-search"
          />
          <Select<string>
            allowClear
            placeholder={t('files.anyState')}
            value={state}
            onChange={setState}
            className="records-state"
            data-testid="files-state"
            options={FILE_STATES.map((s) => ({ value: s, label: t(`fileStates.${s}`) }))}
          />
        </Flex>
        <Table<RecordFile>
          size="small"
          rowKey="id"
          loading={list.isLoading}
          dataSource={list.data ?? []}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          locale={{ emptyText: t('files.empty') }}
          data-testid="files-table"
          tableLayout="auto"
          columns={[
            {
              key: 'code',
              title: t('files.columns.code'),
              render: (_, f) => <bdi className="corr-number">{f.code}</bdi>,
            },
            {
              key: 'title',
              title: t('files.columns.title'),
              className: 'records-grow',
              render: (_, f) => (
                <Button type="link" className="records-link" onClick={() => setShowing(f)}>
                  <bdi>{fileTitle(f, i18n.language)}</bdi>
                </Button>
              ),
            },
            {
              key: 'department',
              title: t('files.columns.department'),
              render: (_, f) => (f.department ? localName(f.department, i18n.language) : '—'),
            },
            {
              key: 'opened',
              title: t('files.columns.opened'),
              render: (_, f) => <bdi>{formatDate(f.openedOn)}</bdi>,
            },
            {
              key: 'closed',
              title: t('files.columns.closed'),
              render: (_, f) => (f.closedOn ? <bdi>{formatDate(f.closedOn)}</bdi> : '—'),
            },
            {
              key: 'state',
              title: t('files.columns.state'),
              render: (_, f) => <FileStateTag state={f.state} />,
            },
            {
              key: 'retention',
              title: t('files.columns.retention'),
              render: (_, f) => <RetentionText retention={f.retention} />,
            },
            {
              key: 'documents',
              title: t('files.columns.documents'),
              align: 'end',
              render: (_, f) => <bdi>{formatNumber(f.documents)}</bdi>,
            },
            {
              key: 'actions',
              title: '',
              render: (_, f) => (
                <Space size={4} wrap={false}>
                  {mayEdit && (f.state === 'open' || f.state === 'closed') && (
                    <Button
                      size="small"
                      loading={closing.isPending && closing.variables?.file.id === f.id}
                      onClick={() => closing.mutate({ file: f, reopen: f.state === 'closed' })}
                      data-testid={`file-${f.state === 'open' ? 'close' : 'reopen'}-${f.code}`}
                    >
                      {f.state === 'open' ? t('files.close') : t('files.reopen')}
                    </Button>
                  )}
                  {mayEdit && (f.state === 'open' || f.state === 'closed') && (
                    <Button size="small" onClick={() => setEditing(f)} data-testid={`file-edit-${f.code}`}>
                      {t('edit')}
                    </Button>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {editing && (
        <FileDialog
          file={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
      <FileDocumentsDrawer
        file={showing}
        mayEdit={mayEdit}
        onClose={() => setShowing(null)}
        onMoved={refresh}
      />
    </CorrespondenceScreen>
  );
}

/** Opening a file, or changing one (its own retention included). */
function FileDialog({
  file,
  onClose,
  onSaved,
}: {
  file: RecordFile | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('records');
  const [form] = useLocalisedForm<FileFormValues>();
  const save = useMutation({
    mutationFn: async (v: FileFormValues) => {
      const own = v.retentionAction
        ? {
            retentionYears: v.retentionYears ?? 0,
            retentionAction: v.retentionAction,
            retentionReference: v.retentionReference?.trim() || null,
          }
        : { retentionYears: null, retentionAction: null, retentionReference: null };
      const body = {
        code: v.code?.trim() ?? '',
        titleAr: v.titleAr?.trim() ?? '',
        titleEn: v.titleEn?.trim() ?? '',
        departmentId: v.departmentId ?? null,
        ...(v.openedOn ? { openedOn: day(v.openedOn) } : {}),
        ...own,
      };
      return file ? recordsApi.updateFile(file.id, body) : recordsApi.createFile(body);
    },
    onSuccess: onSaved,
    onError: (error) => applyServerErrors(form, error),
  });
  const required = [{ required: true, whitespace: true, message: t('required') }];
  return (
    <Modal
      open
      title={file ? t('files.editTitle', { code: file.code }) : t('files.add')}
      okText={t('save')}
      cancelText={t('cancel')}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'file-save' } as ButtonProps}
      onOk={() => void form.validateFields().then((v) => save.mutate(v))}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      <Form<FileFormValues>
        form={form}
        layout="vertical"
        initialValues={
          file
            ? {
                code: file.code,
                titleAr: file.titleAr,
                titleEn: file.titleEn,
                departmentId: file.department?.id ?? null,
                openedOn: dayjs(file.openedOn),
                retentionYears: file.retentionYears,
                retentionAction: file.retentionAction,
                retentionReference: file.retentionReference ?? '',
              }
            : { openedOn: dayjs() }
        }
      >
        <div className="records-form-grid">
          <Form.Item name="code" label={t('files.columns.code')} rules={[...required, { max: 50 }]}>
            <Input dir="ltr" data-testid="file-code" />
          </Form.Item>
          <Form.Item name="openedOn" label={t('files.columns.opened')}>
            <DatePicker format={DATE_FORMAT} className="records-full" data-testid="file-opened" />
          </Form.Item>
          <Form.Item name="titleAr" label={t('files.titleAr')} rules={[...required, { max: 300 }]}>
            <Input dir="rtl" lang="ar" data-testid="file-title-ar" />
          </Form.Item>
          <Form.Item name="titleEn" label={t('files.titleEn')} rules={[...required, { max: 300 }]}>
            <Input dir="ltr" lang="en" data-testid="file-title-en" />
          </Form.Item>
          <Form.Item name="departmentId" label={t('files.columns.department')} className="records-wide">
            <DepartmentPicker data-testid="file-department" type="internal" />
          </Form.Item>
        </div>
        <Typography.Title level={5}>{t('files.ownRetention')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('files.ownRetentionNote')}</Typography.Paragraph>
        <div className="records-form-grid">
          <Form.Item name="retentionAction" label={t('schedules.columns.action')}>
            <Select<RetentionAction>
              allowClear
              placeholder={t('files.fromSchedules')}
              data-testid="file-retention-action"
              options={RETENTION_ACTIONS.map((a) => ({ value: a, label: t(`actions.${a}`) }))}
            />
          </Form.Item>
          <Form.Item name="retentionYears" label={t('schedules.columns.years')}>
            <InputNumber min={0} max={200} className="records-full" data-testid="file-retention-years" />
          </Form.Item>
          <Form.Item
            name="retentionReference"
            label={t('schedules.columns.reference')}
            className="records-wide"
            rules={[{ max: 500 }]}
          >
            <Input data-testid="file-retention-reference" />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}

/** A file's documents, and moving documents into it (an open file, edit permission). */
function FileDocumentsDrawer({
  file,
  mayEdit,
  onClose,
  onMoved,
}: {
  file: RecordFile | null;
  mayEdit: boolean;
  onClose: () => void;
  onMoved: () => void;
}) {
  const { t, i18n } = useTranslation('records');
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<number[]>([]);
  const docs = useQuery({
    queryKey: recordsKeys.fileDocuments(file?.id ?? 0),
    queryFn: () => recordsApi.fileDocuments(file!.id),
    enabled: file !== null,
  });
  const move = useMutation({
    mutationFn: async (ids: number[]) => {
      for (const id of ids) await recordsApi.moveDocument(file!.id, id);
    },
    onSettled: () => {
      setChosen([]);
      void queryClient.invalidateQueries({ queryKey: recordsKeys.fileDocuments(file?.id ?? 0) });
      onMoved();
    },
  });
  return (
    <Drawer
      open={file !== null}
      onClose={onClose}
      width={560}
      title={file ? `${file.code} — ${fileTitle(file, i18n.language)}` : ''}
      destroyOnHidden
      data-testid="file-documents"
    >
      {file && mayEdit && file.state === 'open' && (
        <Flex gap={8} className="records-move">
          <div className="records-grow-box">
            <DocumentPicker value={chosen} onChange={setChosen} testId="file-move-select" />
          </div>
          <Button
            type="primary"
            disabled={chosen.length === 0}
            loading={move.isPending}
            onClick={() => move.mutate(chosen)}
            data-testid="file-move"
          >
            {t('files.moveHere')}
          </Button>
        </Flex>
      )}
      <List
        loading={docs.isLoading}
        dataSource={docs.data ?? []}
        locale={{ emptyText: t('files.noDocuments') }}
        renderItem={(d) => (
          <List.Item>
            <List.Item.Meta
              title={<bdi>{d.subject}</bdi>}
              description={
                <Space size={12}>
                  {d.docNumber && <bdi className="corr-number">{d.docNumber}</bdi>}
                  {d.documentDate && <bdi>{formatDate(d.documentDate)}</bdi>}
                  <span>{t(`directions.${d.direction}`)}</span>
                </Space>
              }
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}
