/**
 * The interface language: held here, kept by main (`selectedLocale`, via settings:set) so it survives
 * a restart, and applied to i18next, dayjs, antd and `<html dir lang>` together.
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
