/**
 * The attachments tab of an employee: upload PDFs (checked by content on the client too — the first
 * bytes must be `%PDF-` — and by size, with the specification's messages), the list with sizes,
 * preview in a dialog, download, and delete. Read-only without the page's `edit`.
 */
import { useState } from 'react';
import { Alert, App, Button, Flex, Table, Tooltip, Typography } from 'antd';
import {
  DeleteOutlined,
  DownloadOutlined,
  EyeOutlined,
  FilePdfOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { directoryEndpoints, type EmployeeAttachment } from '../../../src-shared/api/directory';
import { fillPath } from '../../../src-shared/api/endpoint';
import { formatDateTime } from '../../components/DataTable';
import { formatSize, pdfFileProblem, saveDownloaded } from '../../components/upload/transfer';
import { directoryApi, directoryKeys } from '../../lib/directory-api';
import { useUploadLimit } from '../../lib/upload-limit';
import { PdfPickButton } from '../../components/upload/PdfPickButton';
import { usePdfPreview } from '../../components/pdf/PdfPreview';
import { fileSource } from '../../lib/files';
import { LoadFailed } from '../../components/LoadFailed';
import { useShownMessage } from '../../app/locale';

/** The attachments of one employee. */
export function EmployeeAttachments({ employeeId, editable }: { employeeId: number; editable: boolean }) {
  const { t } = useTranslation('directory');
  const uploadLimit = useUploadLimit();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useShownMessage();
  const [uploading, setUploading] = useState(false);
  const preview = usePdfPreview();
  const list = useQuery({
    queryKey: directoryKeys.attachments(employeeId),
    queryFn: () => directoryApi.attachments(employeeId),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: directoryKeys.employee(employeeId) });

  const upload = async (file: File) => {
    setProblem(null);
    const failed = await pdfFileProblem(file, uploadLimit);
    if (failed) {
      setProblem(failed);
      return;
    }
    setUploading(true);
    try {
      await directoryApi.uploadAttachment(employeeId, file);
      refresh();
    } catch {
      // the transfer helper toasted the server's message
    } finally {
      setUploading(false);
    }
  };

  const open = async (row: EmployeeAttachment, save: boolean) => {
    if (!save)
      // The viewer reads the file from our file source, a range at a time.
      return preview.show({
        source: fileSource(
          fillPath(directoryEndpoints.downloadAttachment.path, { id: employeeId, attachmentId: row.id }),
        ),
        fileName: row.fileName,
        onDownload: () => void open(row, true).catch(() => undefined),
      });
    const file = await directoryApi.downloadAttachment(employeeId, row.id);
    saveDownloaded({ ...file, fileName: file.fileName === 'file' ? row.fileName : file.fileName });
  };

  const confirmDelete = (row: EmployeeAttachment) =>
    modal.confirm({
      title: t('attachments.deleteTitle', { name: row.fileName }),
      content: t('attachments.deleteBody'),
      okText: t('actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('actions.cancel'),
      onOk: async () => {
        await directoryApi.deleteAttachment(employeeId, row.id);
        refresh();
      },
    });

  return (
    <div data-testid="employee-attachments">
      {editable && (
        <Flex gap={12} align="center" wrap style={{ marginBlockEnd: 12 }}>
          <PdfPickButton
            onFile={(file) => void upload(file)}
            icon={<UploadOutlined />}
            loading={uploading}
            testId="attachment-upload"
          >
            {t('attachments.upload')}
          </PdfPickButton>
          <Typography.Text type="secondary">
            {t('attachments.hint', { maxSize: formatSize(uploadLimit) })}
          </Typography.Text>
        </Flex>
      )}
      {problem && (
        <Alert
          type="error"
          showIcon
          title={problem}
          closable
          onClose={() => setProblem(null)}
          style={{ marginBlockEnd: 12 }}
          data-testid="attachment-error"
        />
      )}
      <Table<EmployeeAttachment>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data ?? []}
        pagination={false}
        locale={{
          emptyText:
            list.isError && !list.data ? (
              <LoadFailed onRetry={() => void list.refetch()} testId="attachments-failed" />
            ) : (
              <span data-testid="attachments-empty">{t('empty.attachments')}</span>
            ),
        }}
        columns={[
          {
            key: 'name',
            title: t('attachments.columns.name'),
            render: (_, row) => (
              <Flex gap={6} align="center">
                <FilePdfOutlined style={{ color: '#cf1322' }} />
                <bdi>{row.fileName}</bdi>
              </Flex>
            ),
          },
          {
            key: 'size',
            title: t('attachments.columns.size'),
            align: 'end',
            render: (_, row) => <bdi>{formatSize(row.size)}</bdi>,
          },
          {
            key: 'uploadedAt',
            title: t('attachments.columns.uploadedAt'),
            render: (_, row) => <bdi>{formatDateTime(row.uploadedAt)}</bdi>,
          },
          {
            key: 'actions',
            title: '',
            align: 'end',
            render: (_, row) => (
              <Flex gap={4} justify="end">
                <Tooltip title={t('actions.preview')}>
                  <Button
                    type="text"
                    icon={<EyeOutlined />}
                    aria-label={`${t('actions.preview')} ${row.fileName}`}
                    onClick={() => void open(row, false).catch(() => undefined)}
                  />
                </Tooltip>
                <Tooltip title={t('actions.download')}>
                  <Button
                    type="text"
                    icon={<DownloadOutlined />}
                    aria-label={`${t('actions.download')} ${row.fileName}`}
                    onClick={() => void open(row, true).catch(() => undefined)}
                  />
                </Tooltip>
                {editable && (
                  <Tooltip title={t('actions.delete')}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`${t('actions.delete')} ${row.fileName}`}
                      onClick={() => confirmDelete(row)}
                    />
                  </Tooltip>
                )}
              </Flex>
            ),
          },
        ]}
      />
      {preview.dialog}
    </div>
  );
}
