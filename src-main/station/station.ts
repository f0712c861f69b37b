/**
 * The scanning station: watches folders for PDFs and hands each to the server exactly once, in the
 * desktop (station mode) or headless (`npm run station`). How it copes with failing consume folders:
 * docs/architecture.md, "The scanning station".
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { watch, type FSWatcher } from 'node:fs';
import { INTAKE_BATCH_MAX_FILES } from '../../src-shared/api/correspondence';
import { formatMaxSize } from '../../src-shared/files';
import type { Locale } from '../../src-shared/locale';
import ar from '../../locales/ar/station.json';
import en from '../../locales/en/station.json';
import serverAr from '../../locales/ar/server.json';
import serverEn from '../../locales/en/server.json';
import {
  PROCESSED,
  REJECTED,
  TargetTaken,
  freeTarget,
  hashFile,
  isIgnored,
  looksLikePdf,
  moveOnce,
  numberInName,
  pdfSignatureIn,
  readSmall,
  writeNote,
} from './files';
import type { Reason, StationCounts, StationFile, StationQueue } from './queue';
import type { IntakeAnswer, OutgoingFile, StationTransport } from './transport';

export interface StationOptions {
  queue: StationQueue;
  transport: StationTransport;
  folders: readonly string[];
  /** Poll the folders instead of relying on change events (network shares, some scanners). */
  polling?: boolean;
  /** How often every folder is rescanned, whatever the events say. */
  scanIntervalMs?: number;
  /** How long a file's size and time must stay unchanged before it is taken. */
  stableMs?: number;
  /** Upload requests at once. */
  concurrency?: number;
  /**
   * Files one request may carry (at most the server's INTAKE_BATCH_MAX_FILES), and their bytes at most
   * (one file alone may be larger): a backlog goes in batches, a file arriving alone goes alone, at
   * once (nothing waits to fill a batch).
   */
  batchFiles?: number;
  batchBytes?: number;
  /** Failures that may pass before a file is stuck (waiting for someone to press retry). */
  maxAttempts?: number;
  /** Delay before try `attempt` (1-based) of a failed file. */
  backoffMs?: (attempt: number) => number;
  log?: (line: string) => void;
  now?: () => number;
}

/** One file as the station panel lists it. */
export interface StationFileView {
  id: number;
  folder: string;
  name: string;
  size: number;
  state: StationFile['state'];
  attempts: number;
  nextAt: number | null;
  /** The reason in each language, and what the server said in each (null where it gave no words). */
  reason: { ar: string; en: string; detailAr: string | null; detailEn: string | null } | null;
  documentId: number | null;
  docNumber: string | null;
  updatedAt: number;
}

export interface StationStatus {
  running: boolean;
  paused: boolean;
  ready: boolean;
  folders: { path: string; error: string | null }[];
  counts: StationCounts;
  active: { id: number; name: string; size: number; sent: number }[];
  problems: StationFileView[];
  recent: StationFileView[];
}

type Texts = typeof en;
const TEXTS: Record<Locale, Texts> = { ar, en };

/** A reason in one language (`{{name}}` filled from its parameters). */
export function reasonText(locale: Locale, reason: Reason): string {
  const template = (TEXTS[locale].reasons as Record<string, string>)[reason.code] ?? reason.code;
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(reason.params?.[name] ?? ''));
}

/** What the server said in one language, or null where it gave no words in that language. */
export function detailText(locale: Locale, reason: Reason): string | null {
  if (typeof reason.detail === 'string') return reason.detail; // a system error's text: no language
  return reason.detail?.[locale] ?? null;
}

/** The note left beside a rejected file: Arabic, then English, each in its own language only. */
export function noteText(name: string, reason: Reason, at: Date): string {
  const part = (locale: Locale) => {
    const t = TEXTS[locale];
    const lines = [t.noteTitle, `${t.file}: ${name}`, `${t.reasonLabel}: ${reasonText(locale, reason)}`];
    const detail = detailText(locale, reason);
    if (detail) lines.push(`${t.noteServer}: ${detail}`);
    return lines.join('\n');
  };
  return `${part('ar')}\n\n${part('en')}\n\n${at.toISOString()}`;
}

