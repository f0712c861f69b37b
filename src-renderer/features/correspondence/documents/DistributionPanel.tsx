/** A document detail's distribution panel. */
import { useState } from 'react';
import { Button, Card, Empty, Flex, List, Tag } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { type Distribution, type Document } from '../../../../src-shared/api/correspondence';
import { formatDateTime } from '../../../components/DataTable';
import { localName } from '../../../lib/names';
import { DistributionTypeTag } from './BoxListScreen';
import { LoadFailed } from '../../../components/LoadFailed';
import { DistributeModal } from './DistributeModal';

/** The distribution panel: who received it and how; the distribute action. */
export function DistributionPanel({
  doc,
  distributions,
  onChanged,
  failed,
}: {
  doc: Document;
  distributions: Distribution[];
  onChanged: () => void;
  /** The distribution could not be loaded: say so, with a retry (never "not distributed"). */
  failed?: { retry: () => void };
}) {
  const { t, i18n } = useTranslation('correspondence');
  const [open, setOpen] = useState(false);
  return (
    <Card
      size="small"
      title={t('distribution.panel')}
      data-testid="distribution-panel"
      extra={
        doc.abilities.distribute && (
          <Button
            size="small"
            type="primary"
            icon={<SendOutlined />}
            onClick={() => setOpen(true)}
            data-testid="distribute"
          >
            {t('distribution.distribute')}
          </Button>
        )
      }
    >
      {failed ? (
        <LoadFailed onRetry={failed.retry} testId="distribution-failed" />
      ) : distributions.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('state.notDistributed')} />
      ) : (
        <List
          size="small"
          dataSource={distributions}
          renderItem={(d) => (
            <List.Item data-testid={`distribution-${d.department.id}`}>
              <div className="corr-grow">
                <Flex gap={6} align="center" wrap>
                  <strong>{localName(d.department, i18n.language)}</strong>
                  <DistributionTypeTag type={d.type} />
                  {d.type === 'forAction' &&
                    (d.completed ? (
                      <Tag color="green">{t('state.completed')}</Tag>
                    ) : (
                      <Tag color="orange">{t('state.notCompleted')}</Tag>
                    ))}
                </Flex>
                {d.notes && <span className="corr-timeline-notes">{d.notes}</span>}
                <span className="corr-timeline-meta">
                  {d.distributedBy ? localName(d.distributedBy, i18n.language) : ''} ·{' '}
                  <bdi>{formatDateTime(d.distributedAt)}</bdi>
                </span>
              </div>
            </List.Item>
          )}
        />
      )}
      <DistributeModal
        doc={doc}
        open={open}
        onClose={() => setOpen(false)}
        onDone={() => {
          setOpen(false);
          onChanged();
        }}
      />
    </Card>
  );
}
