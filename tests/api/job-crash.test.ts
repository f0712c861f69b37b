/**
 * Background jobs after a crash (issue 23, item 8), with real server processes (`src-server/cli.ts
 * serve`) killed with SIGKILL while they read a scan by OCR. The lease is an hour (JOBS_LEASE_SECONDS),
 * so a job done within the wait was taken back because its worker was known dead, not because its lease
 * ran out; every wait polls for the state it expects, with a ceiling of minutes, and no figure of time
 * is asserted (bench/jobs measures how long it takes).
 *
 * - On PGlite: the server killed mid-reading and started again on its data reads the scan to the end.
 * - On PostgreSQL (SIJILL_TEST_DATABASE_URL), two servers share the database: a job held by a live
 *   server is never taken by the other (its attempts stay 1), and the job of the one killed mid-reading
 *   is taken over by the survivor (attempt 2) — at once, not an hour later.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canMakePdfs, makeScannedPdf } from '../support/pdf-makers';

const ROOT = resolve(import.meta.dirname, '../..');
/** The ceiling of every wait on real work (a server starting, a scan read): a guard against a hang. */
const CEILING_MS = 8 * 60_000;
const ADMIN = { username: 'crash-admin', email: 'crash-admin@sijill.test', password: 'Crash#2026-admin' };

if (!canMakePdfs())
  console.warn('job-crash.test.ts: skipped, no Chromium at /usr/bin/chromium (CHROMIUM_PATH) to draw scans');

interface Server {
  process: ChildProcess;
  pid: number;
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const servers: Server[] = [];
const dirs: string[] = [];

/** Starts the server as TypeScript on `dataDir` (and `databaseUrl`, if given); resolves once it listens. */
async function startServer(dataDir: string, databaseUrl?: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-server/cli.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...env,
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
      JOBS_LEASE_SECONDS: '3600',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (d: Buffer) => {
    tail = (tail + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const url = await new Promise<string>((resolveUrl, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no "listening on" in time:\n${tail}`)), CEILING_MS);
    child.stdout!.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = seen.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before listening:\n${tail}`));
    });
  });
  const server = { process: child, pid: child.pid!, url, output: () => tail, exited };
  servers.push(server);
  return server;
}

async function request<T>(server: Server, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}\n--- server:\n${server.output()}`);
  return (JSON.parse(text) as { data: T }).data;
}

type SignIn = { accessToken?: string; challengeToken?: string };
async function tokenOf(server: Server, data: SignIn): Promise<string> {
  if (data.accessToken) return data.accessToken;
  const skipped = await request<SignIn>(server, 'POST', '/auth/two-factor/skip', undefined, {
    challengeToken: data.challengeToken,
  });
  return skipped.accessToken!;
}

/** The first administrator (a fresh database) or a sign-in; answers a token. */
async function administrator(server: Server, fresh: boolean): Promise<string> {
  if (fresh)
    await request<SignIn>(server, 'POST', '/setup', undefined, { ...ADMIN, nameAr: 'مدير', nameEn: 'Admin' });
  return tokenOf(
    server,
    await request<SignIn>(server, 'POST', '/auth/login', undefined, {
      login: ADMIN.username,
      password: ADMIN.password,
    }),
  );
}

/** Sends a scan to intake; answers its document and attachment. */
async function sendScan(server: Server, token: string, path: string) {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(path)], { type: 'application/pdf' }), 'scan.pdf');
  const res = await fetch(`${server.url}/correspondence/intake`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'idempotency-key': `crash:${randomBytes(8).toString('hex')}`,
    },
    body: form,
  });
  if (res.status !== 201) throw new Error(`intake: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { documentId: number; attachmentId: number } }).data;
}

/** Polls `read` until `done` holds for its answer; fails with `what` at the ceiling. */
async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + CEILING_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The text status of an attachment, as the API says. */
async function textStatus(server: Server, token: string, doc: { documentId: number; attachmentId: number }) {
  const list = await request<{ id: number; text: { status: string } }[]>(
    server,
    'GET',
    `/correspondence/documents/${doc.documentId}/attachments`,
    token,
  );
  return list.find((a) => a.id === doc.attachmentId)?.text.status ?? 'missing';
}

