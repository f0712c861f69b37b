/**
 * How the station reaches the server: `POST /correspondence/intake/batch` with the files queued at the
 * moment streamed from disk one after the other in one request (never read whole), each with its
 * Idempotency-Key and, when its name carries one, the document number; and `GET /health` for the size
 * limit. A server without the batch route (an older one) is sent the files one a request
 * (`POST /correspondence/intake`). The desktop passes the signed-in session's headers (the token stays
 * in main); the headless station signs in with its own account (`signInTransport`).
 */
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { IntakeBatchManifest, IntakeBatchResult } from '../../src-shared/api/correspondence';
import { pickLocale, type Locale } from '../../src-shared/locale';
import { filePartHead, multipartStream, streamingInit } from '../services/multipart';

/**
 * The server's answer to an upload: its status and JSON body (problem details on a refusal: the message
 * in `lang`, the language the request asked for, and its code and parameters).
 */
export interface IntakeAnswer {
  status: number;
  body: {
    data?: { documentId: number; docNumber: string | null; replayed: boolean };
    detail?: string;
    code?: string;
    params?: Record<string, string | number>;
  } | null;
  lang?: Locale;
}

/**
 * A file the station sends: where it is, its name, its idempotency key, the number its name carries,
 * and its bytes when the station holds them already (a small file, read once; else it is read from disk
 * as it is sent).
 */
export interface OutgoingFile {
  path: string;
  name: string;
  key: string;
  number: string | null;
  bytes?: Buffer | null;
}

export interface StationTransport {
  /** Whether there is someone to upload as (signed in). */
  ready(): boolean;
  /** The server's upload limit, or null when it cannot be reached. */
  limits(): Promise<{ uploadMaxBytes: number } | null>;
  /**
   * Uploads files (one request when the server takes batches): answers each file's answer, in order —
   * the request's own status for every file when it was refused as a whole (401, 503…). Throws when the
   * server cannot be reached (the files are tried again later). `onProgress` tells the bytes of file
   * `index` sent so far.
   */
  intakeBatch(
    files: readonly OutgoingFile[],
    onProgress?: (index: number, sent: number) => void,
  ): Promise<IntakeAnswer[]>;
}

export interface HttpTransportOptions {
  baseUrl: () => string;
  /** Accept, Accept-Language and Authorization, as the session in main sends them. */
  headers: () => Record<string, string>;
  ready: () => boolean;
  /** Called on a 401: answers whether a new session was made (then the upload is sent once more). */
  onUnauthorized?: () => Promise<boolean>;
}

const STALL_MS = 60_000;
/**
 * How long the server may take with a file it has all of before it answers or asks for more: it reads
 * every page for codes (separator and cover sheets, stickers) and cuts a batch into its documents, about
 * a second a page on a slow machine.
 */
const ANSWER_MS = 15 * 60_000;

/**
 * Uploads go through undici's own fetch with an agent that waits for the answer as long as the server may
 * read a batch: Node's fetch gives up on an answer's headers after 5 minutes, which a 300-page batch on a
 * loaded server can take (the server then stops reading a batch whose sender went away, and the retry
 * would start over: a big batch would never get in). The stall guard still gives up an upload that does
 * not move.
 */
const uploads = new Agent({ headersTimeout: ANSWER_MS, bodyTimeout: ANSWER_MS });
const uploadFetch = (url: URL, init: RequestInit): Promise<Response> =>
  undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher: uploads }) as unknown as Promise<Response>;

const join = (base: string, path: string) =>
  new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);

/** The bytes of one read of a file being sent (a scan of a few pages is one or two of them). */
const CHUNK = 256 * 1024;

const CRLF = new TextEncoder().encode('\r\n');

/**
 * The multipart body of a batch, produced as the request asks for it: the manifest, then each file's
 * part head and its bytes read from disk a chunk at a time (each file opened only when its turn comes),
 * then the closing boundary. `sent(index, bytes)` is told as each chunk of file `index` is handed over.
 */
