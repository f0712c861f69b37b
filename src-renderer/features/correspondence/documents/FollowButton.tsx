/** A document detail's follow / unfollow button. */
import { useState } from 'react';
import { Button, DatePicker, Form, Modal } from 'antd';
import { StarFilled, StarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { type Document } from '../../../../src-shared/api/correspondence';
import { DATE_FORMAT } from '../../../components/DataTable';
import { documentsApi } from './api';
import { day } from './documentFields';

/** Follow (optionally until a date) or unfollow. */
export function FollowButton({ doc, onChanged }: { doc: Document; onChanged: () => void }) {
  const { t } = useTranslation('correspondence');
  const [open, setOpen] = useState(false);
  const [dueDate, setDueDate] = useState<Dayjs | null>(null);
  if (doc.followed) {
    return (
      <Button
        icon={<StarFilled />}
        onClick={() => void documentsApi.unfollow(doc.id).then(onChanged)}
        data-testid="unfollow"
      >
        {t('follow.unfollow')}
      </Button>
    );
  }
  return (
    <>
      <Button icon={<StarOutlined />} onClick={() => setOpen(true)} data-testid="follow">
        {t('follow.follow')}
      </Button>
      <Modal
        open={open}
        title={t('follow.title')}
        okText={t('follow.follow')}
        cancelText={t('actions.cancel')}
        onCancel={() => setOpen(false)}
        onOk={async () => {
          await documentsApi.follow(doc.id, { dueDate: day(dueDate) });
          setOpen(false);
          onChanged();
        }}
      >
        <Form layout="vertical">
          <Form.Item label={t('fields.dueDate')}>
            <DatePicker
              format={DATE_FORMAT}
              value={dueDate}
              onChange={setDueDate}
              className="corr-full"
              data-testid="follow-date"
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
