/**
 * The web shell: the desktop client in a browser (docs/architecture.md, "Hosts"). The API server, the
 * services of ../setup.ts under plain Node, the IPC contract over a WebSocket on 127.0.0.1 (a per-launch
 * secret and an origin check), and the built renderer with the desktop's strict CSP. The server's
 * notifications reach the page as the same IPC events; the shell shows no system notices (a browser tab
 * has the bell only).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { BASE64_MAX_CHARS } from '../../src-shared/ipc/contract';
import {
  WEB_SHELL_BRIDGE_PATH,
  WEB_SHELL_KEY_PARAM,
  type WireEvent,
  type WireRequest,
} from '../../src-shared/ipc/wire';
import {
  FILE_NAME_HEADER,
  FILE_REQUEST_HEADERS,
  FILE_SOURCE_KEY_HEADER,
  FILE_SOURCE_PREFIX,
} from '../../src-shared/files';
import { LocalStore } from '../services/local-store';
import { FileVault } from '../services/session-vault';
import { fileProtector } from '../drafts/crypto';
import { startEmbeddedServer } from '../embedded/launcher';
import { createMainServices } from '../setup';
import pkg from '../../package.json';

export interface WebShellOptions {
  /** Where the shell keeps its client state and (standalone) the server's data. */
  dataDir: string;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** Port of the shell's own http server; 0 picks a free one. */
  port?: number;
  /** An organisation's API server; when absent the embedded server runs in dataDir/server. */
  serverUrl?: string;
  /** Reports unexpected handler errors. */
  log?: (message: string) => void;
}

export interface WebShell {
  /** The URL to open, carrying the per-launch secret. */
  url: string;
  /** The API server's base URL. */
  apiBaseUrl: string;
  close(): Promise<void>;
}

/** The CSP of the served renderer; the bridge's WebSocket is the only connection it may open. */
export function webShellCsp(origin: string): string {
  const ws = origin.replace(/^http/, 'ws');
  return [
    "default-src 'self'",
    // No eval, no WebAssembly: pdf.js decodes images with its JavaScript fallbacks.
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${ws}`,
    "worker-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Starts the web shell; resolves once it listens. */
export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(join(options.rendererDir, 'index.html'))) {
    throw new Error(
      `The renderer is not built (${options.rendererDir}/index.html missing): run "npm run build:renderer".`,
    );
  }

  const embedded = options.serverUrl ? null : await startEmbeddedServer(join(dataDir, 'server'));
  const apiBaseUrl = options.serverUrl ?? embedded!.url;

  const store = LocalStore.open(join(dataDir, 'client.sqlite'));
  const sockets = new Set<WebSocket>();
  const services = createMainServices(
    {
      dataDir,
      store,
      vault: new FileVault(join(dataDir, 'session.token')),
      // Local drafts: the key kept like the shell's token (a file only its owner reads).
      keyProtector: fileProtector,
      apiBaseUrl,
      localServerUrl: apiBaseUrl,
      startedConnected: Boolean(options.serverUrl),
      app: { name: pkg.productName ?? pkg.name, version: pkg.version, host: 'web' },
      ...(options.log ? { log: options.log } : {}),
    },
    (event, payload) => {
      const frame: WireEvent = { event, payload };
      for (const socket of sockets) socket.send(JSON.stringify(frame));
    },
  );
  const { api, dispatch, sendFile } = services;
  const secret = randomBytes(24).toString('base64url');

  const app = Fastify({ logger: false });
  let origin = '';
  let host = '';

  // Only our own origin, reached by its literal address, may load or talk to the shell (no DNS rebinding).
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.host !== host) return reply.code(421).send('Misdirected request');
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Content-Security-Policy', webShellCsp(origin));
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    return payload;
  });

  // A frame must carry the largest file the contract accepts (base64) and its envelope; the socket only
  // answers this launch's secret on 127.0.0.1.
  const maxPayload = BASE64_MAX_CHARS + 1024 * 1024;
  await app.register(fastifyWebsocket, { options: { maxPayload } });
  app.register(async (scope) => {
    scope.get(WEB_SHELL_BRIDGE_PATH, { websocket: true }, (socket, request) => {
      const key = new URL(request.url, origin).searchParams.get(WEB_SHELL_KEY_PARAM) ?? '';
      if (request.headers.origin !== origin || !sameSecret(key, secret)) {
        socket.close(1008, 'forbidden');
        return;
      }
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('message', (raw) => {
        let frame: WireRequest;
        try {
          frame = JSON.parse(String(raw)) as WireRequest;
        } catch {
          return;
        }
        if (typeof frame?.id !== 'number' || typeof frame.channel !== 'string') return;
        void dispatch(frame.channel, frame.input, true).then((result) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ id: frame.id, result }));
        });
      });
    });
  });
  // The file source (src-shared/files.ts): our attachments, streamed with their ranges, for this launch only.
  app.get(`${FILE_SOURCE_PREFIX}/*`, async (request, reply) => {
    const key = request.headers[FILE_SOURCE_KEY_HEADER];
    if (typeof key !== 'string' || !sameSecret(key, secret)) return reply.code(403).send('Forbidden');
    const path = `/${(request.params as { '*': string })['*']}`;
    const forward = Object.fromEntries(
      FILE_REQUEST_HEADERS.map((name) => [name, request.headers[name] as string | undefined]),
    );
    const answer = await api.openFile(path, forward);
    reply.code(answer.status);
    answer.headers.forEach((value, name) => void reply.header(name, value));
    return reply.send(answer.body ? Readable.fromWeb(answer.body as WebReadableStream) : null);
  });
  // Files sent through the file source: the body streams through main to the API, never held whole.
  app.register(async (scope) => {
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.post(`${FILE_SOURCE_PREFIX}/*`, async (request, reply) => {
      const key = request.headers[FILE_SOURCE_KEY_HEADER];
      if (typeof key !== 'string' || !sameSecret(key, secret)) return reply.code(403).send('Forbidden');
      const path = `/${(request.params as { '*': string })['*']}`;
      const name = String(request.headers[FILE_NAME_HEADER] ?? '');
      let fileName = 'file';
      try {
        fileName = decodeURIComponent(name) || 'file';
      } catch {
        fileName = 'file';
      }
      const body = request.body as Readable | undefined;
      const answer = await sendFile(
        path,
        body ? (Readable.toWeb(body) as ReadableStream<Uint8Array>) : null,
        fileName,
        String(request.headers['content-type'] ?? 'application/octet-stream'),
      );
      reply
        .code(answer.status)
        .header('content-type', answer.headers.get('content-type') ?? 'application/json');
      return reply.send(answer.body ? Readable.fromWeb(answer.body as WebReadableStream) : null);
    });
  });
  await app.register(fastifyStatic, { root: resolve(options.rendererDir), index: ['index.html'] });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  host = `127.0.0.1:${port}`;
  origin = `http://${host}`;

  return {
    url: `${origin}/?${WEB_SHELL_KEY_PARAM}=${secret}`,
    apiBaseUrl,
    close: async () => {
      services.stop();
      for (const socket of sockets) socket.close();
      await app.close();
      await services.close();
      store.close();
      await embedded?.close();
    },
  };
}
