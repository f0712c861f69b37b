/** /no-access: 'You do not have access to this page' and a button back to the base page. */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export function Component() {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title={t('noAccess.title')}
      subTitle={t('noAccess.message')}
      data-testid="no-access"
      extra={
        <Button type="primary" onClick={() => navigate('/')} data-testid="no-access-home">
          {t('noAccess.back')}
        </Button>
      }
    />
  );
}
