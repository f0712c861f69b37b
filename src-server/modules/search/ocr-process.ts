/**
 * The server's side of the OCR child: one long-lived child process (ocr-child.ts) that does all the pdf.js
 * and Tesseract work of reading PDF files, one page at a time at a lowered priority, so that reading a
 * file on a two-core machine takes the time the API does not need and never blocks the server's event
 * loop. It reads a page's text layer (`text`) or renders a page and reads it by OCR (`read`).
 *
 * Requests wait here, text pages before OCR pages (a text page takes milliseconds, an OCR page seconds),
 * otherwise in order. The child is started on the first request, kept while work comes, ended after a
 * minute without any, replaced by a fresh one after many pages, started again after a crash (the page it
 * was working on is tried once more), and killed when the page it is working on is no longer wanted
 * (abort) or takes too long (ten minutes for OCR, two for a text layer).
 *
 * The child is started with child_process.fork: the .ts file with tsx's loader when this module runs as
 * TypeScript (`tsx src-server/cli.ts`, vitest), the bundled `ocr-child.js` beside the main bundle when it
 * runs built (electron-vite, see electron.vite.config.ts). A packaged Electron app disables
 * ELECTRON_RUN_AS_NODE (fuse runAsNode), which fork needs: there, main must hand in a launcher that starts
 * the child as an Electron utility process (`setOcrLauncher(utilityProcessOcrLauncher(utilityProcess.fork))`);
 * the child speaks both transports.
 *
 * Two services use this machinery, each with its own queue and child: `ocrService` (text layers and OCR
 * of attachments, at the lowest priority: nobody waits for it) and `codesService` (the codes on the pages
 * of a scanned batch, issue 26: a station's upload waits for them, so they never queue behind OCR, at a
 * mild priority that still leaves the API server first). `readPageCodes` reads every page of a file.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Socket } from 'node:net';
import { siblingScript } from '../../entry';
import type { ReadCode } from '../../../src-shared/paper-codes';
import {
  CODES_CHILD_NICE,
  NICE_ARGUMENT,
  OCR_CHILD_NICE,
  type ChildFailureKind,
  type CodesRequest,
  type FromOcrChild,
  type OcrRequest,
  type TextRequest,
  type ToOcrChild,
} from './ocr-protocol';

/** How long an idle child is kept before it is ended. */
const IDLE_MS = 60_000;
/** An OCR page that takes longer than this is given up (the child is killed): a guard against hangs only. */
const PAGE_TIMEOUT_MS = 10 * 60_000;
/**
 * The same guard for the text layer of a page (opening the document included, for the first page of a
 * file): a guard against a hang, not a speed limit.
 */
const TEXT_PAGE_TIMEOUT_MS = 120_000;
/** How long the child may take to start (load its modules) before it is given up. */
const START_TIMEOUT_MS = 60_000;
/** Pages read by OCR before the child is replaced by a fresh one (bounds memory a long run may accumulate). */
const RECYCLE_AFTER_PAGES = 500;
/** The same for text layers, which take far less work and memory a page. */
const RECYCLE_AFTER_TEXT_PAGES = 5000;
/** The same for pages read for codes (a rendered page each, no Tesseract). */
const RECYCLE_AFTER_CODES_PAGES = 2000;
/** Rendering resolution for reading codes: a scanner's usual 200 dpi (a QR module of 0.45 mm is 3.5 pixels). */
export const CODES_DPI = 200;

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

/** How a child is started: its nice value and, for a utility process, the name Electron shows. */
export interface ChildLaunchOptions {
  nice: number;
  serviceName: string;
}

/** The OCR service's child: the lowest priority. */
const OCR_LAUNCH: ChildLaunchOptions = { nice: OCR_CHILD_NICE, serviceName: 'Sijill OCR' };
/** The codes service's child: a mild priority (see CODES_CHILD_NICE). */
const CODES_LAUNCH: ChildLaunchOptions = { nice: CODES_CHILD_NICE, serviceName: 'Sijill codes' };

