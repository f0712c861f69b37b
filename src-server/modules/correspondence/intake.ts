/**
 * Intake: a scanning station's PDFs arriving, one a request (POST /correspondence/intake) or a batch
 * (POST /correspondence/intake/batch). Each file becomes an incoming draft, or an attachment (or an
 * addition after approval) of the document whose number the station read. Exactly once, one copy of a
 * scan, no leak through duplicates: docs/intake.md.
 */
import type { IntakePart, IntakeResult } from '../../../src-shared/api/correspondence';
import { parseRegistrationNumber } from '../../../src-shared/numbering';
import type { ServerContext } from '../../context';
import type { AuthContext } from '../../http/access';
import { HttpProblem, PROBLEM_STATUS } from '../../http/problem';
import { cleanFileName, type FileIdentity, type ReceivedFile } from '../../http/upload';
import { intakeRequestHash, keyReused, sameRequest } from '../../http/idempotency';
import { readPageCodes } from '../search/ocr-process';
import { cutReceived, pageRanges, type CutPart } from './batch-cut';
import { requireOnDirection, scope, visibleDocument } from './common';
import { fileAttachment, requireFiling } from './documents';
import * as q from './queries';
import type { Tx } from '../auth/queries';
import type { Scope } from './visibility';

/** One file handed to intake: its key, the number its name carries, and how to read its bytes. */
export interface IntakeFile {
  key: string;
  number?: string | undefined;
  /**
   * Reads and checks the file (413, 415 and 422 refuse this file only; any other failure the request).
   * Intake calls `receive`, `skip` or `identify` once for every file, in order.
   */
  receive(): Promise<ReceivedFile>;
  /** Passes over the file's bytes unread: its answer is known without them (a refusal, an old receipt). */
  skip(): Promise<void>;
  /** Reads the file keeping only its hash and name: a retry, compared with the request it retries. */
  identify(): Promise<FileIdentity>;
}

/** What intake did with one file: the status the single route answers, and its result or problem. */
export type IntakeOutcome =
  { status: 200 | 201; result: IntakeResult } | { status: number; problem: HttpProblem };

/**
 * A scan filed on the document its number names (content.ts): part of a draft's or a registered letter's
 * content, the signed copy of an approved letter or memo (an addition after approval).
 */
const SCAN = { change: 'attach', kind: 'scan' } as const;

/** Problems that refuse one file of a batch (its bytes), not the whole request. */
const FILE_REFUSALS = new Set<string>(['payloadTooLarge', 'unsupportedMediaType', 'unprocessable']);

const duplicate = (holder: { id: number; doc_number: string | null } | undefined) =>
  new HttpProblem('conflict', {
    code: 'intake.duplicate',
    detailKey: holder ? 'intake.duplicateOf' : 'intake.duplicate',
    params: { document: holder ? (holder.doc_number ?? `#${holder.id}`) : '' },
  });

const noSuchNumber = (number: string) =>
  new HttpProblem('notFound', {
    code: 'intake.noSuchNumber',
    detailKey: 'intake.noSuchNumber',
    params: { number },
  });

/** A code on a batch's page names a document that does not exist or that the caller may not file on. */
const noSuchCoded = (number: string, pages: string) =>
  new HttpProblem('notFound', {
    code: 'intake.noSuchNumber',
    detailKey: 'intake.codedNumber',
    params: { number, pages },
  });

/** The hash of a file's request (http/idempotency.ts), from what was received or identified of it. */
const hashOf = (file: FileIdentity, number: string | undefined) =>
  intakeRequestHash({ sha256: file.sha256, fileName: file.fileName ?? '', number: number ?? null });

/**
 * A received file's name as intake records it (cleaned for display; a name made from its hash if none).
 * A file is a PDF by its bytes, whatever its name: one named `scan.txt` or `scan` is recorded as
 * `scan.txt.pdf` or `scan.pdf`, so it opens as what it is wherever it is saved.
 */
const intakeName = (file: ReceivedFile) => {
  const name = cleanFileName(file.fileName, `scan-${file.sha256.slice(0, 8)}.pdf`);
  return /\.pdf$/i.test(name) ? name : cleanFileName(`${name}.pdf`, name);
};

/** Runs `check`; answers the problem it throws (a refusal of one file), or null when it passes. */
async function refusalOf(check: () => Promise<unknown>): Promise<HttpProblem | null> {
  try {
    await check();
    return null;
  } catch (error) {
    if (error instanceof HttpProblem) return error;
    throw error;
  }
}

