/**
 * Operations (issue 29): the Prometheus metrics scraped over real HTTP, on the main port with the token
 * and on the metrics port; request counters that move, labelled by route pattern (never an id); the
 * admission gate's refusals counted; background job depth and failures; the request id answered back and
 * kept in the audit record of the request; GET /ready going 503 when the database or the file store fails.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsAddress } from '../../src-server/http/metrics';
import { PermanentJobError } from '../../src-server/jobs/queue';
import { call, makeUser, signIn, startHarness, unique, type Harness, type TestUser } from './support/harness';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample in Prometheus' text format (labels in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('metrics on the main port and on their own', () => {
  let h: Harness;
  let admin: TestUser;
  let token: string;
  let mainUrl: string;
  let metricsUrl: string;

  beforeAll(async () => {
    h = await startHarness({ METRICS_TOKEN: TOKEN, METRICS_PORT: '0', JOBS_WORKER: '1' });
    admin = await makeUser(h, 'admin');
    token = await signIn(h, admin);
    mainUrl = await h.app.listen({ host: '127.0.0.1', port: 0 });
    const address = metricsAddress(h.app);
    expect(address).not.toBeNull();
    metricsUrl = `http://127.0.0.1:${address!.port}/metrics`;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const scrapeMain = async () => {
    const res = await fetch(`${mainUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return res.text();
  };
  const scrapePort = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    return res.text();
  };

  it('answers the main port only with the token', async () => {
    expect((await fetch(`${mainUrl}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${mainUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { status: number }).status).toBe(401);
    // A session's token is no metrics token.
    const session = await fetch(`${mainUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(session.status).toBe(401);
    const text = await scrapeMain();
    // Node's own metrics are there, and ours.
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^# TYPE sijill_http_requests_total counter$/m);
    expect(text).toMatch(/^# TYPE sijill_pdf_check_seconds histogram$/m);
    expect(text).toMatch(/^# TYPE sijill_ocr_page_seconds histogram$/m);
    // The pool's connections on PostgreSQL; on the embedded database the admission gate stands for it.
    if (process.env.SIJILL_TEST_DATABASE_URL)
      expect(sample(text, 'sijill_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    else expect(sample(text, 'sijill_db_pool_connections')).toBeUndefined();
    expect(sample(text, 'sijill_admission_requests', { state: 'waiting' })).toBe(0);
    // The metrics port answers nothing but GET /metrics.
    expect((await fetch(metricsUrl.replace(/\/metrics$/, '/health'))).status).toBe(404);
  });

  it('counts requests by route pattern and status, never by the ids in their paths', async () => {
    const labels = { method: 'GET', route: '/auth/users/:id', status: '200' };
    const before = sample(await scrapePort(), 'sijill_http_requests_total', labels) ?? 0;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${mainUrl}/auth/users/${admin.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
    }
    const missing = await fetch(`${mainUrl}/auth/users/987654321`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(missing.status).toBe(404);
    await fetch(`${mainUrl}/no/such/path/4242`);

    const text = await scrapePort();
    expect(sample(text, 'sijill_http_requests_total', labels)).toBe(before + 3);
    expect(sample(text, 'sijill_http_requests_total', { ...labels, status: '404' })).toBe(1);
    expect(
      sample(text, 'sijill_http_request_duration_seconds_count', { method: 'GET', route: '/auth/users/:id' }),
    ).toBeGreaterThanOrEqual(before + 4);
    // A path no route took is counted as unmatched, its path nowhere.
    expect(sample(text, 'sijill_http_requests_total', { route: '(unmatched)', status: '404' })).toBe(1);
    expect(text).not.toContain('4242');
    expect(text).not.toContain('987654321');
    expect(text).not.toContain(`/auth/users/${admin.id}"`);
    // Both ways of scraping read the same registry.
    expect(sample(await scrapeMain(), 'sijill_http_requests_total', labels)).toBe(before + 3);
  });

  it('counts background jobs by kind and state, and the failed runs', async () => {
    const failing = unique('metrics.fail');
    h.jobs.register(failing, async () => {
      throw new PermanentJobError('refused for the test');
    });
    const waiting = unique('metrics.wait'); // no handler: stays queued
    await h.jobs.enqueue(h.database.db, waiting, {});
    await h.jobs.enqueue(h.database.db, waiting, {});
    await h.jobs.enqueue(h.database.db, failing, {});
    await waitFor('the failing job to be dead', async () => {
      const rows = await h.query<{ state: string }>(
        `select state from background_jobs where kind = '${failing}'`,
      );
      return rows[0]?.state === 'dead';
    });
    const text = await scrapePort();
    expect(sample(text, 'sijill_jobs', { kind: waiting, state: 'queued' })).toBe(2);
    expect(sample(text, 'sijill_jobs', { kind: failing, state: 'dead' })).toBe(1);
    expect(sample(text, 'sijill_job_runs_total', { kind: failing, outcome: 'dead' })).toBe(1);
  });

  it('answers the proxy’s request id, or a new one, and keeps it in the audit record', async () => {
    const given = `proxy-${unique('rid')}-0123456789`;
    const res = await call(h, {
      method: 'POST',
      url: '/auth/login',
      body: { login: admin.username, password: admin.password },
      headers: { 'x-request-id': given },
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe(given);
    const [audit] = await h.query<{ request_id: string | null }>(
      `select details->>'requestId' as request_id from audit_log
        where action = 'auth.login.success' and actor_id = ${admin.id} order by id desc limit 1`,
    );
    expect(audit?.request_id).toBe(given);

    // A malformed one (too short, a space, a quote) is not taken: a new id instead.
    for (const bad of ['short', 'has a space in it', 'quote"0123456789']) {
      const other = await call(h, { method: 'GET', url: '/health', headers: { 'x-request-id': bad } });
      expect(other.headers['x-request-id']).not.toBe(bad);
      expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    // None sent: one made, different each time, on refusals too.
    const a = await call(h, { method: 'GET', url: '/auth/profile' });
    const b = await call(h, { method: 'GET', url: '/auth/profile' });
    expect(a.status).toBe(401);
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('is ready while the database answers and the file store takes a file', async () => {
    const ready = await call(h, { method: 'GET', url: '/ready' });
    expect(ready.status).toBe(200);
    expect(ready.json).toEqual({ data: { status: 'ready', database: 'ok', files: 'ok' } });
    // /health keeps its answer (the desktop reads the upload limit from it).
    const health = await call(h, { method: 'GET', url: '/health' });
    expect(health.status).toBe(200);
    expect(health.json.data).toMatchObject({ status: 'ok', uploadMaxBytes: h.config.UPLOAD_MAX_BYTES });

    // The store's folder replaced by a file: nothing can be written there.
    rmSync(h.filesDir, { recursive: true, force: true });
    writeFileSync(h.filesDir, 'not a folder');
    try {
      const broken = await call(h, { method: 'GET', url: '/ready' });
      expect(broken.status).toBe(503);
      expect(broken.json).toEqual({ data: { status: 'unavailable', database: 'ok', files: 'failed' } });
      expect((await call(h, { method: 'GET', url: '/health' })).status).toBe(200);
    } finally {
      rmSync(h.filesDir, { force: true });
      mkdirSync(h.filesDir);
    }
    expect((await call(h, { method: 'GET', url: '/ready' })).status).toBe(200);
  });
});

describe('metrics of a busy embedded database, and readiness without it', () => {
  let h: Harness;
  let token: string;
  let metricsUrl: string;
  beforeAll(async () => {
    h = await startHarness({
      METRICS_PORT: '0',
      DB_CONCURRENCY: '1',
      DB_QUEUE_MAX: '3',
      DB_QUEUE_WAIT_MS: '1000',
    });
    token = await signIn(h, await makeUser(h, 'admin'));
    metricsUrl = `http://127.0.0.1:${metricsAddress(h.app)!.port}/metrics`;
    // Closed by the test: the harness's close must not close it twice.
    const close = h.database.close.bind(h.database);
    let closing: Promise<void> | undefined;
    h.database.close = () => (closing ??= close());
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('answers /metrics on the main port 404 without a token configured', async () => {
    const res = await call(h, {
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(404);
  });

  it('counts the requests the admission gate refused', async () => {
    const before = await (await fetch(metricsUrl)).text();
    const refusedBefore =
      (sample(before, 'sijill_admission_rejected_total', { reason: 'full' }) ?? 0) +
      (sample(before, 'sijill_admission_rejected_total', { reason: 'timeout' }) ?? 0);
    const burst = await Promise.all(
      Array.from({ length: 40 }, () =>
        h.app.inject({ url: '/auth/users', headers: { authorization: `Bearer ${token}` } }),
      ),
    );
    const busy = burst.filter((r) => r.statusCode === 503).length;
    expect(busy).toBeGreaterThan(0);
    // Probes are never held nor refused by the gate.
    expect((await call(h, { method: 'GET', url: '/ready' })).status).toBe(200);

    const after = await (await fetch(metricsUrl)).text();
    const refused =
      (sample(after, 'sijill_admission_rejected_total', { reason: 'full' }) ?? 0) +
      (sample(after, 'sijill_admission_rejected_total', { reason: 'timeout' }) ?? 0);
    expect(refused - refusedBefore).toBe(busy);
    expect(sample(after, 'sijill_http_requests_total', { route: '/auth/users', status: '503' })).toBe(busy);
    expect(sample(after, 'sijill_admission_requests', { state: 'waiting' })).toBe(0);
  });

  it('goes 503 once the database is closed, and stays alive', async () => {
    await h.database.close();
    const res = await call(h, { method: 'GET', url: '/ready' });
    expect(res.status).toBe(503);
    expect(res.json).toEqual({ data: { status: 'unavailable', database: 'failed', files: 'ok' } });
    expect((await call(h, { method: 'GET', url: '/health' })).status).toBe(200);
    // A scrape still answers (the job counts are left out).
    const text = await (await fetch(metricsUrl)).text();
    expect(text).toMatch(/^# TYPE sijill_http_requests_total counter$/m);
  });
});
