/** The page tree could not be loaded (server unreachable and nothing cached): retry or sign out. */
import { Button, Flex, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { sessionActions } from './session';

export default function TreeFailed() {
  const { t } = useTranslation('layout');
  return (
    <Result
      status="warning"
      title={t('tree.failed')}
      data-testid="tree-failed"
      extra={
        <Flex gap={8} justify="center">
          <Button type="primary" onClick={() => void sessionActions.retryConnection()}>
            {t('tree.retry')}
          </Button>
          <Button onClick={() => void sessionActions.logout()}>{t('user.logout')}</Button>
        </Flex>
      }
    />
  );
}