/** The document a registration number names, when the caller may file on it (else why not). */
async function filingTarget(
  db: Tx,
  caller: AuthContext,
  s: Scope,
  number: string,
): Promise<number | HttpProblem> {
  const id = parseRegistrationNumber(number) ? await q.documentIdByNumber(db, number.trim()) : null;
  if (id === null) return noSuchNumber(number);
  return (
    (await refusalOf(async () => requireFiling(db, caller, s, await visibleDocument(db, s, id), SCAN))) ?? id
  );
}

/** Files a received (and stored) file on a numbered document, unless its content is held already. */
async function attachTo(
  ctx: ServerContext,
  caller: AuthContext,
  s: Scope,
  key: string,
  documentId: number,
  file: ReceivedFile,
  requestHash: string,
): Promise<{ made: q.IntakeReceiptRow } | { prior: q.IntakeReceiptRow } | { held: true }> {
  const fileName = intakeName(file);
  return ctx.db.transaction(async (tx) => {
    await q.lockContent(tx, file.sha256);
    const raced = await q.intakeReceipt(tx, s.userId, key);
    if (raced) return { prior: raced };
    if (await q.visibleHolderOf(tx, s, file.sha256)) return { held: true as const };
    // Checked again under the lock: the document may have moved on while the file arrived.
    const verdict = await requireFiling(tx, caller, s, await visibleDocument(tx, s, documentId, true), SCAN);
    const attachmentId = await fileAttachment(tx, s, documentId, verdict, {
      sha256: file.sha256,
      fileName,
      size: file.size,
    });
    await q.insertIntakeReceipt(tx, {
      userId: s.userId,
      key,
      sha256: file.sha256,
      documentId,
      attachmentId,
      requestHash,
    });
    return {
      made: {
        document_id: documentId,
        attachment_id: attachmentId,
        sha256: file.sha256,
        request_hash: requestHash,
      },
    };
  });
}

/** What a cut batch made: each part's document and file, in batch order. */
interface CutOutcome {
  parts: { part: CutPart; documentId: number; attachmentId: number }[];
}

/**
 * Files every part of a batch cut by its codes, all in one transaction: a part named by a cover sheet or a
 * sticker on the document it names (as a scan filed by its number is), any other part on the document the
 * file's name numbers, or else as a new incoming draft. Any part refused (an unknown or hidden number, a
 * document closed to filing, content the archive holds) refuses the whole batch, and nothing is made:
 * never half a batch. The batch's key gets a receipt naming its first part and counting the parts, each
 * part one keyed `<key>#<n>` with its pages, so a retry answers all of them.
 */
