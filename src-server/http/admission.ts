/**
 * Admission control: at most `concurrency` requests work at once, at most `queue` wait behind them, and
 * none waits longer than `waitMs`. A request that cannot get in answers 503 with `Retry-After` and a
 * localised sentence, at once, instead of joining a queue that would make everyone wait ten seconds.
 *
 * The embedded PGlite is one connection in this process: a hundred concurrent readers only queue inside
 * it, and the last of them wait for all the others. The gate keeps the wait bounded and says so. On
 * PostgreSQL it is off by default (the pool queues, and several servers share the load), and can be set.
 * A small FIFO of our own rather than a library: p-limit and the like bound concurrency but not the queue
 * nor the wait, and cancelling a waiter must free its place at once.
 *
 * Uploads (a multipart body: an attachment, intake, a scanning station's batch of 32 files) hold their
 * place for seconds to minutes: the file streamed in, checked, its codes read. They may hold at most half
 * the places (UPLOAD_SHARE), waiting for one up to UPLOAD_WAIT_MS, so that a station's burst leaves the
 * screens answering: when four batches could take all four places of the embedded desk, bench/embedded's
 * 300-scan burst had 9 % of the incoming box's reads refused (503) and its p99 at the 3 s wait.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpProblem } from './problem';

export interface AdmissionOptions {
  /** Requests working at once; 0 turns the gate off. */
  concurrency: number;
  /** Requests allowed to wait for a place. */
  queue: number;
  /** The longest wait for a place, in milliseconds. */
  waitMs: number;
}

/**
 * Paths the gate never holds: liveness and readiness (a busy server is alive, and a probe that waited or
 * got the 503 of a full queue would take it out of the proxy's rotation), the metrics, the documentation,
 * and the notification streams (open for hours: each would hold a place for good).
 */
const EXEMPT = /^\/(health|ready|metrics|docs|notifications\/stream)(\/|$|\?)/;

/** The share of the places uploads may hold at most (at least one place). */
const UPLOAD_SHARE = 0.5;
/** How long an upload may wait for a place among theirs: a station's batch waits rather than fails. */
const UPLOAD_WAIT_MS = 30_000;

/** What a request is to the gate: an upload (a multipart body, see the file's header) or anything else. */
export type AdmissionKind = 'upload' | 'other';

/**
 * A counting gate with a bounded FIFO of waiters, each with its own deadline; uploads pass a gate of
 * their own first (a share of the places, a longer wait) when there are two places or more.
 */
export class AdmissionGate {
  private active = 0;
  private readonly waiters: { grant: () => void; timer: NodeJS.Timeout }[] = [];
  private readonly refusals = { full: 0, timeout: 0 };
  private readonly uploads: AdmissionGate | null;
  constructor(private readonly options: AdmissionOptions) {
    this.uploads =
      options.concurrency >= 2
        ? new AdmissionGate({
            concurrency: Math.max(1, Math.floor(options.concurrency * UPLOAD_SHARE)),
            queue: options.queue,
            waitMs: Math.max(options.waitMs, UPLOAD_WAIT_MS),
          })
        : null;
  }

  /**
   * Resolves true when admitted, false when the queue is full or the wait ran out. An upload takes a
   * place among the uploads' first, then one of the gate's.
   */
  async acquire(kind: AdmissionKind = 'other'): Promise<boolean> {
    if (kind !== 'upload' || !this.uploads) return this.place();
    if (!(await this.uploads.acquire())) return false;
    if (await this.place()) return true;
    this.uploads.release();
    return false;
  }

  /** Frees a place taken by `acquire(kind)`. */
  release(kind: AdmissionKind = 'other'): void {
    if (kind === 'upload') this.uploads?.release();
    this.free();
  }

  /** A place of this gate, or a wait for one. */
  private place(): Promise<boolean> {
    if (this.active < this.options.concurrency) {
      this.active += 1;
      return Promise.resolve(true);
    }
    if (this.waiters.length >= this.options.queue) {
      this.refusals.full += 1;
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      const waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          resolve(true);
        },
        timer: setTimeout(() => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          this.refusals.timeout += 1;
          resolve(false);
        }, this.options.waitMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Frees a place: the next waiter gets it, or the count drops. */
  private free(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.active = Math.max(0, this.active - 1);
  }

  /** Requests working and waiting now (uploads waiting for a place among theirs included). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiters.length + (this.uploads?.load.waiting ?? 0) };
  }

  /** Requests refused since the gate was made: the queue was full, or their wait ran out (metrics). */
  get refused(): { full: number; timeout: number } {
    const uploads = this.uploads?.refused ?? { full: 0, timeout: 0 };
    return { full: this.refusals.full + uploads.full, timeout: this.refusals.timeout + uploads.timeout };
  }
}

const admitted = Symbol('sijill.admitted');
type Admitted = FastifyRequest & { [admitted]?: AdmissionKind | false };

/** Whether a request is an upload (a multipart body), by its content type. */
function kindOf(request: FastifyRequest): AdmissionKind {
  return /^multipart\//i.test(request.headers['content-type'] ?? '') ? 'upload' : 'other';
}

/** Installs the gate as the first request hook (before authentication, which already queries). */
export function installAdmission(app: FastifyInstance, options: AdmissionOptions): AdmissionGate | null {
  if (options.concurrency <= 0) return null;
  const gate = new AdmissionGate(options);
  const retryAfter = String(Math.max(1, Math.ceil(options.waitMs / 1000)));
  const release = async (request: FastifyRequest) => {
    const r = request as Admitted;
    const kind = r[admitted];
    if (kind) {
      r[admitted] = false;
      gate.release(kind);
    }
  };
  app.addHook('onRequest', async (request, reply) => {
    if (EXEMPT.test(request.url)) return;
    const kind = kindOf(request);
    if (!(await gate.acquire(kind))) {
      reply.header('retry-after', retryAfter);
      throw new HttpProblem('serviceUnavailable', { detailKey: 'errors.serviceUnavailable.busy' });
    }
    (request as Admitted)[admitted] = kind;
    // The place is given back when the exchange ends, however it ends: the response sent, or the client
    // gone (while it waited for the place, or while its request worked). Fastify's onResponse does not
    // run for a client that went away, and a place lost each time would jam the gate for good.
    if (reply.raw.destroyed || request.raw.destroyed) void release(request);
    else reply.raw.once('close', () => void release(request));
  });
  app.addHook('onResponse', release);
  return gate;
}
