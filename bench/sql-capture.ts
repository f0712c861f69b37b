/**
 * Raw SQL beside the server: the statements the server issues for a request, captured at the pg driver
 * (drizzle's node-postgres), then replayed with the same parameters on plain connections, and each one's
 * EXPLAIN ANALYZE execution time. The benchmarks compare the server's time with these.
 */
import pg from 'pg';
import { percentile } from './harness';

export interface Statement {
  text: string;
  values: unknown[];
}

const round = (v: number) => Math.round(v * 100) / 100;
let capture: Statement[] | null = null;
let installed = false;

/** Patches pg's client once so that statements are recorded between startCapture() and stopCapture(). */
export function captureStatements(): void {
  if (installed) return;
  installed = true;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: pg.Client,
    ...args: unknown[]
  ) {
    if (capture) {
      const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
      const text = typeof config === 'string' ? config : config.text;
      const params = values ?? (typeof config === 'string' ? [] : (config.values ?? []));
      capture.push({ text, values: params });
    }
    return original.apply(this, args);
  };
}

/** Starts recording statements (afresh). */
export function startCapture(): void {
  capture = [];
}

/** Stops recording; answers what was recorded. */
export function stopCapture(): Statement[] {
  const out = capture ?? [];
  capture = null;
  return out;
}

/** A connection set as the server's pool sets each of its own (src-server/db/open.ts: no JIT). */
async function serverLikeClient(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query('set jit = off');
  return c;
}

/** Replays statements in order on `connections` connections in parallel; p50/p95 of one replay, in ms. */
export async function replay(url: string, statements: Statement[], runs: number, connections = 1) {
  const clients = await Promise.all(Array.from({ length: connections }, () => serverLikeClient(url)));
  const once = async (c: pg.Client) => {
    const t = performance.now();
    for (const s of statements) await c.query(s.text, s.values);
    return performance.now() - t;
  };
  try {
    for (const c of clients) for (let i = 0; i < 5; i++) await once(c); // warm-up
    const times: number[] = [];
    let left = runs;
    await Promise.all(
      clients.map(async (c) => {
        while (left-- > 0) times.push(await once(c));
      }),
    );
    times.sort((a, b) => a - b);
    return { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)) };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/**
 * EXPLAIN ANALYZE's execution time of each statement (the server side of the raw SQL), in ms; a
 * transaction's own statements (begin, commit, set transaction…) have none and are left out.
 */
export async function explain(url: string, statements: Statement[]) {
  const c = await serverLikeClient(url);
  try {
    const out: number[] = [];
    for (const s of statements) {
      // A transaction's own settings (search's `set local enable_seqscan = off`) hold for the statements
      // after them: here, on the session.
      if (/^\s*set\s+local\s+/i.test(s.text)) await c.query(s.text.replace(/local\s+/i, ''));
      if (!/^\s*(select|with|insert|update|delete)\b/i.test(s.text)) continue;
      const r = await c.query<{ 'QUERY PLAN': { 'Execution Time': number }[] }>(
        `explain (analyze, format json) ${s.text}`,
        s.values,
      );
      out.push(round(r.rows[0]!['QUERY PLAN'][0]!['Execution Time']));
    }
    return out;
  } finally {
    await c.end();
  }
}
