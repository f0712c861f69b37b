/**
 * A registered document's paper: the print menu of its detail (registration sticker, cover sheet), and
 * the sticker offered straight after registering, with the choice to print it every time (a user
 * setting). A sticker on an A4 sheet of labels asks which label of the sheet to print on.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Checkbox, Dropdown, InputNumber, Modal, Space, Typography } from 'antd';
import { DownOutlined, PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Document } from '../../../../src-shared/api/correspondence';
import { A4_SHEET_LABELS, type LabelSize } from '../../../../src-shared/paper-codes';
import { savePreferences, useSession } from '../../../app/session';
import { toast } from '../../../lib/toast';
import { printCoverSheet, printSticker } from '../../../components/pdf/paper';

/** The user's sticker size (their settings; 70 × 35 mm until chosen). */
function useStickerSize(): LabelSize {
  const { user } = useSession();
  return user?.preferences.stickerSize ?? '70x35';
}

/**
 * Prints a document's sticker: at once on a label printer's size, after asking the label's position on
 * an A4 sheet. Answers the function that starts it and the dialog to render.
 */
function useStickerPrint(onPrinted?: () => void) {
  const { t } = useTranslation('correspondence');
  const size = useStickerSize();
  const [asking, setAsking] = useState<number | null>(null);
  const [position, setPosition] = useState(1);
  const [busy, setBusy] = useState(false);
  const run = async (id: number, at?: number) => {
    setBusy(true);
    try {
      const outcome = await printSticker(id, size, at);
      if (outcome.silent) toast({ severity: 'success', detail: t('paper.stickerSent') });
      onPrinted?.();
    } catch {
      // The download's failure was said (toast).
    } finally {
      setBusy(false);
    }
  };
  const start = (id: number) => {
    if (size === 'a4-24') setAsking(id);
    else void run(id);
  };
  const dialog = (
    <Modal
      open={asking !== null}
      title={t('paper.positionTitle')}
      okText={t('paper.print')}
      cancelText={t('actions.cancel')}
      onCancel={() => setAsking(null)}
      onOk={() => {
        const id = asking;
        setAsking(null);
        if (id !== null) void run(id, position);
      }}
      destroyOnHidden
    >
      <Space direction="vertical">
        <label htmlFor="sticker-position">{t('paper.position', { count: A4_SHEET_LABELS })}</label>
        <InputNumber
          id="sticker-position"
          min={1}
          max={A4_SHEET_LABELS}
          precision={0}
          value={position}
          onChange={(v) => setPosition(typeof v === 'number' ? v : 1)}
          data-testid="sticker-position"
        />
        <Typography.Text type="secondary">{t('paper.positionHint')}</Typography.Text>
      </Space>
    </Modal>
  );
  return { start, dialog, busy };
}

/** The detail's print menu: a numbered document's sticker and cover sheet. */
export function PaperMenu({ doc, onPrinted }: { doc: Document; onPrinted: () => void }) {
  const { t } = useTranslation('correspondence');
  const sticker = useStickerPrint(onPrinted);
  const [coverBusy, setCoverBusy] = useState(false);
  if (!doc.docNumber) return null;
  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'sticker', label: <span data-testid="print-sticker">{t('paper.sticker')}</span> },
            { key: 'cover', label: <span data-testid="print-cover">{t('paper.coverSheet')}</span> },
          ],
          onClick: ({ key }) => {
            if (key === 'sticker') sticker.start(doc.id);
            else {
              setCoverBusy(true);
              void printCoverSheet(doc.id)
                .then(onPrinted, () => undefined)
                .finally(() => setCoverBusy(false));
            }
          },
        }}
      >
        <Button icon={<PrinterOutlined />} loading={sticker.busy || coverBusy} data-testid="paper-menu">
          <Space size={4}>
            {t('paper.print')}
            <DownOutlined />
          </Space>
        </Button>
      </Dropdown>
      {sticker.dialog}
    </>
  );
}

/**
 * Straight after registering: the sticker in one click, and "every time" remembered with the user's
 * settings — when it is set, the sticker is printed at once (once per registration).
 */
export function StickerAfterRegister({ doc }: { doc: Document }) {
  const { t } = useTranslation('correspondence');
  const { user } = useSession();
  const always = user?.preferences.stickerAfterRegister === true;
  const sticker = useStickerPrint();
  const printed = useRef<number | null>(null);
  useEffect(() => {
    if (!always || !doc.docNumber || printed.current === doc.id) return;
    printed.current = doc.id;
    sticker.start(doc.id);
    // Printed once for this registration, whatever else changes.
  }, [always, doc.id, doc.docNumber, sticker]);
  if (!doc.docNumber) return null;
  return (
    <Space direction="vertical" align="center" data-testid="sticker-after-register">
      <Button
        icon={<PrinterOutlined />}
        loading={sticker.busy}
        onClick={() => sticker.start(doc.id)}
        data-testid="register-print-sticker"
      >
        {t('paper.printSticker')}
      </Button>
      <Checkbox
        checked={always}
        onChange={(e) => void savePreferences({ stickerAfterRegister: e.target.checked }).catch(() => {})}
        data-testid="sticker-always"
      >
        {t('paper.always')}
      </Checkbox>
      {sticker.dialog}
    </Space>
  );
}
