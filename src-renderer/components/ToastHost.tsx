/**
 * The one toast host of the page (specification sections 8 and 9): binds antd's notification API
 * (top-center, 24rem wide, closable, 3000 ms) and the localised severity names to `toast()`.
 * Render it once, inside antd's <App>.
 */
import { useEffect } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { bindToasts } from '../lib/toast';

export function ToastHost() {
  const { notification } = App.useApp();
  const { t, i18n } = useTranslation();
  useEffect(() => {
    bindToasts(notification, {
      info: t('toast.info'),
      success: t('toast.success'),
      warn: t('toast.warn'),
      error: t('toast.error'),
      secondary: t('toast.secondary'),
      contrast: t('toast.contrast'),
    });
    return () => bindToasts(null);
  }, [notification, t, i18n.language]);
  return null;
}
