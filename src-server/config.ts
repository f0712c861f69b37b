/**
 * Server configuration from the environment, validated at start: a wrong value stops the server with a
 * message naming the variable, instead of failing later.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

export const configSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: int(8787, 0, 65535),
  /** Where PGlite data and attachment files live when no DATABASE_URL is set. */
  DATA_DIR: z.string().min(1).default('.data/server'),
  /**
   * Where the running server writes the backups an administrator asks for (POST /admin/backup), one
   * folder each, named by its time; DATA_DIR/backups when unset (docs/backups.md).
   */
  BACKUP_DIR: z.string().min(1).optional(),
  /**
   * The backups' retention (docs/backups.md), applied after each backup the server makes and by
   * `backup --prune`: the newest N complete backups are kept, and the newest of each of the M latest
   * months (ORG_TIME_ZONE) that have one; the newest is never removed.
   */
  BACKUP_KEEP_LAST: int(7, 1, 1_000_000),
  BACKUP_KEEP_MONTHLY: int(12, 0, 12_000),
  /** node-postgres connection string; when absent the embedded PGlite in DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /**
   * The reverse proxies whose X-Forwarded-For (and -Proto, -Host) the server believes: a comma-separated list
   * of addresses and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1`) or proxy-addr's names `loopback`,
   * `linklocal`, `uniquelocal`. Unset: no proxy is trusted and the client's address is the connection's
   * peer. Set it to the proxy's own address only: the address a sign-in is throttled, recorded and
   * audited under is then the one the proxy saw, and a client cannot name another by sending the header.
   */
  TRUST_PROXY: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every(isTrustedProxy),
      'must be addresses or CIDR ranges (or loopback, linklocal, uniquelocal), separated by commas',
    )
    .optional(),
  /**
   * The embedded PGlite in the server's own thread instead of its worker thread (db/pglite-worker.ts):
   * what the server did before, kept to compare (bench/embedded) and as a way out.
   */
  PGLITE_IN_THREAD: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * The embedded PGlite's shared buffers in MB (db/pglite-options.ts). Its WebAssembly memory holds them
   * from the start and never gives them back, so a desk keeps them small and its tables in the system's
   * file cache; a large embedded archive may raise it.
   */
  PGLITE_SHARED_BUFFERS_MB: int(16, 1, 8192),
  /**
   * Uploads are refused (507, `upload.diskFull`) while the disk of DATA_DIR or of the local file store
   * has less free space than this many MB, before a full disk breaks the database; 0 turns the check off.
   */
  MIN_FREE_DISK_MB: int(500, 0, 10_000_000),
  /** Largest accepted upload, in bytes. */
  UPLOAD_MAX_BYTES: int(25 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  /** A session ends after this many idle minutes… */
  SESSION_IDLE_MINUTES: int(60, 1, 60 * 24 * 30),
  /** …and in any case this many hours after sign-in… */
  SESSION_ABSOLUTE_HOURS: int(12, 1, 24 * 365),
  /** …or, with remember-me, this many days. */
  SESSION_REMEMBER_DAYS: int(30, 1, 365),
  /** …and with remember-me the idle limit is this many days (capped by the absolute expiry). */
  SESSION_REMEMBER_IDLE_DAYS: int(7, 1, 365),
  /** A two-factor sign-in challenge is good for this many minutes. */
  TWO_FACTOR_CHALLENGE_MINUTES: int(5, 1, 60),
  /** Failed sign-ins per account (as typed) within the window before it locks… */
  LOGIN_MAX_FAILURES_ACCOUNT: int(5, 1, 1000),
  /** …and per address. */
  LOGIN_MAX_FAILURES_IP: int(50, 1, 100000),
  LOGIN_WINDOW_MINUTES: int(15, 1, 24 * 60),
  LOGIN_LOCK_MINUTES: int(15, 1, 24 * 60),
  /** Requests per minute per address on the sign-in and two-factor routes; 0 turns the limiter off (benchmarks). */
  AUTH_RATE_LIMIT_PER_MINUTE: int(30, 0, 1_000_000),
  /** Public verification pages answered per minute per address (issue 27); 0 turns the limiter off. */
  VERIFY_RATE_LIMIT_PER_MINUTE: int(20, 0, 1_000_000),
  /**
   * The organisation's time zone (IANA, e.g. Asia/Riyadh): what "today" is for due dates, reminders and the
   * daily digest (issue 28). Default: this machine's zone.
   */
  ORG_TIME_ZONE: z
    .string()
    .default(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'not a time zone'),
  /**
   * Big lists count their rows up to this many: beyond it a list answers `total` = this number with
   * `totalExact: false` ("more than …"), since an exact count of a large box costs more than its page.
   */
  LIST_EXACT_TOTAL_MAX: int(10_000, 1, 10_000_000),
  /**
   * A page of a tallied box (its own date order, no filter) lying more than this many rows past its
   * nearest known position is found from the box's tallies (its rows per day) rather than by reading past
   * the rows before it (OFFSET); 0: always (tests).
   */
  LIST_TALLY_JUMP_FROM: int(2_000, 0, 10_000_000),
  /**
   * Worker threads that check uploaded PDFs (storage/pdf-check-pool.ts) and that make PDFs
   * (pdf-making/pdf-make-pool.ts), at most. 0 (unset): one each on the embedded PGlite, where each is
   * memory the desk keeps; on PostgreSQL one for every core but one, at most 4 and 2.
   */
  PDF_CHECK_WORKERS: int(0, 0, 16),
  PDF_MAKE_WORKERS: int(0, 0, 16),
  /** node-postgres pool size when DATABASE_URL is set. */
  DB_POOL_MAX: int(20, 1, 500),
  /**
   * Requests working at once (admission control, http/admission.ts). Unset: 4 on the embedded PGlite,
   * off (0) on PostgreSQL. Beyond it up to DB_QUEUE_MAX wait, each at most DB_QUEUE_WAIT_MS; the rest
   * are answered 503 with Retry-After at once.
   */
  DB_CONCURRENCY: int(-1, -1, 10_000),
  DB_QUEUE_MAX: int(64, 0, 100_000),
  DB_QUEUE_WAIT_MS: int(3000, 1, 600_000),
  /**
   * argon2id cost. Defaults are OWASP's (19 MiB, 2 passes); NODE_ENV=test lowers them so the test suite
   * stays fast. Never lower them in production.
   */
  ARGON2_MEMORY_KIB: int(process.env.NODE_ENV === 'test' ? 1024 : 19456, 64, 4 * 1024 * 1024),
  ARGON2_TIME_COST: int(process.env.NODE_ENV === 'test' ? 1 : 2, 1, 100),
  /**
   * Whether this process runs background jobs (jobs/queue.ts): `0` for a server process that only answers
   * requests and enqueues, where dedicated worker processes on the same PostgreSQL run the jobs.
   */
  JOBS_WORKER: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /** Finished (done) background jobs are kept this many days, then pruned. */
  JOBS_KEEP_DONE_DAYS: int(7, 1, 3650),
  /**
   * How long a running job's claim lasts unless its worker renews it (every third of it). A worker that
   * died is known at once (jobs/queue.ts, "workers that die"), so the lease only frees the jobs of a
   * worker that cannot be known dead: a machine gone from the network with its database session.
   */
  JOBS_LEASE_SECONDS: int(60, 5, 24 * 3600),
  /**
   * Every this many hours the stored files are read again and checked against their SHA-256 (a pass in
   * batches: modules/reads/integrity.ts); 0: never.
   */
  INTEGRITY_CHECK_INTERVAL_HOURS: int(24, 0, 24 * 366),
  /**
   * The daily sweep (storage/sweep.ts) removes stored bytes no row names only when they were last written
   * more than this many hours ago: bytes a writer still running has just stored (its row not yet written)
   * are never taken.
   */
  SWEEP_GRACE_HOURS: int(24, 1, 24 * 366),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Prometheus metrics (docs/operations.md) on a port of their own, bound to METRICS_HOST; unset: none.
   * 0 takes a free port (tests).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Serves the metrics on the main port too, at /metrics, to a scraper sending `Authorization: Bearer
   * <METRICS_TOKEN>`; unset: /metrics there answers 404.
   */
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{16,200}$/, 'must be 16 to 200 characters without spaces')
    .optional(),
  /**
   * Where uploaded files live: `local` (DATA_DIR/files) or `s3`, an S3-compatible bucket that several
   * servers of one organisation share (AWS S3, MinIO, Ceph); `s3` needs S3_BUCKET and the key pair.
   */
  FILE_STORE: z.enum(['local', 's3']).default('local'),
  /** An S3-compatible server's URL (MinIO, Ceph); unset for AWS S3. */
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^/]/, 'must be an http:// or https:// URL')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** The bucket in the URL's path rather than its host name; unset: true when S3_ENDPOINT is set. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  /** Put before every key, e.g. `sijill/` to share a bucket with other data. */
  S3_PREFIX: z.string().regex(/^[^/]/, 'must not start with /').optional(),
});
export type ServerConfig = z.infer<typeof configSchema>;

/** One entry of TRUST_PROXY: an address, an address/prefix, or one of proxy-addr's names. */
function isTrustedProxy(entry: string): boolean {
  if (entry === 'loopback' || entry === 'linklocal' || entry === 'uniquelocal') return true;
  const [address, prefix, more] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || more !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The rules across variables: FILE_STORE=s3 needs a bucket and its key pair. */
const checkedSchema = configSchema.superRefine(
  (c, ctx) => {
    if (c.FILE_STORE !== 's3') return;
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
      if (!c[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'required when FILE_STORE=s3' });
  },
  // Also beside other bad variables: the message lists everything to fix at once.
  { when: () => true },
);

/** Parses the environment; throws an Error whose message lists every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const picked = Object.fromEntries(
    Object.keys(configSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = checkedSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid server configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
