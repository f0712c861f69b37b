/**
 * The scanning station's durable queue: one row per file seen in a watched folder, in the station's own
 * SQLite database (better-sqlite3, WAL, synchronous FULL: a state written is a state kept across a kill
 * -9 or a power cut). Every step of a file is a state change written before the step's effect can be
 * lost, which is what makes the station exactly-once:
 *
 *   waiting ──stable──▶ queued ──▶ uploading ──answer──▶ moving ──rename──▶ done | rejected
 *                         ▲            │ (server down: back off, attempts+1; after many: stuck)
 *                         └── retry ───┘
 *
 * - `key` (made when the file is first seen) is sent as the upload's Idempotency-Key: an upload retried
 *   after a crash is answered by the server with what the first one made, never registered twice.
 * - `moving` records the outcome and the target path before the rename, so a crash between the two is
 *   finished on restart (the source gone and the target there means it was moved).
 * - One active row per folder and name (a partial unique index): a scanner that reuses `scan0001.pdf`
 *   after the first was moved away makes a new row.
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

export const STATION_STATES = [
  'waiting',
  'queued',
  'uploading',
  'moving',
  'done',
  'rejected',
  'stuck',
] as const;
export type StationState = (typeof STATION_STATES)[number];
export type Outcome = 'processed' | 'rejected';

/** Why a file was rejected or is stuck: a code the station's texts translate, and their parameters. */
export interface Reason {
  code: string;
  params?: Record<string, string | number>;
  /**
   * What the server said, when it was the server that refused, by language: in both when its message is
   * one of the server's own texts (rendered here in each language from its code), else only in the
   * language the server answered in — never one language's words in the other's half of a note. A plain
   * string is technical text of no language (a system error such as `ECONNREFUSED`), shown in both.
   */
  detail?: Partial<Record<'ar' | 'en', string>> | string;
}

export interface StationFile {
  id: number;
  key: string;
  folder: string;
  name: string;
  size: number;
  mtimeMs: number;
  stableSince: number;
  sha256: string | null;
  state: StationState;
  attempts: number;
  nextAt: number;
  reason: Reason | null;
  outcome: Outcome | null;
  movedTo: string | null;
  documentId: number | null;
  docNumber: string | null;
  createdAt: number;
  updatedAt: number;
}

interface Row {
  id: number;
  key: string;
  folder: string;
  name: string;
  size: number;
  mtime_ms: number;
  stable_since: number;
  sha256: string | null;
  state: StationState;
  attempts: number;
  next_at: number;
  reason: string | null;
  outcome: Outcome | null;
  moved_to: string | null;
  document_id: number | null;
  doc_number: string | null;
  created_at: number;
  updated_at: number;
}

const SCHEMA = `
create table if not exists station_files (
  id integer primary key,
  key text not null unique,
  folder text not null,
  name text not null,
  size integer not null,
  mtime_ms integer not null,
  stable_since integer not null,
  sha256 text,
  state text not null check (state in (${STATION_STATES.map((s) => `'${s}'`).join(', ')})),
  attempts integer not null default 0,
  next_at integer not null default 0,
  reason text,
  outcome text check (outcome is null or outcome in ('processed', 'rejected')),
  moved_to text,
  document_id integer,
  doc_number text,
  created_at integer not null,
  updated_at integer not null
);
create unique index if not exists station_files_active on station_files (folder, name)
  where state not in ('done', 'rejected');
create index if not exists station_files_due on station_files (state, next_at);
create index if not exists station_files_sha on station_files (sha256) where sha256 is not null;
`;

const ACTIVE = `state not in ('done', 'rejected')`;

