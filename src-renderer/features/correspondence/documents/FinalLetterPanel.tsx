/**
 * An approved letter's or memo's final PDF (issue 27): the letter as it leaves, stamped and — with the
 * organisation's certificate — signed. Shows whether it is being made, made (signed or not, its SHA-256,
 * its verification address) or could not be made; opens it in the viewer and saves it; its archive office
 * makes it again or cancels it, and sends an outgoing letter's by e-mail (FinalEmailSection).
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Modal, Space, Tag, Typography } from 'antd';
import {
  DownloadOutlined,
  EyeOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Document } from '../../../../src-shared/api/correspondence';
import { finalEndpoints as F, type FinalLetter } from '../../../../src-shared/api/final';
import { fillPath } from '../../../../src-shared/api/endpoint';
import { formatDateTime } from '../../../components/DataTable';
import { usePdfPreview } from '../../../components/pdf/PdfPreview';
import { downloadFile, formatSize, saveDownloaded } from '../../../components/upload/transfer';
import { call } from '../../../lib/call';
import { fileSource } from '../../../lib/files';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { FinalEmailSection } from './FinalEmailSection';
import { corrKeys } from './keys';

const finalKey = corrKeys.final;
const finalPath = (id: number) => fillPath(F.finalFile.path, { id });

export function FinalLetterPanel({ doc, onChanged }: { doc: Document; onChanged: () => void }) {
  const { t, i18n } = useTranslation('correspondence');
  const preview = usePdfPreview();
  const applies = (doc.direction === 'out' || doc.direction === 'memo') && doc.state === 'approved';
  const final = useQuery({
    queryKey: finalKey(doc.id),
    queryFn: () => call(F.finalLetter, { params: { id: doc.id } }),
    enabled: applies,
    // Made in the background after the approval: asked again until it is made or has failed.
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? 1500 : false),
  });
  const remake = useMutation({
    mutationFn: () => call(F.remakeFinal, { params: { id: doc.id } }),
    onSuccess: () => {
      void final.refetch();
      onChanged();
    },
  });
  const [cancelling, setCancelling] = useState(false);
  // Made (or failed) while the screen was open: the timeline has its event now.
  const seen = useRef(final.data?.state);
  useEffect(() => {
    const state = final.data?.state;
    if (seen.current === 'pending' && state !== 'pending') onChanged();
    seen.current = state;
  }, [final.data?.state, onChanged]);
  if (!applies || !final.data) return null;
  const f = final.data;
  const save = async () => saveDownloaded(await downloadFile(finalPath(doc.id)));
  const open = () =>
    preview.show({
      source: fileSource(finalPath(doc.id)),
      fileName: `${doc.docNumber ?? doc.id}-final.pdf`,
      onDownload: () => void save(),
    });

  return (
    <Card size="small" title={t('final.title')} data-testid="final-panel" extra={<FinalTag final={f} />}>
      {preview.dialog}
      {f.cancelled && (
        <Alert
          type="error"
          showIcon
          className="corr-final-alert"
          data-testid="final-cancelled"
          message={t('final.cancelledOn', { date: formatDateTime(f.cancelled.at, i18n.language) })}
          description={<bdi>{f.cancelled.reason}</bdi>}
        />
      )}
      {f.state === 'pending' && <Typography.Text type="secondary">{t('final.pendingText')}</Typography.Text>}
      {f.state === 'none' && (
        <Typography.Text type="secondary" data-testid="final-none">
          {t('final.noneText')}
        </Typography.Text>
      )}
      {f.state === 'failed' && (
        <Alert
          type="warning"
          showIcon
          className="corr-final-alert"
          data-testid="final-failed"
          message={t(`final.errors.${(f.error ?? 'final.failed').replace(/^final\./, '')}`, {
            defaultValue: t('final.errors.failed'),
          })}
        />
      )}
      {f.state === 'done' && (
        <>
          {!f.signed && (
            <Alert
              type="info"
              showIcon
              className="corr-final-alert"
              data-testid="final-unsigned"
              message={t('final.unsignedText')}
            />
          )}
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'made', label: t('final.madeAt'), children: formatDateTime(f.madeAt, i18n.language) },
              {
                key: 'pages',
                label: t('final.pages'),
                children: `${t('final.pageCount', { count: f.pages ?? 0 })} — ${formatSize(f.size ?? 0, i18n.language)}`,
              },
              ...(f.certificate
                ? [
                    {
                      key: 'signer',
                      label: t('final.signedBy'),
                      children: <bdi>{f.certificate.subject}</bdi>,
                    },
                  ]
                : []),
              {
                key: 'sha',
                label: 'SHA-256',
                children: (
                  <Typography.Text code copyable className="corr-hash" dir="ltr" data-testid="final-sha256">
                    {f.sha256}
                  </Typography.Text>
                ),
              },
              {
                key: 'verify',
                label: t('final.verify'),
                children: f.verifyUrl ? (
                  <Typography.Link
                    href={f.verifyUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    copyable={{ text: f.verifyUrl }}
                    data-testid="final-verify-link"
                  >
                    <bdi dir="ltr">{f.verifyUrl}</bdi>
                  </Typography.Link>
                ) : (
                  <Typography.Text type="secondary">{t('final.noVerifyAddress')}</Typography.Text>
                ),
              },
            ]}
          />
        </>
      )}
      <Space wrap className="corr-final-actions">
        {f.state === 'done' && (
          <>
            <Button icon={<EyeOutlined />} onClick={open} data-testid="final-open">
              {t('final.open')}
            </Button>
            <Button icon={<DownloadOutlined />} onClick={() => void save()} data-testid="final-save">
              {t('final.save')}
            </Button>
          </>
        )}
        {f.mayManage && !f.cancelled && f.state !== 'pending' && (
          <Button
            icon={<ReloadOutlined />}
            loading={remake.isPending}
            onClick={() => remake.mutate()}
            data-testid="final-remake"
          >
            {f.state === 'none' ? t('final.make') : t('final.remake')}
          </Button>
        )}
        {f.mayManage && !f.cancelled && f.state !== 'none' && (
          <Button
            danger
            icon={<StopOutlined />}
            onClick={() => setCancelling(true)}
            data-testid="final-cancel"
          >
            {t('final.cancel')}
          </Button>
        )}
      </Space>
      {doc.direction === 'out' && f.state === 'done' && !f.cancelled && (
        <FinalEmailSection doc={doc} onChanged={onChanged} />
      )}
      {cancelling && (
        <CancelDialog
          id={doc.id}
          onClose={() => setCancelling(false)}
          onDone={() => {
            setCancelling(false);
            void final.refetch();
            onChanged();
          }}
        />
      )}
    </Card>
  );
}

function FinalTag({ final }: { final: FinalLetter }) {
  const { t } = useTranslation('correspondence');
  if (final.cancelled) return <Tag color="red">{t('final.state.cancelled')}</Tag>;
  if (final.state === 'none') return <Tag>{t('final.state.none')}</Tag>;
  if (final.state === 'pending') return <Tag color="blue">{t('final.state.pending')}</Tag>;
  if (final.state === 'failed') return <Tag color="orange">{t('final.state.failed')}</Tag>;
  return final.signed ? (
    <Tag color="green" icon={<SafetyCertificateOutlined />} data-testid="final-signed">
      {t('final.state.signed')}
    </Tag>
  ) : (
    <Tag data-testid="final-stamped">{t('final.state.stamped')}</Tag>
  );
}

function CancelDialog({ id, onClose, onDone }: { id: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('correspondence');
  const [form] = useLocalisedForm<{ reason?: string }>();
  const cancel = useMutation({
    mutationFn: (reason: string) => call(F.cancelFinal, { params: { id }, body: { reason } }),
  });
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await cancel.mutateAsync(values.reason!.trim());
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
    }
  };
  return (
    <Modal
      open
      title={t('final.cancelTitle')}
      okText={t('final.cancelConfirm')}
      okButtonProps={{
        danger: true,
        loading: cancel.isPending,
        ...({ 'data-testid': 'final-cancel-ok' } as Record<string, string>),
      }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('final.cancelText')}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label={t('final.cancelReason')}
          rules={[{ required: true, whitespace: true, message: t('validation.required', { ns: 'common' }) }]}
        >
          <Input.TextArea
            maxLength={500}
            showCount
            autoSize={{ minRows: 2 }}
            data-testid="final-cancel-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