async function fileCutBatch(
  ctx: ServerContext,
  caller: AuthContext,
  s: Scope,
  v: {
    key: string;
    batch: ReceivedFile;
    batchName: string;
    parts: CutPart[];
    requestHash: string;
    /** The document the file's name numbers, if any: where a part without a code of its own goes. */
    target: number | undefined;
  },
): Promise<CutOutcome | { prior: q.IntakeReceiptRow }> {
  return ctx.db.transaction(async (tx) => {
    await q.lockContents(
      tx,
      v.parts.map((p) => p.sha256),
    );
    const raced = await q.intakeReceipt(tx, s.userId, v.key);
    if (raced) return { prior: raced };
    /** Each part's document (null: a new draft) and the verdict filing on it gives. */
    const verdicts = new Map<number, Awaited<ReturnType<typeof requireFiling>>>();
    const documentOf = new Map<CutPart, number | null>();
    for (const part of v.parts) {
      let id: number | null = v.target ?? null;
      if (part.number !== undefined) {
        const found = await filingTarget(tx, caller, s, part.number);
        // The same answer for a number that does not exist and one the caller may not see or file on.
        if (found instanceof HttpProblem) throw noSuchCoded(part.number, pageRanges(part.pages));
        id = found;
      }
      if (id !== null && !verdicts.has(id))
        verdicts.set(id, await requireFiling(tx, caller, s, await visibleDocument(tx, s, id, true), SCAN));
      documentOf.set(part, id);
      if (await q.visibleHolderOf(tx, s, part.sha256)) {
        const [holder] = await q.holdersOf(tx, s, part.sha256, null, 1);
        throw new HttpProblem('conflict', {
          code: 'intake.duplicate',
          detailKey: 'intake.partDuplicate',
          params: {
            pages: pageRanges(part.pages),
            document: holder ? (holder.doc_number ?? `#${holder.id}`) : '',
          },
        });
      }
    }
    const origin = (part: CutPart) => ({ batch: v.batchName, pages: part.pages });
    const made = new Map<CutPart, { documentId: number; attachmentId: number }>();
    const drafts = v.parts.filter((part) => documentOf.get(part) === null);
    if (drafts.length > 0) {
      const outcomes = await q.intakeDrafts(tx, {
        scope: s,
        archiveDepartmentId: s.archiveDepartmentId,
        files: drafts.map((part) => ({
          key: `${v.key}#${v.parts.indexOf(part) + 1}`,
          requestHash: v.requestHash,
          sha256: part.sha256,
          subject: part.fileName.replace(/\.pdf$/i, '').slice(0, 300),
          fileName: part.fileName,
          size: part.bytes.length,
          origin: origin(part),
        })),
      });
      outcomes.forEach((outcome, n) => {
        // Checked above under the same locks: a part's key is new, its content held by nobody visible.
        if (!('made' in outcome)) throw new Error('a part of a cut batch was found made already');
        made.set(drafts[n]!, outcome.made);
      });
    }
    for (const [n, part] of v.parts.entries()) {
      const documentId = documentOf.get(part);
      if (documentId === null || documentId === undefined) continue;
      const attachmentId = await fileAttachment(
        tx,
        s,
        documentId,
        verdicts.get(documentId)!,
        { sha256: part.sha256, fileName: part.fileName, size: part.bytes.length },
        origin(part),
      );
      await q.insertIntakeReceipt(tx, {
        userId: s.userId,
        key: `${v.key}#${n + 1}`,
        sha256: part.sha256,
        documentId,
        attachmentId,
        requestHash: v.requestHash,
        pages: part.pages,
      });
      made.set(part, { documentId, attachmentId });
    }
    const first = made.get(v.parts[0]!)!;
    await q.insertIntakeReceipt(tx, {
      userId: s.userId,
      key: v.key,
      sha256: v.batch.sha256,
      documentId: first.documentId,
      attachmentId: first.attachmentId,
      requestHash: v.requestHash,
      parts: v.parts.length,
    });
    return { parts: v.parts.map((part) => ({ part, ...made.get(part)! })) };
  });
}

/**
 * Takes files in, each as POST /correspondence/intake describes; answers each file's outcome in order.
 * Throws only for the request as a whole (a malformed body, the database away).
 */
