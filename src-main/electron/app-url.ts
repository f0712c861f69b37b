/**
 * The pure part of the app:// protocol (no Electron import, so it is unit-tested under Node): what
 * counts as one of our URLs, the Content-Security-Policy, and the mapping of a URL path to a file that
 * can never leave the renderer folder.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** The scheme of the app's own pages. */
export const APP_SCHEME = 'app';
/** The one host under that scheme: pages are app://sijill/…. */
export const APP_HOST = 'sijill';
/** The URL the window opens. */
export const APP_START_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * The policy of every page: our own scripts only, no plugins, no frames in or out, no form posts, API calls
 * through main, files only from our own file source (same origin, /files).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'", // no eval, no WebAssembly: pdf.js decodes images with its JavaScript fallbacks
  "style-src 'self' 'unsafe-inline'", // antd's CSS-in-JS injects <style> elements
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'", // the API goes through main; files through our own /files source
  "worker-src 'self'", // pdf.js's worker, from our own bundle
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** Content types of the files a Vite build emits. */
export const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Whether a URL is one of our own pages. Compared by scheme and host, because WHATWG URL gives
 * non-special schemes an opaque origin ('null') outside Chromium.
 */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Maps a URL path to a file inside `root`, or null. Refuses encoded separators, dot segments that climb
 * out, and symbolic links that point outside (checked on the real path).
 */
export async function resolveInside(root: string, pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const wanted = decoded === '/' || decoded === '' ? '/index.html' : decoded;
  const candidate = resolve(root, `.${wanted}`);
  if (!isWithin(root, candidate)) return null;
  try {
    const real = await realpath(candidate);
    const realRoot = await realpath(root);
    if (!isWithin(realRoot, real)) return null;
    if (!(await stat(real)).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}

function isWithin(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** The headers of every response of the app protocol: the CSP first of all. */
export function appResponseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}
