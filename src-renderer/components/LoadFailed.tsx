/**
 * What a part of a screen shows when its data could not be loaded (the server away, an error): saying
 * so, with a button to try again — never the empty state, which would claim there is nothing. Every
 * list, card and panel that shows an empty state for its query shows this instead when the query failed
 * (DataTable has its own, larger one).
 */
import { Button, Empty } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

export function LoadFailed({ onRetry, testId }: { onRetry: () => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={<span data-testid={testId ?? 'load-failed'}>{t('loadFailed')}</span>}
    >
      <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
        {t('actions.retry')}
      </Button>
    </Empty>
  );
}
