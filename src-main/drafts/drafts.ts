/**
 * LocalDrafts (issue 14): drafts composed on this desk, sealed in the client's SQLite and the user-data
 * folder, sent to the server when it is there. Ownership, order, idempotency and conflicts:
 * docs/architecture.md, "Local drafts".
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  IPC_ERRORS,
  localDraftFieldsSchema,
  type LocalDraftCounts,
  type LocalDraftDetail,
  type LocalDraftFields,
  type LocalDraftList,
  type LocalDraftSummary,
} from '../../src-shared/ipc/contract';
import type { Direction } from '../../src-shared/api/correspondence';
import { localDraftOfUploadPath } from '../../src-shared/files';
import { IpcFailure } from '../ipc/dispatch';
import type { ApiClient } from '../services/api-client';
import type { LocalDraftRow } from '../services/local-drafts-table';
import type { LocalStore } from '../services/local-store';
import { openSealedFile, seal, sealFile, unseal } from './crypto';

/** Whose drafts are shown and sent now: the signed-in user on the server in use. */
export interface DraftOwner {
  userId: number;
  server: string;
}

export interface LocalDraftsOptions {
  store: LocalStore;
  api: ApiClient;
  /** The desk's drafts key (crypto.ts loadDraftKey). */
  key: Buffer;
  /** Where sealed files are kept (created if missing). */
  dir: string;
  owner: () => DraftOwner | null;
  log?: (line: string) => void;
  /** A draft saved less than this long ago is left to its open form by background passes (ms). */
  settleMs?: number;
}

const DOCUMENTS = '/correspondence/documents';

type Answer = { status: number; body: unknown };
/** Why a pass stops with the drafts left waiting (not refused). */
const WAIT = new Set<string>([IPC_ERRORS.serverUnreachable, IPC_ERRORS.notSignedIn]);
const ok = (status: number) => status >= 200 && status < 300;
const dataOf = <T>(body: unknown) => (body as { data: T }).data;
/** The server's own words for a refusal (its problem detail), or the status. */
const detailOf = (answer: Answer) =>
  (answer.body as { detail?: unknown } | null)?.detail &&
  typeof (answer.body as { detail: unknown }).detail === 'string'
    ? (answer.body as { detail: string }).detail
    : `HTTP ${answer.status}`;
const codeOf = (answer: Answer) => (answer.body as { code?: unknown } | null)?.code;

interface ServerDocument {
  id: number;
  version: number;
  state: string;
  related?: { id: number }[];
  attachments?: { sha256: string }[];
}

export class LocalDrafts {
  private readonly listeners = new Set<(counts: LocalDraftCounts) => void>();
  private pass: Promise<void> | null = null;
  private passAgain = false;
  /** Drafts their open form is sending itself (id → until when): background passes leave them alone. */
  private readonly claimed = new Map<string, number>();
  /** The draft a pass is sending now, and the end of that send. */
  private inFlight: { id: string; done: Promise<void> } | null = null;

  constructor(private readonly options: LocalDraftsOptions) {
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.tidy();
  }

  // ------------------------------------------------------------------ reading

  /** The owner's drafts that have not reached the server, or are in conflict or refused. */
  list(): LocalDraftList {
    const owner = this.options.owner();
    if (!owner) return { drafts: [], counts: { waiting: 0, conflicts: 0, failed: 0 } };
    const rows = this.table.list(owner.userId, owner.server).filter((r) => r.state !== 'synced' || r.dirty);
    const drafts = rows.map((r) => this.summary(r));
    return { drafts, counts: countsOf(drafts) };
  }

  get(id: string): LocalDraftDetail {
    const row = this.own(id);
    const summary = this.summary(row);
    const fields = summary.readable ? (this.fieldsOf(row) as Record<string, unknown>) : {};
    const fileList = this.table.files(id).map((f) => ({
      id: f.id,
      name: this.open(f.name, `${id}/${f.id}`) ?? '—',
      size: f.size,
      sha256: f.sha256,
    }));
    const theirs = row.theirs ? this.open(row.theirs, `${id}/theirs`) : null;
    return {
      ...summary,
      fields,
      fileList,
      theirs: theirs ? (JSON.parse(theirs) as Record<string, unknown>) : null,
    };
  }