type Catalogue = { [key: string]: string | Catalogue };
const SERVER_TEXTS: Record<Locale, Catalogue> = { ar: serverAr as Catalogue, en: serverEn as Catalogue };

/** One of the server's own texts (locales/<lang>/server.json) by its key, filled; null when there is none. */
function serverText(locale: Locale, key: string, params: Record<string, string | number>): string | null {
  let node: string | Catalogue | undefined = SERVER_TEXTS[locale];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') return null;
  let complete = true;
  const text = node.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
    if (params[name] === undefined) complete = false;
    return String(params[name] ?? '');
  });
  return complete ? text : null;
}

/**
 * What the server said, by language: its message rendered in each language when its code names one of
 * the server's texts (with every value it needs), else its words in the language it answered in only.
 */
function serverWords(answer: IntakeAnswer): Reason['detail'] | undefined {
  const { code, params, detail } = answer.body ?? {};
  if (code) {
    const both = { ar: serverText('ar', code, params ?? {}), en: serverText('en', code, params ?? {}) };
    if (both.ar && both.en) return { ar: both.ar, en: both.en };
  }
  return detail ? { [answer.lang ?? 'ar']: detail } : undefined;
}

/** Files up to this size are read once, checked, hashed and sent from memory; larger ones are streamed. */
const READ_WHOLE_MAX = 4 * 1024 * 1024;

const defaultBackoff = (attempt: number) => Math.min(2_000 * 2 ** (attempt - 1), 5 * 60_000);

/**
 * Reasons the server gives that will not change on a retry: the file goes to rejected/. Each refusal the
 * station knows is one of its own reasons (said in both languages, with what to do); any other keeps the
 * server's words (`serverWords`).
 */
function finalRefusal(answer: IntakeAnswer, number: string | null, limit: number | null): Reason | null {
  const code = answer.body?.code;
  const params = answer.body?.params ?? {};
  switch (answer.status) {
    case 413: {
      const maxSize = params.maxSize ?? (limit !== null ? formatMaxSize(limit) : null);
      return maxSize !== null ? { code: 'tooLarge', params: { maxSize } } : { code: 'tooLargeNoLimit' };
    }
    case 415:
      // The station checked the PDF signature already: what the server could not open is damaged.
      return { code: code === 'upload.encrypted' ? 'encrypted' : 'damaged' };
    case 409:
      if (code === 'intake.duplicate' && params.pages !== undefined && params.document)
        return { code: 'partDuplicate', params: { pages: params.pages, document: params.document } };
      if (!code || code === 'intake.duplicate')
        return params.document
          ? { code: 'duplicate', params: { document: params.document } }
          : { code: 'alreadyArchived' };
      break;
    case 422:
      if (code === 'upload.activeContent') return { code: 'activeContent' };
      break;
    case 404:
      // A number read from a code on the batch's pages (a sticker, a cover sheet), not from its name.
      if (code === 'intake.noSuchNumber' && params.pages !== undefined && params.number !== undefined)
        return { code: 'codedNumber', params: { number: params.number, pages: params.pages } };
      if (number && (!code || code === 'intake.noSuchNumber'))
        return { code: 'noSuchNumber', params: { number } };
      break;
    case 400:
      break;
    default:
      return null;
  }
  const detail = serverWords(answer);
  return { code: 'refused', params: { status: answer.status }, ...(detail ? { detail } : {}) };
}

