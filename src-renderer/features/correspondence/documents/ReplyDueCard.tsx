/**
 * An incoming letter's reply (issue 28): the date it is due by, in the Gregorian and Hijri calendars, its
 * state, and — once done — how (the reply letter dispatched, or closed with a note), by whom and when.
 * Who holds it or acts on it (the archive office, the manager it went to for action) changes the date,
 * says none is needed, or closes it with a note. A reply done is not reopened.
 */
import { useState } from 'react';
import { Button, Card, DatePicker, Descriptions, Form, Input, Modal, Space, Typography } from 'antd';
import { CheckOutlined, EditOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import type { Document } from '../../../../src-shared/api/correspondence';
import { DATE_FORMAT, formatDate, formatDateTime } from '../../../components/DataTable';
import { applyServerErrors, useLocalisedForm } from '../../../lib/forms';
import { localName } from '../../../lib/names';
import { documentsApi } from './api';
import { documentPath } from './directions';
import { DueStateTag } from './DueTag';
import { hijriDate } from './dueState';

interface DateValues {
  dueOn?: Dayjs | null;
}
interface CloseValues {
  note?: string;
}

export function ReplyDueCard({ doc, onChanged }: { doc: Document; onChanged: () => void }) {
  const { t, i18n } = useTranslation('correspondence');
  const [editing, setEditing] = useState(false);
  const [closing, setClosing] = useState(false);
  const [dateForm] = useLocalisedForm<DateValues>();
  const [closeForm] = useLocalisedForm<CloseValues>();
  const change = useMutation({
    mutationFn: (dueOn: string | null) => documentsApi.replyDue(doc.id, { replyDueOn: dueOn }),
  });
  const close = useMutation({
    mutationFn: (note: string) => documentsApi.replyClose(doc.id, { note }),
  });
  const r = doc.reply;
  if (!r) return null;

  const saveDate = async (none: boolean) => {
    const values = none ? {} : await dateForm.validateFields().catch(() => null);
    if (!values) return;
    try {
      await change.mutateAsync(none ? null : (values.dueOn?.format('YYYY-MM-DD') ?? null));
      setEditing(false);
      onChanged();
    } catch (error) {
      applyServerErrors(dateForm, error);
    }
  };
  const saveClose = async () => {
    const values = await closeForm.validateFields().catch(() => null);
    if (!values) return;
    try {
      await close.mutateAsync(values.note ?? '');
      setClosing(false);
      onChanged();
    } catch (error) {
      applyServerErrors(closeForm, error);
    }
  };

  const items = [
    {
      key: 'dueOn',
      label: t('due.dueOn'),
      children: r.dueOn ? (
        <Space direction="vertical" size={0}>
          <bdi data-testid="reply-due-on">{formatDate(r.dueOn)}</bdi>
          <Typography.Text type="secondary" data-testid="reply-due-hijri">
            <bdi>{hijriDate(r.dueOn, i18n.language)}</bdi>
          </Typography.Text>
        </Space>
      ) : (
        <Typography.Text type="secondary" data-testid="reply-due-none">
          {t('due.noReply')}
        </Typography.Text>
      ),
    },
    ...(r.dueOn
      ? [
          {
            key: 'state',
            label: t('due.stateLabel'),
            children: <DueStateTag state={r.state} overdueDays={r.overdueDays} />,
          },
        ]
      : []),
    ...(r.doneAt
      ? [
          {
            key: 'done',
            label: r.replyDocument ? t('due.answeredBy') : t('due.closedBy'),
            children: (
              <Space direction="vertical" size={0}>
                {r.replyDocument && (
                  <Link to={documentPath('out', 'approved', r.replyDocument.id)} data-testid="reply-document">
                    {r.replyDocument.docNumber ? (
                      <bdi className="corr-number">{r.replyDocument.docNumber}</bdi>
                    ) : null}{' '}
                    — <bdi>{r.replyDocument.subject}</bdi>
                  </Link>
                )}
                <span>
                  {r.doneBy ? <bdi>{localName(r.doneBy, i18n.language)}</bdi> : null}{' '}
                  <bdi>{formatDateTime(r.doneAt)}</bdi>
                </span>
              </Space>
            ),
          },
        ]
      : []),
    ...(r.note
      ? [
          {
            key: 'note',
            label: t('due.note'),
            children: (
              <Typography.Paragraph
                style={{ whiteSpace: 'pre-wrap', marginBlockEnd: 0 }}
                data-testid="reply-note"
              >
                {r.note}
              </Typography.Paragraph>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card size="small" title={t('due.title')} data-testid="reply-due-card">
      <Descriptions size="small" column={1} items={items} />
      {/* The actions under the facts: beside the title they cut it in a narrow column. */}
      {r.mayEdit ? (
        <Space wrap style={{ marginBlockStart: 8 }}>
          <Button
            size="small"
            icon={<EditOutlined />}
            onClick={() => {
              dateForm.setFieldsValue({ dueOn: r.dueOn ? dayjs(r.dueOn) : null });
              setEditing(true);
            }}
            data-testid="reply-due-edit"
          >
            {t('due.edit')}
          </Button>
          {r.dueOn && (
            <Button
              size="small"
              icon={<CheckOutlined />}
              onClick={() => {
                closeForm.resetFields();
                setClosing(true);
              }}
              data-testid="reply-close"
            >
              {t('due.close')}
            </Button>
          )}
        </Space>
      ) : null}
      <Modal
        open={editing}
        title={t('due.edit')}
        onCancel={() => setEditing(false)}
        destroyOnHidden
        footer={[
          <Button
            key="none"
            onClick={() => void saveDate(true)}
            loading={change.isPending}
            data-testid="reply-due-none-button"
          >
            {t('due.noReplyNeeded')}
          </Button>,
          <Button key="cancel" onClick={() => setEditing(false)}>
            {t('actions.cancel')}
          </Button>,
          <Button
            key="save"
            type="primary"
            onClick={() => void saveDate(false)}
            loading={change.isPending}
            data-testid="reply-due-save"
          >
            {t('actions.save')}
          </Button>,
        ]}
      >
        <Form form={dateForm} layout="vertical">
          <Form.Item
            name="dueOn"
            label={t('due.dueOn')}
            rules={[{ required: true, message: t('due.dateRequired') }]}
          >
            <DatePicker format={DATE_FORMAT} data-testid="reply-due-date" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={closing}
        title={t('due.close')}
        onCancel={() => setClosing(false)}
        onOk={() => void saveClose()}
        okText={t('due.close')}
        confirmLoading={close.isPending}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'reply-close-save' } as Record<string, string>}
      >
        <Typography.Paragraph type="secondary">{t('due.closeHint')}</Typography.Paragraph>
        <Form form={closeForm} layout="vertical">
          <Form.Item
            name="note"
            label={t('due.note')}
            rules={[{ required: true, whitespace: true, message: t('due.noteRequired') }]}
          >
            <Input.TextArea rows={3} maxLength={2000} data-testid="reply-close-note" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
