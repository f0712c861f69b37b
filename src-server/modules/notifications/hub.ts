/**
 * The push of notifications to the clients connected to this server (issue 28). Every server listens on
 * one NOTIFY channel (db/notices.ts): a notification committed on any server sharing the database reaches
 * the servers holding a stream of its user, which send it. Nothing is lost in between: each stream knows
 * the last id it sent and always sends what is newer (a payload is only a hint that there is something),
 * so a listener that was away (PostgreSQL restarted) looks again for everyone when it is back.
 *
 * Each stream re-checks its session at every heartbeat without touching it (an open stream does not keep
 * an unattended desk signed in): a session ended or expired closes the stream.
 */
import { NOTIFY_CHANNEL } from '../../db/notices';
import type { Database } from '../../db/open';
import type { Notification } from '../../../src-shared/api/notifications';
import { STREAM_HEARTBEAT_MS, STREAM_REPLAY_MAX } from '../../../src-shared/api/notifications';
import type { Scope } from '../correspondence/visibility';
import * as q from './queries';

/** One open stream: its user and session, what it has been sent, and how it writes. */
export interface Stream {
  userId: number;
  sessionId: number;
  /** What the user may see now (read at each push: a delegation or a move changes it). */
  scope(): Promise<Scope>;
  /** The id of the last notification it was sent. */
  lastId: number;
  send(event: 'notification', id: number, data: Notification): void;
  send(event: 'unread', id: null, data: { unread: number }): void;
  /** A comment line (the heartbeat). */
  ping(): void;
  close(): void;
}

export interface HubLog {
  warn(obj: object, msg: string): void;
}

export class NotificationHub {
  private readonly byUser = new Map<number, Set<Stream>>();
  /** Users with a look pending or running, and whether another is wanted after it. */
  private readonly looking = new Map<number, boolean>();
  private stopListening: (() => Promise<void>) | null = null;
  private heartbeat: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    private readonly options: { heartbeatMs?: number; log?: HubLog } = {},
  ) {}

  /** Starts listening (idempotent). */
  async start(): Promise<void> {
    if (this.stopListening || this.stopped) return;
    this.stopListening = await this.database.listen(
      NOTIFY_CHANNEL,
      (payload) => this.onPayload(payload),
      () => {
        for (const userId of this.byUser.keys()) this.look(userId);
      },
    );
    this.heartbeat = setInterval(() => void this.beat(), this.options.heartbeatMs ?? STREAM_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    for (const streams of this.byUser.values()) for (const s of streams) s.close();
    this.byUser.clear();
    await this.stopListening?.().catch(() => undefined);
    this.stopListening = null;
  }

  /** Streams open on this server (the bench reads it). */
  get size(): number {
    let n = 0;
    for (const streams of this.byUser.values()) n += streams.size;
    return n;
  }

  /**
   * Adds a stream: sends what it missed since `lastId` (at most STREAM_REPLAY_MAX) and the unread count,
   * then whatever comes. Answers the function that removes it.
   */
  attach(stream: Stream): () => void {
    let set = this.byUser.get(stream.userId);
    if (!set) this.byUser.set(stream.userId, (set = new Set()));
    set.add(stream);
    const detach = () => {
      const streams = this.byUser.get(stream.userId);
      if (!streams) return;
      streams.delete(stream);
      if (!streams.size) this.byUser.delete(stream.userId);
    };
    // Through the user's one look at a time, so the stream is never sent a notification twice.
    this.look(stream.userId);
    return detach;
  }

  private onPayload(payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const userId = (parsed as { u?: unknown }).u;
    if (typeof userId === 'number' && this.byUser.has(userId)) this.look(userId);
  }

  /** Sends the user's streams what they have not had, and the unread count; one look at a time per user. */
  private look(userId: number): void {
    if (this.looking.has(userId)) {
      this.looking.set(userId, true);
      return;
    }
    this.looking.set(userId, false);
    void (async () => {
      try {
        for (;;) {
          const streams = [...(this.byUser.get(userId) ?? [])];
          for (const stream of streams) await this.catchUp(stream);
          if (streams.length) {
            const unread = await q.unreadOf(this.database.db, userId);
            for (const stream of streams) stream.send('unread', null, { unread });
          }
          if (!this.looking.get(userId)) break;
          this.looking.set(userId, false);
        }
      } catch (error) {
        if (!this.stopped) this.options.log?.warn({ err: error, userId }, 'notifications: could not push');
      } finally {
        this.looking.delete(userId);
      }
    })();
  }

  private async catchUp(stream: Stream): Promise<void> {
    const missed = await q.newerThan(
      this.database.db,
      await stream.scope(),
      stream.lastId,
      STREAM_REPLAY_MAX,
    );
    for (const n of missed) {
      stream.send('notification', n.id, n);
      stream.lastId = n.id;
    }
  }

  /** The heartbeat: a comment to every stream, and the sessions checked (ended ones closed). */
  private async beat(): Promise<void> {
    const all = [...this.byUser.values()].flatMap((s) => [...s]);
    if (!all.length) return;
    for (const s of all) s.ping();
    try {
      const live = await q.liveSessions(this.database.db, [...new Set(all.map((s) => s.sessionId))]);
      for (const s of all) if (!live.has(s.sessionId)) s.close();
    } catch (error) {
      if (!this.stopped)
        this.options.log?.warn({ err: error }, 'notifications: could not check the sessions');
    }
  }
}