/** A queue row as the station panel lists it. */
export function fileView(f: StationFile): StationFileView {
  return {
    id: f.id,
    folder: f.folder,
    name: f.name,
    size: f.size,
    state: f.state,
    attempts: f.attempts,
    nextAt: f.state === 'queued' || f.state === 'moving' ? f.nextAt : null,
    reason: f.reason
      ? {
          ar: reasonText('ar', f.reason),
          en: reasonText('en', f.reason),
          detailAr: detailText('ar', f.reason),
          detailEn: detailText('en', f.reason),
        }
      : null,
    documentId: f.documentId,
    docNumber: f.docNumber,
    updatedAt: f.updatedAt,
  };
}
export class Station {
  private readonly queue: StationQueue;
  private readonly transport: StationTransport;
  private folders: string[];
  private readonly opts: Required<Omit<StationOptions, 'queue' | 'transport' | 'folders' | 'log'>> & {
    log: (line: string) => void;
  };
  private readonly folderErrors = new Map<string, string | null>();
  /** The files being sent (or checked before sending), by queue id; `done` settles with their request. */
  private readonly inFlight = new Map<
    number,
    { name: string; size: number; sent: number; done: Promise<void> }
  >();
  /** Upload requests under way (each carries one or more of the files in flight). */
  private requests = 0;
  /** processed/ and rejected/ folders made (or found) already: not made again for every file. */
  private readonly made = new Set<string>();
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;
  /** The look again at files still settling, once `stableMs` has passed (not a whole rescan interval). */
  private settle: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private running = false;
  private paused = false;
  private limit: { uploadMaxBytes: number; at: number } | null = null;

  constructor(options: StationOptions) {
    this.queue = options.queue;
    this.transport = options.transport;
    this.folders = [...options.folders];
    this.opts = {
      polling: options.polling ?? false,
      scanIntervalMs: options.scanIntervalMs ?? 2_000,
      stableMs: options.stableMs ?? 2_000,
      concurrency: options.concurrency ?? 2,
      batchFiles: Math.min(options.batchFiles ?? 32, INTAKE_BATCH_MAX_FILES),
      batchBytes: options.batchBytes ?? 32 * 1024 * 1024,
      maxAttempts: options.maxAttempts ?? 10,
      backoffMs: options.backoffMs ?? defaultBackoff,
      now: options.now ?? Date.now,
      log: options.log ?? (() => undefined),
    };
  }

  /** Starts watching: uploads cut short by a crash are queued again, then the folders are scanned. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const recovered = this.queue.recover();
    if (recovered) this.opts.log(`station: ${recovered} upload(s) cut short are queued again`);
    this.watch();
    this.timer = setInterval(() => this.kick(), this.opts.scanIntervalMs);
    this.kick();
  }

  /** Stops watching and waits for the uploads in flight. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    if (this.settle) clearTimeout(this.settle);
    this.settle = null;
    this.timer = this.soon = null;
    for (const w of this.watchers) w.close();
    this.watchers = [];
    await this.ticking;
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.kick();
  }

  /** Tries a stuck or failing file again now. */
  retry(id: number): boolean {
    const changed = this.queue.retry(id);
    if (changed) this.kick();
    return changed;
  }

  /** Changes the watched folders (the desktop's settings). */
  setFolders(folders: readonly string[], polling = this.opts.polling): void {
    this.folders = [...folders];
    this.opts.polling = polling;
    for (const key of [...this.folderErrors.keys()])
      if (!folders.includes(key)) this.folderErrors.delete(key);
    if (this.running) {
      for (const w of this.watchers) w.close();
      this.watchers = [];
      this.watch();
      this.kick();
    }
  }

  status(): StationStatus {
    return {
      running: this.running,
      paused: this.paused,
      ready: this.transport.ready(),
      folders: this.folders.map((path) => ({ path, error: this.folderErrors.get(path) ?? null })),
      counts: this.queue.counts(),
      active: [...this.inFlight.entries()].map(([id, f]) => ({
        id,
        name: f.name,
        size: f.size,
        sent: f.sent,
      })),
      problems: this.queue.problems().map((f) => fileView(f)),
      recent: this.queue.recent().map((f) => fileView(f)),
    };
  }

  /** Resolves when the pass under way and the uploads in flight have finished (more may follow). */
  async drain(): Promise<void> {
    await this.ticking;
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }

