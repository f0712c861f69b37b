/**
 * Page paths are declared once (src-shared/pages.ts): the seeded page tree holds exactly those pages, the
 * direction table names only declared pages, and no source file spells a page path as a string literal
 * (a typo there was a silent 403).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIRECTION_PAGES, PAGES, SECTIONS } from '../../src-shared/pages';
import { INITIAL_PAGE_TREE } from '../../src-server/db/page-tree';

const declared = new Set<string>(Object.values(PAGES));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe('page paths', () => {
  it('the seeded tree holds exactly the declared pages and sections', () => {
    const seeded = INITIAL_PAGE_TREE.flatMap((s) => s.pages.map((p) => p.path));
    expect(new Set(seeded)).toEqual(declared);
    expect(seeded.length).toBe(declared.size);
    for (const s of INITIAL_PAGE_TREE) expect(Object.values(SECTIONS)).toContain(s.path);
  });

  it('every direction names declared pages', () => {
    for (const pages of Object.values(DIRECTION_PAGES))
      for (const path of Object.values(pages)) if (path !== null) expect(declared).toContain(path);
  });

  it('no source spells a page path as a string literal', () => {
    const offenders: string[] = [];
    const roots = ['src-server', 'src-renderer', 'src-main'];
    for (const file of roots.flatMap((r) => sources(r))) {
      const text = readFileSync(file, 'utf8');
      for (const path of declared) {
        // A page path where a page is meant: a route's access, a tree node, a router entry, a navigation, a
        // permission table's key. (API URLs equal to a page path, such as GET /auth/users, are URLs.)
        const quoted = `'${path.replace(/[/-]/g, (c) => `\\${c}`)}'`;
        const asPage = new RegExp(
          `((\\bon\\(|path: |treePath: |navigate\\(|page: |Page\\()${quoted}|^\\s*${quoted}:)`,
          'm',
        );
        if (asPage.test(text)) offenders.push(`${file}: ${path}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
