/**
 * ApiClient: main's one way to our REST API (Node's fetch), with the specification's request rules: the
 * token from the vault (never the renderer's), `Accept-Language` from the selected locale, and on a 401 the
 * session cleared and `session:expired` pushed. Statuses are answers; only an unreachable server is an
 * IpcFailure. Files cross IPC as base64 (docs/architecture.md, "src-main"; docs/decisions.md: fetch).
 */
import {
  FILE_REQUEST_HEADERS,
  FILE_RESPONSE_HEADERS,
  isFilePath,
  isUploadPath,
} from '../../src-shared/files';
import type {
  ApiDownload,
  ApiDownloadResult,
  ApiRequest,
  ApiResponse,
  ApiUpload,
  EventPayload,
} from '../../src-shared/ipc/contract';
import { FILE_TRANSFER_MAX_BYTES, IPC_ERRORS } from '../../src-shared/ipc/contract';
import { DEFAULT_LOCALE } from '../../src-shared/locale';
import { IpcFailure } from '../ipc/dispatch';
import { ConnectionWatch, type ConnectionWatchOptions } from './connection';
import type { LocalStore } from './local-store';
import { multipartStream, streamingInit } from './multipart';
import type { SessionVault } from './session-vault';

/** What the ApiClient needs: where the API is, where the token is, where the locale and session state are. */
export interface ApiClientOptions {
  /** The API base URL, asked on every request because it changes when the user picks another server. */
  baseUrl: () => string;
  vault: SessionVault;
  store: LocalStore;
  /** Per-request time limit; the server is local or on the organisation's network. */
  timeoutMs?: number;
  /** How the server's return is watched for while it is away (tests shorten the waits). */
  connection?: Omit<ConnectionWatchOptions, 'probe'>;
}

/** Listener of `session:expired`. */
export type SessionExpiredListener = (payload: EventPayload<'session:expired'>) => void;

const DEFAULT_TIMEOUT_MS = 30_000;
const PROBE_TIMEOUT_MS = 5000;

/** One exchange with the API: its status, headers and whole body. */
interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

interface SendInit {
  method: string;
  headers: Record<string, string>;
  body?: string | ReadableStream<Uint8Array>;
  /** A body larger than this is refused (downloads). */
  maxBytes?: number;
}

/** Calls our REST API on behalf of the renderer. */
export class ApiClient {
  private readonly listeners = new Set<SessionExpiredListener>();
  /** Whether the server answers: every exchange reports to it; while away it asks /health by itself. */
  readonly connection: ConnectionWatch;

  constructor(private readonly options: ApiClientOptions) {
    this.connection = new ConnectionWatch({ ...options.connection, probe: () => this.probeHealth() });
  }

  /** The API base URL in effect now. */
  baseUrl(): string {
    return this.options.baseUrl();
  }