  /** One pass now: scan every folder, finish moves, start due uploads. Tests drive this directly. */
  tick(): Promise<void> {
    this.ticking ??= this.pass().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private kick(): void {
    // Only a started station schedules its own passes (tests drive passes with tick()).
    if (this.soon || !this.running) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.tick();
    }, 50);
  }

  private watch(): void {
    if (this.opts.polling) return; // the rescans every scanIntervalMs are the watch
    for (const folder of this.folders) {
      try {
        // Not persistent: the station's timer keeps the process alive, a watcher alone must not.
        const watcher = watch(folder, { persistent: false }, () => this.kick());
        watcher.on('error', (error) => this.opts.log(`station: watching ${folder}: ${String(error)}`));
        this.watchers.push(watcher);
      } catch (error) {
        // A share or a folder that cannot be watched is still rescanned (and its error shown by the scan).
        this.opts.log(`station: watching ${folder}: ${String(error)}; rescanning only`);
      }
    }
  }

  private async pass(): Promise<void> {
    for (const folder of this.folders) await this.scan(folder);
    if (this.paused) return;
    // A file an upload in flight is moving is left to it (two moves of one file would race).
    for (const file of this.queue.toMove()) if (!this.inFlight.has(file.id)) await this.move(file);
    this.fill();
  }

  /** Starts queued files in the free request slots, a batch each (at the end of a pass, and as each ends). */
  private fill(): void {
    if (this.paused || !this.transport.ready()) return;
    while (this.requests < this.opts.concurrency) {
      const files = this.queue.take(this.opts.batchFiles, this.opts.batchBytes);
      if (files.length === 0) return;
      this.launch(files);
    }
  }

  /** Compares a folder with the queue: new files are recorded, changing ones wait, stable ones queue. */
  private async scan(folder: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
      this.folderErrors.set(folder, null);
    } catch (error) {
      this.folderErrors.set(folder, (error as Error).message);
      return;
    }
    const onDisk = new Set<string>();
    const now = this.opts.now();
    // One read of the folder's active rows; only new and still-changing files are looked at on disk
    // (a folder of a thousand queued files costs one listing, not a thousand stats and selects).
    const active = new Map(this.queue.activeIn(folder).map((row) => [row.name, row]));
    // What the scan finds is written in one transaction at the end (a burst of a thousand new files is
    // one write, not a thousand).
    const found: (() => void)[] = [];
    let settling = false;
    for (const entry of entries) {
      // A link to a file is a file dropped too (taken or rejected like one); folders are not files.
      const fileLike = entry.isFile() || entry.isSymbolicLink();
      if (!fileLike || isIgnored(entry.name) || entry.name === PROCESSED || entry.name === REJECTED) continue;
      onDisk.add(entry.name);
      const row = active.get(entry.name);
      if (row && row.state !== 'waiting') continue;
      let info;
      try {
        info = await stat(join(folder, entry.name));
      } catch {
        continue; // gone between the listing and now (or a link to nothing)
      }
      if (!info.isFile()) continue; // a link to a folder
      const size = info.size;
      const mtimeMs = Math.round(info.mtimeMs);
      if (!row) found.push(() => this.queue.seen(folder, entry.name, size, mtimeMs));
      else if (row.size !== size || row.mtimeMs !== mtimeMs)
        found.push(() => this.queue.changed(row.id, size, mtimeMs));
      else if (now - row.stableSince >= this.opts.stableMs) {
        found.push(() => this.queue.stable(row.id));
        continue;
      }
      settling = true;
    }
    for (const row of active.values()) {
      if (onDisk.has(row.name)) continue;
      if (row.state === 'waiting' || row.state === 'queued' || row.state === 'stuck') {
        if (row.outcome === null) found.push(() => this.queue.forget(row.id));
      }
    }
    if (found.length > 0) this.queue.batch(() => found.forEach((write) => write()));
    if (settling) this.settleLater();
  }

  /** A file is settling: look again when it may have settled, rather than at the next rescan. */
  private settleLater(): void {
    if (this.settle || !this.running) return;
    this.settle = setTimeout(() => {
      this.settle = null;
      this.kick();
    }, this.opts.stableMs + 20);
  }

  private launch(files: StationFile[]): void {
    this.requests += 1;
    const entries = files.map((file) => ({
      file,
      progress: { name: file.name, size: file.size, sent: 0, done: Promise.resolve() },
    }));
    for (const { file, progress } of entries) this.inFlight.set(file.id, progress);
    const done = this.uploadBatch(entries)
      .catch((error: unknown) => {
        // Something unforeseen (the disk, the queue): the files not yet settled are tried again later.
        this.opts.log(`station: ${files.map((f) => f.name).join(', ')}: ${String(error)}`);
        for (const { file } of entries)
          if (this.queue.get(file.id)?.state === 'uploading')
            this.fail(file, {
              code: 'unreadable',
              params: { error: String((error as Error)?.message ?? error) },
            });
      })
      .finally(() => {
        this.requests -= 1;
        for (const { file } of entries) this.inFlight.delete(file.id);
        // The next queued files start now, not after the next pass over the folders.
        if (this.running) this.fill();
      });
    for (const { progress } of entries) progress.done = done;
  }

  private async uploadLimit(): Promise<number | null> {
    if (this.limit && this.opts.now() - this.limit.at < 60_000) return this.limit.uploadMaxBytes;
    const limits = await this.transport.limits();
    if (limits) this.limit = { uploadMaxBytes: limits.uploadMaxBytes, at: this.opts.now() };
    return limits?.uploadMaxBytes ?? this.limit?.uploadMaxBytes ?? null;
  }

  /**
   * Sends a batch: each file checked here first (still there, a PDF by its bytes, within the limit, not
   * the same content as a file already taken), then those that pass in one request, then each settled by
   * its own answer.
   */
  private async uploadBatch(entries: { file: StationFile; progress: { sent: number } }[]): Promise<void> {
    const limit = await this.uploadLimit();
    const sending: { file: StationFile; outgoing: OutgoingFile; progress: { sent: number } }[] = [];
    for (const { file, progress } of entries) {
      const outgoing = await this.prepare(file, limit);
      if (outgoing) sending.push({ file, outgoing, progress });
    }
    if (sending.length === 0) return;
    let answers: IntakeAnswer[];
    try {
      answers = await this.transport.intakeBatch(
        sending.map((s) => s.outgoing),
        (index, sent) => {
          sending[index]!.progress.sent = sent;
        },
      );
    } catch (error) {
      for (const { file } of sending)
        this.fail(file, { code: 'serverDown', detail: String((error as Error)?.message ?? error) });
      return;
    } finally {
      for (const s of sending) s.outgoing.bytes = null; // sent or not, not held any longer
    }
    // The files the server took: their outcome and target recorded together before any is moved, each
    // moved, then all marked moved together. The others one by one (rejected, or tried again later).
    const taken: StationFile[] = [];
    const accepted = (answer: IntakeAnswer) => answer.status === 200 || answer.status === 201;
    this.queue.batch(() => {
      for (const [index, { file }] of sending.entries()) {
        const answer = answers[index]!;
        if (!accepted(answer)) continue;
        const data = answer.body?.data;
        this.queue.moving(file.id, 'processed', join(file.folder, PROCESSED, file.name), {
          documentId: data?.documentId,
          docNumber: data?.docNumber ?? null,
        });
        taken.push(this.queue.get(file.id)!);
      }
    });
    const moved: StationFile[] = [];
    for (const file of taken) if (await this.move(file, { mark: false })) moved.push(file);
    this.queue.batch(() => moved.forEach((file) => this.queue.moved(file.id)));
    for (const file of moved) this.logMoved(file);
    for (const [index, { file, outgoing }] of sending.entries())
      if (!accepted(answers[index]!)) await this.conclude(file, answers[index]!, outgoing.number, limit);
  }

  /** Makes a processed/ or rejected/ folder not made (or found) yet. */
  private async ensureFolder(dir: string): Promise<void> {
    if (this.made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.made.add(dir);
  }

  /**
   * A file's checks before it is sent; answers what to send, or null when it was settled here (gone, not
   * a PDF, too large, or the same content as another file this station took: rejected with the reason).
   * A small file is read once here and sent from memory: what was checked and hashed is what is sent.
   */
  private async prepare(file: StationFile, limit: number | null): Promise<OutgoingFile | null> {
    const path = join(file.folder, file.name);
    let read: { size: number; bytes: Buffer | null };
    try {
      read = await readSmall(path, READ_WHOLE_MAX);
    } catch {
      this.queue.forget(file.id); // taken away before it could be sent
      return null;
    }
    const { size, bytes } = read;
    if (!(bytes ? pdfSignatureIn(bytes) : await looksLikePdf(path))) {
      await this.reject(file, { code: 'notPdf' });
      return null;
    }
    if (limit !== null && size > limit) {
      await this.reject(file, { code: 'tooLarge', params: { maxSize: formatMaxSize(limit) } });
      return null;
    }
    const sha256 = bytes
      ? createHash('sha256').update(bytes).digest('hex')
      : (file.sha256 ?? (await hashFile(path)));
    if (sha256 !== file.sha256) this.queue.hashed(file.id, sha256);
    const twin = this.queue.sameContent(sha256, file.id);
    if (twin) {
      await this.reject(file, {
        code: 'duplicate',
        params: { document: twin.docNumber ?? (twin.documentId ? `#${twin.documentId}` : twin.name) },
      });
      return null;
    }
    return { path, name: file.name, key: file.key, number: numberInName(file.name), bytes };
  }

  /** A refused file's answer from the server: moved to rejected/ when final, or tried again later. */
  private async conclude(
    file: StationFile,
    answer: IntakeAnswer,
    number: string | null,
    limit: number | null,
  ): Promise<void> {
    const final = finalRefusal(answer, number, limit);
    if (final) return this.reject(file, final);
    const detail = serverWords(answer);
    if (answer.status === 401) return this.fail(file, { code: 'signedOut', ...(detail ? { detail } : {}) });
    if (answer.status === 403) return this.fail(file, { code: 'forbidden', ...(detail ? { detail } : {}) });
    return this.fail(file, {
      code: 'serverBusy',
      params: { status: answer.status },
      ...(detail ? { detail } : {}),
    });
  }

  private async reject(file: StationFile, reason: Reason): Promise<void> {
    this.queue.moving(file.id, 'rejected', null, { reason });
    await this.move(this.queue.get(file.id)!);
  }

  /**
   * Moves a file whose outcome is known; a crash between the rename and the queue is finished here. A
   * processed file keeps its name when it is free (tried directly: no look before); a rejected one gets
   * a name free of a note too; the target is recorded before the move. Marks it moved (unless `mark` is
   * false: the caller marks a batch at once); answers whether it was moved.
   */
  private async move(file: StationFile, options: { mark: boolean } = { mark: true }): Promise<boolean> {
    if (!file.outcome) return false;
    const dir = join(file.folder, file.outcome === 'processed' ? PROCESSED : REJECTED);
    const source = join(file.folder, file.name);
    const aim = async (taken: boolean) => {
      const target =
        file.outcome === 'processed' && !taken ? join(dir, file.name) : await freeTarget(dir, file.name);
      this.queue.target(file.id, target);
      return target;
    };
    try {
      await this.ensureFolder(dir);
      let target = file.movedTo ?? (await aim(false));
      if (file.outcome === 'rejected' && file.reason)
        await writeNote(target, noteText(file.name, file.reason, new Date(this.opts.now())));
      try {
        await moveOnce(source, target);
      } catch (error) {
        // Another file took the name meanwhile (a name recorded before a crash, or a race): the next free one.
        if (!(error instanceof TargetTaken) || file.outcome !== 'processed') throw error;
        target = await aim(true);
        await moveOnce(source, target);
      }
      if (options.mark) {
        this.queue.moved(file.id);
        this.logMoved(file);
      }
      return true;
    } catch (error) {
      this.made.delete(dir); // made again on the next try, should it have gone
      this.fail(file, {
        code: 'moveFailed',
        params: { error: (error as NodeJS.ErrnoException).code ?? String(error) },
      });
      return false;
    }
  }

  private logMoved(file: StationFile): void {
    this.opts.log(
      `station: ${file.name} → ${file.outcome}${file.docNumber ? ` (${file.docNumber})` : file.documentId ? ` (#${file.documentId})` : ''}`,
    );
  }

  private fail(file: StationFile, reason: Reason): void {
    const attempts = (this.queue.get(file.id)?.attempts ?? file.attempts) + 1;
    this.queue.failed(file.id, reason, this.opts.backoffMs(attempts), this.opts.maxAttempts);
    this.opts.log(`station: ${file.name}: ${reasonText('en', reason)} (try ${attempts})`);
  }
}