  // ------------------------------------------------------------------ writing

  /** Keeps a form's fields; a new draft without `id` (or the one already kept for that server draft). */
  save(input: {
    id?: string | undefined;
    direction: Direction;
    fields: LocalDraftFields;
    serverId?: number | undefined;
    serverVersion?: number | undefined;
    /** The form gave up sending it itself (the server away): passes may send it again. */
    release?: boolean | undefined;
  }): LocalDraftSummary {
    const owner = this.requireOwner();
    const fields = localDraftFieldsSchema.parse(input.fields);
    let id = input.id;
    if (!id && input.serverId !== undefined)
      id = this.table.byServerId(owner.userId, owner.server, input.serverId)?.id;
    if (id) {
      this.own(id);
      if (input.release) this.claimed.delete(id);
      this.table.edit(id, seal(this.options.key, JSON.stringify(fields), id));
    } else {
      id = randomUUID();
      this.table.insert({
        id,
        user_id: owner.userId,
        server: owner.server,
        direction: input.direction,
        idem_key: `draft:${randomUUID()}`,
        content: seal(this.options.key, JSON.stringify(fields), id),
        server_id: input.serverId ?? null,
        server_version: input.serverId !== undefined ? (input.serverVersion ?? null) : null,
      });
    }
    this.changed();
    return this.summary(this.own(id));
  }

  /**
   * The open form is about to send this draft itself: passes leave it alone until it settles (or two
   * minutes pass), a send already under way is waited for, and the answer says which server draft the
   * form must update — so a pass and the form never make two server drafts of one.
   */
  async claim(id: string): Promise<{ serverId: number | null; serverVersion: number | null }> {
    this.own(id);
    this.claimed.set(id, Date.now() + 120_000);
    if (this.inFlight?.id === id) await this.inFlight.done.catch(() => {});
    const row = this.own(id);
    return { serverId: row.server_id, serverVersion: row.server_version };
  }

  /** The form sent the draft itself (fields and files): the local copy is the server's now. */
  settled(input: { id: string; serverId: number; serverVersion: number }): LocalDraftSummary {
    this.own(input.id);
    this.claimed.delete(input.id);
    for (const file of this.table.files(input.id)) this.dropFile(file.id, file.file);
    this.table.synced(input.id, input.serverId, input.serverVersion);
    this.changed();
    return this.summary(this.own(input.id));
  }

  removeFile(id: string, fileId: string): LocalDraftDetail {
    this.own(id);
    const file = this.table.file(id, fileId);
    if (!file) throw new IpcFailure(IPC_ERRORS.draftNotFound);
    this.dropFile(file.id, file.file);
    this.changed();
    return this.get(id);
  }

  /** Deletes a draft and its files from this desk (the server's copy, if any, stays). */
  delete(id: string): LocalDraftList {
    this.own(id);
    for (const file of this.table.files(id)) this.dropFile(file.id, file.file);
    this.table.remove(id);
    this.changed();
    return this.list();
  }

  /** Whether a file-source upload path is a local draft's (handled here, not sent to the API). */
  isUploadPath(path: string): boolean {
    return localDraftOfUploadPath(path) !== null;
  }

  /**
   * Keeps a file sent to `/local-drafts/<id>/files`: streamed into a sealed file (never whole in memory),
   * hashed on the way, refused unless its bytes start as a PDF does. Answers JSON like the API.
   */
  async receiveFile(
    path: string,
    body: ReadableStream<Uint8Array> | null,
    fileName: string,
  ): Promise<Response> {
    const id = localDraftOfUploadPath(path);
    const json = (status: number, payload: unknown) =>
      new Response(JSON.stringify(payload), { status, headers: { 'content-type': 'application/json' } });
    if (!id || !body) return json(404, { detail: 'Not found' });
    try {
      this.own(id);
    } catch {
      return json(404, { detail: 'Not found' });
    }
    const fileId = randomUUID();
    const target = join(this.options.dir, `${fileId}.sealed`);
    const hash = createHash('sha256');
    let size = 0;
    let head = Buffer.alloc(0);
    try {
      await sealFile(
        this.options.key,
        Readable.fromWeb(body as WebReadableStream<Uint8Array>),
        target,
        `${id}/${fileId}`,
        (chunk) => {
          hash.update(chunk);
          size += chunk.length;
          if (head.length < 1024) head = Buffer.concat([head, chunk.subarray(0, 1024 - head.length)]);
        },
      );
    } catch (error) {
      rmSync(`${target}.part`, { force: true });
      rmSync(target, { force: true });
      throw error;
    }
    if (!head.includes('%PDF-')) {
      rmSync(target, { force: true });
      return json(415, { code: 'upload.notPdf', detail: 'Please select a valid PDF file' });
    }
    const name = fileName.split(/[\\/]/).pop() || 'document.pdf';
    this.table.insertFile({
      id: fileId,
      draft_id: id,
      name: seal(this.options.key, name, `${id}/${fileId}`),
      size,
      sha256: hash.digest('hex'),
      file: target,
    });
    this.changed();
    return json(201, { data: { id: fileId, name, size } });
  }

