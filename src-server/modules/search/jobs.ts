/**
 * The background work of search, on the job queue (src-server/jobs/queue.ts):
 *
 * - `search.read` {attachmentId}: reads an attachment's text page by page (the text layer, or OCR of a
 *   page without one — src-server/modules/search/extract.ts), stores it in attachment_pages with the
 *   attachment's progress ("reading… 3 of 10 pages"), then indexes its document. A file already read for
 *   another attachment (same content) is copied, not read again — only from a document its uploader may
 *   see: a copy is done at once where a reading takes seconds, so copying from a hidden document would tell
 *   the uploader, watching their attachment, that a document hidden from them holds the same file
 *   (correspondence/queries.ts `holdersOf`: a hash is compared only within what the caller sees). A broken
 *   or encrypted file fails at once
 *   (`failed`, with the reason); anything else is retried, and marked `failed` on its last attempt.
 * - `search.index` {documentId}: rebuilds the document's index entry (indexer.ts).
 * - `search.relex` {attachmentId}: remakes the lexemes of pages made by an older lexicon, from their text.
 * - `search.reread` {attachmentId}: reads again the pages read from their text layer by an older reader
 *   (READER_VERSION, extract.ts), from the file; the pages read by OCR are kept.
 *
 * Database triggers enqueue both (migration `search_triggers`): a new attachment is read; a change of a
 * document's searched fields, its receivers, its distributions' or tasks' notes, or its attachments
 * re-indexes it. No write path has to remember to.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import type { ServerContext } from '../../context';
import { PermanentJobError, type JobContext } from '../../jobs/queue';
import { rowsOf } from '../../db/rows';
import { scopeOf, visibleTo, type Scope } from '../correspondence/visibility';
import { extractPdfText, PdfExtractionError, READER_VERSION, type PageText } from './extract';
import { LEXICON_VERSION } from '../../../src-shared/search';
import { pageLexemesSql, reindexDocument } from './indexer';

export const SEARCH_READ = 'search.read';
export const SEARCH_INDEX = 'search.index';
export const SEARCH_RELEX = 'search.relex';
export const SEARCH_REREAD = 'search.reread';
/** Attempts of a read before the attachment is marked failed (the triggers enqueue with this). */
export const READ_ATTEMPTS = 3;

