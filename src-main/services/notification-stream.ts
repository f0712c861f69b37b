/**
 * NotificationStream: main's one connection to the server's push of notifications (issue 28), held while
 * a session exists. `GET /notifications/stream` (server-sent events, src-shared/api/notifications.ts) with
 * the session's token and language; each `notification` and `unread` event is told to the listeners (main
 * pushes them to the screens over IPC, the desktop shows system notices).
 *
 * It reconnects by itself: after the server or the network went away (back-off from 1 s doubling to 30 s,
 * with jitter so a restarted server is not hit by every desk at once), and after a silence longer than two
 * heartbeats (a dead connection that never said so). On reconnecting it sends `Last-Event-ID`, so what was
 * made meanwhile is replayed first. A 401 stops it until the token changes (the API client's own 401 rule
 * ends the session); signing out closes it. Runs under plain Node (the web shell, tests) and in Electron.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import {
  NOTIFICATION_STREAM_PATH,
  STREAM_HEARTBEAT_MS,
  notificationSchema,
  unreadSchema,
  type Notification,
} from '../../src-shared/api/notifications';
import { resolveApiUrl } from './api-client';

export interface NotificationStreamOptions {
  /** The API base in effect (it changes when the user picks another server). */
  baseUrl: () => string;
  /** The request headers of the session: the bearer token and Accept-Language (ApiClient.headers). */
  headers: () => Record<string, string>;
  /** The first wait before reconnecting, and the longest (milliseconds). */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** The server's heartbeat; a connection silent for twice this long is taken as dead. */
  heartbeatMs?: number;
  /** A number in [0, 1) for the jitter (tests pin it). */
  random?: () => number;
  /** Whether an exchange reached the server at all (the API client's connection watch). */
  onReachable?: (reachable: boolean) => void;
  /** Problems worth a line in the log (never the token). */
  log?: (message: string) => void;
}

export type NotificationListener = (notification: Notification) => void;
export type UnreadListener = (unread: number) => void;

/** What the stream is doing, for tests and logs. */
export type StreamState = 'idle' | 'connecting' | 'open' | 'waiting' | 'stopped';

export class NotificationStream {
  #state: StreamState = 'idle';
  /** The Authorization header the stream runs for; null when signed out. */
  #authorization: string | null = null;
  /** The token a 401 refused: the stream stays stopped until the token changes. */
  #refused: string | null = null;
  #lastEventId: string | null = null;
  #attempt = 0;
  #controller: AbortController | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  #silenceTimer: NodeJS.Timeout | null = null;
  #closed = false;
  readonly #notificationListeners = new Set<NotificationListener>();
  readonly #unreadListeners = new Set<UnreadListener>();

  constructor(private readonly options: NotificationStreamOptions) {}

  get state(): StreamState {
    return this.#state;
  }

  /** The id of the last notification received (sent as Last-Event-ID on reconnecting). */
  get lastEventId(): string | null {
    return this.#lastEventId;
  }

  onNotification(listener: NotificationListener): () => void {
    this.#notificationListeners.add(listener);
    return () => void this.#notificationListeners.delete(listener);
  }

  onUnread(listener: UnreadListener): () => void {
    this.#unreadListeners.add(listener);
    return () => void this.#unreadListeners.delete(listener);
  }

