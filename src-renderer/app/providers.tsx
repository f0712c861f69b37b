/**
 * The application's providers: antd's ConfigProvider (direction and antd locale follow the language),
 * antd's App (the toast host binds its notifications), and react-query for server data.
 */
import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import arEG from 'antd/locale/ar_EG';
import enUS from 'antd/locale/en_US';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastHost } from '../components/ToastHost';
import { useLocale } from './locale';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

export const FONT_FAMILY = "'Noto Sans Arabic', 'Segoe UI', Tahoma, system-ui, sans-serif";

export function Providers({ children }: { children: ReactNode }) {
  const { locale, direction } = useLocale();
  return (
    <ConfigProvider
      direction={direction}
      locale={locale === 'ar' ? arEG : enUS}
      theme={{
        token: {
          fontFamily: FONT_FAMILY,
          colorPrimary: '#0f6e5f',
          colorLink: '#0f6e5f',
          borderRadius: 6,
          zIndexPopupBase: 1000,
        },
        components: {
          Menu: { itemSelectedBg: '#e3f1ee', itemSelectedColor: '#0f6e5f', subMenuItemBg: 'transparent' },
        },
      }}
    >
      {/* No stacking: one notice stands at a time (lib/toast), and a stacked list paused every toast
          while it believed itself hovered, which it could go on believing after its toasts went. */}
      <AntApp notification={{ placement: 'top', maxCount: 5, stack: false }} className="app-root">
        <ToastHost />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