  /**
   * Sends one request to our API and answers its status and body. Throws IpcFailure when unreachable.
   * `extraHeaders` are for main's own calls (Idempotency-Key, If-Match); the renderer cannot set any.
   */
  async request(req: ApiRequest, extraHeaders: Record<string, string> = {}): Promise<ApiResponse> {
    const url = resolveApiUrl(this.options.baseUrl(), req.path, req.query);
    const headers = { ...this.headers(), ...extraHeaders };
    // An object or array goes as JSON; a string as it is.
    let body: string | undefined;
    if (req.body !== undefined && req.body !== null && req.method !== 'GET') {
      if (typeof req.body === 'object') {
        headers['Content-Type'] ??= 'application/json';
        body = JSON.stringify(req.body);
      } else body = String(req.body);
    }
    const answer = await this.send(url, {
      method: req.method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    return { status: answer.status, body: jsonOrText(answer.bytes) };
  }

  /** Sends one file as multipart/form-data (the file under `field`, plus plain fields); answers like request. */
  async upload(req: ApiUpload): Promise<ApiResponse> {
    const url = resolveApiUrl(this.options.baseUrl(), req.path);
    const bytes = Buffer.from(req.base64, 'base64');
    if (bytes.byteLength > FILE_TRANSFER_MAX_BYTES) {
      throw new IpcFailure(IPC_ERRORS.invalidInput, 'The file is too large to send');
    }
    const form = new FormData();
    // Plain fields first: a streaming multipart parser on the server sees them before the file.
    for (const [name, value] of Object.entries(req.fields ?? {})) form.append(name, value);
    form.append(req.field, new Blob([bytes], { type: req.mime }), req.fileName);
    // Encoded by fetch's own FormData support, then streamed so the idle timer sees it being sent.
    const encoded = new Response(form);
    const answer = await this.send(url, {
      method: req.method ?? 'POST',
      headers: { ...this.headers(), 'Content-Type': encoded.headers.get('content-type')! },
      body: encoded.body!,
    });
    return { status: answer.status, body: jsonOrText(answer.bytes) };
  }

  /**
   * Fetches one file (GET) and answers it base64-encoded with its name and type; a non-2xx answer comes
   * back as its status and problem body instead.
   */
  async download(req: ApiDownload): Promise<ApiDownloadResult> {
    const url = resolveApiUrl(this.options.baseUrl(), req.path, req.query);
    const headers = { ...this.headers(), Accept: '*/*' };
    const response = await this.send(url, { method: 'GET', headers, maxBytes: FILE_TRANSFER_MAX_BYTES });
    const { bytes } = response;
    const type = response.headers.get('content-type') ?? 'application/octet-stream';
    if (response.status < 200 || response.status >= 300) {
      let body: unknown = null;
      if (bytes.byteLength > 0) {
        try {
          body = JSON.parse(bytes.toString('utf8'));
        } catch {
          body = null;
        }
      }
      return { status: response.status, body };
    }
    return {
      status: response.status,
      body: null,
      file: {
        fileName: fileNameFromDisposition(response.headers.get('content-disposition') ?? '') ?? 'file',
        mime: type.split(';')[0]!.trim(),
        size: bytes.byteLength,
        base64: bytes.toString('base64'),
      },
    };
  }

  /**
   * Opens one of our files as a stream (the file source, src-shared/files.ts): GET `path` with the
   * session's token and the given Range headers, answered with the API's status, the allowed headers
   * and the body as a web stream. Paths outside the file source's list are refused (404) unread.
   */
  async openFile(path: string, forward: Record<string, string | undefined>): Promise<Response> {
    if (!isFilePath(path)) return new Response(null, { status: 404 });
    const url = resolveApiUrl(this.options.baseUrl(), path);
    const headers: Record<string, string> = { ...this.headers(), Accept: '*/*' };
    for (const name of FILE_REQUEST_HEADERS) {
      const value = forward[name];
      if (value) headers[name] = value;
    }
    let response: Response;
    try {
      response = await fetch(url, { headers, redirect: 'error' });
    } catch {
      this.connection.report(false);
      return new Response(null, { status: 502 });
    }
    this.connection.report(true);
    if (response.status === 401) this.expireSession();
    const out = new Headers();
    for (const name of FILE_RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) out.set(name, value);
    }
    return new Response(response.body, { status: response.status, headers: out });
  }

  /**
   * Sends one file to an upload path of the file source as the API's multipart request, streaming: the
   * body is passed through as it arrives (never held whole, never base64), wrapped between the multipart
   * head and tail. Answers the API's status, headers and JSON body as they came.
   */
  async uploadFile(
    path: string,
    body: ReadableStream<Uint8Array> | null,
    fileName: string,
    contentType: string,
  ): Promise<Response> {
    if (!isUploadPath(path) || !body) return new Response(null, { status: 404 });
    const url = resolveApiUrl(this.options.baseUrl(), path);
    const multipart = multipartStream(body, fileName, contentType);
    let response: Response;
    try {
      response = await fetch(
        url,
        streamingInit('POST', { ...this.headers(), 'Content-Type': multipart.contentType }, multipart.body),
      );
    } catch {
      this.connection.report(false);
      return new Response(null, { status: 502 });
    }
    this.connection.report(true);
    if (response.status === 401) this.expireSession();
    return new Response(response.body, {
      status: response.status,
      headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' },
    });
  }

  /** The specification's headers: JSON, the selected language and the stored token (never the renderer's). */
  headers(): Record<string, string> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': this.locale(),
    };
    const token = this.options.vault.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  /**
   * Sends one request and reads its whole answer. The time limit is one of silence (nothing sent or
   * received for timeoutMs), so a large file on a slow network is not cut off while it moves. A redirect
   * is answered as it is, never followed: it could carry the token to another origin. An unreachable
   * server becomes an IpcFailure; a 401 ends the session.
   */
  private async send(url: URL, init: SendInit): Promise<Answer> {
    const idle = idleTimer(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      const body = typeof init.body === 'object' ? init.body.pipeThrough(idle.tap()) : init.body;
      const response = await fetch(url, {
        method: init.method,
        headers: init.headers,
        redirect: 'manual',
        signal: idle.signal,
        ...(body !== undefined ? { body } : {}),
        ...(typeof body === 'object' ? { duplex: 'half' } : {}),
      } as RequestInit);
      const bytes = await readAll(response, idle, init.maxBytes);
      this.connection.report(true);
      if (response.status === 401) this.expireSession();
      return { status: response.status, headers: response.headers, bytes };
    } catch (error) {
      if (error instanceof IpcFailure) throw error;
      if (isUnreachable(error)) {
        this.connection.report(false);
        throw new IpcFailure(IPC_ERRORS.serverUnreachable);
      }
      // Never pass the error on: a refused header value is quoted in its message, the token included.
      throw new Error(`API request failed (${error instanceof Error ? error.name : 'unknown'})`);
    } finally {
      idle.clear();
    }
  }

  /** Whether the server answers GET /health at all (any status), within a few seconds. */
  private async probeHealth(): Promise<boolean> {
    let url: URL;
    try {
      url = resolveApiUrl(this.options.baseUrl(), '/health');
    } catch {
      return false;
    }
    const idle = idleTimer(PROBE_TIMEOUT_MS);
    try {
      const response = await fetch(url, { redirect: 'manual', signal: idle.signal });
      await response.body?.cancel();
      return true;
    } catch {
      return false;
    } finally {
      idle.clear();
    }
  }

