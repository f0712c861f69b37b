/**
 * The `app://sijill` protocol: the renderer is served from here instead of `file://`, so it has a real
 * origin (same-origin rules, a CSP that means something, no access to the rest of the disk). Every
 * response carries the strict Content-Security-Policy; paths are confined to the built renderer folder
 * (app-url.ts, which holds the rules, is tested under plain Node).
 */
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { protocol } from 'electron';
import { FILE_NAME_HEADER, FILE_REQUEST_HEADERS, FILE_SOURCE_PREFIX } from '../../src-shared/files';
import { APP_HOST, APP_SCHEME, MIME_TYPES, appResponseHeaders, resolveInside } from './app-url';

/** Re-exported so main imports the protocol from one place. */
export { APP_START_URL, isAppUrl } from './app-url';

/**
 * Declares `app:` a standard, secure scheme (a real origin, allowed to use fetch and storage). Electron
 * requires this before the app is ready.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true, stream: true },
    },
  ]);
}

/** Opens one of our files through main (ApiClient.openFile): the file source's other half. */
export type OpenFile = (path: string, forward: Record<string, string | undefined>) => Promise<Response>;
/** Sends a file to the API through main (ApiClient.uploadFile), streaming. */
export type SendFile = (
  path: string,
  body: ReadableStream<Uint8Array> | null,
  fileName: string,
  contentType: string,
) => Promise<Response>;

/**
 * Serves the files of `rendererDir` at `app://sijill/…` (after the app is ready), and the file source at
 * `app://sijill/files/…`: our attachments streamed from the API with the session's token (which the
 * renderer never holds) and their byte ranges. Only our own pages reach the app: scheme.
 */
export function serveRenderer(rendererDir: string, openFile?: OpenFile, sendFile?: SendFile): void {
  const root = resolve(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return respond(404, 'Not found');
    if (request.method === 'POST' && sendFile && url.pathname.startsWith(`${FILE_SOURCE_PREFIX}/`)) {
      let fileName = 'file';
      try {
        fileName = decodeURIComponent(request.headers.get(FILE_NAME_HEADER) ?? '') || 'file';
      } catch {
        fileName = 'file';
      }
      const answer = await sendFile(
        url.pathname.slice(FILE_SOURCE_PREFIX.length),
        request.body,
        fileName,
        request.headers.get('content-type') ?? 'application/octet-stream',
      );
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return respond(405, 'Method not allowed');
    if (openFile && url.pathname.startsWith(`${FILE_SOURCE_PREFIX}/`)) {
      const forward = Object.fromEntries(
        FILE_REQUEST_HEADERS.map((name) => [name, request.headers.get(name) ?? undefined]),
      );
      const answer = await openFile(url.pathname.slice(FILE_SOURCE_PREFIX.length), forward);
      const headers = new Headers(answer.headers);
      for (const [name, value] of Object.entries(appResponseHeaders('application/octet-stream')))
        if (name.toLowerCase() !== 'content-type') headers.set(name, value);
      return new Response(answer.body, { status: answer.status, headers });
    }
    const file = await resolveInside(root, url.pathname);
    if (!file) return respond(404, 'Not found');
    const body = await readFile(file);
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: appResponseHeaders(MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'),
    });
  });
}

function respond(status: number, text: string): Response {
  return new Response(text, { status, headers: appResponseHeaders('text/plain; charset=utf-8') });
}
