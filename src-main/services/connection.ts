/**
 * Whether the API server answers, known in one place. The ApiClient reports every exchange: any answer
 * (whatever its status) means reachable, a transport failure means unreachable. While unreachable, the
 * watch asks GET /health by itself (after 2 s, then doubling to 30 s), so the server's return is noticed
 * without anybody pressing "Try again"; every change is told to the listeners (main pushes
 * `connection:changed` to the renderer, which drops its offline banner and reloads what it shows).
 */

/** Listener of a change of reachability. */
export type ReachabilityListener = (online: boolean) => void;

export interface ConnectionWatchOptions {
  /** One probe: resolves true when the server answered /health at all. */
  probe: () => Promise<boolean>;
  /** First wait before probing again after a failure, and the longest (milliseconds). */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

export class ConnectionWatch {
  private online = true;
  private readonly listeners = new Set<ReachabilityListener>();
  private timer: NodeJS.Timeout | null = null;
  private delay: number;
  private closed = false;
  private probing = false;

  constructor(private readonly options: ConnectionWatchOptions) {
    this.delay = options.firstDelayMs ?? 2000;
  }

  /** Whether the server answered the last exchange. */
  get isOnline(): boolean {
    return this.online;
  }

  /** Records the outcome of an exchange with the server. */
  report(reachable: boolean): void {
    if (this.closed) return;
    if (reachable) {
      this.stopProbing();
      this.delay = this.options.firstDelayMs ?? 2000;
    } else {
      this.scheduleProbe();
    }
    if (reachable === this.online) return;
    this.online = reachable;
    for (const listener of this.listeners) {
      try {
        listener(reachable);
      } catch {
        // a broken listener must not stop the others
      }
    }
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: ReachabilityListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Probes now (the renderer's "Try again"); answers whether the server is reachable. */
  async check(): Promise<boolean> {
    let reachable = false;
    try {
      reachable = await this.options.probe();
    } catch {
      reachable = false;
    }
    this.report(reachable);
    return reachable;
  }

  /** Stops probing for good (the app is closing). */
  close(): void {
    this.closed = true;
    this.stopProbing();
    this.listeners.clear();
  }

  private scheduleProbe(): void {
    if (this.timer || this.probing || this.closed) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, this.options.maxDelayMs ?? 30_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.probing = true;
      void this.check().finally(() => {
        this.probing = false;
        if (!this.online) this.scheduleProbe();
      });
    }, wait);
    // Waiting for the server must never keep a closing process alive.
    this.timer.unref();
  }

  private stopProbing(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
