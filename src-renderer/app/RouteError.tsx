/**
 * What a route shows when its code could not be loaded (a chunk's fetch failed twice: router.tsx) or it
 * threw while rendering: "this page could not be loaded — check the connection" or "something went wrong",
 * with "Try again" (a reload, which fetches the code anew). `PageError` sits in the main layout's page area
 * (the menu and header stay) and also offers the home page; `RootError` replaces a layout that failed. Both
 * are plain elements styled in global.css, like the boot spinner: no antd, so they live in the first
 * bundle and need no chunk of their own at the moment chunks fail. The error goes to the console, never to
 * the screen.
 */
import { useEffect } from 'react';
import { useNavigate, useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/**
 * Whether `error` is a module that could not be fetched: Chromium's, Firefox's and Safari's words for a
 * failed dynamic import, and Vite's when a chunk's stylesheet fails.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(message);
}

/** The route's error, logged once, and the words that fit it. */
function useShownRouteError() {
  const error = useRouteError();
  const { t } = useTranslation('layout');
  useEffect(() => {
    console.error('A route failed:', error);
  }, [error]);
  const chunk = isChunkLoadError(error);
  return {
    kind: chunk ? 'chunk' : 'other',
    title: chunk ? t('routeError.loadTitle') : t('routeError.title'),
    message: chunk ? t('routeError.loadMessage') : t('routeError.message'),
    retry: t('routeError.retry'),
    home: t('routeError.home'),
  } as const;
}

/** Loads the document again: the code is fetched anew, and the route with it. */
function reload() {
  window.location.reload();
}

/** The error's words and buttons: "Try again" always, "Back to the home page" when `onHome` is given. */
function ErrorBody({ heading, onHome }: { heading: 'h1' | 'h2'; onHome?: () => void }) {
  const shown = useShownRouteError();
  const Heading = heading;
  return (
    <div className="route-error" role="alert" data-testid="route-error" data-kind={shown.kind}>
      <span className="route-error-mark" aria-hidden="true">
        !
      </span>
      <Heading className="route-error-title">{shown.title}</Heading>
      <p className="route-error-message">{shown.message}</p>
      <div className="route-error-actions">
        <button
          type="button"
          className="route-error-button primary"
          onClick={reload}
          data-testid="route-error-retry"
        >
          {shown.retry}
        </button>
        {onHome && (
          <button
            type="button"
            className="route-error-button"
            onClick={onHome}
            data-testid="route-error-home"
          >
            {shown.home}
          </button>
        )}
      </div>
    </div>
  );
}

/** A page's failure inside the main layout: the layout stays around it, and the home page is offered. */
export function PageError() {
  const navigate = useNavigate();
  return <ErrorBody heading="h2" onHome={() => navigate('/')} />;
}

/** A layout's failure at the root: the whole window, no layout. */
export function RootError() {
  return (
    <div className="full-page">
      <ErrorBody heading="h1" />
    </div>
  );
}
