/**
 * The one toast host of the page (specification sections 8 and 9): binds antd's notification API
 * (top-center, 24rem wide, closable, 3000 ms) and the localised severity names to `toast()`, and watches
 * the page for dialogs and drawers opening and closing, so no toast stands over one (lib/toast.ts).
 * Render it once, inside antd's <App>.
 */
import { useEffect } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { bindToasts, keepToastsOffDialogs } from '../lib/toast';

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

  useEffect(() => {
    if (typeof MutationObserver === 'undefined') return;
    // Dialogs come and go with elements and their classes and styles (antd's animations): look once a
    // frame at most after a change.
    let frame: number | null = null;
    const look = () => {
      if (frame !== null) return;
      frame = requestAnimationFrame(() => {
        frame = null;
        keepToastsOffDialogs();
      });
    };
    const observer = new MutationObserver(look);
    observer.observe(document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['class', 'style'],
    });
    window.addEventListener('resize', look);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', look);
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, []);
  return null;
}
