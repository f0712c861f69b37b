/**
 * The server as `npm run server` runs it in production (scripts/server.mjs): the esbuild bundle of
 * scripts/build-server.mjs — cli.js, with pdf-check-worker.js, ocr-child.js and migrations/ beside it —
 * started as its own Node process with SERVER_NODE_FLAGS, over HTTP. The other API tests run the server
 * in-process as TypeScript, where the worker and the child are the .ts files started through tsx: only
 * here are the bundled scripts found beside the bundle and run.
 *
 * What guards what:
 * - the "listening on" line: the bundle builds, starts and applies the migrations copied beside it;
 * - /proc/<pid>/cmdline: the process runs the built entry with the server's Node flags;
 * - the batch's 201/415/422/415: the PDF checks answer as they should. They do NOT show where the checks
 *   ran: with pdf-check-worker.js deleted from the build before the start (tried), the server starts,
 *   every status is the same and nothing is logged, because storage/pdf-check-pool.ts then checks in the
 *   server's thread (its fallback for a deployment without the script). The test then fails on the
 *   file's absence ("… was not built"), and — for a worker present but not started or not starting
 *   (a wrong name or place, a script that throws as it loads) — on the worker thread count: the event
 *   loops of the server's Worker threads, seen in /proc (Linux), against a bare Node process's; with the
 *   file check taken out, the deleted worker gives 0 more where the pool's size (1 to 4) is expected,
 *   "the server runs no pdf-check-worker.js thread";
 * - the attachment's text `done` with the page's words: the search job read it through the OCR child,
 *   and the child seen among the server's processes is the bundle's ocr-child.js. With ocr-child.js
 *   missing (tried), the server logs nothing at warn and the attachment's text ends `failed` after its
 *   read attempts (~30 s): the test fails there, with the attachment and the server's output;
 * - a scan (no text layer) read by OCR in the child, then SIGTERM: exit code 0 within seconds, and the
 *   OCR child gone with it (no orphan) — a server that had read scans once ignored SIGTERM for minutes.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canMakePdfs, makeBornDigitalPdf, makeScannedPdf } from '../support/pdf-makers';
import { makeSeparatorSheet } from '../support/scan-makers';
import { defaultPdfCheckWorkers } from '../../src-server/storage/pdf-check-pool';
import { encryptedPdf, minimalPdf, pdfWith } from './support/files';

const ROOT = resolve(import.meta.dirname, '../..');
const linux = process.platform === 'linux';
/** A word of the born-digital PDF that the OCR child must read back from its text layer. */
const WORD = 'pomegranate';
/** How long the text of one small born-digital PDF may take to be read (the child starts cold). */
const TEXT_TIMEOUT_MS = 5 * 60_000;
/** The same for a one-page scan read by OCR (Tesseract loads its languages first). */
const SCAN_TIMEOUT_MS = 8 * 60_000;

if (!canMakePdfs())
  console.warn(
    'server-bundle.test.ts: the OCR child test is skipped, no Chromium at /usr/bin/chromium (CHROMIUM_PATH) to make a born-digital PDF',
  );

// ------------------------------------------------------------------------------------- the process