/** Starts an OCR child running ocr-child's code, at the priority `options` say (the OCR child's if absent). */
export type OcrLauncher = (options?: ChildLaunchOptions) => OcrChildHandle;

/** What the child read on a page. */
export interface OcrPageResult {
  text: string;
  width: number;
  height: number;
  renderMs: number;
  ocrMs: number;
}

/** The text layer of a page, as the child read it. */
export interface TextPageResult {
  /** Pages in the document. */
  pages: number;
  /** Lines in logical order, joined by `\n` (layoutPageText); empty for a page past the end. */
  text: string;
  /** Share of the page's glyphs that map to no character, from 0 to 1. */
  unmappedShare: number;
}

/**
 * A page the child could not do: it answered that it failed (`kind` as it said: see ChildFailureKind), or
 * it took longer than its time allows (`timeout`; the child was killed). `detail` is the reason alone, the
 * message says which page of which file as well. Aborts, crashes of the child and closing reject with
 * other errors.
 */
export class ChildRequestError extends Error {
  override name = 'ChildRequestError';
  constructor(
    readonly kind: ChildFailureKind | 'timeout',
    readonly detail: string,
    message: string,
  ) {
    super(message);
  }
}

/** Where the child's code is and how Node must start it. */
export function ocrChildEntry(): { modulePath: string; execArgv: string[] } {
  return siblingScript(import.meta.url, 'ocr-child');
}

