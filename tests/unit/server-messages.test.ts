/**
 * Every message key the server names in its source exists in both languages, so no answer carries a raw
 * key (a clearance change answered `messages.updated`). The envelope also falls back to a sentence.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasText } from '../../src-server/i18n';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('server messages', () => {
  it('every key a route, an endpoint or a service names exists in Arabic and English', () => {
    const keys = new Set<string>();
    // Endpoints declare their success messages in src-shared/api (endpoint.ts `message`).
    for (const file of [...sources(join(root, 'src-server')), ...sources(join(root, 'src-shared/api'))]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /'((?:[a-z]+\.)?messages\.[A-Za-z.]+|(?:admin|auth|directory|correspondence|upload|errors)\.[A-Za-z.]+)'/g,
      )) {
        keys.add(m[1]!);
      }
      for (const m of text.matchAll(/detailKey: '([A-Za-z.]+)'/g)) keys.add(m[1]!);
    }
    expect(keys.size).toBeGreaterThan(40);
    const missing = [...keys].filter((k) => !hasText('ar', k) || !hasText('en', k));
    // Codes that are not message keys (problem codes) are allowed when they name no text at all.
    const codesOnly = missing.filter((k) => !k.includes('messages.') && !/^errors\./.test(k));
    const messages = missing.filter((k) => !codesOnly.includes(k));
    expect(messages).toEqual([]);
  });
});
