/**
 * The push of notifications to the clients connected to this server (issue 28). Every server listens on
 * one NOTIFY channel (db/notices.ts): a notification committed on any server sharing the database reaches
 * the servers holding a stream of its user, which send it. Nothing is lost in between: each stream knows
 * the last id it sent and is always sent what is newer (a payload is only a hint that there is something),
 * so a listener that was away (PostgreSQL restarted) looks again for everyone when it is back.
 *
 * The hints are gathered and answered together: one read of the new notifications of every user told
 * and one of their unread counts, however many users a change told (a letter distributed to a department
 * of a thousand is two queries here, not four thousand). What is pushed was made for its user, who could
 * see its document then (the producers tell only such people, db/notices.ts); the list answers through
 * the visibility predicate of the moment.
 *
 * Each stream re-checks its session at every heartbeat without touching it (an open stream does not keep
 * an unattended desk signed in): a session ended or expired closes the stream.
 */
import { NOTIFY_CHANNEL } from '../../db/notices';
import type { Database } from '../../db/open';
import type { Notification } from '../../../src-shared/api/notifications';
import { STREAM_HEARTBEAT_MS, STREAM_REPLAY_MAX } from '../../../src-shared/api/notifications';
import * as q from './queries';

/** One open stream: its user and session, what it has been sent, and how it writes. */
export interface Stream {
  userId: number;
  sessionId: number;
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
  /** Users told of something since the last push round. */
  private readonly pending = new Set<number>();
  private pushing = false;
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
      () => this.tell(this.byUser.keys()),
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
   * Adds a stream: it is sent what it missed since `lastId` (at most STREAM_REPLAY_MAX) and the unread
   * count, then whatever comes. Answers the function that removes it.
   */
  attach(stream: Stream): () => void {
    let set = this.byUser.get(stream.userId);
    if (!set) this.byUser.set(stream.userId, (set = new Set()));
    set.add(stream);
    this.tell([stream.userId]);
    return () => {
      const streams = this.byUser.get(stream.userId);
      if (!streams) return;
      streams.delete(stream);
      if (!streams.size) this.byUser.delete(stream.userId);
    };
  }

  private onPayload(payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const { u, s: sessionId } = parsed as { u?: unknown; s?: unknown };
    const users = Array.isArray(u) ? u : [u];
    this.tell(users.filter((id): id is number => typeof id === 'number' && this.byUser.has(id)));
    if (typeof sessionId === 'number')
      for (const streams of this.byUser.values())
        for (const stream of streams) if (stream.sessionId === sessionId) stream.close();
  }

  /** Notes users to push to; a round starts at once unless one runs (it then runs another after). */
  private tell(users: Iterable<number>): void {
    for (const id of users) this.pending.add(id);
    if (this.pushing || !this.pending.size || this.stopped) return;
    this.pushing = true;
    void this.push().finally(() => {
      this.pushing = false;
      if (this.pending.size && !this.stopped) this.tell([]);
    });
  }

  /** One round: the new notifications and the unread counts of the pending users, two queries in all. */
  private async push(): Promise<void> {
    const users = [...this.pending].filter((id) => this.byUser.has(id));
    this.pending.clear();
    if (!users.length) return;
    try {
      const streams = users.flatMap((id) => [...(this.byUser.get(id) ?? [])]);
      // Per user, what the least advanced of their streams has had.
      const after = new Map<number, number>();
      for (const s of streams) after.set(s.userId, Math.min(after.get(s.userId) ?? s.lastId, s.lastId));
      const fresh = await q.newerFor(this.database.db, after, STREAM_REPLAY_MAX);
      const counts = await q.unreadFor(this.database.db, users);
      for (const stream of streams) {
        for (const n of fresh.get(stream.userId) ?? []) {
          if (n.id <= stream.lastId) continue;
          stream.send('notification', n.id, n);
          stream.lastId = n.id;
        }
        stream.send('unread', null, { unread: counts.get(stream.userId) ?? 0 });
      }
    } catch (error) {
      if (!this.stopped) this.options.log?.warn({ err: error }, 'notifications: could not push');
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
