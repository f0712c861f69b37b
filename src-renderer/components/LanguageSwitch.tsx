/** Switches between Arabic and English; the choice is kept by main. */
import { Segmented } from 'antd';
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
        { label: t('language.ar'), value: 'ar' },
        { label: t('language.en'), value: 'en' },
      ]}
    />
  );
}