/** The default launcher: child_process.fork at a lowered priority. */
export function forkOcrChild(options: ChildLaunchOptions = OCR_LAUNCH): OcrChildHandle {
  const { modulePath, execArgv } = ocrChildEntry();
  // Not started through nice(1): the child's start (tesseract's WebAssembly, its language data) at the
  // lowest priority from the first instruction starved behind a busy machine (an OCR of one page past
  // two minutes in CI); it lowers its own threads once started (ocr-child.ts).
  const child: ChildProcess = fork(modulePath, [`${NICE_ARGUMENT}${options.nice}`], {
    execArgv,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  if (child.pid !== undefined) {
    try {
      os.setPriority(child.pid, options.nice);
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
  return (options = OCR_LAUNCH) => {
    const child = forkUtility(ocrChildEntry().modulePath, [`${NICE_ARGUMENT}${options.nice}`], {
      serviceName: options.serviceName,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.on('spawn', () => {
      try {
        if (child.pid !== undefined) os.setPriority(child.pid, options.nice);
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
 * process); `null` restores child_process.fork. Takes effect for the next child started, of both services
 * (each passes its own ChildLaunchOptions).
 */
export function setOcrLauncher(next: OcrLauncher | null): void {
  launcher = next ?? forkOcrChild;
}

/** A request as queued here: what is sent to the child, but its id. */
type Work = Omit<OcrRequest, 'id'> | Omit<TextRequest, 'id'> | Omit<CodesRequest, 'id'>;
/** The child's answers that carry a result. */
type Answer = Extract<FromOcrChild, { type: 'done' | 'textDone' | 'codesDone' }>;

/** The codes read on a page, as the child read them. */
export interface CodesPageResult {
  /** Pages in the document. */
  pages: number;
  /** Empty for a page past the end, or a page without codes. */
  codes: ReadCode[];
  renderMs: number;
  decodeMs: number;
  /** Images decoded (1: the page as rendered; more: retries, see ocr-child.ts). */
  attempts: number;
}

interface Job {
  work: Work;
  id: number;
  attempts: number;
  /** Gets the child's answer, checked to be the one this request expects. */
  resolve(answer: Answer): void;
  reject(error: unknown): void;
  settled: boolean;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Child {
  handle: OcrChildHandle;
  exited: Promise<void>;
  ready: boolean;
  /** Pages done by OCR, text layers read, and pages read for codes. */
  pages: number;
  textPages: number;
  codesPages: number;
  startTimer: NodeJS.Timeout | null;
}

/** What a job is about, for error messages: `page 3 of /x.pdf`, `the text of page 3 of /x.pdf`. */
const describeWork = (work: Work) =>
  `${work.type === 'text' ? 'the text of ' : work.type === 'codes' ? 'the codes of ' : ''}page ${work.page} of ${work.file}`;

/** What failed, for error messages. */
const failedWhat = (work: Work) =>
  work.type === 'text' ? 'Reading the text' : work.type === 'codes' ? 'Reading the codes' : 'OCR';

/** How an OcrService starts its child and how long it keeps it idle. */
export interface OcrServiceOptions extends ChildLaunchOptions {
  /** How long an idle child is kept before it is ended (a minute). */
  idleMs?: number;
}

/** The queue of pages and the one child that does them. */
export class OcrService {
  private child: Child | null = null;
  private queue: Job[] = [];
  private running: Job | null = null;
  private pageTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private nextId = 1;
  private live = new Set<Child>();
  private readonly launch: ChildLaunchOptions;
  private readonly idleMs: number;

  constructor(options: OcrServiceOptions = OCR_LAUNCH) {
    this.launch = { nice: options.nice, serviceName: options.serviceName };
    this.idleMs = options.idleMs ?? IDLE_MS;
  }

  /**
   * Renders one page and reads it by OCR; rejects with the signal's reason when aborted (killing the child
   * if it was reading it), with a ChildRequestError when the child could not read the page.
   */
  read(request: Omit<OcrRequest, 'type' | 'id'>, signal?: AbortSignal): Promise<OcrPageResult> {
    return this.submit({ type: 'ocr', ...request }, signal, (answer) => {
      if (answer.type !== 'done') return null;
      const { text, width, height, renderMs, ocrMs } = answer;
      return { text, width, height, renderMs, ocrMs };
    });
  }

  /**
   * Reads the text layer of one page (the child keeps the document open for the next page of the same
   * file); rejects as `read` does.
   */
  text(request: Omit<TextRequest, 'type' | 'id'>, signal?: AbortSignal): Promise<TextPageResult> {
    return this.submit({ type: 'text', ...request }, signal, (answer) => {
      if (answer.type !== 'textDone') return null;
      const { pages, text, unmappedShare } = answer;
      return { pages, text, unmappedShare };
    });
  }

  /**
   * Renders one page in grey and reads the QR codes and Code 128s on it; rejects as `read` does. A page
   * past the end gives the page count and no codes.
   */
  codes(request: Omit<CodesRequest, 'type' | 'id'>, signal?: AbortSignal): Promise<CodesPageResult> {
    return this.submit({ type: 'codes', ...request }, signal, (answer) => {
      if (answer.type !== 'codesDone') return null;
      const { pages, codes, renderMs, decodeMs, attempts } = answer;
      return { pages, codes, renderMs, decodeMs, attempts };
    });
  }

  /** Queues `work`; its promise settles with `accept`'s result for the child's answer (null: wrong answer). */
  private submit<T>(work: Work, signal: AbortSignal | undefined, accept: (answer: Answer) => T | null) {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const job: Job = {
        work,
        id: this.nextId++,
        attempts: 0,
        resolve: (answer) => {
          const result = accept(answer);
          if (result === null)
            reject(new Error(`The OCR child answered ${answer.type} to a ${work.type} request`));
          else resolve(result);
        },
        reject,
        settled: false,
      };
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

  private settle(job: Job, outcome: Error | { answer: Answer } | { reason: unknown }): void {
    if (job.settled) return;
    job.settled = true;
    if (job.signal && job.onAbort) job.signal.removeEventListener('abort', job.onAbort);
    if (outcome instanceof Error) job.reject(outcome);
    else if ('answer' in outcome) job.resolve(outcome.answer);
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
    const handle = launcher(this.launch);
    let markExited = () => {};
    const exited = new Promise<void>((resolve) => (markExited = resolve));
    const child: Child = {
      handle,
      exited,
      ready: false,
      pages: 0,
      textPages: 0,
      codesPages: 0,
      startTimer: null,
    };
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
            `OCR process ${description} while reading ${describeWork(job.work)}${hint}` +
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
    if (job.work.type === 'text') child.textPages += 1;
    else if (job.work.type === 'codes') child.codesPages += 1;
    else child.pages += 1;
    if (message.type === 'failed') {
      const what = failedWhat(job.work);
      this.settle(
        job,
        new ChildRequestError(
          message.kind,
          message.message,
          `${what} failed on page ${job.work.page} of ${job.work.file}: ${message.message}`,
        ),
      );
    } else this.settle(job, { answer: message });
    if (
      child.pages >= RECYCLE_AFTER_PAGES ||
      child.textPages >= RECYCLE_AFTER_TEXT_PAGES ||
      child.codesPages >= RECYCLE_AFTER_CODES_PAGES
    ) {
      this.child = null;
      child.handle.send({ type: 'exit' });
    }
    this.pump();
  }

  private pump(): void {
    if (this.running) return;
    // A text page first, if one waits: it takes milliseconds, an OCR page seconds.
    const text = this.queue.findIndex((waiting) => waiting.work.type === 'text');
    const [job] = this.queue.splice(Math.max(text, 0), 1);
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
    // A page read for codes is rendered and decoded in about a second: the text layer's guard fits it.
    const timeoutMs = job.work.type === 'ocr' ? PAGE_TIMEOUT_MS : TEXT_PAGE_TIMEOUT_MS;
    this.pageTimer = setTimeout(() => {
      if (this.running !== job) return;
      this.running = null;
      const detail = `took longer than ${timeoutMs / 1000} s`;
      const what = failedWhat(job.work);
      this.settle(
        job,
        new ChildRequestError(
          'timeout',
          detail,
          `${what} of page ${job.work.page} of ${job.work.file} ${detail}`,
        ),
      );
      this.killChild();
      this.pump();
    }, timeoutMs);
    child.handle.send({ ...job.work, id: job.id });
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
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** The child's process id, if one is running (for tests and diagnostics). */
  get childPid(): number | undefined {
    return this.child?.handle.pid;
  }
}

/** The one OCR service of this process: text layers and OCR of attachments, at the lowest priority. */
export const ocrService = new OcrService(OCR_LAUNCH);

/**
 * The service that reads codes on scanned pages (issue 26): its own child, at a mild priority, so that a
 * station's upload never waits behind OCR; ended after half a minute without work (a batch comes, is
 * read, and the child is not kept for the next one).
 */
export const codesService = new OcrService({ ...CODES_LAUNCH, idleMs: 30_000 });

/**
 * Reads the codes of every page of a PDF file, in order, through codesService (never on the server's
 * thread): `pages[i]` holds the codes of page i + 1, `timings[i]` what reading it took. Rejects with the
 * signal's reason when aborted, with a ChildRequestError when the file cannot be opened (`invalid`,
 * `encrypted`, `unreadable`) or a page cannot be read; the pages still waiting are then given up.
 */
export async function readPageCodes(
  file: string,
  options: { dpi?: number; signal?: AbortSignal } = {},
): Promise<{ pages: ReadCode[][]; timings: Omit<CodesPageResult, 'pages' | 'codes'>[] }> {
  const dpi = options.dpi ?? CODES_DPI;
  // Given up on the first failure (or the caller's abort), so that a broken batch does not hold the child.
  const giveUp = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, giveUp.signal]) : giveUp.signal;
  try {
    // The first page tells how many there are; the rest are queued at once, read one after another.
    const first = await codesService.codes({ file, page: 1, dpi }, signal);
    const rest = Array.from({ length: Math.max(0, first.pages - 1) }, (_, i) =>
      codesService.codes({ file, page: i + 2, dpi }, signal),
    );
    const results = first.pages === 0 ? [] : [first, ...(await Promise.all(rest))];
    return {
      pages: results.map((result) => result.codes),
      timings: results.map(({ renderMs, decodeMs, attempts }) => ({ renderMs, decodeMs, attempts })),
    };
  } catch (error) {
    giveUp.abort(error);
    throw options.signal?.aborted ? options.signal.reason : error;
  }
}
