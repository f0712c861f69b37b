/**
 * The interface language: held here, kept by main (`selectedLocale`, via settings:set) so it survives
 * a restart, and applied to i18next, dayjs, antd and `<html dir lang>` together. A message shown in
 * place is held with its language (useShownMessage).
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import 'dayjs/locale/en';
import { directionOf, type Locale } from '../../src-shared/locale';
import { getBridge } from '../lib/bridge';
import { applyDocumentLocale, i18n } from '../lib/i18n';

type LocaleState = { locale: Locale; direction: 'rtl' | 'ltr'; setLocale: (locale: Locale) => Promise<void> };

const LocaleContext = createContext<LocaleState | null>(null);

export function LocaleProvider({ initial, children }: { initial: Locale; children: ReactNode }) {
  const [locale, setState] = useState<Locale>(initial);
  const setLocale = useCallback(async (next: Locale) => {
    await i18n.changeLanguage(next);
    dayjs.locale(next);
    applyDocumentLocale(next);
    setState(next);
    await getBridge().settingsSet({ selectedLocale: next });
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
