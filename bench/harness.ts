/**
 * What the server benchmarks share: autocannon in a child process (the load generator must not share
 * the server's event loop, nor its core when it can be helped) and percentiles of measured times.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadConfig, type ServerConfig } from '../src-server/config';
import { startServer, type RunningServer } from '../src-server/server';

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface LoadOptions {
  method?: 'GET' | 'POST';
  token?: string;
  /** A JSON body (sent with content-type application/json). */
  body?: string;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  latency: { p50: number; p90: number; p97_5: number; p99: number; max: number };
  reqPerSec: number;
  non2xx: number;
}

/** Runs autocannon against `url` and answers its client-side latencies, throughput and refusals. */
export async function autocannon(url: string, opts: LoadOptions): Promise<LoadResult> {
  const args = [AUTOCANNON, '--json', '-c', String(opts.connections), '-d', String(opts.seconds)];
  args.push('-m', opts.method ?? 'GET', '-H', 'accept=application/json');
  if (opts.token) args.push('-H', `authorization=Bearer ${opts.token}`);
  if (opts.body) args.push('-H', 'content-type=application/json', '-b', opts.body);
  args.push(url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}`);
  const r = JSON.parse(out) as {
    latency: LoadResult['latency'];
    requests: { average: number };
    non2xx: number;
  };
  return { latency: r.latency, reqPerSec: Math.round(r.requests.average), non2xx: r.non2xx };
}

/** The p-th percentile (nearest rank) of ascending `sorted` values; 0 when there are none. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The median (upper middle of an even count) of values in any order; 0 when there are none. */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * The server configuration the benchmarks use: a free port on 127.0.0.1, quiet, no sign-in rate limit;
 * `extra` adds or overrides settings. Without `databaseUrl`, PGlite in `dataDir`.
 */
export function benchConfig(
  dataDir: string,
  databaseUrl?: string,
  extra: Record<string, string> = {},
): ServerConfig {
  return loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    // Benchmarks measure requests: no background work (search reading and indexing) competes with them.
    JOBS_WORKER: '0',
    ...extra,
  });
}

/**
 * The API server on `databaseUrl` as the benchmarks run it (a free port, quiet, no sign-in rate limit),
 * recording Fastify's own time for each request answered while a label is set with `measuring(label)`
 * (which starts that label's list afresh; `measuring('')` stops). `timings` holds each label's times.
 */
export async function startMeasuredServer(
  databaseUrl: string,
  dataDir: string,
): Promise<{ server: RunningServer; timings: Map<string, number[]>; measuring(label: string): void }> {
  const timings = new Map<string, number[]>();
  let current = '';
  const server = await startServer(benchConfig(dataDir, databaseUrl), {
    configureApp: (app) =>
      app.addHook('onResponse', async (_request, reply) => {
        if (current) timings.get(current)!.push(reply.elapsedTime);
      }),
  });
  return {
    server,
    timings,
    measuring(label) {
      if (label) timings.set(label, []);
      current = label;
    },
  };
}

/**
 * Signs a demo account in over HTTP (skipping the two-factor enrolment the demo accounts are offered at
 * first sign-in, as a user may) and checks the token opens the incoming box. Answers the access token.
 */
export async function signInDemo(baseUrl: string, login: string, password: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ data: { accessToken?: string; challengeToken?: string } }>);
  const signedIn = await post('/auth/login', { login, password });
  let token = signedIn.data.accessToken;
  if (!token && signedIn.data.challengeToken)
    token = (await post('/auth/two-factor/skip', { challengeToken: signedIn.data.challengeToken })).data
      .accessToken;
  if (!token) throw new Error(`sign-in of ${login} failed`);
  const probe = await fetch(`${baseUrl}/correspondence/boxes/incoming`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (probe.status !== 200)
    throw new Error(`the incoming box answered ${probe.status}: ${await probe.text()}`);
  return token;
}

/** Signs a benchmark user in over HTTP with a password (no two-factor); answers the access token. */
export async function signInPassword(baseUrl: string, login: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in ${login}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}
