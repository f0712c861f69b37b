/**
 * The renderer's entry: reads the kept language and the session from main, initialises i18next, listens
 * for main's `session:expired` and `connection:changed`, then renders the providers and the hash router.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import dayjs from 'dayjs';
import '@fontsource/noto-sans-arabic/400.css';
import '@fontsource/noto-sans-arabic/700.css';
import './styles/global.css';
import { DEFAULT_LOCALE, type Locale } from '../src-shared/locale';
import { getBridge } from './lib/bridge';
import { initI18n } from './lib/i18n';
import { LocaleProvider, rereadDataOnLanguageChange } from './app/locale';
import { Providers, queryClient } from './app/providers';
import { createRouter } from './app/router';
import { refreshSession } from './app/session';
import { forgetDataOnUserChange, listenForSessionExpiry } from './app/expiry';
import { listenForConnection } from './app/connection';

async function boot() {
  const bridge = getBridge();
  const [settings] = await Promise.all([bridge.settingsGet(), refreshSession()]);
  const locale: Locale = settings.ok ? settings.data.selectedLocale : DEFAULT_LOCALE;
  await initI18n(locale);
  dayjs.locale(locale);
  listenForSessionExpiry(bridge);
  forgetDataOnUserChange(queryClient);
  rereadDataOnLanguageChange(queryClient);
  listenForConnection(bridge, queryClient);
  const router = createRouter();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <LocaleProvider initial={locale}>
        <Providers>
          <RouterProvider router={router} />
        </Providers>
      </LocaleProvider>
    </StrictMode>,
  );
}

void boot();