  /** Stores the token a sign-in answered with (used by the sign-in channels). */
  setToken(token: string): void {
    this.options.vault.setToken(token);
  }

  /** Subscribes to `session:expired`; returns the unsubscribe function. */
  onSessionExpired(listener: SessionExpiredListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The specification's 401 rule: clear the token, two-factor flag, sections and user; keep remember-me and locale. */
  private expireSession(): void {
    const { vault, store } = this.options;
    vault.clear();
    store.delete('useTotp', 'sections', 'user');
    const rememberMe = store.get<unknown>('rememberMe');
    const payload = {
      rememberMe:
        typeof rememberMe === 'string' ? rememberMe : rememberMe === null ? null : String(rememberMe),
    };
    for (const listener of this.listeners) {
      try {
        listener(payload);
      } catch {
        // a broken listener must not turn the API answer into an error
      }
    }
  }

  private locale(): string {
    try {
      return this.options.store.getSettings().selectedLocale;
    } catch {
      return DEFAULT_LOCALE;
    }
  }
}

/**
 * Joins the base URL (which may carry a path prefix, e.g. `https://org.example/sijill`) and a relative
 * API path, adding the query. Refuses any result outside the base: another origin or above its prefix.
 */
export function resolveApiUrl(base: string, path: string, query?: ApiRequest['query']): URL {
  const baseUrl = new URL(base);
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') {
    throw new IpcFailure(IPC_ERRORS.invalidInput, 'The API base must be http or https');
  }
  const prefix = baseUrl.pathname.replace(/\/+$/, '');
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) {
    throw new IpcFailure(IPC_ERRORS.invalidInput, 'The API path must be relative to the API base');
  }
  // Dot segments (also percent-encoded) are refused outright rather than resolved: the contract never
  // sends them, so one arriving here is an attempt to reach something else on the server.
  if (path.split('/').some((segment) => isDotSegment(segment))) {
    throw new IpcFailure(IPC_ERRORS.invalidInput, 'The API path must not contain dot segments');
  }
  const url = new URL(`${baseUrl.origin}${prefix}${path}`);
  // URL parsing normalises dot segments and percent-encodings: check what it actually resolved to.
  if (url.origin !== baseUrl.origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) {
    throw new IpcFailure(IPC_ERRORS.invalidInput, 'The API path must stay on the API server');
  }
  url.search = '';
  url.hash = '';
  for (const [name, value] of Object.entries(query ?? {})) {
    // Arrays repeat the name (`a=1&a=2`), which Fastify's query parser reads back as an array.
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url;
}

function isDotSegment(segment: string): boolean {
  const lowered = segment.toLowerCase().replaceAll('%2e', '.');
  return lowered === '.' || lowered === '..';
}

/**
 * The file name of a Content-Disposition header: RFC 5987 `filename*=UTF-8''…` first (Arabic names),
 * else the plain `filename="…"`; any folder part is dropped.
 */
export function fileNameFromDisposition(header: string): string | null {
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  let name: string | null = null;
  if (extended) {
    try {
      name = decodeURIComponent(extended.trim());
    } catch {
      name = null;
    }
  }
  name ??= /filename\s*=\s*"([^"]*)"/.exec(header)?.[1] ?? /filename\s*=\s*([^;]+)/.exec(header)?.[1] ?? null;
  if (!name) return null;
  const base = name.trim().split(/[\\/]/).pop() ?? '';
  return base === '' ? null : base;
}

/** The body as JSON, or as text when it is not JSON, or null when empty. */
function jsonOrText(bytes: Buffer): unknown {
  if (bytes.byteLength === 0) return null;
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A time limit of silence: `touch` when something moves; it aborts `signal` after `ms` without one. */
function idleTimer(ms: number) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new DOMException('No answer in time', 'TimeoutError')), ms);
  };
  touch();
  return {
    signal: controller.signal,
    touch,
    clear: () => clearTimeout(timer),
    /** Passes a request body through, touching the timer as each piece is taken to be sent. */
    tap: () =>
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          touch();
          out.enqueue(chunk);
        },
      }),
  };
}

/** Reads a whole answer, touching the timer as it arrives; refuses one larger than `maxBytes`. */
async function readAll(
  response: Response,
  idle: { touch(): void },
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const declared = Number(response.headers.get('content-length') ?? 0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  if (declared > maxBytes) {
    await reader.cancel();
    throw new IpcFailure(IPC_ERRORS.invalidInput, 'The file is too large to receive');
  }
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    idle.touch();
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new IpcFailure(IPC_ERRORS.invalidInput, 'The file is too large to receive');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Whether fetch failed for want of the server: refused, reset, timed out, or cut off mid-answer. */
function isUnreachable(error: unknown): boolean {
  if (error instanceof DOMException) return error.name === 'TimeoutError' || error.name === 'AbortError';
  return error instanceof TypeError && (error.message === 'fetch failed' || error.message === 'terminated');
}
