/**
 * What search read of an attachment: "waiting", "reading… 3 of 10 pages", then a "Text" button that shows
 * the text of each page and how it was read (text layer or OCR), or "could not read the text".
 */
import { useState } from 'react';
import { Button, Empty, Flex, Modal, Spin, Tag, Typography } from 'antd';
import { FileTextOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Attachment } from '../../../../src-shared/api/correspondence';
import { correspondenceEndpoints as E } from '../../../../src-shared/api/correspondence-endpoints';
import { call } from '../../../lib/call';
import { corrKeys } from '../documents/api';
import { LoadFailed } from '../../../components/LoadFailed';

/** Whether the server is still to read (or reading) an attachment's text. */
export const isReading = (a: Attachment) => a.text.status === 'pending' || a.text.status === 'reading';

export function AttachmentTextStatus({
  documentId,
  attachment,
}: {
  documentId: number;
  attachment: Attachment;
}) {
  const { t } = useTranslation('search');
  const [open, setOpen] = useState(false);
  const text = useQuery({
    queryKey: corrKeys.attachmentText(documentId, attachment.id),
    queryFn: () => call(E.attachmentText, { params: { id: documentId, attachmentId: attachment.id } }),
    enabled: open,
  });
  const { status, pagesDone, pages } = attachment.text;
  if (status === 'pending')
    return (
      <Tag data-testid="attachment-text-status" data-status={status}>
        {t('text.pending')}
      </Tag>
    );
  if (status === 'reading')
    return (
      <Tag
        icon={<SyncOutlined spin />}
        color="processing"
        data-testid="attachment-text-status"
        data-status={status}
      >
        {pages ? t('text.readingPages', { done: pagesDone ?? 0, total: pages }) : t('text.reading')}
      </Tag>
    );
  if (status === 'failed')
    return (
      <Tag color="error" data-testid="attachment-text-status" data-status={status}>
        {t('text.failed')}
      </Tag>
    );
  return (
    <>
      <Button
        size="small"
        type="link"
        icon={<FileTextOutlined />}
        onClick={() => setOpen(true)}
        aria-label={t('text.show', { name: attachment.fileName })}
        data-testid="attachment-text-status"
        data-status={status}
      >
        {t('text.done')}
      </Button>
      <Modal
        open={open}
        onCancel={() => setOpen(false)}
        footer={null}
        width={760}
        title={t('text.title', { name: attachment.fileName })}
        data-testid="attachment-text-dialog"
      >
        {text.isLoading ? (
          <Spin />
        ) : text.isError ? (
          <LoadFailed onRetry={() => void text.refetch()} />
        ) : !text.data?.pages.some((p) => p.text.trim()) ? (
          <Empty description={t('text.none')} />
        ) : (
          <div className="attachment-text-pages">
            {text.data.pages.map((p) => (
              <section key={p.page} className="attachment-text-page" data-testid="attachment-text-page">
                <Flex gap={8} align="center">
                  <Typography.Text strong>{t('text.pageTitle', { page: p.page })}</Typography.Text>
                  <Tag>{t(`text.method.${p.method}`)}</Tag>
                </Flex>
                <Typography.Paragraph className="attachment-text-body" dir="auto">
                  {p.text}
                </Typography.Paragraph>
              </section>
            ))}
          </div>
        )}
      </Modal>
    </>
  );
}
