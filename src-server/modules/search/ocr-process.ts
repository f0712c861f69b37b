/**
 * The server's side of OCR: one long-lived child process (ocr-child.ts) that renders and reads one page at a
 * time at a lowered priority, so that OCR on a two-core machine takes the time the API does not need.
 * Pages wait here in order; the child is started on the first page, kept while work comes, ended after a
 * minute without any, started again after a crash (the page it was reading is tried once more), and killed
 * when the page it is reading is no longer wanted (abort) or takes too long.
 *
 * The child is started with child_process.fork: the .ts file with tsx's loader when this module runs as
 * TypeScript (`tsx src-server/cli.ts`, vitest), the bundled `ocr-child.js` beside the main bundle when it
 * runs built (electron-vite, see electron.vite.config.ts). A packaged Electron app disables
 * ELECTRON_RUN_AS_NODE (fuse runAsNode), which fork needs: there, main must hand in a launcher that starts
 * the child as an Electron utility process (`setOcrLauncher(utilityProcessOcrLauncher(utilityProcess.fork))`);
 * the child speaks both transports.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import type { Socket } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FromOcrChild, OcrRequest, ToOcrChild } from './ocr-protocol';

/** The nice value given to the child (Windows: below-normal priority class). */
export const OCR_CHILD_NICE = 10;
/** How long an idle child is kept before it is ended. */
const IDLE_MS = 60_000;
/** A page that takes longer than this is given up (the child is killed): a guard against hangs only. */
const PAGE_TIMEOUT_MS = 10 * 60_000;
/** How long the child may take to start (load its modules) before it is given up. */
const START_TIMEOUT_MS = 60_000;
/** Pages read before the child is replaced by a fresh one (bounds memory a long run may accumulate). */
const RECYCLE_AFTER_PAGES = 500;

/** A started OCR child, whatever started it. */
export interface OcrChildHandle {
  readonly pid: number | undefined;
  send(message: ToOcrChild): void;
  onMessage(listener: (message: FromOcrChild) => void): void;
  /** Called once when the child has ended, for whatever reason. */
  onExit(listener: (description: string) => void): void;
  kill(): void;
  /** Keeps the server process alive while the child works (`true`), or not while it idles (`false`). */
  setRef(ref: boolean): void;
  /** The last lines the child wrote to stderr, for error messages. */
  stderrTail(): string;
}

/** Starts an OCR child running ocr-child's code. */
export type OcrLauncher = () => OcrChildHandle;

/** What the child read on a page. */
export interface OcrPageResult {
  text: string;
  width: number;
  height: number;
  renderMs: number;
  ocrMs: number;
}

/** Where the child's code is and how Node must start it. */
export function ocrChildEntry(): { modulePath: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const folder = dirname(here);
  if (here.endsWith('.ts')) {
    // Run as TypeScript: the child needs the same loader. Resolved from here, not from the working folder.
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { modulePath: join(folder, 'ocr-child.ts'), execArgv: ['--import', tsx] };
  }
  // Bundled: electron-vite writes ocr-child.js to the output folder, beside the entry or one level up
  // from a chunk.
  for (const candidate of [join(folder, 'ocr-child.js'), join(folder, '..', 'ocr-child.js')])
    if (existsSync(candidate)) return { modulePath: candidate, execArgv: [] };
  throw new Error(`OCR child script ocr-child.js not found beside ${here}`);
}

/** The default launcher: child_process.fork at a lowered priority. */
export function forkOcrChild(): OcrChildHandle {
  const { modulePath, execArgv } = ocrChildEntry();
  const child: ChildProcess = fork(modulePath, [], {
    execArgv,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  if (child.pid !== undefined) {
    try {
      os.setPriority(child.pid, OCR_CHILD_NICE);
    } catch {
      // Not permitted here: the child lowers its own threads as well.
    }
  }
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-2000);
  });
  let exitListener: ((description: string) => void) | null = null;
  let exited: string | null = null;
  const finish = (description: string) => {
    if (exited !== null) return;
    exited = description;
    exitListener?.(description);
  };
  child.on('exit', (code, signal) => finish(signal ? `killed by ${signal}` : `exit code ${code}`));
  child.on('error', (error) => finish(`failed: ${error.message}`));
  return {
    pid: child.pid,
    send: (message) => {
      if (child.connected) child.send(message);
    },
    onMessage: (listener) => child.on('message', (message) => listener(message as FromOcrChild)),
    onExit: (listener) => {
      exitListener = listener;
      if (exited !== null) listener(exited);
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    setRef: (ref) => {
      const channel = child.channel as { ref(): void; unref(): void } | null | undefined;
      const stderr = child.stderr as Socket | null;
      if (ref) {
        child.ref();
        channel?.ref();
        stderr?.ref();
      } else {
        child.unref();
        channel?.unref();
        stderr?.unref();
      }
    },
    stderrTail: () => tail.trim(),
  };
}

