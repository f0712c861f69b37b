/**
 * One word for one thing, in each language: the strings a native reader found inconsistent stay fixed,
 * and the menu's names of the administration pages are their page titles.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INITIAL_PAGE_TREE } from '../../src-server/db/page-tree';

const root = resolve(import.meta.dirname, '../..');
type Tree = { [key: string]: string | Tree };

function strings(lang: 'ar' | 'en'): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(join(root, 'locales', lang)).filter((f) => f.endsWith('.json'))) {
    const walk = (node: Tree, path: string) => {
      for (const [k, v] of Object.entries(node)) {
        if (typeof v === 'string') out.set(`${file}:${path}${k}`, v);
        else walk(v, `${path}${k}.`);
      }
    };
    walk(JSON.parse(readFileSync(join(root, 'locales', lang, file), 'utf8')) as Tree, '');
  }
  return out;
}

describe('terminology', () => {
  const ar = strings('ar');
  const en = strings('en');

  it('both languages have the same keys', () => {
    const plural = (k: string) => k.replace(/_(zero|one|two|few|many|other)$/, '');
    expect(new Set([...ar.keys()].map(plural))).toEqual(new Set([...en.keys()].map(plural)));
  });

  it('two-factor has one Arabic name: التحقق بخطوتين', () => {
    const other = [...ar].filter(([, v]) => /المصادقة الثنائية|التحقق الثنائي|المصادقة بخطوتين/.test(v));
    expect(other).toEqual([]);
  });

  it('the skip button is an imperative: تخطَّ الآن', () => {
    expect(ar.get('auth.json:twoFactor.skip')).toBe('تخطَّ الآن');
  });

  it('English strings carry no Arabic letters (but the name of the Arabic language itself)', () => {
    const own = (k: string) => k.startsWith('common.json:language.');
    expect([...en].filter(([k, v]) => !own(k) && /[\u0600-\u06FF]/.test(v))).toEqual([]);
  });

  it('the administration menu entries are the titles of their pages', () => {
    const section = INITIAL_PAGE_TREE.find((s) => s.path === '/auth')!;
    const page = (path: string) => section.pages.find((p) => p.path === path)!;
    for (const [path, key] of [
      ['/auth/users', 'users.title'],
      ['/auth/roles', 'roles.title'],
      ['/auth/pages', 'pages.title'],
      ['/auth/audit', 'audit.title'],
    ] as const) {
      expect(ar.get(`admin.json:${key}`), path).toBe(page(path).nameAr);
      expect(en.get(`admin.json:${key}`), path).toBe(page(path).nameEn);
    }
  });
});