function batchBody(
  files: readonly OutgoingFile[],
  sent: (index: number, bytes: number, whole?: boolean) => void,
): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----sijill${randomBytes(12).toString('hex')}`;
  const encode = (text: string) => new TextEncoder().encode(text);
  const manifest: IntakeBatchManifest = {
    files: files.map((f) => ({ key: f.key, ...(f.number ? { number: f.number } : {}) })),
  };
  const head = encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="manifest"\r\n` +
      `Content-Type: text/plain; charset=utf-8\r\n\r\n${JSON.stringify(manifest)}\r\n`,
  );
  let index = -1;
  let handle: FileHandle | null = null;
  let position = 0;
  const close = async () => {
    const h = handle;
    handle = null;
    await h?.close();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
    },
    async pull(controller) {
      try {
        if (!handle) {
          index += 1;
          if (index > 0) controller.enqueue(CRLF);
          if (index === files.length) {
            controller.enqueue(encode(`--${boundary}--\r\n`));
            controller.close();
            return;
          }
          const file = files[index]!;
          controller.enqueue(filePartHead(boundary, file.name, 'application/pdf'));
          if (file.bytes) {
            // Held in memory: sent as it is, and the next pull ends its part.
            controller.enqueue(
              new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
            );
            sent(index, file.bytes.byteLength, true);
            return;
          }
          handle = await open(file.path, 'r');
          position = 0;
          return;
        }
        const chunk = new Uint8Array(CHUNK);
        const { bytesRead } = await handle.read(chunk, 0, CHUNK, position);
        if (bytesRead === 0) {
          await close();
          sent(index, position, true);
          return;
        }
        position += bytesRead;
        sent(index, position);
        controller.enqueue(bytesRead === CHUNK ? chunk : chunk.subarray(0, bytesRead));
      } catch (error) {
        await close().catch(() => undefined);
        controller.error(error);
      }
    },
    cancel: () => close(),
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A request that makes no progress for a minute (a server or a network that hangs) is given up and tried
 * again later: `signal` aborts when `alive()` has not been called for STALL_MS; a slow upload that moves
 * on is never cut.
 */
function stallGuard() {
  const controller = new AbortController();
  const abort = () => controller.abort(new Error('no progress for 60 s'));
  let timer = setTimeout(abort, STALL_MS);
  return {
    signal: controller.signal,
    /** Progress: the request is given up if nothing moves for `ms` from now. */
    alive(ms = STALL_MS) {
      clearTimeout(timer);
      timer = setTimeout(abort, ms);
    },
    done: () => clearTimeout(timer),
  };
}

