/** Recovery codes, shown once: copy them or print them (only this block prints). */
import { Alert, Button, Flex, Modal, Typography } from 'antd';
import { CopyOutlined, PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { toast } from '../lib/toast';

export function RecoveryCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  const { t } = useTranslation('user');
  const { t: tc } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes?.join('\n') ?? '');
      toast({ severity: 'success', detail: t('recovery.copied') });
    } catch {
      toast({ severity: 'error', detail: t('recovery.copyFailed') });
    }
  };
  return (
    <Modal
      open={codes !== null}
      title={t('recovery.title')}
      onCancel={onClose}
      maskClosable={false}
      footer={[
        <Button key="copy" icon={<CopyOutlined />} onClick={() => void copy()} data-testid="recovery-copy">
          {t('recovery.copy')}
        </Button>,
        <Button
          key="print"
          icon={<PrinterOutlined />}
          onClick={() => window.print()}
          data-testid="recovery-print"
        >
          {t('recovery.print')}
        </Button>,
        <Button key="done" type="primary" onClick={onClose} data-testid="recovery-done">
          {tc('actions.done')}
        </Button>,
      ]}
    >
      <Flex vertical gap={12}>
        <Alert type="warning" showIcon title={t('recovery.once')} />
        <div className="recovery-codes print-only-block" dir="ltr" data-testid="recovery-codes">
          <Typography.Title level={5} className="print-only">
            {t('recovery.title')}
          </Typography.Title>
          {(codes ?? []).map((code) => (
            <code key={code} className="recovery-code">
              {code}
            </code>
          ))}
        </div>
      </Flex>
    </Modal>
  );
}
