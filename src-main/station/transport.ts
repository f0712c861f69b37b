/**
 * How the station reaches the server: `POST /correspondence/intake` with the file streamed from disk
 * (never read whole), its Idempotency-Key and, when its name carries one, the document number; and
 * `GET /health` for the size limit. The desktop passes the signed-in session's headers (the token
 * stays in main); the headless station signs in with its own account (`signInTransport`).
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { multipartStream, streamingInit } from '../services/multipart';

/** The server's answer to an upload: its status and JSON body (problem details on a refusal). */
export interface IntakeAnswer {
  status: number;
  body: {
    data?: { documentId: number; docNumber: string | null; replayed: boolean };
    detail?: string;
    code?: string;
  } | null;
}

export interface StationTransport {
  /** Whether there is someone to upload as (signed in). */
  ready(): boolean;
  /** The server's upload limit, or null when it cannot be reached. */
  limits(): Promise<{ uploadMaxBytes: number } | null>;
  /** Uploads one file. Throws when the server cannot be reached (the file is tried again later). */
  intake(
    file: { path: string; name: string },
    key: string,
    number: string | null,
    onProgress?: (sent: number) => void,
  ): Promise<IntakeAnswer>;
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

const join = (base: string, path: string) =>
  new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);

export function httpTransport(options: HttpTransportOptions): StationTransport {
  const send = async (
    file: { path: string; name: string },
    key: string,
    number: string | null,
    onProgress?: (sent: number) => void,
  ): Promise<IntakeAnswer> => {
    let sent = 0;
    // A request that makes no progress for a minute (a server or a network that hangs) is given up and
    // tried again later; a slow upload that moves on is never cut.
    const stall = new AbortController();
    let timer = setTimeout(() => stall.abort(new Error('no progress for 60 s')), STALL_MS);
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(new Error('no progress for 60 s')), STALL_MS);
    };
    const counting = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        alive();
        sent += chunk.byteLength;
        onProgress?.(sent);
        controller.enqueue(chunk);
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
      response = await fetch(url, {
        ...streamingInit(
          'POST',
          { ...options.headers(), 'Content-Type': multipart.contentType, 'Idempotency-Key': key },
          multipart.body,
        ),
        signal: stall.signal,
      });
      alive();
      text = await response.text();
    } finally {
      clearTimeout(timer);
    }
    let body: IntakeAnswer['body'] = null;
    try {
      body = text ? (JSON.parse(text) as IntakeAnswer['body']) : null;
    } catch {
      body = null;
    }
    return { status: response.status, body };
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
    async intake(file, key, number, onProgress) {
      const answer = await send(file, key, number, onProgress);
      if (answer.status === 401 && options.onUnauthorized && (await options.onUnauthorized()))
        return send(file, key, number, onProgress);
      return answer;
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
