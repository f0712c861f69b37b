/**
 * What the station and files benchmarks share: the API server as a separate process (`npm run server`'s
 * bundle, `serve`, on its own PGlite folder, so its memory is not mixed with the benchmark's), its first
 * administrator, signing in, valid PDFs written to disk a chunk at a time (never held whole), memory read
 * from /proc (Linux), and a plain results table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as prettier from 'prettier';

export const ROOT = resolve(import.meta.dirname, '../..');
export const MB = 1024 * 1024;

export const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------------------------------ processes

/** A child process started by the benchmark, with the tail of what it printed. */
export interface Child {
  process: ChildProcess;
  pid: number;
  /** The last lines of its stdout and stderr (for error messages). */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Every child still running: killed when this process exits, however it ends (no server left behind). */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `node --import tsx <args>` (the node process itself: its pid is the one measured). */
export function spawnNode(args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let tail = '';
  const keep = (d: Buffer) => {
    tail = (tail + d.toString()).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });
  return {
    process: child,
    pid: child.pid!,
    output: () => tail,
    async stop(graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the first match of `pattern` in the child's stdout; rejects if it exits first or times out. */
export function waitForLine(child: Child, pattern: RegExp, timeoutMs = 90_000): Promise<RegExpMatchArray> {
  return new Promise((resolveLine, reject) => {
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d.toString();
      const m = seen.match(pattern);
      if (m) {
        cleanup();
        resolveLine(m);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`process exited (${code}) before ${pattern}:\n${child.output()}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no ${pattern} after ${timeoutMs} ms:\n${child.output()}`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.process.stdout?.off('data', onData);
      child.process.off('exit', onExit);
    };
    child.process.stdout?.on('data', onData);
    child.process.once('exit', onExit);
  });
}

/** The API server (`npm run server`) as a child process on PGlite in `dataDir`, on a free port. */
let bundle: Promise<{ entry: string; nodeFlags: string[]; env: Record<string, string> }> | undefined;
/** The server bundle `npm run server` runs, its Node flags and environment, built once for this run. */
function serverBundle(): Promise<{ entry: string; nodeFlags: string[]; env: Record<string, string> }> {
  bundle ??= (async () => {
    const built = (await import(pathToFileURL(join(ROOT, 'scripts/build-server.mjs')).href)) as {
      buildServer(options?: { outDir?: string }): Promise<string>;
      SERVER_NODE_FLAGS: string[];
      SERVER_ENV: Record<string, string>;
    };
    const entry = await built.buildServer({ outDir: join(ROOT, 'out/bench-server') });
    return { entry, nodeFlags: built.SERVER_NODE_FLAGS, env: built.SERVER_ENV };
  })();
  return bundle;
}

export async function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
  /** How long it may take to listen (a first start on a loaded machine takes long). */
  listenTimeoutMs = 90_000,
): Promise<Child & { url: string }> {
  // BENCH_SERVER_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops (diagnosis).
  const profile = process.env.BENCH_SERVER_CPU_PROF;
  const flags = profile ? ['--cpu-prof', '--cpu-prof-dir', resolve(profile)] : [];
  // BENCH_SERVER_FLAGS='--a --b': more Node/V8 flags for the server (to measure one before it is shipped).
  flags.push(...(process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean));
  // The server as `npm run server` runs it: the bundle (scripts/build-server.mjs, built once a run) with
  // the server's Node flags.
  const { entry, nodeFlags, env: serverEnv } = await serverBundle();
  const child = spawnNode([...nodeFlags, ...flags, entry, 'serve'], {
    ...serverEnv,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
  const [, url] = await waitForLine(child, /listening on (http:\/\/[^\s]+)/, listenTimeoutMs);
  return Object.assign(child, { url: url! });
}

// ------------------------------------------------------------------------------------------- the API

export interface Answer<T = unknown> {
  status: number;
  body: { data?: T; detail?: string } | null;
}

/** One JSON request; answers the status and the parsed body. */
export async function api<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': 'en' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  let body: Answer<T>['body'] = null;
  try {
    body = text ? (JSON.parse(text) as Answer<T>['body']) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

/** The same, throwing unless the status is `expected`. */
export async function must<T = unknown>(
  expected: number,
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<T> {
  const answer = await api<T>(baseUrl, method, path, opts);
  if (answer.status !== expected)
    throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body!.data!;
}

type SignInAnswer = { accessToken?: string; challengeToken?: string };

/** Ends a sign-in that offers two-factor enrolment by skipping it (as a user may); answers the token. */
async function finish(baseUrl: string, data: SignInAnswer): Promise<string> {
  if (data.accessToken) return data.accessToken;
  if (!data.challengeToken) throw new Error('sign-in answered neither a token nor a challenge');
  const skipped = await must<SignInAnswer>(200, baseUrl, 'POST', '/auth/two-factor/skip', {
    body: { challengeToken: data.challengeToken },
  });
  if (!skipped.accessToken) throw new Error('skipping two-factor gave no token');
  return skipped.accessToken;
}

export const BENCH_ADMIN = {
  username: 'bench-admin',
  email: 'bench-admin@sijill.test',
  password: 'Bench#2026-admin',
};

/** Creates the first administrator through POST /setup (a fresh server) and answers its token. */
export async function firstAdmin(baseUrl: string): Promise<string> {
  const data = await must<SignInAnswer>(201, baseUrl, 'POST', '/setup', {
    body: { ...BENCH_ADMIN, nameAr: 'مدير القياس', nameEn: 'Bench admin' },
  });
  return finish(baseUrl, data);
}

/** Signs in with a password (skipping the two-factor enrolment offer); answers the token. */
export async function signIn(baseUrl: string, login: string, password: string): Promise<string> {
  return finish(
    baseUrl,
    await must<SignInAnswer>(200, baseUrl, 'POST', '/auth/login', { body: { login, password } }),
  );
}

// ---------------------------------------------------------------------------------------------- PDFs

/**
 * Writes a valid one-page PDF to `path` a chunk at a time: the page shows a grey-scale image of random
 * pixels (uncompressed, so `imageBytes` is about the file's size, as a scan's image is) and a line of
 * text `note`. The image is written in 1 MB chunks and the xref offsets are counted as the file grows,
 * so a 200 MB file costs the memory of one chunk. Answers the size and sha256.
 */
export async function writePdf(
  path: string,
  imageBytes: number,
  note: string,
): Promise<{ size: number; sha256: string }> {
  // An image of width × height = imageBytes (one byte a pixel); the width divides it.
  let width = Math.min(imageBytes, Math.max(1, Math.floor(Math.sqrt(imageBytes))));
  while (imageBytes % width) width--;
  const height = imageBytes / width;
  const file = await open(path, 'wx');
  const hash = createHash('sha256');
  let offset = 0;
  const offsets: number[] = [];
  const write = async (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    hash.update(bytes);
    await file.write(bytes);
    offset += bytes.length;
  };
  const object = async (text: string) => {
    offsets.push(offset);
    await write(`${offsets.length} 0 obj\n${text}\nendobj\n`);
  };
  try {
    await write('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
    await object('<< /Type /Catalog /Pages 2 0 R >>');
    await object('<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
    await object(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R ' +
        '/Resources << /XObject << /Im0 5 0 R >> /Font << /F1 6 0 R >> >> >>',
    );
    const content = `q 495 0 0 ${Math.round((495 * height) / width)} 50 120 cm /Im0 Do Q BT /F1 12 Tf 50 80 Td (${note.replace(/[()\\]/g, '')}) Tj ET`;
    await object(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    offsets.push(offset);
    await write(
      `5 0 obj\n<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray ` +
        `/BitsPerComponent 8 /Length ${imageBytes} >>\nstream\n`,
    );
    for (let left = imageBytes; left > 0;) {
      const n = Math.min(left, MB);
      await write(randomBytes(n));
      left -= n;
    }
    await write('\nendstream\nendobj\n');
    await object('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
    const xref = offset;
    let table = `xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`;
    for (const off of offsets) table += `${String(off).padStart(10, '0')} 00000 n \n`;
    await write(
      `${table}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    );
  } finally {
    await file.close();
  }
  return { size: offset, sha256: hash.digest('hex') };
}

// -------------------------------------------------------------------------------------------- memory

/** VmRSS (now) and VmHWM (the peak so far, kept by the kernel) of a process, in MB; null once it is gone. */
export function procMemory(pid: number | 'self'): { rssMB: number; hwmMB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
    return { rssMB: round(kb('VmRSS') / 1024), hwmMB: round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

/** CPU time (user + system, seconds) a process has used so far, from /proc/<pid>/stat; null once it is gone. */
export function procCpuSeconds(pid: number | 'self'): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux build that matters. */
const CLOCK_TICKS = 100;

/**
 * Samples the resident memory of some processes every `everyMs` (`self`: this process, by
 * process.memoryUsage().rss), keeping each one's peak per phase (`phase(name)` starts one).
 */
export class MemorySampler {
  private readonly timer: NodeJS.Timeout;
  private current = 'start';
  /** phase → process name → peak RSS (MB) sampled in it. */
  readonly peaks = new Map<string, Map<string, number>>();
  /** Every sample: ms since the sampler started, the phase, each process's RSS (MB). */
  readonly timeline: { ms: number; phase: string; rssMB: Record<string, number> }[] = [];
  private readonly started = performance.now();
  samples = 0;

  constructor(
    private readonly targets: Record<string, number | 'self'>,
    everyMs = 50,
  ) {
    this.phase('start');
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  phase(name: string): void {
    this.sample();
    this.current = name;
    if (!this.peaks.has(name)) this.peaks.set(name, new Map());
    this.sample();
  }

  sample(): void {
    this.samples++;
    const peaks = this.peaks.get(this.current) ?? new Map<string, number>();
    this.peaks.set(this.current, peaks);
    const row: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.targets)) {
      const rss = pid === 'self' ? round(process.memoryUsage().rss / MB) : procMemory(pid)?.rssMB;
      if (rss === undefined || Number.isNaN(rss)) continue;
      peaks.set(name, Math.max(peaks.get(name) ?? 0, rss));
      row[name] = rss;
    }
    this.timeline.push({ ms: Math.round(performance.now() - this.started), phase: this.current, rssMB: row });
  }

  /** The timeline thinned to about `points` samples (for a results file). */
  thinned(points = 60): MemorySampler['timeline'] {
    const step = Math.max(1, Math.ceil(this.timeline.length / points));
    return this.timeline.filter((_, i) => i % step === 0 || i === this.timeline.length - 1);
  }

  peak(phase: string, name: string): number | null {
    return this.peaks.get(phase)?.get(name) ?? null;
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }
}

// ----------------------------------------------------------------------------------------------- table

/** A plain text table: the first row is the header. */
export function table(rows: (string | number | null)[][]): string {
  const cells = rows.map((r) => r.map((c) => (c === null ? '—' : String(c))));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

/** Writes a benchmark's results as JSON, formatted as the repository's Prettier wants it (lint stays clean). */
export async function writeResults(path: string, results: unknown): Promise<void> {
  const options = await prettier.resolveConfig(path);
  await writeFile(path, await prettier.format(JSON.stringify(results), { ...options, filepath: path }));
}
