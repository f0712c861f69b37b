/** A document detail's attachments panel (open, save, what was added after approval). */
import { useEffect } from 'react';
import { Button, List, Tag, Typography } from 'antd';
import { DownloadOutlined, EyeOutlined, FilePdfOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { type Attachment, type Document } from '../../../../src-shared/api/correspondence';
import { READ_TOKEN_HEADER } from '../../../../src-shared/api/reads';
import { formatDateTime } from '../../../components/DataTable';
import { formatSize, saveDownloaded } from '../../../components/upload/transfer';
import { attachmentPath, documentsApi } from './api';
import { usePdfPreview, warmPdfViewer } from '../../../components/pdf/PdfPreview';
import { fileSource } from '../../../lib/files';
import { AttachmentTextStatus } from '../search/AttachmentText';
import { AddAfterApproval } from './AddAfterApproval';

/**
 * The attachments with open (a Blob URL in a frame) and save: the document's content, then — on an
 * approved letter or memo — what was added after its approval, apart, with its kind (and, for its archive
 * office, adding one).
 */
export function Attachments({ doc, onChanged }: { doc: Document; onChanged: () => void }) {
  const { t, i18n } = useTranslation('correspondence');
  const preview = usePdfPreview();
  // The viewer reads the file from our file source, a range at a time; every request of this opening
  // carries its token, so the server records one view however many ranges pdf.js reads. Printing asks
  // the server for its print copy (recorded; watermarked above the lowest security level).
  const open = (a: Attachment) => {
    const source = fileSource(attachmentPath(doc.id, a.id));
    preview.show({
      source: { ...source, httpHeaders: { ...source.httpHeaders, [READ_TOKEN_HEADER]: crypto.randomUUID() } },
      fileName: a.fileName,
      onDownload: () => void save(a),
      printCopy: async () =>
        new Uint8Array(await (await documentsApi.printCopy(doc.id, a.id)).blob.arrayBuffer()),
    });
  };
  const hasFiles = doc.attachments.length > 0;
  useEffect(() => {
    if (hasFiles) warmPdfViewer();
  }, [hasFiles]);
  const save = async (a: Attachment) => saveDownloaded(await documentsApi.downloadAttachment(doc.id, a.id));
  const content = doc.attachments.filter((a) => a.kind === 'content');
  const additions = doc.attachments.filter((a) => a.kind !== 'content');
  const row = (a: Attachment) => (
    <List.Item
      data-testid={a.kind === 'content' ? 'attachment-row' : 'addition-row'}
      actions={[
        <Button
          key="open"
          type="text"
          icon={<EyeOutlined />}
          onClick={() => open(a)}
          data-testid="attachment-open"
          aria-label={t('detail.open', { name: a.fileName })}
        />,
        <Button
          key="save"
          type="text"
          icon={<DownloadOutlined />}
          onClick={() => void save(a)}
          data-testid="attachment-save"
          aria-label={t('detail.save', { name: a.fileName })}
        />,
      ]}
    >
      <span className="corr-attachment">
        <FilePdfOutlined />
        <bdi>{a.fileName}</bdi>
        {a.kind !== 'content' && <Tag color="purple">{t(`additions.kind.${a.kind}`)}</Tag>}
        <Typography.Text type="secondary">{formatSize(a.size, i18n.language)}</Typography.Text>
        {a.kind !== 'content' && (
          <Typography.Text type="secondary">
            <bdi>{formatDateTime(a.createdAt)}</bdi>
          </Typography.Text>
        )}
        <AttachmentTextStatus documentId={doc.id} attachment={a} />
      </span>
    </List.Item>
  );
  return (
    <>
      <List
        size="small"
        locale={{ emptyText: t('empty.attachments') }}
        dataSource={content}
        renderItem={row}
      />
      {(additions.length > 0 || doc.abilities.addAfterApproval) && (
        <div className="corr-additions" data-testid="additions-panel">
          <Typography.Text strong>{t('additions.title')}</Typography.Text>
          <Typography.Paragraph type="secondary" className="corr-hint">
            {t('additions.hint')}
          </Typography.Paragraph>
          {additions.length > 0 && <List size="small" dataSource={additions} renderItem={row} />}
          {doc.abilities.addAfterApproval && <AddAfterApproval doc={doc} onAdded={onChanged} />}
        </div>
      )}
      {preview.dialog}
    </>
  );
}
