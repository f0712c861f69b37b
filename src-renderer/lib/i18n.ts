/**
 * i18next over the `locales/` folder: Arabic is the default and the fallback. Every namespace file
 * (`locales/<lng>/<ns>.json`) is bundled; server texts stay on the server.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, directionOf, type Locale } from '../../src-shared/locale';

type Resources = Record<string, Record<string, Record<string, unknown>>>;

const files = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** Builds `{ ar: { common: {...} }, en: {...} }` from the bundled files (the server's server.json and verify.json excluded). */
function collectResources(): Resources {
  const resources: Resources = {};
  for (const [path, content] of Object.entries(files)) {
    const match = /locales\/(\w+)\/([\w-]+)\.json$/.exec(path);
    if (!match || match[2] === 'server' || match[2] === 'verify') continue;
    const [, lng, ns] = match as unknown as [string, string, string];
    (resources[lng] ??= {})[ns] = content;
  }
  return resources;
}

export const NAMESPACES = ['common', 'auth', 'layout', 'user', 'pages'];

/** Initialises i18next in a language; call once before the first render. */
export async function initI18n(locale: Locale = DEFAULT_LOCALE) {
  const resources = collectResources();
  await i18n.use(initReactI18next).init({
    resources,
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: ['ar', 'en'],
    ns: Object.keys(resources[DEFAULT_LOCALE] ?? { common: {} }),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyDocumentLocale(locale);
  return i18n;
}

/** Keeps `<html dir lang>` in step with the language. */
export function applyDocumentLocale(locale: Locale) {
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
}

export { i18n };
