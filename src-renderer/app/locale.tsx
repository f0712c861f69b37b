/**
 * The interface language: held here, kept by main (`selectedLocale`, via settings:set) so it survives
 * a restart, and applied to i18next, dayjs, antd and `<html dir lang>` together. Once main has it (its
 * requests then ask for the new language), whatever was read from the server in the old one — texts the
 * server words itself, such as the audit log's action names and the options of some pickers — is read
 * again (`onLanguageSaved`, used by main.tsx for react-query's cache). A message shown in place is held
 * with its language (useShownMessage).
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Query, QueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import 'dayjs/locale/en';
import { directionOf, type Locale } from '../../src-shared/locale';
import { getBridge } from '../lib/bridge';
import { applyDocumentLocale, i18n } from '../lib/i18n';

type LocaleState = { locale: Locale; direction: 'rtl' | 'ltr'; setLocale: (locale: Locale) => Promise<void> };

const LocaleContext = createContext<LocaleState | null>(null);

const savedListeners = new Set<(locale: Locale) => void>();

/** Calls `listener` each time a new language has been saved in main; answers the unsubscribe. */
export function onLanguageSaved(listener: (locale: Locale) => void): () => void {
  savedListeners.add(listener);
  return () => savedListeners.delete(listener);
}

export function LocaleProvider({ initial, children }: { initial: Locale; children: ReactNode }) {
  const [locale, setState] = useState<Locale>(initial);
  const setLocale = useCallback(async (next: Locale) => {
    await i18n.changeLanguage(next);
    dayjs.locale(next);
    applyDocumentLocale(next);
    setState(next);
    await getBridge().settingsSet({ selectedLocale: next });
    for (const listener of savedListeners) listener(next);
  }, []);
  const value = useMemo(() => ({ locale, direction: directionOf(locale), setLocale }), [locale, setLocale]);
  return <LocaleContext.Provider value={value}>{children}</LocaleContext.Provider>;
}

/** The current language, its direction, and the switch. */
export function useLocale(): LocaleState {
  const value = useContext(LocaleContext);
  if (!value) throw new Error('useLocale outside LocaleProvider');
  return value;
}

/**
 * A query whose answer reads the same in every language and whose re-reading would disturb the screen
 * (a form seeded from it, a two-factor key issued anew) says so in its `meta`; it is not read again when
 * the language changes.
 */
export const SAME_IN_EVERY_LANGUAGE = { sameInEveryLanguage: true } as const;

/**
 * Server answers worded in the language they were asked in (the audit log's action names, the options
 * the directory's pickers get, a failure's detail): when the language changes, the queries on screen are
 * read again and the others are forgotten, so nothing stays in the old language until a reload. Queries
 * marked SAME_IN_EVERY_LANGUAGE are left as they are. Answers the unsubscribe.
 */
export function rereadDataOnLanguageChange(queryClient: QueryClient): () => void {
  const worded = (query: Query) => query.meta?.sameInEveryLanguage !== true;
  return onLanguageSaved(() => {
    queryClient.removeQueries({ type: 'inactive', predicate: worded });
    void queryClient.invalidateQueries({ type: 'active', predicate: worded });
  });
}

/**
 * A message a screen shows in place (why a sign-in failed, why a file was refused), kept with the
 * language it is worded in: it is no longer shown once the language changes, since the words came from
 * where they cannot be asked again (the server's answer), and stale words of the other language would
 * stay on the screen otherwise.
 */
export function useShownMessage(): [string | null, (message: string | null) => void] {
  const { locale } = useLocale();
  const [state, setState] = useState<{ message: string | null; language: string }>({
    message: null,
    language: locale,
  });
  const set = useCallback((message: string | null) => setState({ message, language: locale }), [locale]);
  return [state.language === locale ? state.message : null, set];
}