  // ------------------------------------------------------------------ sending

  /**
   * Sends what waits, in order; answers the list after the pass. A pass already running is joined
   * (and followed by one more, so nothing saved during it waits for the next timer).
   */
  async sync(force = true): Promise<LocalDraftList> {
    if (this.pass) {
      this.passAgain = true;
      await this.pass;
      return this.list();
    }
    this.pass = this.runPass(force).finally(() => {
      this.pass = null;
    });
    await this.pass;
    if (this.passAgain) {
      this.passAgain = false;
      return this.sync(force);
    }
    return this.list();
  }

  /** A conflict settled: this desk's version sent over the server's, or the server's kept. */
  async resolve(id: string, keep: 'mine' | 'theirs'): Promise<LocalDraftList> {
    const row = this.own(id);
    if (row.state !== 'conflict' || !row.theirs || row.server_id === null) return this.list();
    const theirs = JSON.parse(this.open(row.theirs, `${id}/theirs`) ?? '{}') as ServerDocument;
    if (keep === 'theirs') {
      for (const file of this.table.files(id)) this.dropFile(file.id, file.file);
      this.table.synced(id, row.server_id, theirs.version);
    } else {
      // The clerk chose this desk's version over the one they saw: sent against that version.
      this.table.rebase(id, theirs.version);
    }
    this.changed();
    return this.sync();
  }

  /** Passes when the server returns, and every `intervalMs` meanwhile; answers the stop function. */
  startAutoSync(intervalMs = 30_000): () => void {
    const stopWatch = this.options.api.connection.onChange((online) => {
      if (online) void this.sync(true).catch(() => {});
    });
    const timer = setInterval(() => void this.sync(false).catch(() => {}), intervalMs);
    timer.unref();
    return () => {
      stopWatch();
      clearInterval(timer);
    };
  }