/** A JSON body, or null when there is none or it is not JSON. */
function jsonOf<T>(text: string): T | null {
  try {
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

export function httpTransport(options: HttpTransportOptions): StationTransport & {
  /** Uploads one file by the single route (what a server without batches is sent). */
  intake(
    file: { path: string; name: string },
    key: string,
    number: string | null,
    onProgress?: (sent: number) => void,
  ): Promise<IntakeAnswer>;
} {
  /** Whether the server takes batches; learnt from its first answer (an older server has no such route). */
  let batches = true;
  /** The language the server answers in (the request's Accept-Language). */
  const lang = () => pickLocale(options.headers()['Accept-Language']);
  const sendBatch = async (
    files: readonly OutgoingFile[],
    onProgress?: (index: number, sent: number) => void,
  ): Promise<{ status: number; answers: IntakeAnswer[] }> => {
    const stall = stallGuard();
    const multipart = batchBody(files, (index, sent, whole) => {
      // A whole file sent: the server reads it for codes before it asks for the next.
      stall.alive(whole ? ANSWER_MS : STALL_MS);
      onProgress?.(index, sent);
    });
    let status: number;
    let text: string;
    try {
      const response = await uploadFetch(join(options.baseUrl(), '/correspondence/intake/batch'), {
        ...streamingInit(
          'POST',
          { ...options.headers(), 'Content-Type': multipart.contentType },
          multipart.body,
        ),
        signal: stall.signal,
      });
      stall.alive();
      status = response.status;
      text = await response.text();
    } finally {
      stall.done();
    }
    if (status === 200) {
      const results = jsonOf<{ data?: IntakeBatchResult }>(text)?.data?.results;
      if (results?.length === files.length)
        return {
          status,
          answers: results.map((r) => ({
            status: r.status,
            body: r.result
              ? { data: r.result }
              : {
                  detail: r.problem?.detail,
                  ...(r.problem?.code ? { code: r.problem.code } : {}),
                  ...(r.problem?.params ? { params: r.problem.params } : {}),
                },
            lang: lang(),
          })),
        };
      status = 502; // an answer that does not fit the request: tried again later
    }
    const body = jsonOf<IntakeAnswer['body']>(text);
    return { status, answers: files.map(() => ({ status, body, lang: lang() })) };
  };
  const send = async (
    file: { path: string; name: string },
    key: string,
    number: string | null,
    onProgress?: (sent: number) => void,
  ): Promise<IntakeAnswer> => {
    let sent = 0;
    const stall = stallGuard();
    const counting = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        stall.alive();
        sent += chunk.byteLength;
        onProgress?.(sent);
        controller.enqueue(chunk);
      },
      flush() {
        // All sent: the server reads it for codes before it answers.
        stall.alive(ANSWER_MS);
      },
    });
    const bytes = (
      Readable.toWeb(createReadStream(file.path, { highWaterMark: 256 * 1024 })) as ReadableStream<Uint8Array>
    ).pipeThrough(counting);
    const multipart = multipartStream(bytes, file.name, 'application/pdf');
    const url = join(options.baseUrl(), '/correspondence/intake');
    if (number) url.searchParams.set('number', number);
    let text: string;
    let response: Response;
    try {
      response = await uploadFetch(url, {
        ...streamingInit(
          'POST',
          { ...options.headers(), 'Content-Type': multipart.contentType, 'Idempotency-Key': key },
          multipart.body,
        ),
        signal: stall.signal,
      });
      stall.alive();
      text = await response.text();
    } finally {
      stall.done();
    }
    return { status: response.status, body: jsonOf<IntakeAnswer['body']>(text), lang: lang() };
  };
  const intake = async (
    file: { path: string; name: string },
    key: string,
    number: string | null,
    onProgress?: (sent: number) => void,
  ) => {
    const answer = await send(file, key, number, onProgress);
    if (answer.status === 401 && options.onUnauthorized && (await options.onUnauthorized()))
      return send(file, key, number, onProgress);
    return answer;
  };
  return {
    ready: options.ready,
    async limits() {
      try {
        const response = await fetch(join(options.baseUrl(), '/health'), {
          headers: { Accept: 'application/json' },
        });
        if (!response.ok) return null;
        const body = (await response.json()) as { data?: { uploadMaxBytes?: number } };
        return typeof body.data?.uploadMaxBytes === 'number'
          ? { uploadMaxBytes: body.data.uploadMaxBytes }
          : null;
      } catch {
        return null;
      }
    },
    intake,
    async intakeBatch(files, onProgress) {
      if (batches) {
        let sent = await sendBatch(files, onProgress);
        if (sent.status === 401 && options.onUnauthorized && (await options.onUnauthorized()))
          sent = await sendBatch(files, onProgress);
        // No such route: a server from before batches. It is sent the files one a request from now on.
        if (sent.status !== 404) return sent.answers;
        batches = false;
      }
      const answers: IntakeAnswer[] = [];
      for (const [index, file] of files.entries())
        answers.push(await intake(file, file.key, file.number, (sent) => onProgress?.(index, sent)));
      return answers;
    },
  };
}

/** Sign-in refused for a reason a retry will not fix (wrong password, two-factor account). */
export class SignInRefused extends Error {}

/**
 * A transport for the headless station: it signs in with its own account (one without two-factor: a
 * scanning PC nobody sits at cannot type codes) and signs in again when the session ends.
 */
export function signInTransport(options: {
  server: string;
  username: string;
  password: string;
  locale: 'ar' | 'en';
}): StationTransport & { signIn(): Promise<void> } {
  let token: string | null = null;
  const signIn = async () => {
    const response = await fetch(join(options.server, '/auth/login'), {
      signal: AbortSignal.timeout(30_000),
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'Accept-Language': options.locale,
      },
      body: JSON.stringify({ login: options.username, password: options.password }),
    });
    const body = (await response.json().catch(() => null)) as {
      data?: { accessToken?: string };
      detail?: string;
    } | null;
    if (response.status >= 500 || response.status === 429)
      throw new Error(`the server answered ${response.status}`);
    if (!response.ok) throw new SignInRefused(body?.detail ?? `sign-in refused (${response.status})`);
    if (!body?.data?.accessToken)
      throw new SignInRefused(
        'This account needs two-factor sign-in: give the station an account without it.',
      );
    token = body.data.accessToken;
  };
  const transport = httpTransport({
    baseUrl: () => options.server,
    headers: () => ({
      Accept: 'application/json',
      'Accept-Language': options.locale,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    }),
    ready: () => token !== null,
    onUnauthorized: async () => {
      try {
        await signIn();
        return true;
      } catch {
        return false;
      }
    },
  });
  return { ...transport, signIn };
}