/** Whether a process runs (a zombie, its command line gone, does not). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').length > 0;
  } catch {
    return false;
  }
}

let scans: string[] = [];

beforeAll(async () => {
  if (!canMakePdfs()) return;
  const pdfDir = mkdtempSync(join(tmpdir(), 'sijill-crash-pdf-'));
  dirs.push(pdfDir);
  // Two pages each: reading takes long enough to be caught in the middle.
  for (const n of [1, 2, 3])
    scans.push(
      await makeScannedPdf(
        [
          [`خطاب رقم ${n} بشأن اعتماد الميزانية`, `Letter ${n} on the budget`],
          [`الصفحة الثانية من الخطاب ${n}`, `Second page of letter ${n}`],
        ],
        pdfDir,
      ),
    );
}, CEILING_MS);

afterAll(async () => {
  for (const s of servers)
    if (s.process.exitCode === null && s.process.signalCode === null) {
      s.process.kill('SIGKILL');
      await s.exited;
    }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  scans = [];
});

describe.skipIf(!canMakePdfs())('a server killed mid-job', () => {
  it(
    'on PGlite: started again on its data, it takes its jobs back and reads the scan to the end',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'sijill-crash-data-'));
      dirs.push(dataDir);
      const first = await startServer(dataDir);
      const token = await administrator(first, true);
      const doc = await sendScan(first, token, scans[0]!);
      await until(
        'the scan being read',
        () => textStatus(first, token, doc),
        (s) => s === 'reading',
      );
      first.process.kill('SIGKILL');
      await first.exited;

      const again = await startServer(dataDir);
      // The lease is an hour: done means the job was taken back because its worker was gone.
      const status = await until(
        'the scan read after the restart',
        () => textStatus(again, token, doc),
        (s) => s === 'done' || s === 'failed',
      );
      expect(status, again.output()).toBe('done');
      again.process.kill('SIGTERM');
      expect(await again.exited).toEqual({ code: 0, signal: null });
    },
    3 * CEILING_MS,
  );

  it.runIf(!!process.env.SIJILL_TEST_DATABASE_URL)(
    'on PostgreSQL: a live peer’s job is never taken; a killed one’s is taken over by the survivor',
    async () => {
      const base = process.env.SIJILL_TEST_DATABASE_URL!;
      const name = `sijill_crash_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      const db = new pg.Client({ connectionString: url.toString() });
      try {
        // One file folder for both (content-addressed): either may read what the other received.
        const dataDir = mkdtempSync(join(tmpdir(), 'sijill-crash-shared-'));
        dirs.push(dataDir);
        const a = await startServer(dataDir, url.toString());
        const token = await administrator(a, true);
        const b = await startServer(dataDir, url.toString());
        await db.connect();
        const job = async (attachmentId: number) =>
          (
            await db.query<{ state: string; attempts: number; locked_by: string | null }>(
              `select state, attempts, locked_by from background_jobs
                where kind = 'search.read' and payload->>'attachmentId' = $1 order by id desc limit 1`,
              [String(attachmentId)],
            )
          ).rows[0] ?? { state: 'none', attempts: 0, locked_by: null };

        // Read while both live: whichever server holds it keeps it, the other polling all the while.
        const kept = await sendScan(a, token, scans[1]!);
        const running = await until(
          'the first scan claimed',
          () => job(kept.attachmentId),
          (j) => j.state === 'running',
        );
        const done = await until(
          'the first scan read',
          () => job(kept.attachmentId),
          (j) => j.state === 'done',
        );
        expect(done.attempts, `held by ${running.locked_by}, taken by the other`).toBe(1);
        expect(await textStatus(b, token, kept)).toBe('done');

        // Killed mid-reading: the survivor takes the job over.
        const lost = await sendScan(a, token, scans[2]!);
        const held = await until(
          'the second scan being read',
          async () => ({ job: await job(lost.attachmentId), text: await textStatus(a, token, lost) }),
          (s) => s.job.state === 'running' && s.text === 'reading',
        );
        const holderPid = Number(held.job.locked_by!.split(':')[1]);
        const [victim, survivor] = holderPid === a.pid ? [a, b] : [b, a];
        expect(victim.pid, `the job is held by ${held.job.locked_by}`).toBe(holderPid);
        victim.process.kill('SIGKILL');
        await victim.exited;
        const after = await until(
          'the second scan read by the survivor',
          () => job(lost.attachmentId),
          (j) => j.state === 'done' || j.state === 'dead',
        );
        expect(after, survivor.output()).toMatchObject({ state: 'done', attempts: 2 });
        expect(await textStatus(survivor, token, lost)).toBe('done');
        expect(alive(victim.pid)).toBe(false);
        survivor.process.kill('SIGTERM');
        expect(await survivor.exited).toEqual({ code: 0, signal: null });
      } finally {
        await db.end().catch(() => undefined);
        for (const s of servers)
          if (s.process.exitCode === null && s.process.signalCode === null) {
            s.process.kill('SIGKILL');
            await s.exited;
          }
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    4 * CEILING_MS,
  );
});
