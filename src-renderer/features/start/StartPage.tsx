/** The start page of the skeleton: what runs, where its API is, and the language switch. */
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { getBridge } from '../../lib/bridge';
import { LanguageSwitch } from '../../components/LanguageSwitch';

export function StartPage() {
  const { t } = useTranslation();
  const info = useQuery({
    queryKey: ['app:info'],
    queryFn: async () => {
      const result = await getBridge().appInfo();
      if (!result.ok) throw new Error(result.error.code);
      return result.data;
    },
  });
  return (
    <Flex vertical align="center" gap={24} className="start-page">
      <Typography.Title level={2} data-testid="start-title">
        {t('start.title')}
      </Typography.Title>
      <Typography.Text type="secondary">{t('app.tagline')}</Typography.Text>
      <LanguageSwitch />
      <Card className="start-card">
        {info.data ? (
          <Descriptions column={1} size="small" data-testid="app-info">
            <Descriptions.Item label={t('start.version')}>{info.data.version}</Descriptions.Item>
            <Descriptions.Item label={t('start.host')}>
              {info.data.host === 'electron' ? t('start.hostElectron') : t('start.hostWeb')}
            </Descriptions.Item>
            <Descriptions.Item label={t('start.mode')}>
              {info.data.mode === 'standalone' ? t('start.modeStandalone') : t('start.modeConnected')}
            </Descriptions.Item>
            <Descriptions.Item label={t('start.api')}>
              <bdi dir="ltr">{info.data.apiBaseUrl}</bdi>
            </Descriptions.Item>
          </Descriptions>
        ) : info.error ? (
          <Typography.Text type="danger">{t(info.error.message)}</Typography.Text>
        ) : (
          <Typography.Text>{t('start.loading')}</Typography.Text>
        )}
      </Card>
      <Typography.Text type="secondary" className="copyright">
        {t('app.copyright')}
      </Typography.Text>
    </Flex>
  );
}