const payloadId = (payload: unknown, key: string): number => {
  const value = (payload as Record<string, unknown> | null)?.[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new PermanentJobError(`bad payload: ${key}`);
  return value;
};

/** A message that says what went wrong, for the attachment and the job. */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** Stores the pages of an attachment (replacing any earlier reading) and marks it done. */
/**
 * Pages a statement when an attachment's text is stored. Not hundreds: the embedded database runs one
 * statement at a time for the whole server, and a statement of 300 pages (their lexemes indexed) held
 * every API request behind it for a few hundred milliseconds (bench/pdf-viewer: the event loop's delay
 * while a 300-page file is read).
 */
const PAGES_PER_STATEMENT = 10;

/**
 * Stores an attachment's pages, a piece at a time, each piece its own statement (no transaction around
 * them, which would hold the embedded database for all of them), then marks the attachment done. A run
 * cut short leaves the attachment `reading`, with some pages; reading it again stores every page anew
 * (an upsert, so pages left from before are replaced) and the attachment says `done` only at the end.
 */
async function storePages(ctx: ServerContext, job: JobContext, attachmentId: number, pages: PageText[]) {
  await ctx.db.execute(
    sql`delete from attachment_pages where attachment_id = ${attachmentId} and page > ${pages.length}`,
  );
  for (let start = 0; start < pages.length; start += PAGES_PER_STATEMENT) {
    const rows = pages
      .slice(start, start + PAGES_PER_STATEMENT)
      .map(
        (p) =>
          sql`(${attachmentId}, ${p.page}, ${p.method}, ${p.text}, ${pageLexemesSql(p.text)}, ${LEXICON_VERSION}, ${READER_VERSION})`,
      );
    await ctx.db
      .execute(sql`insert into attachment_pages (attachment_id, page, method, text, lexemes, lexicon, reader)
      values ${sql.join(rows, sql`, `)}
      on conflict (attachment_id, page) do update
        set method = excluded.method, text = excluded.text, lexemes = excluded.lexemes,
            lexicon = excluded.lexicon, reader = excluded.reader`);
    // Let the requests that arrived meanwhile through before the next piece, and give way to those
    // being answered (a viewer reading this very file's ranges).
    await new Promise<void>((resolve) => setImmediate(resolve));
    await job.giveWay();
  }
  await ctx.db.execute(sql`update document_attachments set text_status = 'done', text_error = null,
    text_pages = ${pages.length}, text_pages_done = ${pages.length} where id = ${attachmentId}`);
}

/**
 * Runs `use` on a stored file's path on this disk: where it lies for a store on this disk; for any other
 * (S3), a temporary copy, removed afterwards.
 */
async function onDisk<T>(ctx: ServerContext, sha256: string, use: (path: string) => Promise<T>): Promise<T> {
  const local = ctx.files.localPath?.(sha256) ?? null;
  if (local !== null) return use(local);
  const dir = await mkdtemp(join(ctx.files.tempDir, 'read-'));
  try {
    const path = join(dir, 'file.pdf');
    await pipeline(ctx.files.open(sha256), createWriteStream(path));
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What the user who uploaded an attachment may see (null: the uploader is not known any more). */
async function uploaderScope(ctx: ServerContext, userId: number | null): Promise<Scope | null> {
  if (userId === null) return null;
  const [user] = await rowsOf<{ is_system: boolean }>(
    ctx.db,
    sql`select r.is_system from users u join roles r on r.id = u.role_id where u.id = ${userId}`,
  );
  return user ? scopeOf(ctx.db, { userId, isSystem: user.is_system === true }) : null;
}

/** `search.read`. */
export async function readAttachment(ctx: ServerContext, job: JobContext): Promise<void> {
  const attachmentId = payloadId(job.payload, 'attachmentId');
  const [row] = await rowsOf<{ document_id: number; sha256: string; uploaded_by: number | null }>(
    ctx.db,
    sql`select document_id, sha256, uploaded_by from document_attachments where id = ${attachmentId}`,
  );
  if (!row) return; // removed since
  const documentId = row.document_id;
  // The same file read for another attachment its uploader may see: its pages, copied.
  const scope = await uploaderScope(ctx, row.uploaded_by);
  const [twin] = scope
    ? await rowsOf<{ id: number }>(
        ctx.db,
        sql`select a.id from document_attachments a join documents d on d.id = a.document_id
             where a.sha256 = ${row.sha256} and a.id <> ${attachmentId} and a.text_status = 'done'
               and ${visibleTo(scope)}
               and not exists (select 1 from attachment_pages p where p.attachment_id = a.id
                                and p.method = 'text' and p.reader < ${READER_VERSION})
             order by a.id limit 1`,
      )
    : [];
  if (twin) {
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`delete from attachment_pages where attachment_id = ${attachmentId}`);
      await tx.execute(sql`insert into attachment_pages (attachment_id, page, method, text, lexemes, lexicon, reader)
        select ${attachmentId}, page, method, text, lexemes, lexicon, reader from attachment_pages
         where attachment_id = ${twin.id}`);
      await tx.execute(sql`update document_attachments a set text_status = 'done', text_error = null,
        text_pages = t.text_pages, text_pages_done = t.text_pages
        from document_attachments t where t.id = ${twin.id} and a.id = ${attachmentId}`);
    });
    await reindexDocument(ctx.db, documentId);
    return;
  }
  // A file just uploaded is often opened at once: its reading (a child process to start, the file to
  // parse) waits for the requests being answered to calm, as between its pages.
  await job.giveWay();
  await ctx.db.execute(sql`update document_attachments set text_status = 'reading', text_pages_done = 0,
    text_pages = null where id = ${attachmentId}`);
  try {
    let last = 0;
    const pages = await onDisk(ctx, row.sha256, (path) =>
      extractPdfText(path, {
        signal: job.signal,
        // Between pages, the requests being answered go first (bench/pdf-viewer: a file opened in the
        // viewer while it is read; the child is at the lowest priority, the thread it reports to is not).
        beforePage: () => job.giveWay(),
        onProgress: (done, total) => {
          // A write per page at most every half second: the clerk sees it move, the database is not flooded.
          const now = Date.now();
          if (done !== total && now - last < 500) return;
          last = now;
          void ctx.db
            .execute(
              sql`update document_attachments set text_pages_done = ${done}, text_pages = ${total}
                where id = ${attachmentId} and text_status = 'reading'`,
            )
            .catch(() => undefined);
        },
      }),
    );
    await storePages(ctx, job, attachmentId, pages);
  } catch (error) {
    const reason = reasonOf(error);
    // A file that is not a readable PDF will not become one: failed at once. Anything else may pass.
    const broken =
      error instanceof PermanentJobError ||
      (error instanceof PdfExtractionError && error.reason !== 'missing');
    const last = broken || job.attempt >= READ_ATTEMPTS;
    await ctx.db.execute(sql`update document_attachments
      set text_status = ${last ? 'failed' : 'pending'}, text_error = ${reason} where id = ${attachmentId}`);
    if (broken) throw new PermanentJobError(reason);
    throw error;
  }
  await reindexDocument(ctx.db, documentId);
}