/**
 * The part of Electron's `UtilityProcess` (electron ≥ 22) an OCR child needs, typed here so that the server
 * does not import electron.
 */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'spawn', listener: () => void): this;
  on(event: 'exit', listener: (code: number) => void): this;
  on(event: 'message', listener: (message: unknown) => void): this;
}

/** Electron's `utilityProcess.fork`, as far as this module calls it. */
export type UtilityProcessFork = (
  modulePath: string,
  args: string[],
  options: { serviceName: string; stdio: ['ignore', 'ignore', 'pipe'] },
) => UtilityProcessLike;

/**
 * A launcher for a packaged Electron app, where child_process.fork cannot start Node (fuse runAsNode off):
 * main passes Electron's `utilityProcess.fork` and hands the result to `setOcrLauncher`. The child (the
 * bundled ocr-child.js) then talks over `process.parentPort`, and lowers its priority once started.
 */
export function utilityProcessOcrLauncher(forkUtility: UtilityProcessFork): OcrLauncher {
  return () => {
    const child = forkUtility(ocrChildEntry().modulePath, [], {
      serviceName: 'Sijill OCR',
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.on('spawn', () => {
      try {
        if (child.pid !== undefined) os.setPriority(child.pid, OCR_CHILD_NICE);
      } catch {
        // The child lowers its own threads as well.
      }
    });
    let tail = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-2000);
    });
    let exited: string | null = null;
    let exitListener: ((description: string) => void) | null = null;
    child.on('exit', (code) => {
      exited = `exit code ${code}`;
      exitListener?.(exited);
    });
    return {
      get pid() {
        return child.pid;
      },
      send: (message) => {
        if (exited === null) child.postMessage(message);
      },
      onMessage: (listener) => child.on('message', (message) => listener(message as FromOcrChild)),
      onExit: (listener) => {
        exitListener = listener;
        if (exited !== null) listener(exited);
      },
      kill: () => void child.kill(),
      // A utility process does not keep Electron's main process from quitting.
      setRef: () => undefined,
      stderrTail: () => tail.trim(),
    };
  };
}

let launcher: OcrLauncher = forkOcrChild;

/**
 * Replaces how the OCR child is started (a packaged Electron app passes one that starts a utility
 * process); `null` restores child_process.fork. Takes effect for the next child started.
 */
export function setOcrLauncher(next: OcrLauncher | null): void {
  launcher = next ?? forkOcrChild;
}

interface Job {
  request: Omit<OcrRequest, 'type' | 'id'>;
  id: number;
  attempts: number;
  resolve(result: OcrPageResult): void;
  reject(error: unknown): void;
  settled: boolean;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Child {
  handle: OcrChildHandle;
  exited: Promise<void>;
  ready: boolean;
  pages: number;
  startTimer: NodeJS.Timeout | null;
}

/** The queue of pages and the one child that reads them. */
class OcrService {
  private child: Child | null = null;
  private queue: Job[] = [];
  private running: Job | null = null;
  private pageTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private live = new Set<Child>();

