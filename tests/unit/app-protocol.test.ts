/**
 * The rules of the app:// protocol (src-main/electron/app-url.ts): which URLs are ours, the CSP on every
 * response, and path resolution that never leaves the renderer folder.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appResponseHeaders, isAppUrl, resolveInside } from '../../src-main/electron/app-url';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'sijill-protocol-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html>');
  writeFileSync(join(root, 'assets', 'app.js'), 'void 0');
  writeFileSync(join(base, 'secret.txt'), 'outside');
  symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('app:// URLs', () => {
  it('recognises only app://sijill', () => {
    expect(isAppUrl('app://sijill/index.html#/login')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(isAppUrl('https://sijill/index.html')).toBe(false);
    expect(isAppUrl('file:///index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it('sends the strict CSP with every response', () => {
    const csp = appResponseHeaders('text/html')['Content-Security-Policy'];
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
      // Files come from our own file source (same origin) only: nothing is framed, workers are ours.
      "connect-src 'self'",
      "frame-src 'none'",
      "worker-src 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/blob:[^;]*;?\s*(connect|frame|worker)-src|(connect|frame|worker)-src[^;]*blob:/);
    expect(csp).not.toContain('unsafe-eval');
  });
});

describe('resolveInside', () => {
  it('serves files of the renderer folder, index.html for the root', async () => {
    expect(await resolveInside(root, '/')).toBe(join(root, 'index.html'));
    expect(await resolveInside(root, '/assets/app.js')).toBe(join(root, 'assets', 'app.js'));
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/..%5c..%5csecret.txt',
    '/%00',
    '/%E0%A4%A',
  ])('refuses %s', async (path) => {
    expect(await resolveInside(root, path)).toBeNull();
  });

  it('refuses a symbolic link that points outside, a folder and a missing file', async () => {
    expect(await resolveInside(root, '/assets/link.txt')).toBeNull();
    expect(await resolveInside(root, '/assets')).toBeNull();
    expect(await resolveInside(root, '/missing.js')).toBeNull();
  });
});