function fileOf(r: Row): StationFile {
  return {
    id: r.id,
    key: r.key,
    folder: r.folder,
    name: r.name,
    size: r.size,
    mtimeMs: r.mtime_ms,
    stableSince: r.stable_since,
    sha256: r.sha256,
    state: r.state,
    attempts: r.attempts,
    nextAt: r.next_at,
    reason: r.reason ? (JSON.parse(r.reason) as Reason) : null,
    outcome: r.outcome,
    movedTo: r.moved_to,
    documentId: r.document_id,
    docNumber: r.doc_number,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export type StationCounts = Record<StationState, number>;

/** The queue; open it with `StationQueue.open`, close it when the station stops. */
export class StationQueue {
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {}

  /** A statement prepared once and kept (the queue runs the same few thousands of times). */
  private prep(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  static open(file: string, now: () => number = Date.now): StationQueue {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives the process being killed (what the station must survive);
    // a power cut may lose the last few, which only repeats steps that are safe to repeat (the server
    // answers a retried upload with its first result, and a move finds its file already moved). FULL
    // cost an fsync per step, six per file, and was the station's own bottleneck.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec(SCHEMA);
    return new StationQueue(db, now);
  }

  close(): void {
    this.db.close();
  }

  /** The active row of a file in a folder, if any. */
  active(folder: string, name: string): StationFile | null {
    const row = this.prep(`select * from station_files where folder = ? and name = ? and ${ACTIVE}`).get(
      folder,
      name,
    ) as Row | undefined;
    return row ? fileOf(row) : null;
  }

  /** Every active row of a folder (a scan compares them with what is on disk). */
  activeIn(folder: string): StationFile[] {
    return (this.prep(`select * from station_files where folder = ? and ${ACTIVE}`).all(folder) as Row[]).map(
      fileOf,
    );
  }

  /**
   * Runs `work` (several of the calls below) as one transaction: one write to the disk for a scan's
   * findings or a batch's outcomes instead of one a file. Nested calls join the outer one.
   */
  batch<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  /** Records a file first seen (waiting for it to stop changing). */
  seen(folder: string, name: string, size: number, mtimeMs: number): void {
    const t = this.now();
    this.prep(
      `insert into station_files (key, folder, name, size, mtime_ms, stable_since, state, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, 'waiting', ?, ?)`,
    ).run(randomUUID(), folder, name, size, mtimeMs, t, t, t);
  }

  /** A waiting file changed (still being written): its stability starts again. */
  changed(id: number, size: number, mtimeMs: number): void {
    const t = this.now();
    this.prep(
      `update station_files set size = ?, mtime_ms = ?, stable_since = ?, updated_at = ? where id = ? and state = 'waiting'`,
    ).run(size, mtimeMs, t, t, id);
  }

  /** A waiting file stopped changing: it is queued. */
  stable(id: number): void {
    this.set(id, 'waiting', { state: 'queued' });
  }

  /** A file not yet uploaded left the folder before it was taken (someone moved it away). */
  forget(id: number): void {
    this.prep(`delete from station_files where id = ? and state in ('waiting', 'queued', 'stuck')`).run(id);
  }

  /**
   * The next queued files due now, oldest first — at most `limit`, and no more than `maxBytes` together
   * (the first always, however large) — and marks them uploading.
   */
  take(limit: number, maxBytes = Number.POSITIVE_INFINITY): StationFile[] {
    const t = this.now();
    const take = this.db.transaction(() => {
      const rows = this.prep(
        `select * from station_files where state = 'queued' and next_at <= ? order by id limit ?`,
      ).all(t, limit) as Row[];
      const taken: Row[] = [];
      let bytes = 0;
      for (const r of rows) {
        if (taken.length > 0 && bytes + r.size > maxBytes) break;
        bytes += r.size;
        taken.push(r);
      }
      const mark = this.prep(`update station_files set state = 'uploading', updated_at = ? where id = ?`);
      for (const r of taken) mark.run(t, r.id);
      return taken.map((r) => fileOf({ ...r, state: 'uploading' }));
    });
    return take();
  }

  /** The file's content hash, computed before its upload. */
  hashed(id: number, sha256: string): void {
    this.prep(`update station_files set sha256 = ?, updated_at = ? where id = ?`).run(sha256, this.now(), id);
  }

  /** A file already received (done or on its way) with this content, other than `id`. */
  sameContent(sha256: string, id: number): StationFile | null {
    const row = this.prep(
      `select * from station_files where sha256 = ? and id <> ? and (outcome = 'processed' or state = 'uploading')
         order by id limit 1`,
    ).get(sha256, id) as Row | undefined;
    return row ? fileOf(row) : null;
  }

  /**
   * The upload's outcome is known: the file is to be moved to `target` (processed or rejected). Written
   * before the rename, so a crash in between is finished on restart.
   */
  moving(
    id: number,
    outcome: Outcome,
    target: string | null,
    extra: { reason?: Reason; documentId?: number; docNumber?: string | null } = {},
  ): void {
    this.prep(
      `update station_files set state = 'moving', outcome = ?, moved_to = ?, reason = ?, document_id = ?,
           doc_number = ?, updated_at = ? where id = ?`,
    ).run(
      outcome,
      target,
      extra.reason ? JSON.stringify(extra.reason) : null,
      extra.documentId ?? null,
      extra.docNumber ?? null,
      this.now(),
      id,
    );
  }

  /** Where a file whose outcome is known goes (recorded before the rename). */
  target(id: number, path: string): void {
    this.prep(`update station_files set moved_to = ?, updated_at = ? where id = ?`).run(path, this.now(), id);
  }

  /** The file was moved: done (processed) or rejected. */
  moved(id: number): void {
    this.prep(
      `update station_files set state = case outcome when 'processed' then 'done' else 'rejected' end,
           updated_at = ? where id = ? and state = 'moving'`,
    ).run(this.now(), id);
  }

  /**
   * A step failed in a way that may pass (the server down or busy, a rename refused): tried again after
   * `delayMs`; after `maxAttempts` the file is stuck until someone presses retry. A file failing while
   * being moved stays `moving` (its outcome is known) and is tried again the same way.
   */
  failed(id: number, reason: Reason, delayMs: number, maxAttempts: number): void {
    const t = this.now();
    this.prep(
      `update station_files set attempts = attempts + 1, reason = ?, next_at = ?, updated_at = ?,
           state = case when attempts + 1 >= ? then 'stuck' when state = 'moving' then 'moving' else 'queued' end
         where id = ?`,
    ).run(JSON.stringify(reason), t + delayMs, t, maxAttempts, id);
  }

  /** Retry now (the station panel's button): a stuck file goes back to where it stopped. */
  retry(id: number): boolean {
    const result = this.prep(
      `update station_files set state = case when outcome is not null then 'moving' else 'queued' end,
           attempts = 0, next_at = 0, updated_at = ? where id = ? and state in ('stuck', 'queued', 'moving')`,
    ).run(this.now(), id);
    return result.changes > 0;
  }

  /** On start: an upload cut short by a crash is queued again (its key makes the retry safe). */
  recover(): number {
    return this.prep(
      `update station_files set state = 'queued', updated_at = ? where state = 'uploading'`,
    ).run(this.now()).changes;
  }

  /** Files whose outcome is known but which are not moved yet (due now). */
  toMove(): StationFile[] {
    return (
      this.prep(`select * from station_files where state = 'moving' and next_at <= ? order by id`).all(
        this.now(),
      ) as Row[]
    ).map(fileOf);
  }

  counts(): StationCounts {
    const counts = Object.fromEntries(STATION_STATES.map((s) => [s, 0])) as StationCounts;
    for (const r of this.prep(`select state, count(*) as n from station_files group by state`).all() as {
      state: StationState;
      n: number;
    }[])
      counts[r.state] = r.n;
    return counts;
  }

  /** Files that need attention: stuck, or failing and waiting to be tried again. */
  problems(limit = 50): StationFile[] {
    return (
      this.prep(
        `select * from station_files where state = 'stuck' or (state in ('queued', 'moving') and attempts > 0)
           order by updated_at desc limit ?`,
      ).all(limit) as Row[]
    ).map(fileOf);
  }

  /** The latest finished files (done or rejected), newest first. */
  recent(limit = 20): StationFile[] {
    return (
      this.prep(
        `select * from station_files where state in ('done', 'rejected') order by updated_at desc, id desc limit ?`,
      ).all(limit) as Row[]
    ).map(fileOf);
  }

  get(id: number): StationFile | null {
    const row = this.prep(`select * from station_files where id = ?`).get(id) as Row | undefined;
    return row ? fileOf(row) : null;
  }

  private set(id: number, from: StationState, to: { state: StationState }): void {
    this.prep(`update station_files set state = ?, updated_at = ? where id = ? and state = ?`).run(
      to.state,
      this.now(),
      id,
      from,
    );
  }
}
