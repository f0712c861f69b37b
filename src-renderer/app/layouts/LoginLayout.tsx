/** The login layout: the product's name, the language switch, the sign-in screens, the copyright line. */
import { Outlet } from 'react-router-dom';
import { Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../components/LanguageSwitch';

export function LoginLayout() {
  const { t } = useTranslation();
  return (
    <div className="login-layout">
      <Flex vertical align="center" gap={16} className="login-column">
        <div className="login-brand">
          <div className="login-logo" aria-hidden="true">
            {t('app.logoLetter')}
          </div>
          <Typography.Title level={2} className="login-name" data-testid="app-name">
            {t('app.name')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('app.tagline')}</Typography.Text>
        </div>
        <LanguageSwitch />
        <Card className="login-card">
          <Outlet />
        </Card>
        <Typography.Text type="secondary" className="copyright" data-testid="copyright">
          {t('app.copyright')}
        </Typography.Text>
      </Flex>
    </div>
  );
}