  onChange(listener: (counts: LocalDraftCounts) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private async runPass(force: boolean): Promise<void> {
    const owner = this.options.owner();
    if (!owner) return;
    const settled = new Date(Date.now() - (this.options.settleMs ?? 5000)).toISOString();
    const rows = this.table
      .list(owner.userId, owner.server)
      .filter((r) => r.state === 'pending' && (r.dirty || this.table.files(r.id).length > 0))
      .filter((r) => force || r.updated_at < settled)
      .filter((r) => (this.claimed.get(r.id) ?? 0) < Date.now());
    for (const row of rows) {
      try {
        const done = this.send(row);
        this.inFlight = { id: row.id, done };
        await done;
      } catch (error) {
        // The server away, overloaded or the session ended: everything waits for the next pass.
        if (error instanceof IpcFailure && WAIT.has(error.code)) break;
        this.table.failed(row.id, error instanceof Error ? error.message : String(error));
        this.options.log?.(`local draft ${row.id} failed: ${String(error)}`);
      } finally {
        this.inFlight = null;
        this.changed();
      }
      if (!this.options.api.connection.isOnline) break;
    }
  }

  /**
   * A refusal of the server for this draft: kept with its words (the clerk fixes or deletes the draft).
   * Not a refusal: a 401 (the session ended — it waits for the next sign-in) or a 5xx / 429 (the server
   * cannot now — it waits for the next pass); those stop the pass and leave the draft waiting.
   */
  private refuse(row: LocalDraftRow, answer: Answer): void {
    if (answer.status === 401) throw new IpcFailure(IPC_ERRORS.notSignedIn);
    if (answer.status >= 500 || answer.status === 429) throw new IpcFailure(IPC_ERRORS.serverUnreachable);
    this.table.failed(row.id, detailOf(answer));
  }

  /** Sends one draft: created or updated, then its files; the local copy then records the server's. */
  private async send(row: LocalDraftRow): Promise<void> {
    const api = this.options.api;
    let fields: LocalDraftFields;
    try {
      fields = this.fieldsOf(row);
    } catch {
      this.table.failed(row.id, 'unreadable');
      return;
    }
    let serverId = row.server_id;
    let version = row.server_version;
    let doc: ServerDocument | null = null;
    /** The server draft does not say what this desk's draft says now: it is updated below. */
    let behind = row.dirty === 1;
    if (serverId === null) {
      // The create request as its key first went (a lost answer retried), or as the draft is now.
      const now = { ...fields, direction: row.direction, register: false };
      const first = row.sent ? this.open(row.sent, `${row.id}/sent`) : null;
      const body = first !== null ? (JSON.parse(first) as typeof now) : now;
      if (first === null)
        this.table.sending(row.id, seal(this.options.key, JSON.stringify(now), `${row.id}/sent`));
      const answer = await api.request(
        { method: 'POST', path: DOCUMENTS, body },
        { 'Idempotency-Key': row.idem_key },
      );
      if (!ok(answer.status)) return this.refuse(row, answer);
      doc = dataOf<ServerDocument>(answer.body);
      serverId = doc.id;
      version = doc.version;
      this.table.created(row.id, doc.id, doc.version);
      behind = JSON.stringify(body) !== JSON.stringify(now);
    }
    if (behind) {
      const { relatedIds, ...update } = fields;
      const answer = await api.request(
        { method: 'PUT', path: `${DOCUMENTS}/${serverId}`, body: update },
        version !== null ? { 'If-Match': String(version) } : {},
      );
      if (answer.status === 409 && codeOf(answer) === 'document.versionConflict') {
        const theirs = await api.request({ method: 'GET', path: `${DOCUMENTS}/${serverId}` });
        if (!ok(theirs.status)) return this.refuse(row, theirs);
        const body = JSON.stringify(dataOf<unknown>(theirs.body));
        return this.table.conflict(row.id, seal(this.options.key, body, `${row.id}/theirs`));
      }
      if (!ok(answer.status)) return this.refuse(row, answer);
      doc = dataOf<ServerDocument>(answer.body);
      const linked = new Set((doc.related ?? []).map((r) => r.id));
      const missing = (relatedIds ?? []).filter((rid) => !linked.has(rid));
      if (missing.length > 0) {
        const related = await api.request({
          method: 'POST',
          path: `${DOCUMENTS}/${serverId}/related`,
          body: { documentIds: missing },
        });
        if (!ok(related.status)) return this.refuse(row, related);
      }
    }
    const files = this.table.files(row.id);
    if (files.length > 0) {
      const current = await api.request({ method: 'GET', path: `${DOCUMENTS}/${serverId}` });
      if (!ok(current.status)) return this.refuse(row, current);
      const held = new Set((dataOf<ServerDocument>(current.body).attachments ?? []).map((a) => a.sha256));
      for (const file of files) {
        if (!held.has(file.sha256)) {
          const name = this.open(file.name, `${row.id}/${file.id}`) ?? 'document.pdf';
          const body = await openSealedFile(this.options.key, file.file, `${row.id}/${file.id}`);
          const answer = await api.uploadFile(
            `${DOCUMENTS}/${serverId}/attachments`,
            Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>,
            name,
            'application/pdf',
          );
          if (answer.status === 502) throw new IpcFailure(IPC_ERRORS.serverUnreachable);
          const payload: unknown = await answer.json().catch(() => null);
          if (!ok(answer.status)) return this.refuse(row, { status: answer.status, body: payload });
          held.add(file.sha256);
        }
        this.dropFile(file.id, file.file);
      }
    }
    const latest = await api.request({ method: 'GET', path: `${DOCUMENTS}/${serverId}` });
    if (!ok(latest.status)) return this.refuse(row, latest);
    this.table.synced(row.id, serverId, dataOf<ServerDocument>(latest.body).version);
  }

  // ------------------------------------------------------------------ internals

  private get table() {
    return this.options.store.drafts();
  }

  private requireOwner(): DraftOwner {
    const owner = this.options.owner();
    if (!owner) throw new IpcFailure(IPC_ERRORS.notSignedIn);
    return owner;
  }

  /** The row, if it is the signed-in user's on the server in use (else "not found", never "forbidden"). */
  private own(id: string): LocalDraftRow {
    const owner = this.requireOwner();
    const row = this.table.get(id);
    if (!row || row.user_id !== owner.userId || row.server !== owner.server)
      throw new IpcFailure(IPC_ERRORS.draftNotFound);
    return row;
  }

  private fieldsOf(row: LocalDraftRow): LocalDraftFields {
    return localDraftFieldsSchema.parse(JSON.parse(unseal(this.options.key, row.content, row.id)));
  }

  /** A sealed value in clear, or null when it cannot be opened. */
  private open(sealed: Buffer, aad: string): string | null {
    try {
      return unseal(this.options.key, sealed, aad);
    } catch {
      return null;
    }
  }

  private summary(row: LocalDraftRow): LocalDraftSummary {
    let subject = '';
    let readable = true;
    try {
      subject = this.fieldsOf(row).subject ?? '';
    } catch {
      readable = false;
    }
    return {
      id: row.id,
      direction: row.direction as Direction,
      subject,
      state: row.state,
      dirty: row.dirty === 1,
      serverId: row.server_id,
      serverVersion: row.server_version,
      files: this.table.files(row.id).length,
      error: row.error,
      readable,
      updatedAt: row.updated_at,
    };
  }

  private dropFile(fileId: string, file: string): void {
    this.table.removeFile(fileId);
    rmSync(file, { force: true });
  }

  /** What waits, counted by the database (nothing is opened: a save stays cheap however many wait). */
  counts(): LocalDraftCounts {
    const owner = this.options.owner();
    if (!owner) return { waiting: 0, conflicts: 0, failed: 0 };
    const by = this.table.counts(owner.userId, owner.server);
    return { waiting: by.pending ?? 0, conflicts: by.conflict ?? 0, failed: by.failed ?? 0 };
  }

  private changed(): void {
    if (this.listeners.size === 0) return;
    const counts = this.counts();
    for (const listener of this.listeners) {
      try {
        listener(counts);
      } catch {
        // a broken listener must not stop a save
      }
    }
  }

  /** At start: sealed files no row names (a crash between writing and recording) are removed. */
  private tidy(): void {
    const known = new Set(this.table.allFiles());
    for (const name of readdirSync(this.options.dir)) {
      const path = join(this.options.dir, name);
      if (!known.has(path)) rmSync(path, { force: true });
    }
    this.table.pruneSynced(new Date(Date.now() - 7 * 86_400_000).toISOString());
  }
}

function countsOf(drafts: LocalDraftSummary[]): LocalDraftCounts {
  return {
    waiting: drafts.filter((d) => d.state === 'pending').length,
    conflicts: drafts.filter((d) => d.state === 'conflict').length,
    failed: drafts.filter((d) => d.state === 'failed').length,
  };
}

/** The hosts' owner: the signed-in user (with a token in the vault) on the server in use. */
export function sessionOwner(
  store: LocalStore,
  vault: { getToken(): string | null },
  api: ApiClient,
): () => DraftOwner | null {
  return () => {
    const user = store.get<{ id?: unknown }>('user');
    if (!vault.getToken() || !user || typeof user.id !== 'number') return null;
    return { userId: user.id, server: api.baseUrl() };
  };
}

/**
 * The file source's uploads: a local draft's file is kept here; anything else goes to the API
 * (ApiClient.uploadFile), as before.
 */
export function routeUploads(drafts: LocalDrafts, api: ApiClient) {
  return (path: string, body: ReadableStream<Uint8Array> | null, fileName: string, contentType: string) =>
    drafts.isUploadPath(path)
      ? drafts.receiveFile(path, body, fileName)
      : api.uploadFile(path, body, fileName, contentType);
}
