/**
 * Main's notification stream against a real HTTP server speaking server-sent events (node:http, the
 * contract of src-shared/api/notifications.ts): it receives events with the session's headers, reconnects
 * by itself after the server dropped it and gets what it missed (Last-Event-ID), takes a silent connection
 * for dead, stops on a 401 until the token changes, and closes on sign-out. The waits are short real
 * intervals passed as options; nothing asserts how long anything took.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../../src-shared/api/notifications';
import { NotificationStream } from '../../src-main/services/notification-stream';
import { fileProtector } from '../../src-main/drafts/crypto';
import { LocalStore } from '../../src-main/services/local-store';
import { MemoryVault } from '../../src-main/services/session-vault';
import { createMainServices } from '../../src-main/setup';

/** One stream request the server received, and its open answer. */
interface Connection {
  headers: IncomingMessage['headers'];
  res: ServerResponse;
  closed: boolean;
}

/** A small SSE server: keeps every notification made, replays those after Last-Event-ID. */
class FakeStreamServer {
  readonly connections: Connection[] = [];
  readonly made: Notification[] = [];
  /** What the next requests are answered with. */
  status = 200;
  private server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      if (req.url === '/auth/logout') {
        res.writeHead(204).end();
        return;
      }
      if (req.url !== '/notifications/stream') {
        res.writeHead(404).end();
        return;
      }
      const connection: Connection = { headers: req.headers, res, closed: false };
      this.connections.push(connection);
      res.on('close', () => {
        connection.closed = true;
      });
      if (this.status !== 200) {
        res.writeHead(this.status, { 'Content-Type': 'application/json' }).end('{}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      res.write(': connected\n\n');
      const last = Number(req.headers['last-event-id'] ?? 0);
      if (last > 0) for (const n of this.made.filter((m) => m.id > last)) this.write(res, n);
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Makes a notification; sent at once on every open connection unless `quietly`. */
  make(id: number, quietly = false): Notification {
    const n = notification(id);
    this.made.push(n);
    if (!quietly) for (const c of this.open()) this.write(c.res, n);
    return n;
  }

  unread(count: number): void {
    for (const c of this.open()) c.res.write(`event: unread\ndata: ${JSON.stringify({ unread: count })}\n\n`);
  }

  heartbeat(): void {
    for (const c of this.open()) c.res.write(': heartbeat\n\n');
  }

  /** Drops every open connection, as a restarting server or a broken network would. */
  drop(): void {
    for (const c of this.open()) c.res.destroy();
  }

  open(): Connection[] {
    return this.connections.filter((c) => !c.closed);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  private write(res: ServerResponse, n: Notification): void {
    res.write(`event: notification\nid: ${n.id}\ndata: ${JSON.stringify(n)}\n\n`);
  }
}

function notification(id: number): Notification {
  return {
    id,
    kind: 'distributed',
    document: {
      id: 40 + id,
      direction: 'in',
      state: 'registered',
      docNumber: `IN-${id}`,
      subject: `Letter ${id}`,
    },
    details: { department: { nameAr: 'الأرشيف', nameEn: 'Archive' } },
    onBehalfOf: null,
    createdAt: new Date(Date.UTC(2026, 10, 28, 8, id)).toISOString(),
    readAt: null,
  };
}

let server: FakeStreamServer;
let baseUrl: string;
let token: string | null;
let stream: NotificationStream;
let received: Notification[];
let unread: number[];

/** A stream with short waits: reconnect after 20–100 ms, dead after 2 × 100 ms of silence. */
function makeStream(heartbeatMs = 100): NotificationStream {
  const made = new NotificationStream({
    baseUrl: () => baseUrl,
    headers: () => ({
      Accept: 'application/json',
      'Accept-Language': 'ar',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    }),
    firstDelayMs: 20,
    maxDelayMs: 100,
    heartbeatMs,
  });
  made.onNotification((n) => received.push(n));
  made.onUnread((count) => unread.push(count));
  return made;
}

const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 5000, interval: 10 });

beforeEach(async () => {
  server = new FakeStreamServer();
  baseUrl = await server.listen();
  token = 'token-one';
  received = [];
  unread = [];
});

afterEach(async () => {
  stream.close();
  await server.close();
});

describe('the notification stream', () => {
  it('connects with the session headers and hands on notifications and the unread count', async () => {
    stream = makeStream();
    stream.sync();
    await waitFor(() => expect(server.open()).toHaveLength(1));
    const { headers } = server.connections[0]!;
    expect(headers.authorization).toBe('Bearer token-one');
    expect(headers['accept-language']).toBe('ar');
    expect(headers.accept).toBe('text/event-stream');
    expect(headers['last-event-id']).toBeUndefined();

    server.make(5);
    server.unread(3);
    await waitFor(() => expect(unread).toEqual([3]));
    expect(received.map((n) => n.id)).toEqual([5]);
    expect(received[0]!.document?.docNumber).toBe('IN-5');
    expect(stream.lastEventId).toBe('5');
    expect(stream.state).toBe('open');
  });

  it('reconnects by itself after the server dropped it and gets what it missed', async () => {
    stream = makeStream();
    stream.sync();
    await waitFor(() => expect(server.open()).toHaveLength(1));
    server.make(1);
    server.make(2);
    await waitFor(() => expect(received.map((n) => n.id)).toEqual([1, 2]));

    server.drop();
    // Made while the desk was not connected: only the replay can bring them.
    server.make(3, true);
    server.make(4, true);
    await waitFor(() => expect(received.map((n) => n.id)).toEqual([1, 2, 3, 4]));
    expect(server.connections.length).toBeGreaterThanOrEqual(2);
    expect(server.connections.at(-1)!.headers['last-event-id']).toBe('2');

    // …and the new connection carries what comes next.
    server.make(5);
    await waitFor(() => expect(received.map((n) => n.id)).toEqual([1, 2, 3, 4, 5]));
  });

  it('keeps trying while the server is away, and connects when it is back', async () => {
    stream = makeStream();
    server.status = 503;
    stream.sync();
    await waitFor(() => expect(server.connections.length).toBeGreaterThanOrEqual(3));
    expect(stream.state).not.toBe('open');
    server.status = 200;
    await waitFor(() => expect(stream.state).toBe('open'));
    server.make(1);
    await waitFor(() => expect(received.map((n) => n.id)).toEqual([1]));
  });

  it('takes a connection silent for two heartbeats for dead and reconnects', async () => {
    stream = makeStream(50);
    stream.sync();
    await waitFor(() => expect(server.connections.length).toBeGreaterThanOrEqual(1));
    server.make(7);
    await waitFor(() => expect(received).toHaveLength(1));
    // The server says nothing more, yet keeps the connection open: the client gives up on it.
    const first = server.connections[0]!;
    await waitFor(() => expect(first.closed).toBe(true));
    await waitFor(() => expect(server.connections.length).toBeGreaterThanOrEqual(2));
    expect(server.connections[1]!.headers['last-event-id']).toBe('7');
  });

  it('keeps a connection that hears the heartbeat', async () => {
    stream = makeStream(100);
    stream.sync();
    await waitFor(() => expect(server.open()).toHaveLength(1));
    // Ten heartbeats, each well inside the limit of two: the first connection must stay the only one.
    for (let i = 0; i < 10; i++) {
      server.heartbeat();
      await new Promise((done) => setTimeout(done, 40));
    }
    expect(server.connections).toHaveLength(1);
    expect(server.connections[0]!.closed).toBe(false);
  });

  it('stops on a 401 until the token changes', async () => {
    stream = makeStream();
    server.status = 401;
    stream.sync();
    await waitFor(() => expect(stream.state).toBe('stopped'));
    expect(server.connections).toHaveLength(1);
    // Nothing else happens with this token, even when asked again.
    stream.sync();
    stream.nudge();
    await new Promise((done) => setTimeout(done, 150));
    expect(server.connections).toHaveLength(1);

    // A new sign-in: a new token, a new connection.
    server.status = 200;
    token = 'token-two';
    stream.sync();
    await waitFor(() => expect(stream.state).toBe('open'));
    expect(server.connections.at(-1)!.headers.authorization).toBe('Bearer token-two');
  });

  it('closes the connection on sign-out and does not come back by itself', async () => {
    stream = makeStream();
    stream.sync();
    await waitFor(() => expect(server.open()).toHaveLength(1));
    server.make(1);
    await waitFor(() => expect(received).toHaveLength(1));

    token = null;
    stream.sync();
    await waitFor(() => expect(server.open()).toHaveLength(0));
    expect(stream.state).toBe('idle');
    stream.nudge();
    await new Promise((done) => setTimeout(done, 150));
    expect(server.connections).toHaveLength(1);

    // The next user starts from nothing: no Last-Event-ID of the one before.
    token = 'token-other';
    stream.sync();
    await waitFor(() => expect(server.open()).toHaveLength(1));
    expect(server.connections.at(-1)!.headers['last-event-id']).toBeUndefined();
  });

  it('follows the session of the main services and pushes what arrives to the screens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sijill-stream-'));
    const store = LocalStore.open(':memory:');
    const pushed: { event: string; payload: unknown }[] = [];
    const services = createMainServices(
      {
        dataDir,
        store,
        vault: new MemoryVault(),
        keyProtector: fileProtector,
        apiBaseUrl: baseUrl,
        localServerUrl: null,
        startedConnected: true,
        app: { name: 'Sijill', version: 'test', host: 'web' },
      },
      (event, payload) => pushed.push({ event, payload }),
    );
    stream = services.notifications;
    try {
      expect(stream.state).toBe('idle');
      // A sign-in stores a token: the stream opens with it.
      services.api.setToken('signed-in-token');
      await waitFor(() => expect(server.open()).toHaveLength(1));
      expect(server.connections[0]!.headers.authorization).toBe('Bearer signed-in-token');
      server.make(9);
      server.unread(1);
      await waitFor(() =>
        expect(pushed.map((p) => p.event)).toEqual(['notifications:new', 'notifications:unread']),
      );
      expect((pushed[0]!.payload as Notification).id).toBe(9);
      expect(pushed[1]!.payload).toEqual({ unread: 1 });

      // Signing out through the contract closes it.
      const answer = await services.dispatch('session:logout', undefined, true);
      expect(answer.ok).toBe(true);
      await waitFor(() => expect(server.open()).toHaveLength(0));
      expect(stream.state).toBe('idle');
    } finally {
      await services.close();
      store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