interface Server {
  process: ChildProcess;
  pid: number;
  url: string;
  /** What it printed (stdout and stderr, the last 20,000 characters), for failure messages. */
  output(): string;
  /** Resolves with its exit code and signal once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node <flags> <entry> serve` as scripts/server.mjs does; resolves once it is listening. */
async function startServer(entry: string, flags: string[], dataDir: string): Promise<Server> {
  // The environment `npm run server` would see: not vitest's NODE_ENV=test (it lowers argon2's cost).
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_ENV;
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key];
  const child = spawn(process.execPath, [...flags, entry, 'serve'], {
    cwd: ROOT,
    env: {
      ...env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '0',
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
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the bundled server printed no "listening on" in 5 minutes:\n${tail}`));
    }, 5 * 60_000);
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
      reject(new Error(`the bundled server exited (${code ?? signal}) before listening:\n${tail}`));
    });
  });
  return { process: child, pid: child.pid!, url, output: () => tail, exited };
}

// ----------------------------------------------------------------------------------------- /proc

/** The command line of a process (its arguments), or null once it is gone. */
function cmdline(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command name (in parentheses, which may hold spaces): state, then the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** epoll_wait, epoll_pwait, epoll_pwait2 on x86-64; epoll_pwait, epoll_pwait2 on arm64. */
const EPOLL_WAITS: Partial<Record<string, number[]>> = { x64: [232, 281, 441], arm64: [22, 441] };

/**
 * The names Node gives its own threads that run an event loop: `node` up to Node 22, `WorkerThread` for a
 * Worker from Node 24 (which names its main thread `MainThread` and V8's helpers `V8Worker`).
 */
const LOOP_THREAD_NAMES = ['node', 'WorkerThread'];

/**
 * The threads of process `pid`, other than its main thread, that are Node's (LOOP_THREAD_NAMES, not a
 * native library's) and sit waiting on an event loop: the Node platform's own (one in Node 20) and one for
 * each Worker thread. null where this cannot be read.
 */
function loopThreads(pid: number): number | null {
  const waits = EPOLL_WAITS[process.arch];
  if (!waits) return null;
  let count = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (Number(tid) === pid) continue;
    try {
      if (!LOOP_THREAD_NAMES.includes(readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim())) continue;
      const call = Number(readFileSync(`/proc/${pid}/task/${tid}/syscall`, 'utf8').split(' ')[0]);
      if (waits.includes(call)) count++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // the thread ended meanwhile
      return null; // /proc/…/syscall needs ptrace rights, which a hardened kernel may refuse
    }
  }
  return count;
}

/** Polls `read` until `done` holds for what it answers, or `ms` pass; answers the last answer. */
async function pollUntil<T>(read: () => T | Promise<T>, done: (v: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

// ------------------------------------------------------------------------------------------ the API

interface Answer {
  status: number;
  body: { data?: unknown; detail?: string; code?: string } | null;
  text: string;
}

async function request(
  method: string,
  path: string,
  opts: { token?: string; json?: unknown; body?: Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-language': 'en',
    ...opts.headers,
  };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.body,
  });
  const text = await res.text();
  let body: Answer['body'] = null;
  try {
    body = text ? (JSON.parse(text) as Answer['body']) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body, text };
}

/** The answer's data, failing with the answer and the server's output unless the status is `expected`. */
async function must<T>(expected: number, answer: Promise<Answer>, what: string): Promise<T> {
  const a = await answer;
  if (a.status !== expected)
    throw new Error(
      `${what}: ${a.status} (expected ${expected}) ${a.text.slice(0, 2000)}\n--- server:\n${server.output()}`,
    );
  return a.body!.data as T;
}

type SignInAnswer = { accessToken?: string; challengeToken?: string };

/** The token of a sign-in answer, skipping the two-factor enrolment it may offer. */
async function tokenOf(data: SignInAnswer): Promise<string> {
  if (data.accessToken) return data.accessToken;
  expect(data.challengeToken, 'sign-in answered neither a token nor a challenge').toBeTruthy();
  const skipped = await must<SignInAnswer>(
    200,
    request('POST', '/auth/two-factor/skip', { json: { challengeToken: data.challengeToken } }),
    'skipping two-factor',
  );
  expect(skipped.accessToken, 'skipping two-factor gave no token').toBeTruthy();
  return skipped.accessToken!;
}

/** A multipart body: the batch's manifest, then one `file` part a file, in order. */
function batchBody(files: { key: string; name: string; bytes: Buffer }[]) {
  const boundary = `----sijill${randomBytes(8).toString('hex')}`;
  const manifest = JSON.stringify({ files: files.map((f) => ({ key: f.key })) });
  const chunks: Buffer[] = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="manifest"\r\n\r\n${manifest}\r\n`),
  ];
  for (const f of files)
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\n` +
          'Content-Type: application/pdf\r\n\r\n',
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    body: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

// ---------------------------------------------------------------------------------------- the test

const ADMIN = { username: 'bundle-admin', email: 'bundle-admin@sijill.test', password: 'Bundle#2026-admin' };

let outDir: string;
let entry: string;
let flags: string[];
let dataDir: string;
let pdfDir: string;
let server: Server;
let token: string;
let validPdf: Buffer;
/** The document and attachment the valid PDF became. */
let made: { documentId: number; attachmentId: number } | undefined;
/** The OCR child seen running the bundle's ocr-child.js (checked to be gone after SIGTERM). */
let ocrChild: number | undefined;

beforeAll(async () => {
  // Inside the repository, so that the bundle's imports resolve from its node_modules.
  outDir = join(ROOT, 'out', `test-server-${randomBytes(6).toString('hex')}`);
  dataDir = mkdtempSync(join(tmpdir(), 'sijill-bundle-data-'));
  pdfDir = mkdtempSync(join(tmpdir(), 'sijill-bundle-pdf-'));
  const built = (await import(pathToFileURL(join(ROOT, 'scripts/build-server.mjs')).href)) as {
    buildServer(options?: { outDir?: string }): Promise<string>;
    SERVER_NODE_FLAGS: string[];
  };
  entry = await built.buildServer({ outDir });
  flags = built.SERVER_NODE_FLAGS;
  validPdf = canMakePdfs()
    ? readFileSync(
        await makeBornDigitalPdf(
          ['Quarterly report of the bundled server', `ledger ${WORD} harbour`],
          pdfDir,
        ),
      )
    : minimalPdf(`bundle ${randomBytes(4).toString('hex')}`);
  server = await startServer(entry, flags, dataDir);
  const setup = await must<SignInAnswer>(
    201,
    request('POST', '/setup', { json: { ...ADMIN, nameAr: 'مدير الحزمة', nameEn: 'Bundle admin' } }),
    'POST /setup',
  );
  await tokenOf(setup);
  token = await tokenOf(
    await must<SignInAnswer>(
      200,
      request('POST', '/auth/login', { json: { login: ADMIN.username, password: ADMIN.password } }),
      'POST /auth/login',
    ),
  );
}, 10 * 60_000);

afterAll(async () => {
  if (server && server.process.exitCode === null && server.process.signalCode === null) {
    server.process.kill('SIGKILL');
    await server.exited;
  }
  // The OCR child, should it have outlived its server (still running the bundle's script: not a reused pid).
  if (ocrChild && cmdline(ocrChild)?.includes(join(outDir, 'ocr-child.js')))
    process.kill(ocrChild, 'SIGKILL');
  if (outDir) rmSync(outDir, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  if (pdfDir) rmSync(pdfDir, { recursive: true, force: true });
});

describe('the bundled server (npm run server)', () => {
  it.runIf(linux)('runs the built entry with the server’s Node flags', () => {
    const args = cmdline(server.pid);
    expect(args, `no /proc/${server.pid}/cmdline`).not.toBeNull();
    expect(args).toEqual([process.execPath, ...flags, entry, 'serve']);
    // The memory flags (docs/decisions.md, "The embedded server's memory").
    expect(args).toEqual(expect.arrayContaining(['--liftoff-only', '--max-semi-space-size=2']));
  });

  it('checks uploaded PDFs in the bundle’s pdf-check-worker.js threads', async () => {
    const stamp = `${Date.now()}-${randomBytes(3).toString('hex')}`;
    const files = [
      { key: `bundle:${stamp}:valid`, name: 'valid.pdf', bytes: validPdf },
      {
        key: `bundle:${stamp}:text`,
        name: 'note.pdf',
        bytes: Buffer.from('plain text, not a PDF at all '.repeat(80)),
      },
      {
        key: `bundle:${stamp}:script`,
        name: 'script.pdf',
        bytes: pdfWith({
          catalog: '/OpenAction 5 0 R',
          objects: ['<< /S /JavaScript /JS (app.alert(1)) >>'],
        }),
      },
      { key: `bundle:${stamp}:locked`, name: 'locked.pdf', bytes: encryptedPdf() },
    ];
    const batch = batchBody(files);
    const data = await must<{
      results: {
        key: string;
        status: number;
        result?: { documentId: number; attachmentId: number | null };
        problem?: { status: number; code?: string; detail: string };
      }[];
    }>(
      200,
      request('POST', '/correspondence/intake/batch', { token, body: batch.body, headers: batch.headers }),
      'POST /correspondence/intake/batch',
    );
    const summary = JSON.stringify(data.results, null, 1);
    expect(
      data.results.map((r) => [r.key, r.status]),
      summary,
    ).toEqual(files.map((f, i) => [f.key, [201, 415, 422, 415][i]]));
    expect(data.results[2]!.problem?.code, summary).toBe('upload.activeContent');
    const valid = data.results[0]!.result;
    expect(valid?.attachmentId, summary).toEqual(expect.any(Number));
    made = { documentId: valid!.documentId, attachmentId: valid!.attachmentId! };

    const worker = join(outDir, 'pdf-check-worker.js');
    expect(existsSync(worker), `${worker} was not built`).toBe(true);

    // Where the checks ran: the statuses above are the same when the server checks in its own thread
    // (its silent fallback without the script). The Worker threads' event loops are counted against a
    // bare Node process's, on this Node; on the embedded database the pool has one worker
    // (defaultPdfCheckWorkers).
    if (!linux) return;
    // A check never draws: its workers load pdf.js without @napi-rs/canvas (Skia, about 45 MB; pdfjs.ts,
    // loadPdfJsWithoutDrawing), and nothing else in the server draws (the OCR child, its own process, does).
    expect(readFileSync(`/proc/${server.pid}/maps`, 'utf8')).not.toMatch(/napi-rs[/+]canvas|skia/);
    const pool = defaultPdfCheckWorkers(true);
    const bare = spawnSync(
      process.execPath,
      [
        ...flags,
        '-e',
        `const { readFileSync: r, readdirSync: d } = require('node:fs');
         const waits = ${JSON.stringify(EPOLL_WAITS[process.arch] ?? [])};
         const names = ${JSON.stringify(LOOP_THREAD_NAMES)};
         setTimeout(() => {
           let n = 0;
           for (const t of d('/proc/self/task')) {
             if (Number(t) === process.pid) continue;
             if (!names.includes(r('/proc/self/task/' + t + '/comm', 'utf8').trim())) continue;
             if (waits.includes(Number(r('/proc/self/task/' + t + '/syscall', 'utf8').split(' ')[0]))) n++;
           }
           console.log(n);
         }, 300);`,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    );
    const baseline = bare.status === 0 && /^\d+$/.test(bare.stdout.trim()) ? Number(bare.stdout) : null;
    // The workers idle on their loops once the checks are answered; a sample may catch one busy.
    const seen = await pollUntil(
      () => loopThreads(server.pid),
      (n) => n === null || baseline === null || n - baseline >= pool,
      60_000,
    );
    if (seen === null || baseline === null) {
      console.warn(
        `server-bundle.test.ts: cannot count the server's threads here (${process.arch}, ` +
          `/proc/…/syscall: ${seen}, bare Node: ${bare.stdout}${bare.stderr}); the worker check is skipped`,
      );
      return;
    }
    // At least: a Worker started by something else as well would add its loop too.
    expect(
      seen - baseline,
      `the server runs no pdf-check-worker.js thread (Node loop threads: server ${seen}, bare Node ${baseline}; ` +
        `expected ${pool} more): its PDF checks ran in its own thread\n--- server:\n${server.output()}`,
    ).toBeGreaterThanOrEqual(pool);
    // A ceiling over its own waits (the batch, then up to a minute for the threads to be seen idle).
  }, 240_000);

  it.runIf(canMakePdfs())(
    'reads the valid PDF’s text in the bundle’s ocr-child.js',
    async () => {
      expect(made, 'the batch made no attachment (see the test before)').toBeDefined();
      const { documentId, attachmentId } = made!;
      type Listed = { id: number; text: { status: string; pagesDone: number | null; pages: number | null } };
      const mine = (list: Listed[]) => list.find((a) => a.id === attachmentId);
      const list = await pollUntil(
        () =>
          must<Listed[]>(
            200,
            request('GET', `/correspondence/documents/${documentId}/attachments`, { token }),
            'GET …/attachments',
          ),
        (l) => ['done', 'failed'].includes(mine(l)?.text.status ?? ''),
        TEXT_TIMEOUT_MS,
      );
      const status = mine(list)?.text.status;
      expect(
        status,
        (status === 'failed'
          ? "the server could not read the attachment's text (its OCR child not found or broken?): "
          : `the attachment's text was not read in ${TEXT_TIMEOUT_MS / 1000} s: `) +
          `${JSON.stringify(list)}\n--- server:\n${server.output()}`,
      ).toBe('done');
      const text = await must<{ status: string; pages: { page: number; method: string; text: string }[] }>(
        200,
        request('GET', `/correspondence/documents/${documentId}/attachments/${attachmentId}/text`, { token }),
        'GET …/text',
      );
      expect(text.status).toBe('done');
      expect(text.pages.map((p) => p.method)).toEqual(['text']);
      expect(text.pages.map((p) => p.text).join('\n')).toContain(WORD);

      // The child that read it (idle for a minute before it ends) runs the bundle's script.
      if (!linux) return;
      const children = childrenOf(server.pid).map((pid) => ({ pid, args: cmdline(pid) ?? [] }));
      const child = children.find((c) => c.args.includes(join(outDir, 'ocr-child.js')));
      expect(
        child,
        `no child of the server runs ${outDir}/ocr-child.js: ${JSON.stringify(children)}`,
      ).toBeDefined();
      ocrChild = child!.pid;
    },
    TEXT_TIMEOUT_MS + 30_000,
  );

  it.runIf(canMakePdfs())(
    'reads a scan by OCR in the bundle’s ocr-child.js',
    async () => {
      const scan = readFileSync(await makeScannedPdf(['خطاب ممسوح ضوئيًا', 'A scanned letter'], pdfDir));
      const boundary = `----sijill${randomBytes(8).toString('hex')}`;
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\n` +
            'Content-Type: application/pdf\r\n\r\n',
        ),
        scan,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const doc = await must<{ documentId: number; attachmentId: number }>(
        201,
        request('POST', '/correspondence/intake', {
          token,
          body,
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'idempotency-key': `bundle:scan:${randomBytes(6).toString('hex')}`,
          },
        }),
        'POST /correspondence/intake (a scan)',
      );
      type Listed = { id: number; text: { status: string } };
      const list = await pollUntil(
        () =>
          must<Listed[]>(
            200,
            request('GET', `/correspondence/documents/${doc.documentId}/attachments`, { token }),
            'GET …/attachments',
          ),
        (l) => ['done', 'failed'].includes(l.find((a) => a.id === doc.attachmentId)?.text.status ?? ''),
        SCAN_TIMEOUT_MS,
      );
      expect(list.find((a) => a.id === doc.attachmentId)?.text.status, server.output()).toBe('done');
      const text = await must<{ pages: { method: string }[] }>(
        200,
        request('GET', `/correspondence/documents/${doc.documentId}/attachments/${doc.attachmentId}/text`, {
          token,
        }),
        'GET …/text',
      );
      expect(text.pages.map((p) => p.method)).toEqual(['ocr']);
      if (!linux) return;
      const child = childrenOf(server.pid).find((pid) =>
        cmdline(pid)?.includes(join(outDir, 'ocr-child.js')),
      );
      expect(child, 'no OCR child after reading a scan').toBeDefined();
      ocrChild = child;
    },
    SCAN_TIMEOUT_MS + 30_000,
  );

  it('reads the codes of a page in the bundle’s ocr-child.js (zxing’s WebAssembly found from the bundle)', async () => {
    // The codes child is started as codesService starts it; nothing of intake is needed to ask it.
    const file = join(pdfDir, 'separator.pdf');
    writeFileSync(file, await makeSeparatorSheet());
    const child = fork(join(outDir, 'ocr-child.js'), ['--nice=5'], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const answer = await new Promise<unknown>((resolve, reject) => {
        child.on('message', (message: { type: string }) => {
          if (message.type === 'ready') child.send({ type: 'codes', id: 1, file, page: 1, dpi: 150 });
          else resolve(message);
        });
        child.on('exit', (code) => reject(new Error(`ocr-child.js exited (${code}): ${stderr}`)));
      });
      expect(answer, stderr).toMatchObject({
        type: 'codesDone',
        id: 1,
        pages: 1,
        codes: expect.arrayContaining([{ format: 'QRCode', text: 'SIJILL:SEP' }]),
      });
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('stops on SIGTERM with exit code 0, its OCR child with it', async () => {
    server.process.kill('SIGTERM');
    // A guard against the old hang (minutes), not a speed limit: its close is bounded to a few seconds.
    const ended = await Promise.race([
      server.exited,
      new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000)),
    ]);
    expect(ended, `not ended 60 s after SIGTERM:\n${server.output()}`).not.toBe('timeout');
    expect(ended, `an unclean exit:\n${server.output()}`).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('SIGTERM: shutting down');
    if (ocrChild !== undefined) {
      // Gone, or a zombie (no command line) until whoever inherited it reaps it.
      const gone = await pollUntil(
        () => (cmdline(ocrChild!) ?? []).length === 0,
        (g) => g,
        60_000,
      );
      expect(gone, `the OCR child ${ocrChild} outlived the server`).toBe(true);
    }
  });
});
