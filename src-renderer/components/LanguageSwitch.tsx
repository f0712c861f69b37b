/** Switches between Arabic and English; the choice is kept by main. */
import { Button, Segmented } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../../src-shared/locale';
import { useLocale } from '../app/locale';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { locale, setLocale } = useLocale();
  return (
    <Segmented<Locale>
      aria-label={t('language.switchTo')}
      data-testid="language-switch"
      value={locale}
      onChange={(value) => void setLocale(value)}
      options={[
        { label: <span lang="ar">{t('language.ar')}</span>, value: 'ar' },
        { label: <span lang="en">{t('language.en')}</span>, value: 'en' },
      ]}
    />
  );
}

/** One button naming the other language (the header of the main layout). */
export function LanguageToggle() {
  const { t } = useTranslation();
  const { locale, setLocale } = useLocale();
  const other: Locale = locale === 'ar' ? 'en' : 'ar';
  return (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      aria-label={t('language.switchTo')}
      data-testid="language-toggle"
      lang={other}
      onClick={() => void setLocale(other)}
    >
      {t(`language.${other}`)}
    </Button>
  );
}