  /** Reads one page; rejects with the signal's reason when aborted (killing the child if it was reading it). */
  read(request: Omit<OcrRequest, 'type' | 'id'>, signal?: AbortSignal): Promise<OcrPageResult> {
    return new Promise<OcrPageResult>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const job: Job = { request, id: this.nextId++, attempts: 0, resolve, reject, settled: false };
      if (signal) {
        job.signal = signal;
        job.onAbort = () => this.abort(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Ends the child (gracefully, then by force) and fails every page still waiting. */
  async close(): Promise<void> {
    const waiting = [...this.queue, ...(this.running ? [this.running] : [])];
    this.queue = [];
    for (const job of waiting) this.settle(job, new Error('OCR was closed before the page was read'));
    this.running = null;
    this.clearTimers();
    const current = this.child;
    this.child = null;
    if (current?.startTimer) clearTimeout(current.startTimer);
    // Every child still alive (the current one, and one retired but not yet gone) is asked to end.
    await Promise.all(
      [...this.live].map(async (child) => {
        child.handle.send({ type: 'exit' });
        const force = setTimeout(() => child.handle.kill(), 3000);
        await child.exited;
        clearTimeout(force);
      }),
    );
  }

  private settle(job: Job, outcome: Error | { result: OcrPageResult } | { reason: unknown }): void {
    if (job.settled) return;
    job.settled = true;
    if (job.signal && job.onAbort) job.signal.removeEventListener('abort', job.onAbort);
    if (outcome instanceof Error) job.reject(outcome);
    else if ('result' in outcome) job.resolve(outcome.result);
    else job.reject(outcome.reason);
  }

  private abort(job: Job): void {
    this.settle(job, { reason: job.signal?.reason });
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    if (this.running === job) {
      // Stop the work now: the child is killed and a fresh one takes the next page.
      this.running = null;
      this.killChild();
      this.pump();
    }
  }

  private clearTimers(): void {
    if (this.pageTimer) clearTimeout(this.pageTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.pageTimer = null;
    this.idleTimer = null;
  }

  private killChild(): void {
    const child = this.child;
    if (!child) return;
    if (child.startTimer) clearTimeout(child.startTimer);
    if (this.pageTimer) clearTimeout(this.pageTimer);
    this.pageTimer = null;
    this.child = null;
    child.handle.kill();
  }

  private startChild(): Child {
    const handle = launcher();
    let markExited = () => {};
    const exited = new Promise<void>((resolve) => (markExited = resolve));
    const child: Child = { handle, exited, ready: false, pages: 0, startTimer: null };
    this.live.add(child);
    child.startTimer = setTimeout(() => {
      if (this.child === child && !child.ready) this.childFailed(child, 'did not start in time');
    }, START_TIMEOUT_MS);
    handle.onMessage((message) => this.onMessage(child, message));
    handle.onExit((description) => {
      if (child.startTimer) clearTimeout(child.startTimer);
      this.live.delete(child);
      markExited();
      if (this.child === child) this.childFailed(child, description);
    });
    handle.setRef(true);
    return child;
  }

  /** The child ended or stalled while it was ours: retry its page once in a new child, then give up. */
  private childFailed(child: Child, description: string): void {
    if (this.child === child) this.child = null;
    child.handle.kill();
    if (this.pageTimer) clearTimeout(this.pageTimer);
    this.pageTimer = null;
    const job = this.running;
    this.running = null;
    if (job && !job.settled) {
      job.attempts += 1;
      if (job.attempts < 2) this.queue.unshift(job);
      else {
        const tail = child.handle.stderrTail();
        const hint =
          process.versions.electron && !child.ready
            ? ' (in a packaged Electron app, start the child as a utility process: setOcrLauncher)'
            : '';
        this.settle(
          job,
          new Error(
            `OCR process ${description} while reading page ${job.request.page} of ${job.request.file}${hint}` +
              (tail ? `: ${tail.split('\n').slice(-3).join(' | ')}` : ''),
          ),
        );
      }
    }
    this.pump();
  }

  private onMessage(child: Child, message: FromOcrChild): void {
    if (this.child !== child) return;
    if (message.type === 'ready') {
      child.ready = true;
      if (child.startTimer) clearTimeout(child.startTimer);
      child.startTimer = null;
      return;
    }
    const job = this.running;
    if (!job || job.id !== message.id) return;
    this.running = null;
    if (this.pageTimer) clearTimeout(this.pageTimer);
    this.pageTimer = null;
    child.pages += 1;
    if (message.type === 'done') {
      const { text, width, height, renderMs, ocrMs } = message;
      this.settle(job, { result: { text, width, height, renderMs, ocrMs } });
    } else {
      this.settle(
        job,
        new Error(`OCR failed on page ${job.request.page} of ${job.request.file}: ${message.message}`),
      );
    }
    if (child.pages >= RECYCLE_AFTER_PAGES) {
      this.child = null;
      child.handle.send({ type: 'exit' });
    }
    this.pump();
  }

  private pump(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) {
      this.idle();
      return;
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!this.child) this.child = this.startChild();
    this.child.handle.setRef(true);
    this.running = job;
    const child = this.child;
    this.pageTimer = setTimeout(() => {
      if (this.running !== job) return;
      this.running = null;
      this.settle(job, new Error(`OCR took too long on page ${job.request.page} of ${job.request.file}`));
      this.killChild();
      this.pump();
    }, PAGE_TIMEOUT_MS);
    child.handle.send({ type: 'ocr', id: job.id, ...job.request });
  }

  private idle(): void {
    const child = this.child;
    if (!child || this.idleTimer) return;
    child.handle.setRef(false);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.child !== child || this.running) return;
      this.child = null;
      child.handle.send({ type: 'exit' });
      setTimeout(() => child.handle.kill(), 5000).unref();
    }, IDLE_MS);
    this.idleTimer.unref();
  }

  /** The child's process id, if one is running (for tests and diagnostics). */
  get childPid(): number | undefined {
    return this.child?.handle.pid;
  }
}

/** The one OCR service of this process. */
export const ocrService = new OcrService();