/**
 * `search.relex` {attachmentId}: remakes the lexemes of an attachment's pages made by an older lexicon
 * (LEXICON_VERSION) from their stored text — the file is not read again — a piece at a time, giving way
 * to the requests, then indexes its document.
 */
export async function relexAttachment(ctx: ServerContext, job: JobContext): Promise<void> {
  const attachmentId = payloadId(job.payload, 'attachmentId');
  for (;;) {
    const pages = await rowsOf<{ page: number; text: string }>(
      ctx.db,
      sql`select page, text from attachment_pages
           where attachment_id = ${attachmentId} and lexicon < ${LEXICON_VERSION}
           order by page limit ${PAGES_PER_STATEMENT}`,
    );
    if (!pages.length) break;
    job.signal.throwIfAborted();
    await ctx.db.execute(sql`update attachment_pages p set lexemes = v.lexemes, lexicon = ${LEXICON_VERSION}
      from (values ${sql.join(
        pages.map((p) => sql`(${p.page}::int, ${pageLexemesSql(p.text)})`),
        sql`, `,
      )}) as v(page, lexemes)
      where p.attachment_id = ${attachmentId} and p.page = v.page`);
    await job.giveWay();
  }
  const [row] = await rowsOf<{ document_id: number }>(
    ctx.db,
    sql`select document_id from document_attachments where id = ${attachmentId}`,
  );
  if (row) await reindexDocument(ctx.db, row.document_id);
}

/**
 * `search.reread` {attachmentId}: reads again, from the file, the pages an older reader read from their
 * text layer (READER_VERSION), without OCR; a page read by OCR keeps its text. The attachment stays `done`
 * and its old text answers until the new one is stored. A file that cannot be read any more keeps its old
 * text, marked as read by this reader so it is not tried at every start.
 */
export async function rereadAttachment(ctx: ServerContext, job: JobContext): Promise<void> {
  const attachmentId = payloadId(job.payload, 'attachmentId');
  const [row] = await rowsOf<{ document_id: number; sha256: string }>(
    ctx.db,
    sql`select document_id, sha256 from document_attachments where id = ${attachmentId} and text_status = 'done'`,
  );
  if (!row) return; // removed, or being read anew
  const stored = await rowsOf<{ page: number; method: PageText['method']; text: string }>(
    ctx.db,
    sql`select page, method, text from attachment_pages where attachment_id = ${attachmentId} order by page`,
  );
  if (!stored.some((p) => p.method === 'text')) return;
  await job.giveWay();
  let pages: PageText[];
  try {
    pages = await onDisk(ctx, row.sha256, (path) =>
      extractPdfText(path, { ocr: false, signal: job.signal, beforePage: () => job.giveWay() }),
    );
  } catch (error) {
    if (!(error instanceof PdfExtractionError) || job.attempt < READ_ATTEMPTS) throw error;
    await ctx.db.execute(sql`update attachment_pages set reader = ${READER_VERSION}
      where attachment_id = ${attachmentId}`);
    throw new PermanentJobError(reasonOf(error));
  }
  // The pages OCR read keep their text (reading them again would be minutes, and gives the same).
  const ocr = new Map(stored.filter((p) => p.method === 'ocr').map((p) => [p.page, p]));
  await storePages(
    ctx,
    job,
    attachmentId,
    pages.map((p) => ocr.get(p.page) ?? p),
  );
  await reindexDocument(ctx.db, row.document_id);
}

