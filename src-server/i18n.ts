/**
 * Server-side translation: every text the API answers with (problem details, field messages,
 * returnMessage) comes from `locales/{ar,en}/server.json`, in the caller's `Accept-Language`. The names of
 * the reports' columns, which the reports screen shows and the exported workbooks and PDFs head their
 * columns with, are the screen's own (`dashboards.json` reports.column), read here as `reports.column`.
 */
import ar from '../locales/ar/server.json';
import en from '../locales/en/server.json';
import arDashboards from '../locales/ar/dashboards.json';
import enDashboards from '../locales/en/dashboards.json';
import type { Locale } from '../src-shared/locale';

type Tree = { [key: string]: string | Tree };
const withColumns = (server: Tree, screens: { reports: { column: Tree } }): Tree => ({
  ...server,
  reports: { ...(server.reports as Tree), column: screens.reports.column },
});
const catalogues: Record<Locale, Tree> = {
  ar: withColumns(ar as Tree, arDashboards),
  en: withColumns(en as Tree, enDashboards),
};

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Translates `key` in `locale`, falling back to Arabic, then to the key itself; `{{name}}` is filled from params. */
export function translate(locale: Locale, key: string, params: Record<string, unknown> = {}): string {
  const text = lookup(catalogues[locale], key) ?? lookup(catalogues.ar, key) ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_m, name: string) =>
    name in params ? String(params[name]) : `{{${name}}}`,
  );
}

/** Whether a key exists in a catalogue (tests use this to prove both languages are complete). */
export function hasText(locale: Locale, key: string): boolean {
  return lookup(catalogues[locale], key) !== undefined;
}