export async function intakeFiles(
  ctx: ServerContext,
  caller: AuthContext,
  files: readonly IntakeFile[],
  /** Aborted when the sender is gone: a batch being read for codes is given up (nothing made of it). */
  signal?: AbortSignal,
): Promise<IntakeOutcome[]> {
  const s = await scope(ctx, caller);
  const outcomes = new Map<number, IntakeOutcome>();
  const refuse = (i: number, problem: HttpProblem) =>
    outcomes.set(i, { status: PROBLEM_STATUS[problem.kind], problem });
  /** Files answered by a receipt (what an upload made), replayed or not. */
  const receipts = new Map<number, { receipt: q.IntakeReceiptRow; replayed: boolean }>();
  /** Files whose content a document holds already (by hash): a 409 naming it. */
  const held = new Map<number, string>();

  /** Retries to compare with the request their key first came with (by hash) before they are answered. */
  const retries = new Map<number, q.IntakeReceiptRow>();
  /** A key's receipt, replayed if the file is what the key first came with; otherwise a 422. */
  const replay = (i: number, prior: q.IntakeReceiptRow, hash: string) => {
    if (sameRequest(prior.request_hash, hash)) receipts.set(i, { receipt: prior, replayed: true });
    else refuse(i, keyReused());
  };

  // Retries first: answered from their receipts, their bytes hashed on the way (unread for an old
  // receipt, which has no hash to compare with).
  const priors = await q.intakeReceipts(
    ctx.db,
    s.userId,
    files.map((f) => f.key),
  );
  files.forEach((f, i) => {
    const prior = priors.get(f.key);
    if (!prior) return;
    if (prior.request_hash === null) receipts.set(i, { receipt: prior, replayed: true });
    else retries.set(i, prior);
  });

  // Access before a byte is read: creating drafts (asked once), filing on each named document.
  let mayCreate: HttpProblem | null | undefined;
  const targets = new Map<number, number>();
  const byNumber = new Map<string, number | HttpProblem>();
  for (const [i, file] of files.entries()) {
    if (receipts.has(i) || retries.has(i)) continue;
    if (file.number === undefined) {
      mayCreate ??= await refusalOf(() => requireOnDirection(ctx.db, caller, 'in', 'create'));
      if (mayCreate) refuse(i, mayCreate);
      continue;
    }
    let target = byNumber.get(file.number);
    if (target === undefined) {
      target = await filingTarget(ctx.db, caller, s, file.number);
      byNumber.set(file.number, target);
    }
    if (target instanceof HttpProblem) refuse(i, target);
    else targets.set(i, target);
  }

  /** Files received, checked and stored, by index. */
  const received = new Map<number, ReceivedFile>();
  // The bytes, in the order they arrive; each stored as soon as it is checked (one in memory at a
  // time). One copy of a content: the first file of the batch with it goes on, the others are
  // duplicates.
  const contents = new Set<string>();
  /** The hash of each received file's request, recorded with its receipt. */
  const hashes = new Map<number, string>();
  /** Files cut into documents by their codes (batch-cut.ts), and what filing their parts made. */
  const cuts = new Map<number, { batch: ReceivedFile; parts: CutPart[] }>();
  const cutDone = new Map<number, CutOutcome>();
  for (const [i, file] of files.entries()) {
    const retried = retries.get(i);
    if (retried) {
      replay(i, retried, hashOf(await file.identify(), file.number));
      continue;
    }
    if (outcomes.has(i) || receipts.has(i)) {
      await file.skip();
      continue;
    }
    let got: ReceivedFile;
    try {
      got = await file.receive();
    } catch (error) {
      if (error instanceof HttpProblem && FILE_REFUSALS.has(error.kind)) {
        refuse(i, error);
        continue;
      }
      throw error;
    }
    hashes.set(i, hashOf(got, file.number));
    if (contents.has(got.sha256)) {
      held.set(i, got.sha256);
      await got.discard();
      continue;
    }
    contents.add(got.sha256);
    // Its pages read for codes: a batch with separator or cover sheets or stickers is cut into its
    // documents (batch-cut.ts); the parts are stored, not the batch (its sender keeps the original).
    let parts: CutPart[] | null;
    try {
      parts = await cutReceived(got, intakeName(got), {
        tempDir: ctx.files.tempDir,
        readCodes: async (path, abort) => (await readPageCodes(path, abort ? { signal: abort } : {})).pages,
        signal,
      });
    } catch (error) {
      await got.discard();
      if (error instanceof HttpProblem) {
        refuse(i, error);
        continue;
      }
      throw error;
    }
    if (parts) {
      try {
        for (const part of parts) await ctx.files.put(Buffer.from(part.bytes), part.sha256);
      } finally {
        await got.discard();
      }
      cuts.set(i, { batch: got, parts });
      continue;
    }
    try {
      await got.store(ctx.files);
    } finally {
      await got.discard();
    }
    received.set(i, got);
  }

  for (const [i, { batch, parts }] of cuts) {
    try {
      const done = await fileCutBatch(ctx, caller, s, {
        key: files[i]!.key,
        batch,
        batchName: intakeName(batch),
        parts,
        requestHash: hashes.get(i)!,
        target: targets.get(i),
      });
      if ('prior' in done) replay(i, done.prior, hashes.get(i)!);
      else cutDone.set(i, done);
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
      refuse(i, error);
    }
  }

  const drafts = [...received.keys()].filter((i) => !targets.has(i));
  if (drafts.length > 0) {
    const inputs = drafts.map((i) => {
      const file = received.get(i)!;
      const fileName = intakeName(file);
      return {
        key: files[i]!.key,
        requestHash: hashes.get(i)!,
        sha256: file.sha256,
        subject: fileName.replace(/\.pdf$/i, '').slice(0, 300) || fileName,
        fileName,
        size: file.size,
      };
    });
    // The checks and every row of every draft in one statement, under the contents' locks.
    const made = await ctx.db.transaction(async (tx) => {
      await q.lockContents(
        tx,
        inputs.map((d) => d.sha256),
      );
      return q.intakeDrafts(tx, {
        scope: s,
        archiveDepartmentId: s.archiveDepartmentId,
        files: inputs,
      });
    });
    made.forEach((outcome, n) => {
      const i = drafts[n]!;
      const input = inputs[n]!;
      // A concurrent retry of this very upload may have finished while the file arrived.
      if ('prior' in outcome) replay(i, outcome.prior, input.requestHash);
      else if ('held' in outcome) held.set(i, input.sha256);
      else
        outcomes.set(i, {
          status: 201,
          result: { ...outcome.made, docNumber: null, subject: input.subject, replayed: false },
        });
    });
  }

  for (const [i, documentId] of targets) {
    if (cuts.has(i)) continue;
    const file = received.get(i);
    if (!file) continue;
    try {
      const done = await attachTo(ctx, caller, s, files[i]!.key, documentId, file, hashes.get(i)!);
      if ('held' in done) held.set(i, file.sha256);
      else if ('prior' in done) replay(i, done.prior, hashes.get(i)!);
      else receipts.set(i, { receipt: done.made, replayed: false });
    } catch (error) {
      if (!(error instanceof HttpProblem)) throw error;
      refuse(i, error);
    }
  }

  for (const [i, sha256] of held) {
    const [holder] = await q.holdersOf(ctx.db, s, sha256, null, 1);
    refuse(i, duplicate(holder));
  }

  // What an upload made, as its sender sees it: the document's number and subject; every part of a cut
  // batch (made now, or recorded by its receipts when replayed).
  const answered = [...receipts].filter(([i]) => !outcomes.has(i));
  const replayedCuts = await q.intakePartReceipts(
    ctx.db,
    s.userId,
    new Map(
      answered.flatMap(([i, { receipt }]) =>
        receipt.parts ? [[files[i]!.key, receipt.parts] as const] : [],
      ),
    ),
  );
  const partsOf = new Map<number, { documentId: number; attachmentId: number | null; pages: number[] }[]>();
  for (const [i, done] of cutDone)
    partsOf.set(
      i,
      done.parts.map(({ part, documentId, attachmentId }) => ({
        documentId,
        attachmentId,
        pages: part.pages,
      })),
    );
  for (const [i] of answered) {
    const recorded = replayedCuts.get(files[i]!.key);
    if (recorded)
      partsOf.set(
        i,
        recorded.map((r) => ({ documentId: r.document_id, attachmentId: r.attachment_id, pages: r.pages })),
      );
  }
  const documentIds = [
    ...answered.map(([, r]) => r.receipt.document_id),
    ...[...partsOf.values()].flat().map((p) => p.documentId),
  ];
  if (documentIds.length > 0) {
    const docs = await q.numbersAndSubjects(ctx.db, documentIds);
    const described = (documentId: number) => {
      const doc = docs.get(documentId);
      return { docNumber: doc?.doc_number ?? null, subject: doc?.subject ?? '' };
    };
    const partsAnswer = (i: number): IntakePart[] | undefined =>
      partsOf.get(i)?.map((p) => ({ ...p, ...described(p.documentId) }));
    for (const [i, { receipt, replayed }] of answered) {
      const parts = partsAnswer(i);
      outcomes.set(i, {
        status: replayed ? 200 : 201,
        result: {
          documentId: receipt.document_id,
          attachmentId: receipt.attachment_id,
          ...described(receipt.document_id),
          replayed,
          ...(parts ? { parts } : {}),
        },
      });
    }
    for (const [i, done] of cutDone) {
      const parts = partsAnswer(i)!;
      const first = done.parts[0]!;
      outcomes.set(i, {
        status: 201,
        result: {
          documentId: first.documentId,
          attachmentId: first.attachmentId,
          ...described(first.documentId),
          replayed: false,
          parts,
        },
      });
    }
  }
  return files.map((_, i) => outcomes.get(i)!);
}

/**
 * POST /correspondence/intake: one file, as `intakeFiles` takes it; a refusal is the request's answer.
 * A retry is answered without keeping the file (its bytes hashed only, to compare).
 */
export async function intake(
  ctx: ServerContext,
  caller: AuthContext,
  input: { key: string; number?: string | undefined },
  file: { receive(): Promise<ReceivedFile>; identify(): Promise<FileIdentity> },
  signal?: AbortSignal,
): Promise<IntakeResult> {
  const [outcome] = await intakeFiles(
    ctx,
    caller,
    [{ ...input, receive: file.receive, identify: file.identify, skip: async () => undefined }],
    signal,
  );
  if ('problem' in outcome!) throw outcome.problem;
  return outcome!.result;
}