/** `search.index`. */
export async function indexDocument(ctx: ServerContext, job: JobContext): Promise<void> {
  await reindexDocument(ctx.db, payloadId(job.payload, 'documentId'));
}

/**
 * Registers the search jobs on the server's queue. Reading runs one file at a time (OCR is a separate,
 * lower-priority process: the API keeps its core); indexing a few at once.
 */
export function registerSearchJobs(ctx: ServerContext): void {
  ctx.jobs.register(SEARCH_READ, (job) => readAttachment(ctx, job), {
    concurrency: 1,
    timeoutMs: 60 * 60_000,
  });
  ctx.jobs.register(SEARCH_INDEX, (job) => indexDocument(ctx, job), {
    concurrency: 2,
    timeoutMs: 5 * 60_000,
  });
  ctx.jobs.register(SEARCH_RELEX, (job) => relexAttachment(ctx, job), {
    concurrency: 1,
    timeoutMs: 30 * 60_000,
  });
  ctx.jobs.register(SEARCH_REREAD, (job) => rereadAttachment(ctx, job), {
    concurrency: 1,
    timeoutMs: 60 * 60_000,
  });
}

/**
 * Work left from before (attachments never read, documents never indexed — an upgrade, or a database
 * restored from a backup): queued again at start. Idempotent: the queue's keys keep one job per item.
 */
export async function enqueueMissingSearchWork(ctx: ServerContext): Promise<void> {
  await ctx.db.execute(sql`insert into background_jobs (kind, payload, key, max_attempts)
    select ${SEARCH_READ}, jsonb_build_object('attachmentId', a.id), 'attachment:' || a.id, ${READ_ATTEMPTS}
      from document_attachments a where a.text_status in ('pending', 'reading')
    on conflict do nothing`);
  await ctx.db.execute(sql`insert into background_jobs (kind, payload, key)
    select ${SEARCH_INDEX}, jsonb_build_object('documentId', d.id), 'document:' || d.id
      from documents d where not exists (select 1 from document_search s where s.document_id = d.id)
    on conflict do nothing`);
  // Pages read from their text layer by an older reader: read again from the file (OCR pages kept).
  await ctx.db.execute(sql`insert into background_jobs (kind, payload, key, max_attempts)
    select ${SEARCH_REREAD}, jsonb_build_object('attachmentId', a.id), 'reread:' || a.id, ${READ_ATTEMPTS}
      from document_attachments a
     where a.text_status = 'done'
       and exists (select 1 from attachment_pages p
                    where p.attachment_id = a.id and p.method = 'text' and p.reader < ${READER_VERSION})
    on conflict do nothing`);
  // An index made by an older lexicon (an upgrade of the stemmer, the rebuild migration): attachments'
  // pages are remade from their stored text, each then indexing its document; the other documents are
  // indexed again. Until then the old entries still answer.
  await ctx.db.execute(sql`insert into background_jobs (kind, payload, key)
    select ${SEARCH_RELEX}, jsonb_build_object('attachmentId', a.id), 'relex:' || a.id
      from document_attachments a
     where exists (select 1 from attachment_pages p where p.attachment_id = a.id and p.lexicon < ${LEXICON_VERSION})
    on conflict do nothing`);
  await ctx.db.execute(sql`insert into background_jobs (kind, payload, key)
    select ${SEARCH_INDEX}, jsonb_build_object('documentId', s.document_id), 'document:' || s.document_id
      from document_search s
     where s.lexicon < ${LEXICON_VERSION}
       and not exists (select 1 from document_attachments a join attachment_pages p on p.attachment_id = a.id
                        where a.document_id = s.document_id and p.lexicon < ${LEXICON_VERSION})
    on conflict do nothing`);
}