  /**
   * Follows the session: connects when a token appeared, reconnects when it changed (a new sign-in, a
   * password change), closes when it is gone. Called whenever the vault changes, and once at start.
   */
  sync(): void {
    if (this.#closed) return;
    const authorization = this.options.headers().Authorization ?? null;
    if (authorization === this.#authorization) return;
    const sameUser = this.#authorization !== null && authorization !== null;
    this.disconnect();
    this.#authorization = authorization;
    // Another session may be another user: what the last one saw means nothing to it. A new token of
    // the same session (the password changed) keeps its place, so nothing is missed.
    if (!sameUser) this.#lastEventId = null;
    this.#attempt = 0;
    if (authorization === null || authorization === this.#refused) {
      this.#state = authorization === null ? 'idle' : 'stopped';
      return;
    }
    this.#refused = null;
    this.connect();
  }

  /**
   * The server answers again (the connection watch noticed): a wait for the next attempt is cut short.
   * An open or connecting stream is left alone.
   */
  nudge(): void {
    if (this.#closed || this.#state !== 'waiting') return;
    this.clearRetry();
    this.#attempt = 0;
    this.connect();
  }

  /** Closes the stream for good (the application is closing). */
  close(): void {
    this.#closed = true;
    this.disconnect();
    this.#state = 'stopped';
    this.#notificationListeners.clear();
    this.#unreadListeners.clear();
  }

  // ------------------------------------------------------------------ internals

  private disconnect(): void {
    this.clearRetry();
    this.clearSilence();
    this.#controller?.abort();
    this.#controller = null;
    this.#state = 'idle';
  }

  private connect(): void {
    const controller = new AbortController();
    this.#controller = controller;
    this.#state = 'connecting';
    void this.run(controller).then(
      (outcome) => this.after(controller, outcome),
      () => this.after(controller, 'retry'),
    );
  }

  /** One connection, from the request to its end: whether to try again or stop. */
  private async run(controller: AbortController): Promise<'retry' | 'stop'> {
    let url: URL;
    try {
      url = resolveApiUrl(this.options.baseUrl(), NOTIFICATION_STREAM_PATH);
    } catch {
      this.options.log?.('notification stream: no usable API base');
      return 'retry';
    }
    const headers: Record<string, string> = {
      ...this.options.headers(),
      Accept: 'text/event-stream',
      'Cache-Control': 'no-cache',
    };
    if (headers.Authorization !== this.#authorization) return 'retry';
    if (this.#lastEventId !== null) headers['Last-Event-ID'] = this.#lastEventId;
    // The silence limit covers the wait for the answer too: a server that accepts and never answers.
    this.armSilence(controller);
    let response: Response;
    try {
      // A redirect is never followed: it could carry the token to another origin.
      response = await fetch(url, { headers, redirect: 'manual', signal: controller.signal });
    } catch {
      // Refused or unreachable: the connection watch hears of it. Cut short by us (silence, sign-out) says
      // nothing about the server: a proxy that holds the answer back must not make the desk look offline.
      if (!controller.signal.aborted) this.options.onReachable?.(false);
      return 'retry';
    }
    this.options.onReachable?.(true);
    if (response.status === 401) {
      await response.body?.cancel().catch(() => undefined);
      this.#refused = this.#authorization;
      return 'stop';
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      this.options.log?.(`notification stream: the server answered ${response.status}`);
      return 'retry';
    }
    this.#state = 'open';
    this.#attempt = 0;
    const parser = createParser({
      onEvent: (message) => this.receive(message),
      onError: () => this.options.log?.('notification stream: a malformed event was skipped'),
    });
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        // Anything at all (an event, a heartbeat comment) proves the connection alive.
        this.armSilence(controller);
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // cut off, aborted (silence, sign-out): the outcome is decided below
    } finally {
      reader.releaseLock();
    }
    return 'retry';
  }

  /** After a connection ended: the next attempt after a back-off, unless it was replaced or stopped. */
  private after(controller: AbortController, outcome: 'retry' | 'stop'): void {
    if (this.#controller !== controller) return;
    this.clearSilence();
    controller.abort();
    this.#controller = null;
    if (this.#closed) return;
    if (outcome === 'stop') {
      this.#state = 'stopped';
      return;
    }
    this.#state = 'waiting';
    const first = this.options.firstDelayMs ?? 1000;
    const max = this.options.maxDelayMs ?? 30_000;
    const ceiling = Math.min(max, first * 2 ** this.#attempt);
    this.#attempt = Math.min(this.#attempt + 1, 30);
    // Half fixed, half random: desks that lost the same server come back spread over the wait.
    const wait = ceiling / 2 + (ceiling / 2) * (this.options.random ?? Math.random)();
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      this.connect();
    }, wait);
    this.#retryTimer.unref();
  }

  private receive(message: EventSourceMessage): void {
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      this.options.log?.(`notification stream: an unreadable ${message.event ?? 'message'} event`);
      return;
    }
    if (message.event === 'notification') {
      const parsed = notificationSchema.safeParse(data);
      if (!parsed.success) {
        this.options.log?.('notification stream: a notification of an unexpected shape was skipped');
        return;
      }
      if (message.id) this.#lastEventId = message.id;
      for (const listener of this.#notificationListeners) guard(() => listener(parsed.data));
    } else if (message.event === 'unread') {
      const parsed = unreadSchema.safeParse(data);
      if (!parsed.success) return;
      for (const listener of this.#unreadListeners) guard(() => listener(parsed.data.unread));
    }
  }

  /** (Re)starts the silence limit of the connection: two heartbeats without a byte end it. */
  private armSilence(controller: AbortController): void {
    this.clearSilence();
    const limit = 2 * (this.options.heartbeatMs ?? STREAM_HEARTBEAT_MS);
    this.#silenceTimer = setTimeout(() => {
      this.options.log?.('notification stream: silent for too long, reconnecting');
      controller.abort();
    }, limit);
    this.#silenceTimer.unref();
  }

  private clearSilence(): void {
    if (this.#silenceTimer) clearTimeout(this.#silenceTimer);
    this.#silenceTimer = null;
  }

  private clearRetry(): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }
}

/** A broken listener must not stop the others, nor the stream. */
function guard(call: () => void): void {
  try {
    call();
  } catch {
    // ignored on purpose
  }
}
